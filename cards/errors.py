"""Errors about bad input that a player can act on: what was wrong, where, and what to do.

Every loader (card files, pools, decks, scenarios, saves) raises ``DataError``;
command-line entry points print ``str(error)`` and exit non-zero, never a traceback.
"""
from __future__ import annotations


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
            where = str(self.file)
            if self.line is not None:
                where += f":{self.line}"
            where += ": "
        fld = f"{self.field}: " if self.field else ""
        hint = f" ({self.hint})" if self.hint else ""
        return f"{where}{fld}{self.message}{hint}"

    def located(self, file: str | None = None, line: int | None = None) -> "DataError":
        """The same error with a location filled in where it had none."""
        return DataError(self.message, file=self.file or file,
                         line=self.line if self.line is not None else line,
                         field=self.field, hint=self.hint)
