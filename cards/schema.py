"""The card-file schema: a YAML mapping becomes a ``CardDef``, strictly checked.

Field names follow the scenario format's "Cards" section
(../shared/spec/scenario-format.md); the project's extensions (``crest``, ``set``,
``house_only``, ``legality`` ...) are documented in docs/card-format.md. Every
problem raises ``DataError`` naming the file, the line and the field, with a hint:

>>> card_from_mapping({"name": "Sellsword", "type": "character", "cost": 2,
...                    "strength": 3, "icons": ["military"]}).icons
frozenset({'military'})
>>> card_from_mapping({"name": "Sellsword", "type": "character", "strenght": 3})
Traceback (most recent call last):
...
cards.errors.DataError: strenght: unknown field (did you mean 'strength'?)

A card file is ``{format: 1, set: <default set name>, cards: [...]}``
(``load_card_file``).
"""
from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any, Mapping

from cards.errors import DataError
from cards.model import CRESTS, HOUSES, ICONS, IMMUNITY_PREFIX, SIMPLE_KEYWORDS, TYPES, CardDef
from cards.yamlio import load_yaml_file, load_yaml_text

CORE_FIELDS = (
    "name", "key", "type", "house", "unique", "cost", "strength", "icons", "traits",
    "keywords", "doomed", "influence", "income", "initiative", "claim", "text", "abilities",
)
"""The fields every card file and scenario must understand (scenario format, "Cards")."""

EXTENSION_FIELDS = (
    "crest", "set", "number", "house_only", "deck_limit", "legality", "promo", "deck_rule",
    "naval_icons", "partial", "endless", "text_lang", "printings",
)
"""The project's additions (docs/card-format.md)."""

FIELDS = CORE_FIELDS + EXTENSION_FIELDS

NEUTRAL = "neutral"
LEGALITY_FORMATS = ("joust", "melee", "legacy")
LEGALITY_STATUSES = ("legal", "restricted", "banned")
DECK_RULES = ("max-2-copies",)
"""Deck-building rules a card can add (DCK-06: "no more than two copies of any card")."""

NO_COST_TYPES = ("plot", "agenda", "house", "title")
FILE_FORMAT = 1
FILE_KEYS = ("format", "set", "description", "cards")


class _Card:
    """One mapping being checked: its values, where they are, and how to complain."""

    def __init__(self, m: Mapping, file: str | None, defaults: Mapping | None):
        self.m = m
        self.file = file
        self.line = getattr(m, "line", None)
        self.defaults = defaults or {}

    def line_of(self, key: str) -> int | None:
        line_of = getattr(self.m, "line_of", None)
        return line_of(key) if line_of is not None and key in self.m else self.line

    def fail(self, key: str | None, message: str, hint: str | None = None) -> DataError:
        line = self.line_of(key) if key is not None else self.line
        return DataError(message, file=self.file, line=line, field=key, hint=hint)

    def has(self, key: str) -> bool:
        return key in self.m or key in self.defaults

    def get(self, key: str, default: Any = None) -> Any:
        if key in self.m:
            return self.m[key]
        return self.defaults.get(key, default)

    # --- typed readers -------------------------------------------------------------

    def text(self, key: str, *, required: bool = False, default: str = "") -> str:
        if not self.has(key):
            if required:
                raise self.fail(None, f"a card needs '{key}'", hint=f"add '{key}: ...' to this card")
            return default
        value = self.get(key)
        if not isinstance(value, str):
            raise self.fail(key, f"must be text, not {_kind(value)}",
                            hint="put the value in quotes")
        return value

    def integer(self, key: str, *, minimum: int | None = 0, default: int | None = 0) -> int | None:
        if not self.has(key):
            return default
        value = self.get(key)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(key, f"must be a whole number, not {_kind(value)}",
                            hint=f"write e.g. '{key}: 1'")
        if minimum is not None and value < minimum:
            raise self.fail(key, f"must be {minimum} or more, not {value}",
                            hint=f"write a number of at least {minimum}")
        return value

    def flag(self, key: str) -> bool:
        if not self.has(key):
            return False
        value = self.get(key)
        if not isinstance(value, bool):
            raise self.fail(key, f"must be true or false, not {_kind(value)}",
                            hint=f"write '{key}: true' or leave it out")
        return value

    def names(self, key: str, allowed: tuple[str, ...], what: str) -> tuple[str, ...]:
        """A list of names from ``allowed`` (any case), normalised to lower case, in order."""
        if not self.has(key):
            return ()
        value = self.get(key)
        if not isinstance(value, list):
            raise self.fail(key, f"must be a list of {what}s, not {_kind(value)}",
                            hint=f"write e.g. '{key}: [{allowed[0]}]'")
        result: list[str] = []
        for item in value:
            if not isinstance(item, str) or item.strip().lower() not in allowed:
                raise self.fail(key, f"unknown {what} {item!r}",
                                hint=f"use any of {', '.join(allowed)}")
            name = item.strip().lower()
            if name not in result:
                result.append(name)
        return tuple(result)

    def houses(self, key: str, *, allow_neutral_house_card: bool = False) -> tuple[str, ...]:
        """``house``-style values: a House name or a list of them; ``neutral`` alone is ()."""
        value = self.get(key)
        items = value if isinstance(value, list) else [value]
        allowed = HOUSES + (NEUTRAL,)
        result: list[str] = []
        for item in items:
            if not isinstance(item, str) or item.strip().lower() not in allowed:
                raise self.fail(key, f"unknown House {item!r}",
                                hint=f"use one of {', '.join(allowed)}, or a list of them")
            name = item.strip().lower()
            if name not in result:
                result.append(name)
        if not result:
            raise self.fail(key, "the list of Houses is empty", hint="write 'neutral' for a neutral card")
        if NEUTRAL in result and not allow_neutral_house_card:
            if len(result) > 1:
                raise self.fail(key, "a card cannot be neutral and of a House",
                                hint="list only Houses, or write 'neutral' alone")
            return ()
        return tuple(result)


def _kind(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"true/false ({value!r})"
    if isinstance(value, (int, float)):
        return f"a number ({value!r})"
    if isinstance(value, str):
        return f"text ({value!r})"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def normalise_keyword(word: str) -> str | None:
    """A keyword in the model's form (lower case, single spaces), or None if not a keyword."""
    norm = " ".join(word.replace(".", " ").split()).lower() if isinstance(word, str) else ""
    if norm in SIMPLE_KEYWORDS:
        return norm
    if norm.startswith(IMMUNITY_PREFIX) and len(norm) > len(IMMUNITY_PREFIX):
        return norm
    return None


def card_from_mapping(m: Mapping, *, file: str | None = None, defaults: Mapping | None = None,
                      source: str | None = None) -> CardDef:
    """Check one card mapping (a ``LineDict`` from YAML, or a plain dict) and build its CardDef.

    ``defaults`` supplies values for absent fields (a card file's ``set``). ``source``
    overrides the recorded origin (normally ``file:line``). Raises ``DataError``.
    """
    if not isinstance(m, Mapping):
        raise DataError(f"a card must be a mapping of fields, not {_kind(m)}", file=file,
                        line=getattr(m, "line", None), hint="start each card with '- name: ...'")
    c = _Card(m, file, defaults)
    for key in m:
        if key not in FIELDS:
            close = difflib.get_close_matches(str(key), FIELDS, n=1)
            hint = f"did you mean {close[0]!r}?" if close else f"known fields: {', '.join(FIELDS)}"
            raise DataError("unknown field", file=file, line=c.line_of(key), field=str(key), hint=hint)

    name = c.text("name", required=True).strip()
    if not name:
        raise c.fail("name", "the name is empty", hint="write the card's title")
    key = c.text("key", default=name).strip()
    if not key:
        raise c.fail("key", "the key is empty", hint="leave 'key' out to use the name")

    ctype = c.text("type", required=True).strip().lower()
    if ctype not in TYPES:
        raise c.fail("type", f"unknown card type {c.get('type')!r}", hint=f"use one of {', '.join(TYPES)}")

    def only_for(field: str, types: tuple[str, ...], why: str) -> None:
        if c.has(field) and ctype not in types:
            raise c.fail(field, f"a {ctype} cannot have '{field}'", hint=why)

    only_for("strength", ("character",), "only characters have STR")
    only_for("icons", ("character",), "only characters have challenge icons")
    only_for("naval_icons", ("character",), "only characters have challenge icons")
    only_for("claim", ("plot",), "only plots have a claim value")
    only_for("cost", tuple(t for t in TYPES if t not in NO_COST_TYPES),
             "plots, agendas and House cards have no gold cost")
    only_for("doomed", tuple(t for t in TYPES if t not in NO_COST_TYPES),
             "only characters, locations, attachments and events carry the Doomed icon")
    printings = _printings(c)

    house: tuple[str, ...] = ()
    if c.has("house"):
        house = c.houses("house")
        if ctype == "event" and house:
            raise c.fail("house", "events are always neutral (ZON-09)",
                         hint="remove 'house'; for a 'House X only' event write 'house_only: X'")

    cost: int | None = None
    cost_x = False
    if c.has("cost"):
        raw = c.get("cost")
        if isinstance(raw, str) and raw.strip().upper() == "X":
            cost, cost_x = 0, True
        elif isinstance(raw, bool) or not isinstance(raw, int):
            raise c.fail("cost", f"must be a whole number or X, not {_kind(raw)}",
                         hint="write e.g. 'cost: 2' or 'cost: X'")
        elif raw < 0:
            raise c.fail("cost", f"a gold cost cannot be negative ({raw})",
                         hint="write 0 or more, or X")
        else:
            cost = raw

    strength_x = c.has("strength") and isinstance(c.get("strength"), str) and c.get("strength").strip().upper() == "X"
    strength = 0 if strength_x else c.integer("strength", minimum=0, default=None)
    if ctype == "character" and strength is None:
        raise c.fail(None, "a character needs 'strength'", hint="add e.g. 'strength: 2'")

    naval = frozenset(c.names("naval_icons", ICONS, "icon"))
    icons = frozenset(c.names("icons", ICONS, "icon")) | naval

    traits = _traits(c)
    keywords = _keywords(c)
    crest = c.names("crest", CRESTS, "crest")
    text = c.text("text")
    abilities = _abilities(c)
    deck_houses, house_only = _house_only(c)
    legality = _legality(c)

    deck_rule = None
    if c.has("deck_rule"):
        deck_rule = c.text("deck_rule").strip().lower()
        if deck_rule not in DECK_RULES:
            raise c.fail("deck_rule", f"unknown deck rule {c.get('deck_rule')!r}",
                         hint=f"use one of {', '.join(DECK_RULES)}")

    if source is None:
        source = f"{file or '<cards>'}:{c.line}" if c.line is not None else (file or "")

    return CardDef(
        key=key, name=name, type=ctype, house=house, unique=c.flag("unique"),
        cost=cost, cost_x=cost_x, strength=strength, strength_x=strength_x, icons=icons, naval_icons=naval,
        traits=traits, keywords=keywords, doomed=c.flag("doomed"), endless=c.flag("endless"),
        influence=c.integer("influence", minimum=0),
        income=c.integer("income", minimum=None),
        initiative=c.integer("initiative", minimum=None),
        claim=c.integer("claim", minimum=0),
        crest=crest, text=text, text_lang=c.text("text_lang").strip().lower(), set=c.text("set").strip(),
        number=c.integer("number", minimum=0, default=None), printings=printings,
        house_only=house_only, deck_houses=deck_houses,
        deck_limit=c.integer("deck_limit", minimum=1, default=3),
        legality=legality, promo=c.flag("promo"), deck_rule=deck_rule,
        abilities=abilities, source=source, partial=c.text("partial").strip(),
    )


def _traits(c: _Card) -> tuple[str, ...]:
    if not c.has("traits"):
        return ()
    value = c.get("traits")
    if not isinstance(value, list):
        raise c.fail("traits", f"must be a list of traits, not {_kind(value)}",
                     hint="write e.g. 'traits: [Lord, Knight]'")
    result: list[str] = []
    for item in value:
        if not isinstance(item, str) or not item.strip().rstrip(".").strip():
            raise c.fail("traits", f"a trait must be a word, not {_kind(item)}",
                         hint="write e.g. 'traits: [Lord, Knight]'")
        trait = item.strip().rstrip(".").strip()
        if trait not in result:
            result.append(trait)
    return tuple(result)


def _printings(c: _Card) -> tuple[str, ...]:
    if not c.has("printings"):
        return ()
    value = c.get("printings")
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise c.fail("printings", "must be a list of printings such as 'Winter R66'",
                     hint="write e.g. 'printings: [Winter R66, KotSe F4]'")
    return tuple(dict.fromkeys(" ".join(v.split()) for v in value))


def _keywords(c: _Card) -> tuple[str, ...]:
    if not c.has("keywords"):
        return ()
    value = c.get("keywords")
    if not isinstance(value, list):
        raise c.fail("keywords", f"must be a list of keywords, not {_kind(value)}",
                     hint="write e.g. 'keywords: [deadly, immune to events]'")
    result: list[str] = []
    for item in value:
        word = normalise_keyword(item) if isinstance(item, str) else None
        if word is None:
            raise c.fail("keywords", f"unknown keyword {item!r}",
                         hint=f"use any of {', '.join(SIMPLE_KEYWORDS)}, or 'immune to <something>'")
        if word not in result:
            result.append(word)
    return tuple(result)


def _abilities(c: _Card) -> tuple[Any, ...]:
    if not c.has("abilities"):
        return ()
    value = c.get("abilities")
    if not isinstance(value, list):
        raise c.fail("abilities", f"must be a list of abilities, not {_kind(value)}",
                     hint="write each ability as a '- ' item (docs/abilities.md)")
    for item in value:
        if not isinstance(item, Mapping):
            raise c.fail("abilities", f"each ability must be a mapping, not {_kind(item)}",
                         hint="docs/abilities.md describes the ability format")
    return tuple(value)


def _house_only(c: _Card) -> tuple[tuple[str, ...], str | None]:
    if not c.has("house_only"):
        return (), None
    houses = c.houses("house_only", allow_neutral_house_card=True)
    return houses, (houses[0] if len(houses) == 1 and houses[0] != NEUTRAL else None)


def _legality(c: _Card) -> tuple[tuple[str, str], ...]:
    if not c.has("legality"):
        return ()
    value = c.get("legality")
    if not isinstance(value, Mapping):
        raise c.fail("legality", f"must be a mapping of format to status, not {_kind(value)}",
                     hint="write e.g. 'legality: {joust: banned}'")
    found: dict[str, str] = {}
    for fmt, status in value.items():
        f = fmt.strip().lower() if isinstance(fmt, str) else fmt
        s = status.strip().lower() if isinstance(status, str) else status
        if f not in LEGALITY_FORMATS:
            raise c.fail("legality", f"unknown format {fmt!r}", hint=f"use {', '.join(LEGALITY_FORMATS)}")
        if s not in LEGALITY_STATUSES:
            raise c.fail("legality", f"unknown status {status!r} for {f}",
                         hint=f"use {', '.join(LEGALITY_STATUSES)}")
        found[f] = s
    return tuple((f, found[f]) for f in LEGALITY_FORMATS if f in found)


def card_to_mapping(card: CardDef) -> dict[str, Any]:
    """The card-file mapping of a CardDef (default values left out); ``card_from_mapping`` inverts it.

    ``source`` is not a card-file field and is not included.
    """
    m: dict[str, Any] = {"name": card.name, "type": card.type}
    if card.key != card.name:
        m["key"] = card.key
    if card.house:
        m["house"] = list(card.house)
    if card.unique:
        m["unique"] = True
    if card.cost_x:
        m["cost"] = "X"
    elif card.cost is not None:
        m["cost"] = card.cost
    if card.strength_x:
        m["strength"] = "X"
    elif card.strength is not None:
        m["strength"] = card.strength
    plain_icons = sorted(card.icons - card.naval_icons)
    if plain_icons:
        m["icons"] = plain_icons
    if card.naval_icons:
        m["naval_icons"] = sorted(card.naval_icons)
    for field in ("traits", "keywords", "crest"):
        if getattr(card, field):
            m[field] = list(getattr(card, field))
    if card.doomed:
        m["doomed"] = True
    if card.endless:
        m["endless"] = True
    for field in ("influence", "income", "initiative", "claim"):
        if getattr(card, field):
            m[field] = getattr(card, field)
    if card.text:
        m["text"] = card.text
    if card.text_lang:
        m["text_lang"] = card.text_lang
    if card.set:
        m["set"] = card.set
    if card.number is not None:
        m["number"] = card.number
    if card.printings:
        m["printings"] = list(card.printings)
    houses = card.deck_houses or ((card.house_only,) if card.house_only else ())
    if houses:
        m["house_only"] = list(houses)
    if card.deck_limit != 3:
        m["deck_limit"] = card.deck_limit
    if card.legality:
        m["legality"] = dict(card.legality)
    if card.promo:
        m["promo"] = True
    if card.deck_rule:
        m["deck_rule"] = card.deck_rule
    if card.abilities:
        m["abilities"] = [dict(a) if isinstance(a, Mapping) else a for a in card.abilities]
    if card.partial:
        m["partial"] = card.partial
    return m


def cards_from_document(data: Any, file: str) -> list[CardDef]:
    """The cards of a parsed card file (``{format: 1, set: ..., cards: [...]}``)."""
    hint = "a card file is a mapping: 'format: 1', then 'cards:' with a list of cards"
    if data is None:
        raise DataError("the file is empty", file=file, line=1, hint=hint)
    if not isinstance(data, Mapping):
        raise DataError(f"a card file must be a mapping, not {_kind(data)}", file=file,
                        line=getattr(data, "line", 1), hint=hint)
    line_of = getattr(data, "line_of", lambda key: None)
    for key in data:
        if key not in FILE_KEYS:
            close = difflib.get_close_matches(str(key), FILE_KEYS, n=1)
            raise DataError("unknown top-level key", file=file, line=line_of(key), field=str(key),
                            hint=f"did you mean {close[0]!r}?" if close else
                            f"a card file has only {', '.join(FILE_KEYS)}")
    if "format" not in data:
        raise DataError("the card file has no 'format'", file=file, line=getattr(data, "line", 1),
                        field="format", hint="add 'format: 1' as the first line")
    if data["format"] != FILE_FORMAT or isinstance(data["format"], bool):
        raise DataError(f"unsupported card-file format {data['format']!r}", file=file,
                        line=line_of("format"), field="format", hint="this version reads 'format: 1'")
    default_set = data.get("set")
    if default_set is not None and not isinstance(default_set, str):
        raise DataError(f"must be text, not {_kind(default_set)}", file=file, line=line_of("set"),
                        field="set", hint="put the set name in quotes")
    if "description" in data and not isinstance(data["description"], str):
        raise DataError("must be text", file=file, line=line_of("description"), field="description",
                        hint="put the description in quotes")
    if "cards" not in data:
        raise DataError("the card file has no 'cards' list", file=file,
                        line=getattr(data, "line", 1), field="cards", hint=hint)
    items = data["cards"]
    if items is None:
        items = []
    if not isinstance(items, list):
        raise DataError(f"must be a list of cards, not {_kind(items)}", file=file,
                        line=line_of("cards"), field="cards", hint="write each card as a '- name: ...' item")
    defaults = {"set": default_set} if default_set else None
    cards: list[CardDef] = []
    seen: dict[str, CardDef] = {}
    item_lines = getattr(items, "item_lines", None)
    for index, item in enumerate(items):
        if not isinstance(item, Mapping):
            line = item_lines[index] if item_lines else line_of("cards")
            raise DataError(f"card {index + 1} must be a mapping of fields, not {_kind(item)}",
                            file=file, line=line, field="cards",
                            hint="start each card with '- name: ...' and indent its fields")
        card = card_from_mapping(item, file=file, defaults=defaults)
        if card.key in seen:
            first = seen[card.key]
            field = "key" if "key" in item else "name"
            raise DataError(f"two cards have the key {card.key!r} (the first is at {first.source})",
                            file=file, line=getattr(item, "line_of", lambda k: None)(field) or getattr(item, "line", None),
                            field=field, hint="give one of them a different 'key:'")
        seen[card.key] = card
        cards.append(card)
    return cards


def load_card_file(path: str | Path) -> list[CardDef]:
    """Read a card file (YAML, UTF-8). Any problem raises ``DataError`` naming file:line: field."""
    return cards_from_document(load_yaml_file(path), str(path))


def load_card_text(text: str, file: str = "<text>") -> list[CardDef]:
    """``load_card_file`` for YAML already in memory."""
    return cards_from_document(load_yaml_text(text, file), file)
