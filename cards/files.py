"""Reading the user's files: every failure is a ``DataError`` that says what to do."""
from __future__ import annotations

from pathlib import Path

from cards.errors import DataError


def read_bytes(path: str | Path, what: str = "the file") -> bytes:
    """The file's bytes; a missing or unreadable file is a DataError naming it."""
    try:
        return Path(path).read_bytes()
    except OSError as err:
        raise DataError(f"cannot read {what}: {err.strerror or err}", file=str(path),
                        hint="check the path and permissions") from None


def decode_utf8(raw: bytes, file: str, hint: str = "save the file as UTF-8") -> str:
    """UTF-8 text (a byte-order mark is allowed); other bytes are a DataError with the line."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = raw[: err.start].count(b"\n") + 1
        raise DataError(f"not UTF-8 text (byte {err.start})", file=file, line=line, hint=hint) from None


def read_utf8(path: str | Path, what: str = "the file", hint: str = "save the file as UTF-8") -> str:
    return decode_utf8(read_bytes(path, what), str(path), hint)


def tolerant_console() -> None:
    """Card names with characters the terminal cannot show print as '?' rather than crash."""
    import sys

    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="replace")
        except (AttributeError, ValueError):
            pass


def run_command(main) -> int:
    """Run a command's ``main``; output cut short by a closed pipe (``| head``) is not an error."""
    import os
    import sys

    try:
        code = main()
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # silence the final flush
        return 0
