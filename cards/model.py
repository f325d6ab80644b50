"""The card model: immutable first-edition card definitions (rules checklist ZON-13).

A ``CardDef`` is what is printed on a card (after errata). Runtime facts — where
a copy is, whether it kneels, its power — live on engine card instances, never
here. Field names follow the scenario format's "Cards" section
(../shared/spec/scenario-format.md); docs/card-format.md documents the YAML.

>>> c = CardDef(key="Sellsword", name="Sellsword", type="character", cost=2,
...             strength=3, icons=frozenset({"military"}))
>>> c.is_neutral, c.has_keyword("deadly")
(True, False)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

HOUSES = ("stark", "lannister", "baratheon", "greyjoy", "targaryen", "martell")
"""The six Great Houses (ZON-09). ``neutral`` is the absence of a House."""

TYPES = ("character", "location", "attachment", "event", "plot", "agenda", "house", "title")
"""``title``: the Five Kings Edition titles (Hand of the King ...): no deck holds them; a player places one
on the table and passes it by hand (the rules documents define no title rules)."""
HOUSE_DECK_TYPES = ("character", "location", "attachment", "event")
ICONS = ("military", "intrigue", "power")
CRESTS = ("noble", "war", "learned", "holy", "shadow")

ATTACHMENTS_EXCEPT = {
    "no attachments except weapon": ("Weapon",),
    "no attachments except boon": ("Boon",),
    "no attachments except weapon or boon": ("Weapon", "Boon"),
    "no attachments except weapon or armor": ("Weapon", "Armor"),
}
"""The "No attachments except <trait>" keywords the engine models (KW-08, KW-10), with the traits of
the only attachments the card takes."""

SIMPLE_KEYWORDS = (
    "deadly", "deathbound", "renown", "stealth", "limited", "no attachments", "setup",
    *ATTACHMENTS_EXCEPT,
)
"""Keywords the engine owns as rules (KW-01..KW-09). Immunity is ``immune to <X>``."""

IMMUNITY_PREFIX = "immune to "


def is_keyword(word: str) -> bool:
    """True for a keyword the card model understands (normalised, lower case)."""
    return word in SIMPLE_KEYWORDS or (word.startswith(IMMUNITY_PREFIX) and len(word) > len(IMMUNITY_PREFIX))


@dataclass(frozen=True, eq=False)
class CardDef:
    """One card's printed (errata'd) facts. Identity is the object; ``key`` is unique in a pool."""

    key: str
    """Unique in its pool: the scenario ``key``, an imported card's id, or the name."""
    name: str
    type: str
    house: tuple[str, ...] = ()
    """The Houses on the shield; empty for a neutral card. Events are always neutral (ZON-09)."""
    unique: bool = False
    cost: int | None = None
    """Gold cost; None when the card has none (plots, agendas, House cards)."""
    cost_x: bool = False
    """The cost is X (COS-08/09): ``cost`` is then 0."""
    strength: int | None = None
    strength_x: bool = False
    """The STR is printed X (Lady of Schemes): ``strength`` is then 0, what the engine counts unless an
    ability defines it."""
    icons: frozenset[str] = frozenset()
    naval_icons: frozenset[str] = frozenset()
    """Icons printed with the Naval mark (a later LCG addition); also listed in ``icons``."""
    traits: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    doomed: bool = False
    endless: bool = False
    """The Endless mark (A Song of Night onwards, CCG): a reminder printed on the card; rules
    that read it do so through the card's text."""
    influence: int = 0
    income: int = 0
    """Plot: gold income. Other cards: income bonus, counted even while kneeling (MAR-02)."""
    initiative: int = 0
    """Plot: initiative value. Other cards: initiative bonus (PLT-06)."""
    claim: int = 0
    crest: tuple[str, ...] = ()
    text: str = ""
    text_lang: str = ""
    """The language of ``text`` when it is not English (``fr`` for the AGoTDB French data)."""
    set: str = ""
    number: int | None = None
    printings: tuple[str, ...] = ()
    """Every printing as ``"<set code> <letter><number>"`` (``"Winter R66"``, ``"Winter G1"``,
    ``"KotSe F4"``): the letter is the rarity or fixed-deck letter, ``P`` a promo. ``set`` and
    ``number`` are the first printing's. Set codes: ``cards.sets``."""
    house_only: str | None = None
    """"House X only" (DCK-04): the House card a deck needs to include this card."""
    deck_houses: tuple[str, ...] = ()
    """Every House a deck's House card may have to include this card (DCK-04), when the
    card restricts it: ``("baratheon", "greyjoy")`` for "House Baratheon or Greyjoy
    only", five Houses and ``neutral`` for "Any House except X"; ``neutral`` is a House
    card without a House. Empty: no restriction. ``house_only`` is set only when
    exactly one House is named; ``deck_allows`` reads both."""
    deck_limit: int = 3
    """Copies allowed in a deck by title (DCK-03; lower for cards that say so)."""
    legality: tuple[tuple[str, str], ...] = ()
    """Per format: (("joust", "banned"), ...). Absent formats are legal (DCK-05/07)."""
    promo: bool = False
    """Promotional (skull) cards are illegal in tournament decks (ZON-17)."""
    deck_rule: str | None = None
    """A deck-building rule the card imposes (e.g. ``max-2-copies``, DCK-06)."""
    abilities: tuple[Any, ...] = ()
    """Raw ability data in the project's ability format (docs/abilities.md)."""
    partial: str = ""
    """What the abilities do not play of the card's text, in our own words (``partial:`` in ability
    data or a card file); empty when they play all of it. ``cards.report`` counts such a card as
    partial, not automated."""
    partial_paragraphs: tuple[int, ...] = ()
    """The paragraphs (1-based lines of ``text``) that ``partial`` is about, when the data says."""
    source: str = ""
    """Where the definition came from, for messages: ``file:line``."""

    @property
    def is_neutral(self) -> bool:
        return not self.house

    def in_house(self, house: str) -> bool:
        """True if this card belongs to ``house`` (a House name, lower case)."""
        return house in self.house

    def has_keyword(self, keyword: str) -> bool:
        return keyword in self.keywords

    @property
    def immunities(self) -> tuple[str, ...]:
        """What the card is printed immune to: ("events", "character abilities", ...)."""
        return tuple(k[len(IMMUNITY_PREFIX):] for k in self.keywords if k.startswith(IMMUNITY_PREFIX))

    @property
    def is_house_deck_card(self) -> bool:
        return self.type in HOUSE_DECK_TYPES

    def deck_allows(self, house: str | None) -> bool:
        """True if a deck whose House card has ``house`` (None: no House) may include this card."""
        houses = self.deck_houses or ((self.house_only,) if self.house_only else ())
        return not houses or (house or "neutral") in houses

    def legal_in(self, fmt: str) -> str:
        """``legal``, ``restricted`` or ``banned`` in the format (``joust``, ``melee``)."""
        return dict(self.legality).get(fmt, "legal")

    def __repr__(self) -> str:
        return f"<CardDef {self.key!r} {self.type}>"


@dataclass
class CardPool:
    """A set of card definitions, looked up by key or by title.

    Several printings may share a title; ``by_name`` lists them in pool order and
    ``find`` resolves a bare title to the first printing.
    """

    cards: dict[str, CardDef] = field(default_factory=dict)
    _by_name: dict[str, list[CardDef]] = field(default_factory=dict, repr=False)

    def add(self, card: CardDef) -> None:
        if card.key in self.cards:
            raise ValueError(f"duplicate card key {card.key!r}")
        self.cards[card.key] = card
        self._by_name.setdefault(card.name.casefold(), []).append(card)

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self):
        return iter(self.cards.values())

    def __contains__(self, key: str) -> bool:
        return key in self.cards

    def get(self, key: str) -> CardDef | None:
        return self.cards.get(key)

    def by_name(self, name: str) -> list[CardDef]:
        """Every printing with this title (case-insensitive), in pool order."""
        return list(self._by_name.get(name.casefold(), ()))

    def find(self, ref: str) -> CardDef | None:
        """A card by key, else the first printing of that title."""
        card = self.cards.get(ref)
        if card is not None:
            return card
        named = self._by_name.get(ref.casefold())
        return named[0] if named else None

    def merged(self, other: "CardPool") -> "CardPool":
        """A new pool: this one's cards, then ``other``'s whose keys are new."""
        pool = CardPool()
        for card in list(self) + [c for c in other if c.key not in self.cards]:
            pool.add(card)
        return pool
