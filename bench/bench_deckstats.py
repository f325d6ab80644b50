"""How long the deck editor's statistics take: the setup/draw simulation and a search.

    python bench/bench_deckstats.py [--samples 10000] [--seed 0]

Prints, for the practice Stark deck (and the pool's whole search, ``t:character cost>=3``):
the seconds for ``cards.deckstats.simulate`` with N samples, its mean gold and characters set
up, and the seconds for one ``cards.search.search`` over the default pool.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

from cards.deck import read_deck
from cards.deckstats import deck_stats, simulate
from cards.pool import default_pool
from cards.search import search

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--samples", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    pool = default_pool()
    deck = read_deck(ROOT / "cards/practice/decks/stark-practice.txt", pool)
    t = time.perf_counter()
    deck_stats(deck)
    stats_s = time.perf_counter() - t
    t = time.perf_counter()
    sim = simulate(deck, n=args.samples, seed=args.seed)
    sim_s = time.perf_counter() - t
    print(f"deck_stats: {stats_s * 1000:.1f} ms ({len(deck.cards)} House-deck cards)")
    print(f"simulate: {args.samples} samples in {sim_s:.2f} s; mean gold {sim.mean_gold:.3f}, "
          f"mean characters {sim.mean_characters:.3f}")
    t = time.perf_counter()
    found = search(pool, "t:character cost>=3 or text:kill")
    print(f"search: {len(found)} of {len(pool)} cards in {(time.perf_counter() - t) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
