"""Full games with the real cards: Core Set decks from the community LCG data, under the fuzz checks.

The card data (``../shared/data/agot1-lcg-cards.json``, the ``lcg_json`` fixture; the tests
skip without it) is read with ``cards.pool.load_pool``, which adds the project's ability data
(``cards/abilities/*.yaml``). For each matchup (Stark vs Lannister, Baratheon vs Greyjoy,
Targaryen vs Martell) ``core_deck`` builds one deck per House from Core Set cards only, chosen
from a seed: the House card, 7 plots, 60 House-deck cards of the House or neutral, titles with
ability data first. The builder and the player are in ``bench/bench_lcg_games.py`` (so the
benchmark plays the same decks); this file imports them from there.

Every deck must pass ``cards.deck.check_deck`` (casual, and tournament too). Then computer
players that trigger abilities 60% of the time they are offered one (``TriggerPlayer``; a
listed option with ``trigger`` is a complete legal answer, so a refusal fails the test), with
mischief (one answer in twenty is an illegal one, which must be refused with the state
unchanged), play seeds 0, 1, 2, ... of each matchup until its CPU-time budget is spent (at
least MIN_GAMES games), alternating the two prompt modes. ``check_invariants`` runs after every
decision; every game must end with a winner within a bound; the first game of each matchup
is replayed to the same digest. ``test_lcg_totals`` prints the totals (``-s``) and asserts
that many decisions were answered and many abilities triggered.

A failure names the matchup, seed, prompt mode, decision number, the decision, the answer,
the cards involved (id, key, title) and the log tail; ``lcg_game(pool, houses, seed,
prompt_all=...)`` with ``trigger_players(names, seed, mischief=MISCHIEF)`` replays it.
"""
from __future__ import annotations

import importlib.util
import pickle
import sys
import time
import traceback
from pathlib import Path

import pytest

from cards.deck import check_deck
from cards.model import HOUSE_DECK_TYPES
from engine.decisions import Decision, GameOver, Refused
from engine.game import Game
from engine.invariants import check_invariants
from engine.replay import replay

ROOT = Path(__file__).resolve().parents[2]


def _bench_module():
    name = "bench_lcg_games"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / "bench_lcg_games.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


bench = _bench_module()
MATCHUPS = bench.MATCHUPS
core_deck, lcg_game, trigger_players = bench.core_deck, bench.lcg_game, bench.trigger_players

MISCHIEF = 0.05
MAX_DECISIONS = 20_000   # the random games here take ~100 decisions (prompts skipped) to ~1,000
MAX_ROUNDS = 60
BUDGET = 6.0             # CPU seconds per matchup, spent on seeds 0, 1, 2, ...
MIN_GAMES = 4            # ... but at least this many games (both prompt modes), however slow
MAX_GAMES = 200
DECK_SEEDS = range(8)
TOTALS: dict[tuple, dict] = {}

_pools: dict[Path, object] = {}


def _pool(path: Path):
    if path not in _pools:
        from cards.pool import load_pool

        _pools[path] = load_pool(path)
    return _pools[path]


def _ids(value) -> set[int]:
    """Integer ids anywhere in an answer or option (card ids, mostly)."""
    if isinstance(value, bool):
        return set()
    if isinstance(value, int):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_ids(k) | _ids(v) for k, v in value.items())) if value else set()
    if isinstance(value, (list, tuple, set, frozenset)):
        return set().union(*(_ids(v) for v in value)) if value else set()
    return set()


def _cards(game: Game, ids) -> list[str]:
    out = []
    for cid in sorted(ids):
        c = game.state.cards.get(cid)
        if c is not None:
            out.append(f"#{cid} {c.key} {game.defn(cid).name!r} ({c.owner}, {c.zone})")
    return out


# ---------------------------------------------------------------------------
# The decks
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("houses", MATCHUPS, ids=["-".join(h) for h in MATCHUPS])
def test_core_decks_are_legal_and_deterministic(lcg_json, houses):
    pool = _pool(lcg_json)
    for seed in DECK_SEEDS:
        for house in houses:
            deck = core_deck(pool, house, seed)
            label = f"{house} deck, seed {seed}"
            assert check_deck(deck, casual=True) == [], f"{label}: {check_deck(deck, casual=True)}"
            assert check_deck(deck) == [], f"{label} (tournament rules): {check_deck(deck)}"
            assert deck.house == house and deck.house_card is not None and deck.house_card.type == "house"
            assert deck.agenda is None
            everything = [deck.house_card, *deck.plots, *deck.cards]
            assert {c.set for c in everything} == {"Core"}, label
            assert len(deck.plots) == 7 and len({p.name for p in deck.plots}) == 7
            assert len(deck.cards) >= 60 and all(c.type in HOUSE_DECK_TYPES for c in deck.cards)
            assert all(not c.house or house in c.house for c in deck.cards), label
            titles: dict[str, int] = {}
            for c in deck.cards:
                titles[c.name] = titles.get(c.name, 0) + 1
            assert max(titles.values()) <= 3
            again = core_deck(pool, house, seed)
            assert [c.key for c in again.plots + again.cards] == [c.key for c in deck.plots + deck.cards]
    # Different seeds give different decks.
    assert len({tuple(c.key for c in core_deck(pool, houses[0], s).cards) for s in DECK_SEEDS}) > 1


# ---------------------------------------------------------------------------
# The games
# ---------------------------------------------------------------------------

def _snapshot(game: Game) -> bytes:
    return pickle.dumps((game.state, len(game.history)), protocol=pickle.HIGHEST_PROTOCOL)


def _stalled_by_the_rules(game: Game) -> bool:
    """Every deck is empty and nobody controls a character: nobody can gain power any more."""
    st = game.state
    return all(not p.deck for p in st.players) and not any(game.characters(p.name) for p in st.players)


def play_checked(game: Game, players: dict, label: str) -> dict:
    """Play ``game`` to its end: trigger-preferring answers, mischief, invariants after every
    decision. Returns counts; any problem fails the test with the details."""
    decisions = refused = triggered = 0
    triggered_keys: dict[str, int] = {}
    offered = 0

    def fail(what: str, d: Decision | None, answer=None, problems=None, exc: BaseException | None = None):
        st = game.state
        lines = [f"{label}: {what} at decision {decisions} (round {st.round}, {st.phase})"]
        ids: set[int] = set()
        if d is not None:
            lines.append(f"  decision: {d.describe()}")
            ids |= _ids(d.choices) | _ids(d.context.get("attackers", []))
        if answer is not None:
            lines.append(f"  answer: {answer}")
            ids |= _ids(answer)
        elif game.history:
            lines.append(f"  last answer: {game.history[-1]}")
            ids |= _ids(game.history[-1])
        if ids:
            lines += ["  cards involved:"] + [f"    {c}" for c in _cards(game, ids)]
        lines += [f"  - {p}" for p in problems or []]
        lines += ["  players:"] + [f"    {p.name} ({p.house}): power {game.total_power(p.name)}, gold {p.gold}, "
                                   f"deck {len(p.deck)}, hand {len(p.hand)}, in play {len(p.in_play)}, "
                                   f"discard {len(p.discard)}, dead {len(p.dead)}" for p in st.players]
        lines += ["  log tail:"] + [f"    {entry}" for entry in st.log[-10:]]
        if exc is not None:
            lines += ["  traceback:"] + ["    " + t for t in
                                         "".join(traceback.format_exception(exc)).rstrip().splitlines()]
        pytest.fail("\n".join(lines))

    while True:
        try:
            d = game.advance()
        except Exception as exc:  # noqa: BLE001 - an engine crash is the finding
            fail("the engine raised while advancing", None, exc=exc)
        if isinstance(d, GameOver):
            break
        if game.state.round > MAX_ROUNDS and _stalled_by_the_rules(game):
            break  # docs/engine.md, "A game can stall by the rules": no deck, no character, no power to gain
        if decisions >= MAX_DECISIONS or game.state.round > MAX_ROUNDS:
            fail(f"no winner within {MAX_DECISIONS} decisions / {MAX_ROUNDS} rounds", d)
        p = players[d.player]
        answered = False
        answer = None
        try:
            if p.rng.random() < MISCHIEF:
                before = _snapshot(game)
                answer = p.mischief_answer(game, d)
                try:
                    game.answer(d.player, answer)
                    answered = True   # the mischief happened to be legal
                except Refused:
                    refused += 1
                    if _snapshot(game) != before:
                        fail("a refused answer changed the state", d, answer)
                    if game.advance() is not d:
                        fail("a refused answer closed the decision", d, answer)
            if not answered:
                if any("trigger" in o for o in d.options):
                    offered += 1
                answer = p.trigger_option(d)
                if answer is not None:
                    try:
                        game.answer(d.player, answer)
                    except Refused as why:
                        fail(f"a listed trigger option was refused ({why})", d, answer)
                    answered = True
                    triggered += 1
                    key = game.state.cards[answer["trigger"]].key
                    triggered_keys[key] = triggered_keys.get(key, 0) + 1
            if not answered:
                for answer in p.candidates(game, d):
                    try:
                        game.answer(d.player, answer)
                        answered = True
                        break
                    except Refused:
                        refused += 1
                if not answered:
                    fail("the random player found no legal answer", d)
        except pytest.fail.Exception:
            raise
        except Exception as exc:  # noqa: BLE001 - an engine crash is the finding
            fail("the engine raised", d, answer, exc=exc)
        decisions += 1
        problems = check_invariants(game)
        if problems:
            fail("invariants broken", d, answer, problems)
    problems = check_invariants(game)
    if problems:
        fail("invariants broken at the end", None, None, problems)
    winner = game.state.winner
    assert winner == "draw" or winner in game.state.player_names or _stalled_by_the_rules(game), \
        f"{label}: winner {winner!r}"
    return {"decisions": decisions, "refused": refused, "triggered": triggered, "offered": offered,
            "rounds": game.state.round, "keys": triggered_keys}


@pytest.mark.parametrize("houses", MATCHUPS, ids=["-".join(h) for h in MATCHUPS])
def test_core_set_games_keep_invariants(lcg_json, houses):
    pool = _pool(lcg_json)
    started, cpu = time.perf_counter(), time.process_time()
    total = {"games": 0, "decisions": 0, "refused": 0, "triggered": 0, "offered": 0, "rounds": 0,
             "keys": {}, "winners": {}}
    for seed in range(MAX_GAMES):
        if seed >= MIN_GAMES and time.process_time() - cpu > BUDGET:
            break
        prompt_all = seed % 2 == 1
        label = f"{' vs '.join(houses)}, seed {seed}, prompt_all {prompt_all}"
        game = lcg_game(pool, houses, seed, prompt_all=prompt_all)
        counts = play_checked(game, trigger_players(game.state.player_names, seed, mischief=MISCHIEF), label)
        if seed == 0:
            again = replay(game)
            assert again.state.digest() == game.state.digest(), f"{label}: the replay reached another state"
            assert again.state.winner == game.state.winner
        total["games"] += 1
        for k in ("decisions", "refused", "triggered", "offered", "rounds"):
            total[k] += counts[k]
        for key, n in counts["keys"].items():
            total["keys"][key] = total["keys"].get(key, 0) + n
        w = game.state.winner
        side = "stalled" if w is None else "draw" if w == "draw" else dict(zip(game.state.player_names, houses))[w]
        total["winners"][side] = total["winners"].get(side, 0) + 1
    total["seconds"] = time.perf_counter() - started
    TOTALS[houses] = total
    assert total["games"] >= 1 and total["decisions"] > 0


def test_lcg_totals(lcg_json):
    """Runs after the matchups above (file order): many decisions, and abilities really used."""
    if len(TOTALS) != len(MATCHUPS):
        pytest.skip("not every matchup ran in this session")
    pool = _pool(lcg_json)
    lines = []
    for houses, t in TOTALS.items():
        top = sorted(t["keys"].items(), key=lambda kv: -kv[1])[:6]
        lines.append(f"  {' vs '.join(houses)}: {t['games']} games, {t['decisions']} decisions, "
                     f"{t['triggered']} triggers ({t['offered']} decisions offered one), {t['refused']} refused, "
                     f"{t['rounds'] / t['games']:.1f} rounds a game, {t['seconds']:.1f} s; wins {t['winners']}; "
                     f"most triggered: {', '.join(f'{pool.get(k).name} ({k}) {n}' for k, n in top) or '-'}")
    games = sum(t["games"] for t in TOTALS.values())
    decisions = sum(t["decisions"] for t in TOTALS.values())
    triggered = sum(t["triggered"] for t in TOTALS.values())
    refused = sum(t["refused"] for t in TOTALS.values())
    print(f"\nLCG Core Set games: {games} games, {decisions} decisions checked, {triggered} abilities "
          f"triggered, {refused} answers refused\n" + "\n".join(lines))
    assert games >= MIN_GAMES * len(MATCHUPS)
    assert decisions > 5_000
    assert refused > 100
    assert triggered > 100
    for houses, t in TOTALS.items():
        assert t["triggered"] >= 10, f"{' vs '.join(houses)}: only {t['triggered']} abilities triggered"
