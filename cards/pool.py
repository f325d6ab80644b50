"""The card database: the practice set shipped with Maester, plus cards the user imports.

- ``practice_pool()``: every ``cards/practice/*.yaml`` (our own invented cards).
- ``import_pool(path)``: import community data (LCG JSON, OCTGN XML, or our YAML)
  and cache it in ``user_data_dir()/pool.json`` for the next start.
- ``imported_pool()``: the cached import, or None.
- ``default_pool()``: the practice set, then imported cards whose keys are new.

Cards imported from the LCG JSON get the project's own ability data
(``cards/abilities/*.yaml``, see ``cards.overlay``) when they are imported or
loaded, and again when the cache is read.

Command line (exit 0 ok, 1 bad input, 2 usage)::

    python -m cards.pool import FILE   # first line: "<N> cards imported"
    python -m cards.pool import "AGoT - FR.mdb" [--era ccg|lcg | --all] [--english "AGoT - EN.mdb"]
    python -m cards.pool show NAME     # one card as the engine sees it
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
import difflib
import json
import os
import sys
import textwrap
import time
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
CACHE_VERSION = 1
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
    with import_lock():
        pool, report = _read(path, era=era, english=english)
        save_cache(pool, report)
    _imported = _default = None
    return pool, report


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
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
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


def save_cache(pool: CardPool, report: ImportReport, path: Path | None = None) -> Path:
    """Write ``pool`` (and its import report) to the cache file, atomically."""
    path = path or cache_path()
    records = []
    for card in pool:
        record = card_to_mapping(card)
        record["source"] = card.source
        records.append(record)
    data = {"format": CACHE_FORMAT, "version": CACHE_VERSION, "report": report.to_json(),
            "cards": records}
    try:
        atomic_write(path, write=lambda out: json.dump(data, out, ensure_ascii=False, separators=(",", ":"),
                                                        default=_not_plain),
                     tmp_name=f"{TMP_PREFIX}{os.getpid()}-{os.urandom(4).hex()}.json")
    except OSError as err:
        raise DataError(f"cannot write the card cache: {err.strerror or err}", file=str(path),
                        hint="check that the folder is writable, or set MAESTER_HOME") from None
    return path


def load_cache(path: Path | None = None) -> tuple[CardPool, ImportReport]:
    """Read a cache written by ``save_cache``; anything wrong raises ``DataError`` (re-import)."""
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
    if data.get("version") != CACHE_VERSION:
        raise DataError(f"the card cache was written by another version (format {data.get('version')!r})",
                        file=file, hint=REIMPORT_HINT)
    records = data.get("cards")
    if not isinstance(records, list):
        raise damaged("no card list")
    try:
        report = ImportReport.from_json(data.get("report") or {})
    except (TypeError, ValueError, AttributeError):
        raise damaged("the import report is unreadable") from None
    pool = CardPool()
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
        if card.key in pool:
            raise damaged(f"card {index + 1}: the key {card.key!r} appears twice")
        pool.add(card)
    apply_ability_data(pool)  # a newer cards/abilities reaches an older cache
    return pool, report


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
    cards keep working."""
    try:
        return imported_pool()
    except DataError as err:
        path = cache_path()
        moved = ""
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


def describe(card: CardDef) -> list[str]:
    """Every field of ``card``, one readable line each (the text last, wrapped)."""
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
        if f in ("unique", "cost_x", "doomed", "endless", "promo"):
            return _yes(v)
        if f == "deck_houses":
            return _list(v)
        if f == "legality":
            return ", ".join(f"{fmt}: {card.legal_in(fmt)}" for fmt in ("joust", "melee"))
        if f == "abilities":
            if v:
                return f"{len(v)} in the ability format"
            return "none needed" if played.status == STATUS_NONE_NEEDED else "none yet (text only)"
        if v is None or v == "":
            return "-"
        return str(v)

    from cards.report import STATUS_NONE_NEEDED, status  # the report reads the engine's ability parser

    played = status(card)
    lines = [f"{card.name}  [{card.key}]"]
    for f in dataclasses.fields(CardDef):
        if f.name in ("name", "key", "text"):
            continue
        lines.append(f"  {f.name + ':':<13}{value(f.name)}")
    how = {"automated": "automated", STATUS_NONE_NEEDED: "automated (its text needs no ability data)",
           "partial": "partial", "by_hand": "by hand"}[played.status]
    lines.append(f"  {'played:':<13}{how}" + (f" ({played.note})" if played.note else ""))
    lines.append("  text:")
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
    print(f"Saved to {cache_path()}")
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
    print("\n".join(describe(card)))
    return 0


def _cmd_search(args) -> int:
    from cards.search import QueryError, card_line, search

    query = " ".join(args.query)
    try:
        found = search(default_pool(), query)
    except QueryError as err:
        shown = query if len(query) <= 60 else query[:57] + "..."
        raise DataError(f"cannot read the query {shown!r}: {err.message} (at character {err.position + 1})",
                        hint=err.hint or None) from None
    for card in found[: args.limit] if args.limit else found:
        print(card_line(card))
    shown = min(len(found), args.limit) if args.limit else len(found)
    more = f" (showing {shown}; --limit 0 shows all)" if shown < len(found) else ""
    print(f"{len(found)} card{'' if len(found) == 1 else 's'} match{'es' if len(found) == 1 else ''}{more}")
    return 0


def main(argv: list[str] | None = None) -> int:
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
    p_show = sub.add_parser("show", help="print one card as the engine sees it")
    p_show.add_argument("name", help="a card title or key")
    p_show.set_defaults(run=_cmd_show)
    p_search = sub.add_parser("search", help="list the cards a query matches, e.g. "
                                             "'t:character h:stark cost>=3 k:deadly' (docs/decks.md)")
    p_search.add_argument("query", nargs="+", help="the query (quote it for the shell)")
    p_search.add_argument("--limit", type=int, default=200, help="show at most this many (0: all)")
    p_search.set_defaults(run=_cmd_search)
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_usage(sys.stderr)
        print("python -m cards.pool: error: give a command (import, show or search)", file=sys.stderr)
        return 2
    try:
        return args.run(args)
    except DataError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(run_command(main))
