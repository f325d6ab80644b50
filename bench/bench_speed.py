"""The engine's speed, in one run: decisions per CPU second, the ratio to the tight reference loop,
and what a derived-value read costs as the board grows.

    python bench/bench_speed.py [--games N] [--repeat N] [--reads N] [--json PATH] [--reference PATH]

Prints:

- decisions/s and ms per decision (CPU time, ``time.process_time``; the median of ``--repeat`` runs of
  the same games, 3 by default, so one hiccup of a busy machine does not decide it) for practice-deck games
  (``RandomPlayer``) and real Core Set games (``TriggerPlayer`` from ``bench_lcg_games``: it
  triggers abilities 60% of the time it can) at 2, 3 and 4 players;
- the ratio of each to ``../shared/bench/reference_loop.py`` (a tight model of the same
  bookkeeping, about 17 us a decision here), run in this same process before and after the games:
  ratios are stable on a noisy machine where absolute times are not;
- the cost of reading a derived value (STR) with 20, 100 and 280 cards in play (real Core cards,
  constants included): a read right after the table changed (the first read pays for settling
  the constants), a read of every card in play after one change (per card), and a repeated read.

The engine keeps derived values per state version (``engine.state.Version``): a read costs a
lookup until something on the table changes. The issue's targets: real-card 2-player games at a
ratio of 60 or less (on the way to 20); a read at 280 cards in play within 2x of one at 20.
"""
from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.bench_lcg_games import DEFAULT_JSON, core_deck, trigger_players  # noqa: E402
from engine.builder import new_game, practice_game  # noqa: E402
from engine.decisions import GameOver  # noqa: E402
from engine.game import Options  # noqa: E402
from engine.players import RandomPlayer  # noqa: E402
try:
    from engine.state import Version  # noqa: E402
except ImportError:  # an engine without state versions (to compare with older commits)
    class Version:  # noqa: D101
        n = 0

DEFAULT_REFERENCE = ROOT.parent / "shared" / "bench" / "reference_loop.py"
NAMES = ("alice", "bob", "carol", "dave")
HOUSES = {2: ("stark", "lannister"), 3: ("stark", "lannister", "baratheon"),
          4: ("stark", "lannister", "baratheon", "targaryen")}


def reference_us(path: Path, games: int = 150) -> float | None:
    """CPU microseconds a decision of the reference loop takes, in this process."""
    if not path.is_file():
        return None
    spec = importlib.util.spec_from_file_location("reference_loop", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    t0 = time.process_time()
    decisions = sum(mod.play(s)[0] for s in range(games))
    return 1e6 * (time.process_time() - t0) / decisions


def _play(game, answerers, cap: int = 50_000) -> int:
    n = 0
    while not isinstance(game.advance(), GameOver) and n < cap:
        answerers[game.advance().player].play_turn(game)
        n += 1
    return n


def practice_run(players: int, games: int) -> tuple[int, float]:
    decisions, cpu = 0, 0.0
    for seed in range(games):
        names = NAMES[:players]
        t0 = time.process_time()
        game = practice_game(seed=seed, players=list(names), options=Options(prompt_all=False))
        decisions += _play(game, {n: RandomPlayer(seed=seed * 31 + i) for i, n in enumerate(names)})
        cpu += time.process_time() - t0
    return decisions, cpu


def real_run(pool, players: int, games: int) -> tuple[int, float]:
    decisions, cpu = 0, 0.0
    names = NAMES[:players]
    for seed in range(games):
        decks = {n: core_deck(pool, h, seed) for n, h in zip(names, HOUSES[players])}
        t0 = time.process_time()
        game = new_game(decks, seed=seed, options=Options(prompt_all=False))
        decisions += _play(game, trigger_players(list(names), seed))
        cpu += time.process_time() - t0
    return decisions, cpu


def _median(run, repeat: int, *args) -> tuple[int, float]:
    """(decisions, CPU seconds) of ``run(*args)``: the median of ``repeat`` runs of the same games
    (fixed seeds: every run plays the same decisions)."""
    results = [run(*args) for _ in range(repeat)]
    return results[0][0], statistics.median(cpu for _, cpu in results)


def board(pool, in_play: int):
    """A 4-player Core game (two decks each) with ``in_play`` characters, locations and attachments
    put into play by fiat, round the table (this measures reads, not rules)."""
    decks = {}
    for n, h in zip(NAMES, HOUSES[4]):
        deck, extra = core_deck(pool, h, 0), core_deck(pool, h, 1)
        decks[n] = replace(deck, cards=list(deck.cards) + list(extra.cards))
    game = new_game(decks, seed=0, options=Options())
    game.advance()
    placed: list[int] = []
    hosts: dict[str, list[int]] = {n: [] for n in NAMES}
    while len(placed) < in_play:
        progressed = False
        for p in game.state.players:
            for cid in list(p.deck) + list(p.hand):
                kind = game.defn(cid).type
                if kind in ("character", "location"):
                    game.put_in_play(cid, p.name)
                elif kind == "attachment" and hosts[p.name]:
                    game.attach(cid, hosts[p.name][len(placed) % len(hosts[p.name])], p.name)
                else:
                    continue
                if kind == "character":
                    hosts[p.name].append(cid)
                placed.append(cid)
                progressed = True
                break
            if len(placed) >= in_play:
                break
        if not progressed:
            break
    return game, placed


def read_costs(pool, in_play: int, reads: int) -> tuple[int, float, float, float]:
    """(cards in play, us a read right after a change, us a card for a pass over the board after a
    change, us a repeated read)."""
    game, placed = board(pool, in_play)
    probe = placed[0]
    flip = game.state.cards[placed[-1]]
    t0 = time.process_time()
    for _ in range(reads):
        flip.kneeling = not flip.kneeling   # any change to the table
        game.strength(probe)
    after_change = (time.process_time() - t0) / reads
    passes = max(1, reads // 20)
    t0 = time.process_time()
    for _ in range(passes):
        flip.kneeling = not flip.kneeling
        for cid in placed:
            game.strength(cid)
    per_card = (time.process_time() - t0) / passes / len(placed)
    t0 = time.process_time()
    for _ in range(reads):
        game.strength(probe)
    repeated = (time.process_time() - t0) / reads
    return len(placed), 1e6 * after_change, 1e6 * per_card, 1e6 * repeated


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=6, help="games per configuration (default 6)")
    ap.add_argument("--repeat", type=int, default=3,
                    help="runs of the same games per configuration; the median CPU time is printed (default 3)")
    ap.add_argument("--reads", type=int, default=2000, help="reads per derived-value measure (default 2000)")
    ap.add_argument("--json", default=str(DEFAULT_JSON), help="the LCG card data (real-card games)")
    ap.add_argument("--reference", default=str(DEFAULT_REFERENCE), help="reference_loop.py")
    args = ap.parse_args(argv)
    if args.games < 1 or args.reads < 1 or args.repeat < 1:
        ap.error("--games, --repeat and --reads must be at least 1")

    refs = [reference_us(Path(args.reference))]
    if refs[0] is None:
        print(f"reference loop not found ({args.reference}): ratios are not printed")
    else:
        print(f"reference loop: {refs[0]:.1f} us a decision (CPU)")

    rows = []
    for players in (2, 3, 4):
        rows.append((f"practice, {players} players", *_median(practice_run, args.repeat, players, args.games)))
    pool = None
    if Path(args.json).is_file():
        from cards.pool import load_pool
        pool = load_pool(Path(args.json))
        for players in (2, 3, 4):
            rows.append((f"Core Set, {players} players", *_median(real_run, args.repeat, pool, players, args.games)))
    else:
        print(f"no LCG card data at {args.json}: real-card games and reads are skipped")

    if refs[0] is not None:
        refs.append(reference_us(Path(args.reference)))
        ref = statistics.mean(refs)
        print(f"reference loop again: {refs[1]:.1f} us a decision; ratios use the mean, {ref:.1f} us")
    else:
        ref = None
    print(f"\n{'games':26} {'decisions':>9} {'decisions/s':>12} {'ms/decision':>12} {'ratio':>7}")
    for label, decisions, cpu in rows:
        ms = 1e3 * cpu / decisions
        ratio = f"{1e3 * ms / ref:7.0f}" if ref else "      -"
        print(f"{label:26} {decisions:9d} {decisions / cpu:12,.0f} {ms:12.3f} {ratio}")

    if pool is not None:
        print(f"\n{'cards in play':>13} {'read after a change':>20} {'board pass, a card':>19} {'repeated read':>14}")
        for n in (20, 100, 280):
            placed, after, per_card, repeated = read_costs(pool, n, args.reads)
            print(f"{placed:13d} {after:17.1f} us {per_card:16.1f} us {repeated:11.2f} us")
        print(f"(state version now {Version.n:,}: every change to a game bumps it)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
