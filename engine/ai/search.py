"""Determinized rollouts for the strong computer player (information-set sampling over the engine).

The engine's flow is a generator, so a game cannot be copied mid-phase; but a phase can be started over
from a state (``Game(state, pool, options, start_phase=...)``) or re-entered where a loop of the flow
stands (``resume_challenges``, ``resume_marshalling``; a defence by declaring its challenge again,
``rewind_declaration``). At such a decision the strong player:

1. takes its seat's view (``engine.ai.view.view_game``: every card it may not see is ``hidden``);
2. **determinizes** it (``determinize``): each hidden card gets a key sampled from what the seat has
   seen of that card's owner (his cards in play, discard and dead piles, his used plots; for its own
   deck, its own cards seen), decks are shuffled and the random generator seeded from the sample. The
   real hidden cards are never read: the sample is built from the view only;
3. starts the phase over on that sample with a ``RolloutPlayer`` in every seat (the heuristic player
   reading the sampled game directly: it is all guesswork already), answering its own decision with
   the candidate, and plays to the end of the round (or a bound on decisions);
4. scores the outcome for the seat (``evaluate``: power difference, a win at 15, cards in play, cards
   in hand, gold) and averages over the samples.

Everything is deterministic for a given seed and view.
"""
from __future__ import annotations

import pickle
import random
import time

from engine import flow, legality
import engine.ai.judge as judge
from engine.ai.heuristic import WIN, HeuristicPlayer
from engine.ai.view import ViewPool
from engine.decisions import GameOver, Refused
from engine.game import Game
from engine.state import CHALLENGE_TYPES, GameState
from engine.visibility import HIDDEN_KEY, PUBLIC_ZONES, TABLE_ZONES

PLOT_ZONES = ("used_plots", "revealed_plot", "plot_deck")


def determinize(view_state: GameState, me: str, rng: random.Random) -> GameState:
    """A full state sampled from ``view_state`` (a seat's view): every hidden card gets a key drawn from
    the keys the seat has seen of its owner (plots from plots, other cards from other cards)."""
    st = GameState.from_dict(pickle.loads(pickle.dumps(view_state.to_dict(), pickle.HIGHEST_PROTOCOL)))
    seen_plots: dict[str, list[str]] = {}
    seen_cards: dict[str, list[str]] = {}
    for c in st.cards.values():
        if c.key == HIDDEN_KEY:
            continue
        target = seen_plots if c.zone in PLOT_ZONES else seen_cards
        if c.zone in PUBLIC_ZONES + TABLE_ZONES + PLOT_ZONES + ("hand",):
            if c.zone in ("house", "agenda"):
                continue
            target.setdefault(c.owner, []).append(c.key)
    mine_plots = seen_plots.get(me, [])
    for c in st.cards.values():
        if c.key != HIDDEN_KEY:
            continue
        if c.zone in PLOT_ZONES:
            keys = seen_plots.get(c.owner) or mine_plots
        else:
            keys = seen_cards.get(c.owner) or seen_cards.get(me) or []
        if keys:
            c.key = rng.choice(keys)
    for p in st.players:
        rng.shuffle(p.deck)
    st.windows = []
    st._rng.seed(rng.random())
    return st


class RolloutPlayer(HeuristicPlayer):
    """The heuristic player reading the (sampled) game it plays in directly: no view, no explanations."""

    def candidates(self, game: Game, d):
        self.rng = random.Random(len(game.history))
        method = getattr(self, f"on_{d.kind}", None)
        out = method(game, d) if method else []
        if d.can_pass:
            out = out + [{"pass": True}]
        return out

    def say(self, text: str) -> None:
        pass


def _active_from_now(g: Game):
    """(i, name) for the players still to be active in this phase, from the one active now (i = 0) on,
    in turn order from the first player; each becomes the active player as he comes."""
    st = g.state
    names = st.clockwise_from(g.first_player)
    start = names.index(st.active_player) if st.active_player in names else 0
    for i, name in enumerate(names[start:]):
        if g.player(name).eliminated:
            continue
        st.active_player = name
        yield i, name


def resume_challenges(g: Game):
    """The rest of the challenges phase from a challenge declaration (the active player's loop as
    ``engine.flow.challenges_phase`` runs it, without starting the phase over), then the game on."""
    st = g.state
    for i, name in _active_from_now(g):
        first = i == 0
        while True:
            if not first:
                yield from flow.player_actions(g)
            first = False
            if len(g.player(name).challenges_made) >= len(CHALLENGE_TYPES) + legality.extra_challenges(g, name):
                break
            answer = yield from g.ask(legality.challenge_decision(g, name))
            if "pass" in answer:
                break
            yield from flow.challenge(g, name, answer)
        yield from flow.framework_window(g, f"{name} is finished with challenges",
                                         [flow.Event("next player becomes active")])
    st.active_player = None
    yield from flow.end_phase(g, "challenges")
    yield from flow.play(g, "dominance")


def resume_marshalling(g: Game):
    """The rest of the marshalling phase from an action of the active player (the loop of
    ``engine.flow.marshalling_phase`` without starting the phase over), then the game on."""
    st = g.state
    for i, name in _active_from_now(g):
        if i > 0:
            def count_income(g: Game, ev, name: str = name):
                income = g.income(name)  # MAR-02
                g.player(name).gold += income
                g.log(f"{name} collects {income} gold")
                return
                yield

            yield from flow.framework_window(g, f"{name} becomes active and counts income",
                                             [flow.Event("count income", execute=count_income)])
        yield from flow.player_actions(g)
        yield from flow.framework_window(g, f"{name} has no more gold actions",
                                         [flow.Event("next player becomes active")])
    st.active_player = None
    if st.ruleset == "ccg-winter":  # MAR-09 (W)
        for p in st.players:
            p.gold = 0
    yield from flow.end_phase(g, "marshalling")
    yield from flow.play(g, "challenges")


def rewind_declaration(st: GameState) -> list[tuple[str, str, dict]]:
    """At a defence: undo the declaration of the challenge in progress on a sample (its attackers stand
    again, its type is not used) so that ``resume_challenges`` can declare it again. Returns the answers
    that declare it as it was declared: (player, decision kind, answer)."""
    ch = st.challenge
    for c in ch.attackers:
        if c in st.cards:
            st.cards[c].kneeling = False
    made = st.player(ch.attacker).challenges_made
    if ch.type in made:
        del made[len(made) - 1 - made[::-1].index(ch.type)]
    st.active_player = ch.attacker
    st.challenge = None
    forced = [(ch.attacker, "challenge", {"challenge": ch.type, "against": ch.defender,
                                           "attackers": list(ch.attackers)})]
    if ch.stealth:
        forced.append((ch.attacker, "stealth", {"stealth": dict(ch.stealth)}))
    return forced


def _sampled_game(st: GameState, pool, options, phase: str) -> Game:
    if phase not in ("challenges", "defend", "marshalling"):
        return Game(st, pool, options, start_phase=phase)
    g = Game.__new__(Game)
    g.state, g.pool, g.options, g.setup_spec = st, pool, options, None
    g.history, g.pending, g.result, g.warnings, g.conceded = [], None, None, [], []
    g._flow = resume_marshalling(g) if phase == "marshalling" else resume_challenges(g)
    g._step(None)
    return g


def evaluate(g: Game, me: str) -> float:
    """How good the table is for ``me``: power first, then what each side has to fight with."""
    if g.state.winner is not None or isinstance(g.advance(), GameOver):
        w = g.state.winner
        return 100.0 if w == me else -100.0 if w else 0.0
    score = 0.0
    for p in g.state.players:
        if p.eliminated:
            continue
        side = 1.0 if p.name == me else -1.0
        power = g.total_power(p.name)
        v = 3.0 * power + (20.0 if power >= WIN else 0.0)
        v += 0.5 * sum(judge.card_value(g, c) for c in g.characters(p.name))
        v += 0.6 * len(p.hand) + 0.2 * p.gold
        score += side * v
    return score


def rollout(game_view: Game, me: str, phase: str, answer_mine: dict, rng: random.Random,
            max_decisions: int = 120, deadline: float | None = None) -> float | None:
    """One sample: start ``phase`` over on a determinization of the view, give ``answer_mine`` at the
    first decision of ``me`` of the same kind, play to the end of the round. None when it could not run
    (or ``deadline``, a ``time.perf_counter`` reading, passed: a safety net only).
    ``phase`` "defend": the challenge being defended is declared again (``rewind_declaration``) and the
    rest of the challenges phase is played from there."""
    st = determinize(game_view.state, me, rng)
    start_round = st.round
    forced: list[tuple[str, str, dict]] = []
    if phase == "defend":
        if st.challenge is None or st.challenge.ended:
            return None
        forced = rewind_declaration(st)
    try:
        g = _sampled_game(st, ViewPool(game_view.pool.pool if isinstance(game_view.pool, ViewPool)
                                       else game_view.pool), game_view.options, phase)
    except Exception:  # noqa: BLE001 - a sample the engine cannot start from is skipped
        return None
    players = {n: RolloutPlayer(rng.randrange(1 << 30)) for n in st.player_names}
    first = True
    kind = answer_mine.get("_kind")
    given = {k: v for k, v in answer_mine.items() if k != "_kind"}
    try:
        for _ in range(max_decisions):
            d = g.advance()
            if isinstance(d, GameOver) or g.state.round > start_round:
                break
            if deadline is not None and time.perf_counter() > deadline:
                return None  # the safety net of a very slow machine: the caller drops the search
            if forced and d.player == forced[0][0] and d.kind == forced[0][1]:
                _, _, ans = forced.pop(0)
                try:
                    g.answer(d.player, ans)
                    continue
                except Refused:
                    return None
            if first and d.player == me and (kind is None or d.kind == kind):
                first = False
                try:
                    g.answer(me, given)
                    continue
                except Refused:
                    return None
            players[d.player].play_turn(g)
    except Exception:  # noqa: BLE001 - a sample the engine cannot play (a guessed card) is skipped
        return None
    if first:
        return None
    return evaluate(g, me)
