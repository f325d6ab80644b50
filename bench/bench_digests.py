"""Digests of fixed-seed games, to check that a change to the engine's speed changes no result.

    python bench/bench_digests.py [JSON] > before.txt      (on the old commit)
    python bench/bench_digests.py [JSON] > after.txt       (on the new one)
    diff before.txt after.txt                              (empty: every game ended the same)

Plays the Core Set matchups of ``bench_lcg_games`` (Stark v Lannister, Baratheon v Greyjoy,
Targaryen v Martell), seeds 0-3, each with empty opportunities skipped and with every opportunity
asked (``prompt_all``), and prints one line per game: matchup, seed, mode, decisions and the first
16 hex digits of ``GameState.digest()``. Also plays the practice decks (2-4 players, seeds 0-3) with
``RandomPlayer``. Needs the LCG card data for the Core games (skipped without it).
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import bench.bench_lcg_games as lcg  # noqa: E402
from engine.builder import practice_game  # noqa: E402
from engine.game import Options  # noqa: E402
from engine.players import RandomPlayer, play_out  # noqa: E402

NAMES = ("alice", "bob", "carol", "dave")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    json_path = Path(argv[0]) if argv else lcg.DEFAULT_JSON
    for players in (2, 3, 4):
        for seed in range(4):
            names = NAMES[:players]
            game = practice_game(seed=seed, players=list(names), options=Options(prompt_all=False))
            n = play_out(game, {name: RandomPlayer(seed=seed * 31 + i) for i, name in enumerate(names)})
            print(f"practice {players}p {seed} {n} {game.state.digest()[:16]}")
    if not json_path.is_file():
        print(f"no LCG card data at {json_path}: Core Set games skipped")
        return 0
    from cards.pool import load_pool
    pool = load_pool(json_path)
    for houses in lcg.MATCHUPS:
        for seed in range(4):
            for prompt_all in (False, True):
                n, _, game = lcg.play_one(pool, houses, seed, prompt_all)
                mode = "prompt" if prompt_all else "skip"
                print(f"{'-'.join(houses)} {seed} {mode} {n} {game.state.digest()[:16]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
