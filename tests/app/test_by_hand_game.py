"""A whole game with imported Core Set decks, enforce mode, card text by hand through the table.

The community LCG data gives the real Core Set cards; the game is played with
the project's ability data left out for them, so their text is played by hand
(engine/manual.py). Each time
the table offers a use by hand, the driver takes it (a title it has not used
yet first) with the prompt bar's button and the cost panel, carries the text
out with a tool from the card's context menu, and presses Done; every passive
by hand is resolved. Everything else is answered through the table's controls
by a random chooser. The test checks that each use came at its proper timing
(an action in a player-action segment of its phase, a save or cancel in step 2,
a response in step 5), that no offer was refused, and that every non-automated
card that was offered was used.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from app.window import TableWindow
from engine import manual
from engine.decisions import GameOver, Refused
from engine.players import RandomPlayer
from tests.app.conftest import Driver

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

STEP_OF = {"action": "action", "unlabelled": ("action", "response"), "save": "save_cancel",
           "cancel": "save_cancel", "response": "response"}


@pytest.fixture
def core_table(qtbot, lcg_json):
    from bench_lcg_games import lcg_game
    from cards.pool import load_pool

    from dataclasses import replace

    from cards.model import CardPool

    # the project's ability data now covers most Core Set cards: this game plays them without it, so
    # that every kind of text (actions, responses, saves, unlabelled) is met by hand
    pool = CardPool()
    for card in load_pool(str(lcg_json)):
        pool.add(replace(card, abilities=(), partial="", partial_paragraphs=()) if card.set == "Core" else card)
    game = lcg_game(pool, ("stark", "lannister"), 3, by_hand_first=True)  # the cards without ability data
    window = TableWindow(game=game, computer_delay_ms=0)
    qtbot.addWidget(window)
    window.resize(1600, 1000)
    window.show()
    qtbot.waitExposed(window)
    yield window, Driver(window, qtbot)
    window.close()


def test_a_whole_core_set_game_with_text_by_hand_through_the_table(core_table, qtbot):
    window, ui = core_table
    game, ctl, prompt = ui.game, ui.ctl, window.prompt
    assert game.options.mode == "enforce"
    rng = random.Random(7)
    choosers = {n: RandomPlayer(40 + i, pass_bias=0.35) for i, n in enumerate(game.state.player_names)}
    offered: set[str] = set()
    used: dict[str, int] = {}
    timings: list[tuple[str, str, str, str | None]] = []
    tools_used: set[str] = set()
    passives = 0
    for _ in range(6000):
        if isinstance(game.advance(), GameOver):
            break
        ui.take_seat()
        d = ui.decision
        before = len(game.history)
        options = ctl.by_hand_options() + prompt.untimed_options()  # untimed: behind "Use a card by hand…"
        for o in options:
            offered.add(game.name(o["by_hand"]))
        if d.kind == "by_hand_effect":
            # carry out the text: one tool from the source card's context menu (a token, say), then Done
            cid = d.context["card"]
            if game.card(cid).zone in manual.SOURCE_ZONES:
                entry = next((a for a in ctl.card_actions(cid) if a[0].startswith("Token +1")), None)
                assert entry is not None, [a[0] for a in ctl.card_actions(cid)]
                entry[1]()
                assert len(game.history) == before + 1, prompt.msg.text()
                tools_used.add("token")
                before += 1
            ui.press("done")
        elif d.kind == "by_hand_passive":
            ui.press("resolve")
            passives += 1
        elif options:
            fresh = [o for o in options if game.name(o["by_hand"]) not in used]
            if not fresh and rng.random() < 0.85:
                ui.enter(ui.pick_legal(choosers[d.player]))  # then the table may pass for the next seats
                assert len(game.history) > before, f"{d.describe()}: {prompt.msg.text()}"
                continue
            o = (fresh or options)[0]
            ta = ctl.text_ability(o)
            expected = STEP_OF[ta.kind]
            assert d.kind in (expected if isinstance(expected, tuple) else (expected,)), (ta, d.kind)
            if ta.kind == "action":
                assert ta.phase in ("any", game.state.phase), (ta, game.state.phase)
            timings.append((game.name(o["by_hand"]), ta.kind, d.kind, game.state.phase))
            if o in prompt.untimed_options():
                assert ta.flagged and not any(k.startswith(f"hand-{o['by_hand']}-") for k in prompt.buttons)
                ui.press("hand-untimed")
            key = next(k for k in prompt.buttons if k.startswith(f"hand-{o['by_hand']}-{o['paragraph']}")
                       and (("save" not in o) or k.endswith(f"save-{o['save']}")))
            ui.press(key)
            assert prompt.picker is not None  # the cost panel
            qtbot.mouseClick(prompt.picker.use, Qt.MouseButton.LeftButton)
            assert len(game.history) > before and "by_hand" in game.history[before][1], \
                f"{o}: {prompt.msg.text()}"
            used[game.name(o["by_hand"])] = used.get(game.name(o["by_hand"]), 0) + 1
            continue
        else:
            ui.enter(ui.pick_legal(choosers[d.player]))
        assert len(game.history) > before, f"{d.describe()}: {prompt.msg.text()}"
    result = game.advance()
    assert isinstance(result, GameOver) and result.winner in game.state.player_names, result
    assert not any("free" in a for _, a in game.history)  # enforce mode: answers only
    assert offered and offered <= set(used), sorted(offered - set(used))
    assert len(used) >= 8, used
    assert passives >= 2 and "token" in tools_used
    kinds = {k for _, k, _, _ in timings}
    assert {"action", "response", "unlabelled"} <= kinds, timings  # and whatever else was offered: used
    log = "\n".join(game.state.log)
    assert "text not automated \u2014 resolve by hand" in log
    print(f"\n{len(game.history)} answers, {len(used)} cards used by hand ({sum(used.values())} uses), "
          f"{passives} passives by hand; timings: {sorted(set((k, s) for _, k, s, _ in timings))}")


def test_a_refused_use_by_hand_changes_nothing(core_table):
    window, ui = core_table
    game = ui.game
    digest = game.state.digest()
    d = ui.decision
    with pytest.raises(Refused):
        game.answer(d.player, {"by_hand": 10**6, "paragraph": 1})
    assert game.state.digest() == digest
