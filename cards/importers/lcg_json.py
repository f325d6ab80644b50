"""Import the community first-edition LCG card data (a JSON list of card records).

Each record has ``id, name, card_type, set, number, quantity, limit,
legality_joust, legality_melee, house (list), legal_in_houses, unique, rules_text,
erratas, cost, icons, crest, traits, strength, income, initiative, claim,
influence``. The mapping to ``CardDef`` is documented in docs/card-format.md:

- ``key`` is the record's ``id`` (``core_1``); ``source`` is ``FILE#id``.
- Keywords come from the top of ``rules_text`` (``textparse``); keywords the
  engine does not model (Ambush, Prized N, ...) are reported, not kept.
- "House X only" in the text gives ``deck_houses``/``house_only``; when the text
  and ``legal_in_houses`` disagree, the text wins and the report says so.
- Events are imported neutral whatever ``house`` says (ZON-09).
- The data has no Doomed icon and no promotional mark: every card is imported
  with ``doomed=False`` and ``promo=False``.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterable

from cards.errors import DataError
from cards.files import read_json_file as _read_json
from cards.importers import ImportReport, place_icons
from cards.importers.textparse import parse_keyword_block
from cards.model import CRESTS, HOUSES, ICONS, TYPES, CardDef, CardPool
from cards.schema import LEGALITY_STATUSES, NEUTRAL, card_from_mapping

KEYWORDS_NOT_UNDERSTOOD = "keywords not modelled (left in the text only)"
RESTRICTIONS_NOT_UNDERSTOOD = "deck restrictions not understood"
EVENT_HOUSE_DROPPED = "events listed with a House, imported neutral (ZON-09)"
_ICON = re.compile(r"^\s*([A-Za-z]+)\s*(?:\(\s*(naval)\s*\))?\s*$", re.I)
_ALL_DECKS = frozenset(HOUSES + (NEUTRAL,))


def read_json_file(path: str | Path) -> Any:
    """Parse a JSON file; unreadable, non-UTF-8 or malformed files raise ``DataError``."""
    return _read_json(path, kind="card data", what="the card data",
                      hint="the file is damaged or not card data; download it again")


def import_lcg_json(path: str | Path) -> tuple[CardPool, ImportReport]:
    """Import the LCG JSON at ``path``: the pool and a report of what was not understood."""
    data = read_json_file(path)
    if isinstance(data, dict) and isinstance(data.get("cards"), list):
        data = data["cards"]
    if not isinstance(data, list):
        raise DataError("not LCG card data: expected a list of card records", file=str(path), line=1,
                        hint="use the first-edition LCG card JSON (a list of objects with id, name, card_type)")
    return lcg_pool_from_records(data, file=str(path))


def lcg_pool_from_records(records: Iterable[Any], *, file: str = "<json>") -> tuple[CardPool, ImportReport]:
    """Build a pool from already-parsed records (see ``import_lcg_json``)."""
    report = ImportReport(source=file)
    pool = CardPool()
    for index, record in enumerate(records):
        card = _card(record, index, file, report)
        if card is None:
            continue
        if card.key in pool:
            report.note("duplicate id (later record skipped)", _ref(record, index))
            continue
        pool.add(card)
    report.imported = len(pool)
    if pool and not any(card.doomed for card in pool):
        report.note("the data records no Doomed icons: no card is imported as Doomed")
    return pool, report


def _ref(record: Any, index: int) -> str:
    if isinstance(record, dict):
        name, key = record.get("name"), record.get("id")
        if name and key:
            return f"{name} [{key}]"
        if name or key:
            return str(name or key)
    return f"record {index + 1}"


def _int(value: Any) -> int | None:
    """An integer field value, or None (absent, null or not a number)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and re.fullmatch(r"\s*-?\d{1,100}\s*", value):
        return int(value)
    return None


def _items(rec: dict, field: str, ref: str, report: ImportReport) -> list:
    """A list field's items (a lone text is a list of one); any other value is noted and ignored."""
    value = rec.get(field)
    if value is None:
        return []
    if isinstance(value, str):
        return [value] if value.strip() else []
    if isinstance(value, list):
        plain = [v for v in value if isinstance(v, (str, int, float)) and not isinstance(v, bool)]
        if len(plain) != len(value):
            report.note(f"{field}: items that are not text (ignored)", ref)
        return plain
    report.note(f"{field} is not a list: {value!r} (ignored)"[:200], ref)
    return []


def _card(rec: Any, index: int, file: str, report: ImportReport) -> CardDef | None:
    ref = _ref(rec, index)
    if not isinstance(rec, dict):
        report.note("record is not an object (skipped)", ref)
        return None
    key = rec.get("id")
    if isinstance(key, int) and not isinstance(key, bool):
        key = str(key)
    name = rec.get("name")
    if not isinstance(key, str) or not key.strip():
        report.note("record without an id (skipped)", ref)
        return None
    if not isinstance(name, str) or not name.strip():
        report.note("record without a name (skipped)", ref)
        return None
    ctype = str(rec.get("card_type") or "").strip().lower()
    if ctype not in TYPES:
        report.note(f"unknown card type {rec.get('card_type')!r} (skipped)", ref)
        return None

    m: dict[str, Any] = {"name": name.strip(), "key": key.strip(), "type": ctype}

    houses = []
    for h in _items(rec, "house", ref, report):
        low = str(h).strip().lower()
        if low in HOUSES:
            houses.append(low)
        elif low != NEUTRAL:
            report.note(f"unknown House {h!r} (ignored)", ref)
    if ctype == "event" and houses:
        report.note(EVENT_HOUSE_DROPPED, ref)
        houses = []
    if houses:
        m["house"] = houses

    if rec.get("unique") is True:
        m["unique"] = True

    text = rec.get("rules_text")
    text = text if isinstance(text, str) else ""
    if text:
        m["text"] = text
    block = parse_keyword_block(text)
    if block.keywords:
        m["keywords"] = block.keywords
    for word in block.unknown:
        report.tally(KEYWORDS_NOT_UNDERSTOOD, word, ref)
    for words in block.unknown_restrictions:
        report.tally(RESTRICTIONS_NOT_UNDERSTOOD, words, ref)

    deck_houses = list(block.deck_houses)
    if ctype != "house":
        legal_in = rec.get("legal_in_houses")
        if isinstance(legal_in, list):
            data_houses = {str(h).strip().lower() for h in legal_in if isinstance(h, str)}
            restricted = data_houses != _ALL_DECKS
            if deck_houses and set(deck_houses) != data_houses:
                report.note("text and legal_in_houses disagree on the deck restriction (text used)", ref)
            elif not deck_houses and restricted and data_houses <= _ALL_DECKS and data_houses:
                report.note("deck restriction taken from legal_in_houses (not found in the text)", ref)
                deck_houses = [h for h in HOUSES + (NEUTRAL,) if h in data_houses]
    if deck_houses:
        m["house_only"] = deck_houses

    cost_raw = rec.get("cost")
    if cost_raw is not None:
        cost = _int(cost_raw)
        if isinstance(cost_raw, str) and cost_raw.strip().upper() == "X":
            cost = "X"
        if ctype in ("plot", "agenda", "house"):
            report.note(f"a gold cost on a {ctype} (ignored)", ref)
        elif cost is None or (isinstance(cost, int) and cost < 0):
            report.note(f"cost not understood: {cost_raw!r} (left without a cost)", ref)
        else:
            m["cost"] = cost
    elif ctype in ("character", "location", "attachment"):
        report.note("no printed cost (imported without one)", ref)

    strength = _int(rec.get("strength"))
    if ctype == "character":
        if str(rec.get("strength")).strip().upper() == "X":
            strength = "X"  # kept as X, as costs are
        elif strength is None or strength < 0:
            report.note(f"character STR not understood: {rec.get('strength')!r} (imported as 0)", ref)
            strength = 0
        m["strength"] = strength
    elif rec.get("strength") is not None:
        report.note(f"STR on a {ctype} (ignored)", ref)

    icons, naval = [], []
    for icon in _items(rec, "icons", ref, report):
        found = _ICON.match(str(icon))
        word = found.group(1).lower() if found else ""
        if word not in ICONS:
            report.note(f"icon not understood: {icon!r}", ref)
            continue
        (naval if found.group(2) else icons).append(word)
    place_icons(m, ctype, icons, naval, report, ref)

    crests = []
    for crest in _items(rec, "crest", ref, report):
        low = str(crest).strip().lower()
        if low in CRESTS:
            crests.append(low)
        else:
            report.note(f"crest not understood: {crest!r}", ref)
    if crests:
        m["crest"] = crests

    traits = []
    for trait in _items(rec, "traits", ref, report):
        for part in str(trait).split(","):
            part = part.strip().rstrip(".").strip()
            if part and part not in traits:
                traits.append(part)
    if traits:
        m["traits"] = traits

    for field, symbol in (("income", "income"), ("initiative", "initiative"), ("influence", "influence")):
        value = _int(rec.get(field))
        if value is None and rec.get(field) is not None:
            report.note(f"{field} not understood: {rec.get(field)!r} (imported as 0)", ref)
        if value is None:
            value = block.symbols.get(symbol)
        if field == "influence" and value is not None and value < 0:
            report.note(f"negative influence {value} (imported as 0)", ref)
            value = None
        if value:
            m[field] = value
    claim = _int(rec.get("claim"))
    if ctype == "plot":
        if claim is not None and claim > 0:
            m["claim"] = claim
    elif claim:
        report.note(f"claim on a {ctype} (ignored)", ref)

    if isinstance(rec.get("set"), str) and rec["set"].strip():
        m["set"] = rec["set"].strip()
    number = _int(rec.get("number"))
    if number is not None and number >= 0:
        m["number"] = number

    limit = _int(rec.get("limit"))
    if limit is None and block.limit is not None:
        limit = block.limit
    if limit is not None:
        if limit >= 1:
            if limit != 3:
                m["deck_limit"] = limit
        else:
            report.note(f"deck limit not understood: {rec.get('limit')!r} (3 used)", ref)

    legality = {}
    for fmt in ("joust", "melee"):
        status = rec.get(f"legality_{fmt}")
        if status is None:
            continue
        low = str(status).strip().lower()
        if low in LEGALITY_STATUSES:
            if low != "legal":
                legality[fmt] = low
        else:
            report.note(f"{fmt} legality not understood: {status!r} (legal assumed)", ref)
    if legality:
        m["legality"] = legality

    try:
        return card_from_mapping(m, file=file, source=f"{file}#{key.strip()}")
    except DataError as err:  # pragma: no cover - the mapping above is built to be valid
        report.note(f"not imported: {err.field or ''} {err.message}".strip(), ref)
        return None
