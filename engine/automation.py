"""How much of a card pool the engine plays by itself: the automation status and the report.

    python -m cards.report [--pool FILE]      (or python -m engine.automation)

Without ``--pool`` the report covers ``cards.pool.default_pool()`` (the practice
set plus the user's imported cards); with it, the pool read from FILE (LCG
.json, OCTGN .xml, card .yaml or a folder), with the project's ability data
applied to LCG cards (``cards.overlay``). Exit status: 0 ok, 1 bad input, 2 usage.

It prints one row per set (cards; automated, partial and not automated; the automated
ones split into declarative, scripted and none needed; the share automated; how many of the
cards not automated carry a keyword the engine does not model), a total row and, when the
pool holds imported AGoTDB cards, a ``CCG era`` row (every ``agotdb_`` card). Then one line
per fixed deck the pool holds (the Winter premium starters: how many of its cards are
automated, and which are not), one line per keyword the engine does not model (the rules
documents do not define it as a card keyword: the cards not automated that keep it, played
by hand), the cards whose abilities
do not parse, and it ends with ``automated: <N> of <M> cards; partial: <P>; not automated:
<Q>``.

A card's **status** (``status(card)``, which the table uses to mark cards played by hand):

- **automated**: its ``abilities`` are given, every one parses (``engine.abilities``) and the
  data does not say that part of the text is left out: **scripted** if one of them uses
  ``{script: ...}``, **declarative** otherwise;
- **none_needed** (counted as automated): it has no abilities, and every sentence of its text
  is one the engine handles without ability data: a keyword the engine models (Deadly,
  Renown, Stealth, Immune to ..., KW-01), a deck restriction ("House Stark only", "Any House
  except ...", "Limit N per deck"), an attachment restriction ("Lord or Lady character
  only"), or an income, influence or initiative symbol ("[+1 Income]"). An empty text needs
  nothing;
- **partial**: its abilities parse but do not play all of its text: the ability data says so
  (``partial:`` in ``cards/abilities/*.yaml`` or a card file, in our own words), or its text
  has a keyword the engine does not model (Ambush, Prized 2, Stalwart, ...);
- **by_hand** (not automated): any other text without abilities (an ability written only in
  words, or only keywords the engine does not model), or abilities that do not parse.

``Status.paragraphs`` lists the paragraphs (1-based lines of the text) not automated, when
known, and ``Status.note`` says why.

It lives above the ability parser (it reads ``engine.abilities``): ``cards/`` imports nothing from
``engine/``. The card layer's commands get it injected: ``python -m cards.report`` runs this
module's ``main``; ``python -m cards.pool show/search`` and the table's browser pass ``status`` /
``card_status`` to ``cards.pool.describe`` and ``cards.search.compile_query``.
"""
from __future__ import annotations

import argparse
import sys
import weakref
from dataclasses import dataclass, field

from cards.errors import DataError
from cards.files import run_command, tolerant_console
from cards.importers.textparse import needs_no_abilities, paragraphs, unmodelled_keywords
from cards.model import CardDef, CardPool
from engine.abilities import parse_abilities

DECLARATIVE = "declarative"
SCRIPTED = "scripted"
NONE_NEEDED = "none needed"
PARTIAL = "partial"
MANUAL = "not automated"

AUTOMATED = "automated"
BY_HAND = "by_hand"
STATUS_NONE_NEEDED = "none_needed"


def _keyword_paragraphs(text: str, unknown: list[str]) -> tuple[int, ...]:
    words = [u.lower() for u in unknown]
    return tuple(i for i, p in enumerate(paragraphs(text), start=1)
                 if any(w in " ".join(p.lower().replace("\u2019", "'").split()) for w in words))


@dataclass(frozen=True)
class Status:
    """How much of a card the engine plays by itself (see the module doc)."""

    status: str
    """``automated``, ``partial``, ``by_hand`` or ``none_needed``."""
    category: str
    """The report's column: DECLARATIVE, SCRIPTED, NONE_NEEDED, PARTIAL or MANUAL."""
    note: str = ""
    """Why it is not automated (our words), empty when it is."""
    paragraphs: tuple[int, ...] | None = ()
    """The paragraphs (1-based) not automated; None when not known."""

    @property
    def automated(self) -> bool:
        return self.status in (AUTOMATED, STATUS_NONE_NEEDED)


def status(card: CardDef) -> Status:
    """The card's status for the report and the table's "text by hand" mark."""
    unknown = unmodelled_keywords(card.text)
    if card.abilities:
        try:
            parsed = parse_abilities(tuple(card.abilities), card.source)
        except DataError as err:
            return Status(BY_HAND, MANUAL, f"abilities do not parse: {err}",
                          tuple(range(1, len(paragraphs(card.text)) + 1)))
        notes, where = [], set()
        if card.partial:
            notes.append(card.partial)
            where |= set(card.partial_paragraphs)
        if unknown:
            notes.append(f"keywords not modelled: {', '.join(unknown)}")
            where |= set(_keyword_paragraphs(card.text, unknown))
        if notes:
            known = not card.partial or bool(card.partial_paragraphs)
            return Status(PARTIAL, PARTIAL, "; ".join(notes), tuple(sorted(where)) if known else None)
        return Status(AUTOMATED, SCRIPTED if any(a.scripted for a in parsed) else DECLARATIVE)
    if not unknown and needs_no_abilities(card.text):
        return Status(STATUS_NONE_NEEDED, NONE_NEEDED)
    by_hand = tuple(i for i, p in enumerate(paragraphs(card.text), start=1) if not needs_no_abilities(p))
    if unknown:
        return Status(BY_HAND, MANUAL, f"keywords not modelled: {', '.join(unknown)}",
                      tuple(sorted(set(by_hand) | set(_keyword_paragraphs(card.text, unknown)))))
    return Status(BY_HAND, MANUAL, "text without abilities", by_hand)


_card_status_cache: "weakref.WeakKeyDictionary[CardDef, str]" = weakref.WeakKeyDictionary()


def card_status(card: CardDef) -> str:
    """``automated``, ``partial`` or ``manual`` (by hand): the card search's ``auto:`` / ``is:``
    terms and its lines (``cards.search``), cached per card object."""
    got = _card_status_cache.get(card)
    if got is None:
        st = status(card)
        got = "automated" if st.automated else ("partial" if st.status == PARTIAL else "manual")
        _card_status_cache[card] = got
    return got


def classify(card: CardDef) -> tuple[str, str]:
    """(category, why): category is DECLARATIVE, SCRIPTED, NONE_NEEDED, PARTIAL or MANUAL."""
    st = status(card)
    return st.category, st.note


@dataclass
class SetCount:
    name: str
    cards: int = 0
    counts: dict[str, int] = field(default_factory=lambda: {DECLARATIVE: 0, SCRIPTED: 0, NONE_NEEDED: 0,
                                                             PARTIAL: 0, MANUAL: 0})
    keyword_blocked: int = 0
    """Cards not automated that carry a keyword the engine does not model."""

    def add(self, category: str, blocked: bool) -> None:
        self.cards += 1
        self.counts[category] += 1
        self.keyword_blocked += blocked

    def merge(self, other: "SetCount") -> None:
        self.cards += other.cards
        self.keyword_blocked += other.keyword_blocked
        for k, v in other.counts.items():
            self.counts[k] += v

    @property
    def share(self) -> str:
        return f"{100 * self.automated / self.cards:.1f}%" if self.cards else "-"

    @property
    def automated(self) -> int:
        return self.counts[DECLARATIVE] + self.counts[SCRIPTED] + self.counts[NONE_NEEDED]

    @property
    def partial(self) -> int:
        return self.counts[PARTIAL]

    @property
    def manual(self) -> int:
        return self.counts[MANUAL]


@dataclass
class DeckCount:
    """A fixed deck (``cards.sets.FIXED_DECKS``) the pool holds, and its cards not automated."""

    name: str
    cards: int
    not_automated: list[tuple[CardDef, str]]


@dataclass
class Report:
    sets: list[SetCount]
    broken: list[tuple[CardDef, str]]
    """Cards whose abilities are given but do not parse."""
    era: SetCount | None = None
    """The CCG era's row (every imported AGoTDB card), when the pool has any."""
    decks: list[DeckCount] = field(default_factory=list)
    keywords: dict[str, list[str]] = field(default_factory=dict)
    """Each keyword the engine does not model, with the names of the cards not automated that keep it."""

    @property
    def total(self) -> int:
        return sum(s.cards for s in self.sets)

    @property
    def automated(self) -> int:
        return sum(s.automated for s in self.sets)

    @property
    def partial(self) -> int:
        return sum(s.partial for s in self.sets)

    @property
    def manual(self) -> int:
        return sum(s.manual for s in self.sets)

    def lines(self) -> list[str]:
        total = SetCount("total")
        for s in self.sets:
            total.merge(s)
        rows = self.sets + [total] + ([self.era] if self.era else [])
        width = max([len("set")] + [len(s.name) for s in rows])
        head = (f"{'set':<{width}}  {'cards':>5}  {'automated':>9}  {'partial':>7}  {'not automated':>13}  "
                f"{'declarative':>11}  {'scripted':>8}  {'none needed':>11}  {'share':>6}  {'keyword by hand':>15}")
        out = [head]
        for s in rows:
            out.append(f"{s.name:<{width}}  {s.cards:>5}  {s.automated:>9}  {s.partial:>7}  {s.manual:>13}  "
                       f"{s.counts[DECLARATIVE]:>11}  {s.counts[SCRIPTED]:>8}  {s.counts[NONE_NEEDED]:>11}  "
                       f"{s.share:>6}  {s.keyword_blocked:>15}")
        for deck in self.decks:
            done = deck.cards - len(deck.not_automated)
            line = f"fixed deck {deck.name}: {done} of {deck.cards} cards automated"
            if deck.not_automated:
                line += "; not: " + "; ".join(f"{c.name} ({why})" for c, why in deck.not_automated)
            out.append(line)
        for word, names in sorted(self.keywords.items()):
            out.append(f"keyword not modelled, played by hand: {word} ({len(names)} cards: "
                       f"{', '.join(names)})")
        for card, why in self.broken:
            out.append(f"not automated: {card.name} [{card.key}]: {why}")
        out.append(f"automated: {self.automated} of {self.total} cards; partial: {self.partial}; "
                   f"not automated: {self.manual}")
        return out


CCG_PREFIX = "agotdb_"
"""The key prefix of the cards imported from AGoTDB: the CCG era (Winter Edition to Five Kings)."""


def build_report(pool: CardPool) -> Report:
    from cards.deck import fixed_decks

    sets: dict[str, SetCount] = {}
    broken: list[tuple[CardDef, str]] = []
    era = SetCount("CCG era")
    keywords: dict[str, list[str]] = {}
    for card in pool:
        name = card.set or "(no set)"
        row = sets.setdefault(name, SetCount(name))
        st = status(card)
        unknown = unmodelled_keywords(card.text) if not st.automated else []
        row.add(st.category, bool(unknown))
        if card.key.startswith(CCG_PREFIX):
            era.add(st.category, bool(unknown))
        for word in unknown:
            names = keywords.setdefault(word.lower(), [])
            if card.name not in names:
                names.append(card.name)
        if st.category == MANUAL and card.abilities and st.note.startswith("abilities"):
            broken.append((card, st.note))
    decks = [DeckCount(fixed.name, len(cards), [(c, status(c).note) for c in cards if not status(c).automated])
             for fixed, cards in fixed_decks(pool)]
    return Report(list(sets.values()), broken, era if era.cards else None, decks, keywords)


def main(argv: list[str] | None = None) -> int:
    tolerant_console()
    parser = argparse.ArgumentParser(prog="python -m cards.report",
                                     description="How many cards of a pool the engine plays by itself.")
    parser.add_argument("--pool", metavar="FILE",
                        help="card data to report on (LCG .json, OCTGN .xml, card .yaml or a folder); "
                             "default: the practice set plus the imported cards")
    args = parser.parse_args(argv)
    from cards import pool as pools

    try:
        pool = pools.load_pool(args.pool) if args.pool else pools.default_pool()
        report = build_report(pool)
    except DataError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    print("\n".join(report.lines()))
    return 0


if __name__ == "__main__":
    sys.exit(run_command(main))
