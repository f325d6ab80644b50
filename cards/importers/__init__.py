"""Importers of community card data into a ``CardPool``.

- ``lcg_json.import_lcg_json``: the community first-edition LCG JSON.
- ``octgn_xml.import_octgn_xml``: an OCTGN first-edition set XML.

Each returns ``(CardPool, ImportReport)``. A file that cannot be read at all raises
``DataError``; a card the importer does not fully understand is still imported
(with what was understood) and the gap is noted in the report. The card text
belongs to its publisher: it is read on the user's machine and kept in the
user's data folder, never in the project.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class ImportReport:
    """What an import did not understand: notes grouped by kind, with the cards concerned."""

    source: str
    imported: int = 0
    notes: dict[str, list[str]] = field(default_factory=dict)
    """message -> the cards it concerns (``Name [key]``), in file order."""
    tallies: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    """category -> item -> cards: many small variants of one problem, shown on one line
    (``keywords not understood``: ``ambush``: [...])."""

    def note(self, message: str, card: str = "") -> None:
        self.notes.setdefault(message, [])
        if card:
            self.notes[message].append(card)

    def tally(self, category: str, item: str, card: str) -> None:
        self.tallies.setdefault(category, {}).setdefault(item, []).append(card)

    @property
    def empty(self) -> bool:
        return not self.notes and not self.tallies

    def cards_noted(self, message: str) -> list[str]:
        return list(self.notes.get(message, ()))

    def lines(self, examples: int = 3) -> list[str]:
        """One line per kind of problem, most frequent first, with a few example cards."""
        rows: list[tuple[int, str]] = []
        for message, cards in self.notes.items():
            if cards:
                shown = ", ".join(cards[:examples]) + (", ..." if len(cards) > examples else "")
                count = f"{len(cards)} card{'s' if len(cards) != 1 else ''}"
                rows.append((len(cards), f"{message}: {count} ({shown})"))
            else:
                rows.append((0, message))
        for category, items in self.tallies.items():
            ordered = sorted(items.items(), key=lambda kv: (-len(kv[1]), kv[0]))
            total = sum(len(cards) for _, cards in ordered)
            listed = ", ".join(f"{item} ({len(cards)})" for item, cards in ordered)
            rows.append((total, f"{category}: {listed}"))
        return [text for _, text in sorted(rows, key=lambda r: -r[0])]

    def to_json(self) -> dict:
        return {"source": self.source, "imported": self.imported, "notes": self.notes,
                "tallies": self.tallies}

    @classmethod
    def from_json(cls, data: dict) -> "ImportReport":
        return cls(source=str(data.get("source", "")), imported=int(data.get("imported", 0)),
                   notes={str(k): [str(c) for c in v] for k, v in dict(data.get("notes", {})).items()},
                   tallies={str(k): {str(i): [str(c) for c in cs] for i, cs in dict(v).items()}
                            for k, v in dict(data.get("tallies", {})).items()})

    def __str__(self) -> str:
        head = f"{self.imported} cards imported"
        return "\n".join([head] + [f"  {line}" for line in self.lines()])


def place_icons(m: dict, ctype: str, icons: list[str], naval: list[str], report: "ImportReport", ref: str) -> None:
    """Challenge icons go on characters only; elsewhere they are noted and ignored."""
    if not (icons or naval):
        return
    if ctype != "character":
        report.note(f"challenge icons on a {ctype} (ignored)", ref)
        return
    if icons:
        m["icons"] = icons
    if naval:
        m["naval_icons"] = naval
