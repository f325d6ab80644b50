"""Five Kings Edition titles (issue 24): a deck brings them, the game starts with them in play in front of
the player, they are passed by hand, and a whole game with them runs, saves and replays."""
from __future__ import annotations

import dataclasses

from cards.model import CardDef
from engine.advise import free_move
from engine.builder import new_game, practice_decks
from engine.decisions import GameOver
from engine.game import Options
from engine.invariants import check_invariants
from engine.players import RandomPlayer
from engine.replay import load_game, replay, save_game

TITLE = CardDef(key="t_coin", name="Invented Title", type="title", income=2, text="Invented text, played by hand.")


def _game(seed: int = 3):
    stark, lannister = practice_decks()
    decks = {"alice": dataclasses.replace(stark, titles=[TITLE]), "bob": lannister}
    return new_game(decks, seed=seed, options=Options(prompt_all=False))


def test_a_title_starts_in_play_in_front_of_its_player_and_is_passed_by_hand():
    game = _game()
    (cid,) = [c.id for c in game.state.cards.values() if c.key == "t_coin"]
    assert game.card(cid).zone == "in_play" and cid in game.player("alice").in_play
    assert game.setup_spec["decks"]["alice"]["titles"] == ["t_coin"]
    assert "titles" not in game.setup_spec["decks"]["bob"]  # a deck without titles saves as before
    assert free_move(game, "alice", {"move": cid, "to": "in_play", "controller": "bob"}) == []
    assert game.card(cid).controller == "bob" and cid in game.player("bob").in_play
    assert cid not in game.player("alice").in_play
    assert replay(game).state.digest() == game.state.digest()


def test_a_game_with_titles_runs_saves_and_replays():
    game = _game(seed=5)
    players = {n: RandomPlayer(seed=i) for i, n in enumerate(game.state.player_names)}
    (cid,) = [c.id for c in game.state.cards.values() if c.key == "t_coin"]
    for step in range(600):
        d = game.advance()
        if isinstance(d, GameOver):
            break
        if step == 200 and game.card(cid).zone == "in_play":
            free_move(game, d.player, {"move": cid, "to": "in_play", "controller": "bob"})
            continue
        players[d.player].play_turn(game)
    check_invariants(game)
    assert game.state.round >= 2
    loaded = load_game(save_game(game), {c.key: c for c in game.pool.values()})
    assert loaded.state.digest() == game.state.digest()
