"""The ability vocabulary: one registry of every word the ability format knows.

Each word (an effect, a cost, a filter key, a condition, an event, a selector)
is one ``Word``: its name, the schema of its value (and of the keys allowed
beside it), a one-line doc, its implementation and its English ``phrase``
(``engine.abilities.render``: Maester's wording of card text). The parser
(``engine.abilities.parse``) checks data against these schemas, the vocabulary
tables of docs/abilities.md are generated from them (``engine.abilities.doc``)
and the run-time code calls their implementations, so adding a word touches
one place: the decorator on its implementation.

This module only describes; it imports nothing of the game.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from cards.errors import DataError

CATEGORIES = ("effect", "cost", "filter", "condition", "event", "selector")


# ---------------------------------------------------------------------------
# Where a value sits in the data, for file:line error messages
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Where:
    """A place in ability data: file, line and field path (``abilities.[1].effect[2]``)."""

    file: str | None
    line: int | None
    field: str

    @classmethod
    def of_source(cls, source: str) -> "Where":
        file, _, line = (source or "").rpartition(":")
        if not line.isdigit():
            return cls(source or None, None, "abilities")
        return cls(file or source, int(line), "abilities")

    def at(self, name: str, container: Any = None, key: Any = None, sep: str = ".") -> "Where":
        """The place of ``container[key]``, called ``name`` in the field path."""
        line = self.line
        file = self.file
        if container is not None:
            if hasattr(container, "line_of"):
                line = container.line_of(key) or line
            elif hasattr(container, "item_lines") and isinstance(key, int) and key < len(container.item_lines):
                line = container.item_lines[key]
            file = getattr(container, "file", None) or file
        return Where(file, line, f"{self.field}{sep}{name}" if self.field else name)

    def inside(self, value: Any) -> "Where":
        """The same place, with the line of ``value`` itself when it knows it."""
        line = getattr(value, "line", None)
        file = getattr(value, "file", None)
        if line is None and file is None:
            return self
        return Where(file or self.file, line or self.line, self.field)

    def error(self, message: str, hint: str | None = None) -> DataError:
        return DataError(message, file=self.file, line=self.line, field=self.field, hint=hint)


# ---------------------------------------------------------------------------
# Value schemas
# ---------------------------------------------------------------------------

class Schema:
    """The type of a value. ``check`` raises a DataError at ``where``; ``form`` is how docs show it."""

    form = "VALUE"

    def check(self, value: Any, where: Where) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def ok(self, value: Any) -> bool:
        try:
            self.check(value, Where(None, None, ""))
        except DataError:
            return False
        return True


class Int(Schema):
    def __init__(self, minimum: int | None = 0, form: str = "N"):
        self.minimum = minimum
        self.form = form

    def check(self, value, where):
        if isinstance(value, bool) or not isinstance(value, int):
            raise where.error(f"expected a whole number, not {value!r}")
        if self.minimum is not None and value < self.minimum:
            raise where.error(f"expected a whole number of {self.minimum} or more, not {value}")


class Bool(Schema):
    form = "true | false"

    def check(self, value, where):
        if not isinstance(value, bool):
            raise where.error(f"expected true or false, not {value!r}")


class TrueOnly(Schema):
    form = "true"

    def check(self, value, where):
        if value is not True:
            raise where.error(f"the only value is true, not {value!r}", "leave the key out otherwise")


class Text(Schema):
    def __init__(self, form: str = "TEXT"):
        self.form = form

    def check(self, value, where):
        if not isinstance(value, str) or not value.strip():
            raise where.error(f"expected text, not {value!r}")


class Words(Schema):
    """One of a fixed set of words (a callable gives the set at check time: scripts register late)."""

    def __init__(self, *words: Any, form: str | None = None, source: Callable[[], Any] | None = None):
        self._words = words
        self.source = source
        self.form = form or " | ".join(str(w) for w in words)

    @property
    def words(self) -> tuple:
        return tuple(self.source()) if self.source else self._words

    def check(self, value, where):
        if isinstance(value, bool) or value not in self.words:
            raise where.error(f"unknown value {value!r}", f"use {', '.join(str(w) for w in self.words)}")


class Keyword(Schema):
    form = "KEYWORD"

    def check(self, value, where):
        from cards.schema import normalise_keyword

        if normalise_keyword(value) is None:
            raise where.error(f"unknown keyword {value!r}",
                              "a keyword the engine models: deadly, deathbound, renown, stealth, limited, "
                              "no attachments, no attachments except weapon (boon, weapon or boon, weapon or armor), "
                              "setup, immune to <something>")


class ListOf(Schema):
    def __init__(self, item: Schema):
        self.item = item
        self.form = f"[{item.form}, ...]"

    def check(self, value, where):
        if not isinstance(value, list):
            raise where.error(f"expected a list, not {value!r}", f"write [{self.item.form}, ...]")
        for i, v in enumerate(value):
            self.item.check(v, where.at(f"[{i + 1}]", value, i, sep=""))


class OneOrList(Schema):
    def __init__(self, item: Schema):
        self.item = item
        self.form = f"{item.form} (or a list)"

    def check(self, value, where):
        if isinstance(value, list):
            if not value:
                raise where.error("expected at least one value")
            ListOf(self.item).check(value, where)
        else:
            self.item.check(value, where)


class Either(Schema):
    """The first alternative whose form fits: mappings go to mapping schemas, words to words."""

    def __init__(self, *alternatives: Schema, form: str | None = None):
        self.alternatives = alternatives
        self.form = form or " | ".join(a.form for a in alternatives)

    def check(self, value, where):
        errors = []
        for alt in self.alternatives:
            if isinstance(value, dict) != isinstance(alt, (FilterSchema, SelectorAll, Mapping)):
                continue
            try:
                alt.check(value, where)
                return
            except DataError as err:
                errors.append(err)
        if len(errors) == 1:
            raise errors[0]
        raise where.error(f"unknown value {value!r}", f"expected {self.form}")


class Mapping(Schema):
    """A mapping with a fixed set of keys, each with its schema; ``required`` keys must be present."""

    def __init__(self, keys: dict[str, Schema], required: tuple = (), form: str | None = None, what: str = ""):
        self.keys = keys
        self.required = required
        self.what = what
        self.form = form or "{" + ", ".join(f"{k}: {s.form}" for k, s in keys.items()) + "}"

    def check(self, value, where):
        if not isinstance(value, dict):
            raise where.error(f"expected a mapping {self.form}, not {value!r}")
        where = where.inside(value)
        for k, v in value.items():
            if k not in self.keys:
                raise where.at(str(k), value, k).error(
                    f"unknown key {k!r}{' in ' + self.what if self.what else ''}",
                    f"{self.what or 'it'} takes {', '.join(self.keys)}")
            self.keys[k].check(v, where.at(str(k), value, k))
        for k in self.required:
            if k not in value:
                raise where.error(f"{self.what or 'it'} needs '{k}'")


class FilterSchema(Schema):
    """A card filter: keys from the filter registry, plus the extras the context allows."""

    def __init__(self, extras: dict[str, Schema] | None = None, words: tuple = (), form: str = "FILTER"):
        self.extras = extras or {}
        self.words = words
        self.form = form

    def check(self, value, where):
        if isinstance(value, str) and value in self.words:
            return
        if not isinstance(value, dict):
            hint = f"or one of {', '.join(self.words)}" if self.words else None
            raise where.error(f"expected a card filter mapping, not {value!r}", hint)
        where = where.inside(value)
        filters = REGISTRY["filter"]
        for k, v in value.items():
            w = where.at(str(k), value, k)
            if k in self.extras:
                self.extras[k].check(v, w)
            elif k in filters:
                filters[k].value.check(v, w)
            else:
                valid = sorted(filters) + sorted(self.extras)
                raise w.error(f"unknown filter key {k!r}", f"use {', '.join(valid)}")


class SelectorAll(Schema):
    """``{all: FILTER}``: every card the filter matches."""

    form = "{all: FILTER}"

    def check(self, value, where):
        if not isinstance(value, dict) or set(value) != {"all"}:
            raise where.error(f"a selector mapping is {{all: FILTER}}, not {value!r}")
        FilterSchema({"from": FROM}).check(value["all"], where.at("all", value, "all"))


class Nested(Schema):
    """A list of abilities (a constant's ``gain``), checked by the parser."""

    form = "[ABILITY, ...]"
    parse: Callable | None = None

    def check(self, value, where):
        if not isinstance(value, list):
            raise where.error("expected a list of abilities")
        Nested.parse(tuple(value), where)


FROM = Words("in_play", "hand", "discard", "dead", "deck", "used_plots", "plot_deck")


def card_selector(*extra_words: str) -> Schema:
    """An effect's cards: a selector word of kind ``card``, or {all: FILTER}."""
    words = tuple(n for n, w in REGISTRY["selector"].items() if w.extra.get("kind") == "card") + extra_words
    return Either(Words(*words, source=lambda: tuple(n for n, w in REGISTRY["selector"].items()
                                                     if w.extra.get("kind") == "card") + extra_words),
                  SelectorAll(), form="SEL" + "".join(f" | {w}" for w in extra_words))


def player_selector(*words: str) -> Schema:
    return Words(*words)


# ---------------------------------------------------------------------------
# Words
# ---------------------------------------------------------------------------

@dataclass
class Word:
    category: str
    name: str
    value: Schema
    doc: str
    keys: dict[str, Schema] = field(default_factory=dict)
    """Keys allowed beside the word (an effect's options, an event's gate fields)."""
    impl: Callable | None = None
    extra: dict = field(default_factory=dict)
    phrase: Callable | None = None
    """How the word reads in Maester's English card text (``engine.abilities.render`` says what a
    phrase of each category receives and returns); every word has one (tests/engine/test_render.py)."""

    def form(self) -> str:
        """How docs/abilities.md shows the word."""
        if self.category in ("effect",):
            if self.extra.get("bare"):
                return f"`{self.name}`"
            parts = [f"{self.name}: {self.value.form}"] + [f"{k}: {s.form}" for k, s in self.keys.items()]
            return "`{" + ", ".join(parts) + "}`"
        if self.category in ("cost", "condition", "filter"):
            return f"`{self.name}: {self.value.form}`"
        return f"`{self.name}`"


REGISTRY: dict[str, dict[str, Word]] = {c: {} for c in CATEGORIES}


def _register(category: str, name: str, value: Schema, doc: str, keys: dict | None = None,
              phrase: Callable | None = None, **extra):
    def deco(fn: Callable | None) -> Callable | None:
        if name in REGISTRY[category]:
            raise ValueError(f"{category} {name!r} is registered twice")
        REGISTRY[category][name] = Word(category, name, value, doc, dict(keys or {}), fn, extra, phrase)
        return fn

    return deco


def effect(name: str, value: Schema, doc: str, keys: dict | None = None, **extra):
    """``@effect("kill", card_selector(), "doc")`` on ``fn(g, e, arg, ctx) -> bool``."""
    return _register("effect", name, value, doc, keys, **extra)


def cost(name: str, value: Schema, doc: str, **extra):
    """``@cost(...)`` on a class-like pair: ``check(g, player, cid, ab, ctx, value) -> problem``; the
    payment is ``extra['pay']``."""
    return _register("cost", name, value, doc, **extra)


def filter_key(name: str, value: Schema, doc: str, **extra):
    """``@filter_key("kneeling", Bool(), "doc")`` on ``fn(g, cid, want, ctx) -> bool``."""
    return _register("filter", name, value, doc, **extra)


def condition(name: str, value: Schema, doc: str, **extra):
    """``@condition("phase", ...)`` on ``fn(g, want, ctx) -> bool``."""
    return _register("condition", name, value, doc, **extra)


def selector(name: str, kind: str, doc: str, phrase: Callable | None = None):
    """``@selector("host", "card", doc, phrase=...)`` on ``fn(g, ctx) -> list``."""
    return _register("selector", name, Words(name), doc, kind=kind, phrase=phrase)


def event(name: str, fields: dict[str, Schema], doc: str, opened_by: tuple[str, ...], step: str = "",
          phrase: Callable | None = None) -> None:
    """An opportunity (gate): the fields its gates carry, which a ``when`` may test, and the modules
    that open it (tests/engine/test_vocabulary.py checks they do)."""
    _register("event", name, Words(name), doc, fields, phrase=phrase, opened_by=opened_by, step=step)(None)


def words(category: str) -> dict[str, Word]:
    return REGISTRY[category]
