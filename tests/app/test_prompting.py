"""Prompting settings: when the table stops for a person, and how many hand-overs that costs."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from app.controller import PROMPTING, TableController
from app.main import parse_args, setup_from_args
from engine.builder import practice_game
from engine.decisions import GameOver
from engine.game import Options
from engine.players import RandomPlayer

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))


def _hotseat(seed: int, prompting=None, names=("Alice", "Bob")):
    game = practice_game(seed=seed, players=list(names), options=Options(prompt_all=True))
    ctl = TableController(game, privacy=True, prompting=prompting)
    return game, ctl


def _play(game, ctl, seed: int, on_handover=None, limit: int = 4000) -> int:
    """Two people at the screen, answering at random; returns the answers they gave."""
    choosers = {n: RandomPlayer(seed * 13 + i, pass_bias=0.3) for i, n in enumerate(game.state.player_names)}
    ctl.start()
    answers = 0
    for _ in range(limit):
        if isinstance(game.advance(), GameOver):
            return answers
        if ctl.hands_hidden:
            if on_handover is not None:
                on_handover(ctl.decision)
            ctl.reveal()
        d = ctl.decision
        for answer in choosers[d.player].candidates(game, d):
            if ctl.submit(answer):
                break
        else:
            raise AssertionError(f"no legal answer for {d.describe()}")
        answers += 1
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_by_default_nobody_is_handed_the_screen_only_to_pass(seed, qapp):
    game, ctl = _hotseat(seed)
    handed: list = []
    _play(game, ctl, seed, on_handover=handed.append)
    assert len(handed) == ctl.handovers > 10
    only_pass = [d.describe() for d in handed if d.only_pass]
    assert not only_pass, only_pass[:5]
    assert ctl.auto_passes > 0  # the windows where passing was the only answer were passed for them


def test_always_stops_in_every_window_and_never_skips_the_optional_ones(qapp):
    for policy in PROMPTING:
        game, ctl = _hotseat(4, prompting={"*": policy})
        asked: list = []
        original = ctl.submit

        def submit(answer, free=None, ctl=ctl, asked=asked, original=original):
            asked.append((ctl.decision, ctl.optional_window()))
            return original(answer, free=free)

        ctl.submit = submit
        _play(game, ctl, 4)
        if policy == "always":
            assert any(d.only_pass for d, _ in asked)  # asked even where only passing was legal
        else:
            assert not any(d.only_pass for d, _ in asked)
        if policy == "never":
            assert not any(optional for _, optional in asked)
    # (each setting plays a game of its own: the bench compares them on one position)


def test_pass_for_the_rest_of_the_phase(table):
    window, ui = table(seed=5)
    game, ctl = ui.game, window.controller

    def optional_with_a_play(d):
        return ctl.optional_window(d) and not d.only_pass

    ui.advance(optional_with_a_play)
    ui.take_seat()
    me = ctl.viewer
    st = game.state
    where = (st.round, st.phase_serial)
    assert "pass-phase" in window.prompt.buttons
    ui.press("pass-phase")
    assert ctl.phase_pass[me] == where
    for _ in range(400):  # the rest of the phase: the table never stops for an optional window of his
        d = ui.decision
        if (st.round, st.phase_serial) != where:
            break
        assert not (d.player == me and ctl.optional_window(d)), d.describe()
        ui.enter(ui.simple_answer())
    assert any(answer == {"pass": True} for name, answer in game.history if name == me)


def test_the_bench_counts_fewer_hand_overs_with_fewer_stops(qapp):
    from bench_handovers import table as bench_table

    results = bench_table()
    for kind in ("marshal", "challenge"):
        r = {setting: results[(kind, setting)] for setting in
             ("before", "legal", "legal + pass for the phase", "always", "never")}
        assert r["legal"]["handovers"] == r["before"]["handovers"]  # the default is the table as it was
        assert r["legal"]["other_only_pass"] == 0 and r["before"]["other_only_pass"] == 0
        assert r["legal"]["asked_other"] > 0
        assert r["never"]["handovers"] <= r["legal + pass for the phase"]["handovers"] <= r["legal"]["handovers"] \
            <= r["always"]["handovers"]
        assert r["never"]["clicks"] < r["legal"]["clicks"] < r["always"]["clicks"]
    assert results[("marshal", "never")]["handovers"] < results[("marshal", "legal")]["handovers"]


def test_prompting_from_the_command_line_the_dialog_and_the_menu(table, qtbot):
    args = parse_args(["--players", "3", "--prompt", "bob:always", "--prompt", "never"])
    setup = setup_from_args(args)
    assert setup.prompting == {"*": "never", "Bob": "always"}
    with pytest.raises(SystemExit):
        setup_from_args(parse_args(["--prompt", "nobody:always"]))
    with pytest.raises(SystemExit):
        setup_from_args(parse_args(["--prompt", "alice:sometimes"]))

    from app.dialogs import GameSetup, NewGameDialog

    dialog = NewGameDialog(None, GameSetup(prompting={"Bob": "always"}))
    qtbot.addWidget(dialog)
    assert dialog.rows[1].prompting.currentData() == "always"
    dialog.rows[0].prompting.setCurrentIndex(dialog.rows[0].prompting.findData("never"))
    assert dialog.setup().prompting == {"Alice": "never", "Bob": "always"}

    window, ui = table(seed=3)
    assert window.controller.prompting_of("Bob") == "legal"
    window.prompting_actions[("Bob", "never")].trigger()
    assert window.controller.prompting_of("Bob") == "never"
    assert window.prompting_actions[("Bob", "never")].isChecked()


def test_cards_whose_timing_was_not_read_do_not_stop_the_table_but_stay_usable(qtbot, tmp_path):
    """Bob's Banner Bearer and Moon Watcher have text whose timing cannot be read: offered in every window,
    they must not make the "when I have a legal play" setting stop him (the table passes for him); with
    "always" the table stops, and the cards are behind one "Use a card by hand…" entry that opens their use."""
    from PySide6.QtCore import Qt

    from app.dialogs import GameSetup
    from app.window import TableWindow
    from tests.engine.test_manual import UNTIMED

    path = tmp_path / "untimed.yaml"
    path.write_text(UNTIMED, encoding="utf-8")

    def table(prompting):
        window = TableWindow(GameSetup(scenario=str(path), privacy=False, prompting=prompting),
                             computer_delay_ms=0)
        qtbot.addWidget(window)
        window.resize(1600, 1000)
        window.show()
        return window, window.controller, window.controller.game

    def play_to_next_round(ctl, g, stop=None):
        """Pass (or take the first option) at every decision the table stops at, until round 2."""
        shown = []
        while g.state.round == 1:
            d = ctl.decision
            ctl.viewer = d.player
            shown.append(d)
            if stop is not None and stop(d):
                return shown
            g.answer(d.player, {"pass": True} if d.can_pass else
                     ({"choose": d.choices[:d.min_count]} if d.kind == "choose" else d.options[0]))
            ctl._after_change()
        return shown

    window, ctl, g = table({})
    shown = play_to_next_round(ctl, g)
    assert not [d.describe() for d in shown if d.player == "bob" and d.only_pass_or_untimed]
    untimed_passes = [a for i, (who, a) in enumerate(g.history) if i in ctl.auto_at and who == "bob"]
    assert untimed_passes  # the windows where only his untimed cards were playable were passed for him
    window.close()

    window, ctl, g = table({"*": "always"})
    shown = play_to_next_round(ctl, g, stop=lambda d: d.player == "bob" and d.kind == "action")
    prompt = window.prompt
    window.refresh()
    banner = next(c for c in g.player("bob").in_play if g.name(c) == "Banner Bearer")
    assert f"hand-{banner}-1" not in prompt.buttons and "Banner Bearer" in prompt.buttons["hand-untimed"].toolTip()
    if os.environ.get("MAESTER_SHOTS"):
        prompt.grab().save(str(Path(os.environ["MAESTER_SHOTS"]) / "untimed-entry-closed.png"))
    qtbot.mouseClick(prompt.buttons["hand-untimed"], Qt.MouseButton.LeftButton)
    button = prompt.buttons[f"hand-{banner}-1"]
    assert button.isVisible() and button.text() == "Use Banner Bearer (timing not read) by hand"
    if os.environ.get("MAESTER_SHOTS"):
        prompt.grab().save(str(Path(os.environ["MAESTER_SHOTS"]) / "untimed-entry-open.png"))
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    before = len(g.history)
    qtbot.mouseClick(prompt.picker.use, Qt.MouseButton.LeftButton)
    assert len(g.history) == before + 1 and g.history[-1][1]["by_hand"] == banner
    window.close()
