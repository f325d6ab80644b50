"""Deck statistics for the deck editor: counts, curves, the plot table, and a setup and draw
simulation. No Qt here: ``app/deck_editor.py`` draws what this computes.

- ``deck_stats(deck)``: cost curve by type, STR per challenge icon, icon, crest, trait and
  keyword counts, the plot deck's income/initiative/claim table with averages, the gold curve.
- ``simulate(deck, n=10_000, seed=0, rounds=5)``: ``n`` sampled games' setups under the setup
  rules (SET-02 5 gold of characters and locations, SET-04 one Limited card, SET-05 no two
  copies of a unique title, SET-06 the +2 gold penalty for another House's card), counting the
  gold spent and the characters set up, and the chance to have seen each House-deck title by
  each round (7 cards drawn, SET-09 draw back up to 7 after setup, DRW-01 2 cards per draw phase).
- ``sample_hand(deck, rng)``: one opening: the 7 cards, what is set up, and the cards drawn back up.
- ``exact_seen(n, copies, drawn)``: the hypergeometric chance that ``drawn`` cards from ``n``
  include one of ``copies`` (used for comparison and in the tests).

Which setup is chosen: among the legal setups of the hand, the one that spends the **most gold**,
then sets up the **most characters**, then the most STR — a greedy player's setup, close to what
the computer player (``engine.ai.heuristic``) does. Attachments with the Setup keyword (SET-03) are
not placed by the simulation. Everything is deterministic for a seed.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations
from math import comb

from cards.model import CRESTS, HOUSE_DECK_TYPES, ICONS, CardDef

SETUP_GOLD = 5
"""SET-02: setup cards cost at most 5 gold in all (penalties included, SET-06)."""
HAND = 7
"""SET-01.4, SET-09: the setup hand and the hand drawn back up to after setup."""
DRAW_PHASE = 2
"""DRW-01: cards drawn in each round's draw phase."""


@dataclass
class PlotRow:
    name: str
    income: int
    initiative: int
    claim: int
    traits: tuple[str, ...]


@dataclass
class DeckStats:
    """What the Statistics tab shows (all counts are per copy)."""

    cards: int
    plots: int
    cost_curve: dict[str, Counter]
    """Card type -> Counter(cost -> copies); a cost of X counts as ``"X"``."""
    strength_by_icon: dict[str, Counter]
    """Icon -> Counter(STR -> characters with that icon); a printed STR of X counts as ``"X"``."""
    icons: Counter
    crests: Counter
    traits: Counter
    keywords: Counter
    types: Counter
    plot_rows: list[PlotRow]
    plot_averages: dict[str, float]
    gold_curve: Counter
    """Plot income -> plots: the gold each plot brings (the deck's gold curve), next to the costs."""
    average_cost: float
    """Average printed cost of the House deck's characters, locations and attachments."""
    penalty_cards: int
    """House-deck copies of another House (they cost 2 gold more, MAR-07)."""


def _cost_label(card: CardDef):
    return "X" if card.cost_x else (card.cost or 0)


def pays_penalty(card: CardDef, house: str) -> bool:
    """MAR-07/SET-06: a character, location or attachment of another House costs 2 more."""
    return card.type in ("character", "location", "attachment") and bool(card.house) and house not in card.house


def setup_cost(card: CardDef, house: str) -> int:
    return (0 if card.cost_x else (card.cost or 0)) + (2 if pays_penalty(card, house) else 0)


def deck_stats(deck) -> DeckStats:
    """Statistics of a ``cards.deck.Deck`` (or anything with ``house``, ``plots`` and ``cards``)."""
    cards = [c for c in deck.cards if c.type in HOUSE_DECK_TYPES]
    curve: dict[str, Counter] = {t: Counter() for t in HOUSE_DECK_TYPES}
    for c in cards:
        curve[c.type][_cost_label(c)] += 1
    by_icon: dict[str, Counter] = {i: Counter() for i in ICONS}
    icons, crests, traits, keywords = Counter(), Counter(), Counter(), Counter()
    for c in cards:
        for t in c.traits:
            traits[t] += 1
        for k in c.keywords:
            keywords[k] += 1
        for cr in c.crest:
            crests[cr] += 1
        if c.type == "character":
            for i in ICONS:
                if i in c.icons:
                    icons[i] += 1
                    by_icon[i]["X" if c.strength_x else (c.strength or 0)] += 1
    rows = [PlotRow(p.name, p.income, p.initiative, p.claim, p.traits) for p in deck.plots]
    n = len(rows)
    averages = {k: (sum(getattr(r, k) for r in rows) / n if n else 0.0)
                for k in ("income", "initiative", "claim")}
    costed = [c for c in cards if c.type != "event" and not c.cost_x]
    return DeckStats(
        cards=len(cards), plots=len(deck.plots), cost_curve=curve, strength_by_icon=by_icon,
        icons=icons, crests=Counter({k: crests[k] for k in CRESTS if crests[k]}), traits=traits,
        keywords=keywords, types=Counter(c.type for c in cards), plot_rows=rows, plot_averages=averages,
        gold_curve=Counter(r.income for r in rows),
        average_cost=sum(c.cost or 0 for c in costed) / len(costed) if costed else 0.0,
        penalty_cards=sum(1 for c in cards if pays_penalty(c, deck.house)))


# --------------------------------------------------------------------------- setup

def best_setup(hand: list[CardDef], house: str) -> list[CardDef]:
    """The setup a greedy player places from ``hand`` (see the module doc): legal by SET-02/04/05/06,
    the most gold spent, then the most characters, then the most STR; ties go to the earliest cards."""
    eligible = [c for c in hand if c.type in ("character", "location")]
    best: tuple = (-1, -1, -1)
    chosen: list[CardDef] = []
    for k in range(len(eligible), 0, -1):
        for combo in combinations(eligible, k):
            gold = sum(setup_cost(c, house) for c in combo)
            if gold > SETUP_GOLD:
                continue
            if sum(1 for c in combo if c.has_keyword("limited")) > 1:
                continue
            titles = [c.name.casefold() for c in combo if c.unique]
            if len(titles) != len(set(titles)):
                continue
            chars = [c for c in combo if c.type == "character"]
            score = (gold, len(chars), sum(c.strength or 0 for c in chars))
            if score > best:
                best, chosen = score, list(combo)
    return chosen


@dataclass
class Opening:
    """One sampled opening: the setup hand, the setup placed, the cards drawn back up to 7."""

    hand: list[CardDef]
    setup: list[CardDef]
    drawn: list[CardDef]
    house: str = ""

    @property
    def gold(self) -> int:
        return sum(setup_cost(c, self.house) for c in self.setup)

    @property
    def characters(self) -> int:
        return sum(1 for c in self.setup if c.type == "character")

    @property
    def final_hand(self) -> list[CardDef]:
        placed = {id(c) for c in self.setup}
        kept, seen = [], set()
        for c in self.hand:
            if id(c) in placed and id(c) not in seen:
                seen.add(id(c))
                continue
            kept.append(c)
        return kept + self.drawn


def _house_deck(deck) -> list[CardDef]:
    return [c for c in deck.cards if c.type in HOUSE_DECK_TYPES]


def _opening(order: list[CardDef], house: str, memo: dict) -> tuple[list[CardDef], list[CardDef], list[CardDef]]:
    hand = order[:HAND]
    sig = tuple(sorted(id(c) for c in hand))
    setup = memo.get(sig)
    if setup is None:
        setup = memo[sig] = best_setup(sorted(hand, key=lambda c: (c.name, c.key)), house)
    drawn = order[HAND:HAND + len(setup)]
    return hand, setup, drawn


def sample_hand(deck, rng: random.Random | int = 0) -> Opening:
    """One opening of ``deck`` (shuffled by ``rng``, a ``random.Random`` or a seed)."""
    rng = rng if isinstance(rng, random.Random) else random.Random(rng)
    order = _house_deck(deck)
    rng.shuffle(order)
    hand, setup, drawn = _opening(order, deck.house, {})
    return Opening(hand, setup, drawn, deck.house)


@dataclass
class Simulation:
    """``n`` sampled setups of a deck."""

    n: int
    seed: int
    rounds: int
    gold: Counter = field(default_factory=Counter)
    """Gold spent in setup -> games."""
    characters: Counter = field(default_factory=Counter)
    """Characters set up -> games."""
    seen: dict[str, list[float]] = field(default_factory=dict)
    """Title -> chance to have seen a copy: [setup hand (7 cards), after setup's draw back up,
    by round 1's draw phase, ..., by round ``rounds``]."""

    @property
    def mean_gold(self) -> float:
        return sum(g * k for g, k in self.gold.items()) / self.n if self.n else 0.0

    @property
    def mean_characters(self) -> float:
        return sum(c * k for c, k in self.characters.items()) / self.n if self.n else 0.0

    def share(self, counter: Counter, value: int) -> float:
        return counter[value] / self.n if self.n else 0.0


SEEN_STAGES = ("setup hand", "after setup")
"""The first two entries of ``Simulation.seen``; then one per round."""


def simulate(deck, n: int = 10_000, seed: int = 0, rounds: int = 5) -> Simulation:
    """Sample ``n`` shuffles of the House deck: the setup each opening places and, for each title
    in the House deck, the chance to have seen a copy at each stage (``Simulation.seen``)."""
    rng = random.Random(seed)
    cards = _house_deck(deck)
    sim = Simulation(n=n, seed=seed, rounds=rounds)
    titles: dict[str, None] = dict.fromkeys(c.name for c in cards)
    hits = {t: [0] * (2 + rounds) for t in titles}
    memo: dict = {}
    order = list(cards)
    for _ in range(n):
        rng.shuffle(order)
        hand, setup, drawn = _opening(order, deck.house, memo)
        sim.gold[sum(setup_cost(c, deck.house) for c in setup)] += 1
        sim.characters[sum(1 for c in setup if c.type == "character")] += 1
        first: dict[str, int] = {}
        for pos, c in enumerate(order):
            first.setdefault(c.name, pos)
        seen_after = [HAND, HAND + len(setup)] + [HAND + len(setup) + DRAW_PHASE * r for r in range(1, rounds + 1)]
        for title, pos in first.items():
            row = hits[title]
            for stage, count in enumerate(seen_after):
                if pos < count:
                    row[stage] += 1
    sim.seen = {t: [h / n for h in row] for t, row in hits.items()} if n else {}
    return sim


def exact_seen(n: int, copies: int, drawn: int) -> float:
    """The chance that ``drawn`` cards from a deck of ``n`` include at least one of ``copies``
    (hypergeometric, exact)."""
    drawn = max(0, min(drawn, n))
    return 1.0 - comb(n - copies, drawn) / comb(n, drawn) if n else 0.0


def seen_rows(sim: Simulation, deck) -> list[tuple[str, int, list[float]]]:
    """(title, copies, chances) for every title, most copies first then by title."""
    copies = Counter(c.name for c in _house_deck(deck))
    return [(t, copies[t], sim.seen[t]) for t in sorted(sim.seen, key=lambda t: (-copies[t], t))]
