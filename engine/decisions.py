"""Decisions: what the engine asks, of whom, and which answers are legal.

The engine never waits on a person. Rules code yields a ``Decision``; whoever
drives the game (the table, a computer player, a scenario file, a test) sends
an answer, a plain dict such as ``{"marshal": 12}`` or ``{"pass": True}``.
``Decision.check`` either returns the answer normalised or raises ``Refused``
with a reason a player can act on; a refused answer changes nothing.

Card references in answers are card instance ids; players are names.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Any, Callable

from engine.wording import article

# Which commands answer which kind of decision (scenario-format.md, "Decisions").
COMMANDS_FOR_KIND: dict[str, tuple[str, ...]] = {
    "setup": ("setup", "pass"),
    "plot": ("plot",),
    "first_player": ("first_player",),
    "action": ("marshal", "trigger", "by_hand", "pass", "done"),
    "challenge": ("challenge", "done", "pass"),
    "stealth": ("stealth", "pass"),
    "defend": ("defend", "pass"),
    "choose": ("choose",),
    "order": ("order",),
    "save_cancel": ("trigger", "duplicate_save", "by_hand", "pass"),
    "response": ("trigger", "by_hand", "pass"),
    "by_hand_effect": ("tool", "done", "pass"),
    "by_hand_passive": ("resolve", "pass"),
}

COMMANDS = ("pass", "done", "plot", "first_player", "setup", "marshal", "challenge", "stealth",
            "defend", "choose", "order", "trigger", "duplicate_save", "by_hand", "tool", "resolve")


COMMAND_WORDS = {
    "pass": "pass", "done": "pass", "plot": "choose a plot", "first_player": "choose the first player",
    "setup": "place setup cards", "marshal": "marshal a card", "challenge": "declare a challenge",
    "stealth": "choose stealth targets", "defend": "declare defenders", "choose": "choose",
    "order": "order the abilities", "trigger": "trigger an ability", "duplicate_save": "save with a duplicate",
    "by_hand": "use card text by hand", "tool": "use a manual effect tool", "resolve": "resolve it by hand",
}
"""How a command reads in a message to a player."""


class Refused(Exception):
    """An answer the rules do not allow. ``str()`` is the reason, for the player."""


def command_of(answer: dict) -> str:
    """The command an answer carries (its first known key)."""
    for key in answer:
        if isinstance(key, str) and key in COMMANDS:
            return key
    raise Refused(f"not a command: {shown(list(answer))}; expected one of {', '.join(COMMANDS)}")


# ---------------------------------------------------------------------------
# The shape of an answer: checked once, where answers arrive, before any rule reads them
# ---------------------------------------------------------------------------

MAX_ID = 2**31 - 1
"""Card ids are whole numbers from 0 to this (the engine numbers cards from 1)."""
MAX_NUMBER = 10**6
"""Every other number in an answer (X, amounts, counts, paragraphs, gates) is at most this, either way."""
MAX_TEXT = 200
MAX_ITEMS = 100_000
"""The most items a list or mapping in an answer may hold."""


def shown(value: Any, limit: int = 60) -> str:
    """``value`` as a message may show it: short, and never failing (a 5,000-digit number, a long
    text or a deep list is described, not printed)."""
    if isinstance(value, (list, tuple, dict)) and value:
        text = _repr_short(value, limit)
        return text if text is not None else f"{article(type(value).__name__)} of {len(value)}"
    return _scalar(value, limit)


def _scalar(value: Any, limit: int) -> str:
    if isinstance(value, bool) or value is None or isinstance(value, float):
        return repr(value)
    if isinstance(value, int):
        if abs(value) >= 10**18:
            return f"a {'negative ' if value < 0 else ''}number of about {int(value.bit_length() * 0.30103) + 1} digits"
        return repr(int(value))
    if isinstance(value, str):
        return repr(value) if len(value) <= limit else repr(value[:limit]) + f"... ({len(value)} characters)"
    if isinstance(value, (list, tuple, dict)):
        return repr(type(value)())  # empty
    if isinstance(value, (set, frozenset, bytes)):
        return f"{article(type(value).__name__)} of {len(value)}"
    return article(type(value).__name__)


def _repr_short(value: Any, limit: int) -> str | None:
    """A repr of a small container of plain values, or None when it would be long or deep."""
    out: list[str] = []
    size = 0

    def walk(v: Any, depth: int) -> bool:
        nonlocal size
        if depth > 3 or size > limit:
            return False
        if isinstance(v, dict) and v:
            out.append("{")
            for i, (k, x) in enumerate(v.items()):
                out.append(", " if i else "")
                if not walk(k, depth + 1):
                    return False
                out.append(": ")
                if not walk(x, depth + 1):
                    return False
            out.append("}")
        elif isinstance(v, (list, tuple)) and v:
            out.append("[")
            for i, x in enumerate(v):
                out.append(", " if i else "")
                if not walk(x, depth + 1):
                    return False
            out.append("]")
        else:
            text = _scalar(v, limit)
            out.append(text)
            size += len(text)
        return size <= limit

    return "".join(out) if walk(value, 0) else None


def _kind(value: Any) -> str:
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return f"{value!r} (true/false)"
    if isinstance(value, float):
        return f"the number {value!r} (not a whole number)"
    if isinstance(value, (list, tuple)):
        return f"the list {shown(value)}"
    if isinstance(value, dict):
        return f"the mapping {shown(value)}"
    return shown(value)


class Shape:
    """One expected type in an answer; ``problem`` says what is wrong with a value, or None."""

    what = "a value"
    plural = "values"

    def problem(self, value: Any, where: str) -> str | None:
        return None if self.fits(value) else f"{where}: {self.what}, not {_kind(value)}"

    def fits(self, value: Any) -> bool:
        raise NotImplementedError

    def __or__(self, other: "Shape") -> "Shape":
        return Either(self, other)


class CardId(Shape):
    what = "a card id (a whole number)"
    plural = "card ids"

    def fits(self, value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_ID


class Number(Shape):
    what = f"a whole number from {-MAX_NUMBER} to {MAX_NUMBER}"
    plural = "whole numbers"

    def fits(self, value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and -MAX_NUMBER <= value <= MAX_NUMBER


class Flag(Shape):
    what = "true or false"

    def fits(self, value: Any) -> bool:
        return isinstance(value, bool)


class TrueOnly(Shape):
    what = "true"

    def fits(self, value: Any) -> bool:
        return value is True


class Word(Shape):
    """A player's name, a challenge type, a choice word, a card title: text of up to ``MAX_TEXT``
    characters without control characters."""

    def __init__(self, what: str = "a word (text)", plural: str = "words"):
        self.what, self.plural = what, plural

    def fits(self, value: Any) -> bool:
        return isinstance(value, str) and len(value) <= MAX_TEXT and value.isprintable()


class Nothing(Shape):
    what = "nothing (null)"

    def fits(self, value: Any) -> bool:
        return value is None


class Either(Shape):
    def __init__(self, *shapes: Shape):
        self.shapes = shapes
        self.what = " or ".join(s.what for s in shapes)
        self.plural = " or ".join(s.plural for s in shapes)

    def fits(self, value: Any) -> bool:
        return any(s.fits(value) for s in self.shapes)

    def problem(self, value: Any, where: str) -> str | None:
        if self.fits(value):
            return None
        for shape in self.shapes:  # a list (mapping) where one is meant: name its wrong item
            if isinstance(shape, ListOf) and isinstance(value, list) or \
                    isinstance(shape, MapOf) and isinstance(value, dict):
                return shape.problem(value, where)
        return f"{where}: {self.what}, not {_kind(value)}"


class ListOf(Shape):
    def __init__(self, item: Shape):
        self.item = item
        self.what = self.plural = f"a list of {item.plural}"

    def fits(self, value: Any) -> bool:
        return self.problem(value, "") is None

    def problem(self, value: Any, where: str) -> str | None:
        if not isinstance(value, list):
            return f"{where}: {self.what}, not {_kind(value)}"
        if len(value) > MAX_ITEMS:
            return f"{where}: at most {MAX_ITEMS} items, not {len(value)}"
        for i, v in enumerate(value):
            found = self.item.problem(v, f"{where}[{i}]")
            if found:
                return found
        return None


class MapOf(Shape):
    def __init__(self, key: Shape, value: Shape):
        self.key, self.value = key, value
        self.what = self.plural = f"a mapping of {key.plural} to {value.plural}"

    def fits(self, value: Any) -> bool:
        return self.problem(value, "") is None

    def problem(self, value: Any, where: str) -> str | None:
        if not isinstance(value, dict):
            return f"{where}: {self.what}, not {_kind(value)}"
        if len(value) > MAX_ITEMS:
            return f"{where}: at most {MAX_ITEMS} entries, not {len(value)}"
        for k, v in value.items():
            found = self.key.problem(k, f"a key of {where}") or self.value.problem(v, f"{where}[{shown(k)}]")
            if found:
                return found
        return None


ID, NUMBER, FLAG, TRUE, NONE = CardId(), Number(), Flag(), TrueOnly(), Nothing()
NAME = Word("a player's name", "player names")
"""Every name ``name_problem`` accepts fits it: a game started with accepted names is never stuck."""
MAX_NAME = 100


def name_problem(name: Any) -> str | None:
    """Why ``name`` cannot be a player's name, or None. The one check of a name, made where names are
    entered (``maester --names``, the New Game dialog, scenario files, saves): 1 to ``MAX_NAME``
    characters, not only spaces, every one visible (no control or invisible formatting character such
    as ESC, BEL, U+200F or U+202E: the answers that name the player would not fit ``NAME``)."""
    if not isinstance(name, str):
        return f"a player's name is text, not {_kind(name)}"
    if not name.strip():
        return "a player's name cannot be empty or only spaces"
    if len(name) > MAX_NAME:
        return f"the player's name {shown(name, 30)} is {len(name)} characters long; a name is at most {MAX_NAME}"
    bad = next((ch for ch in name if not ch.isprintable()), None)
    if bad is not None:
        what = unicodedata.name(bad, "").lower()
        return (f"the player's name {shown(name, 40)} contains U+{ord(bad):04X}{f' ({what})' if what else ''}, "
                f"a control or invisible character; use letters, digits, spaces and punctuation")
    return None


def names_problem(names: Any) -> str | None:
    """``name_problem`` of each of a game's player names, and that they differ; None when they are fine."""
    if not isinstance(names, (list, tuple)):
        return "the player names are a list"
    for name in names:
        problem = name_problem(name)
        if problem:
            return problem
    if len(set(names)) != len(names):
        twice = next(n for n in names if names.count(n) > 1)
        return f"two players are named {shown(twice, 40)}: each player needs a different name"
    return None

WORD = Word()
TEXT = Word("text of up to 200 printable characters", "texts")
IDS = ListOf(ID)
IDS_OR_NONE = IDS | NONE
PICKS = ListOf(ID | Word("a word", "words"))
"""Cards, players or words (a destination, a card title): what a selection or a target names."""

TOOL_FIELDS: dict[str, Shape] = {
    "tool": WORD, "card": ID, "amount": NUMBER, "player": NAME, "count": NUMBER, "pick": ID | NONE,
    "to": ID | WORD, "from": ID, "bottom": FLAG, "attach_to": ID | NONE, "strength": NUMBER,
    "add_icons": ListOf(WORD), "remove_icons": ListOf(WORD), "add_keywords": ListOf(WORD),
    "remove_keywords": ListOf(WORD), "blank": FLAG, "until": WORD, "name": WORD, "text": TEXT,
}
"""Every key a manual effect tool takes (engine/manual.py); each tool then checks its own keys."""

ANSWER_FIELDS: dict[str, dict[str, Shape]] = {
    "pass": {"pass": TRUE},
    "done": {"done": TRUE},
    "resolve": {"resolve": TRUE},
    "plot": {"plot": ID},
    "first_player": {"first_player": NAME},
    "setup": {"setup": IDS | NONE, "attach": MapOf(ID, ID) | NONE, "duplicates": MapOf(ID, ID) | IDS | NONE},
    "marshal": {"marshal": ID, "duplicate": FLAG | NONE, "attach_to": ID | NONE, "x": NUMBER | NONE,
                "gold_tokens": NUMBER | NONE, "penalty": FLAG | NONE},
    "challenge": {"challenge": Word("a challenge type (military, intrigue or power)"), "against": NAME | NONE,
                  "attackers": IDS_OR_NONE},
    "stealth": {"stealth": MapOf(ID, ID)},
    "defend": {"defend": IDS},
    "choose": {"choose": PICKS},
    "order": {"order": IDS},
    "trigger": {"trigger": ID, "ability": NUMBER, "targets": PICKS | NONE, "pay": IDS_OR_NONE, "x": NUMBER | NONE,
                "gate": NUMBER | NONE, "gate_card": ID | NONE, "gold_tokens": NUMBER | NONE},
    "duplicate_save": {"duplicate_save": ID},
    "by_hand": {"by_hand": ID, "paragraph": NUMBER, "cost": MapOf(WORD, IDS | NUMBER) | NONE,
                "targets": PICKS | NONE, "removes": WORD | NONE, "save": ID | NONE, "cancel": FLAG | NONE,
                "gate": NUMBER | NONE},
    "tool": TOOL_FIELDS,
}
"""The keys each command takes and the type of each value (scenario-format.md, "Commands"; the
by-hand commands of engine/manual.py). Values of the right type can still be illegal: the
decision's checker says so."""


def check_fields(answer: dict, fields: dict[str, Shape], what: str) -> None:
    """``Refused`` naming the first key that ``fields`` does not list, or the first value of the wrong
    type; nothing else is read."""
    for key, value in answer.items():
        shape = fields.get(key) if isinstance(key, str) else None
        if shape is None:
            raise Refused(f"{what}: unknown key {shown(key)}; {what} takes "
                          f"{', '.join(k for k in fields if k != what) or 'no other key'}")
        problem = shape.problem(value, key)
        if problem:
            raise Refused(problem if key == what else f"{what}: {problem}")


def check_shape(answer: Any) -> str:
    """The command of a well-formed answer: a mapping whose keys the command takes, each value of the
    type it needs (ids are whole numbers, lists are lists...). Anything else is ``Refused`` with a
    message naming the key, so no rule ever reads an ill-typed answer. Returns the command."""
    if not isinstance(answer, dict) or not answer:
        raise Refused("an answer is a command such as {'pass': true}")
    cmd = command_of(answer)
    check_fields(answer, ANSWER_FIELDS[cmd], cmd)
    return cmd


@dataclass
class Decision:
    """A question to one player.

    ``options`` lists legal answers where they can be listed (a computer player
    picks among them); selections give ``choices`` (eligible ids) with
    ``min_count``/``max_count``. ``can_pass`` says whether passing is allowed.
    """

    kind: str
    player: str
    prompt: str
    options: list[dict] = field(default_factory=list)
    choices: list[Any] = field(default_factory=list)
    min_count: int = 0
    max_count: int = 0
    can_pass: bool = False
    context: dict = field(default_factory=dict)
    checker: Callable[[dict], dict] | None = field(default=None, repr=False, compare=False)
    refresh: Callable[[], None] | None = field(default=None, repr=False, compare=False)
    """Recomputes ``options`` after a free move (advise mode) changed the table."""

    @property
    def commands(self) -> tuple[str, ...]:
        return COMMANDS_FOR_KIND[self.kind]

    @property
    def only_pass(self) -> bool:
        """True when passing is the only legal answer (the engine may skip such prompts)."""
        return self.only_pass_or_untimed and not self.context.get("by_hand_untimed")

    @property
    def only_pass_or_untimed(self) -> bool:
        """True when passing is the only legal answer but for uses by hand whose timing could not be read
        (``engine.manual.split_untimed``): offered in every window, they do not make the table stop."""
        return self.can_pass and not self.options and not self.choices and not self.context.get("by_hand")

    def accepts_command(self, answer: dict) -> bool:
        try:
            cmd = command_of(answer)
        except (Refused, TypeError):
            return False
        if cmd in ("pass", "done"):
            return self.can_pass and cmd in self.commands
        return cmd in self.commands

    def check(self, answer: Any) -> dict:
        """The answer normalised, or ``Refused`` saying why it is not legal now."""
        cmd = check_shape(answer)
        if cmd not in self.commands:
            ways = [COMMAND_WORDS.get(c, c) for c in self.commands if c != "done"]
            raise Refused(f"{self.player} is asked: {self.prompt}. That is not a way to answer it; "
                          f"{self.player} can {' or '.join(dict.fromkeys(ways))}")
        if cmd in ("pass", "done"):
            if not self.can_pass:
                raise Refused(f"{self.player} cannot pass here: {self.prompt}")
            return {"pass": True}
        if self.checker is None:
            if answer in self.options:
                return answer
            raise Refused(f"not a legal answer to: {self.prompt}")
        return self.checker(answer)

    def describe(self) -> str:
        opts = f", {len(self.options)} options" if self.options else ""
        return f"{self.kind} of {self.player}: {self.prompt}{opts}"


def selection_checker(g, eligible: list, lo: int, hi: int, what: str, rule: str = "COS-14"):
    """A checker for ``{choose: [...]}`` answers: distinct, eligible, between lo and hi of them.
    ``rule``: the id of the rule that makes the choice (a refusal names it)."""

    allowed = set(eligible)

    def check(answer: dict) -> dict:
        picks = answer.get("choose")
        if not isinstance(picks, list):
            raise Refused(f"choose takes a list ({rule})")
        if len(set(map(str, picks))) != len(picks):
            raise Refused(f"choose each card only once ({'CHL-15' if rule == 'CHL-14' else rule})")
        for pick in picks:
            if pick not in allowed:
                label = g.name(pick) if isinstance(pick, int) and pick in g.state.cards else pick
                raise Refused(f"{label} cannot be chosen: choose {what} ({rule})")
        if not lo <= len(picks) <= hi:
            need = str(lo) if lo == hi else f"{lo} to {hi}"
            raise Refused(f"choose {need}, not {len(picks)} ({rule})")
        return {"choose": list(picks)}

    return check


@dataclass
class GameOver:
    """The game has ended: ``winner`` is a player's name or ``draw``."""

    winner: str
    reason: str


class GameEnded(Exception):
    """Raised inside the rules the moment a player wins or the game is drawn (WIN-01); ``engine.game``
    turns it into a ``GameOver``."""
