"""The strong computer player: the heuristic player plus searches, within a budget of rollouts per decision.

- **Challenges**: a plan for the whole rest of its challenges phase. For each remaining challenge type
  it considers a few attacker sets (none, the fewest that beat every possible defender, the fewest that
  beat the likely defence, all), combines them without sharing characters, tries every order, and plays
  each plan out against a model of the defender (who defends with the cheapest set that wins when the
  claim is worth it, as the heuristic player does). A plan is worth its claims, unopposed power and
  renown, minus what its knelt characters leave open: the opponent's challenges still to come against
  the characters it keeps standing, and dominance. The first challenge of the best plan is declared.
- **Defence**: no defence, the cheapest winning defence, or a single blocker, each judged with what
  the attacker can still do afterwards against the characters left standing.
- **Marshalling**: the best set of cards in hand within the gold (a knapsack over the hand, keeping
  gold for the events it holds), marshalled dearest first.
- **Plots**: the heuristic score, with the gold the best marshalling plan needs and the claim weighed
  by how many challenges it can expect to win.

- **Rollouts** (``engine.ai.search``): the plot choice, each challenge declaration, each defence and each
  marshalling action in its own turn are decided among a few candidates (the plan's answer, the
  heuristic's, ...) by determinized rollouts to the end of the round (``by_rollouts``).

All of it reads only the seat's view (``engine.ai.view``). ``rollouts`` bounds each search (a number of
rollouts, not seconds: the same view and seed give the same answer on any machine); ``time_limit``
(seconds) is only a safety net: a search that passes it is dropped for the rules of thumb.
"""
from __future__ import annotations

import random
import time
from itertools import combinations, permutations, product

from engine import legality
import engine.ai.judge as judge
import engine.ai.search as search
from engine.ai.heuristic import WIN, HeuristicPlayer
from engine.ai.view import hidden
from engine.decisions import Decision
from engine.game import Game
from engine.state import CHALLENGE_TYPES


def distinct(options, limit: int | None = None) -> list[dict]:
    """The candidates to compare: ``options`` in order, each once, at most ``limit`` of them."""
    out: list[dict] = []
    for o in options:
        if limit is not None and len(out) >= limit:
            break
        if o not in out:
            out.append(o)
    return out


class StrongPlayer(HeuristicPlayer):
    level = "strong"

    ROLLOUTS = 16
    """Rollouts per searched decision, shared by its candidates (at least 2 and at most 10 each)."""

    TIME_LIMIT = 5.0
    """Seconds: a search still running then is dropped (the safety net of a very slow machine; a search
    takes 0.2-0.6 s on the bench machine)."""

    MAX_PLANS = 2000
    """Challenge plans simulated at most per declaration (a count, so the plan does not depend on the clock)."""

    def __init__(self, seed: int = 0, *, rollouts: int = ROLLOUTS, time_limit: float | None = TIME_LIMIT,
                 explain=None):
        super().__init__(seed, explain=explain)
        self.budget = max(1, int(rollouts))
        self.time_limit = time_limit
        self.deadline: float | None = None
        self.timeouts = 0
        """Searches dropped at the time limit."""

    def out_of_time(self) -> bool:
        return self.deadline is not None and time.perf_counter() > self.deadline

    def candidates(self, game: Game, d: Decision) -> list[dict]:
        self.deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        return super().candidates(game, d)

    # -- challenges --------------------------------------------------------------------------------------
    def attack_sets(self, g: Game, able: list[int], defence: int, likely: int) -> list[tuple[int, ...]]:
        sets: list[tuple[int, ...]] = [()]
        for need in (defence,):  # never fewer than every possible defender could beat (see blunders)
            picks = self.enough(g, able, need, renown=False)
            if picks:
                sets.append(tuple(sorted(picks)))
                renown = [c for c in able if c not in picks and "renown" in g.keywords(c)]
                if renown:
                    sets.append(tuple(sorted(picks + renown[:1])))
        if able:
            sets.append(tuple(sorted(able)))
        return list(dict.fromkeys(sets))

    def opponent_defence(self, g: Game, opp: str, me: str, ctype: str, attack: int,
                         standing: set[int]) -> list[int]:
        """How the defender is expected to answer (the heuristic rule: the cheapest winning defence when
        the claim is worth its kneeling, else nothing)."""
        eligible = [c for c in standing if ctype in g.icons(c) and not g.cannot(c, "defend")]
        block = self.best_defence(g, eligible, attack)
        if block is None:
            return []
        loss = self.claim_value(g, me, opp, ctype, unopposed=True)
        cost = 0.3 * sum(judge.card_value(g, c) for c in block)
        return block if loss >= cost or ctype == "military" else []

    def simulate(self, g: Game, me: str, opp: str, plan: list[tuple[str, tuple[int, ...]]]) -> float:
        """The worth of declaring ``plan`` (type, attackers) in order against ``opp``."""
        standing = {c for c in g.characters(opp, standing=True) if g.card(c).moribund is None}
        mine_used: set[int] = set()
        value = 0.0
        opp_power = g.total_power(opp)
        my_power = g.total_power(me)
        for ctype, attackers in plan:
            atk = self.str_of(g, attackers)
            mine_used |= set(attackers)
            block = self.opponent_defence(g, opp, me, ctype, atk, standing)
            standing -= set(block)
            dfn = self.str_of(g, block)
            if atk >= dfn and atk >= 1:
                gain = self.claim_value(g, me, opp, ctype, unopposed=not block)
                gain += 1.3 * sum(1 for c in attackers if "renown" in g.keywords(c))
                if ctype == "power":
                    my_power += min(g.claim(me), g.house_power(opp))
                my_power += (not block) + sum(1 for c in attackers if "renown" in g.keywords(c))
                value += gain
            else:
                value -= 0.3 + 1.3 * sum(1 for c in block if "renown" in g.keywords(c))
            value += 0.3 * sum(judge.card_value(g, c) for c in block)  # their knelt defenders
        if my_power >= WIN:
            value += 50
        # what the opponent can still do to us, if he has challenges to come this phase
        my_left = [c for c in g.characters(me, standing=True) if c not in mine_used]
        if self.opponent_still_attacks(g, me, opp):
            for ctype in CHALLENGE_TYPES:
                their = [c for c in standing if ctype in g.icons(c)]
                if not their:
                    continue
                a = self.str_of(g, their)
                d = self.str_of(g, [c for c in my_left if ctype in g.icons(c)])
                if d <= a:
                    value -= 0.5 * self.loss_value(g, me, opp, ctype, unopposed=d == 0)
        # dominance
        mine_str = self.str_of(g, my_left)
        theirs_str = self.str_of(g, standing)
        value += 0.8 if mine_str > theirs_str else (-0.8 if theirs_str > mine_str else 0)
        _ = opp_power
        return value

    def opponent_still_attacks(self, g: Game, me: str, opp: str) -> bool:
        order = g.state.clockwise_from(g.first_player)
        return order.index(opp) > order.index(me) if opp in order and me in order else False

    def on_challenge(self, g: Game, d: Decision) -> list[dict]:
        planned = self.plan_challenge(g, d)
        ch = g.state.challenge
        if g.state.windows or (ch is not None and not ch.ended):
            return planned
        reason = self.last_reason
        top = distinct((planned[:1] or [{"pass": True}]) + HeuristicPlayer.on_challenge(self, g, d)[:2])
        self.last_reason = reason
        found = self.by_rollouts(g, d, "challenges", top)
        if found is None:
            return planned
        best, n = found
        if top[best] is not (planned[:1] or [{"pass": True}])[0]:
            o = top[best]
            self.say(f"{d.player} " + (f"attacks {o['against']} ({o['challenge']}) with "
                                        f"{', '.join(g.name(c) for c in o['attackers'])}" if "challenge" in o
                                        else "makes no more challenges") + f": best of {n} sampled rounds")
        if "pass" in top[best]:
            return []
        return [top[best]] + [o for o in planned if o != top[best]]

    def plan_challenge(self, g: Game, d: Decision) -> list[dict]:
        me = d.player
        types = list(d.context.get("types", CHALLENGE_TYPES))
        opps = [o for o in d.context.get("opponents", []) if not g.player(o).eliminated] or \
            list(d.context.get("opponents", []))
        best = None
        simulated = 0
        for opp in opps:
            per_type = {}
            for t in types:
                able = self.able(g, d, t)
                defenders = self.defenders_for(g, opp, t)
                defence = self.str_of(g, defenders)
                likely = self.str_of(g, sorted(defenders, key=lambda c: -g.strength(c))[:2])
                per_type[t] = self.attack_sets(g, able, defence, likely)
            choices = [[(t, s) for s in per_type[t]] for t in types]
            for combo in product(*choices):
                used = [c for _, s in combo for c in s]
                if len(used) != len(set(used)):
                    continue
                declared = [(t, s) for t, s in combo if s]
                if not declared:
                    continue
                for order in permutations(declared):
                    if simulated >= self.MAX_PLANS:
                        break
                    simulated += 1
                    v = self.simulate(g, me, opp, list(order))
                    if opp == self.leader(g, me, opps):
                        v += 0.2
                    if best is None or v > best[0]:
                        best = (v, opp, order)
        base = self.simulate_pass(g, me, opps)
        if best is None or best[0] <= base:
            self.say(f"{me} makes no more challenges: keeping its characters standing is worth more")
            return []
        v, opp, order = best
        t, attackers = order[0]
        plan = ", ".join(f"{tt} with {self.str_of(g, s)} STR" for tt, s in order)
        self.say(f"{me} attacks {opp} ({t}, {', '.join(g.name(c) for c in attackers)}): plan {plan}, "
                 f"worth {v:.1f} against {base:.1f} for passing")
        out = [{"challenge": t, "against": opp, "attackers": list(attackers)}]
        reason = self.last_reason
        rest = super().on_challenge(g, d)  # the heuristic's challenges after the plan's (it says its own reason)
        self.last_reason = reason
        return out + rest

    def simulate_pass(self, g: Game, me: str, opps: list[str]) -> float:
        return max(self.simulate(g, me, opp, []) for opp in opps) if opps else 0.0

    # -- defence -----------------------------------------------------------------------------------------------
    def on_defend(self, g: Game, d: Decision) -> list[dict]:
        ch = g.state.challenge
        me = d.player
        attack = self.str_of(g, ch.attackers)
        eligible = list(d.choices)
        options: list[list[int]] = [[]]
        block = self.best_defence(g, eligible, attack)
        if block:
            options.append(block)
        if eligible:
            options.append([min(eligible, key=lambda c: judge.card_value(g, c))])
        attacker = ch.attacker
        remaining = [t for t in CHALLENGE_TYPES if t not in g.player(attacker).challenges_made]
        their_standing = [c for c in g.characters(attacker, standing=True) if c not in ch.attackers]
        best = None
        for picks in options:
            dfn = self.str_of(g, picks)
            lost = not (dfn > attack)
            cost = 0.0
            if lost:
                cost += self.loss_value(g, me, attacker, ch.type, unopposed=not picks)
                cost += 1.3 * sum(1 for c in ch.attackers if "renown" in g.keywords(c))
            else:
                cost -= 1.3 * sum(1 for c in picks if "renown" in g.keywords(c))
            cost += 0.15 * sum(judge.card_value(g, c) for c in picks)
            left = [c for c in g.characters(me, standing=True) if c not in picks]
            for t in remaining:
                a = self.str_of(g, [c for c in their_standing if t in g.icons(c)])
                if a == 0:
                    continue
                dd = self.str_of(g, [c for c in left if t in g.icons(c)])
                if dd <= a:
                    cost += 0.5 * self.loss_value(g, me, attacker, t, unopposed=dd == 0)
            if best is None or cost < best[0]:
                best = (cost, picks)
        cost, picks = best
        ranked = [picks] + [o for o in options if o != picks]
        searched = self.defence_by_rollouts(g, d, ranked)
        if searched is not None:
            return searched
        if picks:
            won = self.str_of(g, picks) > attack
            self.say(f"{me} defends with {', '.join(g.name(c) for c in picks)}: "
                     + (f"{self.str_of(g, picks)} STR beats {attack}" if won else
                        "it cannot win, but the challenge is not unopposed"))
        else:
            self.say(f"{me} lets the {ch.type} challenge through: defending costs more than losing "
                     f"({attack} STR attacking)")
        return [{"defend": picks}, {"defend": []}]

    def defence_by_rollouts(self, g: Game, d: Decision, ranked: list[list[int]]) -> list[dict] | None:
        """The defences in ``ranked`` (and the heuristic's) tried in determinized rollouts: the challenge is
        declared again on each sample and played out with each defence to the end of the round."""
        top = distinct({"defend": sorted(picks)} for picks in
                       ranked + [o.get("defend", []) for o in HeuristicPlayer.on_defend(self, g, d)[:1]])
        found = self.by_rollouts(g, d, "defend", top)
        if found is None:
            return None
        best, n = found
        picks = top[best]["defend"]
        ch = g.state.challenge
        if picks:
            self.say(f"{d.player} defends with {', '.join(g.name(c) for c in picks)} "
                     f"({self.str_of(g, picks)} STR against {self.str_of(g, ch.attackers)}): "
                     f"best of {n} sampled rounds")
        else:
            self.say(f"{d.player} lets the {ch.type} challenge through: best of {n} sampled rounds")
        return [top[best]] + [o for o in top if o is not top[best]] + [{"defend": []}]

    # -- marshalling -----------------------------------------------------------------------------------------------
    MARSHAL_CANDIDATES = 3

    def on_action(self, g: Game, d: Decision) -> list[dict]:
        """The marshalling plan (``plan_marshalling``); in its own marshalling turn, the plan's next card,
        the heuristic's and the next best card are tried in determinized rollouts (the rest of the
        marshalling phase played by the heuristic, then the round to its end)."""
        planned = self.plan_marshalling(g, d)
        st = g.state
        if st.phase != "marshalling" or st.active_player != d.player or st.windows \
                or not any("marshal" in o for o in d.options):
            return planned
        reason = self.last_reason
        top = distinct((o for o in planned[:1] + HeuristicPlayer.on_action(self, g, d)[:1] + planned[1:]
                        if "marshal" in o), limit=self.MARSHAL_CANDIDATES)
        self.last_reason = reason
        found = self.by_rollouts(g, d, "marshalling", top)
        if found is None:
            return planned
        best, n = found
        o = top[best]
        self.say(f"{d.player} marshals {g.name(o['marshal'])}"
                 + (f" onto {g.name(o['attach_to'])}" if o.get("attach_to") is not None else "")
                 + f": best of {n} sampled rounds")
        return [o] + [x for x in planned if x is not o]

    def plan_marshalling(self, g: Game, d: Decision) -> list[dict]:
        me = d.player
        marshal = [o for o in d.options if "marshal" in o]
        if not marshal:
            return super().on_action(g, d)
        heuristic = super().on_action(g, d)
        reason = self.last_reason
        # best set of cards in hand within the gold (non-attachment cards and duplicates)
        gold = g.player(me).gold
        reserve = self.gold_reserve(g, me)
        simple = {}
        for o in marshal:
            if o.get("attach_to") is not None:
                continue
            cid = o["marshal"]
            cost = 0 if o.get("duplicate") else legality.marshal_cost(g, me, cid, o.get("x", 0))
            s = self.marshal_score(g, me, o)
            if cid not in simple or s > simple[cid][1]:
                simple[cid] = (o, s, cost)
        items = sorted(simple.values(), key=lambda x: -x[1])[:10]
        best, best_v = None, -1e9
        for k in range(len(items), 0, -1):
            for combo in combinations(items, k):
                cost = sum(c for _, _, c in combo)
                if cost > gold:
                    continue
                titles = [g.defn(o["marshal"]).name for o, _, _ in combo if g.defn(o["marshal"]).unique
                          and not o.get("duplicate")]
                if len(titles) != len(set(titles)):
                    continue
                v = sum(s + 2.0 for _, s, _ in combo) - (1.0 if gold - cost < reserve else 0)
                if v > best_v:
                    best, best_v = combo, v
        trig_first = [o for o in heuristic if "trigger" in o]
        if best:
            first = max(best, key=lambda x: x[2])[0]
            self.say(f"{me} marshals {g.name(first['marshal'])}: the dearest card of the best set it can pay "
                     f"for ({len(best)} card{'s' if len(best) != 1 else ''})")
            top_trigger = [o for o in trig_first if self.trigger_score(g, me, o) > 3.0]
            return top_trigger + [first] + [o for o in heuristic if o is not first]
        self.last_reason = reason
        return heuristic

    # -- plots -----------------------------------------------------------------------------------------------------
    ROLLOUT_PLOTS = 3

    rollout_samples: int | None = None
    """Rollouts per candidate; None: from the budget (``samples``)."""

    def samples(self, candidates: int = 1) -> int:
        """Rollouts per candidate: the budget (rollouts per decision) shared by the candidates, 2 to 10
        each. A count, not a time, so the answer does not depend on the machine's speed or load."""
        if self.rollout_samples is not None:
            return self.rollout_samples
        return max(2, min(10, self.budget // max(1, candidates)))

    def by_rollouts(self, g: Game, d: Decision, phase: str, top: list[dict]) -> tuple[int, int] | None:
        """Try each of ``top`` in determinized rollouts (``engine.ai.search``): (index of the best, samples),
        or None when there is nothing to compare (fewer than two candidates), a candidate could not be
        played on any sample, or the search passed the time limit (the safety net: then the rules of
        thumb answer). Every candidate is played on the same samples; the number of samples is fixed
        (``samples``), so the same view and seed give the same answer however busy the machine is."""
        if len(top) < 2:
            return None
        sums: dict[int, list[float]] = {i: [] for i in range(len(top))}
        for k in range(self.samples(len(top))):
            for i, cand in enumerate(top):
                rng = random.Random(f"{self.seed}/{phase}/{len(g.state.log)}/{k}")
                v = search.rollout(g, d.player, phase, dict(cand, _kind=d.kind), rng, deadline=self.deadline)
                if self.out_of_time():
                    self.timeouts += 1
                    return None
                if v is not None:
                    sums[i].append(v)
        if any(not v for v in sums.values()):
            return None
        means = {i: sum(v) / len(v) for i, v in sums.items()}
        best = max(means, key=lambda i: (means[i], -i))
        self.rollouts = getattr(self, "rollouts", 0) + sum(len(v) for v in sums.values())
        return best, sum(len(v) for v in sums.values())

    def on_plot(self, g: Game, d: Decision) -> list[dict]:
        """The heuristic's best plots, each tried in determinized rollouts to the end of the round."""
        scored = super().on_plot(g, d)
        top = scored[:self.ROLLOUT_PLOTS]
        found = self.by_rollouts(g, d, "plot", top)
        if found is None:
            return scored
        best, n = found
        self.say(f"{d.player} chooses its plot after {n} sampled rounds")
        return [top[best]] + [o for o in scored if o is not top[best]]

    def plot_score(self, g: Game, me: str, cid: int) -> float:
        d = g.defn(cid)
        hand = [c for c in g.player(me).hand if not hidden(g, c)]
        costs = sorted((g.defn(c).cost or 0) + g.gold_penalty(me, c) for c in hand
                       if g.defn(c).type in ("character", "location", "attachment"))
        need = sum(costs[:4])
        gold_v = min(d.income, need) * 1.0 + max(0, d.income - need) * 0.2
        mine = self.str_of(g, g.characters(me))
        theirs = max((self.str_of(g, g.characters(o)) for o in self.opponents(g, me)), default=0)
        claim_w = 1.6 if mine > theirs else (1.0 if mine * 1.5 > theirs else 0.5)
        init_w = 0.25 if g.total_power(me) <= max((g.total_power(o) for o in self.opponents(g, me)), default=0) \
            else 0.1
        return gold_v + claim_w * d.claim + init_w * d.initiative + 0.3 * bool(d.abilities) \
            + 0.8 * judge.plot_effect_score(g, me, cid)
