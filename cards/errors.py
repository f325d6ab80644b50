"""Errors about bad input that a player can act on: what was wrong, where, and what to do.

Every loader (card files, pools, decks, scenarios, saves) raises ``DataError``;
command-line entry points print ``str(error)`` and exit non-zero, never a traceback.
``str()`` is always one line: control characters (a terminal escape in a card name)
are escaped and an overlong quote is cut (``printable``, ``clip``).
"""
from __future__ import annotations

import re

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _escape(m: re.Match) -> str:
    c = m.group(0)
    return {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\x1b": "\\e"}.get(c) or (
        f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}")


def printable(text: str, keep: str = "") -> str:
    """``text`` with control characters, terminal escapes and bidirectional marks and overrides escaped
    (``\\e``, ``\\x07``, ``\\u202e``); the characters in ``keep`` (e.g. newline) are left alone."""
    if not isinstance(text, str):
        text = str(text)
    if keep:
        return _CONTROL.sub(lambda m: m.group(0) if m.group(0) in keep else _escape(m), text)
    return _CONTROL.sub(_escape, text)


def clip(text: str, limit: int = 120) -> str:
    """``text`` made printable and cut to about ``limit`` characters (saying how much was cut)."""
    text = printable(text)
    if len(text) <= limit:
        return text
    return f"{text[: limit - 30]}…[{len(text) - limit + 30:,} characters cut]"


MAX_MESSAGE = 600
"""The longest message part of an error's line; longer ones are cut in the middle."""


class DataError(Exception):
    """Bad input data. ``str()`` reads ``FILE:LINE: FIELD: MESSAGE (HINT)``."""

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None,
                 field: str | None = None, hint: str | None = None):
        self.message = message
        self.file = file
        self.line = line
        self.field = field
        self.hint = hint
        super().__init__(str(self))

    def __str__(self) -> str:
        where = ""
        if self.file:
            where = clip(str(self.file), 300)
            if self.line is not None:
                where += f":{self.line}"
            where += ": "
        fld = f"{clip(str(self.field), 80)}: " if self.field else ""
        message = printable(self.message)
        if len(message) > MAX_MESSAGE:
            cut = len(message) - MAX_MESSAGE + 40
            message = f"{message[: MAX_MESSAGE // 2]}…[{cut:,} characters cut]…{message[-(MAX_MESSAGE // 2 - 40):]}"
        hint = f" ({clip(self.hint, 600)})" if self.hint else ""
        return f"{where}{fld}{message}{hint}"

    def located(self, file: str | None = None, line: int | None = None) -> "DataError":
        """The same error with a location filled in where it had none."""
        return DataError(self.message, file=self.file or file,
                         line=self.line if self.line is not None else line,
                         field=self.field, hint=self.hint)
