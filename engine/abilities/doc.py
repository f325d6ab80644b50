"""The vocabulary tables of docs/abilities.md, generated from the registry.

    python -m engine.abilities.doc            # print the tables
    python -m engine.abilities.doc --write    # rewrite them in docs/abilities.md
    python -m engine.abilities.doc --check    # exit 1 when docs/abilities.md is out of date

In the doc each table sits between ``<!-- vocabulary: NAME -->`` and ``<!-- /vocabulary -->``;
tests/engine/test_vocabulary.py checks that the doc matches the registry.
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from engine.abilities import parse  # noqa: F401 - loads every word
from engine.abilities.registry import REGISTRY, Word

DOC = Path(__file__).resolve().parents[2] / "docs" / "abilities.md"
_BLOCK = re.compile(r"(<!-- vocabulary: (\w+) -->\n)(.*?)(<!-- /vocabulary -->)", re.S)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _table(head: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
    out = ["| " + " | ".join(head) + " |", "| " + " | ".join("---" for _ in head) + " |"]
    out += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return "\n".join(out) + "\n"


def _fields(w: Word) -> str:
    return ", ".join(f"`{k}: {s.form}`" for k, s in w.keys.items()) or "—"


def tables() -> dict[str, str]:
    """Each vocabulary table of docs/abilities.md, by name."""
    r = REGISTRY
    return {
        "events": _table(("event", "`when` may also test", "opened when"),
                         [(f"`{w.name}`", _fields(w), w.doc) for w in r["event"].values()]),
        "filters": _table(("key", "value", "the card"),
                          [(f"`{w.name}`", f"`{w.value.form}`", w.doc) for w in r["filter"].values()]),
        "selectors": _table(("selector", "picks", "meaning"),
                            [(f"`{w.name}`", w.extra["kind"] + "s", w.doc) for w in r["selector"].values()]
                            + [("`{all: FILTER}`", "cards", "every card in play that matches (or in the pile "
                                                            "named by the filter's `from`)")]),
        "costs": _table(("key", "paid in step 1e"), [(w.form(), w.doc) for w in r["cost"].values()]),
        "conditions": _table(("condition", "holds when"), [(w.form(), w.doc) for w in r["condition"].values()]),
        "effects": _table(("effect", "does"), [(w.form(), w.doc) for w in r["effect"].values()]),
    }


def render(text: str) -> str:
    """``text`` (the doc) with every vocabulary block replaced by the generated table."""
    generated = tables()

    def repl(m: re.Match) -> str:
        name = m.group(2)
        if name not in generated:
            raise KeyError(f"docs/abilities.md names an unknown vocabulary table {name!r}")
        return m.group(1) + generated[name] + m.group(4)

    return _BLOCK.sub(repl, text)


def blocks(text: str) -> dict[str, str]:
    return {m.group(2): m.group(3) for m in _BLOCK.finditer(text)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m engine.abilities.doc", description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help="rewrite the tables in docs/abilities.md")
    ap.add_argument("--check", action="store_true", help="exit 1 if docs/abilities.md is out of date")
    args = ap.parse_args(argv)
    if args.write or args.check:
        text = DOC.read_text(encoding="utf-8")
        new = render(text)
        if args.check:
            if new != text:
                print("docs/abilities.md is out of date: run python -m engine.abilities.doc --write",
                      file=sys.stderr)
                return 1
            return 0
        DOC.write_text(new, encoding="utf-8")
        return 0
    for name, table in tables().items():
        print(f"<!-- vocabulary: {name} -->\n{table}<!-- /vocabulary -->\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
