"""Deck statistics and the setup/draw simulation (cards/deckstats.py).

The simulation's numbers are compared with exact probabilities computed here independently:
by enumerating every 7-card setup hand of small decks (with a brute-force setup chooser written
for the test) and by the hypergeometric formula. The tolerance is 4.5 standard errors of a
10,000-sample estimate (plus 0.002), so a correct simulation fails about once in 150,000 runs.
"""
from __future__ import annotations

from itertools import combinations
from math import comb, sqrt

import pytest

from cards.deck import Deck, read_deck
from cards.deckstats import deck_stats, sample_hand, simulate
from cards.model import CardDef
from cards.pool import practice_pool

N = 10_000


def close(sampled: float, exact: float, n: int = N) -> bool:
    return abs(sampled - exact) <= 4.5 * sqrt(max(exact * (1 - exact), 1e-9) / n) + 0.002


def char(key, cost, *, house=("stark",), unique=False, strength=1, keywords=(), name=None, type="character"):
    return CardDef(key=key, name=name or key, type=type, house=house, unique=unique, cost=cost,
                   strength=strength, keywords=keywords)


def event(key):
    return CardDef(key=key, name=key, type="event", cost=0)


def small_deck() -> Deck:
    """12 cards exercising SET-02 (5 gold), SET-04 (one Limited), SET-05 (unique titles), SET-06 (+2)."""
    eddie = char("Eddie", 3, unique=True, strength=3)
    limited = CardDef(key="Mine", name="Mine", type="location", cost=1, keywords=("limited",))
    outsider = char("Lion", 1, house=("lannister",), strength=2)   # costs 3 with the penalty
    cards = [eddie, eddie, char("Guard", 2, strength=2), char("Guard", 2, strength=2),
             char("Scout", 1), limited, limited, outsider,
             CardDef(key="Hall", name="Hall", type="location", cost=2), event("Ev1"), event("Ev2"), event("Ev3")]
    return Deck(name="small", house="stark", house_card=None, agenda=None, plots=[], cards=cards)


# --- an independent setup chooser and exact enumeration -------------------------------------------

def brute_setup(hand: list[CardDef], house: str) -> tuple[int, int]:
    """(gold, characters) of the best legal setup: most gold, then most characters, then most STR."""
    best = (0, 0, 0)
    idx = range(len(hand))
    for mask in range(1, 1 << len(hand)):
        chosen = [hand[i] for i in idx if mask >> i & 1]
        if any(c.type not in ("character", "location") for c in chosen):
            continue
        gold = sum(c.cost + (2 if c.house and house not in c.house else 0) for c in chosen)
        uniques = [c.name for c in chosen if c.unique]
        if gold > 5 or len(uniques) != len(set(uniques)) or \
                sum("limited" in c.keywords for c in chosen) > 1:
            continue
        chars = [c for c in chosen if c.type == "character"]
        best = max(best, (gold, len(chars), sum(c.strength for c in chars)))
    return best[0], best[1]


def exact_distribution(deck: Deck, rounds: int):
    """Exact P(gold), P(characters) and P(seen title by stage), over all 7-card hands."""
    cards = deck.cards
    n = len(cards)
    hands = list(combinations(range(n), 7))
    gold, chars = {}, {}
    titles = sorted({c.name for c in cards})
    seen = {t: [0.0] * (2 + rounds) for t in titles}
    for hand in hands:
        g, k = brute_setup([cards[i] for i in hand], deck.house)
        gold[g] = gold.get(g, 0) + 1
        chars[k] = chars.get(k, 0) + 1
        placed = _placed(hand, cards, deck.house)
        rest = n - 7
        for t in titles:
            in_hand = any(cards[i].name == t for i in hand)
            copies_rest = sum(1 for i in range(n) if i not in hand and cards[i].name == t)
            stages = [0, placed] + [placed + 2 * r for r in range(1, rounds + 1)]
            for s, extra in enumerate(stages):
                extra = min(extra, rest)
                p = 1.0 if in_hand else (1 - comb(rest - copies_rest, extra) / comb(rest, extra))
                seen[t][s] += p
    total = len(hands)
    return ({g: v / total for g, v in gold.items()}, {k: v / total for k, v in chars.items()},
            {t: [v / total for v in row] for t, row in seen.items()})


def _placed(hand, cards, house) -> int:
    """The number of cards in the best setup (same order of preference as brute_setup)."""
    best, size = (0, 0, 0), 0
    for mask in range(1, 1 << 7):
        chosen = [cards[hand[i]] for i in range(7) if mask >> i & 1]
        if any(c.type not in ("character", "location") for c in chosen):
            continue
        gold = sum(c.cost + (2 if c.house and house not in c.house else 0) for c in chosen)
        uniques = [c.name for c in chosen if c.unique]
        if gold > 5 or len(uniques) != len(set(uniques)) or sum("limited" in c.keywords for c in chosen) > 1:
            continue
        chars = [c for c in chosen if c.type == "character"]
        score = (gold, len(chars), sum(c.strength for c in chars))
        if score > best:
            best, size = score, len(chosen)
    return size


def test_SET_02_setup_simulation_matches_exact_enumeration():
    deck = small_deck()
    exact_gold, exact_chars, exact_seen = exact_distribution(deck, rounds=2)
    sim = simulate(deck, n=N, seed=7, rounds=2)
    assert sum(sim.gold.values()) == N and sum(sim.characters.values()) == N
    for g in set(exact_gold) | set(sim.gold):
        assert close(sim.share(sim.gold, g), exact_gold.get(g, 0.0)), (g, sim.gold, exact_gold)
    for k in set(exact_chars) | set(sim.characters):
        assert close(sim.share(sim.characters, k), exact_chars.get(k, 0.0)), (k, sim.characters, exact_chars)
    for title, row in exact_seen.items():
        for stage, p in enumerate(row):
            assert close(sim.seen[title][stage], p), (title, stage, sim.seen[title], row)
    # The rules bite in this deck: never more than 5 gold, and 5 is the most common total.
    assert max(sim.gold) <= 5 and max(exact_gold, key=exact_gold.get) == 5


def test_DRW_01_seen_by_round_is_hypergeometric_without_setup_cards():
    """A deck with nothing to set up: 7 cards, then 2 per draw phase — exactly hypergeometric."""
    cards = [event(f"E{i}") for i in range(17)] + [event("Target")] * 3
    deck = Deck(name="events", house="stark", house_card=None, agenda=None, plots=[], cards=cards)
    sim = simulate(deck, n=N, seed=3, rounds=4)
    assert sim.gold == {0: N} and sim.characters == {0: N}
    n = len(cards)
    drawn = [7, 7, 9, 11, 13, 15]
    for stage, d in enumerate(drawn):
        exact = 1 - comb(n - 3, d) / comb(n, d)
        assert close(sim.seen["Target"][stage], exact), (stage, sim.seen["Target"][stage], exact)


def test_simulation_is_deterministic_for_a_seed():
    deck = small_deck()
    a, b, c = simulate(deck, n=500, seed=11), simulate(deck, n=500, seed=11), simulate(deck, n=500, seed=12)
    assert (a.gold, a.characters, a.seen) == (b.gold, b.characters, b.seen)
    assert (a.gold, a.seen) != (c.gold, c.seen)


def test_sample_hand_places_a_legal_setup_and_draws_back_to_seven():
    deck = small_deck()
    for seed in range(30):
        o = sample_hand(deck, seed)
        assert len(o.hand) == 7 and len(o.drawn) == len(o.setup)
        assert o.gold <= 5 and (o.gold, o.characters) == brute_setup(o.hand, "stark")
        assert len(o.final_hand) == 7
        hand_ids = [id(c) for c in o.hand]
        assert all(hand_ids.count(id(c)) >= 1 for c in o.setup)


def test_deck_stats_of_the_practice_deck():
    pool = practice_pool()
    from pathlib import Path
    deck = read_deck(Path(__file__).resolve().parents[2] / "cards/practice/decks/stark-practice.txt", pool)
    st = deck_stats(deck)
    assert st.cards == len(deck.cards) and st.plots == 7
    assert sum(sum(c.values()) for c in st.cost_curve.values()) == len(deck.cards)
    chars = [c for c in deck.cards if c.type == "character"]
    assert sum(st.cost_curve["character"].values()) == len(chars)
    assert st.icons["military"] == sum(1 for c in chars if "military" in c.icons)
    assert sum(st.strength_by_icon["power"].values()) == st.icons["power"]
    assert st.plot_averages["income"] == pytest.approx(sum(p.income for p in deck.plots) / 7)
    assert sum(st.gold_curve.values()) == 7
    assert st.penalty_cards == sum(1 for c in deck.cards if c.house and "stark" not in c.house
                                   and c.type != "event")
