"""Replays and saved games: a game is its start (``Game.setup_spec``) plus its answers (``Game.history``).

>>> from engine.builder import practice_game
>>> from engine.replay import replay, save_game, load_game
>>> game = practice_game(seed=3)                          # doctest: +SKIP
>>> ...  # answer some decisions
>>> replay(game).state.digest() == game.state.digest()    # doctest: +SKIP
True
>>> data = save_game(game)          # plain JSON-able data  # doctest: +SKIP
>>> again = load_game(data, game.pool)                    # doctest: +SKIP

The engine is deterministic: the state's random generator is seeded from the
setup, and every answer that changed the state is in ``Game.history`` (refused
answers never are; advise mode's free moves are, as ``{"free": move}``, and are
applied again as free moves). So rebuilding the start and answering the same way again
reaches the same state, checked with ``GameState.digest()``.

Two kinds of start are known:

- ``new_game`` (and ``practice_game``): ``{"decks": {player: {"house", "plots",
  "cards", "agenda", "house_card", "titles" (when any)}}, "seed", "ruleset", "prompt_all", "mode"}``
  with cards named by key. Seat order is the order of ``decks``; a save also
  lists it under ``seats`` so a JSON writer that sorts keys cannot change it.
- a scenario file: ``{"scenario": path}``. The file is loaded again with the
  game's options; a relative path is relative to the working directory of the
  run that saved it, and the file must not have changed since.

A save holds the keys of the card definitions the game used, not the
definitions: loading needs a card pool with every one of those keys and the
same definitions (for now a save requires the same card pool). A save made
from a scenario reads its cards from the scenario file again.
"""
from __future__ import annotations

import copy
from typing import Any, Mapping

from engine.advise import free_move
from engine.builder import DeckSpec, new_game
from engine.decisions import GameOver, Refused
from engine.game import Game, Options
from engine.save_schema import SaveShapeError, check_save
from engine.scenario import ScenarioError, load_scenario

SAVE_FORMAT = "maester-save"
SAVE_VERSION = 1


class ReplayError(Exception):
    """A game cannot be rebuilt: no setup, unknown cards, a refused answer, another outcome."""


# ---------------------------------------------------------------------------
# Rebuilding
# ---------------------------------------------------------------------------

def _options_of(spec: Mapping, fallback: Options | None) -> Options:
    base = fallback or Options()
    return Options(prompt_all=bool(spec.get("prompt_all", base.prompt_all)),
                   mode=str(spec.get("mode", base.mode)))


def _card(pool: Any, key: str) -> Any:
    d = pool.get(key) if pool is not None else None
    if d is None:
        raise ReplayError(f"card {key!r} is not in the card pool: a saved game needs the card pool it was "
                          f"played with")
    return d


def start_from_spec(spec: Mapping, pool: Any, options: Options | None = None) -> Game:
    """A fresh game (no answers given yet) from a ``setup_spec``.

    ``pool`` maps card keys to definitions (a dict or a ``cards.model.CardPool``);
    scenario starts read their cards from the file and ignore it. ``options``
    fills in what the spec does not record (a scenario's options, old specs).
    """
    if not isinstance(spec, Mapping):
        raise ReplayError("this game has no setup_spec, so it cannot be replayed (was it built by hand?)")
    if "scenario" in spec:
        try:
            return load_scenario(spec["scenario"], _options_of(spec, options)).game
        except ScenarioError as err:
            raise ReplayError(f"its scenario does not load: step {err.step}: {err.reason}") from None
    if "decks" in spec:
        decks_spec = spec["decks"]
        seats = list(spec.get("seats") or decks_spec)
        if sorted(seats) != sorted(decks_spec):
            raise ReplayError(f"seats {seats} do not match the decks of {sorted(decks_spec)}")
        decks = {}
        for name in seats:
            ds = decks_spec[name]
            decks[name] = DeckSpec(
                house=ds["house"],
                plots=[_card(pool, k) for k in ds["plots"]],
                cards=[_card(pool, k) for k in ds["cards"]],
                agenda=_card(pool, ds["agenda"]) if ds.get("agenda") else None,
                house_card=_card(pool, ds["house_card"]) if ds.get("house_card") else None,
                titles=[_card(pool, k) for k in ds.get("titles", [])])
        return new_game(decks, seed=spec.get("seed", 0), ruleset=spec.get("ruleset", "lcg"),
                        options=_options_of(spec, options))
    raise ReplayError(f"unknown kind of setup_spec (keys {sorted(spec)}): expected 'decks' or 'scenario'")


def apply_history(game: Game, history: list) -> Game:
    """Answer ``game``'s decisions with ``history`` ((player, answer) pairs), in order.
    Advise mode's free moves (``{"free": move}``) are applied as free moves again, a concession
    (``{"concede": True}``, ``Game.concede``) is made again."""
    for i, (player, answer) in enumerate(history, start=1):
        pending = game.advance()
        if isinstance(pending, GameOver):
            raise ReplayError(f"answer {i} of {len(history)} ({player}: {answer}) has no decision to answer: "
                              f"the game already ended ({pending.winner})")
        try:
            if isinstance(answer, Mapping) and set(answer) == {"free"}:
                free_move(game, player, copy.deepcopy(dict(answer["free"])))
            elif isinstance(answer, Mapping) and set(answer) == {"concede"}:
                game.concede(player)
            else:
                game.answer(player, copy.deepcopy(answer))
        except Refused as err:
            raise ReplayError(f"answer {i} of {len(history)} ({player}: {answer}) was refused: {err}") from None
    return game


def replay(game: Game, history: list | None = None) -> Game:
    """A new game rebuilt from ``game.setup_spec`` and ``game.pool``, with ``game.history``
    (or ``history``) answered again. Its ``state.digest()`` equals the original's."""
    fresh = start_from_spec(game.setup_spec, game.pool, game.options)
    return apply_history(fresh, list(game.history if history is None else history))


# ---------------------------------------------------------------------------
# Saves: plain JSON-able data
# ---------------------------------------------------------------------------

def save_game(game: Game) -> dict:
    """Everything needed to load ``game`` again, as plain data ``json.dumps`` accepts:
    the setup, the answers, the keys of the card definitions and the final digest."""
    if not isinstance(game.setup_spec, Mapping):
        raise ReplayError("this game has no setup_spec, so it cannot be saved (was it built by hand?)")
    setup = copy.deepcopy(dict(game.setup_spec))
    if "decks" in setup:
        setup["seats"] = list(game.state.player_names)
    return {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "setup": setup,
        "options": {"prompt_all": game.options.prompt_all, "mode": game.options.mode},
        "cards": sorted(game.pool),
        "history": [[player, _encode(answer)] for player, answer in game.history],
        "decisions": len(game.history),
        "digest": game.state.digest(),
    }


def load_game(data: Mapping, pool: Any = None, *, verify: bool = True) -> Game:
    """The game saved in ``data``, replayed. ``pool`` maps card keys to definitions (a dict
    or a ``CardPool``); it must hold every key the save lists, with the same definitions
    (scenario saves read their cards from the file). With ``verify`` the replayed state
    must have the saved digest, else ``ReplayError``."""
    if not isinstance(data, Mapping) or data.get("format") != SAVE_FORMAT:
        raise ReplayError(f"not a Maester save (format should be {SAVE_FORMAT!r})")
    if data.get("version") != SAVE_VERSION:
        raise ReplayError(f"save version {data.get('version')!r} is not supported; this Maester reads "
                          f"version {SAVE_VERSION}")
    try:
        check_save(data)  # every type checked before any is used
    except SaveShapeError as err:
        raise ReplayError(str(err)) from None
    setup = data["setup"]
    if "decks" in setup:
        missing = [k for k in data.get("cards", []) if pool is None or pool.get(k) is None]
        if missing:
            shown = ", ".join(missing[:8]) + (f" and {len(missing) - 8} more" if len(missing) > 8 else "")
            raise ReplayError(f"the card pool lacks {len(missing)} card(s) this save needs: {shown}")
    opts = data.get("options") or {}
    game = start_from_spec(setup, pool, Options(prompt_all=bool(opts.get("prompt_all", True)),
                                                mode=str(opts.get("mode", "enforce"))))
    history = [(player, _decode(answer)) for player, answer in data.get("history", [])]
    apply_history(game, history)
    if verify and data.get("digest") and game.state.digest() != data["digest"]:
        raise ReplayError("the replayed game differs from the saved one (different digest): the card pool "
                          "or the engine has changed since it was saved")
    return game


# Answers are dicts of ints, strings, bools, lists and a few mappings keyed by card id
# (stealth, setup attachments). JSON keys are strings, so such mappings are saved as
# {"__map__": [[key, value], ...]} and restored with their keys' types.

def _encode(value: Any) -> Any:
    if isinstance(value, dict):
        if all(isinstance(k, str) for k in value):
            return {k: _encode(v) for k, v in value.items()}
        return {"__map__": [[_encode(k), _encode(v)] for k, v in value.items()]}
    if isinstance(value, (list, tuple)):
        return [_encode(v) for v in value]
    return value


def _decode(value: Any) -> Any:
    if isinstance(value, dict):
        if set(value) == {"__map__"}:
            return {_decode(k): _decode(v) for k, v in value["__map__"]}
        return {k: _decode(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_decode(v) for v in value]
    return value
