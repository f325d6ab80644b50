"""Random-game fuzzing: thousands of decisions between random players, invariants after each.

Every game here is played by ``RandomPlayer``s with mischief (they sometimes send
an illegal answer, which must be refused with the state unchanged), on the
practice decks, with 2, 3 and 4 players, both rulesets and both prompt modes.
After EVERY decision ``check_invariants`` must find nothing; every game must end
with a winner within a bound; and replaying the game from its setup and history
must reach the same ``state.digest()``.

To keep the file fast, refused answers are checked against a pickle of the state
(about 20 times cheaper than ``digest()``, and just as strict: it includes the
random generator); ``test_refused_answers_leave_the_digest_unchanged`` uses the
real digest.
"""
from __future__ import annotations

import pickle
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.builder import practice_game
from engine.decisions import Decision, GameOver, Refused
from engine.game import Game, Options
from engine.invariants import check_invariants
from engine.players import RandomPlayer
from engine.replay import replay

NAMES = ("alice", "bob", "carol", "dave")
MISCHIEF = 0.05
MAX_DECISIONS = 30_000   # no random game here comes near: the longest take ~6,000
MAX_ROUNDS = 40

# Each combination plays seeds 0, 1, 2, ... until its CPU-time budget is spent (at least
# MIN_GAMES, at most MAX_GAMES), so the file stays near half a minute however fast the engine
# is today. Prompted games (prompt_all) answer every empty prompt: many cheap decisions;
# the others skip them, so each answered decision costs more engine work.
BUDGET = {True: 2.5, False: 0.5}      # CPU seconds per combination
MIN_GAMES = {True: 1, False: 1}
MAX_GAMES = {True: 15, False: 40}
COMBOS = [(n, prompt_all, ruleset) for n in (2, 3, 4) for prompt_all in (True, False)
          for ruleset in ("lcg", "ccg-winter")]
TOTALS: dict[tuple, dict] = {}


def problems_of(game: Game) -> list[str]:
    """Every broken invariant (none are tolerated, not even at the end of the game)."""
    return check_invariants(game)


def _snapshot(game: Game) -> bytes:
    return pickle.dumps((game.state, len(game.history)), protocol=pickle.HIGHEST_PROTOCOL)


def fuzz_game(game: Game, players: dict[str, RandomPlayer], label: str, *, check_every: bool = True) -> dict:
    """Play ``game`` to its end like ``players.play_out``, checking invariants after each decision
    and that refused answers change nothing. Returns counts."""
    decisions = refused = 0

    def fail(what: str, d: Decision | None, problems: list[str] | None = None) -> None:
        lines = [f"{label}: {what} at decision {decisions} (round {game.state.round}, {game.state.phase})"]
        if d is not None:
            lines.append(f"  decision: {d.describe()}")
        if game.history:
            lines.append(f"  last answer: {game.history[-1]}")
        lines += [f"  - {p}" for p in problems or []]
        lines += ["  log tail:"] + [f"    {entry}" for entry in game.state.log[-8:]]
        pytest.fail("\n".join(lines))

    while True:
        d = game.advance()
        if isinstance(d, GameOver):
            break
        if decisions >= MAX_DECISIONS or game.state.round > MAX_ROUNDS:
            fail(f"no winner within {MAX_DECISIONS} decisions / {MAX_ROUNDS} rounds", d)
        p = players[d.player]
        answered = False
        if p.rng.random() < p.mischief:
            before = _snapshot(game)
            try:
                game.answer(d.player, p.mischief_answer(game, d))
                answered = True   # the "mischief" happened to be legal
            except Refused:
                refused += 1
                if _snapshot(game) != before:
                    fail("a refused answer changed the state", d)
                if game.advance() is not d:
                    fail("a refused answer closed the decision", d)
        if not answered:
            for candidate in p.candidates(game, d):
                try:
                    game.answer(d.player, candidate)
                    answered = True
                    break
                except Refused:
                    refused += 1
            if not answered:
                fail("the random player found no legal answer", d)
        decisions += 1
        if check_every or isinstance(game.advance(), GameOver):
            problems = problems_of(game)
            if problems:
                fail("invariants broken", d, problems)
    problems = problems_of(game)
    if problems:
        fail("invariants broken at the end", None, problems)
    winner = game.state.winner
    assert winner == "draw" or winner in game.state.player_names, f"{label}: winner {winner!r}"
    assert game.advance().winner == winner
    return {"decisions": decisions, "refused": refused, "rounds": game.state.round}


def random_players(names, seed: int, mischief: float = MISCHIEF) -> dict[str, RandomPlayer]:
    return {name: RandomPlayer(seed=seed * 31 + i, mischief=mischief) for i, name in enumerate(names)}


@pytest.mark.parametrize("n,prompt_all,ruleset", COMBOS,
                         ids=[f"{n}p-{'prompt_all' if pa else 'skip_empty'}-{rs}" for n, pa, rs in COMBOS])
def test_random_games_keep_invariants_and_replay(n, prompt_all, ruleset):
    names = NAMES[:n]
    started, cpu = time.perf_counter(), time.process_time()
    total = {"games": 0, "decisions": 0, "refused": 0, "replayed": 0}
    for seed in range(MAX_GAMES[prompt_all]):
        if seed >= MIN_GAMES[prompt_all] and time.process_time() - cpu > BUDGET[prompt_all]:
            break
        game = practice_game(seed=seed, players=names, ruleset=ruleset, options=Options(prompt_all=prompt_all))
        label = f"seed {seed}, players {names}, ruleset {ruleset}, prompt_all {prompt_all}"
        counts = fuzz_game(game, random_players(names, seed), label)
        again = replay(game)
        assert again.state.digest() == game.state.digest(), f"{label}: the replay reached another state"
        assert again.state.winner == game.state.winner
        total["games"] += 1
        total["decisions"] += counts["decisions"]
        total["refused"] += counts["refused"]
        total["replayed"] += len(game.history)
    total["seconds"] = time.perf_counter() - started
    TOTALS[(n, prompt_all, ruleset)] = total
    assert total["decisions"] > 0


def test_fuzz_totals():
    """Runs after the matrix above (file order): many thousands of decisions in all."""
    if len(TOTALS) != len(COMBOS):
        pytest.skip("the whole fuzz matrix did not run in this session")
    games = sum(t["games"] for t in TOTALS.values())
    decisions = sum(t["decisions"] for t in TOTALS.values())
    refused = sum(t["refused"] for t in TOTALS.values())
    seconds = sum(t["seconds"] for t in TOTALS.values())
    print(f"\nfuzz: {games} games, {decisions} decisions checked, {refused} answers refused, {seconds:.1f} s")
    assert games >= sum(MIN_GAMES[pa] for _, pa, _ in COMBOS)
    assert decisions > 20_000
    assert refused > 500


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), ruleset=st.sampled_from(["lcg", "ccg-winter"]))
def test_two_random_answerers_reach_a_winner_for_any_seed(seed, ruleset):
    game = practice_game(seed=seed, ruleset=ruleset, options=Options(prompt_all=False))
    fuzz_game(game, random_players(game.state.player_names, seed), f"seed {seed}, ruleset {ruleset}")
    assert game.state.winner is not None
    assert replay(game).state.digest() == game.state.digest()


# ---------------------------------------------------------------------------
# Refused answers change nothing (checked with the real digest)
# ---------------------------------------------------------------------------

def _illegal_answers(game: Game, d: Decision) -> list[tuple[str, object]]:
    """(who, answer) pairs that must all be refused for decision ``d``."""
    st_ = game.state
    other = next(n for n in st_.player_names if n != d.player)
    foreign = next(cid for cid, c in st_.cards.items() if c.owner == other and c.zone == "deck") \
        if any(c.owner == other and c.zone == "deck" for c in st_.cards.values()) else max(st_.cards)
    wrong_kind = {"plot": {"defend": []}, "first_player": {"setup": []}}.get(d.kind, {"plot": foreign})
    out = [
        (other, {"pass": True}),                     # not this player's turn
        (d.player, {"bogus": 1}),                    # not a command
        (d.player, {}),                              # empty answer
        (d.player, None),                            # not a dict at all
        (d.player, wrong_kind),                      # a command for another kind of decision
        (d.player, {"first_player": "nobody"} if d.kind == "first_player" else {"choose": [foreign, foreign]}),
    ]
    if not d.can_pass:
        out.append((d.player, {"pass": True}))
    if d.kind == "action":
        out.append((d.player, {"marshal": foreign}))             # not in hand
        out.append((d.player, {"marshal": 10 ** 6}))            # no such card
        out.append((d.player, {"trigger": foreign}))
    if d.kind == "challenge":
        out.append((d.player, {"challenge": "military", "attackers": [foreign]}))
        out.append((d.player, {"challenge": "diplomacy", "attackers": list(d.choices[:1])}))
        out.append((d.player, {"challenge": "power", "attackers": []}))
    if d.kind == "defend":
        out.append((d.player, {"defend": [foreign]}))
        out.append((d.player, {"defend": "everyone"}))
    if d.kind == "setup":
        out.append((d.player, {"setup": [foreign]}))
        if d.choices:
            out.append((d.player, {"setup": list(d.choices[:1]) * 2}))
    if d.kind == "choose":
        out.append((d.player, {"choose": []} if d.min_count else {"choose": [foreign]}))
        out.append((d.player, {"choose": "x"}))
    if d.kind == "plot":
        out.append((d.player, {"plot": foreign}))
    return out


@pytest.mark.parametrize("players,stop_after", [(("alice", "bob"), None), (("alice", "bob", "carol"), 600)])
def test_refused_answers_leave_the_digest_unchanged(players, stop_after):
    """Illegal answers to each kind of decision (and now and then later ones) are refused;
    the digest, the pending decision and the history stay as they were."""
    game = practice_game(seed=5, players=players, options=Options(prompt_all=True))
    rp = random_players(players, 5, mischief=0.0)
    seen_kinds: set[str] = set()
    tried = n = 0
    while not isinstance(game.advance(), GameOver) and n != stop_after:
        d = game.advance()
        if d.kind not in seen_kinds or n % 300 == 0:
            seen_kinds.add(d.kind)
            before, history = game.state.digest(), len(game.history)
            for who, answer in _illegal_answers(game, d):
                with pytest.raises(Refused):
                    game.answer(who, answer)
                tried += 1
            assert game.state.digest() == before, f"refused answers changed the state ({d.describe()})"
            assert game.advance() is d and len(game.history) == history
        rp[d.player].play_turn(game)
        n += 1
    assert {"setup", "plot", "first_player", "action", "challenge", "defend"} <= seen_kinds
    assert tried > 50
    if stop_after is None:
        # Once the game is over every answer is refused, and still nothing changes.
        assert isinstance(game.advance(), GameOver)
        before = game.state.digest()
        with pytest.raises(Refused):
            game.answer(players[0], {"pass": True})
        assert game.state.digest() == before


def test_mischief_player_asserts_refusals_itself():
    """RandomPlayer's own mischief check (digest before/after) holds over a whole game."""
    game = practice_game(seed=9, options=Options(prompt_all=False))
    rp = random_players(game.state.player_names, 9, mischief=0.3)
    while not isinstance(game.advance(), GameOver):
        rp[game.advance().player].play_turn(game)
    assert sum(p.refusals for p in rp.values()) > 10
    assert not problems_of(game)


def test_WIN_01_a_game_won_inside_a_window_keeps_that_window_open():
    """Games often end inside a window (renown, unopposed power): the game ends at once, so the
    final state keeps the window open with its moribund cards, and every invariant holds
    (tests/scenarios/challenges/win-01-won-inside-a-window-keeps-moribund.yaml shows one exactly)."""
    for seed in range(6):
        game = practice_game(seed=seed, options=Options(prompt_all=False))
        fuzz_game(game, random_players(game.state.player_names, seed), f"seed {seed}")
        assert game.state.winner is not None
        assert not check_invariants(game)


# ---------------------------------------------------------------------------
# The checker itself notices broken states (so a clean run means something)
# ---------------------------------------------------------------------------

def _midgame() -> Game:
    game = practice_game(seed=2, options=Options(prompt_all=False))
    rp = random_players(game.state.player_names, 2, mischief=0.0)
    while game.state.phase != "challenges" or not any(game.characters(n) for n in game.state.player_names):
        rp[game.advance().player].play_turn(game)
    assert not check_invariants(game)
    return game


def _some(game: Game, zone: str, **where) -> int:
    return next(cid for cid, c in game.state.cards.items()
                if c.zone == zone and all(getattr(c, k) == v for k, v in where.items()))


@pytest.mark.parametrize("breakage,expected", [
    ("card_twice", "exactly one place"),
    ("card_nowhere", "exactly one place"),
    ("zone_mismatch", "says zone"),
    ("wrong_controller", "controlled by"),
    ("pile_controller", "controlled by"),
    ("moribund_outside_window", "moribund"),
    ("negative_gold", "negative gold"),
    ("draw_cap", "cap 3"),
    ("negative_power", "negative power"),
    ("attachment_off_play", "not in play"),
    ("unique_twice", "unique"),
    ("winner_unset", "stays set"),
])
def test_check_invariants_reports_broken_states(breakage, expected):
    game = _midgame()
    st_ = game.state
    alice, bob = st_.players[0], st_.players[1]
    if breakage == "card_twice":
        alice.discard.append(alice.hand[0])
    elif breakage == "card_nowhere":
        alice.hand.pop()
    elif breakage == "zone_mismatch":
        st_.cards[alice.hand[0]].zone = "discard"
    elif breakage == "wrong_controller":
        who = next(p for p in st_.players if p.in_play)
        st_.cards[who.in_play[0]].controller = next(n for n in st_.player_names if n != who.name)
    elif breakage == "pile_controller":
        st_.cards[alice.deck[0]].controller = bob.name
    elif breakage == "moribund_outside_window":
        assert not st_.windows
        who = next(p for p in st_.players if p.in_play)
        st_.cards[who.in_play[0]].moribund = "dead"
    elif breakage == "negative_gold":
        bob.gold = -1
    elif breakage == "draw_cap":
        alice.drawn_this_round = 4
    elif breakage == "negative_power":
        st_.cards[alice.house_card].power = -2
    elif breakage == "attachment_off_play":
        host, att = alice.discard[0] if alice.discard else alice.deck[-1], alice.deck[0]
        game.attach(att, host, alice.name)
    elif breakage == "unique_twice":
        mine = [cid for cid, c in st_.cards.items() if c.owner == alice.name and c.zone != "attached"
                and game.defn(cid).unique and game.defn(cid).type == "character"]
        title = next(game.name(a) for a in mine if sum(game.name(b) == game.name(a) for b in mine) >= 2)
        for cid in [cid for cid in mine if game.name(cid) == title][:2]:
            if st_.cards[cid].zone != "in_play":
                game.put_in_play(cid, alice.name)
    elif breakage == "winner_unset":
        st_.winner = alice.name
        game.pending, saved = None, game.pending
        check_invariants(game)           # remembers the winner
        st_.winner = None
        game.pending = saved
    problems = check_invariants(game)
    assert problems, f"{breakage} went unnoticed"
    assert any(expected in p for p in problems), problems
