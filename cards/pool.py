"""The card database: the practice set shipped with Maester, plus cards the user imports.

- ``practice_pool()``: every ``cards/practice/*.yaml`` (our own invented cards).
- ``import_pool(path)``: import community data (LCG JSON, OCTGN XML, AGoTDB, or our YAML)
  and cache it in ``user_data_dir()/pool.json`` for the next start. The cache keeps one
  entry per **source** (the file's name: ``agot1-lcg-cards.json``, ``AGoT - FR.mdb``):
  an import replaces only the cards that came from the same source, the others stay.
- ``imported_pool()``: every source's cards (in import order; a key that an earlier source
  already has is left out and noted in that import's report), or None.
- ``cached_sources()`` / ``remove_source(name)``: the sources in the cache; remove one.
- ``default_pool()``: the practice set, then imported cards whose keys are new.

Cards imported from the LCG JSON get the project's own ability data
(``cards/abilities/*.yaml``, see ``cards.overlay``) when they are imported or
loaded, and again when the cache is read.

Command line (exit 0 ok, 1 bad input, 2 usage)::

    python -m cards.pool import FILE   # first line: "<N> cards imported"
    python -m cards.pool list          # the imported sources: cards, date, file
    python -m cards.pool remove SOURCE # forget one source's cards
    python -m cards.pool import "AGoT - FR.mdb" [--era ccg|lcg | --all] [--english "AGoT - EN.mdb"]
    python -m cards.pool show NAME     # one card as the engine sees it, with Maester's English wording
    python -m cards.pool search QUERY  # the cards a query matches (cards/search.py, docs/decks.md)

The cache is written atomically (a temporary ``.pool-PID-XXXX.json`` in the same
folder, fsynced, renamed over ``pool.json``, the folder fsynced); one import at a
time holds ``pool.lock`` (``fcntl.flock``), and removes the temporary files a killed
import left behind. A damaged cache is reported once, set aside as
``pool-damaged.json``, and ignored: the practice cards always work (docs/files.md).

Imported card text belongs to its publisher: it lives only in the user's data
folder, never in the project.
"""
from __future__ import annotations

import argparse
import dataclasses
import datetime
import difflib
import json
import os
import sys
import textwrap
import time
from dataclasses import dataclass
from pathlib import Path

from cards.errors import DataError
from cards.files import atomic_write, load_json_text, read_bytes, run_command, tolerant_console
from cards.importers import ImportReport
from cards.model import CardDef, CardPool
from cards.overlay import apply_ability_data
from cards.schema import card_from_mapping, card_to_mapping, load_card_file

PRACTICE_DIR = Path(__file__).resolve().parent / "practice"
CACHE_NAME = "pool.json"
LOCK_NAME = "pool.lock"
DAMAGED_NAME = "pool-damaged.json"
TMP_PREFIX = ".pool-"
LOCK_WAIT_S = 30.0
"""How long an import waits for another one to finish before giving up."""
CACHE_FORMAT = "maester-card-pool"
CACHE_VERSION = 2
"""2: one entry per source (``imports``); 1 (one import, ``cards``) is still read."""
OTHER_VERSION_NAME = "pool-other-version.json"
REIMPORT_HINT = "import the card data again: python -m cards.pool import FILE"

_practice: CardPool | None = None
_imported: tuple[tuple, CardPool | None] | None = None
_default: tuple[CardPool, CardPool | None, CardPool] | None = None
_reported: set = set()
"""Cache problems already reported in this process (each is reported once)."""


def user_data_dir() -> Path:
    """Where Maester keeps the user's data: $MAESTER_HOME, else $XDG_DATA_HOME/maester,
    else ~/.local/share/maester."""
    home = os.environ.get("MAESTER_HOME")
    if home:
        return Path(home).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME")
    if xdg:
        return Path(xdg).expanduser() / "maester"
    return Path.home() / ".local" / "share" / "maester"


def _data_dir_origin() -> str:
    if os.environ.get("MAESTER_HOME"):
        return "MAESTER_HOME"
    if os.environ.get("XDG_DATA_HOME"):
        return "XDG_DATA_HOME"
    return "HOME"


def ensure_data_dir(folder: Path | None = None) -> Path:
    """Make the user's data folder (``user_data_dir()``) if it is not there; a path that is not a
    folder (``MAESTER_HOME=/dev/null``) or cannot be made raises ``DataError`` saying so."""
    folder = folder or user_data_dir()
    what = f"Maester's data folder (from {_data_dir_origin()})"
    hint = "set MAESTER_HOME to a folder Maester may write in"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        import stat

        try:
            mode = folder.stat().st_mode
            kind = "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "a file"
        except OSError:
            kind = "a path through a file"
        raise DataError(f"{what} is not a folder: it is {kind}", file=str(folder), hint=hint) from None
    except OSError as err:
        raise DataError(f"cannot make {what}: {err.strerror or err}", file=str(folder), hint=hint) from None
    return folder


def cache_path() -> Path:
    return user_data_dir() / CACHE_NAME


def clear_caches() -> None:
    """Forget the in-process caches (practice set, imported pool, default pool)."""
    global _practice, _imported, _default
    _practice = _imported = _default = None
    _reported.clear()


def _add_all(pool: CardPool, cards, where: str = "") -> None:
    for card in cards:
        if card.key in pool:
            first = pool.get(card.key)
            raise DataError(f"two cards have the key {card.key!r} (the other is at {first.source})",
                            file=card.source or where, field="key",
                            hint="give one of them a different 'key:'")
        pool.add(card)


def _yaml_folder(folder: Path) -> CardPool:
    pool = CardPool()
    for path in sorted([*folder.rglob("*.yaml"), *folder.rglob("*.yml")]):
        _add_all(pool, load_card_file(path), str(path))
    return pool


def practice_pool() -> CardPool:
    """The practice set (``cards/practice/*.yaml``); empty if there is none. Cached in-process."""
    global _practice
    if _practice is None:
        _practice = _yaml_folder(PRACTICE_DIR) if PRACTICE_DIR.is_dir() else CardPool()
    return _practice


def _read(path: str | Path, *, era: str | None = "ccg",
          english: str | Path | None = None) -> tuple[CardPool, ImportReport]:
    path = Path(path)
    if path.is_dir():
        pool = _yaml_folder(path)
        return pool, ImportReport(source=str(path), imported=len(pool))
    if not path.exists():
        raise DataError("no such file or folder", file=str(path), hint="check the path")
    suffix = path.suffix.lower()
    if suffix == ".json":
        from cards.importers.lcg_json import import_lcg_json
        pool, report = import_lcg_json(path)
        apply_ability_data(pool)  # the project's abilities for LCG cards (cards/abilities)
        return pool, report
    if suffix == ".xml":
        from cards.importers.octgn_xml import import_octgn_xml
        return import_octgn_xml(path)
    if suffix in (".mdb", ".accdb"):
        from cards.importers.agotdb import import_agotdb
        pool, report = import_agotdb(path, era=era, english=english)
        apply_ability_data(pool)
        return pool, report
    if suffix in (".yaml", ".yml"):
        pool = CardPool()
        _add_all(pool, load_card_file(path), str(path))
        return pool, ImportReport(source=str(path), imported=len(pool))
    raise DataError(f"unknown kind of card data ({suffix or 'no extension'})", file=str(path),
                    hint="give an LCG .json, an OCTGN set .xml, an AGoTDB .mdb, a card file .yaml, "
                         "or a folder of .yaml")


def load_pool(path: str | Path) -> CardPool:
    """Read card data by its kind: ``.json`` LCG, ``.xml`` OCTGN, ``.yaml`` card file, or a folder of ``.yaml``."""
    return _read(path)[0]


def import_pool(path: str | Path, *, era: str | None = "ccg",
                english: str | Path | None = None) -> tuple[CardPool, ImportReport]:
    """Read card data (as ``load_pool``) and cache it as the user's imported pool.

    For an AGoTDB ``.mdb``: ``era`` keeps one era (``ccg``, the default, or ``lcg``) or
    everything (None); ``english`` is the English database for a French one's text."""
    global _imported, _default
    pool, report = _read(path, era=era, english=english)
    source = ImportedSource(source_name(path), str(Path(path).resolve()), _now(), report, list(pool))
    with import_lock():
        sources = _sources_for_update(report)
        names = [s.source for s in sources]
        if source.source in names:
            sources[names.index(source.source)] = source  # the same source again: replaced in place
        else:
            sources.append(source)
        _note_shadowed(sources)
        save_sources(sources)
    _imported = _default = None
    return pool, report


def source_name(path: str | Path) -> str:
    """The name an import is kept under: the file's (or folder's) name."""
    path = Path(path)
    return path.name or path.resolve().name or str(path)


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


SHADOWED = "keys already imported from another source (those cards are kept)"


def _note_shadowed(sources: list["ImportedSource"]) -> None:
    """Note in each source's report the cards an earlier source's keys hide."""
    seen: dict[str, str] = {}
    for source in sources:
        source.report.notes.pop(SHADOWED, None)
        for card in source.cards:
            if card.key in seen:
                source.report.note(SHADOWED, f"{card.name} [{card.key}] ({seen[card.key]})")
            else:
                seen[card.key] = source.source


def _sources_for_update(report: ImportReport) -> list["ImportedSource"]:
    """The cached sources, read under the import lock before an import changes them. A cache that
    cannot be read is set aside (``pool-damaged.json``, or ``pool-other-version.json`` when another
    version wrote it) and the import goes on without it; ``report`` says so."""
    path = cache_path()
    try:
        return load_sources(path) if path.exists() else []
    except DataError as err:
        aside = OTHER_VERSION_NAME if "another version" in err.message else DAMAGED_NAME
        try:
            os.replace(path, path.with_name(aside))
        except OSError as move:
            raise DataError(f"cannot set aside the card cache that cannot be read ({err.message}): "
                            f"{move.strerror or move}", file=str(path),
                            hint="move it away, then import again") from None
        report.note(f"the earlier card cache could not be read ({err.message}); it was set aside as "
                    f"{aside} and only this import is kept")
        return []


class import_lock:
    """``with import_lock():`` holds ``pool.lock`` in the user data folder (``fcntl.flock``, released
    by the system if the process dies), so that two imports never write the cache at once. It waits
    up to ``LOCK_WAIT_S`` seconds for another import, then raises ``DataError``. Holding the lock, it
    removes the temporary files of imports that were killed (``.pool-*.json``)."""

    def __init__(self, folder: Path | None = None, wait: float | None = None):
        self.folder = folder or user_data_dir()
        self.wait = LOCK_WAIT_S if wait is None else wait
        self.fd: int | None = None

    def __enter__(self) -> "import_lock":
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not on POSIX: no lock
            return self
        path = self.folder / LOCK_NAME
        ensure_data_dir(self.folder)
        try:
            self.fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o644)
        except OSError as err:
            raise DataError(f"cannot use the card cache's lock file: {err.strerror or err}", file=str(path),
                            hint="check that the folder is writable, or set MAESTER_HOME") from None
        deadline = time.monotonic() + self.wait
        while True:
            try:
                fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    os.close(self.fd)
                    self.fd = None
                    raise DataError("another import of card data is running", file=str(path),
                                    hint="wait for it to finish, then import again") from None
                time.sleep(0.05)
        clean_cache_orphans(self.folder)
        return self

    def __exit__(self, *exc) -> None:
        if self.fd is not None:
            os.close(self.fd)  # releases the lock
            self.fd = None


def clean_cache_orphans(folder: Path | None = None) -> list[Path]:
    """Remove the temporary cache files (``.pool-*.json``) that killed imports left in ``folder``.
    Call it holding ``import_lock`` (no other import is writing then)."""
    folder = folder or user_data_dir()
    removed = []
    try:
        entries = list(folder.iterdir())
    except OSError:
        return removed
    for entry in entries:
        if entry.name.startswith(TMP_PREFIX) and entry.name.endswith(".json"):
            try:
                entry.unlink()
                removed.append(entry)
            except OSError:
                pass
    return removed


def _not_plain(value):
    raise DataError(f"cannot store {value!r} ({type(value).__name__}) in the card cache",
                    hint="write ability values as text, numbers, lists or mappings (quote dates)")


@dataclass
class ImportedSource:
    """One source in the card cache: what one import of one file gave."""

    source: str
    """The file's name (``AGoT - FR.mdb``): an import of a file with this name replaces it."""
    path: str
    """Where it was imported from."""
    date: str
    """When (ISO 8601, UTC)."""
    report: ImportReport
    cards: list[CardDef]


def save_sources(sources: list[ImportedSource], path: Path | None = None) -> Path:
    """Write the sources to the cache file, atomically."""
    path = path or cache_path()
    imports = []
    for source in sources:
        records = []
        for card in source.cards:
            record = card_to_mapping(card)
            record["source"] = card.source
            records.append(record)
        imports.append({"source": source.source, "path": source.path, "date": source.date,
                        "report": source.report.to_json(), "cards": records})
    data = {"format": CACHE_FORMAT, "version": CACHE_VERSION, "imports": imports}
    try:
        atomic_write(path, write=lambda out: json.dump(data, out, ensure_ascii=False, separators=(",", ":"),
                                                        default=_not_plain),
                     tmp_name=f"{TMP_PREFIX}{os.getpid()}-{os.urandom(4).hex()}.json")
    except OSError as err:
        raise DataError(f"cannot write the card cache: {err.strerror or err}", file=str(path),
                        hint="check that the folder is writable, or set MAESTER_HOME") from None
    return path


def save_cache(pool: CardPool, report: ImportReport, path: Path | None = None) -> Path:
    """Write ``pool`` as the cache's only source (named after ``report.source``)."""
    return save_sources([ImportedSource(source_name(report.source or "import"), report.source, _now(), report,
                                        list(pool))], path)


def load_sources(path: Path | None = None) -> list[ImportedSource]:
    """Read the sources of a cache written by ``save_sources`` (or a version 1 cache, as one
    source); anything wrong raises ``DataError`` (re-import)."""
    path = path or cache_path()
    file = str(path)

    def damaged(message: str, line: int | None = None) -> DataError:
        return DataError(f"the imported card cache is damaged: {message}", file=file, line=line,
                         hint=REIMPORT_HINT)

    try:
        raw = read_bytes(path, "the card cache", kind="cache")
    except DataError as err:
        raise damaged(err.message) from None
    try:
        data = load_json_text(raw.decode("utf-8"), file)
    except UnicodeDecodeError:
        raise damaged("not UTF-8 text") from None
    except DataError as err:
        raise damaged(err.message, err.line) from None
    if not isinstance(data, dict) or data.get("format") != CACHE_FORMAT:
        raise damaged("not a Maester card cache")
    version = data.get("version")
    if version == 1:
        entries = [{"report": data.get("report") or {}, "cards": data.get("cards"), "date": ""}]
    elif version == CACHE_VERSION:
        entries = data.get("imports")
        if not isinstance(entries, list):
            raise damaged("no list of imports")
    else:
        raise DataError(f"the card cache was written by another version (format {version!r})",
                        file=file, hint=REIMPORT_HINT)
    sources, keys = [], set()
    for n, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict):
            raise damaged(f"import {n} is not an object")
        try:
            report = ImportReport.from_json(entry.get("report") or {})
        except (TypeError, ValueError, AttributeError):
            raise damaged("the import report is unreadable") from None
        name = entry.get("source", source_name(report.source or f"import {n}"))
        where, date = entry.get("path", report.source), entry.get("date", "")
        if not all(isinstance(v, str) for v in (name, where, date)) or not name:
            raise damaged(f"import {n} has a bad source, path or date")
        if name in keys:
            raise damaged(f"the source {name!r} appears twice")
        keys.add(name)
        cards = _cached_cards(entry.get("cards"), file, damaged)
        sources.append(ImportedSource(name, where, date, report, cards))
    return sources


def _cached_cards(records, file: str, damaged) -> list[CardDef]:
    if not isinstance(records, list):
        raise damaged("no card list")
    cards, keys = [], set()
    for index, record in enumerate(records):
        if not isinstance(record, dict):
            raise damaged(f"card {index + 1} is not an object")
        record = dict(record)
        source = record.pop("source", "")
        if not isinstance(source, str):
            raise damaged(f"card {index + 1} has a bad source")
        try:
            card = card_from_mapping(record, file=file, source=source)
        except DataError as err:
            raise damaged(f"card {index + 1} ({record.get('name')!r}): {err.field or ''} {err.message}".strip()) from None
        if card.key in keys:
            raise damaged(f"card {index + 1}: the key {card.key!r} appears twice")
        keys.add(card.key)
        cards.append(card)
    return cards


def sources_pool(sources: list[ImportedSource]) -> CardPool:
    """Every source's cards, in import order; a key an earlier source has is left out."""
    pool = CardPool()
    for source in sources:
        for card in source.cards:
            if card.key not in pool:
                pool.add(card)
    apply_ability_data(pool)  # a newer cards/abilities reaches an older cache
    return pool


def load_cache(path: Path | None = None) -> tuple[CardPool, ImportReport]:
    """The cached cards of every source, and the report of the last import; anything wrong
    raises ``DataError`` (re-import)."""
    sources = load_sources(path)
    return sources_pool(sources), (sources[-1].report if sources else ImportReport(source=""))


def cached_sources() -> list[ImportedSource]:
    """The sources in the user's card cache (none before the first import)."""
    path = cache_path()
    return load_sources(path) if path.exists() else []


def remove_source(name: str) -> ImportedSource:
    """Remove one source's cards from the cache (``name`` as ``cached_sources`` gives it, any
    case); the cache file goes when no source is left. Raises ``DataError`` if there is none."""
    global _imported, _default
    with import_lock():
        path = cache_path()
        sources = load_sources(path) if path.exists() else []
        found = [s for s in sources if s.source == name] or [s for s in sources
                                                               if s.source.casefold() == name.casefold()]
        if len(found) != 1:
            known = ", ".join(repr(s.source) for s in sources)
            raise DataError(f"no imported source named {name!r}",
                            hint=f"the sources are {known}" if known else "nothing is imported yet")
        sources.remove(found[0])
        _note_shadowed(sources)
        if sources:
            save_sources(sources, path)
        else:
            try:
                path.unlink()
            except OSError as err:
                raise DataError(f"cannot remove the card cache: {err.strerror or err}", file=str(path),
                                hint="check that the folder is writable") from None
    _imported = _default = None
    return found[0]


def _signature(path: Path) -> tuple:
    try:
        st = path.stat()
    except OSError:
        return (str(path), None)
    return (str(path), st.st_mtime_ns, st.st_size)


def imported_pool() -> CardPool | None:
    """The user's imported cards (from the cache), or None if nothing was imported."""
    global _imported
    path = cache_path()
    sig = _signature(path)
    if _imported is not None and _imported[0] == sig:
        return _imported[1]
    pool = load_cache(path)[0] if sig[1] is not None else None
    _imported = (sig, pool)
    return pool


def usable_imported_pool() -> CardPool | None:
    """``imported_pool()``, except that a cache that cannot be read is reported once (on stderr),
    set aside as ``pool-damaged.json`` when it is damaged, and treated as no import: the practice
    cards keep working. An error in the project's ability data (``cards/abilities``), not in the
    cache, is reported the same way but never sets the cache aside."""
    try:
        return imported_pool()
    except DataError as err:
        path = cache_path()
        moved = ""
        if err.file != str(path):
            # not the cache: the project's own data (a broken cards/abilities file); the cache stays
            key = str(err)
            if key not in _reported:
                _reported.add(key)
                print(f"warning: {err}; the imported cards are not used until that file is fixed "
                      "(the card cache is kept)", file=sys.stderr)
            return None
        if "another version" not in err.message:
            try:
                with import_lock(path.parent, wait=5.0):
                    try:
                        return imported_pool()  # an import finished meanwhile
                    except DataError:
                        pass
                    if path.exists():
                        os.replace(path, path.with_name(DAMAGED_NAME))
                        moved = f"; it was set aside as {DAMAGED_NAME}"
            except (OSError, DataError):
                pass
        key = str(err)
        if key not in _reported:
            _reported.add(key)
            print(f"warning: {err}{moved}; only the practice cards are used until you import again",
                  file=sys.stderr)
        return None


def default_pool() -> CardPool:
    """The practice set, then the imported cards whose keys are new (a cache that cannot be read
    is reported once and ignored: ``usable_imported_pool``)."""
    global _default
    practice = practice_pool()
    imported = usable_imported_pool()
    if _default is not None and _default[0] is practice and _default[1] is imported:
        return _default[2]
    pool = practice.merged(imported if imported is not None else CardPool())
    _default = (practice, imported, pool)
    return pool


# --- command line ---------------------------------------------------------------------


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def _list(values) -> str:
    return ", ".join(values) if values else "-"


LANGUAGES = {"": "English", "en": "English", "fr": "French"}


def describe(card: CardDef, status=None, english: str = "") -> list[str]:
    """Every field of ``card``, one readable line each (the text last, wrapped). Both given by the layer above
    (``cards/`` does not import the engine): ``status`` (card -> ``engine.automation.Status``) adds how the
    engine plays the card; ``english``, Maester's wording of the card generated from its ability data
    (``engine.abilities.render``), is shown before the printed text."""
    def value(f: str):
        v = getattr(card, f)
        if f == "house":
            return _list(card.house) if card.house else "neutral"
        if f == "cost":
            return "X" if card.cost_x else ("-" if v is None else str(v))
        if f in ("icons", "naval_icons"):
            return _list(sorted(v))
        if f in ("traits", "keywords", "crest", "printings"):
            return _list(v)
        if f == "strength" and card.strength_x:
            return "X"
        if f in ("unique", "cost_x", "strength_x", "doomed", "endless", "promo"):
            return _yes(v)
        if f == "deck_houses":
            return _list(v)
        if f == "legality":
            return ", ".join(f"{fmt}: {card.legal_in(fmt)}" for fmt in ("joust", "melee"))
        if f == "abilities":
            if v:
                return f"{len(v)} in the ability format"
            if played is None:
                return "none"
            return "none needed" if played.status == "none_needed" else "none yet (text only)"
        if v is None or v == "":
            return "-"
        return str(v)

    played = status(card) if status is not None else None
    lines = [f"{card.name}  [{card.key}]"]
    for f in dataclasses.fields(CardDef):
        if f.name in ("name", "key", "text"):
            continue
        lines.append(f"  {f.name + ':':<13}{value(f.name)}")
    if played is not None:
        how = {"automated": "automated", "none_needed": "automated (its text needs no ability data)",
               "partial": "partial", "by_hand": "by hand"}[played.status]
        lines.append(f"  {'played:':<13}{how}" + (f" ({played.note})" if played.note else ""))
    language = LANGUAGES.get(card.text_lang, card.text_lang)
    if english:
        lines.append("  Maester's wording (generated from the ability data, not the printed text):")
        for paragraph in english.splitlines():
            lines.extend(textwrap.wrap(paragraph, 76, initial_indent="    ", subsequent_indent="    ") or [""])
    elif card.text and language != "English" and not card.abilities:
        lines.append(f"  english:     none: the text is in {language} and played by hand")
    lines.append(f"  text:        printed, in {language}" if card.text else "  text:")
    for paragraph in (card.text or "-").splitlines() or ["-"]:
        lines.extend(textwrap.wrap(paragraph, 76, initial_indent="    ", subsequent_indent="    ") or [""])
    return lines


def _cmd_import(args) -> int:
    era = None if args.all else args.era
    pool, report = import_pool(args.file, era=era, english=args.english)
    if hasattr(report, "skipped_other_era"):
        from cards.importers.agotdb import headline
        print(headline(pool, report))
        if getattr(report, "english", ""):
            print(f"English text from {report.english} where it has the card (by UniversalId)")
    else:
        print(f"{len(pool)} cards imported")
    lines = report.lines()
    if lines:
        print("Not understood:")
        for line in lines:
            print(f"  - {line}")
    others = [s for s in cached_sources() if s.source != source_name(args.file)]
    kept = f"; kept {', '.join(f'{s.source} ({len(s.cards)})' for s in others)}" if others else ""
    print(f"Saved to {cache_path()} as {source_name(args.file)!r}{kept}")
    return 0


def _when(date: str) -> str:
    try:
        return datetime.datetime.fromisoformat(date).astimezone().strftime("%Y-%m-%d %H:%M")
    except (ValueError, TypeError):
        return "-"


def _cmd_list(args) -> int:
    from cards.search import printable

    sources = cached_sources()
    if not sources:
        print("No card data imported yet: python -m cards.pool import FILE")
        return 0
    width = max(len(s.source) for s in sources)
    for s in sources:
        print(printable(f"{s.source:<{width}}  {len(s.cards):>5} cards  imported {_when(s.date)}  from {s.path}"))
    total = len(imported_pool() or ())
    print(f"{len(sources)} source{'s' if len(sources) != 1 else ''}, {total} cards "
          f"(python -m cards.pool remove SOURCE forgets one)")
    return 0


def _cmd_remove(args) -> int:
    from cards.search import printable

    gone = remove_source(args.source)
    print(printable(f"Removed {gone.source!r} ({len(gone.cards)} cards)"))
    return 0


def _cmd_show(args) -> int:
    pool = default_pool()
    ref = args.name
    card = pool.get(ref)
    if card is None:
        printings = pool.by_name(ref)
        if not printings:
            names = sorted({c.name for c in pool})
            close = difflib.get_close_matches(ref, names, n=3, cutoff=0.6)
            hint = f"did you mean {', '.join(repr(n) for n in close)}?" if close else (
                "check the spelling, or import card data first: python -m cards.pool import FILE"
                if len(pool) else "no cards are known yet: python -m cards.pool import FILE")
            raise DataError(f"no card named {ref!r}", hint=hint)
        card = printings[0]
        if len(printings) > 1:
            keys = ", ".join(c.key for c in printings)
            print(f"{len(printings)} printings of {card.name!r} ({keys}); showing {card.key} "
                  f"(give a key to see another)")
    print("\n".join(describe(card, args.status, args.wording(card) if args.wording else "")))
    return 0


def _cmd_search(args) -> int:
    from cards.search import QueryError, card_line, search

    query = " ".join(args.query)
    try:
        found = search(default_pool(), query, args.card_status)
    except QueryError as err:
        shown = query if len(query) <= 60 else query[:57] + "..."
        raise DataError(f"cannot read the query {shown!r}: {err.message} (at character {err.position + 1})",
                        hint=err.hint or None) from None
    for card in found[: args.limit] if args.limit else found:
        print(card_line(card, args.card_status))
    shown = min(len(found), args.limit) if args.limit else len(found)
    more = f" (showing {shown}; --limit 0 shows all)" if shown < len(found) else ""
    print(f"{len(found)} card{'' if len(found) == 1 else 's'} match{'es' if len(found) == 1 else ''}{more}")
    return 0


def main(argv: list[str] | None = None, status=None, card_status=None, wording=None) -> int:
    """The command. Given by the layer above (``python -m cards.pool``'s ``__main__`` block; importing
    cards.pool loads no engine module): ``status`` / ``card_status`` (``engine.automation``'s) let ``show``
    and ``search`` say how the engine plays a card, without them ``show`` leaves that out and ``search``
    refuses ``auto:`` terms; ``wording(card) -> str`` is Maester's English wording of a card
    (``engine.abilities.render.card_text``)."""
    tolerant_console()
    parser = argparse.ArgumentParser(prog="python -m cards.pool", description="Maester's card database.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    p_import = sub.add_parser("import", help="import card data (LCG .json, OCTGN .xml, card .yaml or a folder)")
    p_import.add_argument("file")
    p_import.add_argument("--era", choices=("ccg", "lcg"), default="ccg",
                          help="AGoTDB .mdb: the era to keep (default ccg: Winter Edition to Five Kings Edition)")
    p_import.add_argument("--all", action="store_true", help="AGoTDB .mdb: keep every era")
    p_import.add_argument("--english", metavar="MDB",
                          help="AGoTDB: the English .mdb for a French one's text (default: AGoT - EN.mdb beside it)")
    p_import.set_defaults(run=_cmd_import)
    p_list = sub.add_parser("list", help="list the imported sources (cards, date, file)")
    p_list.set_defaults(run=_cmd_list)
    p_remove = sub.add_parser("remove", help="remove one imported source's cards (a name from 'list')")
    p_remove.add_argument("source", help="the source's name, as 'list' shows it (e.g. 'AGoT - FR.mdb')")
    p_remove.set_defaults(run=_cmd_remove)
    p_show = sub.add_parser("show", help="print one card as the engine sees it")
    p_show.add_argument("name", help="a card title or key")
    p_show.set_defaults(run=_cmd_show)
    p_search = sub.add_parser("search", help="list the cards a query matches, e.g. "
                                             "'t:character h:stark cost>=3 k:deadly' (docs/decks.md)")
    p_search.add_argument("query", nargs="+", help="the query (quote it for the shell)")
    p_search.add_argument("--limit", type=int, default=200, help="show at most this many (0: all)")
    p_search.set_defaults(run=_cmd_search)
    args = parser.parse_args(argv)
    args.status, args.card_status, args.wording = status, card_status, wording
    if not getattr(args, "run", None):
        parser.print_usage(sys.stderr)
        print("python -m cards.pool: error: give a command (import, list, remove, show or search)",
              file=sys.stderr)
        return 2
    try:
        return args.run(args)
    except DataError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    # the command reads the engine's automation status and Maester's wording (engine/abilities/render.py);
    # importing cards.pool loads no engine module
    from engine.abilities.render import card_text
    from engine.automation import card_status, status

    sys.exit(run_command(lambda: main(status=status, card_status=card_status, wording=card_text)))
