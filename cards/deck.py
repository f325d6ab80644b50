"""Decks: the House, an agenda, a plot deck and a House deck — read, written and checked.

Three file formats are read (the format is detected from the content) and written:

- ``o8d``: OCTGN's deck XML, ``<deck><section name="Plots"><card qty="1" id="...">Name</card>``;
- ``text``: the plain list players paste, ``3x Name`` lines under optional headers;
- ``builder``: the community deckbuilder's export, ``HOUSE:``/``AGENDA:`` lines and
  ``id | qty | name`` rows.

Every problem with a file is a ``DataError`` naming the file and line; ``check_deck``
then applies the deck construction rules (DCK-01..DCK-07) and returns ``Problem``\\ s.
docs/decks.md describes the formats and the rule choices.

>>> pool = CardPool()
>>> for card in [CardDef(key="p1", name="Grey Dawn", type="plot"),
...              CardDef(key="c1", name="Wall Guard", type="character", cost=1)]:
...     pool.add(card)
>>> deck = parse_deck_text("House: Stark\\n1x Grey Dawn\\n3x Wall Guard\\n", pool)
>>> deck.house, len(deck.plots), len(deck.cards)
('stark', 1, 3)
>>> [p.rule for p in check_deck(deck)]
['DCK-01', 'DCK-02']

Run ``python -m cards.deck check DECKFILE [--pool POOLFILE] [--casual]`` to check a file.
"""
from __future__ import annotations

import argparse
import difflib
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from xml.parsers import expat
from xml.sax.saxutils import escape, quoteattr

from cards.errors import DataError
from cards.files import check_lines, no_doctype, read_bytes, run_command, tolerant_console
from cards.model import HOUSE_DECK_TYPES, HOUSES, CardDef, CardPool
from cards.sets import ERAS, FixedDeck, card_eras

FORMATS = ("o8d", "text", "builder")
"""Deck file formats, for ``write_deck``; ``read_deck`` detects them itself."""

PLOT_DECK_SIZE = 7
MIN_HOUSE_DECK = 60
MAX_QUANTITY = 99
"""A quantity above this is a typo, not a deck (it would also build a huge list)."""


# Section names as they appear in files (case-insensitive) -> where their cards go.
_SECTIONS = {
    "house": "house", "house card": "house",
    "agenda": "agenda", "agendas": "agenda",
    "plot": "plots", "plots": "plots", "plot deck": "plots",
    "character": "cards", "characters": "cards", "location": "cards", "locations": "cards",
    "attachment": "cards", "attachments": "cards", "event": "cards", "events": "cards",
    "house deck": "cards", "draw deck": "cards", "cards": "cards",
    "title": "titles", "titles": "titles",
}
_O8D_SECTIONS = ("House", "Agenda", "Characters", "Locations", "Attachments", "Events", "Plots", "Titles")
_O8D_SECTION_OF_TYPE = {"character": "Characters", "location": "Locations",
                        "attachment": "Attachments", "event": "Events"}


@dataclass
class Deck:
    """A player's deck. ``plots`` and ``cards`` hold one entry per copy."""

    name: str
    house: str
    """The House played: ``stark``, ``lannister``, ... or ``neutral``; empty if none was given."""
    house_card: CardDef | None
    """The House card, when the pool has one (type ``house``)."""
    agenda: CardDef | None
    plots: list[CardDef]
    cards: list[CardDef]
    """The House (draw) deck."""
    source: str = ""
    notes: list[str] = field(default_factory=list)
    """What the reader guessed, e.g. which printing a bare title resolved to."""
    octgn_game: str = ""
    """The ``game`` id of an OCTGN deck this was read from, written back by ``write_deck``."""
    titles: list[CardDef] = field(default_factory=list)
    """Five Kings Edition titles the player brings (a ``Titles:`` section): not part of any deck and
    under no construction rule; the game starts with them in play in front of the player, who passes
    them by hand (the rules documents define no title rules)."""


@dataclass(frozen=True)
class Problem:
    """One way a deck breaks a construction rule; ``rule`` is a checklist id such as ``DCK-01``."""

    rule: str
    message: str
    card: CardDef | None = None

    def __str__(self) -> str:
        return f"{self.rule}: {self.message}"


# --------------------------------------------------------------------------- reading

FIXED_PREFIX = "agotdb:"
"""A deck reference that names a fixed deck of the imported AGoTDB pool (``agotdb:Winter Greyjoy starter``)."""


def fixed_decks(pool: CardPool) -> list[tuple["FixedDeck", list[CardDef]]]:
    """The fixed decks (``cards.sets.FIXED_DECKS``) whose cards the pool has, with their cards
    in deck-number order (one copy each: the data gives no quantities). A deck of which the
    pool has fewer than half the numbers is left out (the CCG-era pool holds a few Core Set
    reprints, not the Core Set decks)."""
    from cards.sets import FIXED_DECKS

    found = []
    for fixed in FIXED_DECKS:
        numbered = []
        for card in pool:
            for printing in card.printings:
                code, _, number = printing.partition(" ")
                if code == fixed.set_code and number[:1] == fixed.letter and number[1:].isdigit():
                    numbered.append((int(number[1:]), card))
        numbers = {n for n, _ in numbered}
        if numbered and 2 * len(numbers) >= max(numbers):
            found.append((fixed, [card for _, card in sorted(numbered, key=lambda nc: nc[0])]))
    return found


def _missing_numbers(fixed: "FixedDeck", cards: list[CardDef]) -> list[str]:
    numbers = set()
    for card in cards:
        for printing in card.printings:
            code, _, number = printing.partition(" ")
            if code == fixed.set_code and number[:1] == fixed.letter and number[1:].isdigit():
                numbers.add(int(number[1:]))
    return [f"{fixed.letter}{n}" for n in range(1, max(numbers) + 1) if n not in numbers]


def fixed_deck(name: str, pool: CardPool) -> Deck:
    """A fixed deck by name (``Winter Greyjoy starter``, with or without ``agotdb:``)."""
    wanted = name.removeprefix(FIXED_PREFIX).strip()
    decks = fixed_decks(pool)
    for fixed, cards in decks:
        if fixed.name.casefold() == wanted.casefold():
            agenda = next((c for c in cards if c.type == "agenda"), None)
            missing = _missing_numbers(fixed, cards)
            gaps = [f"{FIXED_PREFIX}{fixed.name}: the card data has no card numbered "
                    f"{', '.join(missing)} in this deck"] if missing else []
            return Deck(name=fixed.name, house=fixed.house, house_card=None, agenda=agenda,
                        plots=[c for c in cards if c.type == "plot"],
                        cards=[c for c in cards if c.type in HOUSE_DECK_TYPES],
                        source=FIXED_PREFIX + fixed.name,
                        notes=[f"{FIXED_PREFIX}{fixed.name}: one copy of each card numbered "
                               f"{fixed.set_code} {fixed.letter}1-{fixed.letter}N in the card data "
                               "(it does not say how many copies the box holds)"] + gaps)
    known = ", ".join(repr(f.name) for f, _ in decks)
    raise DataError(f"no fixed deck named {wanted!r}", file=FIXED_PREFIX + wanted,
                    hint=f"known: {known}" if known else
                    "import the AGoTDB card data first: python -m cards.pool import \"AGoT - FR.mdb\"")


def read_deck(path: str | Path, pool: CardPool) -> Deck:
    """Read a deck file in any of the three formats, or a fixed deck named ``agotdb:NAME``;
    bad input raises ``DataError``."""
    if isinstance(path, str) and path.startswith(FIXED_PREFIX):
        return fixed_deck(path, pool)
    path = Path(path)
    text = _decode(read_bytes(path, "the deck file", kind="deck"), str(path))
    return parse_deck_text(text, pool, str(path), xml=path.suffix.lower() in (".o8d", ".xml"))


def parse_deck_text(text: str, pool: CardPool, source: str = "<text>", *, xml: bool = False) -> Deck:
    """Parse a deck from text (any of the three formats); ``xml`` insists on OCTGN's format."""
    text = text.removeprefix("\ufeff")
    check_lines(text, source, 10_000, "the deck")
    if not text.strip():
        raise DataError("the deck file is empty", file=source,
                        hint="export the deck again, or write one card per line like '3x Name'")
    name = Path(source).stem if source and not source.startswith("<") else "Deck"
    reader = _Reader(pool, source, name)
    if xml or text.lstrip().startswith("<"):
        reader.read_o8d(text)
    elif any(_BUILDER_ROW.match(line) for line in text.splitlines()):
        reader.read_builder(text)
    else:
        reader.read_text(text)
    return reader.deck()


def _decode(raw: bytes, file: str) -> str:
    """Bytes to text: UTF-8 (with or without BOM) or UTF-16 with a BOM; else a DataError."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return raw.decode("utf-16")
        except UnicodeDecodeError:
            raise DataError("damaged UTF-16 text", file=file, hint="save the file as UTF-8") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = raw[: err.start].count(b"\n") + 1
        raise DataError(f"not UTF-8 text (byte {err.start} is 0x{raw[err.start]:02x})", file=file,
                        line=line, hint="save the deck as UTF-8 text") from None
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        raise DataError("this is a binary file, not a deck list", file=file, line=line,
                        hint="choose the .o8d or .txt file the deckbuilder exported")
    return text


def _house_name(text: str) -> str | None:
    """``Stark``, ``House Stark``, ``Neutral Faction`` -> ``stark`` / ``neutral``; None if no House."""
    word = re.sub(r"^(the\s+)?house\s+", "", " ".join(text.split()).casefold())
    if word in HOUSES:
        return word
    if word in ("neutral", "neutral faction", "the neutral faction"):
        return "neutral"
    return None


def _house_of(card: CardDef) -> str:
    """The House a House card stands for."""
    return card.house[0] if card.house else "neutral"


def _house_title(house: str) -> str:
    return house.capitalize() if house else "(none)"


_SET_SUFFIX = re.compile(r"^(?P<name>.+?)\s*\((?P<set>[^()]+)\)$")
_SET_NUMBER = re.compile(r"^(?P<set>.+?)\s+#?(?P<number>\d+)$")
_QTY_FIRST = re.compile(r"^(?P<qty>[-+]?\d+(?:[.,]\d+)?)\s*[x×]?\s+(?P<name>\S.*)$", re.I)
_QTY_FIRST_X = re.compile(r"^(?P<qty>[-+]?\d+(?:[.,]\d+)?)[x×](?P<name>\S.*)$", re.I)
_QTY_LAST = re.compile(r"^(?P<name>\S.*?)\s+[x×]\s*(?P<qty>[-+]?\d+(?:[.,]\d+)?)$", re.I)
_BUILDER_ROW = re.compile(r"^[^|]*\|[^|]*\|")
_HEADER_DECORATION = " \t#=*-_:"


class _Reader:
    """Collects a deck's parts from any format, checking each card against its section."""

    def __init__(self, pool: CardPool, source: str, name: str):
        self.pool = pool
        self.source = source
        self.name = name
        self.house = ""
        self.house_card: CardDef | None = None
        self.house_card_given = False
        """True once the file named a House card (not just a House)."""
        self.agenda: CardDef | None = None
        self.plots: list[CardDef] = []
        self.cards: list[CardDef] = []
        self.titles: list[CardDef] = []
        self.notes: list[str] = []
        self.octgn_game = ""

    def error(self, message: str, line: int | None, *, field: str | None = None,
              hint: str | None = None) -> DataError:
        return DataError(message, file=self.source, line=line, field=field, hint=hint)

    def note(self, message: str, line: int | None) -> None:
        where = f"{self.source}:{line}" if line is not None else self.source
        self.notes.append(f"{where}: {message}")

    def deck(self) -> Deck:
        if not (self.plots or self.cards or self.agenda):
            raise self.error("no cards found in the deck file", None,
                             hint="write one card per line like '3x Name'")
        return Deck(name=self.name, house=self.house, house_card=self.house_card, agenda=self.agenda,
                    plots=self.plots, cards=self.cards, source=self.source, notes=self.notes,
                    octgn_game=self.octgn_game, titles=self.titles)

    # ---- resolving names and placing cards

    def resolve(self, ref: str, line: int | None, field: str | None = None,
                section: str | None = None) -> CardDef:
        """A card by title, optionally with its set: ``Name``, ``Name (Set)``, ``Name (Set #12)``.
        Printings that fit ``section`` (a plot under Plots) are preferred."""
        ref = " ".join(ref.split())
        printings = self.pool.by_name(ref)
        title, wanted_set = ref, None
        if not printings and (m := _SET_SUFFIX.match(ref)):
            title, wanted_set = m["name"], m["set"].strip()
            printings = self.pool.by_name(title)
        if not printings:
            raise self.error(f"unknown card {ref!r}", line, field=field, hint=self.did_you_mean(title))
        title = printings[0].name
        if wanted_set is not None:
            chosen = self.in_set(printings, wanted_set)
            if not chosen:
                sets = ", ".join(dict.fromkeys(p.set or "?" for p in printings))
                raise self.error(f"{title!r} has no printing in set {wanted_set!r}", line, field=field,
                                 hint=f"known printings: {sets}")
            printings = chosen
        if section is not None:
            printings = [p for p in printings if _kind_of(p) == section] or printings
        if len(printings) > 1:
            first = printings[0]
            where = f"{first.set} " if first.set else ""
            self.note(f"{title!r} matches {len(printings)} printings; using the first "
                      f"({where}{first.key}). Add the set in parentheses to choose another, "
                      f"e.g. '{title} ({printings[1].set or printings[1].key})'", line)
        return printings[0]

    @staticmethod
    def in_set(printings: list[CardDef], wanted: str) -> list[CardDef]:
        want = wanted.casefold()
        chosen = [p for p in printings if p.set.casefold() == want or p.key.casefold() == want]
        if not chosen and (m := _SET_NUMBER.match(wanted)):
            want, number = m["set"].casefold(), int(m["number"])
            chosen = [p for p in printings if p.set.casefold() == want and p.number == number]
        return chosen

    def did_you_mean(self, ref: str) -> str:
        titles = {c.name.casefold(): c.name for c in self.pool}
        close = difflib.get_close_matches(ref.casefold(), list(titles), n=3, cutoff=0.6)
        if close:
            return "did you mean " + " or ".join(repr(titles[c]) for c in close) + "?"
        return "check the spelling, or load the pool that has this card with --pool"

    def set_house(self, text: str, line: int | None, field: str = "House") -> None:
        house = _house_name(text)
        if house is None:
            close = difflib.get_close_matches(text.strip().casefold(), [*HOUSES, "neutral"], n=1)
            hint = f"did you mean {close[0].capitalize()!r}?" if close else \
                "use one of " + ", ".join(h.capitalize() for h in (*HOUSES, "neutral"))
            raise self.error(f"{text.strip()!r} is not a House", line, field=field, hint=hint)
        if self.house and self.house != house:
            raise self.error(f"the deck names two Houses: {_house_title(self.house)} and "
                             f"{_house_title(house)}", line, field=field, hint="keep one House")
        self.house = house
        if self.house_card is None:
            self.house_card = next((c for c in self.pool if c.type == "house" and _house_of(c) == house), None)

    def add(self, card: CardDef, qty: int, section: str | None, line: int | None) -> None:
        """Place ``qty`` copies of ``card``; ``section`` is where the file put it (None: by type)."""
        kind = _kind_of(card)
        section = section or kind
        if section != kind:
            where = {"house": "the House card", "agenda": "the agenda", "plots": "the plot deck",
                     "cards": "the House deck", "titles": "the titles"}
            raise self.error(f"{card.name!r} is {_article(card.type)} and cannot go in {where[section]}",
                             line, hint=f"move it to the {_SECTION_LABELS[kind]} section")
        if kind == "house":
            if qty != 1 or (self.house_card_given and self.house_card is not card):
                raise self.error("a deck has exactly one House card", line, hint="remove the others")
            self.set_house(_house_of(card), line)
            self.house_card, self.house_card_given = card, True
        elif kind == "agenda":
            if qty != 1 or (self.agenda is not None and self.agenda is not card):
                raise self.error("a deck has at most one agenda (ZON-05)", line,
                                 hint="keep one agenda and remove the others")
            self.agenda = card
        elif kind == "plots":
            self.plots.extend([card] * qty)
        elif kind == "titles":
            if qty != 1 or card in self.titles:
                raise self.error(f"{card.name!r}: a title is brought once", line, hint="write '1x' and list it once")
            self.titles.append(card)
        else:
            self.cards.extend([card] * qty)

    def quantity(self, text: str, line: int, field: str | None = None) -> int:
        try:
            qty = int(text.strip())
        except ValueError:
            raise self.error(f"bad quantity {text.strip()!r}", line, field=field,
                             hint="a quantity is a whole number such as 3") from None
        if qty < 1 or qty > MAX_QUANTITY:
            raise self.error(f"bad quantity {qty}", line, field=field,
                             hint=f"a quantity is between 1 and {MAX_QUANTITY}; remove lines for cards you do not play")
        return qty

    def add_named(self, ref: str, qty: int, section: str | None, line: int, field: str | None = None) -> None:
        """Add a card named in a list. A House the pool has no card for (``House Stark``;
        in the House section also ``Stark``) just names the deck's House."""
        names_house = section == "house" or (section is None and ref.casefold().startswith("house "))
        if names_house and not self.pool.by_name(ref) and _house_name(ref):
            self.set_house(ref, line)
            return
        self.add(self.resolve(ref, line, field, section), qty, section, line)

    # ---- OCTGN .o8d

    def read_o8d(self, text: str) -> None:
        root = _parse_xml(text, self.source)
        if root.tag != "deck":
            raise self.error(f"the root element is <{root.tag}>, not <deck>", root.line,
                             hint="this is not an OCTGN deck (.o8d) file")
        self.octgn_game = root.attrs.get("game", "")
        for node in root.children:
            if node.tag == "notes":
                if m := re.search(r"^\s*Deck:\s*(.+?)\s*$", node.text, re.M):
                    self.name = m[1]
            elif node.tag == "card":
                raise self.error("a <card> outside any <section>", node.line,
                                 hint="put cards inside <section name=\"...\">")
            elif node.tag == "section":
                self.read_o8d_section(node)

    def read_o8d_section(self, node: "_Node") -> None:
        label = node.attrs.get("name", "")
        section = _SECTIONS.get(label.strip().casefold())
        if section is None:
            raise self.error(f"unknown section {label!r}", node.line, field="section",
                             hint="OCTGN sections are " + ", ".join(_O8D_SECTIONS))
        for card_node in node.children:
            if card_node.tag != "card":
                continue
            line = card_node.line
            qty = self.quantity(card_node.attrs.get("qty", "1"), line, field="qty")
            name = " ".join(card_node.text.split())
            card = self.pool.get(card_node.attrs.get("id", ""))
            if card is None:
                if not name:
                    raise self.error(f"card id {card_node.attrs.get('id', '')!r} is not in the pool "
                                     "and the <card> has no name", line, field="card",
                                     hint="write the card's title between <card> and </card>")
                self.add_named(name, qty, section, line, field="card")
                continue
            if name and card.name.casefold() != name.casefold():
                self.note(f"id {card.key!r} is {card.name!r} in the pool, but the file says {name!r}; "
                          "using the id", line)
            self.add(card, qty, section, line)

    # ---- plain text list

    def read_text(self, text: str) -> None:
        section: str | None = None
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if not line or line.startswith("//"):
                continue
            if (found := _section_header(line)) is not None:
                section = found
                continue
            if line.startswith("#"):       # a comment, unless it names the deck
                if m := _HEADER.match(line.strip(_HEADER_DECORATION)):
                    if m["key"].casefold() in ("deck", "name"):
                        self.name = m["value"].strip() or self.name
                continue
            if (m := _HEADER.match(line)) and self.text_header(m["key"].casefold(), m["value"].strip(), number):
                continue
            if re.match(r"(?i)house\s+\S+$", line) and _house_name(line):
                self.set_house(line, number)
                continue
            qty, ref = self.text_entry(line, number)
            self.add_named(ref, qty, section, number)

    def text_header(self, key: str, value: str, line: int) -> bool:
        """``House: Stark``, ``Agenda: Name``, ``Deck: Name``, ``Total: 60``; False if ``key`` is none of them."""
        if key == "house":
            self.set_house(value, line)
        elif key == "agenda":
            if value.casefold() not in _NO_AGENDA:
                self.add_named(re.sub(r"(?i)^1\s*x?\s+", "", value), 1, "agenda", line, field="Agenda")
        elif key in ("deck", "name", "title"):
            self.name = value or self.name
        elif not key.startswith("total"):
            return False
        return True

    def text_entry(self, line: str, number: int) -> tuple[int, str]:
        """``3x Name``, ``3 Name``, ``Name x3`` or a bare ``Name`` (one copy)."""
        if not self.pool.by_name(line):
            for pattern in (_QTY_FIRST, _QTY_FIRST_X, _QTY_LAST):
                if m := pattern.match(line):
                    return self.quantity(m["qty"], number), m["name"].strip()
        return 1, line

    # ---- community deckbuilder TXT

    def read_builder(self, text: str) -> None:
        agenda: tuple[str, int] | None = None     # the AGENDA: line, resolved after the rows
        section: str | None = None
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if not line or line.startswith("//"):
                continue
            if _BUILDER_ROW.match(line):
                self.builder_row(line, section, number)
            elif (found := _section_header(line)) is not None:
                section = found
            elif line.startswith("#"):
                continue
            elif (m := _HEADER.match(line)) is None:
                raise self.error(f"not an 'id | qty | name' row: {line[:60]!r}", number,
                                 hint="rows look like 'core_12 | 3 | Card Name'")
            elif m["key"].casefold() == "agenda":
                value = m["value"].strip()
                agenda = None if value.casefold() in _NO_AGENDA else (value, number)
            elif m["key"].casefold() == "house":
                self.set_house(m["value"], number, field="HOUSE")
            elif m["key"].casefold() in ("deck", "name", "title"):
                self.name = m["value"].strip() or self.name
            elif not m["key"].casefold().startswith("total"):
                raise self.error(f"unknown header {m['key']!r}", number,
                                 hint="headers are HOUSE:, AGENDA: and NAME:")
        # An AGENDA: line and an agenda row with the same title are one card.
        if agenda is not None and (self.agenda is None or self.agenda.name.casefold() != agenda[0].casefold()):
            self.add(self.resolve(agenda[0], agenda[1], "AGENDA", "agenda"), 1, "agenda", agenda[1])

    def builder_row(self, line: str, section: str | None, number: int) -> None:
        parts = [p.strip() for p in line.split("|")]
        if len(parts) != 3:
            raise self.error(f"expected 'id | qty | name', found {len(parts)} columns", number,
                             hint="rows look like 'core_12 | 3 | Card Name'")
        key, qty_text, name = parts
        if qty_text.casefold() in ("qty", "quantity"):
            return      # a column heading
        qty = self.quantity(qty_text, number, field="qty")
        card = self.pool.get(key)
        if card is None:
            if not name:
                raise self.error(f"card id {key!r} is not in the pool", number, field="id",
                                 hint="add the name column, or load the pool with --pool")
            card = self.resolve(name, number, field="name", section=section)
        elif name and card.name.casefold() != name.casefold():
            self.note(f"id {key!r} is {card.name!r} in the pool, but the row says {name!r}; using the id",
                      number)
        self.add(card, qty, section, number)


def _kind_of(card: CardDef) -> str:
    """Where a card of this type belongs: ``house``, ``agenda``, ``plots`` or ``cards`` (the House deck)."""
    return {"house": "house", "agenda": "agenda", "plot": "plots", "title": "titles"}.get(card.type, "cards")


def _article(card_type: str) -> str:
    return ("an " if card_type[:1] in "aeiou" else "a ") + card_type


_SECTION_LABELS = {"house": "House", "agenda": "Agenda", "plots": "Plots", "titles": "Titles",
                   "cards": "Characters/Locations/Attachments/Events"}
_HEADER = re.compile(r"^(?P<key>[A-Za-z][A-Za-z ]*?)\s*:\s*(?P<value>.*)$")
_NO_AGENDA = ("", "none", "-", "no agenda")


def _section_header(text: str) -> str | None:
    """The section a header line opens (``Plots:``, ``# Plots``, ``Characters (24)``, ``== Events ==``)."""
    word = text.strip(_HEADER_DECORATION)
    word = re.sub(r"\s*[(\[]\s*\d+\s*[)\]]$", "", word)     # Characters (24)
    word = re.sub(r"\s*:\s*\d*$", "", word)                  # Plots: 7
    return _SECTIONS.get(" ".join(word.split()).casefold())


# ---- a small XML reader that keeps line numbers (ElementTree does not)

@dataclass
class _Node:
    tag: str
    attrs: dict[str, str]
    line: int
    text: str = ""
    children: list["_Node"] = field(default_factory=list)


def _parse_xml(text: str, file: str) -> _Node:
    """Parse XML with expat into ``_Node``s; DOCTYPEs (and so entity tricks) are refused."""
    parser = expat.ParserCreate()
    stack: list[_Node] = []
    roots: list[_Node] = []

    def start(tag: str, attrs: dict[str, str]) -> None:
        node = _Node(tag, attrs, parser.CurrentLineNumber)
        (stack[-1].children if stack else roots).append(node)
        stack.append(node)

    def end(tag: str) -> None:
        stack.pop()

    def chars(data: str) -> None:
        if stack:
            stack[-1].text += data

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = chars
    no_doctype(parser, file, "a deck file")
    try:
        parser.Parse(text, True)
    except expat.ExpatError as err:
        raise DataError(f"not well-formed XML: {expat.ErrorString(err.code)} (column {err.offset + 1})",
                        file=file, line=err.lineno,
                        hint="the file may be truncated or damaged; export the deck again") from None
    except (LookupError, ValueError) as err:  # an unknown encoding declaration
        raise DataError(f"cannot read the XML: {err}", file=file, line=1, hint="save the deck as UTF-8") from None
    return roots[0]


# --------------------------------------------------------------------------- writing

def write_deck(deck: Deck, path: str | Path, fmt: str | None = None, *, pool: CardPool | None = None) -> None:
    """Write ``deck`` to ``path`` as ``o8d``, ``text`` or ``builder`` (default: by extension).

    With ``pool``, the text format names a card's set only when its title has several printings.
    """
    path = Path(path)
    if fmt is None:
        fmt = "o8d" if path.suffix.lower() in (".o8d", ".xml") else "text"
    path.write_text(format_deck(deck, fmt, pool=pool), encoding="utf-8")


def format_deck(deck: Deck, fmt: str = "text", *, pool: CardPool | None = None) -> str:
    """The deck as file text in one of ``FORMATS``."""
    if fmt == "o8d":
        return _format_o8d(deck)
    if fmt == "text":
        return _format_text(deck, pool)
    if fmt == "builder":
        return _format_builder(deck)
    raise ValueError(f"unknown deck format {fmt!r}; use one of {', '.join(FORMATS)}")


def _counted(cards: list[CardDef]) -> list[tuple[CardDef, int]]:
    """(card, copies) in order of first appearance."""
    counts: dict[int, list] = {}
    for card in cards:
        counts.setdefault(id(card), [card, 0])[1] += 1
    return [(card, n) for card, n in counts.values()]


def _by_section(deck: Deck) -> dict[str, list[CardDef]]:
    sections: dict[str, list[CardDef]] = {name: [] for name in _O8D_SECTIONS}
    for card in deck.cards:
        sections[_O8D_SECTION_OF_TYPE.get(card.type, "Characters")].append(card)
    sections["Plots"] = list(deck.plots)
    sections["Titles"] = list(deck.titles)
    return sections


def _format_o8d(deck: Deck) -> str:
    # Maester does not know the id of OCTGN's first-edition game; a deck read from OCTGN keeps its own.
    out = ['<?xml version="1.0" encoding="utf-8" standalone="yes"?>', f"<deck game={quoteattr(deck.octgn_game)}>"]

    def section(name: str, entries: list[tuple[str, int, str]]) -> None:
        if entries:
            out.append(f"  <section name={quoteattr(name)} shared=\"False\">")
            out.extend(f"    <card qty=\"{qty}\" id={quoteattr(key)}>{escape(title)}</card>"
                       for key, qty, title in entries)
            out.append("  </section>")

    if deck.house_card is not None:
        section("House", [(deck.house_card.key, 1, deck.house_card.name)])
    elif deck.house:
        section("House", [(f"house-{deck.house}", 1, f"House {_house_title(deck.house)}")])
    if deck.agenda is not None:
        section("Agenda", [(deck.agenda.key, 1, deck.agenda.name)])
    for name, cards in _by_section(deck).items():
        section(name, [(c.key, n, c.name) for c, n in _counted(cards)])
    out.append(f"  <notes><![CDATA[Deck: {deck.name.replace(']]>', '')}]]></notes>")
    out.append("</deck>")
    return "\n".join(out) + "\n"


def _text_ref(card: CardDef, pool: CardPool | None) -> str:
    """A title that reads back as this printing: bare when the pool has one printing of it,
    else with the first of set, set and number, or key that picks it out.
    Without a pool, the set is added whenever the card has one."""
    if pool is None:
        return f"{card.name} ({card.set})" if card.set else card.name
    printings = pool.by_name(card.name)
    if len(printings) <= 1:
        return card.name
    choices = ([card.set] if card.set else []) + \
        ([f"{card.set} #{card.number}"] if card.set and card.number is not None else []) + [card.key]
    suffix = next((c for c in choices if _Reader.in_set(printings, c) == [card]), card.key)
    return f"{card.name} ({suffix})"


def _format_text(deck: Deck, pool: CardPool | None) -> str:
    out = [f"Deck: {deck.name}"]
    if deck.house:
        out.append(f"House: {_house_title(deck.house)}")
    if deck.agenda is not None:
        out.append(f"Agenda: {_text_ref(deck.agenda, pool)}")
    if deck.house_card is not None and pool is not None and deck.house and deck.house_card is not next(
            (c for c in pool if c.type == "house" and _house_of(c) == deck.house), None):
        # "House: X" reads back as the pool's first House card for X: name another printing
        out += ["", "House card:", f"1x {_text_ref(deck.house_card, pool)}"]
    sections = _by_section(deck)
    for name in ("Plots", "Characters", "Locations", "Attachments", "Events", "Titles"):
        if sections[name]:
            out += ["", f"{name}:"] + [f"{n}x {_text_ref(c, pool)}" for c, n in _counted(sections[name])]
    return "\n".join(out) + "\n"


def _format_builder(deck: Deck) -> str:
    out = [f"NAME: {deck.name}"] + ([f"HOUSE: {_house_title(deck.house)}"] if deck.house else [])
    if deck.agenda is not None:
        out.append(f"AGENDA: {deck.agenda.name}")
    rows = ([deck.house_card] if deck.house_card else []) + ([deck.agenda] if deck.agenda else [])
    out += [f"{c.key} | 1 | {c.name}" for c in rows]
    out += [f"{c.key} | {n} | {c.name}" for c, n in _counted(deck.plots) + _counted(deck.cards)
            + _counted(deck.titles)]
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------- checking

def check_deck(deck: Deck, *, casual: bool = False, fmt: str = "joust",
               era: str | None = None) -> list[Problem]:
    """Every deck construction rule the deck breaks, in rule order; an empty list means legal.

    ``casual`` skips the tournament-only rules: promotional cards (DCK-05) and the
    ``fmt`` (``joust`` or ``melee``) banned and restricted lists (DCK-07).
    ``era`` (``ccg``, ``lcg``; ``cards.sets.ERAS``) restricts the deck to cards printed in
    that era's sets (rule ``ERA``); the LCG's banned and restricted lists do not apply to
    a ``ccg`` deck.
    """
    problems: list[Problem] = []
    add = problems.append
    everything = _distinct(([deck.house_card] if deck.house_card else []) +
                           ([deck.agenda] if deck.agenda else []) + deck.plots + deck.cards)

    # The deck's shape: a House, at most one agenda, each card type in its own deck (SET-01, ZON-01, ZON-05).
    if not deck.house:
        add(Problem("SET-01", "the deck has no House: add a House card or a line 'House: Stark'"))
    elif deck.house != "neutral" and deck.house not in HOUSES:
        add(Problem("SET-01", f"{deck.house!r} is not a House"))
    if deck.house_card is not None:
        if deck.house_card.type != "house":
            add(Problem("ZON-01", f"{deck.house_card.name!r} is {_article(deck.house_card.type)}, "
                                  "not a House card", deck.house_card))
        elif deck.house and _house_of(deck.house_card) != deck.house:
            add(Problem("ZON-01", f"the House card {deck.house_card.name!r} does not match the deck's "
                                  f"House, {_house_title(deck.house)}", deck.house_card))
    if deck.agenda is not None and deck.agenda.type != "agenda":
        add(Problem("ZON-05", f"{deck.agenda.name!r} is {_article(deck.agenda.type)}, not an agenda",
                    deck.agenda))
    for card in _distinct(deck.plots):
        if card.type != "plot":
            add(Problem("ZON-01", f"{card.name!r} is {_article(card.type)}; the plot deck holds only plots",
                        card))
    for card in _distinct(deck.cards):
        if card.type not in HOUSE_DECK_TYPES:
            add(Problem("ZON-01", f"{card.name!r} is {_article(card.type)}; the House deck holds only "
                                  "characters, locations, attachments and events", card))

    rules = agenda_deck_rules(deck.agenda)
    by_agenda = f" with the agenda {deck.agenda.name!r}" if deck.agenda is not None else ""

    # DCK-01: exactly 7 plots (an agenda may allow more: Kings of Deceit), no two with one title.
    # Princes of the South (extra_plot_copy): an eighth plot, a second copy of one of the seven.
    extra_copy = bool(rules.get("extra_plot_copy"))
    plots_allowed = rules.get("plots", PLOT_DECK_SIZE + (1 if extra_copy else 0))
    if not PLOT_DECK_SIZE <= len(deck.plots) <= max(plots_allowed, PLOT_DECK_SIZE):
        needs = f"exactly {PLOT_DECK_SIZE}" if plots_allowed <= PLOT_DECK_SIZE else \
            f"{PLOT_DECK_SIZE} to {plots_allowed}{by_agenda}"
        add(Problem("DCK-01", f"the plot deck has {_count(len(deck.plots), 'card')}; it needs {needs}"))
    spare = 1 if extra_copy and len(deck.plots) > PLOT_DECK_SIZE else 0
    for copies in _titles(deck.plots).values():
        if len(copies) > 1 + spare:
            add(Problem("DCK-01", f"the plot deck has {len(copies)} copies of {copies[0].name!r}; "
                                  + ("every plot must have a different title" if not extra_copy else
                                     f"only one plot may have a second copy{by_agenda}, as an eighth plot"),
                        copies[0]))
        elif len(copies) == 2 and spare:
            spare = 0
    if spare and len(deck.plots) == PLOT_DECK_SIZE + 1:
        add(Problem("DCK-01", f"the plot deck has {_count(len(deck.plots), 'card')} with different titles; "
                              f"the eighth plot{by_agenda} must be a second copy of one of the others"))

    # DCK-02: at least 60 House-deck cards (an agenda may say another number: Kings of Salt and Rock).
    size = sum(1 for c in deck.cards if c.type in HOUSE_DECK_TYPES)
    least = rules.get("house_deck_min", MIN_HOUSE_DECK)
    if size < least:
        add(Problem("DCK-02", f"the House deck has {_count(size, 'card')}; it needs at least {least}"
                              + (by_agenda if least != MIN_HOUSE_DECK else "")))

    # DCK-03: at most 3 copies of a title across the House deck (a card may allow fewer).
    for copies in _titles(deck.cards).values():
        limit = min(c.deck_limit for c in copies)
        if len(copies) > limit:
            add(Problem("DCK-03", f"{len(copies)} copies of {copies[0].name!r} in the House deck; "
                                  f"at most {limit} allowed", copies[0]))

    # DCK-04: "House X only" cards (or "House X or Y only") need one of those Houses.
    for card in everything:
        if not card.deck_allows(deck.house or None):
            houses = card.deck_houses or (card.house_only,)
            needs = " or ".join(_house_title(_house_name(h) or h) for h in houses)
            add(Problem("DCK-04", f"{card.name!r} is House {needs} only, but the deck's House is "
                                  f"{_house_title(deck.house)}", card))

    # DCK-05: no promotional cards in tournament decks.
    if not casual:
        for card in everything:
            if card.promo:
                add(Problem("DCK-05", f"{card.name!r} is a promotional card, not allowed in tournament "
                                      "decks (use --casual for casual play)", card))

    # DCK-06: cards that allow at most two copies of any card in the deck (House deck and plots).
    limiters = [c for c in everything if c.deck_rule == "max-2-copies"]
    if limiters:
        for copies in _titles(deck.plots + deck.cards).values():
            if len(copies) > 2:
                add(Problem("DCK-06", f"{len(copies)} copies of {copies[0].name!r}; {limiters[0].name!r} "
                                      "allows no more than two copies of any card in the deck", copies[0]))

    # DCK-06: the agenda's own deck rules: no neutral cards of some types (the Five Kings agendas).
    for card in _distinct(deck.cards):
        if card.type in rules.get("no_neutral", ()) and card.is_neutral:
            add(Problem("DCK-06", f"{card.name!r} is a neutral {card.type}; the agenda {deck.agenda.name!r} allows "
                                  f"no neutral {' or '.join(t + 's' for t in rules['no_neutral'])} in the deck", card))

    # DCK-07: banned cards, and at most one title from the restricted list (LCG organised play).
    if not casual and era != "ccg":
        for card in everything:
            if card.legal_in(fmt) == "banned":
                add(Problem("DCK-07", f"{card.name!r} is banned in {fmt}", card))
        restricted = list(_titles([c for c in everything if c.legal_in(fmt) == "restricted"]).values())
        if len(restricted) > 1:
            names = ", ".join(repr(copies[0].name) for copies in restricted)
            add(Problem("DCK-07", f"{len(restricted)} cards from the {fmt} restricted list ({names}); "
                                  "a deck may hold only one of them", restricted[1][0]))

    # ERA: every card printed in one of the era's sets.
    if era is not None:
        for card in everything:
            if era not in card_eras(card):
                add(Problem("ERA", f"{card.name!r} was not printed in {ERAS[era]} "
                                   f"({', '.join(card.printings) or card.set or 'no set known'})", card))
    return problems


def agenda_deck_rules(agenda: CardDef | None) -> dict:
    """The deck-building rules an agenda's ability data gives (a constant's ``deck``, docs/abilities.md):
    ``no_neutral`` (card types), ``house_deck_min`` and ``plots`` (numbers), ``extra_plot_copy`` (true); {}
    without any. The data is
    read as it is (``cards`` does not import the engine, whose parser checks it)."""
    rules: dict = {}
    for a in (agenda.abilities if agenda is not None else ()):
        if isinstance(a, dict) and a.get("kind") == "constant" and isinstance(a.get("deck"), dict):
            rules.update(a["deck"])
    return rules


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _distinct(cards: list[CardDef]) -> list[CardDef]:
    return list({id(c): c for c in cards}.values())


def _titles(cards: list[CardDef]) -> dict[str, list[CardDef]]:
    """Cards grouped by title (case-insensitive), in order of first appearance."""
    groups: dict[str, list[CardDef]] = {}
    for card in cards:
        groups.setdefault(card.name.casefold(), []).append(card)
    return groups


# --------------------------------------------------------------------------- command line

def main(argv: list[str] | None = None) -> int:
    """``check DECKFILE [--pool POOLFILE] [--casual] [--format joust|melee] [--era ccg|lcg]``, ``fixed``,
    ``sets``: 0 legal, 1 not, 2 usage. DECKFILE may be ``agotdb:NAME``, a fixed deck."""
    tolerant_console()
    parser = argparse.ArgumentParser(prog="python -m cards.deck", description="Check a deck file.")
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser("check", help="check a deck against the deck construction rules")
    check.add_argument("deck", metavar="DECKFILE",
                       help=".o8d, plain text list, deckbuilder .txt, or agotdb:NAME (a fixed deck)")
    check.add_argument("--pool", metavar="POOLFILE",
                       help="a card pool (.json, .xml or .yaml) used before the built-in cards")
    check.add_argument("--casual", action="store_true",
                       help="casual play: allow promotional, banned and restricted cards")
    check.add_argument("--format", dest="fmt", default="joust", choices=("joust", "melee", "legacy"),
                       help="the tournament format whose banned and restricted lists apply")
    check.add_argument("--era", choices=tuple(ERAS),
                       help="only cards printed in this era: ccg (Winter Edition to Five Kings Edition) or lcg")
    commands.add_parser("fixed", help="list the fixed decks of the imported card data (agotdb:NAME)")
    commands.add_parser("sets", help="list the sets Maester knows, by era")
    args = parser.parse_args(argv)
    if args.command == "sets":
        from cards.sets import SETS

        for era, what in ERAS.items():
            print(f"{era}: {what}")
            for info in (s for s in SETS if s.era == era):
                print(f"  {info.code:<7} {info.name}")
        return 0

    from cards.pool import default_pool, load_pool  # written alongside; imported late to keep this module light

    if args.command == "fixed":
        try:
            decks = fixed_decks(default_pool())
        except DataError as err:
            print(f"error: {err}", file=sys.stderr)
            return 1
        if not decks:
            print("no fixed decks: import the AGoTDB card data first "
                  "(python -m cards.pool import \"AGoT - FR.mdb\", --all for the LCG Core Set decks)")
            return 1
        for fixed, cards in decks:
            plots = sum(1 for c in cards if c.type == "plot")
            print(f"{FIXED_PREFIX}{fixed.name}  (House {_house_title(fixed.house)}; {plots} plots, "
                  f"{len(cards) - plots} other cards, numbered {fixed.set_code} {fixed.letter}n)")
        return 0
    try:
        pool = default_pool()
        if args.pool:
            pool = load_pool(args.pool).merged(pool)
        deck = read_deck(args.deck, pool)
    except DataError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    for note in deck.notes:
        print(f"note: {note}", file=sys.stderr)
    problems = check_deck(deck, casual=args.casual, fmt=args.fmt, era=args.era)
    for problem in problems:
        print(problem)
    rules = f"{args.fmt}, {'casual' if args.casual else 'tournament'}"
    if args.era:
        rules += f", {args.era} era: {ERAS[args.era]}"
    shape = (f"House {_house_title(deck.house)}, {len(deck.plots)} plots, "
             f"{len(deck.cards)} House-deck cards")
    if problems:
        print(f"{deck.name}: NOT legal ({rules}): {_count(len(problems), 'problem')}; {shape}")
        return 1
    print(f"{deck.name}: legal ({rules}); {shape}")
    return 0


if __name__ == "__main__":
    sys.exit(run_command(main))
