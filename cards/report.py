"""How much of a card pool the engine plays by itself.

    python -m cards.report [--pool FILE]

Without ``--pool`` the report covers ``cards.pool.default_pool()`` (the practice
set plus the user's imported cards); with it, the pool read from FILE (LCG
.json, OCTGN .xml, card .yaml or a folder), with the project's ability data
applied to LCG cards (``cards.overlay``). Exit status: 0 ok, 1 bad input, 2 usage.

It prints one row per set, then the cards whose abilities do not parse, and
ends with the line ``automated: <N> of <M> cards``.

A card counts as **automated** when either

- its ``abilities`` are given and every one parses (``engine.abilities``):
  **scripted** if one of them uses ``{script: ...}``, **declarative** otherwise; or
- it **needs none**: it has no abilities, and every sentence of its text is one
  the engine handles without ability data: a keyword the engine models
  (Deadly, Renown, Stealth, Immune to ..., KW-01), a deck restriction ("House
  Stark only", "Any House except ...", "Limit N per deck"), an attachment
  restriction ("Lord or Lady character only"), or an income, influence or
  initiative symbol ("[+1 Income]"). An empty text needs nothing.

In both cases a keyword the engine does not model (Ambush, Prized 2, Stalwart,
No attachments except Weapon, ...) makes the card **not** automated. Any other
text without abilities (an ability written only in words) is not automated.
"""
from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass, field

from cards.errors import DataError
from cards.files import run_command, tolerant_console
from cards.importers.textparse import deck_restriction, parse_keyword_block
from cards.model import CardDef, CardPool
from cards.schema import normalise_keyword

DECLARATIVE = "declarative"
SCRIPTED = "scripted"
NONE_NEEDED = "none needed"
MANUAL = "not automated"

_SYMBOL = re.compile(r"\[\s*[+-]?\d+\s+(?:income|influence|initiative)\s*\]", re.I)
_LIMIT_PER_DECK = re.compile(r"^limit \d+ per (?:plot )?deck$")
_ATTACHMENT_RESTRICTION = re.compile(r"^[a-z0-9 '\[\]-]+ (?:character|location|card|attachment)s? only$")


def _sentences(text: str) -> list[str]:
    """The text's sentences, lower case, symbols removed (a line break also ends a sentence)."""
    out = []
    for line in (text or "").splitlines():
        line = _SYMBOL.sub(".", line)
        for piece in line.split("."):
            s = " ".join(piece.replace("\u2019", "'").split()).lower()
            if s:
                out.append(s)
    return out


def _needs_no_ability(sentence: str) -> bool:
    return (normalise_keyword(sentence) is not None or deck_restriction(sentence) is not None
            or bool(_LIMIT_PER_DECK.match(sentence)) or bool(_ATTACHMENT_RESTRICTION.match(sentence)))


def needs_no_abilities(text: str) -> bool:
    """True when every sentence of ``text`` is handled without ability data (see the module doc)."""
    return all(_needs_no_ability(s) for s in _sentences(text))


def unmodelled_keywords(text: str) -> list[str]:
    """Keyword-like sentences at the top of ``text`` that the engine does not model."""
    return list(parse_keyword_block(text or "").unknown)


def classify(card: CardDef) -> tuple[str, str]:
    """(category, why): category is DECLARATIVE, SCRIPTED, NONE_NEEDED or MANUAL."""
    unknown = unmodelled_keywords(card.text)
    if card.abilities:
        from engine.abilities import parse_abilities  # engine depends on cards, never the reverse

        try:
            parsed = parse_abilities(tuple(card.abilities), card.source)
        except DataError as err:
            return MANUAL, f"abilities do not parse: {err}"
        if unknown:
            return MANUAL, f"keywords not modelled: {', '.join(unknown)}"
        return (SCRIPTED if any(a.scripted for a in parsed) else DECLARATIVE), ""
    if unknown:
        return MANUAL, f"keywords not modelled: {', '.join(unknown)}"
    if needs_no_abilities(card.text):
        return NONE_NEEDED, ""
    return MANUAL, "text without abilities"


@dataclass
class SetCount:
    name: str
    cards: int = 0
    counts: dict[str, int] = field(default_factory=lambda: {DECLARATIVE: 0, SCRIPTED: 0, NONE_NEEDED: 0,
                                                             MANUAL: 0})

    @property
    def automated(self) -> int:
        return self.counts[DECLARATIVE] + self.counts[SCRIPTED] + self.counts[NONE_NEEDED]


@dataclass
class Report:
    sets: list[SetCount]
    broken: list[tuple[CardDef, str]]
    """Cards whose abilities are given but do not parse."""

    @property
    def total(self) -> int:
        return sum(s.cards for s in self.sets)

    @property
    def automated(self) -> int:
        return sum(s.automated for s in self.sets)

    def lines(self) -> list[str]:
        width = max([len("set")] + [len(s.name) for s in self.sets])
        head = (f"{'set':<{width}}  {'cards':>5}  {'automated':>9}  {'declarative':>11}  {'scripted':>8}  "
                f"{'none needed':>11}")
        out = [head]
        for s in self.sets:
            out.append(f"{s.name:<{width}}  {s.cards:>5}  {s.automated:>9}  {s.counts[DECLARATIVE]:>11}  "
                       f"{s.counts[SCRIPTED]:>8}  {s.counts[NONE_NEEDED]:>11}")
        for card, why in self.broken:
            out.append(f"not automated: {card.name} [{card.key}]: {why}")
        out.append(f"automated: {self.automated} of {self.total} cards")
        return out


def build_report(pool: CardPool) -> Report:
    sets: dict[str, SetCount] = {}
    broken: list[tuple[CardDef, str]] = []
    for card in pool:
        name = card.set or "(no set)"
        row = sets.setdefault(name, SetCount(name))
        category, why = classify(card)
        row.cards += 1
        row.counts[category] += 1
        if category == MANUAL and card.abilities and why.startswith("abilities"):
            broken.append((card, why))
    return Report(list(sets.values()), broken)


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
