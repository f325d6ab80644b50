"""The shape of a save (``engine.replay.save_game``), checked before any of it is used.

``check_save(data)`` looks at every type a loader relies on (a mapping where a
mapping is meant, a list of ``[player, answer]`` pairs, 2 to 4 decks of card
keys, answers that decode) and raises ``SaveShapeError`` with one sentence naming
the part that is wrong. It never builds a game; ``load_game`` and the table's
``app.session.read_save`` call it first, so a damaged save is one clear message
and never a ``TypeError`` from deep inside the engine.
"""
from __future__ import annotations

from typing import Any, Mapping

from engine.decisions import name_problem
from engine.wording import article



class SaveShapeError(ValueError):
    """A save whose parts do not have the types a save has (``engine.replay`` turns it into ``ReplayError``)."""


ReplayError = SaveShapeError  # the name used below

MAX_PLAYERS = 4
MAX_DECK_CARDS = 2000
MAX_PLOTS = 100
MAX_ANSWERS = 1_000_000
RULESETS = ("lcg", "ccg-winter")
MODES = ("enforce", "advise")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _name(value: Any) -> bool:
    return name_problem(value) is None


def _keys(value: Any, most: int) -> bool:
    return isinstance(value, list) and len(value) <= most and all(isinstance(k, str) and k for k in value)


def check_answer(value: Any) -> str | None:
    """What is wrong with an encoded answer (``{"__map__": [[key, value], ...]}`` for mappings whose
    keys are not text), or None when it decodes."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            if set(v) == {"__map__"}:
                pairs = v["__map__"]
                if not isinstance(pairs, list) or not all(isinstance(p, list) and len(p) == 2 for p in pairs):
                    return "a '__map__' is not a list of [key, value] pairs"
                for key, item in pairs:
                    if not (key is None or isinstance(key, (str, int, float))):
                        return "a '__map__' key is not a plain value"
                    stack.append(item)
            else:
                stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
        elif not (v is None or isinstance(v, (str, int, float, bool))):
            return f"it holds {article(type(v).__name__)}"
    return None


def check_setup(setup: Any) -> None:
    """The setup (``setup_spec``) of a save: a deck game or a scenario game."""
    if not isinstance(setup, Mapping):
        raise ReplayError("it has no setup (how the game started)")
    if "decks" not in setup and "scenario" not in setup:
        raise ReplayError("its setup has neither decks nor a scenario")
    for key, check, what in (("seed", lambda v: v is None or _is_int(v), "a whole number"), ("prompt_all", lambda v: isinstance(v, bool), "true or false"),
                             ("ruleset", lambda v: v in RULESETS, f"one of {', '.join(RULESETS)}"),
                             ("mode", lambda v: v in MODES, f"one of {', '.join(MODES)}")):
        if key in setup and not check(setup[key]):
            raise ReplayError(f"its setup's {key} is not {what}")
    if _is_int(setup.get("seed")) and abs(setup["seed"]) >= 2 ** 64:
        raise ReplayError("its setup's seed is too large")
    if "scenario" in setup:
        if not isinstance(setup["scenario"], str) or not setup["scenario"].strip():
            raise ReplayError("its setup's scenario is not a file name")
        return
    decks = setup["decks"]
    if not isinstance(decks, Mapping) or not 2 <= len(decks) <= MAX_PLAYERS:
        raise ReplayError(f"its setup's decks are not a mapping of 2 to {MAX_PLAYERS} players")
    for name, deck in decks.items():
        if not _name(name):
            raise ReplayError(f"its setup names a player it cannot seat: {name_problem(name)}")
        if not isinstance(deck, Mapping):
            raise ReplayError(f"the deck of {name!r} is not a mapping")
        if not isinstance(deck.get("house"), str):
            raise ReplayError(f"the deck of {name!r} has no house")
        if not _keys(deck.get("plots"), MAX_PLOTS):
            raise ReplayError(f"the deck of {name!r}: its plots are not a list of card keys (at most {MAX_PLOTS})")
        if not _keys(deck.get("cards"), MAX_DECK_CARDS):
            raise ReplayError(f"the deck of {name!r}: its cards are not a list of card keys "
                              f"(at most {MAX_DECK_CARDS})")
        if "titles" in deck and not _keys(deck["titles"], MAX_PLOTS):
            raise ReplayError(f"the deck of {name!r}: its titles are not a list of card keys (at most {MAX_PLOTS})")
        for key in ("agenda", "house_card"):
            if deck.get(key) is not None and not (isinstance(deck[key], str) and deck[key]):
                raise ReplayError(f"the deck of {name!r}: its {key} is not a card key")
    seats = setup.get("seats")
    if seats is not None and (not isinstance(seats, list) or not all(isinstance(s, str) for s in seats)
                              or sorted(seats) != sorted(decks)):
        raise ReplayError("its setup's seats do not match its decks")


def check_save(data: Any) -> None:
    """Raise ``SaveShapeError`` (one sentence) unless ``data`` has the shape of a save. The format and
    version are the caller's to check (their messages differ)."""
    if not isinstance(data, Mapping):
        raise ReplayError("it is not a mapping")
    check_setup(data.get("setup"))
    history = data.get("history", [])
    if not isinstance(history, list) or len(history) > MAX_ANSWERS or not all(
            isinstance(e, list) and len(e) == 2 and isinstance(e[0], str) and isinstance(e[1], dict)
            for e in history):
        raise ReplayError("its answers are not a list of [player, answer] pairs")
    for i, (_player, answer) in enumerate(history, start=1):
        problem = check_answer(answer)
        if problem:
            raise ReplayError(f"answer {i} cannot be read: {problem}")
    options = data.get("options")
    if options is not None and not isinstance(options, Mapping):
        raise ReplayError("its options are not a mapping")
    if isinstance(options, Mapping):
        if "mode" in options and options["mode"] not in MODES:
            raise ReplayError(f"its options' mode is not one of {', '.join(MODES)}")
    cards = data.get("cards")
    if cards is not None and not (isinstance(cards, list) and all(isinstance(k, str) for k in cards)):
        raise ReplayError("its card list is not a list of card keys")
    digest = data.get("digest")
    if digest is not None and not isinstance(digest, str):
        raise ReplayError("its digest is not text")
