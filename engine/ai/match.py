"""Playing computer players against each other (the bench and the tests)."""
from __future__ import annotations

import time

from engine.decisions import GameOver
from engine.game import Game


def play_game(game: Game, players: dict, *, max_decisions: int = 20_000, max_rounds: int = 60,
              on_decision=None, timings: dict | None = None) -> str:
    """Let ``players`` (name -> player with ``play_turn``) answer until the game ends; the winner's name,
    ``draw``, or ``stall`` when the bounds are reached. ``timings`` collects seconds per decision by level."""
    n = 0
    while n < max_decisions and game.state.round <= max_rounds:
        d = game.advance()
        if isinstance(d, GameOver):
            return d.winner
        p = players[d.player]
        t0 = time.perf_counter()
        p.play_turn(game)
        if timings is not None:
            timings.setdefault(getattr(p, "level", "random"), []).append(time.perf_counter() - t0)
        if on_decision is not None:
            on_decision(game, d)
        n += 1
    return "stall"
