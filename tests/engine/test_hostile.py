"""Hostile answers and hostile free moves: only ``Refused`` is ever raised, and a refusal changes nothing.

``test_fuzz.py`` plays random games with a little mischief (well-formed but illegal answers). Here
every decision of a stretch of each game is also sent answers that are wrong in every way an
answer can be: not a mapping, unknown keys, values of every type (None, text, floats, NaN,
10**5000 and its negative, nested lists, mappings keyed by anything, tuples, bytes, sets), ids
of cards that do not exist or that another player holds hidden, commands of another decision
kind, legal options with one field broken, answers from the wrong seat; in advise mode the same
for free moves (``engine.advise.free_move``) and concessions.

Each game (practice decks with 2-4 players, and Core Set decks when ``../shared`` has the card
data; both rulesets; enforce and advise mode; both prompt modes) is played legally by random
players to a random point, then ``WINDOW`` decisions are answered with hostile answers first.
After EVERY refusal: the exception is ``Refused`` with a short message, ``state.digest()`` is
what it was, the decision is still pending, the history did not grow, and ``check_invariants``
finds nothing. Every game must replay to the same digest. ``MAESTER_HOSTILE_GAMES`` sets the
number of games (default 100); ``test_hostile_totals`` prints the counts with ``-s``.
"""
from __future__ import annotations

import importlib.util
import math
import os
import random
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.advise import MOVE_FIELDS, free_move
from engine.builder import new_game, practice_decks, practice_game
from engine.decisions import (ANSWER_FIELDS, COMMANDS, COMMANDS_FOR_KIND, Decision, GameOver, Refused,
                              check_shape, shown)
from engine.game import Game, Options
from engine.invariants import check_invariants
from engine.manual import TOOLS
from engine.players import RandomPlayer
from engine.replay import replay
from engine.visibility import may_see, visible_cards

ROOT = Path(__file__).resolve().parents[2]
LCG_JSON = ROOT.parent / "shared" / "data" / "agot1-lcg-cards.json"
NAMES = ("alice", "bob", "carol", "dave")
GAMES = int(os.environ.get("MAESTER_HOSTILE_GAMES", "100"))
WINDOW = 12           # decisions per game answered with hostile answers first
SKIP = 150            # legal decisions before the window: 0 to this many
HOSTILE_PER_DECISION = (1, 3)
TOTALS: dict[str, object] = {"games": 0, "decisions": 0, "hostile": 0, "refused": 0, "accepted": 0,
                             "free_moves": 0, "signatures": set(), "messages": set(), "core_games": 0,
                             "configs": set(), "hidden_named": 0}
HUGE = 10 ** 5000

ANSWER_KEYS = sorted({k for fields in ANSWER_FIELDS.values() for k in fields})
MOVE_KEYS = sorted({k for fields in MOVE_FIELDS.values() for k in fields})


# ---------------------------------------------------------------------------
# Hostile values
# ---------------------------------------------------------------------------

def _deep(n: int):
    v: object = []
    for _ in range(n):
        v = [v]
    return v


def hidden_cards(game: Game, seat: str) -> list[int]:
    """Cards ``seat`` may not see: other players' hands, decks and plot decks, facedown cards."""
    out = []
    for p in game.state.players:
        if p.name != seat:
            out += p.hand + p.deck + p.plot_deck
    return out + [cid for cid, c in game.state.cards.items() if c.facedown]


def junk(rng: random.Random, game: Game, seat: str, depth: int = 0):
    """Any value at all, mostly of a type no answer takes."""
    cards = list(game.state.cards)
    hidden = hidden_cards(game, seat) or cards
    pick = rng.randrange(34)
    if pick == 0 and depth < 2:
        return [junk(rng, game, seat, depth + 1) for _ in range(rng.randint(0, 3))]
    if pick == 1 and depth < 2:
        return {rng.choice([None, 7, -1, HUGE, 1.5, math.nan, True, "x", (1, 2), b"x", frozenset(),
                            rng.choice(ANSWER_KEYS), rng.choice(cards), rng.choice(hidden)]):
                junk(rng, game, seat, depth + 1) for _ in range(rng.randint(0, 3))}
    return [None, "", "x", "nobody", "military", "alice", HUGE, -HUGE, -1, 0, 2 ** 63, -2 ** 31, 10 ** 7,
            1.5, 2.0, math.nan, math.inf, -0.0, True, False, [], {}, [[1]], [None], (1, 2), b"x", {1, 2},
            frozenset(), "a" * 5000, "\x1b[2J", _deep(60), rng.choice(cards), rng.choice(hidden),
            [rng.choice(hidden)]][pick - 2 if pick >= 2 else pick]


def some_id(rng: random.Random, game: Game, seat: str) -> int:
    r = rng.random()
    if r < 0.45:
        return rng.choice(hidden_cards(game, seat) or list(game.state.cards))
    if r < 0.9:
        return rng.choice(list(game.state.cards))
    return rng.choice([0, max(game.state.cards) + 1, 10 ** 6, 2 ** 31 - 1])


def some_name(rng: random.Random, game: Game) -> str:
    return rng.choice(list(game.state.player_names) + ["nobody", "", "draw"])


def typed(rng: random.Random, game: Game, seat: str, key: str):
    """A value of the type ``key`` takes (ids of any card, hidden ones too): legal or not is for
    the rules to say."""
    ids = lambda: [some_id(rng, game, seat) for _ in range(rng.randint(0, 3))]  # noqa: E731
    words = ["military", "intrigue", "power", "dead", "discard", "hand", "deck", "in_play", "attached",
             "phase", "round", "challenge", "kill", "draw", "gold", "insight", "token", "", "ZZZ"]
    return {
        "setup": ids, "attackers": ids, "defend": ids, "order": ids, "pay": ids,
        "choose": lambda: [rng.choice([some_id(rng, game, seat), rng.choice(words), some_name(rng, game)])
                           for _ in range(rng.randint(0, 3))],
        "targets": lambda: [rng.choice([some_id(rng, game, seat), some_name(rng, game)])
                            for _ in range(rng.randint(0, 3))],
        "attach": lambda: {some_id(rng, game, seat): some_id(rng, game, seat) for _ in range(rng.randint(0, 2))},
        "stealth": lambda: {some_id(rng, game, seat): some_id(rng, game, seat) for _ in range(rng.randint(0, 2))},
        "duplicates": lambda: {some_id(rng, game, seat): some_id(rng, game, seat)},
        "first_player": lambda: some_name(rng, game), "against": lambda: some_name(rng, game),
        "player": lambda: some_name(rng, game), "controller": lambda: some_name(rng, game),
        "gold": lambda: some_name(rng, game), "draw": lambda: some_name(rng, game),
        "shuffle": lambda: some_name(rng, game),
        "challenge": lambda: rng.choice(words[:3] + ["diplomacy"]),
        "tool": lambda: rng.choice(sorted(TOOLS) + ["teleport"]),
        "to": lambda: rng.choice(words + [some_id(rng, game, seat)]),
        "removes": lambda: rng.choice(["kill", "discard", "return_to_hand", "return_to_deck", "explode"]),
        "until": lambda: rng.choice(["phase", "round", "challenge", "in_play", "forever"]),
        "name": lambda: rng.choice(["gold", "token", ""]), "text": lambda: rng.choice(["hi", "", "x" * 300]),
        "cost": lambda: {rng.choice(["kneel", "gold", "pay", "discard", "kill", "power", "bribe"]):
                         rng.choice([ids(), rng.randint(-2, 5)])},
        "add_icons": lambda: [rng.choice(words)], "remove_icons": lambda: [rng.choice(words)],
        "add_keywords": lambda: [rng.choice(words)], "remove_keywords": lambda: [rng.choice(words)],
        "pass": lambda: True, "done": lambda: True, "resolve": lambda: True,
        "duplicate": lambda: rng.random() < 0.5, "bottom": lambda: rng.random() < 0.5,
        "blank": lambda: rng.random() < 0.5, "cancel": lambda: rng.random() < 0.5,
        "top": lambda: rng.random() < 0.5,
    }.get(key, lambda: rng.choice([some_id(rng, game, seat), rng.randint(-3, 12), 10 ** 6, -10 ** 6]))()


def typed_answer(rng: random.Random, game: Game, seat: str, cmd: str) -> dict:
    fields = ANSWER_FIELDS.get(cmd) or MOVE_FIELDS[cmd]
    out = {cmd: typed(rng, game, seat, cmd)}
    for key in rng.sample(sorted(fields), rng.randint(0, len(fields))):
        if key != cmd:
            out[key] = typed(rng, game, seat, key)
    return out


def hostile_answer(rng: random.Random, game: Game, d: Decision, legal: list[dict]):
    """One hostile answer to ``d`` (``legal``: answers the random player would give)."""
    seat = d.player
    r = rng.random()
    if r < 0.05:
        return junk(rng, game, seat)                              # not even a mapping
    if r < 0.35 and legal:                                        # a legal answer with a field broken
        answer = dict(rng.choice(legal))
        key = rng.choice(sorted(answer) + ANSWER_KEYS)
        answer[key] = junk(rng, game, seat) if rng.random() < 0.6 else typed(rng, game, seat, key)
        return answer
    if r < 0.65:                                                  # well typed, any command, any ids
        mine = [c for c in d.commands if c not in ("pass", "done")] or list(d.commands)
        cmd = rng.choice(mine) if rng.random() < 0.6 else rng.choice(COMMANDS)  # wrong kind too
        return typed_answer(rng, game, seat, cmd)
    answer = {rng.choice(list(d.commands) + ANSWER_KEYS + ["bogus"]): junk(rng, game, seat)}
    for _ in range(rng.randint(0, 3)):                            # junk anywhere
        answer[rng.choice(ANSWER_KEYS + ["bogus", 7, None])] = junk(rng, game, seat)
    return answer


def hostile_move(rng: random.Random, game: Game, seat: str):
    r = rng.random()
    if r < 0.05:
        return junk(rng, game, seat)
    kind = rng.choice(sorted(MOVE_FIELDS))
    move = typed_answer(rng, game, seat, kind)
    if kind == "tool" and rng.random() < 0.8:
        tool = TOOLS[move["tool"]] if move["tool"] in TOOLS else None
        if tool is not None:  # the tool's own keys, mostly
            move = {"tool": tool.name, **{k: typed(rng, game, seat, k) for k in tool.keys if k != "tool"
                                          and rng.random() < 0.8}}
    if rng.random() < 0.5:
        move[rng.choice(sorted(move) + MOVE_KEYS + ["bogus"])] = junk(rng, game, seat)
    return move


def signature(value, depth: int = 0) -> str:
    """The shape of a value: its types (huge and negative numbers apart), keys named."""
    if depth > 3:
        return "..."
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):
        return "hugeint" if abs(value) > 2 ** 31 else "negint" if value < 0 else "int"
    if isinstance(value, float):
        return "nan" if value != value else "float"
    if isinstance(value, str):
        return "longstr" if len(value) > 200 else "str" if value.isprintable() else "ctrlstr"
    if isinstance(value, list):
        return "[" + "|".join(sorted({signature(v, depth + 1) for v in value})) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(sorted(f"{k if isinstance(k, str) and len(k) < 20 else signature(k, 9)}:"
                                     f"{signature(v, depth + 1)}" for k, v in value.items())) + "}"
    return type(value).__name__


# ---------------------------------------------------------------------------
# Games
# ---------------------------------------------------------------------------

def _bench():
    name = "bench_lcg_games"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / "bench_lcg_games.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


_POOL: list = []


def _core_pool():
    if not _POOL:
        from cards.pool import load_pool

        _POOL.append(load_pool(LCG_JSON) if LCG_JSON.is_file() else None)
    return _POOL[0]


def make_game(seed: int) -> tuple[Game, str]:
    """Game ``seed`` of the run: seat count, ruleset, mode, prompt mode and decks vary with the seed."""
    rng = random.Random(f"config/{seed}")
    n = rng.choice((2, 2, 3, 4))
    ruleset = rng.choice(("lcg", "ccg-winter"))
    mode = "advise" if rng.random() < 0.4 else "enforce"
    options = Options(prompt_all=rng.random() < 0.5, mode=mode)
    pool = _core_pool() if seed % 8 == 3 else None
    if pool is not None:
        bench = _bench()
        houses = rng.choice(bench.MATCHUPS) + rng.choice(bench.MATCHUPS)
        decks = bench.matchup_decks(pool, houses[:n], seed, NAMES[:n])
        game = new_game(decks, seed=seed, ruleset=ruleset, options=options)
        label = f"core {houses[:n]}"
    else:
        game = practice_game(seed=seed, players=NAMES[:n], ruleset=ruleset, options=options)
        label = "practice"
    assert practice_decks()
    return game, f"seed {seed}: {label}, {n} players, {ruleset}, {mode}, prompt_all {options.prompt_all}"


def _ids_in(game: Game, value) -> set[int]:
    found: set[int] = set()

    def walk(v, depth=0):
        if isinstance(v, bool) or depth > 4:
            return
        if isinstance(v, int) and v in game.state.cards:
            found.add(v)
        elif isinstance(v, (list, tuple)):
            for x in v:
                walk(x, depth + 1)
        elif isinstance(v, dict):
            for k, x in v.items():
                walk(k, depth + 1)
                walk(x, depth + 1)

    walk(value)
    return found


def leaked_titles(game: Game, seat: str, answer, message: str) -> list[str]:
    """Titles of cards the answer names that ``seat`` may not see, found in the refusal's message (a title
    the seat can see on another card is no secret)."""
    ids = _ids_in(game, answer)
    seen = {game.name(c) for c in visible_cards(game, seat)}
    return [game.name(c) for c in ids if not may_see(game, seat, c) and game.name(c) not in seen
            and game.name(c) in message]


def _refusal_changes_nothing(game: Game, d: Decision, digest: str, history: int, call, what, label: str,
                             seat: str | None = None):
    """Send one hostile answer (or move); if refused, check that nothing changed. True if accepted."""
    try:
        call()
    except Refused as err:
        message = str(err)
        assert message and len(message) < 1000, f"{label}: refusal message {message[:200]!r}..."
        if seat is not None:
            leaked = leaked_titles(game, seat, what, message)
            assert not leaked, f"{label}: refusing {shown(what)} named hidden cards {leaked}: {message}"
            TOTALS["hidden_named"] += any(not may_see(game, seat, c) for c in _ids_in(game, what))
        TOTALS["refused"] += 1
        TOTALS["messages"].add(message.split(":")[0][:40])
        assert game.advance() is d, f"{label}: a refused {shown(what)} closed the decision"
        assert len(game.history) == history, f"{label}: a refused {shown(what)} entered the history"
        assert game.state.digest() == digest, f"{label}: a refused {shown(what)} changed the state"
        problems = check_invariants(game)
        assert not problems, f"{label}: invariants after refusing {shown(what)}: {problems}"
        return False
    except Exception as err:  # noqa: BLE001 - the point: nothing but Refused
        raise AssertionError(f"{label}: {shown(what, 300)} raised {type(err).__name__}: {shown(str(err), 200)} "
                             f"at {d.describe()}") from err
    TOTALS["accepted"] += 1
    return True


def hostile_game(seed: int) -> dict:
    game, label = make_game(seed)
    rng = random.Random(seed)
    players = {name: RandomPlayer(seed=seed * 31 + i) for i, name in enumerate(game.state.player_names)}
    skip = rng.randint(0, SKIP)
    decisions = hostile = 0
    while decisions < skip + WINDOW:
        d = game.advance()
        if isinstance(d, GameOver):
            break
        if decisions >= skip:
            legal = players[d.player].candidates(game, d)
            digest = game.state.digest()
            for _ in range(rng.randint(*HOSTILE_PER_DECISION)):
                d = game.advance()
                if isinstance(d, GameOver):
                    break
                history = len(game.history)
                r = rng.random()
                who = d.player if r < 0.9 else rng.choice(list(game.state.player_names) + [None, 5, HUGE, ["a"]])
                if game.options.mode == "advise" and r < 0.35:
                    move = hostile_move(rng, game, d.player)
                    what, call = {"free": move}, (lambda w=who, m=move: free_move(game, w, m))
                    TOTALS["free_moves"] += 1
                elif r < 0.02:
                    what = {"concede": junk(rng, game, d.player)}
                    call = (lambda w=what["concede"]: game.concede(w))
                else:
                    what = hostile_answer(rng, game, d, legal)
                    call = (lambda w=who, a=what: game.answer(w, a))
                hostile += 1
                TOTALS["signatures"].add(signature(what))
                seat = who if isinstance(who, str) and who in game.state.player_names \
                    and not (isinstance(what, dict) and "concede" in what) else None
                accepted = _refusal_changes_nothing(game, d, digest, history, call, what,
                                                    f"{label}, decision {decisions}", seat)
                if accepted:
                    problems = check_invariants(game)
                    assert not problems, f"{label}: invariants after accepting {shown(what)}: {problems}"
                    digest = game.state.digest()
                    if "free" not in what:
                        break  # that answer was legal: the decision is answered
            if not isinstance(game.advance(), GameOver) and game.advance() is d:
                players[d.player].play_turn(game)
        else:
            players[d.player].play_turn(game)
        decisions += 1
        problems = check_invariants(game)
        assert not problems, f"{label}, decision {decisions}: {problems}"
    again = replay(game)
    assert again.state.digest() == game.state.digest(), f"{label}: the replay reached another state"
    TOTALS["games"] += 1
    TOTALS["core_games"] += label.split(": ")[1].startswith("core")
    TOTALS["decisions"] += decisions
    TOTALS["hostile"] += hostile
    TOTALS["configs"].add(label.split(": ")[1])
    return {"decisions": decisions, "hostile": hostile}


@pytest.mark.parametrize("chunk", range(4))
def test_hostile_answers_are_refused_and_change_nothing(chunk):
    for seed in range(chunk, GAMES, 4):
        hostile_game(seed)


def test_hostile_totals():
    """Runs after the games above (file order)."""
    if TOTALS["games"] < GAMES:
        pytest.skip("the hostile games did not all run in this session")
    print(f"\nhostile: {TOTALS['games']} games ({TOTALS['core_games']} with Core decks, "
          f"{len(TOTALS['configs'])} configurations), {TOTALS['decisions']} decisions, "
          f"{TOTALS['hostile']} hostile answers and moves ({TOTALS['free_moves']} free moves): "
          f"{TOTALS['refused']} refused, {TOTALS['accepted']} legal after all; "
          f"{len(TOTALS['signatures'])} distinct signatures, {len(TOTALS['messages'])} kinds of refusal; "
          f"{TOTALS['hidden_named']} refusals of answers naming a hidden card, none naming it")
    assert TOTALS["games"] >= 100 or GAMES < 100
    assert TOTALS["refused"] > 5 * TOTALS["games"]
    assert len(TOTALS["signatures"]) > 200


# ---------------------------------------------------------------------------
# The shape check alone, on anything at all
# ---------------------------------------------------------------------------

def _nested(inner):
    keys = st.sampled_from(ANSWER_KEYS) | st.integers()
    return inner | st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4) | st.tuples(inner)


LEAVES = (st.none() | st.booleans() | st.integers() | st.integers(min_value=10 ** 4400, max_value=10 ** 4500)
          | st.floats() | st.text(max_size=300) | st.binary(max_size=4))
VALUES = _nested(_nested(LEAVES))
"""Any value, nested two deep (lists, mappings keyed by anything, tuples)."""


@settings(max_examples=300, deadline=None)
@given(answer=st.dictionaries(st.sampled_from(ANSWER_KEYS + ["bogus"]), VALUES, min_size=1, max_size=4) | VALUES)
def test_check_shape_refuses_or_names_the_command(answer):
    try:
        cmd = check_shape(answer)
    except Refused as err:
        assert 0 < len(str(err)) < 1000
        return
    assert cmd in COMMANDS and set(answer) <= set(ANSWER_FIELDS[cmd])


@pytest.mark.parametrize("answer,words", [
    ({"setup": [[1]]}, "setup[0]: a card id (a whole number), not the list [1]"),
    ({"marshal": [5]}, "marshal: a card id (a whole number), not the list [5]"),
    ({"marshal": 5, "x": 10 ** 5000}, "number of about 5001 digits"),
    ({"marshal": 5, "x": 1.5}, "not the number 1.5"),
    ({"marshal": True}, "True (true/false)"),
    ({"defend": [3], "bogus": 1}, "unknown key 'bogus'"),
    ({"stealth": {"a": 3}}, "a key of stealth: a card id"),
    ({"choose": [None]}, "choose[0]: a card id (a whole number) or a word, not nothing (null)"),
    ({"trigger": 3, "targets": "all"}, "trigger: targets: a list of card ids or words or nothing (null), not 'all'"),
    ({"pass": "yes"}, "pass: true, not 'yes'"),
    ({"first_player": "\x1b[2J"}, "first_player: a player's name, not '\\x1b[2J'"),
    ({1: 2, "x": 3}, "not a command"),
    ([{"pass": True}], "an answer is a command"),
])
def test_ill_typed_answers_are_refused_naming_the_key(answer, words):
    game = practice_game(seed=1)
    d = game.advance()
    before = game.state.digest()
    with pytest.raises(Refused) as err:
        game.answer(d.player, answer)
    assert words in str(err.value)
    assert game.state.digest() == before and game.advance() is d and not game.history


def test_every_decision_kind_has_its_commands_typed():
    from engine.scenario import COMMAND_KEYS

    for kind, commands in COMMANDS_FOR_KIND.items():
        for cmd in commands:
            assert cmd in ANSWER_FIELDS, f"{kind}: {cmd} has no field types"
    for cmd, keys in COMMAND_KEYS.items():  # every key a scenario may write has a type here
        assert keys <= set(ANSWER_FIELDS[cmd]), f"{cmd}: {sorted(keys - set(ANSWER_FIELDS[cmd]))} untyped"
