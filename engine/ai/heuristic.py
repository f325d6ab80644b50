"""The heuristic computer player: one rule of thumb per kind of decision, fast (a few ms).

It answers the pending ``Decision`` of its seat through ``Game.answer`` like a person; what it knows
of the table is ``engine.ai.view.view_game`` (only what the seat may see) and the decision itself.
Each answer comes with a one-line reason (``last_reason``; ``explain`` calls back with it).
``docs/ai.md`` explains the rules of thumb.
"""
from __future__ import annotations

import random
from itertools import combinations
from typing import Callable

from engine import legality, triggers
import engine.ai.judge as judge
from engine.ai.view import hidden, view_game
from engine.decisions import Decision, GameOver, Refused
from engine.game import Game
from engine.players import RandomPlayer
from engine.state import CHALLENGE_TYPES
from engine.visibility import PUBLIC_ZONES, TABLE_ZONES

SETUP_GOLD = legality.SETUP_GOLD
WIN = 15


class HeuristicPlayer:
    """A computer seat playing by rules of thumb. ``seed`` only breaks ties."""

    level = "heuristic"

    def __init__(self, seed: int = 0, *, explain: Callable[[str, str], None] | None = None):
        self.seed = seed
        self.explain = explain
        self.last_reason = ""
        self.refusals = 0
        self.cache: dict = {}
        self.fallback = RandomPlayer(seed)
        self.decisions = 0

    # -- the driver interface (as RandomPlayer) -------------------------------------------------
    def play_turn(self, game: Game) -> bool:
        """Answer the pending decision. False once the game is over."""
        d = game.advance()
        if isinstance(d, GameOver) or d is None:
            return False
        return self.give(game, d, self.candidates(game, d))

    def give(self, game: Game, d: Decision, candidates: list[dict]) -> bool:
        """Give the first of ``candidates`` (``self.candidates(game, d)``, worked out beforehand, e.g. in
        another thread while the game is held still) that the engine takes; the fallback's otherwise."""
        me = d.player
        for i, answer in enumerate(candidates):
            try:
                game.answer(me, answer)
            except Refused:
                self.refusals += 1
                continue
            self.decisions += 1
            if i > 0:  # the reason told the first answer, which was refused
                self.last_reason = f"{me} gives its next choice: the first was not allowed"
            if self.explain is not None and self.last_reason:
                self.explain(me, self.last_reason)
            return True
        for answer in self.fallback.candidates(game, d):
            try:
                game.answer(me, answer)
                self.last_reason = "no better idea"
                return True
            except Refused:
                self.refusals += 1
        raise RuntimeError(f"no legal answer found for {d.describe()}")

    def candidates(self, game: Game, d: Decision) -> list[dict]:
        """Answers in order of preference (the first legal one is given)."""
        g = view_game(game, d.player, self.cache)
        self.rng = random.Random(f"{self.seed}/{len(game.history)}")
        self.last_reason = ""
        method = getattr(self, f"on_{d.kind}", None)
        out = method(g, d) if method else []
        if d.can_pass:
            out = out + [{"pass": True}]
        return out

    def say(self, text: str) -> None:
        self.last_reason = text

    @staticmethod
    def public_name(g: Game, c) -> str:
        """A card's name when every seat may see it (the reasons are shown to everyone), else "a card"."""
        if not isinstance(c, int) or c not in g.state.cards:
            return str(c)
        card = g.card(c)
        if hidden(g, c) or card.facedown or card.zone not in PUBLIC_ZONES + TABLE_ZONES:
            return "a card"
        return g.name(c)

    # -- helpers ----------------------------------------------------------------------------------
    def opponents(self, g: Game, me: str) -> list[str]:
        return [n for n in g.opponents(me) if not g.player(n).eliminated]

    def leader(self, g: Game, me: str, among: list[str] | None = None) -> str:
        """The opponent to hurt: the one with the most power (ties: the next in seat order)."""
        opps = among or self.opponents(g, me)
        return max(opps, key=lambda n: (g.total_power(n), -opps.index(n)))

    @staticmethod
    def defenders_for(g: Game, who: str, ctype: str) -> list[int]:
        out = []
        for c in g.characters(who, standing=True):
            if ctype in g.icons(c) and g.card(c).moribund is None and not g.cannot(c, "defend"):
                out.append(c)
        return out

    @staticmethod
    def str_of(g: Game, cards) -> int:
        return sum(g.strength(c) for c in cards)

    def claim_value(self, g: Game, me: str, opp: str, ctype: str, unopposed: bool) -> float:
        """What winning a ``ctype`` challenge against ``opp`` is worth to ``me`` (claim, unopposed)."""
        claim = g.claim(me) if g.player(me).revealed_plot is not None else 1
        v = 1.5 if unopposed else 0.0
        if ctype == "military":
            chars = sorted(judge.card_value(g, c) for c in g.characters(opp))
            v += sum(chars[:claim]) * 0.8
        elif ctype == "intrigue":
            v += min(claim, len(g.player(opp).hand)) * 1.0
        else:
            v += min(claim, g.house_power(opp)) * 2.2 + (0.4 if claim else 0)
        return v

    def loss_value(self, g: Game, me: str, attacker: str, ctype: str, unopposed: bool) -> float:
        """What losing a ``ctype`` challenge as the defender costs ``me``."""
        claim = g.claim(attacker)
        v = 1.5 if unopposed else 0.0
        if ctype == "military":
            chars = sorted(judge.card_value(g, c) for c in g.characters(me))
            v += sum(chars[:claim]) * 0.8
        elif ctype == "intrigue":
            v += min(claim, len(g.player(me).hand)) * 1.0
        else:
            v += min(claim, g.house_power(me)) * 2.2
        if g.total_power(attacker) >= WIN - 3:
            v *= 1.5
        return v

    # -- setup ------------------------------------------------------------------------------------
    def setup_cost(self, g: Game, me: str, cid: int) -> int:
        d = g.defn(cid)
        return (0 if d.cost_x else (d.cost or 0)) + g.gold_penalty(me, cid)

    def setup_value(self, g: Game, cid: int) -> float:
        d = g.defn(cid)
        if d.type == "character":
            return judge.card_value(g, cid) + 1.0
        if d.type == "location":
            return judge.card_value(g, cid) + (1.0 if d.income else 0)
        return 0.3

    def on_setup(self, g: Game, d: Decision) -> list[dict]:
        me = d.player
        pool = [c for c in d.choices if g.defn(c).type in ("character", "location")]
        best, best_score = [], -1.0
        for k in range(len(pool), 0, -1):
            for combo in combinations(pool, k):
                cost = sum(self.setup_cost(g, me, c) for c in combo)
                if cost > SETUP_GOLD:
                    continue
                titles = [g.defn(c).name for c in combo if g.defn(c).unique]
                if len(titles) != len(set(titles)):
                    continue
                if sum(1 for c in combo if "limited" in g.defn(c).keywords) > 1:
                    continue
                chars = sum(1 for c in combo if g.defn(c).type == "character")
                score = sum(self.setup_value(g, c) for c in combo) + (1.5 if chars >= 2 else 0) \
                    + 0.3 * len({i for c in combo for i in g.defn(c).icons})
                if score > best_score:
                    best, best_score = list(combo), score
        self.say(f"{me} sets up {len(best)} cards for "
                 f"{sum(self.setup_cost(g, me, c) for c in best)} gold: the most characters and income it can")
        return [{"setup": best}, {"setup": best[:-1]}, {"setup": []}]

    # -- plots and first player -----------------------------------------------------------------------
    def plot_score(self, g: Game, me: str, cid: int) -> float:
        d = g.defn(cid)
        hand = g.player(me).hand
        wanted = sum(g.defn(c).cost or 0 for c in hand if not hidden(g, c)
                     and g.defn(c).type in ("character", "location", "attachment"))
        gold_weight = 1.0 if wanted >= d.income else 0.5
        mine = len(g.characters(me))
        theirs = max((len(g.characters(o)) for o in self.opponents(g, me)), default=0)
        claim_weight = 1.4 if mine >= theirs else 0.8
        return gold_weight * d.income + claim_weight * d.claim + 0.15 * d.initiative + 0.3 * bool(d.abilities) \
            + 0.8 * judge.plot_effect_score(g, me, cid)

    def on_plot(self, g: Game, d: Decision) -> list[dict]:
        scored = sorted(d.options, key=lambda o: -self.plot_score(g, d.player, o["plot"]))
        best = scored[0]["plot"]
        self.say(f"{d.player} chooses its plot for its gold, claim and initiative")  # the plot stays secret
        return scored

    def on_first_player(self, g: Game, d: Decision) -> list[dict]:
        """The opponent goes first: his attackers kneel before ours are declared (fewer defenders against
        us), and our characters stand to defend while he attacks."""
        others = [o for o in d.options if o["first_player"] != d.player]
        first = self.leader(g, d.player, [o["first_player"] for o in others]) if others else d.player
        self.say(f"{d.player} lets {first} go first: it challenges after his attackers have knelt")
        return sorted(d.options, key=lambda o: o["first_player"] != first)

    # -- actions: marshalling and triggered abilities ---------------------------------------------------
    def gold_reserve(self, g: Game, me: str) -> int:
        """Gold kept for events in hand whose text the engine plays."""
        costs = [g.defn(c).cost or 0 for c in g.player(me).hand
                 if not hidden(g, c) and g.defn(c).type == "event" and g.defn(c).abilities]
        return min(max(costs, default=0), 2)

    def attachment_polarity(self, g: Game, cid: int) -> int:
        """+1: an attachment that helps its host; -1: one meant for an opponent's card."""
        sign = 1
        for ab in triggers.abilities(g, cid):
            if ab.control_host:
                return -1
            m = ab.modify or {}
            if int(m.get("strength", 0) or 0) < 0 or m.get("blank") or m.get("remove_icons") or \
                    m.get("cannot") or ab.terminal:
                sign = -1
        return sign

    def marshal_score(self, g: Game, me: str, o: dict) -> float:
        cid = o["marshal"]
        d = g.defn(cid)
        if o.get("duplicate"):
            return 3.5
        cost = legality.marshal_cost(g, me, cid, o.get("x", 0))
        v = judge.card_value(g, cid)
        if d.type == "character":
            v += 1.5 if len(g.characters(me)) < 6 else 0.5
        elif d.type == "location":
            v += 1.2 * d.income * (1.0 if g.state.round <= 3 else 0.4)
        elif d.type == "attachment" or o.get("attach_to") is not None:
            host = o.get("attach_to")
            if host is None:
                return -5
            side = judge.owner_side(g, me, host) if g.card(host).zone == "in_play" else 1
            pol = self.attachment_polarity(g, cid)
            if side * pol < 0:
                return -10.0  # a good attachment on an opponent's card, or a bad one on ours
            hv = judge.card_value(g, host) if g.card_type(host) == "character" else 1.0
            v += 0.3 * hv
        return v - 0.15 * cost

    def trigger_score(self, g: Game, me: str, o: dict) -> float:
        return judge.effect_score(g, me, o) - judge.cost_of(g, me, o)

    def on_action(self, g: Game, d: Decision) -> list[dict]:
        me = d.player
        marshal = [o for o in d.options if "marshal" in o]
        trig = [o for o in d.options if "trigger" in o and not judge.harms_own(g, me, o)]
        scored: list[tuple[float, dict, str]] = []
        gold = g.player(me).gold
        reserve = self.gold_reserve(g, me)
        for o in marshal:
            s = self.marshal_score(g, me, o)
            cost = 0 if o.get("duplicate") else legality.marshal_cost(g, me, o["marshal"], o.get("x", 0))
            if s <= -5:
                continue
            if g.defn(o["marshal"]).type != "event" and gold - cost < reserve and cost > 0 and \
                    any(c for c in marshal if c is not o):
                s -= 1.0
            scored.append((s + 2.0, o, f"{me} marshals {g.name(o['marshal'])}"
                           + (" as a duplicate" if o.get("duplicate") else "")
                           + (f" onto {g.name(o['attach_to'])}" if o.get("attach_to") is not None else "")))
        for o in trig:
            s = self.trigger_score(g, me, o)
            if s > 0.6:
                targets = [g.name(t) if isinstance(t, int) else str(t) for t in o.get("targets") or []]
                scored.append((s, o, f"{me} uses {g.name(o['trigger'])}"
                               + (f" on {', '.join(targets)}" if targets else "") + f" (worth {s:.1f})"))
        scored.sort(key=lambda x: -x[0])
        if scored:
            self.say(scored[0][2])
        else:
            self.say(f"{me} passes")
        return [o for _, o, _ in scored]

    # -- challenges ------------------------------------------------------------------------------------
    def able(self, g: Game, d: Decision, ctype: str) -> list[int]:
        return [c for c in d.choices if ctype in g.icons(c) and not g.card(c).kneeling]

    def enough(self, g: Game, able: list[int], need: int, renown: bool = True) -> list[int] | None:
        """Fewest attackers (strongest first) reaching ``need`` STR (ties win for the attacker)."""
        need = max(need, 1)
        picks, total = [], 0
        for c in sorted(able, key=lambda c: -g.strength(c)):
            if total >= need:
                break
            picks.append(c)
            total += g.strength(c)
        if total < need:
            return None
        # drop attackers the total does not need (weakest first)
        for c in sorted(list(picks), key=lambda c: g.strength(c)):
            if total - g.strength(c) >= need:
                picks.remove(c)
                total -= g.strength(c)
        if renown:
            extra = [c for c in able if c not in picks and "renown" in g.keywords(c)]
            picks += extra[:1]
        return picks

    def on_challenge(self, g: Game, d: Decision) -> list[dict]:
        me = d.player
        types = list(d.context.get("types", CHALLENGE_TYPES))
        opps = [o for o in d.context.get("opponents", []) if not g.player(o).eliminated] or \
            list(d.context.get("opponents", []))
        plans = []
        for opp in opps:
            for t in types:
                able = self.able(g, d, t)
                if not able:
                    continue
                defence = self.str_of(g, self.defenders_for(g, opp, t))
                picks = self.enough(g, able, defence)
                value = self.claim_value(g, me, opp, t, unopposed=defence == 0)
                if picks is not None:
                    plans.append((value + 1.0 + (0.5 if opp == self.leader(g, me, opps) else 0), t, opp, picks,
                                  f"{me} attacks {opp} ({t}) with {self.str_of(g, picks)} STR against at most "
                                  f"{defence}: a challenge it can win"))
                elif self.str_of(g, able) >= 0.7 * defence and self.str_of(g, able) > 0:
                    plans.append((value * 0.4, t, opp, able,
                                  f"{me} attacks {opp} ({t}) with everything: {self.str_of(g, able)} STR"))
        plans.sort(key=lambda p: -p[0])
        out = [{"challenge": t, "against": opp, "attackers": picks} for _, t, opp, picks, _ in plans]
        if plans:
            self.say(plans[0][4])
        else:
            self.say(f"{me} makes no more challenges: none it can win")
        return out

    def on_stealth(self, g: Game, d: Decision) -> list[dict]:
        ch = g.state.challenge
        targets = sorted((c for c in d.choices if ch.type in g.icons(c) and not g.card(c).kneeling),
                         key=lambda c: -g.strength(c))
        mapping = dict(zip(d.context.get("attackers", []), targets))
        self.say("stealth takes out the strongest defenders")
        return [{"stealth": mapping}] if mapping else []

    def best_defence(self, g: Game, eligible: list[int], attack: int) -> list[int] | None:
        """The cheapest defenders whose STR beats ``attack`` (defenders need more STR than the attackers)."""
        best, best_cost = None, None
        pool = sorted(eligible, key=lambda c: -g.strength(c))[:10]
        for k in range(1, len(pool) + 1):
            for combo in combinations(pool, k):
                if self.str_of(g, combo) > attack:
                    cost = sum(judge.card_value(g, c) for c in combo)
                    if best_cost is None or cost < best_cost:
                        best, best_cost = list(combo), cost
            if best is not None and k >= 3:
                break
        return best

    def on_defend(self, g: Game, d: Decision) -> list[dict]:
        ch = g.state.challenge
        me = d.player
        attack = self.str_of(g, ch.attackers)
        eligible = list(d.choices)
        loss = self.loss_value(g, me, ch.attacker, ch.type, unopposed=True)
        block = self.best_defence(g, eligible, attack)
        if block is not None:
            cost = 0.3 * sum(judge.card_value(g, c) for c in block)
            if loss >= cost or ch.type == "military":
                self.say(f"{me} defends with {', '.join(g.name(c) for c in block)}: "
                         f"{self.str_of(g, block)} STR beats {attack}")
                return [{"defend": block}, {"defend": []}]
        if eligible and (g.total_power(ch.attacker) >= WIN - 2 or
                         ch.type == "power" and g.house_power(me) > 0 and len(eligible) > 1):
            chump = min(eligible, key=lambda c: judge.card_value(g, c))
            if ch.type != "military" or len(g.characters(me)) > g.claim(ch.attacker) + 1:
                self.say(f"{me} cannot win the {ch.type} challenge; {g.name(chump)} defends so it is not unopposed")
                return [{"defend": [chump]}, {"defend": []}]
        self.say(f"{me} lets the {ch.type} challenge through: {attack} STR is more than it can beat, "
                 f"or not worth kneeling for")
        return [{"defend": []}]

    # -- choices -------------------------------------------------------------------------------------------
    def source_polarity(self, g: Game, d: Decision) -> int:
        """-1 when the prompt's source ability harms what it chooses, +1 when it helps, 0 unknown."""
        prompt = d.prompt
        low = prompt.lower()
        if low.startswith(("military claim", "deadly")):
            return -1
        name = prompt.split(":")[0]
        for cid, c in g.state.cards.items():
            if hidden(g, cid) or g.defn(cid).name != name:
                continue
            words = set()
            for ab in triggers.abilities(g, cid):
                chosen = self.chosen_polarity(tuple(ab.effect) + tuple(ab.then))
                if chosen:
                    return chosen
                for e in tuple(ab.effect) + tuple(ab.then):
                    if isinstance(e, dict):
                        words |= set(e)
            if words & set(judge.HARM):
                return -1
            if words & (set(judge.HELP) | {"chooses"}):
                return 1
        if any(w in low for w in ("kill", "discard", "kneel", "return")):
            return -1
        return 0

    @staticmethod
    def chosen_polarity(effects: tuple) -> int:
        """For a ``chooses`` effect: +1 when being chosen spares a card (Wildfire Assault kills the
        unchosen ones) or helps it, -1 when the effects after it harm the chosen cards (Rule by Decree
        discards them), 0 without a ``chooses``."""
        harm = set(judge.HARM) | {"discard_cards", "discard_power"}
        for i, e in enumerate(effects):
            if not (isinstance(e, dict) and "chooses" in e):
                continue
            for later in effects[i + 1:]:
                if not isinstance(later, dict):
                    continue
                for word, arg in later.items():
                    if arg == "unchosen" and word in harm:
                        return 1
                    if arg == "chosen":
                        if word in harm or word == "modify":
                            return -1
                        if word in judge.HELP:
                            return 1
        return 0

    def on_choose(self, g: Game, d: Decision) -> list[dict]:
        me = d.player
        if d.options and len(d.options) == 1:
            return list(d.options)
        choices = list(d.choices)
        lo, hi = d.min_count, d.max_count
        if choices and all(isinstance(c, str) for c in choices):
            return self.choose_words(g, d, choices, lo, hi)
        pol = self.source_polarity(g, d)
        mine = lambda c: judge.owner_side(g, me, c) > 0  # noqa: E731

        def val(c):
            return judge.card_value(g, c) if isinstance(c, int) and c in g.state.cards else 0

        if pol < 0:
            # harmful: opponents' best cards first, then our least valuable
            order = sorted(choices, key=lambda c: (mine(c), -val(c) if not mine(c) else val(c)))
            n = hi if any(not mine(c) for c in choices) else lo
        else:
            # helpful (or unknown): our best cards first
            order = sorted(choices, key=lambda c: (not mine(c), -val(c)))
            n = hi if pol > 0 else max(lo, min(hi, sum(1 for c in choices if mine(c))))
        n = max(lo, min(hi, n))
        picks = order[:n]
        self.say(f"{me} chooses {', '.join(self.public_name(g, c) for c in picks) or 'nothing'}"
                 + (" (the least it loses)" if pol < 0 and all(mine(c) for c in picks) and picks else ""))
        return [{"choose": picks}, {"choose": order[:lo]}]

    def choose_words(self, g: Game, d: Decision, choices: list, lo: int, hi: int) -> list[dict]:
        me = d.player
        players = [c for c in choices if c in g.state.player_names]
        if d.context.get("end_order"):  # a win and an elimination at once (WIN-06): our own win first
            first = "victory" if me in d.context["winners"] else "elimination"
            self.say(f"{me} applies the {first} first")
            return [{"choose": [first]}]
        if players:
            pol = self.source_polarity(g, d)
            others = [p for p in players if p != me]
            if pol >= 0 and me in players and pol > 0:
                first = me
            else:
                first = self.leader(g, me, others) if others else players[0]
            order = [first] + [p for p in choices if p != first]
        else:
            pref = ["hand", "deck", "discard", "dead"]
            order = sorted(choices, key=lambda w: pref.index(w) if w in pref else 9)
        n = max(lo, 1) if hi else 0
        self.say(f"{me} chooses {', '.join(map(str, order[:n]))}")
        return [{"choose": order[:n]}]

    def on_order(self, g: Game, d: Decision) -> list[dict]:
        return [{"order": list(d.choices)}]

    # -- windows: saves, cancels, responses --------------------------------------------------------------------
    def on_save_cancel(self, g: Game, d: Decision) -> list[dict]:
        me = d.player
        out = []
        for o in d.options:
            if "duplicate_save" in o:
                self.say(f"{me} saves {g.name(o['duplicate_save'])} with a duplicate")
                return [o]
        event = str(d.context.get("event", ""))
        hostile = any(event.startswith(f"{p}'s ") for p in self.opponents(g, me))
        ch = g.state.challenge
        if event == "implement the challenge result" and ch is not None and ch.defender == me:
            hostile = True
        best = None
        for o in d.options:
            if "trigger" not in o or judge.harms_own(g, me, o):
                continue
            ab = judge.ability_of(g, o)
            cancels = ab is not None and "cancel" in ab.effect
            if cancels and not hostile:
                continue
            s = judge.effect_score(g, me, o) - judge.cost_of(g, me, o)
            if cancels:
                s = 2.5 - judge.cost_of(g, me, o)
            if s > 0.5 and (best is None or s > best[0]):
                best = (s, o)
        if best is not None:
            self.say(f"{me} uses {g.name(best[1]['trigger'])} against {event}")
            out.append(best[1])
        return out

    def on_response(self, g: Game, d: Decision) -> list[dict]:
        me = d.player
        scored = []
        for o in d.options:
            if "trigger" not in o or judge.harms_own(g, me, o):
                continue
            s = self.trigger_score(g, me, o)
            if s > 0.3:
                scored.append((s, o))
        scored.sort(key=lambda x: -x[0])
        if scored:
            self.say(f"{me} responds with {g.name(scored[0][1]['trigger'])}")
        return [o for _, o in scored]

    # -- card text by hand: skipped -------------------------------------------------------------------------------
    def on_by_hand_effect(self, g: Game, d: Decision) -> list[dict]:
        self.say(f"{d.player} leaves card text by hand undone (the computer plays automated text only)")
        return [{"done": True}]

    def on_by_hand_passive(self, g: Game, d: Decision) -> list[dict]:
        self.say(f"{d.player} skips card text by hand")
        return [{"pass": True}]
