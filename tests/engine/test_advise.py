"""Advise mode: free moves are applied and recorded; the engine says which rule they break."""
import pytest

from engine.advise import free_move
from engine.decisions import Refused
from engine.scenario import load_scenario

SCENARIO = """
format: 1
title: advise mode table
cards:
  - {name: Costly Knight, type: character, house: stark, cost: 5, strength: 4, icons: [military]}
  - {name: Peasant, type: character, cost: 1, strength: 1, icons: [power]}
  - {name: Plain Plot, type: plot, income: 3, initiative: 1, claim: 1}
start:
  phase: marshalling
  players:
    alice:
      house: lannister
      revealed_plot: Plain Plot
      hand: [Costly Knight]
      deck: [Peasant, Peasant, Peasant, Peasant, Peasant]
      drawn_this_round: 3
    bob:
      house: stark
      revealed_plot: Plain Plot
      in_play: [{card: Peasant, id: bobs}]
steps: []
"""


@pytest.fixture
def game(tmp_path):
    path = tmp_path / "advise.yaml"
    path.write_text(SCENARIO)
    return load_scenario(path).game


def _advance_to_marshal(game):
    while True:
        d = game.advance()
        if d.kind == "action" and game.state.active_player == d.player == "alice":
            return d
        game.answer(d.player, {"pass": True})


def test_free_marshal_too_expensive_is_applied_with_the_gold_warning(game):
    _advance_to_marshal(game)
    knight = game.player("alice").hand[0]
    warnings = free_move(game, "alice", {"move": knight, "to": "in_play"})
    assert knight in game.player("alice").in_play
    assert any("gold: Costly Knight costs 7 with the +2 gold penalty" in w for w in warnings), warnings
    assert game.history[-1] == ("alice", {"free": {"move": knight, "to": "in_play"}})


def test_DRW_03_a_fourth_effect_draw_is_applied_and_warned(game):
    _advance_to_marshal(game)
    warnings = free_move(game, "alice", {"draw": "alice", "count": 1})
    assert warnings == ["draw cap: a fourth card drawn by effects this round (DRW-03)"]
    assert len(game.player("alice").hand) == 2
    assert game.player("alice").drawn_this_round == 4


def test_a_legal_free_move_gives_no_warning(game):
    _advance_to_marshal(game)
    bobs = game.player("bob").in_play[0]
    assert free_move(game, "alice", {"kneel": bobs}) == []
    assert game.card(bobs).kneeling


def test_impossible_free_moves_are_refused_and_change_nothing(game):
    _advance_to_marshal(game)
    before = game.state.digest()
    house = game.player("alice").house_card
    for move in ({"move": house, "to": "discard"}, {"move": 9999, "to": "hand"}, {"teleport": 1},
                 {"gold": "alice", "delta": -10}):
        with pytest.raises(Refused):
            free_move(game, "alice", move)
    assert game.state.digest() == before


def test_free_power_to_fifteen_wins(game):
    _advance_to_marshal(game)
    free_move(game, "alice", {"power": game.player("alice").house_card, "delta": 15})
    assert game.state.winner == "alice"
    assert game.advance().winner == "alice"


INFLUENCE = """
format: 1
title: influence in advise mode
cards:
  - name: Quiet Word
    type: event
    cost: 0
    abilities:
      - {kind: action, phase: any, cost: {influence: 2}, choose: {type: character}, effect: [{kneel: target}]}
  - {name: Counsellor, type: character, cost: 2, strength: 1, icons: [intrigue], influence: 1}
  - {name: Plain Plot, type: plot, income: 3, initiative: 1, claim: 1}
start:
  phase: challenges
  players:
    alice:
      house: lannister
      revealed_plot: Plain Plot
      hand: [Quiet Word]
      in_play: [{card: Counsellor, id: c1}]
    bob:
      house: stark
      revealed_plot: Plain Plot
      in_play: [{card: Counsellor, id: c2}]
steps: []
"""


@pytest.mark.parametrize("mode", ["enforce", "advise"])
def test_COS_01_too_little_influence_is_refused_or_advised(tmp_path, mode):
    from engine.game import Options

    path = tmp_path / "influence.yaml"
    path.write_text(INFLUENCE)
    game = load_scenario(path, Options(prompt_all=True, mode=mode)).game
    while not (game.advance().kind == "action" and game.advance().player == "alice"):
        game.answer(game.advance().player, {"pass": True})
    word = game.player("alice").hand[0]
    mine, theirs = game.player("alice").in_play[0], game.player("bob").in_play[0]
    answer = {"trigger": word, "targets": [theirs], "pay": [mine]}
    if mode == "enforce":
        before = game.state.digest()
        with pytest.raises(Refused, match="influence: 2 needed, 1 knelt"):
            game.answer("alice", answer)
        assert game.state.digest() == before
    else:
        game.answer("alice", answer)
        assert game.warnings == ["influence: 2 needed, 1 knelt (COS-01)"]
        assert game.card(mine).kneeling
        assert any("advice: alice: influence: 2 needed, 1 knelt" in line for line in game.state.log)


def test_a_free_marshal_warns_of_every_rule_it_breaks(game):
    """Outside the marshalling turn AND too expensive: MAR-05 and MAR-04, not only the first."""
    while game.advance().kind != "action" or game.state.phase == "marshalling":
        game.answer(game.advance().player, {"pass": True})
    assert game.state.phase == "challenges"
    knight = game.player("alice").hand[0]
    warnings = free_move(game, "alice", {"move": knight, "to": "in_play"})
    assert any("(MAR-05)" in w for w in warnings) and any("(MAR-04)" in w for w in warnings), warnings
    assert knight in game.player("alice").in_play


SETUP = """
format: 1
title: advise setup
cards:
  - {name: Costly Knight, type: character, house: stark, cost: 5, strength: 4, icons: [military]}
  - {name: Peasant, type: character, cost: 1, strength: 1, icons: [power]}
  - {name: Plain Plot, type: plot, income: 3, initiative: 1, claim: 1}
start:
  phase: setup
  players:
    alice:
      house: stark
      plot_deck: [Plain Plot]
      hand: [Costly Knight, Peasant]
      deck: [Peasant, Peasant, Peasant, Peasant, Peasant, Peasant, Peasant]
    bob:
      house: stark
      plot_deck: [Plain Plot]
      deck: [Peasant, Peasant, Peasant, Peasant, Peasant, Peasant, Peasant]
steps: []
"""


@pytest.mark.parametrize("mode", ["enforce", "advise"])
def test_SET_02_setup_past_its_gold_limit_is_a_warning_in_advise_mode(tmp_path, mode):
    from engine.game import Options

    path = tmp_path / "setup.yaml"
    path.write_text(SETUP)
    game = load_scenario(path, Options(mode=mode)).game
    d = game.advance()
    assert d.kind == "setup" and d.player == "alice"
    answer = {"setup": list(game.player("alice").hand)}
    if mode == "enforce":
        with pytest.raises(Refused, match=r"SET-02/06"):
            game.answer("alice", answer)
    else:
        game.answer("alice", answer)
        assert any("(SET-02/06)" in w for w in game.warnings), game.warnings
        assert any("advice: alice: setup cards cost 6 gold" in line for line in game.state.log)


def test_drawing_during_setup_is_warned(tmp_path):
    from engine.game import Options

    path = tmp_path / "setup.yaml"
    path.write_text(SETUP)
    game = load_scenario(path, Options(mode="advise")).game
    warnings = free_move(game, "alice", {"draw": "alice", "count": 1})
    assert warnings and "(SET-09)" in warnings[0]


@pytest.mark.parametrize("move", [
    {"tool": "power", "card": "HOUSE", "amount": 15},   # a manual effect tool as a free move (issue 22)
    {"power": "HOUSE", "delta": 15},
])
def test_a_free_move_that_wins_is_recorded_and_replays_to_the_win(game, move):
    """WIN-01: the 15th power given by hand ends the game the way an answer does: the move is in the
    history, the game has no open decision, and replaying the history gives the same winner."""
    from engine.decisions import GameOver
    from engine.replay import replay

    _advance_to_marshal(game)
    house = game.player("alice").house_card
    move = {k: house if v == "HOUSE" else v for k, v in move.items()}
    free_move(game, "alice", move)
    assert game.history[-1] == ("alice", {"free": move})
    assert game.pending is None and isinstance(game.advance(), GameOver)
    assert game.advance().winner == "alice"
    again = replay(game)
    assert again.state.winner == "alice" and isinstance(again.advance(), GameOver)
    assert again.state.digest() == game.state.digest()
    with pytest.raises(Refused):
        free_move(game, "alice", {"gold": "alice", "delta": 1})
