"""The project's ability data for imported cards (``cards/abilities/*.yaml``).

Community card data has rules text but no abilities the engine can run. This
module adds them from our own data files, keyed by the card's id in the
community data (the LCG JSON ``id``, which the importer makes the card's key)::

    format: 1
    cards:
      core_71: {abilities: [...]}     # the format of docs/abilities.md
      core_8:
        abilities: [...]
        partial: "what the abilities do not play, in our own words"

An entry whose abilities do not play all of the card's text says so in ``partial``
(a note, or ``{note: ..., paragraphs: [N, ...]}``), and ``cards.report`` counts the
card as partial, not automated. The files hold no rules text. ``apply_ability_data(pool)`` puts the abilities on
the cards of ``pool``:

- a card imported from the LCG JSON (its ``source`` is ``FILE.json#id``) gets
  exactly the abilities the data gives for its key, or none: the JSON has no
  abilities of its own, so a newer data file also corrects an older cached import;
- any other card gets the data's abilities only when it has none of its own
  (abilities written in a card file always win);
- a card with no entry of its own (an AGoTDB CCG card, ``agotdb_<UniversalId>``) whose
  ``printings`` name an LCG printing (``KotSe F4``) is that LCG card: it shares the entry (and
  partial note) of the LCG key the printing names (``kotse_4``, ``cards.sets.lcg_json_key``),
  the first of its LCG printings that has one. Never by name: same-name CCG and LCG cards are
  almost always different cards. An ``agotdb_`` entry of its own wins.

It is called by ``cards.pool`` when a pool is imported or loaded from the LCG
JSON and when the cached import is read. The abilities are checked by
``engine.abilities.parse_abilities`` in the tests and in ``engine.automation``, not
here: ``cards`` does not import ``engine``.
"""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

from cards.errors import DataError
from cards.model import CardDef, CardPool
from cards.sets import lcg_json_key
from cards.yamlio import load_yaml_file

ABILITY_DIR = Path(__file__).resolve().parent / "abilities"
FORMAT = 1
ENTRY_KEYS = {"abilities", "partial"}
_JSON_SOURCE = re.compile(r"\.json#", re.I)

_cache: tuple[tuple, dict[str, tuple]] | None = None


def _line(mapping: Any, key: Any) -> int | None:
    return mapping.line_of(key) if hasattr(mapping, "line_of") else None


def _partial(value: Any, key: str, file: str, line: int | None) -> tuple[str, tuple[int, ...]]:
    """``partial: "what is not played"`` or ``partial: {note: "...", paragraphs: [N, ...]}``."""
    if isinstance(value, str) and value.strip():
        return value.strip(), ()
    if isinstance(value, dict) and set(value) <= {"note", "paragraphs"} and isinstance(value.get("note"), str) \
            and value["note"].strip() and isinstance(value.get("paragraphs", []), list) \
            and all(isinstance(n, int) and not isinstance(n, bool) and n >= 1 for n in value.get("paragraphs", [])):
        return value["note"].strip(), tuple(value.get("paragraphs", []))
    raise DataError(f"{key}: partial must say what the abilities do not play", file=file, line=line,
                    field=f"cards.{key}.partial",
                    hint='write partial: "our own words" or partial: {note: "...", paragraphs: [2]}')


def read_ability_file(path: str | Path, partial: dict | None = None) -> dict[str, tuple]:
    """One data file: ``{card id: abilities}``. Anything malformed raises ``DataError``. Each entry's
    ``partial`` note (what the abilities do not play) goes into ``partial`` when it is given."""
    path = Path(path)
    file = str(path)
    data = load_yaml_file(path)
    if not isinstance(data, dict):
        raise DataError("ability data must be a mapping with 'format' and 'cards'", file=file, line=1)
    unknown = set(data) - {"format", "cards"}
    if unknown:
        key = sorted(unknown, key=str)[0]
        raise DataError(f"unknown key {key!r}", file=file, line=_line(data, key),
                        hint="an ability data file has only 'format: 1' and 'cards:'")
    if data.get("format") != FORMAT:
        raise DataError(f"format must be {FORMAT}, not {data.get('format')!r}", file=file,
                        line=_line(data, "format"), field="format")
    cards = data.get("cards")
    if cards is None:
        return {}
    if not isinstance(cards, dict):
        raise DataError("'cards' must map card ids to {abilities: [...]}", file=file, line=_line(data, "cards"),
                        field="cards")
    out: dict[str, tuple] = {}
    for key, entry in cards.items():
        line = _line(cards, key)
        if not isinstance(key, str) or not key.strip():
            raise DataError(f"a card id must be text, not {key!r}", file=file, line=line, field="cards")
        if not isinstance(entry, dict) or "abilities" not in entry:
            raise DataError(f"{key}: expected {{abilities: [...]}}", file=file, line=line, field=f"cards.{key}")
        extra = set(entry) - ENTRY_KEYS
        if extra:
            raise DataError(f"{key}: unknown key {sorted(extra, key=str)[0]!r}", file=file, line=line,
                            field=f"cards.{key}", hint="an entry has only 'abilities' and 'partial' (no card "
                                                       "text here)")
        if "partial" in entry:
            note = _partial(entry["partial"], key, file, _line(entry, "partial"))
            if partial is not None:
                partial[key] = note
        abilities = entry["abilities"]
        if not isinstance(abilities, list) or not all(isinstance(a, dict) for a in abilities):
            raise DataError(f"{key}: abilities must be a list of mappings (docs/abilities.md)", file=file,
                            line=_line(entry, "abilities"), field=f"cards.{key}.abilities")
        out[key] = tuple(abilities)  # LineDicts: the parser's errors name the file and line
    return out


def _files(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted([*folder.glob("*.yaml"), *folder.glob("*.yml")])


def load_ability_data(folder: str | Path | None = None) -> dict[str, tuple]:
    """Every data file of ``folder`` (default ``cards/abilities``) merged; an id given twice is
    an error. Cached in-process until a file changes."""
    global _cache
    folder = Path(folder) if folder is not None else ABILITY_DIR
    files = _files(folder)
    signature = tuple((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in files)
    if _cache is not None and _cache[0] == (str(folder),) + signature:
        return _cache[1]
    merged: dict[str, tuple] = {}
    where: dict[str, str] = {}
    notes: dict[str, tuple[str, tuple[int, ...]]] = {}
    for path in files:
        for key, abilities in read_ability_file(path, notes).items():
            if key in merged:
                raise DataError(f"card id {key!r} is given abilities twice (also in {where[key]})",
                                file=str(path), field=f"cards.{key}", hint="keep one entry per card")
            merged[key] = abilities
            where[key] = path.name
    _cache = ((str(folder),) + signature, merged)
    _notes[str(folder)] = notes
    return merged


_notes: dict[str, dict[str, tuple[str, tuple[int, ...]]]] = {}


def load_partial_notes(folder: str | Path | None = None) -> dict[str, tuple[str, tuple[int, ...]]]:
    """``{card id: (what the abilities do not play, paragraphs)}`` for the entries marked ``partial``."""
    folder = Path(folder) if folder is not None else ABILITY_DIR
    load_ability_data(folder)
    return _notes.get(str(folder), {})


def is_lcg_json_card(card: CardDef) -> bool:
    """True for a card the LCG JSON importer made (its ``source`` is ``FILE.json#id``)."""
    return bool(_JSON_SOURCE.search(card.source or ""))


def _replace(pool: CardPool, old: CardDef, new: CardDef) -> None:
    """Swap a definition in place, keeping the pool's order (by key and by title)."""
    pool.cards[old.key] = new
    same_title = pool._by_name.get(old.name.casefold(), [])
    for i, card in enumerate(same_title):
        if card is old:
            same_title[i] = new


def data_key(card: CardDef, data: dict[str, tuple]) -> str | None:
    """The key of ``card``'s entry in ``data``: its own key, else the first LCG printing's key
    that has an entry (see the module doc); None when it has none."""
    if card.key in data:
        return card.key
    if is_lcg_json_card(card):
        return None
    for printing in card.printings:
        key = lcg_json_key(printing)
        if key in data:
            return key
    return None


def apply_ability_data(pool: CardPool, data: dict[str, tuple] | None = None,
                       partial: dict[str, tuple[str, tuple[int, ...]]] | None = None) -> int:
    """Put the project's abilities on the cards of ``pool`` (see the module doc); returns how many
    cards have abilities from the data afterwards."""
    if data is None:
        data = load_ability_data()
        notes = load_partial_notes()
    else:
        notes = partial or {}
    given = 0
    for card in list(pool):
        key = data_key(card, data)
        abilities = data.get(key) if key else None
        note, paragraphs = notes.get(key, ("", ())) if key else ("", ())
        if is_lcg_json_card(card):
            wanted = abilities or ()
            if tuple(card.abilities) != wanted or (card.partial, card.partial_paragraphs) != (note, paragraphs):
                _replace(pool, card, dataclasses.replace(card, abilities=wanted, partial=note,
                                                         partial_paragraphs=paragraphs))
            given += bool(wanted)
        elif abilities and not card.abilities:
            _replace(pool, card, dataclasses.replace(card, abilities=abilities, partial=note,
                                                     partial_paragraphs=paragraphs))
            given += 1
    return given
