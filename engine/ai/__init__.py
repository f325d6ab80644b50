"""Computer players worth practising against (``docs/ai.md``).

``make_player(level, seed=0, rollouts=16, time_limit=5.0, explain=None)`` builds one:

- ``random``: ``engine.players.RandomPlayer`` (the old opponent);
- ``heuristic`` (alias ``normal``): ``engine.ai.heuristic.HeuristicPlayer``, rules of thumb, a few ms;
- ``strong``: ``engine.ai.strong.StrongPlayer``, the heuristic plus searches over the challenges,
  defences, marshalling and plots, within ``rollouts`` rollouts a decision (``time_limit`` seconds is a
  safety net only: the answer depends on the seat's view and the seed, not on the machine's speed).

Every level answers through ``Game.answer`` and reads the table only through
``engine.ai.view.view_game`` (``engine.visibility``), so it plays fair.
"""
from __future__ import annotations

from typing import Callable

from engine.ai.heuristic import HeuristicPlayer
from engine.ai.strong import StrongPlayer
from engine.players import RandomPlayer

LEVELS = ("random", "heuristic", "strong")
ALIASES = {"normal": "heuristic", "easy": "random", "hard": "strong"}


def level_name(level: str | None) -> str:
    """The canonical level for a name (``normal`` is ``heuristic``); unknown names raise ValueError."""
    key = (level or "heuristic").strip().lower()
    key = ALIASES.get(key, key)
    if key not in LEVELS:
        raise ValueError(f"unknown computer level {level!r}; use one of {', '.join(LEVELS)} (or normal)")
    return key


def make_player(level: str | None = "heuristic", seed: int = 0, *, rollouts: int = StrongPlayer.ROLLOUTS,
                time_limit: float | None = StrongPlayer.TIME_LIMIT,
                explain: Callable[[str, str], None] | None = None):
    key = level_name(level)
    if key == "random":
        return RandomPlayer(seed, pass_bias=0.2)
    if key == "heuristic":
        return HeuristicPlayer(seed, explain=explain)
    return StrongPlayer(seed, rollouts=rollouts, time_limit=time_limit, explain=explain)
