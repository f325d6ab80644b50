"""Reading the user's files: every failure is a ``DataError`` that says what to do.

This is the one reading layer for every file Maester is given (decks, card data,
scenarios, saves, the card cache); docs/files.md lists its limits:

- ``read_bytes``: regular files only (a FIFO, a device such as ``/dev/zero``, a
  folder is refused without blocking: the file is opened with ``O_NONBLOCK`` and
  checked with ``fstat`` before a byte is read), and no larger than a limit that
  the message names.
- ``load_json_text``: JSON with nesting and number-size limits (no ``RecursionError``,
  no ``ValueError`` for a 5,000-digit integer).
- ``check_lines``: a line too long is reported without quoting it whole.
- ``printable`` / ``clip``: text shown to the user has control characters and
  terminal escapes escaped, and long quotes cut.

YAML (``cards.yamlio``) and XML (``no_doctype``) build on it.
"""
from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

from cards.errors import DataError, clip, printable

__all__ = ["DataError", "clip", "printable", "read_bytes", "decode_utf8", "read_utf8", "load_json_text",
           "read_json_file", "check_file", "check_depth", "check_lines", "no_doctype", "tolerant_console", "run_command",
           "MB", "LIMITS", "MAX_DEPTH", "MAX_DIGITS", "MAX_LINE"]

MB = 1024 * 1024
LIMITS = {
    "deck": 1 * MB,
    "card yaml": 4 * MB,        # PyYAML reads about 200 KB a second
    "card data": 64 * MB,        # LCG .json (2 MB today), OCTGN .xml
    "card database": 512 * MB,   # AGoTDB .mdb
    "scenario": 1 * MB,
    "save": 64 * MB,
    "cache": 128 * MB,
    "lesson progress": 1 * MB,
}
"""The largest file of each kind Maester reads (bytes)."""
MAX_DEPTH = 64
"""The deepest nesting of lists and mappings in a JSON or YAML file."""
MAX_DIGITS = 100
"""The longest whole number (digits) in a JSON, YAML or XML file."""
MAX_LINE = 100_000
"""The longest line (characters) in a deck or YAML file."""


def _size_text(n: int) -> str:
    if n >= MB:
        return f"{n / MB:.0f} MB" if n % MB == 0 or n >= 10 * MB else f"{n / MB:.1f} MB"
    if n >= 1024:
        return f"{n // 1024} KB"
    return f"{n} bytes"


def check_file(path: str | Path, what: str = "the file", *, limit: int | None = None,
               kind: str | None = None) -> int:
    """``read_bytes``'s checks without the reading (for files another library reads, such as an
    AGoTDB ``.mdb``): the file's size, or a ``DataError``."""
    fd, size = _open_checked(path, what, limit, kind)
    os.close(fd)
    return size


def _open_checked(path: str | Path, what: str, limit: int | None, kind: str | None) -> tuple[int, int]:
    """An open descriptor of a regular file under the limit (blocking again), and its size."""
    if limit is None:
        limit = LIMITS.get(kind or "", 64 * MB)
    file = str(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as err:
        hint = "check the path" if isinstance(err, FileNotFoundError) else "check the path and permissions"
        if isinstance(err, IsADirectoryError):
            raise DataError(f"{what} is a folder, not a file", file=file, hint="give a file") from None
        raise DataError(f"cannot read {what}: {err.strerror or err}", file=file, hint=hint) from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise DataError(f"{what} is a folder, not a file", file=file, hint="give a file")
        if not stat.S_ISREG(st.st_mode):
            kind_name = ("a pipe (FIFO)" if stat.S_ISFIFO(st.st_mode) else
                         "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode) else
                         "a socket" if stat.S_ISSOCK(st.st_mode) else "not a regular file")
            raise DataError(f"{what} is {kind_name}, not a regular file", file=file,
                            hint="give a file saved on disk")
        if st.st_size > limit:
            raise DataError(f"{what} is too large ({_size_text(st.st_size)}; the limit is {_size_text(limit)})",
                            file=file, hint="check that this is the right file")
        try:
            os.set_blocking(fd, True)
        except OSError:
            pass
    except OSError as err:
        os.close(fd)
        raise DataError(f"cannot read {what}: {err.strerror or err}", file=file,
                        hint="check the path and permissions") from None
    except BaseException:
        os.close(fd)
        raise
    return fd, st.st_size


def read_bytes(path: str | Path, what: str = "the file", *, limit: int | None = None,
               kind: str | None = None) -> bytes:
    """The bytes of a regular file no larger than ``limit`` (or ``LIMITS[kind]``; 64 MB when
    neither is given). Missing, unreadable, special (FIFO, device, folder) or oversized files
    are a ``DataError`` naming the file; nothing blocks and nothing huge is read."""
    if limit is None:
        limit = LIMITS.get(kind or "", 64 * MB)
    file = str(path)
    fd, _size = _open_checked(path, what, limit, kind)
    try:
        chunks, total = [], 0
        while True:
            chunk = os.read(fd, min(1 * MB, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:  # it grew while being read
                raise DataError(f"{what} is too large (over {_size_text(limit)}, the limit)", file=file,
                                hint="check that this is the right file")
        return b"".join(chunks)
    except OSError as err:
        raise DataError(f"cannot read {what}: {err.strerror or err}", file=file,
                        hint="check the path and permissions") from None
    finally:
        os.close(fd)


def decode_utf8(raw: bytes, file: str, hint: str = "save the file as UTF-8") -> str:
    """UTF-8 text (a byte-order mark is allowed); other bytes are a DataError with the line."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = raw[: err.start].count(b"\n") + 1
        raise DataError(f"not UTF-8 text (byte {err.start})", file=file, line=line, hint=hint) from None


def read_utf8(path: str | Path, what: str = "the file", hint: str = "save the file as UTF-8", *,
              limit: int | None = None, kind: str | None = None) -> str:
    return decode_utf8(read_bytes(path, what, limit=limit, kind=kind), str(path), hint)


def check_lines(text: str, file: str, limit: int = MAX_LINE, what: str = "the file") -> None:
    """A line longer than ``limit`` characters is a DataError (its line number, not its text)."""
    if len(text) <= limit:
        return
    start = 0
    number = 1
    n = len(text)
    while start < n:
        end = text.find("\n", start)
        if end < 0:
            end = n
        if end - start > limit:
            raise DataError(f"line {number} is too long ({end - start:,} characters; the limit is {limit:,})",
                            file=file, line=number, hint=f"check that {what} is the right file")
        start = end + 1
        number += 1


# --- JSON ------------------------------------------------------------------------------

def _big_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise _TooBig(f"a number with {digits:,} digits (the limit is {MAX_DIGITS})")
    return int(text)


def _float(text: str) -> float:
    if len(text) > MAX_DIGITS + 20:
        raise _TooBig(f"a number {len(text):,} characters long (the limit is {MAX_DIGITS})")
    return float(text)


def _constant(name: str):
    raise _TooBig(f"{name} is not a number JSON allows")


class _TooBig(ValueError):
    pass


def check_depth(data: Any, file: str, limit: int = MAX_DEPTH, hint: str | None = None) -> None:
    """Lists and mappings nested deeper than ``limit`` are a DataError (checked without recursion)."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            children = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth > limit:
            raise DataError(f"nested too deeply (more than {limit} levels)", file=file,
                            hint=hint or "check that this is the right file")
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))


def load_json_text(text: str, file: str, hint: str = "the file is damaged; check that it is the right file") -> Any:
    """Parse JSON: malformed text, nesting deeper than ``MAX_DEPTH``, numbers longer than
    ``MAX_DIGITS`` digits, NaN/Infinity are one-line DataErrors with the line where known."""
    try:
        data = json.loads(text, parse_int=_big_int, parse_float=_float, parse_constant=_constant)
    except json.JSONDecodeError as err:
        raise DataError(f"not valid JSON: {err.msg} (column {err.colno})", file=file, line=err.lineno,
                        hint=hint) from None
    except RecursionError:
        raise DataError(f"nested too deeply (more than {MAX_DEPTH} levels)", file=file, hint=hint) from None
    except _TooBig as err:
        raise DataError(f"not usable JSON: {err}", file=file, hint=hint) from None
    except ValueError as err:  # any other number problem
        raise DataError(f"not usable JSON: {err}", file=file, hint=hint) from None
    check_depth(data, file, hint=hint)
    return data


def read_json_file(path: str | Path, *, kind: str | None = None, what: str = "the file",
                   hint: str = "the file is damaged; check that it is the right file") -> Any:
    """``load_json_text`` of a file read through ``read_bytes`` (UTF-8)."""
    return load_json_text(read_utf8(path, what, kind=kind), str(path), hint)


# --- XML -------------------------------------------------------------------------------

def no_doctype(parser, file: str, what: str = "this file") -> None:
    """Make an expat ``parser`` refuse any DOCTYPE (and so every entity trick) and any entity
    declaration with a one-line DataError."""
    def doctype(*_args) -> None:
        raise DataError(f"a DOCTYPE declaration is not allowed in {what}", file=file,
                        line=parser.CurrentLineNumber, hint="remove the <!DOCTYPE ...> part")

    def entity(*_args) -> None:
        raise DataError(f"an entity declaration is not allowed in {what}", file=file,
                        line=parser.CurrentLineNumber, hint="remove the <!ENTITY ...> part")

    parser.StartDoctypeDeclHandler = doctype
    parser.EntityDeclHandler = entity
    try:
        parser.SetParamEntityParsing(0)  # XML_PARAM_ENTITY_PARSING_NEVER
    except AttributeError:  # pragma: no cover
        pass


# --- the console -----------------------------------------------------------------------

class _Escaping:
    """A text stream that escapes control characters (terminal escapes) in what is written,
    keeping newlines and tabs."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(printable(text, keep="\n\t"))
        return len(text)

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def tolerant_console() -> None:
    """Card names with characters the terminal cannot show print as '?' rather than crash, and
    control characters (a name that would clear the screen) print escaped."""
    import sys

    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        try:
            stream.reconfigure(errors="replace")
        except (AttributeError, ValueError):
            pass
        if not isinstance(stream, _Escaping):
            setattr(sys, name, _Escaping(stream))


def run_command(main) -> int:
    """Run a command's ``main``; output cut short by a closed pipe (``| head``) is not an error."""
    import sys

    try:
        code = main()
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # silence the final flush
        return 0


def fsync_folder(folder: str | Path) -> None:
    """Make a rename in ``folder`` durable (best effort: some systems cannot open a folder)."""
    try:
        dfd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dfd)
    except OSError:
        pass
    finally:
        os.close(dfd)


def atomic_write(path: str | Path, text: str | None = None, *, write=None, tmp_name: str | None = None) -> None:
    """Write ``path`` so that it is always either the old file or the new one: a temporary file in
    the same folder (``tmp_name``, by default ``.NAME.PID-XXXXXXXX.tmp``), flushed and fsynced, renamed
    over ``path``, the folder fsynced. ``write(out)`` writes to the open text file instead of ``text``.
    A failure removes the temporary file and raises (``OSError`` included)."""
    path = Path(path)
    folder = path.parent
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / (tmp_name or f".{path.name}.{os.getpid()}-{os.urandom(4).hex()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o644)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            if write is not None:
                write(out)
            else:
                out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    fsync_folder(folder)
