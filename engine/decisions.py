"""Decisions: what the engine asks, of whom, and which answers are legal.

The engine never waits on a person. Rules code yields a ``Decision``; whoever
drives the game (the table, a computer player, a scenario file, a test) sends
an answer, a plain dict such as ``{"marshal": 12}`` or ``{"pass": True}``.
``Decision.check`` either returns the answer normalised or raises ``Refused``
with a reason a player can act on; a refused answer changes nothing.

Card references in answers are card instance ids; players are names.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

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
        if key in COMMANDS:
            return key
    raise Refused(f"not a command: {sorted(answer)}; expected one of {', '.join(COMMANDS)}")


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
        """True when passing is the only legal answer (the table may skip such prompts)."""
        return self.can_pass and not self.options and not self.choices and not self.context.get("by_hand")

    def accepts_command(self, answer: dict) -> bool:
        try:
            cmd = command_of(answer)
        except Refused:
            return False
        if cmd in ("pass", "done"):
            return self.can_pass and cmd in self.commands
        return cmd in self.commands

    def check(self, answer: Any) -> dict:
        """The answer normalised, or ``Refused`` saying why it is not legal now."""
        if not isinstance(answer, dict) or not answer:
            raise Refused("an answer is a command such as {'pass': true}")
        cmd = command_of(answer)
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


def selection_checker(g, eligible: list, lo: int, hi: int, what: str):
    """A checker for ``{choose: [...]}`` answers: distinct, eligible, between lo and hi of them."""

    def check(answer: dict) -> dict:
        picks = answer.get("choose")
        if not isinstance(picks, list):
            raise Refused("choose takes a list")
        if len(set(map(str, picks))) != len(picks):
            raise Refused("choose each card only once (CHL-15)")
        for pick in picks:
            if pick not in eligible:
                label = g.name(pick) if isinstance(pick, int) and pick in g.state.cards else pick
                raise Refused(f"{label} cannot be chosen: choose {what}")
        if not lo <= len(picks) <= hi:
            need = str(lo) if lo == hi else f"{lo} to {hi}"
            raise Refused(f"choose {need}, not {len(picks)}")
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
