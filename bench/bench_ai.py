"""How strong the computer players are: round robin, blunders, time per decision.

    python bench/bench_ai.py [--games N] [--seed S] [--rollouts N] [--pairs heuristic:random,strong:heuristic]
                             [--json PATH] [--no-core]

For each pair of levels (default: heuristic vs random, strong vs heuristic) it plays N games (default 20)
on each deck set, with the sides swapped every other game (seat and deck): the practice decks
(Stark vs Lannister), and, when the community card data is present, the Core Set decks of
``bench/bench_lcg_games.py`` (Stark vs Lannister, Baratheon vs Greyjoy, Targaryen vs Martell, one
matchup per game in turn), shaped as real decks (``DECK_SHAPE``: 28 characters, 10 locations, 8
attachments, 14 events; ``--raw-core``: as the engine's tests build them, ability titles first).
It prints, per pair and deck set, the first level's wins, games, win rate and its 95% interval (Wilson), and after all the games the blunders per game of each level (counted by
``engine.ai.blunders``, which does not know how the players decide) and the time per decision (median,
p99). A game that reaches 60 rounds without a winner counts as a stall (half a win each).
"""
from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.ai import level_name, make_player  # noqa: E402
from engine.ai.blunders import KINDS, Blunders  # noqa: E402
from engine.ai.match import play_game  # noqa: E402
from engine.ai.strong import StrongPlayer  # noqa: E402
from engine.builder import practice_decks, new_game  # noqa: E402
from engine.decisions import Refused  # noqa: E402
from engine.game import Game, Options  # noqa: E402

DEFAULT_JSON = ROOT.parent / "shared" / "data" / "agot1-lcg-cards.json"
TIMEOUTS: Counter = Counter()
"""Searches dropped at the strong level's time limit (its safety net), by level."""
CORE_MATCHUPS = (("stark", "lannister"), ("baratheon", "greyjoy"), ("targaryen", "martell"))


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def watch(game: Game, checker: Blunders, levels: dict[str, str]) -> None:
    """Count blunders: every accepted answer goes through the checker before it is applied."""
    original = game.answer

    def answer(player: str, ans: dict) -> None:
        d = game.pending
        normal = d.check(ans) if d is not None else ans  # a refused answer is not counted
        checker.check(game, d, normal, player, levels[player])
        original(player, ans)

    game.answer = answer  # type: ignore[method-assign]


def practice(seed: int, names) -> Game:
    stark, lannister = practice_decks()
    return new_game({names[0]: stark, names[1]: lannister}, seed=seed, options=Options(prompt_all=False))


def core(pool, seed: int, names, raw: bool = False) -> Game:
    """A Core Set game; the decks shaped as real decks are (``DECK_SHAPE``: 28 characters), or, with
    ``raw``, as ``bench_lcg_games`` builds them for the engine's tests (titles with ability data first,
    whatever their type: some decks hold 15 characters and 39 events)."""
    from bench.bench_lcg_games import DECK_SHAPE, matchup_decks
    houses = CORE_MATCHUPS[seed % len(CORE_MATCHUPS)]
    return new_game(matchup_decks(pool, houses, seed, names=tuple(names), shape=None if raw else DECK_SHAPE),
                    seed=seed, options=Options(prompt_all=False))


def run_pair(a: str, b: str, deckset: str, games: int, seed0: int, rollouts: int, pool, blunders: Blunders,
             per_game: Counter, timings: dict, raw: bool = False) -> tuple[float, int]:
    wins = 0.0
    for i in range(games):
        seed = seed0 + i
        swap = i % 2 == 1
        names = ("north", "south")
        levels = {names[0]: b if swap else a, names[1]: a if swap else b}
        game = practice(seed, names) if deckset == "practice" else core(pool, seed, names, raw)
        watch(game, blunders, {n: levels[n] for n in names})
        players = {n: make_player(levels[n], seed * 10 + k, rollouts=rollouts) for k, n in enumerate(names)}
        winner = play_game(game, players, timings=timings)
        for p in players.values():
            TIMEOUTS[getattr(p, "level", "random")] += getattr(p, "timeouts", 0)
        for n in names:
            per_game[levels[n]] += 1
        if winner in levels:
            wins += 1.0 if levels[winner] == a else 0.0
        else:
            wins += 0.5
    return wins, games


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20, help="games per pair and deck set (default 20)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--rollouts", type=int, default=4,
                    help="the strong level's rollouts per searched decision (default 4; the table uses "
                         f"{StrongPlayer.ROLLOUTS})")
    ap.add_argument("--pairs", default="heuristic:random,strong:heuristic")
    ap.add_argument("--json", default=str(DEFAULT_JSON), help="the community LCG card data")
    ap.add_argument("--no-core", action="store_true", help="practice decks only")
    ap.add_argument("--raw-core", action="store_true",
                    help="Core Set decks as bench_lcg_games builds them (ability titles first, few characters)")
    ap.add_argument("-v", "--verbose", action="store_true", help="print examples of the blunders")
    args = ap.parse_args(argv)
    pairs = [tuple(level_name(x) for x in p.split(":")) for p in args.pairs.split(",") if p]
    pool = None
    decksets = ["practice"]
    if not args.no_core and Path(args.json).is_file():
        from cards.pool import load_pool
        pool = load_pool(Path(args.json))
        decksets.append("core")
    elif not args.no_core:
        print(f"(no Core Set games: {args.json} is missing)")
    blunders = Blunders()
    per_game: Counter = Counter()
    timings: dict[str, list[float]] = {}
    start = time.perf_counter()
    print(f"{'pair':<24} {'decks':<9} {'wins':>6} {'games':>6} {'rate':>6}  95% interval")
    for a, b in pairs:
        total_w, total_n = 0.0, 0
        for ds in decksets:
            w, n = run_pair(a, b, ds, args.games, args.seed, args.rollouts, pool, blunders, per_game, timings,
                            raw=args.raw_core)
            lo, hi = wilson(w, n)
            total_w += w
            total_n += n
            print(f"{a + ' vs ' + b:<24} {ds:<9} {w:>6.1f} {n:>6} {w / n:>6.0%}  [{lo:.0%}, {hi:.0%}]", flush=True)
        lo, hi = wilson(total_w, total_n)
        print(f"{a + ' vs ' + b:<24} {'all':<9} {total_w:>6.1f} {total_n:>6} {total_w / total_n:>6.0%}  "
              f"[{lo:.0%}, {hi:.0%}]", flush=True)
    print()
    print(f"{'level':<10} {'games':>6} {'blunders/game':>14}  " + "  ".join(f"{k}" for k in KINDS))
    for level in sorted(per_game):
        c = blunders.counts.get(level, Counter())
        n = per_game[level]
        print(f"{level:<10} {n:>6} {sum(c.values()) / n:>14.2f}  " + "  ".join(f"{c[k] / n:.2f}".rjust(len(k))
                                                                              for k in KINDS))
    print()
    print(f"{'level':<10} {'decisions':>9} {'median ms':>10} {'p99 ms':>8} {'max ms':>8}")
    for level, ts in sorted(timings.items()):
        ts = sorted(ts)
        p99 = ts[min(len(ts) - 1, int(0.99 * len(ts)))]
        print(f"{level:<10} {len(ts):>9} {statistics.median(ts) * 1000:>10.1f} {p99 * 1000:>8.1f} "
              f"{ts[-1] * 1000:>8.1f}")
    if "strong" in timings:
        print(f"searches dropped at the time limit (safety net): {TIMEOUTS['strong']}")
    print(f"\n{time.perf_counter() - start:.0f} s")
    if args.verbose:
        print("\n".join(blunders.examples))
    return 0


if __name__ == "__main__":
    sys.exit(main())
