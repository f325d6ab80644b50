"""Costs (COS-06..12): each cost word checks whether it can be paid now and pays it in step 1e.

A ``@cost`` entry registers ``check(g, player, cid, ab, ctx, value) -> problem | None``; its
``pay(g, player, cid, ab, value)`` is given as ``pay=``. ``leaves_play=True`` costs are paid last
(the card leaves play after it has knelt or lost its power). Gold and influence also need the
answer's ``pay`` list and the event's printed cost, handled below.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from engine.abilities.conditions import condition_holds
from engine.abilities.filters import candidates, matches
from engine.abilities.model import Ability, Ctx
from engine.abilities.registry import REGISTRY, Either, FilterSchema, Int, TrueOnly, Words, cost

if TYPE_CHECKING:
    from engine.game import Game


def _no_pay(g, player, cid, ab, value):
    return None


def _check_gold(g, player, cid, ab, ctx, value):
    return None  # with the printed cost, in restriction_problem (C-14)


cost("gold", Int(), "gold, paid when the ability's own label allows; an event's printed cost can be paid only "
     "in your own marshalling turn (MAR-08, C-14: the card's text, not the rule, says when its gold is spent)",
     pay=_no_pay,
        phrase=lambda v, r: f"pay {v} gold")(_check_gold)


def _check_kneel_self(g, player, cid, ab, ctx, value):
    c = g.card(cid)
    if c.kneeling or c.zone not in ("in_play", "attached", "house", "agenda"):
        return f"{g.name(cid)} must kneel to pay its cost, and it is already kneeling (ZON-06, COS-06)"
    return None


def _pay_kneel_self(g, player, cid, ab, value):
    g.card(cid).kneeling = True


cost("kneel_self", TrueOnly(), "kneel this card", pay=_pay_kneel_self,
        phrase=lambda v, r: "kneel this card")(_check_kneel_self)


def _check_kneel_house(g, player, cid, ab, ctx, value):
    house = g.player(player).house_card
    if house is None or g.card(house).kneeling:
        return f"{player}'s House card must stand to be knelt for {g.name(cid)}'s cost (ZON-06, COS-06)"
    return None


def _pay_kneel_house(g, player, cid, ab, value):
    g.card(g.player(player).house_card).kneeling = True


cost("kneel_house", TrueOnly(), "kneel your House card (the CCG's Commands)", pay=_pay_kneel_house,
        phrase=lambda v, r: "kneel your House card")(_check_kneel_house)


def _check_kneel_host(g, player, cid, ab, ctx, value):
    host = g.card(cid).attached_to
    if host is None or g.card(host).kneeling:
        return f"{g.name(cid)}: the attached character must stand to be knelt (ZON-06, COS-06)"
    return None


def _pay_kneel_host(g, player, cid, ab, value):
    c = g.card(cid)
    if c.attached_to is not None:
        g.card(c.attached_to).kneeling = True


cost("kneel_host", TrueOnly(), "kneel the attached character", pay=_pay_kneel_host,
        phrase=lambda v, r: "kneel " + r.host_noun)(_check_kneel_host)


def _check_leaving(g, player, cid, ab, ctx, value):
    if g.card(cid).moribund is not None:
        return f"{g.name(cid)} is already leaving play (moribund, MOR-03)"
    return None


cost("discard_self", TrueOnly(), "this card is discarded to pay: it becomes moribund (MOR-01)",
     pay=lambda g, player, cid, ab, value: g.remove(cid, "discard"), leaves_play=True,
        phrase=lambda v, r: "discard this card")(_check_leaving)
cost("kill_self", TrueOnly(), "this card is killed to pay: it becomes moribund (MOR-01)",
     pay=lambda g, player, cid, ab, value: g.remove(cid, "dead"), leaves_play=True,
        phrase=lambda v, r: "kill this card")(_check_leaving)


def _check_kill_host(g, player, cid, ab, ctx, value):
    host = g.card(cid).attached_to
    if host is None:
        return f"{g.name(cid)} is attached to no character to kill (COS-06)"
    if g.card(host).moribund is not None:
        return f"{g.name(host)} is already leaving play (moribund, MOR-03)"
    if g.cannot(host, "be_killed"):
        return f"{g.name(host)} cannot be killed (COS-06)"
    return None


cost("kill_host", TrueOnly(), "the attached character is killed to pay: it becomes moribund (MOR-01; issue 24: "
     "Take the White)",
     pay=lambda g, player, cid, ab, value: g.remove(g.card(cid).attached_to, "dead"), leaves_play=True,
        phrase=lambda v, r: "kill " + r.host_noun)(_check_kill_host)


def _check_power_self(g, player, cid, ab, ctx, value):
    c = g.card(cid)
    if value > c.power:
        return f"{g.name(cid)} has {c.power} power; the cost needs {value} (COS-06)"
    return None


def _pay_power_self(g, player, cid, ab, value):
    if value:
        g.card(cid).power -= value


cost("power_self", Int(minimum=1), "discard N power from this card", pay=_pay_power_self,
        phrase=lambda v, r: f"discard {v} power from this card")(_check_power_self)


def _check_discard_from_hand(g, player, cid, ab, ctx, value):
    c = g.card(cid)
    if value > len(g.player(player).hand) - (1 if c.zone == "hand" else 0):
        return f"{player} has too few cards in hand to pay for {g.name(cid)} (COS-06)"
    return None


cost("discard_from_hand", Int(minimum=1), "(checked only: the table asks for the cards)",
     pay=_no_pay,
        phrase=lambda v, r: f"discard {r.count(v, 'card')} from your hand")(_check_discard_from_hand)


def kneel_count(value, x: int = 0) -> int:
    """How many cards a ``kneel`` cost kneels: its ``count`` (default 1), or the X paid (``count: x``: "kneel X
    Battlefield locations", A Song of Night)."""
    n = value.get("count", 1) if isinstance(value, dict) else 1
    return int(x) if n == "x" else int(n)


def _check_kneel(g, player, cid, ab, ctx, value):
    f = dict(value) if isinstance(value, dict) else {}
    f.pop("count", None)
    n = kneel_count(value, ctx.x)
    f["controller"], f["standing"] = "you", True
    if len(candidates(g, f, ctx)) < n:
        return f"{g.name(cid)}: {player} has no standing card to kneel for its cost (COS-05, COS-06)"
    return None


cost("kneel", FilterSchema({"count": Either(Int(minimum=1), Words("x"), form="N | x")}, form="FILTER (with count)"),
     "kneel standing cards you control that match; the answer names them first in `pay` (then any influence "
     "cards). A moribund card is still in play and may kneel (the FAQ's Treachery example); `count: x`: as many as "
     "the answer's `x` (\"kneel X Battlefield locations\"), which effects and `choose` read as `x`",
     pay=_no_pay,
        phrase=lambda v, r: "kneel " + r.counted({"controller": "you", **v},
                                                 exactly="X" if v.get("count") == "x" else v.get("count", 1))
     )(_check_kneel)


def _check_influence(g, player, cid, ab, ctx, value):
    value = influence_cost(g, player, cid, ab)
    available = sum(g.bonus(i, "influence") for i in g.in_play_cards(player) if not g.card(i).kneeling)
    if available < value:
        return f"influence: {g.name(cid)} needs {value}; {player} has only {available} standing influence (COS-01)"
    return None


cost("influence", Int(minimum=1), "the answer's `pay: [CARDS]` kneels standing cards you control whose influence "
     "adds up to N or more (COS-01, C-25); paying influence is a cost, not an effect (COS-03)",
     pay=_no_pay,
        phrase=lambda v, r: f"kneel {v} influence")(_check_influence)

COSTS = REGISTRY["cost"]


# ---------------------------------------------------------------------------
# Limits, reducers and the checks of step 1
# ---------------------------------------------------------------------------

def limit_key(g: Game, cid: int, ab: Ability, player: str | None = None) -> str | None:
    """Limits count per title, across every copy a player uses (ERR-91: Patchface's FAQ)."""
    if ab.limit is None:
        return None
    per = ab.limit[1]
    period = {"challenge": g.state.challenge_serial, "phase": g.state.phase_serial, "round": g.state.round,
              "game": 0}[per]
    who = player or g.card(cid).controller
    if len(ab.limit) > 2:  # core-d: a limit shared by every ability with that name (Limited Response)
        return f"{who}:shared:{ab.limit[2]}:{per}:{period}"
    return f"{who}:{g.name(cid)}:{ab.index}:{per}:{period}"


def reducers_for(g: Game, player: str, cid: int, kind: str = "gold") -> list[int]:
    """Indices of every waiting reduction of that kind (gold, or influence: ``reduce_influence``) that
    applies to playing ``cid``: all of them apply to it (COS-07 d) and it uses them all up."""
    return [i for i, r in enumerate(g.state.reducers)
            if r["player"] in (player, "any") and r.get("kind", "gold") == kind
            and matches(g, cid, r["filter"], Ctx(r["source"], player))]


def reduction(g: Game, player: str, cid: int, kind: str = "gold") -> int:
    if not g.state.reducers:
        return 0
    return sum(_reducer_amount(g, g.state.reducers[i], cid) for i in reducers_for(g, player, cid, kind))


def _reducer_amount(g: Game, r: dict, cid: int) -> int:
    """A reduction's gold; ``printed_cost``: the printed cost of the card it lowers (issue 24: A Test of Devotion)."""
    if r["amount"] == "printed_cost":
        d = g.defn(cid)
        return 0 if d.cost_x else int(d.cost or 0)
    return r["amount"]


def use_reducer(g: Game, player: str, cid: int, kind: str = "gold") -> None:
    """Playing the card uses up the reductions it had (one card per reduction)."""
    used = set(reducers_for(g, player, cid, kind))
    g.state.reducers = [r for i, r in enumerate(g.state.reducers) if i not in used]


def influence_cost(g: Game, player: str, cid: int, ab: Ability, x: int = 0) -> int:
    """The ability's influence cost (plus X with ``influence_x``) less the influence reductions waiting for
    its card (COS-12: influence costs can be reduced), never below 0."""
    fixed = int(ab.cost.get("influence", 0) or 0)
    if fixed and g.state.reducers and ab.kind != "passive" and reducers_for(g, player, cid, "free"):  # issue 24: Favors for the King
        fixed = 0
    need = fixed + (int(x) if ab.cost.get("influence_x") else 0)
    return max(0, need - reduction(g, player, cid, "influence")) if need else 0


def gold_cost(g: Game, player: str, cid: int, ab: Ability, x: int) -> int:
    free = bool(g.state.reducers) and ab.kind != "passive" and bool(reducers_for(g, player, cid, "free"))  # issue 24: Favors for the King
    fixed = 0 if free else ab.cost.get("gold", 0)
    if g.card_type(cid) == "event" and g.card(cid).zone == "hand":
        d = g.defn(cid)
        printed = max(0, (x if d.cost_x else (0 if free else d.cost or 0)) - reduction(g, player, cid))  # COS-12
        return printed + fixed + (x if ab.cost.get("gold_x") else 0)
    return fixed + (x if ab.cost.get("gold_x") else 0)


def restriction_problem(g: Game, player: str, cid: int, ab: Ability, ctx: Ctx, *, x: int = 0,
                        influence: bool = True, why: bool = True) -> str | None:
    """COS-13: phase labels, conditions, limits and payable costs (without targets). ``why=False``:
    a failed play restriction is not explained (whoever asks only wants to know if there is one)."""
    st = g.state
    title = g.name(cid)
    if ab.phase and ab.phase != "any" and ab.kind == "action" and st.phase != ab.phase:
        return f"{title} can be used only in the {ab.phase} phase (RND-05)"
    if not condition_holds(g, ab.condition, ctx):
        if not why:
            return f"{title}: its play restriction is not met now (COS-13)"
        failed = next((k for k, v in ab.condition.items() if not condition_holds(g, {k: v}, ctx)), None)
        why = f" ({failed}: {ab.condition[failed]}: {REGISTRY['condition'][failed].doc})" \
            if failed in REGISTRY["condition"] else ""
        return f"{title}: its play restriction is not met now{why} (COS-13)"
    key = limit_key(g, cid, ab, player)
    if key and st.counters.get(key, 0) >= ab.limit[0]:
        return f"{title}: limit {ab.limit[0]} per {ab.limit[1]} reached (COS-13)"
    c = g.card(cid)
    gold = gold_cost(g, player, cid, ab, x)
    d = g.defn(cid)
    printed_gold = (d.cost or d.cost_x) if d.type == "event" and c.zone == "hand" else 0
    if d.type == "event" and c.zone == "hand" and g.has_keyword(cid, "limited") and g.player(player).limited_played \
            and not g.extra_limited_allowed(player, cid):  # issue 24: Arianne's Admirer
        return f"{player} has already played a Limited card this round (MAR-11)"  # any type counts (KW-07)
    if printed_gold and not (st.phase == "marshalling" and st.active_player == player):
        # C-14: a gold-cost card only in your own marshalling turn; an ability whose text asks
        # for gold says when it may be paid, so its label rules
        return f"{title} costs gold: it can be played only in {player}'s own marshalling turn (MAR-08, C-14)"
    if gold > g.spendable_gold(player):
        tokens = g.spendable_gold(player) - g.player(player).gold
        return f"gold: {title} costs {gold}; {player} has {g.player(player).gold}" + \
            (f" and {tokens} on cards" if tokens else "") + " (COS-07 e)"
    for name, word in COSTS.items():
        if name not in ab.cost or name == "influence" and not influence:
            continue
        value = ab.cost[name]
        if value is False or value == 0:
            continue
        problem = word.impl(g, player, cid, ab, ctx, value)
        if problem:
            return problem
    return None


def influence_problem(g: Game, player: str, need: int, pay: list) -> str | None:
    """COS-01/05, C-25: kneel standing cards you control with total influence >= need."""
    if not need:
        return "this ability has no influence cost; do not name cards to pay (COS-10)" if pay else None
    for cid in pay:  # first what no table can do, even in advise mode: kneel a card that is not in play
        if cid not in g.state.cards:
            return f"there is no card {cid} (COS-05)"
        if g.card(cid).zone not in ("in_play", "attached", "house"):
            return f"{g.name(cid)} is not in play, so it cannot kneel to pay influence (COS-05)"
    if len(set(pay)) != len(pay):
        return "each card kneels once to pay influence (COS-05)"
    total = 0
    for cid in pay:
        c = g.card(cid)
        if c.controller != player:
            return f"influence: {g.name(cid)} is not a card {player} controls in play (COS-05)"
        if c.kneeling:
            return f"influence: {g.name(cid)} is kneeling and cannot be knelt for influence (COS-01)"
        if g.bonus(cid, "influence") <= 0:
            return f"influence: {g.name(cid)} provides no influence (COS-02)"
        total += g.bonus(cid, "influence")
    if total < need:
        return f"influence: {need} needed, {total} knelt (COS-01)"
    return None


def split_pay(ab: Ability, pay: list, x: int = 0) -> tuple[list, list]:
    """``pay`` lists the cards knelt for a ``kneel`` cost first, then those knelt for influence."""
    if "kneel" not in ab.cost:
        return [], list(pay)
    n = kneel_count(ab.cost["kneel"], x)
    return list(pay[:n]), list(pay[n:])


def kneel_cost_problem(g: Game, player: str, ab: Ability, cards: list, ctx: Ctx) -> str | None:
    """A "kneel a character you control" cost: standing cards you control (COS-05); a moribund card
    is still in play and can kneel (the FAQ's Treachery example)."""
    if "kneel" not in ab.cost:
        return None
    f = dict(ab.cost["kneel"]) if isinstance(ab.cost["kneel"], dict) else {}
    f.pop("count", None)
    n = kneel_count(ab.cost["kneel"], ctx.x)
    f["controller"] = "you"
    if len(cards) != n:
        return f"name {n} card{'s' if n != 1 else ''} to kneel for the cost, first in 'pay' (COS-06)"
    for cid in cards:
        if cid not in g.state.cards or g.card(cid).zone not in ("in_play", "attached"):
            return f"{cid!r} is not a card in play (COS-05)"
        if g.card(cid).kneeling:
            return f"{g.name(cid)} is already kneeling and cannot kneel to pay the cost (ZON-06)"
        if not matches(g, cid, f, ctx):
            return f"{g.name(cid)} cannot be knelt for this cost (COS-05)"
    return None


def payment(g: Game, player: str, cid: int, ab: Ability, ctx: Ctx) -> list | None:
    """Cards to name in ``pay``: a kneel cost's cards first, then influence, largest first (C-25)."""
    pay: list[int] = []
    if "kneel" in ab.cost:
        f = dict(ab.cost["kneel"]) if isinstance(ab.cost["kneel"], dict) else {}
        f.pop("count", None)
        n = kneel_count(ab.cost["kneel"], ctx.x)
        f["controller"], f["standing"] = "you", True
        found = [c for c in candidates(g, f, ctx) if not (ab.cost.get("kneel_self") and c == cid)][:n]
        if len(found) < n:
            return None
        pay += found
    need = influence_cost(g, player, cid, ab)
    if need:
        givers = sorted((c for c in g.in_play_cards(player) + [g.player(player).house_card]
                         if c is not None and not g.card(c).kneeling and g.bonus(c, "influence") > 0
                         and c not in pay and not (ab.cost.get("kneel_self") and c == cid)),
                        key=lambda c: -g.bonus(c, "influence"))
        total = 0
        for c in givers:
            if total >= need:
                break
            pay.append(c)
            total += g.bonus(c, "influence")
        if total < need:
            return None
    return pay


def pay_costs(g: Game, player: str, cid: int, ab: Ability, answer: dict) -> None:
    """COS-07 e: pay every cost; an event leaves the hand and is moribund until step 6 (MOR-05)."""
    c = g.card(cid)
    p = g.player(player)
    gold = gold_cost(g, player, cid, ab, answer.get("x", 0))
    if ab.cost.get("gold_target_cost"):  # core-c: X = the chosen targets' printed cost
        gold += target_gold(g, answer)
    if gold:  # advise mode may underpay; gold tokens as the answer's gold_tokens says (Tywin Lannister)
        g.spend_gold(player, gold, answer.get("gold_tokens"))
    for i in answer.get("pay", []):
        g.card(i).kneeling = True  # COS-03: paying influence (or a kneel cost) is a cost, not an effect
    for last in (False, True):  # a card leaves play after it has knelt or lost power for the cost
        for name, word in COSTS.items():
            if bool(word.extra.get("leaves_play")) == last and ab.cost.get(name):
                word.extra["pay"](g, player, cid, ab, ab.cost[name])
    key = limit_key(g, cid, ab, player)
    if key:
        g.state.counters[key] = g.state.counters.get(key, 0) + 1
    if ab.cost.get("influence") and g.state.reducers:
        use_reducer(g, player, cid, "influence")
    if g.state.reducers and ab.kind != "passive":  # issue 24: the next matching trigger uses up a free_next (Favors for the King)
        use_reducer(g, player, cid, "free")
    if g.card_type(cid) == "event" and c.zone == "hand":
        use_reducer(g, player, cid)
        g._detach_from_location(cid)
        c.zone = "played"
        p.played.append(cid)
        c.moribund = "dead" if g.has_keyword(cid, "deathbound") else "discard"
        if g.has_keyword(cid, "limited"):
            if p.limited_played:  # issue 24: the additional Limited card (Arianne's Admirer)
                p.extra_limited_played = True
            p.limited_played = True


# --- core-b additions ---

def _check_gold_x(g, player, cid, ab, ctx, value):
    return None  # the X of the answer, with the gold, in restriction_problem (gold_cost)


cost("gold_x", TrueOnly(), "pay X gold, X chosen by the player (the answer's `x`); effects read it as `x`",
     pay=_no_pay,
        phrase=lambda v, r: "pay X gold")(_check_gold_x)


# --- core-c additions ---

def target_gold(g: Game, answer: dict) -> int:
    """The printed gold cost of the targets an answer chose (``gold_target_cost``)."""
    return sum(g.defn(t).cost or 0 for t in answer.get("targets") or [] if t in g.state.cards)


def _check_gold_target_cost(g, player, cid, ab, ctx, value):
    return None  # paid with the targets (pay_costs); choose a target whose cost you can pay (cost_max_your_gold)


cost("gold_target_cost", TrueOnly(), "pay X gold, where X is the printed cost of the chosen target (choose with "
     "`cost_max_your_gold: true` so that only targets you can pay for are legal)",
     pay=_no_pay,
        phrase=lambda v, r: "pay gold equal to the chosen card's printed cost")(_check_gold_target_cost)


# --- issue 24 (CCG Winter Edition) additions ---

def _check_influence_x(g, player, cid, ab, ctx, value):
    return None  # the X of the answer, with the influence, in the trigger's influence check (influence_cost)


cost("influence_x", TrueOnly(), "pay X influence, X chosen by the player (the answer's `x`; with `influence: N`, N + X); "
     "effects read it as `x` (\"kneel X influence to ...\")", pay=_no_pay,
     phrase=lambda v, r: "kneel X influence")(_check_influence_x)


# --- issue 24 (CCG Winter Edition, w1) additions: costs paid with cards the player chooses as he pays ---
# "Kill another Night's Watch character to ..." (Jon Snow), "discard one of your Night's Watch characters from
# play" (The Wall), "discard 1 power from a character you control" (Selyse Baratheon). The check only says a
# card can pay; in step 1e the player chooses which (``chosen_costs``: the flow asks), and ``pay_chosen`` pays.

CHOSEN_COSTS = ("kill", "discard", "power", "discard_in_hand", "leave_challenge")


def _chosen_filter(g: Game, cid: int, word: str, value) -> tuple[dict, int]:
    f = dict(value) if isinstance(value, dict) else {}
    n = int(f.pop("count", 1))
    if word == "discard_in_hand":  # issue 24: cards of your own hand (Ser Mandon Moore)
        f["from"] = "hand"
        return f, n
    f["controller"] = "you"
    if word == "power":
        f["power_min"] = 1
    else:
        f["moribund"] = False
    if word == "leave_challenge":  # issue 24: one of your participants (A Test of Arms)
        f["participating"] = True
    return f, n


def chosen_candidates(g: Game, player: str, cid: int, ab: Ability, ctx: Ctx, word: str) -> tuple[list[int], int]:
    """The cards ``player`` may choose to pay the ``word`` cost of the ability, and how many he must."""
    f, n = _chosen_filter(g, cid, word, ab.cost[word])
    found = candidates(g, f, ctx)
    if word == "kill":
        found = [c for c in found if not g.cannot(c, "be_killed")]
    elif word == "discard":
        found = [c for c in found if not g.cannot(c, "be_discarded")]
    elif word == "leave_challenge":
        found = [c for c in found if not g.cannot(c, "be_removed_from_challenge")]
    elif word == "discard_in_hand" and g.card(cid).zone == "hand":
        found = [c for c in found if c != cid]  # an event played from hand does not pay for itself
    if ab.cost.get("discard_self") or ab.cost.get("kill_self"):
        found = [c for c in found if c != cid]
    return found, n


def _check_chosen(word: str):
    def check(g, player, cid, ab, ctx, value):
        found, n = chosen_candidates(g, player, cid, ab, ctx, word)
        if len(found) < n:
            what = {"kill": "to kill", "discard": "to discard from play", "power": "with power to discard",
                    "discard_in_hand": "in hand to discard", "leave_challenge": "participating to remove"}[word]
            return f"{g.name(cid)}: {player} controls no card {what} for its cost (COS-05, COS-06)"
        return None
    return check


def chosen_costs(g: Game, player: str, cid: int, ab: Ability, ctx: Ctx) -> list[tuple[str, int, list[int]]]:
    """(word, how many, the cards he may choose) for each chosen-card cost of the ability, in a fixed order."""
    out = []
    for word in CHOSEN_COSTS:
        if ab.cost.get(word):
            found, n = chosen_candidates(g, player, cid, ab, ctx, word)
            out.append((word, min(n, len(found)), found))
    return out


def pay_chosen(g: Game, word: str, cards: list[int]) -> None:
    """Pay a chosen-card cost: kill or discard the cards (they become moribund, MOR-01), discard 1 power
    from each, discard them from the hand, or remove them from the challenge."""
    ch = g.state.challenge
    for c in cards:
        if word == "power":
            g.card(c).power -= 1
        elif word == "discard_in_hand":
            g.move_to_pile(c, "discard")
        elif word == "leave_challenge":
            if ch is not None and c in ch.attackers + ch.defenders:
                (ch.attackers if c in ch.attackers else ch.defenders).remove(c)
        else:
            g.remove(c, "dead" if word == "kill" else "discard")


_COUNTED = FilterSchema({"count": Int(minimum=1)}, form="FILTER (with count)")
cost("kill", _COUNTED, "kill cards you control that match (default 1), chosen as the cost is paid: they become "
     "moribund (MOR-01)", pay=_no_pay,
     phrase=lambda v, r: "kill " + r.counted({"controller": "you", **v}, exactly=v.get("count", 1)))(
    _check_chosen("kill"))
cost("discard", _COUNTED, "discard from play cards you control that match (default 1), chosen as the cost is "
     "paid: they become moribund (MOR-01)", pay=_no_pay,
     phrase=lambda v, r: "discard " + r.counted({"controller": "you", **v}, exactly=v.get("count", 1))
     + " from play")(_check_chosen("discard"))
cost("power", _COUNTED, "discard 1 power from each of that many cards you control that match (default 1), "
     "chosen as the cost is paid", pay=_no_pay,
     phrase=lambda v, r: "discard 1 power from " + r.counted({"controller": "you", **v},
                                                            exactly=v.get("count", 1)))(_check_chosen("power"))


# --- issue 24 (CCG Five Kings Edition, part 6): Lady Stoneheart ---

def _hand_to_discard(g: Game, player: str, cid: int) -> list[int]:
    return [c for c in g.player(player).hand if c != cid]


def _check_discard_hand(g, player, cid, ab, ctx, value):
    if value == "nonempty" and not _hand_to_discard(g, player, cid):
        return f"{g.name(cid)}: {player} has no card in hand to discard for its cost (COS-06)"
    return None


def _pay_discard_hand(g, player, cid, ab, value):
    """Every other card of the hand goes to the discard pile (an empty hand pays ``true``, ZON-12)."""
    cards = _hand_to_discard(g, player, cid)
    for c in cards:
        g.move_to_pile(c, "discard")
    g.log(f"{player} discards {', '.join(g.name(c) for c in cards) or 'an empty hand'} ({g.name(cid)})")


cost("discard_hand", Either(TrueOnly(), Words("nonempty"), form="true | nonempty"),
     "discard your hand (every card in it but this one): `true`, an empty hand pays it too (ZON-12: Dorne Goes to "
     "War); `nonempty`, the hand must hold at least 1 card (Lady Stoneheart)", pay=_pay_discard_hand,
     phrase=lambda v, r: "discard your hand" + (" (at least 1 card)" if v == "nonempty" else ""))(_check_discard_hand)
cost("discard_in_hand", _COUNTED, "discard from your hand cards that match (default 1), chosen as the cost is "
     "paid (Ser Mandon Moore: `{type: attachment}`)", pay=_no_pay,
     phrase=lambda v, r: "discard " + r.counted(v, exactly=v.get("count", 1)) + " from your hand")(
    _check_chosen("discard_in_hand"))
cost("leave_challenge", _COUNTED, "remove from the current challenge participating cards you control that match "
     "(default 1), chosen as the cost is paid (A Test of Arms: `{type: character, crest: war}`)", pay=_no_pay,
     phrase=lambda v, r: "remove " + r.counted({"controller": "you", "participating": True, **v},
                                               exactly=v.get("count", 1)) + " from the challenge")(
    _check_chosen("leave_challenge"))


# --- issue 24 (CCG A House of Talons) additions ---

def _check_house_power(g, player, cid, ab, ctx, value):
    if g.house_power(player) < value:
        return (f"{player} has {g.house_power(player)} power on his House card; {g.name(cid)} needs {value} "
                "(COS-06)")
    return None


def _pay_house_power(g, player, cid, ab, value):
    house = g.player(player).house_card
    if value and house is not None:
        g.card(house).power -= value
        g.log(f"{player} discards {value} power from his House card to pay for {g.name(cid)}")


cost("house_power", Int(minimum=1), "discard N power from your House card (the CCG's \"discard 2 power from your "
     "House to ...\")", pay=_pay_house_power,
     phrase=lambda v, r: f"discard {v} power from your House card")(_check_house_power)
