"""Import the AGoTDB card searcher's Access databases (``AGoT - FR.mdb``, ``AGoT - EN.mdb``,
``AGoT.mdb``, ``AGoTEx.mdb``).

The card table (``AGoT-db``, or the first table with the columns below) is read with the
``access-parser`` package; columns are found **by name**, so the 30-, 34- and 72-column
layouts all read, and optional columns may be missing. Required: ``UniversalId``,
``Type``, ``Set`` and a name (``OriginalName``, else ``Name``).

- ``key`` is ``agotdb_<UniversalId>`` (SetId × 10000 + number, stable across versions);
  ``source`` is ``FILE#UniversalId``.
- ``name`` is the English title, ``OriginalName``.
- ``Set`` (``Winter(R66, G1) / KotSe(F4)``, French codes in the French file) gives
  ``printings`` (``Winter R66``, ``Winter G1``, ``KotSe F4``: English codes, ``cards.sets``),
  and ``set``/``number`` from the first printing; a card printed only as promos
  (letter ``P``) is ``promo``.
- By default only the **CCG era** is kept (Winter Edition to Five Kings Edition, promos
  included): a record with no printing in those sets is counted and skipped.
  ``era=None`` keeps everything.
- French keywords are translated by a fixed table (``_KEYWORDS_FR``), French traits by the
  project's trait table (``TRAITS_FR``); what neither table knows is reported. The ``Keywords``
  column is apart from the text: the keywords the engine does not model (Stalwart, Ambush,
  "No attachments except Boon" …) become the first line of ``text``, in English, so that the
  card keeps and shows them and ``cards.report`` counts it as played by hand for them.
- The rules text stays in its language: a French file's text is kept with
  ``text_lang: fr``, unless English rows (the English file) have the same
  ``UniversalId`` — never matched by name.
- Titles (``Titre``/``Title``, the six Five Kings Edition titles) are imported as type ``title``
  (neutral; their income or influence kept; their text played by hand: the rules documents
  define no title rules). No deck holds them: the table places and passes them.

``access-parser`` follows a table definition's chain of pages and a long memo's chain of records
with no check for a loop: a damaged file that names a page already read would hang the import
forever. ``_bounded_reading`` replaces those two readers while we read with ones that stop at a
page or record already visited, at a memo longer than the file, and after ``READ_SECONDS``, and
the import is refused with one line (tests: ``tests/cards/mdb_writer.py`` writes such files).

``access-parser`` 0.0.6 mis-decodes text that Access stored with "Unicode compression"
when it contains a character outside Latin-1 (``œ``, ``’``, ``…``); ``decode_access_text``
decodes such text as mdbtools does and replaces the package's decoder while we read.
"""
from __future__ import annotations

import contextlib
import re
import struct
import time
from pathlib import Path
from typing import Any, Iterable, Mapping

from cards.errors import DataError
from cards.importers import ImportReport, place_icons
from cards.importers.textparse import keep_unmodelled_keywords, parse_keyword_block
from cards.model import HOUSES, CardDef, CardPool
from cards.schema import card_from_mapping
from cards.sets import ERAS, canonical_code, find_set

KEYWORDS_NOT_UNDERSTOOD = "keywords not modelled (left in the text only)"
KEYWORDS_NOT_TRANSLATED = "French keywords not translated (left out)"
TRAITS_NOT_TRANSLATED = "French traits not translated (left out)"
TYPES_NOT_MODELLED = "card types the engine does not model (skipped)"
RESTRICTIONS_NOT_UNDERSTOOD = "deck restrictions not understood"
EVENT_HOUSE_DROPPED = "events listed with a House, imported neutral (ZON-09)"
TABLE = "AGoT-db"
REQUIRED = ("UniversalId", "Type", "Set")
READ_SECONDS = 120.0
"""The most time reading one ``.mdb`` may take (the real 2.6 MB file takes 3 to 9 s)."""
DAMAGED_HINT = ("the file is damaged: use a good copy of the .mdb from the AGoTDB card searcher "
                "(or the LCG .json instead)")

# --------------------------------------------------------------------------- reading the file


def decode_access_text(raw: bytes) -> str:
    """A Jet 4 text value: UTF-16LE, or "Unicode compressed" (mdbtools' reading).

    Compressed text starts ``FF FE``; then each byte is one character (U+0000–U+00FF)
    until a ``00`` byte switches to plain UTF-16LE pairs, and the next ``00`` byte (at
    a pair boundary) switches back. An odd byte left at the end is dropped.
    """
    raw = bytes(raw)
    if len(raw) >= 2 and raw[0] == 0xFF and raw[1] == 0xFE:
        out: list[str] = []
        compressed = True
        i, n = 2, len(raw)
        while i < n:
            b = raw[i]
            if b == 0:
                compressed = not compressed
                i += 1
            elif compressed:
                out.append(chr(b))
                i += 1
            elif i + 1 < n:
                out.append(raw[i:i + 2].decode("utf-16-le", errors="replace"))
                i += 2
            else:
                break
        return "".join(out)
    return raw[: len(raw) - len(raw) % 2].decode("utf-16-le", errors="replace").replace("\x00", "")


@contextlib.contextmanager
def _fixed_text_decoding():
    """Let access-parser decode Jet 4 text with ``decode_access_text`` while reading."""
    from access_parser import access_parser as ap
    from access_parser import utils

    original = ap.parse_type

    def parse_type(data_type, buffer, length=None, version=3, props=None):
        if data_type == utils.TYPE_TEXT and version > 3:
            return decode_access_text(buffer)
        return original(data_type, buffer, length, version, props)

    ap.parse_type = parse_type
    try:
        yield
    finally:
        ap.parse_type = original


class _Damaged(Exception):
    """A loop or an overlong chain in the file (``_bounded_reading``)."""


@contextlib.contextmanager
def _bounded_reading():
    """Let access-parser read table definitions and memos with loop checks and a time limit."""
    from access_parser import access_parser as ap
    from access_parser.parsing_primitives import MEMO, TDEF_HEADER
    from access_parser.utils import TYPE_TEXT

    deadline = time.monotonic() + READ_SECONDS
    original = ap.AccessTable

    def check_time() -> None:
        if time.monotonic() > deadline:
            raise _Damaged(f"reading it took more than {READ_SECONDS:.0f} s (a loop in the file?)")

    class BoundedTable(original):
        def _parse_row(self, record):
            check_time()
            return super()._parse_row(record)

        def _merge_table_data(self, first_page):
            own = getattr(self.table, "offset", None)
            seen = {own // self.page_size} if isinstance(own, int) else set()
            data, page = b"", first_page
            while page:
                check_time()
                if page in seen:
                    raise _Damaged(f"a table definition continues on page {page}, which it has already "
                                   "read (a loop)")
                seen.add(page)
                table = self._table_defs.get(page * self.page_size)
                if table is None:
                    raise _Damaged(f"a table definition continues on page {page}, which is not one")
                header = TDEF_HEADER.parse(table)
                data += table[header.header_end:]
                page = header.next_page_ptr
            return data

        def _parse_memo(self, relative_obj_data, return_raw=False):
            memo = MEMO.parse(relative_obj_data)
            if memo.memo_length & 0x80000000:  # inline
                length = memo.memo_length & 0x3FFFFFFF
                data = relative_obj_data[memo.memo_end:memo.memo_end + length]
            elif memo.memo_length & 0x40000000:  # one long-value record
                data = self._get_overflow_record(memo.record_pointer)
            else:  # a chain of long-value records, each naming the next
                data, pointer, seen, most = b"", memo.record_pointer, set(), 0
                for pages in self._data_pages.values():
                    most += len(pages)
                while True:
                    check_time()
                    if pointer in seen:
                        raise _Damaged(f"a memo's chain of records comes back to page {pointer >> 8}, "
                                       f"record {pointer & 0xFF} (a loop)")
                    seen.add(pointer)
                    record = self._get_overflow_record(pointer)
                    if record is None or len(record) < 4:
                        raise _Damaged(f"a memo's chain of records names page {pointer >> 8}, record "
                                       f"{pointer & 0xFF}, which is not there")
                    data += record[4:]
                    if len(data) > most:
                        raise _Damaged("a memo is longer than all the file's data pages")
                    pointer = struct.unpack("<I", record[:4])[0]
                    if not pointer:
                        break
            if data:
                return data if return_raw else ap.parse_type(TYPE_TEXT, data, len(data), version=self.version)
            return None

    ap.AccessTable = BoundedTable
    try:
        yield
    finally:
        ap.AccessTable = original


def read_mdb_rows(path: str | Path) -> tuple[str, list[dict[str, Any]]]:
    """The card table of an AGoTDB ``.mdb``: (table name, rows as {column: value})."""
    path = Path(path)
    file = str(path)
    if not path.exists() and not path.is_symlink():
        raise DataError("no such file", file=file, hint="check the path to the .mdb file")
    from cards.files import check_file

    check_file(path, "the card database", kind="card database")  # a regular file under its limit
    try:
        import logging

        from access_parser import AccessParser
    except ImportError:  # pragma: no cover - a dependency of the project
        raise DataError("reading .mdb files needs the access-parser package", file=file,
                        hint="pip install access-parser (it is a dependency of Maester)") from None
    logging.getLogger("access_parser").setLevel(logging.CRITICAL)
    try:
        with _fixed_text_decoding(), _bounded_reading():
            db = AccessParser(file)
            names = [n for n in db.catalog if not n.startswith(("MSys", "~"))]
            order = [TABLE] + [n for n in names if n != TABLE] if TABLE in names else names
            for name in order:
                table = db.parse_table(name)
                columns = {c.casefold(): c for c in table}
                if all(c.casefold() in columns for c in REQUIRED):
                    count = max((len(v) for v in table.values() if isinstance(v, list)), default=0)
                    rows = [{c: (table[c][i] if isinstance(table[c], list) and i < len(table[c]) else None)
                             for c in table} for i in range(count)]
                    return name, rows
    except DataError:
        raise
    except _Damaged as err:
        raise DataError(f"cannot read this Access database: {err}", file=file, hint=DAMAGED_HINT) from None
    except Exception as err:  # access-parser raises many kinds on a damaged or foreign file
        raise DataError(f"cannot read this Access database ({type(err).__name__}: {err})", file=file,
                        hint="use the .mdb file from the AGoTDB card searcher; it may be damaged") from None
    raise DataError("no card table in this Access database (a table with UniversalId, Type and Set)",
                    file=file, hint="use the .mdb file from the AGoTDB card searcher (AGoT - FR.mdb, AGoT.mdb)")


# --------------------------------------------------------------------------- translation tables

TRAITS_FR: dict[str, str] = {
    "Accalmie": "Storm's End", "Allié": "Ally", "Arme": "Weapon", "Armure": "Armor", "Armée": "Army",
    "Aspic des sables": "Sand Snake", "Assassin": "Assassin", "Asshai": "Asshai", "Avantage": "Boon",
    "Baie des serfs": "Slaver's Bay", "Bannière": "Banner", "Bataille": "Military Battle",
    "Bataille épique": "Epic Battle", "Bouffon": "Fool", "Bâtard": "Bastard", "Bénédiction": "Blessing",
    "Capitaine": "Captain", "Champ de bataille": "Battlefield", "Chaîne": "Chain",
    "Chevalier": "Knight", "Citadelle": "Citadel", "Cité": "City", "Cités libres": "Free Cities",
    "Les Cités libres": "Free Cities", "Clan": "Clansman", "Compétence": "Skill",
    "Condition": "Condition", "Conseil restreint": "Small Council", "Conspiration": "Conspiracy",
    "Conteur": "Storyteller", "Contrebandier": "Smuggler", "Corbeau": "Raven", "Couronne": "Crown",
    "Créature": "Creature", "Destrier": "Warhorse", "Dorne": "Dorne", "Dothraki": "Dothraki",
    "Dragon": "Dragon", "Décret": "Decree", "Fer-né": "Ironborn", "Forteresse": "Stronghold",
    "Fraternité": "Brotherhood", "Garde arc-en-ciel": "Rainbow Guard", "Garde de Nuit": "Night's Watch",
    "Garde royal": "Kingsguard", "Garde régine": "Queensguard", "Hautjardin": "Highgarden",
    "Héraut": "Herald", "Immaculé": "Unsullied", "L'Orient": "The East", "Lady": "Lady",
    "Lancehélion": "Sunspear", "Le Nord": "The North", "Le Sud": "The South", "Les Autres": "Others",
    "Lord": "Lord", "Loup-garou": "Direwolf", "Lutte de pouvoir": "Power Struggle",
    "Maison Arryn": "House Arryn", "Maison Bolton": "House Bolton", "Maison Bonfrère": "House Goodbrother",
    "Maison Botley": "House Botley", "Maison Brax": "House Brax", "Maison Celtigar": "House Celtigar",
    "Maison Clegane": "House Clegane", "Maison Dayne": "House Dayne", "Maison Ferrugyer": "House Greyiron",
    "Maison Florent": "House Florent", "Maison Frey": "House Frey", "Maison Glover": "House Glover",
    "Maison Harloi": "House Harlaw", "Maison Hightower": "House Hightower",
    "Maison Karstark": "House Karstark", "Maison Lefford": "House Lefford",
    "Maison Mormont": "House Mormont", "Maison Omble": "House Umber", "Maison Payne": "House Payne",
    "Maison Qorgyle": "House Qorgyle", "Maison Reed": "House Reed", "Maison Tarly": "House Tarly",
    "Maison Torth": "House Tarth", "Maison Tully": "House Tully", "Maison Tyrell": "House Tyrell",
    "Malédiction": "Curse", "Marchand": "Merchant", "Mercenaire": "Mercenary", "Messager": "Messenger",
    "Mestre": "Maester", "Objet": "Item", "Otage": "Ward", "Peyredragon": "Dragonstone",
    "Pillard": "Raider", "Poison": "Poison", "Port-Lannis": "Lannisport", "Port-Réal": "King's Landing",
    "Porte-bannière": "Bannerman", "Promotion": "Promotion", "Qarthien": "Qartheen",
    "Quarthien": "Qartheen", "Recruteur": "Conscriptor", "Reine": "Queen", "Renforts": "Reinforcements",
    "Revenant": "Wight", "Roi": "King", "Royaume": "Kingdom", "Réfugié": "Refugee",
    "Sauvageon": "Wildling", "Septon": "Septon", "Serment": "Oath", "Serviteur": "Servant",
    "Siège": "Siege", "Tactique d'intrigue": "Intrigue Gambit", "Terrain de joute": "Tourney Grounds",
    "Titre": "Title", "Traité": "Treaty", "Traître": "Traitor", "Vaisseau de guerre": "Warship",
    "Villevieille": "Oldtown", "Véhicule": "Vehicle", "Westeros": "Westeros", "Winterfell": "Winterfell",
    "Zoman": "Skinchanger", "Émissaire": "Emissary", "Îles de Fer": "Iron Islands",
}
"""French trait -> English trait (single words and short names: facts about the cards)."""

_KEYWORDS_FR: dict[str, str] = {
    "tueur": "Deadly", "renom": "Renown", "furtivité": "Stealth", "pas d'attachement": "No attachments",
    "mise en place": "Setup", "condamné": "Deathbound", "loyal": "Stalwart", "infâme": "Infamy",
    "vigilant": "Vigilant", "intimidant": "Intimidate", "imprévisible": "Ambush",
    "vindicatif": "Vengeful", "limité": "Limited", "joute": "Joust", "mêlée": "Melee",
}
"""AGoTDB's French keywords -> the English keywords (the database's own keyword tables pair them)."""

_IMMUNE_FR = {
    "événements": "events", "capacités de personnages": "character abilities",
    "effets déclenchés": "triggered effects", "effects déclenchés": "triggered effects",
    "effets de cartes": "card effects", "capacités de lieux": "location abilities",
    "capacités d'attachements": "attachment abilities", "complots": "plots",
    "effets de complots": "plot effects", "attachements": "attachments",
}
_HOUSES_FR = {h: h.capitalize() for h in HOUSES}
_TYPES = {
    "personnage": "character", "character": "character", "lieu": "location", "location": "location",
    "attachement": "attachment", "attachment": "attachment", "événement": "event", "evenement": "event",
    "event": "event", "complot": "plot", "plot": "plot", "agenda": "agenda", "titre": "title", "title": "title",
}
_NOT_MODELLED_TYPES: dict[str, str] = {}
"""AGoTDB card types skipped (and reported under ``TYPES_NOT_MODELLED``): none since titles are a type."""
_YES = {"yes", "oui", "true", "1", "-1"}
_PRINTING = re.compile(r"^\s*(?P<set>[^()]+?)\s*\((?P<codes>[^()]*)\)\s*$")
_CODE = re.compile(r"^(?P<letter>[A-Za-z]{0,2})(?P<number>\d+)$")


def _clean(value: Any) -> str:
    """Text with AGoTDB's ``{...}`` correction marks and doubled spaces removed."""
    if value is None:
        return ""
    return " ".join(str(value).replace("{", "").replace("}", "").split())


def _yes(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    return _clean(value).casefold() in _YES


def _int(value: Any) -> int | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and re.fullmatch(r"\s*-?\d+\s*", value):
        return int(value)
    return None


def _sentences(value: Any) -> list[str]:
    return [s.strip(" ,") for s in re.split(r"\.\s*", _clean(value)) if s.strip(" ,")]


def _trait_fr(word: str) -> str | None:
    word = word.strip("~ ")
    if word in TRAITS_FR:
        return TRAITS_FR[word]
    if word.endswith("s") and word[:-1] in TRAITS_FR:  # "les ~Armes~"
        return TRAITS_FR[word[:-1]]
    return None


def translate_keyword_fr(sentence: str) -> list[str] | None:
    """English keyword sentences for one French keyword sentence; [] to drop it
    (an attachment's restriction); None when the table does not know it."""
    s = " ".join(sentence.replace("\u2019", "'").split())
    low = s.casefold()
    if low in _KEYWORDS_FR:
        return [_KEYWORDS_FR[low]]
    if low == "pas d attachement":
        return ["No attachments"]
    if m := re.fullmatch(r"prisé (\d+)", low):
        return [f"Prized {m[1]}"]
    if m := re.fullmatch(r"limite de (\d+) par (?:deck|paquet)", low):
        return [f"Limit {m[1]} per deck"]
    if m := re.fullmatch(r"maison (\w+)((?: ou (?:maison )?\w+)*) uniquement", low):
        names = [m[1]] + re.findall(r"ou (?:maison )?(\w+)", m[2])
        return ["House " + " or House ".join(n.capitalize() for n in names) + " only"]
    if re.fullmatch(r"(?:.+ ou )?personnages? .*uniquement", low):
        return []  # "Personnages [Stark] uniquement": which characters an attachment may go on
    if m := re.fullmatch(r"pas d.attachement sauf (?:les |une seule )?(~[^~]+~)((?: (?:et|ou) (?:les )?~[^~]+~)*)", s,
                         re.I):
        words = [m[1]] + re.findall(r"~[^~]+~", m[2])
        english = [_trait_fr(w) for w in words]
        if all(english):
            return ["No attachments except " + " or ".join(english)]
        return None
    if m := re.fullmatch(r"immunisé (?:à|aux) (.+)", low):
        out = []
        for part in re.split(r" et (?:à |aux )?", m[1]):
            who = ""
            if part.startswith("vos "):
                who, part = "your ", part[4:]
            if part.endswith(" adverses"):
                who, part = "opponents' ", part[: -len(" adverses")]
            if part not in _IMMUNE_FR:
                return None
            out.append(f"Immune to {who}{_IMMUNE_FR[part]}")
        return out
    return None


def _printings(raw: str, report: ImportReport, ref: str) -> list[tuple[str, str, int | None]]:
    """(English set code, letter, number) per printing of a ``Set`` value."""
    out = []
    for part in _clean(raw).split("/"):
        if not part.strip():
            continue
        m = _PRINTING.match(part)
        code = canonical_code(m["set"]) if m else None
        if code is None:
            report.tally("printings not understood (left out)", part.strip(), ref)
            continue
        for item in m["codes"].split(","):
            item = item.strip()
            c = _CODE.match(item)
            if c:
                out.append((code, c["letter"].upper(), int(c["number"])))
            elif item:
                report.tally("printings not understood (left out)", f"{code}({item})", ref)
            else:
                out.append((code, "", None))
    return out


# --------------------------------------------------------------------------- mapping


def _column(row: Mapping[str, Any], name: str) -> Any:
    if name in row:
        return row[name]
    folded = name.casefold()
    for key, value in row.items():
        if key.casefold() == folded:
            return value
    return None


def is_french(rows: list[Mapping[str, Any]]) -> bool:
    """True when the rows are the French database's (its card types are French)."""
    types = {_clean(_column(r, "Type")).casefold() for r in rows[:200]}
    return bool(types & {"personnage", "lieu", "complot", "attachement", "événement"})


def agotdb_pool_from_rows(rows: Iterable[Mapping[str, Any]], *, file: str = "<mdb>",
                          english: Iterable[Mapping[str, Any]] | None = None, era: str | None = "ccg",
                          french: bool | None = None) -> tuple[CardPool, ImportReport]:
    """Map AGoTDB rows (``{column: value}``) to a pool; see the module doc.

    ``english``: rows of the English database, whose ``Text`` replaces a French text with
    the same ``UniversalId``. ``era``: keep only cards printed in that era (``ccg``,
    ``lcg``) or everything (None). ``french``: the rows' language (default: detected).
    """
    rows = list(rows)
    if era is not None and era not in ERAS:
        raise ValueError(f"unknown era {era!r}")
    french = is_french(rows) if french is None else french
    english_text: dict[int, str] = {}
    for r in english or ():
        uid, text = _int(_column(r, "UniversalId")), _column(r, "Text")
        if uid is not None and isinstance(text, str) and text.strip():
            english_text[uid] = text
    report = ImportReport(source=file)
    report.era = era  # type: ignore[attr-defined]
    report.skipped_other_era = 0  # type: ignore[attr-defined]
    pool = CardPool()
    for index, row in enumerate(rows):
        card = _card(row, index, file, report, french, english_text, era)
        if card is None:
            continue
        if card.key in pool:
            report.note("duplicate UniversalId (later record skipped)", f"{card.name} [{card.key}]")
            continue
        pool.add(card)
    report.imported = len(pool)
    return pool, report


def _card(row, index, file, report, french, english_text, era) -> CardDef | None:
    uid = _int(_column(row, "UniversalId"))
    name = _clean(_column(row, "OriginalName")) or ("" if french else _clean(_column(row, "Name")))
    ref = f"{name or _clean(_column(row, 'Name')) or f'record {index + 1}'} [agotdb_{uid}]"
    if uid is None:
        report.note("record without a UniversalId (skipped)", ref)
        return None
    printings = _printings(_column(row, "Set") or "", report, ref)
    if era is not None:
        sets = [find_set(code) for code, _, _ in printings]
        if not any(s is not None and s.era == era for s in sets):
            report.skipped_other_era += 1
            return None
    if not name:
        name = _clean(_column(row, "Name"))
        if not name:
            report.note("record without a name (skipped)", ref)
            return None
        report.note("no English name (OriginalName): the French name is used", ref)
    key = f"agotdb_{uid}"
    raw_type = _clean(_column(row, "Type")).casefold()
    ctype = _TYPES.get(raw_type)
    if ctype is None:
        if raw_type in _NOT_MODELLED_TYPES:
            report.tally(TYPES_NOT_MODELLED, _NOT_MODELLED_TYPES[raw_type], ref)
        else:
            report.note(f"unknown card type {_column(row, 'Type')!r} (skipped)", ref)
        return None
    m: dict[str, Any] = {"name": name, "key": key, "type": ctype}

    houses = []
    for h in re.split(r"[/,]", _clean(_column(row, "House"))):
        low = h.strip().casefold()
        if low in HOUSES:
            if low not in houses:
                houses.append(low)
        elif low and low not in ("neutre", "neutral"):
            report.note(f"unknown House {h.strip()!r} (ignored)", ref)
    if ctype == "event" and houses:
        report.note(EVENT_HOUSE_DROPPED, ref)
        houses = []
    if houses:
        m["house"] = houses
    if _yes(_column(row, "Unique")):
        m["unique"] = True

    cost = _int(_column(row, "Cost"))
    if cost is not None:
        if ctype in ("plot", "agenda", "title"):
            if cost:
                report.note(f"a gold cost on a {ctype} (ignored)", ref)
        else:
            m["cost"] = "X" if cost == -1 else cost
            if cost < -1:
                report.note(f"cost not understood: {cost} (left without a cost)", ref)
                del m["cost"]
    strength = _int(_column(row, "Strength"))
    if ctype == "character":
        if strength == -1:
            strength = "X"  # kept as X, as costs are (the engine counts it as 0 unless an ability defines it)
        elif strength is None or strength < 0:
            report.note("character STR missing (imported as 0)", ref)
            strength = 0
        m["strength"] = strength
    elif strength:
        report.note(f"STR on a {ctype} (ignored)", ref)

    icons, naval = [], []
    for icon in ("Military", "Intrigue", "Power"):
        enhancement = _clean(_column(row, icon + "CE")).casefold()
        if enhancement == "naval":
            naval.append(icon.lower())
        elif _yes(_column(row, icon)):
            icons.append(icon.lower())
        elif enhancement:
            report.note(f"challenge enhancement {enhancement!r} not understood", ref)
    place_icons(m, ctype, icons, naval, report, ref)
    crests = [c.lower() for c in ("War", "Holy", "Noble", "Learned", "Shadow") if _yes(_column(row, c))]
    if crests:
        m["crest"] = crests
    for flag in ("Doomed", "Endless"):
        if _yes(_column(row, flag)):
            if ctype in ("plot", "agenda", "title"):
                report.note(f"{flag} on a {ctype} (ignored)", ref)
            else:
                m[flag.lower()] = True

    for field in ("Income", "Initiative", "Claim", "Influence"):
        value = _int(_column(row, field))
        if not value:
            continue
        if field == "Claim" and ctype != "plot":
            report.note(f"claim on a {ctype} (ignored)", ref)
        elif field == "Influence" and value < 0:
            report.note(f"negative influence {value} (imported as 0)", ref)
        elif field in ("Income", "Initiative") and value == -1:  # issue 24: Yronwood Spies' X initiative
            report.note(f"{field.lower()} X (imported as 0; the card's text says what X is)", ref)
        else:
            m[field.lower()] = value

    # traits
    traits = []
    for trait in _sentences(_column(row, "Traits")):
        english = _trait_fr(trait) if french else trait
        if english is None:
            report.tally(TRAITS_NOT_TRANSLATED, trait, ref)
        elif english not in traits:
            traits.append(english)
    if traits:
        m["traits"] = traits

    # keywords: the Keywords column, translated, read like a keyword line
    sentences = []
    for sentence in _sentences(_column(row, "Keywords")):
        if french:
            english = translate_keyword_fr(sentence)
            if english is None:
                report.tally(KEYWORDS_NOT_TRANSLATED, sentence.casefold(), ref)
                continue
            sentences.extend(english)
        else:
            sentences.append(sentence)
    block = parse_keyword_block(". ".join(sentences) + ("." if sentences else ""))
    if block.keywords:
        m["keywords"] = block.keywords
    for word in block.unknown:
        report.tally(KEYWORDS_NOT_UNDERSTOOD, word, ref)
    for words in block.unknown_restrictions:
        report.tally(RESTRICTIONS_NOT_UNDERSTOOD, words, ref)
    if block.deck_houses:
        m["house_only"] = list(block.deck_houses)
    if block.limit is not None and block.limit >= 1 and block.limit != 3:
        m["deck_limit"] = block.limit

    text = _column(row, "Text")
    text = text.replace("\r\n", "\n") if isinstance(text, str) else ""
    if uid in english_text:
        text = english_text[uid].replace("\r\n", "\n")
    elif text and french:
        m["text_lang"] = "fr"
    text = keep_unmodelled_keywords(text, ". ".join(sentences))  # the text has no keywords of its own
    if text:
        m["text"] = text

    if printings:
        first = printings[0]
        info = find_set(first[0])
        m["set"] = info.name if info else first[0]
        if first[2] is not None:
            m["number"] = first[2]
        m["printings"] = [f"{code} {letter}{number if number is not None else ''}".strip()
                          for code, letter, number in printings]
        if all(letter == "P" for _, letter, _ in printings):
            m["promo"] = True

    legality = {}
    if _yes(_column(row, "Banned")):
        legality = {"joust": "banned", "melee": "banned"}
    else:
        if _yes(_column(row, "RestrictedJoust")) or _yes(_column(row, "Restricted")):
            legality["joust"] = "restricted"
        if _yes(_column(row, "RestrictedMelee")):
            legality["melee"] = "restricted"
    if legality:
        m["legality"] = legality
    if _yes(_column(row, "Multiplayer")):
        report.note("multiplayer-only cards (imported for every format)", ref)
    if name.casefold() in _MAX_TWO_COPIES:
        m["deck_rule"] = "max-2-copies"

    try:
        return card_from_mapping(m, file=file, source=f"{file}#{uid}")
    except DataError as err:  # pragma: no cover - the mapping above is built to be valid
        report.note(f"not imported: {err.field or ''} {err.message}".strip(), ref)
        return None


_MAX_TWO_COPIES = {"the wildling horde", "threat from the east", "defenders of the north"}
"""Cards that add "no more than two copies of any card in your deck" (DCK-06)."""


# --------------------------------------------------------------------------- files


def english_sibling(path: Path) -> Path | None:
    """The English database next to a French one (``AGoT - FR.mdb`` -> ``AGoT - EN.mdb``)."""
    name = path.name
    for fr, en in (("FR", "EN"), ("Fr", "En"), ("fr", "en")):
        if fr in name:
            candidate = path.with_name(name.replace(fr, en))
            if candidate != path and candidate.is_file():
                return candidate
    return None


def import_agotdb(path: str | Path, *, era: str | None = "ccg",
                  english: str | Path | None = None) -> tuple[CardPool, ImportReport]:
    """Import an AGoTDB ``.mdb``. A French file takes its English text from ``english``
    (default: ``AGoT - EN.mdb`` beside it, when present)."""
    path = Path(path)
    _, rows = read_mdb_rows(path)
    french = is_french(rows)
    english_rows = None
    english_path = Path(english) if english else (english_sibling(path) if french else None)
    if english_path is not None and french:
        _, english_rows = read_mdb_rows(english_path)
        if is_french(english_rows):
            raise DataError("the English database given is in French", file=str(english_path),
                            hint="give AGoTDB's English file (AGoT - EN.mdb)")
    pool, report = agotdb_pool_from_rows(rows, file=str(path), english=english_rows, era=era, french=french)
    report.english = str(english_path) if english_rows is not None else ""  # type: ignore[attr-defined]
    report.total_records = len(rows)  # type: ignore[attr-defined]
    return pool, report


def headline(pool: CardPool, report: ImportReport) -> str:
    """The import's first line."""
    era = getattr(report, "era", None)
    if era is None:
        return f"{len(pool)} cards imported (every era)"
    skipped = getattr(report, "skipped_other_era", 0)
    what = ERAS[era]
    if era == "ccg":
        return (f"{len(pool)} cards imported (CCG era: {what}; {skipped} LCG records skipped — "
                "import the LCG JSON for those)")
    return f"{len(pool)} cards imported (LCG era; {skipped} CCG records skipped — use --era ccg or --all)"
