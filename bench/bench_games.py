"""Time complete random games: practice decks, two random players, to a winner.

    python bench/bench_games.py [--games N] [--players 2] [--seed S] [--replay]

For each prompt mode (``prompt_all`` False: empty prompts skipped, as the table
and computer players play; True: every opportunity asked, as scenarios do) it
plays N games (default 20) with seeds S, S+1, ... and prints games per second
and decisions (answered prompts) per second, plus the average game length.
With ``--replay`` it also times ``engine.replay.replay`` of each game. Nothing
else is measured: no invariant checks, no mischief. Setting up a game (reading
the practice decks) is included in the game time, as a table would pay it.

Runs from the repository root with or without the project installed.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.builder import practice_game  # noqa: E402
from engine.decisions import GameOver  # noqa: E402
from engine.game import Options  # noqa: E402
from engine.players import RandomPlayer  # noqa: E402
from engine.replay import replay  # noqa: E402

NAMES = ("alice", "bob", "carol", "dave")


def play_one(seed: int, players: int, prompt_all: bool) -> tuple[int, object]:
    names = NAMES[:players]
    game = practice_game(seed=seed, players=names, options=Options(prompt_all=prompt_all))
    answerers = {n: RandomPlayer(seed=seed * 31 + i) for i, n in enumerate(names)}
    decisions = 0
    while True:
        d = game.advance()
        if isinstance(d, GameOver):
            return decisions, game
        answerers[d.player].play_turn(game)
        decisions += 1


def bench(games: int, players: int, prompt_all: bool, seed: int, with_replay: bool) -> None:
    decisions = rounds = 0
    play_time = replay_time = 0.0
    for s in range(seed, seed + games):
        start = time.perf_counter()
        n, game = play_one(s, players, prompt_all)
        play_time += time.perf_counter() - start
        decisions += n
        rounds += game.state.round
        if with_replay:
            start = time.perf_counter()
            again = replay(game)
            replay_time += time.perf_counter() - start
            assert again.state.digest() == game.state.digest(), f"seed {s}: the replay differs"
    label = f"{players} players, prompt_all={prompt_all}"
    print(f"{label:<28} {games} games in {play_time:6.2f} s: {games / play_time:7.2f} games/s, "
          f"{decisions / play_time:8.0f} decisions/s ({decisions / games:.0f} decisions, "
          f"{rounds / games:.1f} rounds a game)")
    if with_replay:
        print(f"{'':<28} replay: {games / replay_time:7.2f} games/s, {decisions / replay_time:8.0f} decisions/s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per prompt mode (default 20)")
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--replay", action="store_true", help="also time replaying each game")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    practice_game(seed=0)  # warm the card pool cache: a table loads it once per start
    for prompt_all in (False, True):
        bench(args.games, args.players, prompt_all, args.seed, args.replay)
    return 0


if __name__ == "__main__":
    sys.exit(main())
