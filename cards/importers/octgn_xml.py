"""Import an OCTGN first-edition set file (``set.xml``).

The file looks like::

    <set name="Some Set" id="...">
      <cards>
        <card name="Some Card" id="0000-...">
          <property name="Type" value="Character"/>
          <property name="House" value="Stark"/>
          ...
        </card>
      </cards>
    </set>

Properties read: ``House, Type, Traits, Text, Keywords, Unique, Cost, Strength,
Military, Intrigue, Power, Crest, GoldIncome, Influence, Initiative,
PlotGoldIncome, PlotInitiative, PlotClaim`` (and ``name`` when the card has no
``name`` attribute). A property's value is its ``value`` attribute or its text.
Values are read liberally: ``Yes``/``1``/``True``/``Military`` mark an icon,
``Stark/Lannister`` or ``Stark. Lannister.`` list Houses, ``Lord. Knight.`` lists
traits. ``key`` is the card's ``id``. Anything else is noted in the report.
Malformed XML raises ``DataError`` with its line.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from xml.parsers import expat

from cards.errors import DataError
from cards.files import MAX_DIGITS, no_doctype, read_bytes
from cards.importers import ImportReport, place_icons
from cards.importers.textparse import keep_unmodelled_keywords, parse_keyword_block
from cards.model import CRESTS, HOUSES, ICONS, TYPES, CardDef, CardPool
from cards.schema import NEUTRAL, card_from_mapping

KNOWN_PROPERTIES = (
    "name", "house", "type", "traits", "text", "keywords", "unique", "cost", "strength",
    "military", "intrigue", "power", "crest", "goldincome", "influence", "initiative",
    "plotgoldincome", "plotinitiative", "plotclaim",
)
KEYWORDS_NOT_UNDERSTOOD = "keywords not modelled (left in the text only)"
PROPERTIES_NOT_UNDERSTOOD = "properties not read"

_TRUE = {"yes", "y", "true", "1", "x", "unique", "naval"} | set(ICONS)
_FALSE = {"", "no", "n", "false", "0", "-", "none"}
_SPLIT = re.compile(r"[./,;&|]|\band\b")


class _Card:
    def __init__(self, attrs: dict[str, str], line: int):
        self.attrs = attrs
        self.line = line
        self.props: dict[str, tuple[str, int]] = {}


def _parse(text: str | bytes, file: str) -> tuple[str, list[_Card]]:
    """The set name and the cards of an OCTGN set XML (expat; line numbers kept)."""
    parser = expat.ParserCreate()
    no_doctype(parser, file, "an OCTGN set file")
    stack: list[str] = []
    cards: list[_Card] = []
    state: dict[str, Any] = {"set": "", "prop": None, "buf": [], "saw_set": False, "saw_cards": False}

    def start(tag: str, attrs: dict[str, str]) -> None:
        line = parser.CurrentLineNumber
        parent = stack[-1] if stack else None
        stack.append(tag)
        if parent is None:
            if tag != "set":
                raise DataError(f"not an OCTGN set file: the root element is <{tag}>", file=file,
                                line=line, hint="expected <set><cards><card ...>")
            state["saw_set"] = True
            state["set"] = attrs.get("name", "")
        elif tag == "cards" and parent == "set":
            state["saw_cards"] = True
        elif tag == "card" and parent == "cards":
            cards.append(_Card(dict(attrs), line))
        elif tag == "property" and parent == "card" and cards:
            name = attrs.get("name", "")
            state["prop"] = (name, attrs.get("value"), line)
            state["buf"] = []

    def end(tag: str) -> None:
        stack.pop()
        if tag == "property" and state["prop"] is not None:
            name, value, line = state["prop"]
            if value is None:
                value = "".join(state["buf"])
            key = name.strip().lower()
            if key and key not in cards[-1].props:
                cards[-1].props[key] = (value, line)
            state["prop"] = None

    def chars(data: str) -> None:
        if state["prop"] is not None:
            state["buf"].append(data)

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = chars
    try:
        parser.Parse(text, True)
    except expat.ExpatError as err:
        raise DataError(f"not well-formed XML: {expat.ErrorString(err.code)}", file=file,
                        line=err.lineno, hint="the file is damaged; export or download it again") from None
    except (LookupError, ValueError) as err:  # an unknown encoding declaration
        raise DataError(f"cannot read the XML: {err}", file=file, line=1,
                        hint="save the file as UTF-8") from None
    if not state["saw_cards"]:
        raise DataError("the set file has no <cards> element", file=file, line=1,
                        hint="expected <set><cards><card ...>")
    return state["set"], cards


def import_octgn_xml(path: str | Path) -> tuple[CardPool, ImportReport]:
    """Import an OCTGN set XML file: the pool and a report of what was not understood."""
    return octgn_pool_from_text(read_bytes(path, "the set file", kind="card data"), file=str(path))


def octgn_pool_from_text(text: str | bytes, *, file: str = "<xml>") -> tuple[CardPool, ImportReport]:
    """``import_octgn_xml`` for XML already in memory (bytes honour the XML encoding declaration)."""
    if isinstance(text, str):  # already decoded: drop an encoding declaration, keep the lines
        text = re.sub(r"^\ufeff?\s*<\?xml[^>]*\?>", lambda m: "\n" * m.group(0).count("\n"), text, count=1)
    set_name, cards = _parse(text, file)
    report = ImportReport(source=file)
    pool = CardPool()
    for index, raw in enumerate(cards):
        card = _card(raw, index, set_name, file, report)
        if card is None:
            continue
        if card.key in pool:
            report.note("duplicate card id (later card skipped)", _ref(raw, index))
            continue
        pool.add(card)
    report.imported = len(pool)
    return pool, report


def _ref(raw: _Card, index: int) -> str:
    name = raw.attrs.get("name") or raw.props.get("name", ("", 0))[0]
    return f"{name} (line {raw.line})" if name else f"card {index + 1} (line {raw.line})"


def _words(value: str) -> list[str]:
    return [w.strip() for w in _SPLIT.split(value or "") if w.strip()]


def _flag(value: str) -> bool | None:
    low = (value or "").strip().lower()
    if low in _FALSE:
        return False
    if low in _TRUE or any(word in _TRUE for word in re.findall(r"[a-z0-9]+", low)):
        return True
    return None


def _number(value: str) -> int | None | str:
    """An int, None when empty, or the original text when it is not a number."""
    s = (value or "").strip()
    if s in ("", "-"):
        return None
    if re.fullmatch(r"[+-]?\d{1,%d}" % MAX_DIGITS, s):
        return int(s)
    return s


def _card(raw: _Card, index: int, set_name: str, file: str, report: ImportReport) -> CardDef | None:
    ref = _ref(raw, index)
    props = raw.props

    def prop(name: str) -> str:
        return props.get(name, ("", 0))[0] or ""

    for name in props:
        if name not in KNOWN_PROPERTIES:
            report.tally(PROPERTIES_NOT_UNDERSTOOD, name, ref)

    name = (raw.attrs.get("name") or prop("name")).strip()
    if not name:
        report.note("card without a name (skipped)", ref)
        return None
    key = (raw.attrs.get("id") or "").strip() or name
    ctype = prop("type").strip().rstrip(".").lower()
    if ctype not in TYPES:
        report.note(f"unknown card type {prop('type')!r} (skipped)", ref)
        return None
    m: dict[str, Any] = {"name": name, "key": key, "type": ctype}
    if set_name:
        m["set"] = set_name

    houses = []
    for word in _words(prop("house")):
        low = word.lower()
        if low.startswith("house "):
            low = low[len("house "):]
        if low in HOUSES:
            houses.append(low)
        elif low != NEUTRAL:
            report.note(f"unknown House {word!r} (ignored)", ref)
    if ctype == "event" and houses:
        report.note("events listed with a House, imported neutral (ZON-09)", ref)
        houses = []
    if houses:
        m["house"] = list(dict.fromkeys(houses))

    unique = _flag(prop("unique"))
    if unique is None:
        report.note(f"Unique not understood: {prop('unique')!r} (not unique)", ref)
    elif unique:
        m["unique"] = True

    text = prop("text").replace("\r\n", "\n").strip()
    kept = keep_unmodelled_keywords(text, prop("keywords"))  # a Keywords property the text lacks
    if kept:
        m["text"] = kept
    keywords: list[str] = []
    block = parse_keyword_block(text)
    if prop("keywords").strip():
        kw_block = parse_keyword_block(prop("keywords").replace("\n", " "))
        kw_unknown = kw_block.unknown + kw_block.unknown_restrictions
        if len(kw_block.keywords) + len(kw_unknown) == 0:
            kw_unknown = [prop("keywords").strip().lower()]
        keywords.extend(kw_block.keywords)
        for word in kw_unknown:
            report.tally(KEYWORDS_NOT_UNDERSTOOD, word, ref)
        deck_houses = list(kw_block.deck_houses)
    else:
        deck_houses, kw_unknown = [], []
    keywords.extend(k for k in block.keywords if k not in keywords)
    for word in block.unknown:
        if word not in kw_unknown:  # once per card
            report.tally(KEYWORDS_NOT_UNDERSTOOD, word, ref)
    deck_houses.extend(h for h in block.deck_houses if h not in deck_houses)
    if keywords:
        m["keywords"] = keywords
    if deck_houses:
        m["house_only"] = deck_houses
    if block.limit is not None and block.limit >= 1 and block.limit != 3:
        m["deck_limit"] = block.limit

    cost = _number(prop("cost"))
    if isinstance(cost, str) and cost.upper() == "X":
        cost = "X"
    if cost is not None:
        if ctype in ("plot", "agenda", "house"):
            if cost != 0:
                report.note(f"a gold cost on a {ctype} (ignored)", ref)
        elif isinstance(cost, int) and cost < 0 or (isinstance(cost, str) and cost != "X"):
            report.note(f"Cost not understood: {prop('cost')!r} (left without a cost)", ref)
        else:
            m["cost"] = cost

    strength = _number(prop("strength"))
    if ctype == "character":
        if isinstance(strength, str) and strength.upper() == "X":
            strength = "X"  # kept as X, as costs are
        elif not isinstance(strength, int) or strength < 0:
            report.note(f"Strength not understood: {prop('strength')!r} (imported as 0)", ref)
            strength = 0
        m["strength"] = strength
    elif strength not in (None, 0):
        report.note(f"Strength on a {ctype} (ignored)", ref)

    icons, naval = [], []
    for icon in ICONS:
        value = prop(icon)
        flag = _flag(value)
        if flag is None:
            report.note(f"{icon.capitalize()} icon value not understood: {value!r} (no icon)", ref)
        elif flag:
            (naval if "naval" in value.lower() else icons).append(icon)
    place_icons(m, ctype, icons, naval, report, ref)

    crests = []
    for word in _words(prop("crest")):
        if word.lower() in CRESTS:
            crests.append(word.lower())
        else:
            report.note(f"crest not understood: {word!r}", ref)
    if crests:
        m["crest"] = list(dict.fromkeys(crests))

    traits = list(dict.fromkeys(w for w in _words(prop("traits"))))
    if traits:
        m["traits"] = traits

    plot = ctype == "plot"
    fields = (("income", "plotgoldincome" if plot else "goldincome"),
              ("initiative", "plotinitiative" if plot else "initiative"),
              ("influence", "influence"))
    for field, pname in fields:
        value = _number(prop(pname))
        if plot and value is None and field != "influence":
            value = _number(prop("goldincome" if field == "income" else "initiative"))
        if isinstance(value, str):
            report.note(f"{pname} not understood: {value!r} (imported as 0)", ref)
            continue
        if value is None:
            value = block.symbols.get(field)
        if field == "influence" and value is not None and value < 0:
            report.note(f"negative influence {value} (imported as 0)", ref)
            continue
        if value:
            m[field] = value
    claim = _number(prop("plotclaim"))
    if isinstance(claim, str) or (isinstance(claim, int) and claim < 0):
        report.note(f"PlotClaim not understood: {prop('plotclaim')!r} (imported as 0)", ref)
    elif claim:
        if plot:
            m["claim"] = claim
        else:
            report.note(f"PlotClaim on a {ctype} (ignored)", ref)

    try:
        return card_from_mapping(m, file=file, source=f"{file}:{raw.line}")
    except DataError as err:  # pragma: no cover - the mapping above is built to be valid
        report.note(f"not imported: {err.field or ''} {err.message}".strip(), ref)
        return None
