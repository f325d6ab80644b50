"""WIN-06, C-10 (issue 22): a win and an elimination at once are ordered by the first player, as a
decision that is recorded, replayed, and answered by the computer players."""
from __future__ import annotations

from pathlib import Path

import pytest

from engine.ai.heuristic import HeuristicPlayer
from engine.decisions import GameOver, Refused
from engine.game import Options
from engine.replay import replay
from engine.scenario import load_scenario

SCENARIO = Path(__file__).resolve().parents[1] / "scenarios" / "rules" / \
    "win-06-first-player-orders-a-win-and-an-elimination.yaml"


def _at_the_order_decision(prompt_all: bool = True):
    sc = load_scenario(SCENARIO, Options(prompt_all=prompt_all))
    game = sc.game
    while True:
        d = game.advance()
        assert not isinstance(d, GameOver), d
        if d.kind == "choose" and d.context.get("end_order"):
            return sc, game, d
        if d.player == "alice" and d.kind == "action":
            game.answer("alice", {"trigger": sc.labels["purge"], "ability": 1,
                                  "targets": [sc.labels["priestess"], sc.labels["squire"]], "pay": [], "x": 0})
        else:
            game.answer(d.player, {"pass": True})


@pytest.mark.parametrize("prompt_all", [True, False])
def test_the_first_player_is_asked_and_a_wrong_word_is_refused(prompt_all):
    _, game, d = _at_the_order_decision(prompt_all)
    assert d.player == "bob" and sorted(d.choices) == ["elimination", "victory"]
    assert d.context["winners"] == ["alice"] and d.context["doomed"] == ["alice"]
    before = game.state.digest()
    with pytest.raises(Refused, match=r"\(WIN-06\)"):
        game.answer("bob", {"choose": ["draw"]})
    assert game.state.digest() == before


@pytest.mark.parametrize("first, winner", [("victory", "alice"), ("elimination", "bob")])
def test_the_order_decides_the_game_and_replays(first, winner):
    _, game, _ = _at_the_order_decision()
    game.answer("bob", {"choose": [first]})
    result = game.advance()
    assert isinstance(result, GameOver) and result.winner == winner
    assert replay(game).state.digest() == game.state.digest()


def test_a_computer_first_player_applies_the_elimination_of_the_player_who_would_win():
    _, game, _ = _at_the_order_decision()
    HeuristicPlayer(0).play_turn(game)
    assert game.advance().winner == "bob"
