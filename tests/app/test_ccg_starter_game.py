"""A whole game with the Winter Edition premium starters (AGoTDB's French database), enforce mode,
on the table: the French text is played by hand where it is not automated.

Skips without ../shared/data/agotdb/AGoT - FR.mdb. The import goes to this test's own data folder.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from app.dialogs import GameSetup
from app.window import TableWindow
from engine.decisions import GameOver
from engine.players import RandomPlayer
from tests.app.conftest import Driver

FR_MDB = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "agotdb" / "AGoT - FR.mdb"


def _starter_table(qtbot):
    if not FR_MDB.is_file():
        pytest.skip("../shared/data/agotdb/AGoT - FR.mdb is not present")
    from cards.pool import main as pool_main

    assert pool_main(["import", str(FR_MDB)]) == 0
    setup = GameSetup(names=["Alice", "Bob"], decks=["agotdb:Winter Greyjoy starter",
                                                     "agotdb:Winter Targaryen starter"],
                      era="ccg", mode="enforce", seed=5, ruleset="ccg-winter")
    window = TableWindow(setup, computer_delay_ms=0)
    qtbot.addWidget(window)
    window.resize(1600, 1000)
    window.show()
    qtbot.waitExposed(window)
    return window, Driver(window, qtbot)


@pytest.fixture
def starter_table(qtbot):
    window, ui = _starter_table(qtbot)
    yield window, ui
    window.close()


@pytest.fixture
def starter_table_by_hand(qtbot, monkeypatch):
    """The starters as they were before their ability data (cards/abilities/ccg-winter-starters.yaml): every
    card with text is played by hand, in French, which is what a CCG card without data still is."""
    import cards.overlay as overlay
    import cards.pool as pools

    everything = overlay.load_ability_data
    monkeypatch.setattr(overlay, "load_ability_data", lambda folder=None: {
        k: v for k, v in everything(folder).items() if not k.startswith("agotdb_")})
    pools.clear_caches()
    window, ui = _starter_table(qtbot)
    yield window, ui
    window.close()
    monkeypatch.undo()
    pools.clear_caches()


def test_winter_starters_play_a_whole_game_in_enforce_mode(starter_table_by_hand):
    window, ui = starter_table_by_hand
    game, ctl, prompt = ui.game, ui.ctl, window.prompt
    assert game.options.mode == "enforce"
    houses = {p.name: p.house for p in game.state.players}
    assert houses == {"Alice": "greyjoy", "Bob": "targaryen"}
    rng = random.Random(2)
    choosers = {n: RandomPlayer(60 + i, pass_bias=0.1) for i, n in enumerate(game.state.player_names)}
    by_hand = 0
    for _ in range(8000):
        if isinstance(game.advance(), GameOver):
            break
        ui.take_seat()
        d = ui.decision
        before = len(game.history)
        if d.kind == "by_hand_effect":
            ui.press("done")
        elif d.kind == "by_hand_passive":
            ui.press("resolve" if rng.random() < 0.5 else "pass")
        elif ctl.by_hand_options() and d.kind == "action" and rng.random() < 0.2:
            o = ctl.by_hand_options()[0]
            key = next(k for k in prompt.buttons if k.startswith(f"hand-{o['by_hand']}-{o['paragraph']}"))
            ui.press(key)
            prompt.picker.use.click()
            by_hand += 1
        else:
            ui.enter(ui.pick_legal(choosers[d.player]))
        assert len(game.history) > before, f"{d.describe()}: {prompt.msg.text()}"
    result = game.advance()
    assert isinstance(result, GameOver) and result.winner in game.state.player_names, result
    assert by_hand > 0
    french = [c for c in game.state.cards if game.defn(c).text_lang == "fr"]
    assert french, "the starters' text is French"
    log = "\n".join(game.state.log)
    assert "text not automated \u2014 resolve by hand" in log
    print(f"\n{len(game.history)} answers, {by_hand} uses by hand, {result.winner} wins in round {game.state.round}")


def test_the_table_does_not_stop_for_cards_whose_timing_was_not_read(starter_table):
    """Issue 22: the starters' by-hand cards whose timing could not be read are legal in every window; with
    the default setting ("when I have a legal play") the table stopped 11 times between choosing the first
    player and the first marshal, each time only to pass. It stops for no one there now."""
    window, ui = starter_table
    game, ctl = ui.game, ui.ctl
    stops, chosen = [], False
    for _ in range(400):
        d = ctl.decision
        if d.kind == "action" and game.state.phase == "marshalling" and game.state.active_player == d.player:
            break
        if chosen:
            stops.append(d.describe())
        chosen = chosen or d.kind == "first_player"
        ctl.viewer, ctl.hands_hidden = d.player, False
        game.answer(d.player, {"pass": True} if d.can_pass else RandomPlayer(1).candidates(game, d)[0])
        ctl._after_change()
    assert chosen and not stops, stops


def test_winter_starters_computer_against_computer_use_their_automated_text():
    """Issue 24: a whole game between the two Winter premium starters, computer against computer (the
    heuristic player), in enforce mode, with the project's ability data: the log shows the CCG cards'
    automated abilities used (triggered, played, resolved). No table: the engine alone."""
    if not FR_MDB.is_file():
        pytest.skip("../shared/data/agotdb/AGoT - FR.mdb is not present")
    from cards.deck import fixed_deck
    from cards.pool import load_pool
    from engine.ai import make_player
    from engine.ai.match import play_game
    from engine.builder import new_game
    from engine.game import Options

    pool = load_pool(FR_MDB)
    decks = {"greyjoy": fixed_deck("Winter Greyjoy starter", pool),
             "targaryen": fixed_deck("Winter Targaryen starter", pool)}
    game = new_game(decks, seed=1, ruleset="ccg-winter", options=Options(mode="enforce"))
    winner = play_game(game, {n: make_player("heuristic", i) for i, n in enumerate(decks)})
    assert winner in decks, winner
    automated = {d.name for deck in decks.values() for d in [*deck.plots, *deck.cards] if d.abilities}
    used = {n for n in automated for line in game.state.log
            if f"triggers {n}" in line or f"plays {n}" in line or f"{n}'s passive ability resolves" in line}
    assert len(used) >= 5, sorted(used)
    print(f"\n{winner} wins in round {game.state.round}; CCG abilities used: {', '.join(sorted(used))}")
