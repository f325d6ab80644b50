"""Conceding (``Game.concede``): the table's Game ▸ Concede, in the history like any answer."""
from __future__ import annotations

import pytest

from engine.builder import practice_game
from engine.decisions import GameOver, Refused
from engine.game import Options
from engine.invariants import check_invariants
from engine.players import RandomPlayer
from engine.replay import load_game, replay, save_game


def _play(game, players, count):
    for _ in range(count):
        d = game.advance()
        if isinstance(d, GameOver):
            return
        players[d.player].play_turn(game)


def test_two_players_the_other_wins_at_once():
    game = practice_game(seed=2, options=Options(prompt_all=False))
    players = {n: RandomPlayer(seed=i) for i, n in enumerate(game.state.player_names)}
    _play(game, players, 30)
    game.concede("bob")
    over = game.advance()
    assert isinstance(over, GameOver) and over.winner == "alice"
    assert "bob concedes: alice wins." in game.state.log[-1]
    assert game.history[-1] == ("bob", {"concede": True})
    assert replay(game).state.digest() == game.state.digest()
    with pytest.raises(Refused):
        game.concede("alice")


@pytest.mark.parametrize("seed", range(6))
def test_three_or_four_players_the_conceder_is_eliminated_and_the_game_goes_on(seed):
    names = ("alice", "bob", "carol", "dave")[:3 + seed % 2]
    game = practice_game(seed=seed, players=names, options=Options(prompt_all=False))
    players = {n: RandomPlayer(seed=seed * 10 + i, pass_bias=0.2) for i, n in enumerate(names)}
    _play(game, players, 20 + 13 * seed)  # anywhere: setup, a window, a challenge
    quitter = game.advance().player if seed % 3 else names[-1]
    game.concede(quitter)
    assert game.state.player(quitter).eliminated
    assert not [c for c in game.state.cards.values()
                if c.zone in ("in_play", "attached", "duplicate") and quitter in (c.owner, c.controller)]
    for _ in range(30_000):
        d = game.advance()
        if isinstance(d, GameOver):
            break
        assert d.player != quitter, d.describe()
        players[d.player].play_turn(game)
        assert check_invariants(game) == []
    assert isinstance(game.advance(), GameOver)
    assert game.state.winner != quitter
    again = load_game(save_game(game), game.pool)
    assert again.state.digest() == game.state.digest()


def test_three_players_two_concede_the_last_one_wins():
    game = practice_game(seed=4, players=("alice", "bob", "carol"), options=Options(prompt_all=False))
    game.concede("alice")
    assert game.advance().player != "alice"
    game.concede("carol")
    over = game.advance()
    assert isinstance(over, GameOver) and over.winner == "bob"
    assert replay(game).state.digest() == game.state.digest()
