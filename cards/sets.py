"""First-edition sets (expansions), their codes and eras; the fixed decks the card data identifies.

Set names, codes and numbers are facts about the published game, written here by the
project. The codes are the AGoTDB card searcher's English short names (``Winter``,
``ITE``, ``KotSe``; a chapter pack is ``ACoA-3``); its French database writes French
short names (``Hiver``, ``Royale``, ``RdlM``), which ``find_set`` also reads.

Eras:

- ``ccg``: the collectible game, **Winter Edition to Five Kings Edition** (2002–2007),
  promos of that era included (their printings are in those sets, letter ``P``);
- ``lcg``: the Living Card Game, Core Set onwards (2008–2015).

>>> find_set("Hiver").name, find_set("winter").era
('Winter Edition', 'ccg')
>>> era_of_card_set("Core Set")
'lcg'
"""
from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class SetInfo:
    code: str
    """The English short code (``Winter``)."""
    name: str
    """The English set name (``Winter Edition``)."""
    set_id: int
    """AGoTDB's SetId: ``UniversalId // 10000``."""
    era: str
    fr_code: str = ""
    """AGoTDB's French short code (``Hiver``)."""
    aliases: tuple[str, ...] = ()


SETS: tuple[SetInfo, ...] = (
    SetInfo("Winter", "Winter Edition", 10, "ccg", "Hiver"),
    SetInfo("ASoT", "A Song of Twilight", 11, "ccg", "CdC"),
    SetInfo("ASoN", "A Song of Night", 12, "ccg", "CdlN"),
    SetInfo("ITE", "Iron Throne Edition", 13, "ccg", "Royale"),
    SetInfo("AHoTh", "A House of Thorns", 14, "ccg", "MdE"),
    SetInfo("Legacy", "Iron Throne Edition Legacy Pack", 15, "ccg", "Héritage", ("ITE Legacy Pack",)),
    SetInfo("AHoTa", "A House of Talons", 16, "ccg", "PdlL"),
    SetInfo("5KE", "Five Kings Edition", 17, "ccg", "Anarchie"),
    SetInfo("ACoA", "A Clash of Arms", 18, "lcg", "FdA"),
    SetInfo("CS", "Core Set", 19, "lcg", "CS", ("Core",)),
    SetInfo("AToR", "A Time of Ravens", 20, "lcg", "TdC"),
    SetInfo("KL", "King's Landing", 21, "lcg", "PR"),
    SetInfo("KotSe", "Kings of the Sea", 22, "lcg", "RdlM"),
    SetInfo("PotS", "Princes of the Sun", 23, "lcg", "PdS"),
    SetInfo("DotN", "Defenders of the North", 24, "lcg", "DdN"),
    SetInfo("LoW", "Lords of Winter", 25, "lcg", "SdlH"),
    SetInfo("BWB", "Brotherhood Without Banners", 26, "lcg", "FsB"),
    SetInfo("KotSt", "Kings of the Storm", 27, "lcg", "RdlO"),
    SetInfo("SoO", "Secrets of Oldtown", 28, "lcg", "SdV"),
    SetInfo("QoD", "Queen of Dragons", 29, "lcg", "RdD"),
    SetInfo("ToC", "Tales of Champions", 30, "lcg", "GdC", ("A Tale of Champions",)),
    SetInfo("LotR", "Lions of the Rock", 31, "lcg", "LdR"),
    SetInfo("BtNS", "Beyond the Narrow Sea", 32, "lcg", "AddD"),
    SetInfo("ASotS", "A Song of the Sea", 33, "lcg", "CdlM"),
    SetInfo("KR", "Kingsroad", 34, "lcg", "RR"),
    SetInfo("CaD", "Conquest and Defiance", 35, "lcg", "CeD"),
)

ERAS: dict[str, str] = {
    "ccg": "Winter Edition to Five Kings Edition",
    "lcg": "Core Set to the last chapter packs (LCG)",
}
"""Era id -> what it covers, as messages say it."""

_BY_KEY: dict[str, SetInfo] = {}
for _s in SETS:
    for _k in (_s.code, _s.name, _s.fr_code, *_s.aliases):
        if _k:
            _BY_KEY.setdefault(_k.casefold(), _s)
_BY_ID = {s.set_id: s for s in SETS}
_CHAPTER = re.compile(r"^(?P<cycle>.+?)-(?P<n>\d+)$")


def find_set(code: str) -> SetInfo | None:
    """A set by English or French code or by name (any case); ``ACoA-3`` finds its cycle."""
    key = " ".join(str(code).split()).casefold()
    found = _BY_KEY.get(key)
    if found is None and (m := _CHAPTER.match(key)):
        found = _BY_KEY.get(m["cycle"])
    return found


def set_by_id(set_id: int) -> SetInfo | None:
    return _BY_ID.get(set_id)


def canonical_code(code: str) -> str | None:
    """The English code of a (possibly French) set code, keeping a chapter number: ``PR-6`` -> ``KL-6``."""
    info = find_set(code)
    if info is None:
        return None
    m = _CHAPTER.match(code.strip())
    if m and find_set(m["cycle"]) is info and _BY_KEY.get(code.strip().casefold()) is None:
        return f"{info.code}-{m['n']}"
    return info.code


def era_of_card_set(name: str) -> str | None:
    """The era of a set named as a card's ``set`` field (a name or a code); None if unknown."""
    info = find_set(name) if name else None
    return info.era if info else None


def printing_set(printing: str) -> SetInfo | None:
    """The set of a printing string such as ``"Winter R66"``."""
    return find_set(printing.rsplit(" ", 1)[0]) if " " in printing else None


_LCG_JSON_PREFIX = {"CS": "core", "ToC": "atoc"}
"""The LCG JSON's id prefix where it is not the set code in lower case (``kotse_4``, ``acoa_101``)."""


def lcg_json_key(printing: str) -> str | None:
    """The LCG JSON key of an LCG-era printing with a number (``"KotSe F4"`` -> ``kotse_4``,
    ``"CS S11"`` -> ``core_11``, ``"ToC-2 F33"`` -> ``atoc_33``: a chapter pack's number counts
    through its cycle); None for a CCG printing or one without a number."""
    info = printing_set(printing)
    m = re.fullmatch(r"[A-Za-z]*(\d+)", printing.rsplit(" ", 1)[-1])
    if info is None or info.era != "lcg" or m is None:
        return None
    return f"{_LCG_JSON_PREFIX.get(info.code, info.code.lower())}_{int(m[1])}"


def card_eras(card) -> set[str]:
    """Every era a card was printed in: from its printings, else from its ``set``."""
    eras = {info.era for p in card.printings if (info := printing_set(p)) is not None}
    if not eras and card.set:
        era = era_of_card_set(card.set)
        if era:
            eras.add(era)
    return eras


@dataclass(frozen=True)
class FixedDeck:
    """A deck sold as it is, identified in the card data by a set and a printing letter."""

    name: str
    set_code: str
    letter: str
    house: str


FIXED_DECKS: tuple[FixedDeck, ...] = (
    FixedDeck("Winter Greyjoy starter", "Winter", "G", "greyjoy"),
    FixedDeck("Winter Targaryen starter", "Winter", "T", "targaryen"),
    FixedDeck("Core Set Stark deck", "CS", "S", "stark"),
    FixedDeck("Core Set Lannister deck", "CS", "L", "lannister"),
    FixedDeck("Core Set Baratheon deck", "CS", "B", "baratheon"),
    FixedDeck("Core Set Targaryen deck", "CS", "T", "targaryen"),
)
"""The Winter Edition premium starter decks (Greyjoy G1–G55, Targaryen T1–T55) and the LCG
Core Set's four House decks. The data gives each card's number in the deck, not how many
copies the box holds: a fixed deck has one copy of each card."""
