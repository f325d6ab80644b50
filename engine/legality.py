"""What is legal now, and why not: the questions the rules ask before anything changes.

Every function here only reads the game. A refusal is a sentence a player can
act on, naming the rule it comes from.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine import triggers
from engine.decisions import Decision, Refused, selection_checker  # noqa: F401 (re-exported)
from engine.state import CHALLENGE_TYPES, Challenge
from engine.steady import memo, steady
from engine.uniqueness import copies_in_play, entry_problem, unique_problem  # noqa: F401 - this module's API
from engine.wording import article

if TYPE_CHECKING:
    from engine.game import Game

SETUP_GOLD = 5


# -- uniqueness (UNQ-01..05) -----------------------------------------------------

def duplicate_host(g: Game, name: str, cid: int) -> int | None:
    """The unique card of the same title that ``name`` owns and controls in play (UNQ-05)."""
    return memo(g, ("duplicate_host", name, g.name(cid)), lambda: _duplicate_host(g, name, g.name(cid)))


def _duplicate_host(g: Game, name: str, title: str) -> int | None:
    for host in g.player(name).in_play:
        h = g.card(host)
        if g.name(host) == title and h.owner == name and h.controller == name and g.defn(host).unique \
                and h.moribund is None and not h.facedown:
            return host
    return None


# -- marshalling (MAR-04..11, ATT-01) ---------------------------------------------

def marshal_cost(g: Game, name: str, cid: int, x: int = 0) -> int:
    """Printed cost (X as announced) plus the gold penalty (COS-07 c); reducers come with abilities
    (worked out once per ``steady`` context). With no reducer waiting, no gold-penalty constant in play
    and no cost-lowering text on the card, it is the printed cost and the House penalty, kept per game."""
    keys, xkeys = triggers.keys_with(g, "lower_cost"), triggers.keys_with(g, "x_is")
    if not g.state.reducers and not triggers.constants_modify(g, "gold_penalty") and \
            not triggers.constants_modify(g, "no_house_penalty") and \
            not triggers.constants_modify(g, "lower_penalty") and \
            keys is not None and g.state.cards[cid].key not in keys and \
            xkeys is not None and g.state.cards[cid].key not in xkeys:
        fixed = g.__dict__.setdefault("_fixed_marshal_costs", {})
        key = (name, cid, x, g.state.cards[cid].key)
        found = fixed.get(key)
        if found is None:
            found = fixed[key] = _marshal_cost(g, name, cid, x)
        return found
    return memo(g, ("marshal_cost", name, cid, x), lambda: _marshal_cost(g, name, cid, x))


def constant_penalty(g: Game, cid: int) -> int:
    """The gold penalties (negative: reductions) the constants on ``cid`` put on its cost; ``printed_cost``: as much
    as its printed cost (issue 24: Euron Crow's Eye)."""
    d = g.defn(cid)
    return sum((0 if d.cost_x else (d.cost or 0)) if m.get("gold_penalty") == "printed_cost"
               else int(m.get("gold_penalty", 0)) for m in g._constants(cid))


def _marshal_cost(g: Game, name: str, cid: int, x: int) -> int:
    d = g.defn(cid)
    base = x if d.cost_x else (d.cost or 0)
    if d.cost_x:  # issue 24 (Lady of Schemes): X defined by the card's own text, whatever X was announced
        defined = triggers.defined_x(g, name, cid)
        base = x if defined is None else defined
    extra = constant_penalty(g, cid) if triggers.constants_modify(g, "gold_penalty") else 0  # +1; negative: reducer
    reduced = triggers.reduction(g, name, cid)  # COS-07 d: reducers after penalties
    reduced += triggers.lower_cost(g, name, cid)  # the card's own "lower the cost to play it"
    penalty = house_penalty(g, name, cid)
    if triggers.constants_modify(g, "lower_penalty"):  # issue 24: the Emissaries of the Iron Throne Edition
        penalty -= lowered_penalty(g, cid, penalty)
    return max(0, base + penalty + extra - reduced)  # never below 0 (COS-12)


def lowered_penalty(g: Game, cid: int, house: int) -> int:
    """How much the constants' ``lower_penalty`` takes off the card's gold penalties (the House penalty
    ``house`` and the penalties constants add, MAR-07): never more than they come to."""
    d = g.defn(cid)
    added = sum((0 if d.cost_x else (d.cost or 0)) if m.get("gold_penalty") == "printed_cost"
                else max(0, int(m.get("gold_penalty", 0))) for m in g._constants(cid))
    lower = sum(int(m.get("lower_penalty", 0)) for m in g._constants(cid))
    return min(lower, house + added)


def house_penalty(g: Game, name: str, cid: int) -> int:
    """The +2 gold penalty for another House (MAR-07, SET-06), unless a constant lifts it for the card
    (``no_house_penalty``: Maesters of the Citadel)."""
    penalty = g.gold_penalty(name, cid)
    if penalty and triggers.constants_modify(g, "no_house_penalty") and \
            any(m.get("no_house_penalty") for m in g._constants(cid)):
        return 0
    return penalty


def attach_problem(g: Game, cid: int, host: int | None) -> str | None:
    title = g.name(cid)
    if host is None:
        return f"{title} is an attachment: say which character it goes on (attach_to) (ATT-01)"
    if host not in g.state.cards:
        return f"there is no card {host} to attach {title} to (ATT-01)"
    h = g.card(host)
    if h.zone == "house" and "house" in triggers.host_types(g, cid):
        return triggers.attachment_restriction_problem(g, cid, host, g.card(cid).owner)
    if h.zone != "in_play" or h.facedown:
        return f"{title} must be attached to a card in play; {g.name(host)} is not in play (ATT-01)"
    if h.moribund is not None:
        return f"{g.name(host)} is leaving play (moribund) and cannot take attachments (ATT-01, MOR-03)"
    if g.has_keyword(host, "no attachments"):
        return f"{g.name(host)} has No Attachments (KW-08)"
    return triggers.attachment_restriction_problem(g, cid, host, g.card(cid).owner)


def normalise_marshal(answer: dict) -> dict:
    try:
        out = {"card": answer["marshal"], "duplicate": bool(answer.get("duplicate", False)),
               "attach_to": answer.get("attach_to"), "x": int(answer.get("x") or 0)}
    except (TypeError, ValueError):
        raise Refused("x must be a whole number (COS-08)")
    if answer.get("gold_tokens") is not None:  # how much of the cost gold tokens pay (Tywin Lannister)
        out["gold_tokens"] = answer["gold_tokens"]
    if answer.get("penalty"):  # issue 24: the optional gold penalty (Veteran Builder)
        out["penalty"] = True
    return out


def marshal_problem(g: Game, name: str, card: int, duplicate: bool = False, attach_to: int | None = None,
                    x: int = 0, gold_tokens: int | None = None, penalty: bool = False) -> str | None:
    """The first rule marshalling ``card`` now would break, or None."""
    found = marshal_problems(g, name, card, duplicate, attach_to, x, gold_tokens, penalty)
    return found[0] if found else None


def marshal_problems(g: Game, name: str, card: int, duplicate: bool = False, attach_to: int | None = None,
                     x: int = 0, gold_tokens: int | None = None, penalty: bool = False) -> list[str]:
    """Every rule marshalling ``card`` now would break (advise mode warns of them all): the turn
    (MAR-05), then what the card itself breaks, gold last."""
    if card not in g.state.cards:
        return [f"there is no card {card} (MAR-04)"]
    out = []
    st = g.state
    if st.phase != "marshalling" or st.active_player != name:
        out.append(f"{name} can marshal {g.name(card)} only in {name}'s own marshalling turn (MAR-05)")
    problem = _marshal_card_problem(g, name, card, duplicate, attach_to, x, gold_tokens, penalty=penalty)
    if problem:
        out.append(problem)
    d = g.defn(card)
    if problem and not problem.startswith("gold:") and not duplicate and x >= 0 \
            and d.type in ("character", "location", "attachment") and card in g.player(name).hand:
        cost = marshal_cost(g, name, card, x) + (triggers.optional_penalty(g, name, card) if penalty else 0)
        # the gold, too, when something else is also wrong
        if cost > g.spendable_gold(name):
            out.append(_gold_message(g, name, card, cost))
    return out


def _gold_message(g: Game, name: str, card: int, cost: int) -> str:
    penalty = " with the +2 gold penalty for another House" if house_penalty(g, name, card) else ""
    tokens = g.spendable_gold(name) - g.player(name).gold
    on_cards = f" and {tokens} on cards" if tokens else ""
    return f"gold: {g.name(card)} costs {cost}{penalty}; {name} has {g.player(name).gold}{on_cards} (MAR-04)"


def _marshal_card_problem(g: Game, name: str, card: int, duplicate: bool, attach_to: int | None,
                          x: int, gold_tokens: int | None = None, *, any_host: bool = False,
                          penalty: bool = False) -> str | None:
    """``any_host``: leave out where an attachment goes (``marshal_options`` asks that per host)."""
    st = g.state
    p = g.player(name)
    title = g.name(card)
    if card not in memo(g, ("hand", name), lambda: set(p.hand)):
        return f"{title} is not in {name}'s hand (MAR-04)"
    d = g.defn(card)
    stop = triggers.prohibited(g, name, "only_characters") if d.type != "character" else None
    if stop is not None:  # issue 24: Superior Numbers
        return f"{name} may play character cards only ({g.name(stop[0])}, GEN-01)"
    if duplicate:
        if not d.unique:
            return f"{title} is not unique, so it cannot be a duplicate (UNQ-05)"
        host = attach_to if attach_to is not None else duplicate_host(g, name, card)
        if host is None or host != duplicate_host(g, name, card) and not (
                host in st.cards and g.name(host) == title and g.card(host).owner == name
                and g.card(host).controller == name and g.card(host).zone == "in_play"):
            return (f"{name} has no {title} in play that he both owns and controls to put a duplicate on "
                    f"(UNQ-05)")
        return None
    if d.type == "event":
        return f"{title} is an event: play it with 'trigger', not 'marshal' (EFF-10)"
    if d.type not in ("character", "location", "attachment"):
        return f"{title} is {article(d.type)} and cannot be marshalled (MAR-05)"
    if x < 0:
        return "X cannot be negative (COS-08)"
    if p.limited_played and g.has_keyword(card, "limited") and not extra_limited_location(g, name, card):
        return f"{name} has already played a Limited card this round (MAR-11)"
    problem = unique_problem(g, name, card)
    if problem:
        return problem
    if any_host:
        pass
    elif d.type == "attachment" or attach_to is not None and may_attach(g, card):
        problem = attach_problem(g, card, attach_to)
        if problem:
            return problem
    elif attach_to is not None:
        return f"{title} is {article(d.type)}: it is not played as an attachment (ATT-01)"
    cost = marshal_cost(g, name, card, x)
    if penalty:  # issue 24: the gold penalty he chose to pay (Veteran Builder)
        if duplicate or not triggers.optional_penalty(g, name, card):
            return f"{title}: no gold penalty may be chosen for it (MAR-07)"
        cost += triggers.optional_penalty(g, name, card)
    if cost > g.spendable_gold(name):  # his pool and the gold tokens he may spend (Tywin Lannister)
        return _gold_message(g, name, card, cost)
    problem = g.gold_tokens_problem(name, cost, gold_tokens)
    if problem:
        return problem
    return None


def marshal_options(g: Game, name: str) -> list[dict]:
    """Every legal marshal answer for ``name`` now (empty outside his marshalling turn)."""
    st = g.state
    if st.phase != "marshalling" or st.active_player != name:
        return []
    with steady(g):  # nothing changes meanwhile: what the table gives is worked out once
        return _marshal_options(g, name)


def _marshal_options(g: Game, name: str) -> list[dict]:
    st = g.state
    out = []
    gold = g.spendable_gold(name)
    for cid in g.player(name).hand:
        d = g.defn(cid)
        if d.unique and duplicate_host(g, name, cid) is not None:
            out.append({"marshal": cid, "duplicate": True, "attach_to": None, "x": 0})
            continue
        if d.type not in ("character", "location", "attachment") or marshal_cost(g, name, cid, 0) > gold:
            continue  # what every check below would find first or last (MAR-04)
        # marshal_options runs only in the player's own marshalling turn (MAR-05): what the card
        # itself breaks is the whole answer, without building the messages of marshal_problems
        if d.type != "attachment" and may_attach(g, cid):
            for p in st.players:
                if p.house_card is not None and \
                        _marshal_card_problem(g, name, cid, False, p.house_card, 0) is None:
                    out.append({"marshal": cid, "duplicate": False, "attach_to": p.house_card, "x": 0})
        if d.type == "attachment":  # what the card itself breaks once, then each host
            if _marshal_card_problem(g, name, cid, False, None, 0, any_host=True) is None:
                for p in st.players:
                    for host in p.in_play:
                        if attach_problem(g, cid, host) is None:
                            out.append({"marshal": cid, "duplicate": False, "attach_to": host, "x": 0})
        elif _marshal_card_problem(g, name, cid, False, None, 0) is None:
            out.append({"marshal": cid, "duplicate": False, "attach_to": None, "x": 0})
    return out


def trigger_problem(g: Game, name: str, answer: dict) -> str:
    if "trigger" in answer:
        cid = answer["trigger"]
        label = g.name(cid) if cid in g.state.cards else str(cid)
        return f"{label} has no ability that {name} can trigger now (TIM-02)"
    return "no such action (TIM-02)"


def duplicate_save_problem(g: Game, name: str, cid: Any, victims: list[int]) -> str | None:
    if cid not in g.state.cards:
        return f"there is no card {cid} (UNQ-08)"
    title = g.name(cid)
    if cid not in victims:
        return f"{title} is not about to be killed or discarded, so there is nothing to save it from (UNQ-08, TIM-07)"
    if g.card(cid).controller != name:
        return f"only {g.card(cid).controller} can save {title} with a duplicate (UNQ-08)"
    if not g.card(cid).duplicates:
        return f"{title} has no duplicate to discard (UNQ-08)"
    return None


# -- selections -------------------------------------------------------------------

# ``selection_checker`` lives in engine.decisions (the abilities package asks with it too).


# -- setup (SET-02..06) ---------------------------------------------------------------

def setup_problem(g: Game, name: str, answer: dict, soft: list[str] | None = None) -> str | None:
    """Why this setup is not legal. With ``soft`` (advise mode), the gold limit and the Limited
    count are collected there as warnings instead of refusals."""
    p = g.player(name)
    cards = answer.get("setup", [])
    attach = answer.get("attach") or {}
    if answer.get("duplicates"):
        return "duplicates may not be placed during setup (SET-05)"
    if not isinstance(cards, list) or not isinstance(attach, dict):
        return "setup takes a list of cards, and attach a mapping of attachment to host (SET-02)"
    if len(set(cards)) != len(cards):
        return "each card can be placed once (SET-02)"
    total, limited, titles = 0, 0, set()
    hand = set(p.hand)
    for cid in cards:
        if cid not in hand:
            label = g.name(cid) if cid in g.state.cards else cid
            return f"{label} is not in {name}'s setup hand (SET-02)"
        d = g.defn(cid)
        if d.type not in ("character", "location") and not g.has_keyword(cid, "setup"):
            return f"{d.name} is {article(d.type)}: only characters, locations and Setup cards are placed (SET-02/03)"
        if d.type == "attachment" and cid not in attach:
            return f"{d.name} is an attachment: say which placed character it goes on (attach) (SET-03, ATT-01)"
        if d.unique:
            if d.name in titles:
                return f"two copies of the unique {d.name} cannot both be placed (SET-05)"
            titles.add(d.name)
        if g.has_keyword(cid, "limited"):
            limited += 1
        penalty = house_penalty(g, name, cid)
        if penalty and triggers.constants_modify(g, "gold_penalty"):  # SET-06 with a penalty the agenda lowers
            penalty = max(0, penalty + constant_penalty(g, cid))  # (The True Queen)
        total += (0 if d.cost_x else (d.cost or 0)) + penalty
    for broken in ("at most one Limited card may be placed at setup (SET-04)" if limited > 1 else None,
                   f"setup cards cost {total} gold with penalties; at most {SETUP_GOLD} (SET-02/06)"
                   if total > SETUP_GOLD else None):
        if broken and soft is None:
            return broken
        if broken:
            soft.append(broken)
    for att, host in attach.items():
        if att not in cards or host not in cards:
            return "attach names cards that are both placed in this setup (SET-03)"
        if att == host or host in attach or g.defn(att).type != "attachment":
            return (f"attach puts an attachment on a placed character; {g.name(att)} cannot go on "
                    f"{'itself' if att == host else g.name(host)} (SET-02)")
        if g.card_type(host) != "character":
            return f"{g.name(att)} must go on a character (ATT-01)"
        if g.has_keyword(host, "no attachments"):
            return f"{g.name(host)} has No Attachments (KW-08)"
        if triggers.weapon_only_problem(g, att, host):  # core-c
            return triggers.weapon_only_problem(g, att, host)
    return None


def setup_decision(g: Game, name: str) -> Decision:
    p = g.player(name)
    eligible = [c for c in p.hand if g.defn(c).type in ("character", "location") or g.has_keyword(c, "setup")]

    def check(answer: dict) -> dict:
        normal = {"setup": list(answer.get("setup") or []), "attach": dict(answer.get("attach") or {}),
                  "duplicates": dict(answer.get("duplicates") or {})}
        soft: list[str] | None = [] if g.options.mode == "advise" else None
        problem = setup_problem(g, name, normal, soft)
        if problem:
            raise Refused(problem)
        for broken in soft or []:
            g.warn(name, broken)  # advise mode: the setup stands, the rule is pointed out
        normal.pop("duplicates")
        return normal

    return Decision("setup", name, f"place up to {SETUP_GOLD} gold of setup cards, facedown",
                    choices=eligible, min_count=0, max_count=len(eligible), can_pass=True, checker=check)


def place_setup(g: Game, name: str, answer: dict) -> None:
    cards = answer.get("setup", [])
    attach = answer.get("attach") or {}
    for cid in cards:
        if cid not in attach:
            g.put_in_play(cid, name, facedown=True)
    for att, host in attach.items():
        g.attach(att, host, name)
        g.card(att).facedown = True
    g.log(f"{name} places {len(cards)} setup card{'s' if len(cards) != 1 else ''} facedown")


# -- challenges (CHL-01..07) -------------------------------------------------------------

def may_attach(g: Game, cid: int) -> bool:
    """A card of another type that its own text lets its player play as an attachment (``attach_to``
    naming a host type, e.g. a location played on the House card)."""
    return any(ab.kind == "constant" and ab.attach_to and "type" in ab.attach_to
               for ab in triggers.abilities(g, cid))


def can_attack(g: Game, name: str, cid: int, ctype: str) -> bool:
    c = g.card(cid)
    return (c.zone == "in_play" and c.controller == name and not c.kneeling and not c.facedown
            and g.card_type(cid) == "character" and has_icon_for(g, cid, ctype) and c.moribund is None
            and not triggers.cannot_be(g, cid, "attacker") and not g.cannot(cid, "attack")
            and not g.cannot(cid, f"participate_{ctype}"))


def challenge_problem(g: Game, name: str, answer: dict) -> str | None:
    ctype, against, attackers = answer.get("challenge"), answer.get("against"), answer.get("attackers")
    p = g.player(name)
    if ctype not in CHALLENGE_TYPES:
        return f"unknown challenge type {ctype!r}; use military, intrigue or power (CHL-02)"
    if p.challenges_made.count(ctype) > extra_challenges(g, name, ctype):
        return f"{name} has already made {article(ctype)} challenge this phase (CHL-01)"
    problem = extra_attackers_problem(g, name, ctype, answer.get("attackers"))
    if problem:
        return problem
    for source, stop in triggers.prohibitions(g, name, "challenges"):
        kind, n = stop.get("type"), int(stop.get("max", 0))  # with a type: challenges of that type only
        if kind in (None, ctype) and (p.challenges_made.count(kind) if kind else len(p.challenges_made)) >= n:
            what = f"{kind} challenges" if kind else "challenges"
            return (f"{name} cannot initiate {f'more than {n} ' if n else ''}{what} this round "
                    f"({g.name(source)}, GEN-01)")
    opponents = g.opponents(name)
    if against is None and len(opponents) == 1:
        against = opponents[0]
    if against not in opponents:
        return f"{against!r} is not an opponent {name} can challenge (CHL-02)"
    for e in g.state.effects:  # core-b: Mutual Cause, Mutual Blackmail, Mutual Enemies
        if e.stat == "forbid_challenge" and e.value["type"] == ctype and set(e.value["players"]) == {name, against}:
            return f"{name} and {against} cannot declare {ctype} challenges against one another ({g.name(e.source)}, GEN-01)"
    problem = only_challenges_problem(g, name, ctype, "attackers")
    if problem:
        return problem
    if not isinstance(attackers, list) or not attackers:
        return "declare at least one attacking character (CHL-02)"
    if len(set(attackers)) != len(attackers):
        return "each attacker is declared once (CHL-02)"
    for cid in attackers:
        if cid not in g.state.cards:
            return f"there is no card {cid} (CHL-02)"
        c = g.card(cid)
        title = g.name(cid)
        if c.controller != name or c.zone != "in_play" or g.card_type(cid) != "character":
            return f"{title} is not a character {name} controls in play (CHL-02)"
        if c.kneeling:
            return f"{title} is kneeling and cannot attack (CHL-03)"
        if not has_icon_for(g, cid, ctype):
            return f"{title} has no {ctype} icon (CHL-02)"
        if triggers.cannot_be(g, cid, "attacker"):
            return f"{title} cannot be declared as an attacker (its own text, GEN-01)"
        if g.cannot(cid, "attack"):  # issue 24: Too Blind to See
            return f"{title} cannot be declared as an attacker (GEN-01)"
        if g.cannot(cid, f"participate_{ctype}"):  # issue 24: Pious Pacifist
            return f"{title} cannot participate in {ctype} challenges (GEN-01)"
    problem = declared_with_problem(g, attackers, "an attacker")
    if problem:
        return problem
    found = declare_tolls(g, name, {"challenge": ctype, "against": against, "attackers": attackers})
    if triggers.toll_total(found) > g.spendable_gold(name):  # core-d
        return (f"{name} must give {triggers.toll_total(found)} gold to declare this challenge "
                f"({g.name(found[0][0])}) and has {g.spendable_gold(name)} (GEN-01)")
    cap = max_declared(g)
    if cap is not None and len(attackers) > cap:
        return f"no player may declare more than {cap} attacker{'s' if cap != 1 else ''} now ({cap_source(g)}, GEN-01)"
    problem = all_or_none_problem(g, name, ctype, attackers,
                                  [c for c in g.characters(name, standing=True) if can_attack(g, name, c, ctype)],
                                  "attackers")
    if problem:
        return problem
    return influence_toll_problem(g, name, "attack", attackers)


def all_or_none_problem(g: Game, name: str, ctype: str, picks: list, able: list, what: str) -> str | None:
    """Issue 24 (All Men Must Fight): a player bound by ``all_or_none`` for this challenge type declares none of
    his characters, or every one that could be declared (GEN-01)."""
    if not picks or set(picks) >= set(able):
        return None
    for source, stop in triggers.prohibitions(g, name, "all_or_none"):
        if stop.get("type") in (None, ctype):
            missing = ", ".join(g.name(c) for c in able if c not in picks)
            return (f"{name} must declare every character that can be declared as {what} in {ctype} challenges, "
                    f"or none: {missing} too ({g.name(source)}, GEN-01)")
    return None


def max_declared(g: Game) -> int | None:
    """The most attackers or defenders a player may declare in a challenge now (``max_declared``, issue 24: Too
    Late to Spill the Wine), or None."""
    caps = [e.value for e in g.state.effects if e.stat == "max_declared"]
    return min(caps) if caps else None


def cap_source(g: Game) -> str:
    return next(g.name(e.source) for e in g.state.effects if e.stat == "max_declared" and e.value == max_declared(g))


def challenge_decision(g: Game, name: str) -> Decision:
    p = g.player(name)
    types = [t for t in CHALLENGE_TYPES if p.challenges_made.count(t) <= extra_challenges(g, name, t)]
    eligible = sorted({c for t in types for c in g.characters(name, standing=True) if can_attack(g, name, c, t)})

    def check(answer: dict) -> dict:
        opponents = g.opponents(name)
        normal = {"challenge": answer.get("challenge"),
                  "against": answer.get("against") or (opponents[0] if len(opponents) == 1 else None),
                  "attackers": list(answer.get("attackers") or [])}
        problem = challenge_problem(g, name, normal)
        if problem:
            raise Refused(problem)
        return normal

    return Decision("challenge", name, "declare a challenge, or pass to end your challenges",
                    choices=eligible, min_count=1, max_count=len(eligible), can_pass=True, checker=check,
                    context={"types": types, "opponents": g.opponents(name)})


def stealth_decision(g: Game, ch: Challenge) -> Decision | None:
    stealthy = [c for c in ch.attackers if g.has_keyword(c, "stealth")]
    targets = [c for c in g.characters(ch.defender) if not g.has_keyword(c, "stealth")
               and not triggers.cannot_be(g, c, "stealth_target") and not g.cannot(c, "stealth_target")]
    if not stealthy or not targets:
        return None

    def check(answer: dict) -> dict:
        mapping = answer.get("stealth")
        if not isinstance(mapping, dict):
            raise Refused("stealth takes a mapping of attacker to target (CHL-06)")
        if len(set(mapping.values())) != len(mapping):
            raise Refused("each stealth attacker chooses a different character (CHL-06)")
        for a, t in mapping.items():
            if a not in stealthy:
                raise Refused(f"{g.name(a) if a in g.state.cards else a} is not an attacking Stealth character (CHL-06)")
            if t not in targets:
                raise Refused(f"{g.name(t) if t in g.state.cards else t} cannot be chosen for stealth: "
                              f"choose a character without Stealth that {ch.defender} controls (CHL-06)")
        return {"stealth": dict(mapping)}

    return Decision("stealth", ch.attacker, "choose stealth targets", choices=targets,
                    min_count=0, max_count=len(stealthy), can_pass=True, checker=check,
                    context={"attackers": stealthy})


def can_defend(g: Game, ch: Challenge, cid: int) -> bool:
    c = g.card(cid)
    return (c.controller == ch.defender and c.zone == "in_play" and not c.kneeling and not c.facedown
            and g.card_type(cid) == "character" and has_icon_for(g, cid, ch.type)
            and cid not in ch.stealth.values() and c.moribund is None and not g.cannot(cid, "defend")
            and not g.cannot(cid, f"participate_{ch.type}")
            and not triggers.cannot_be(g, cid, "defender")
            and triggers.prohibited(g, ch.defender, "declare_defenders") is None
            and only_challenges_problem(g, ch.defender, ch.type, "defenders") is None)


def defend_decision(g: Game, ch: Challenge) -> Decision:
    eligible = [c for c in g.characters(ch.defender) if can_defend(g, ch, c)]

    def check(answer: dict) -> dict:
        picks = answer.get("defend")
        if not isinstance(picks, list):
            raise Refused("defend takes a list of characters (an empty list declares none) (CHL-07)")
        if len(set(picks)) != len(picks):
            raise Refused("each defender is declared once (CHL-07)")
        for cid in picks:
            if cid not in g.state.cards:
                raise Refused(f"there is no card {cid} (CHL-07)")
            if cid in ch.stealth.values():
                raise Refused(f"{g.name(cid)} was chosen by stealth and cannot defend (CHL-06)")
            c = g.card(cid)
            if c.controller != ch.defender or c.zone != "in_play":
                raise Refused(f"{g.name(cid)} is not a character {ch.defender} controls in play (CHL-07)")
            if c.kneeling:
                raise Refused(f"{g.name(cid)} is kneeling and cannot defend (CHL-03)")
            if not has_icon_for(g, cid, ch.type):
                raise Refused(f"{g.name(cid)} has no {ch.type} icon (CHL-07)")
            if g.cannot(cid, "defend"):
                raise Refused(f"{g.name(cid)} cannot be declared as a defender (GEN-01)")
            if g.cannot(cid, f"participate_{ch.type}"):  # issue 24: Pious Pacifist
                raise Refused(f"{g.name(cid)} cannot participate in {ch.type} challenges (GEN-01)")
            if triggers.cannot_be(g, cid, "defender"):
                raise Refused(f"{g.name(cid)} cannot be declared as a defender (its own text, GEN-01)")
            stop = triggers.prohibited(g, ch.defender, "declare_defenders")
            if stop is not None:
                raise Refused(f"{ch.defender} cannot declare defenders ({g.name(stop[0])}, GEN-01)")
            problem = only_challenges_problem(g, ch.defender, ch.type, "defenders")
            if problem:
                raise Refused(problem)
        problem = declared_with_problem(g, picks, "a defender")
        if problem:
            raise Refused(problem)
        cap = max_declared(g)
        if cap is not None and len(picks) > cap:
            raise Refused(f"no player may declare more than {cap} defender{'s' if cap != 1 else ''} now "
                          f"({cap_source(g)}, GEN-01)")
        found = [t for c in picks for t in triggers.tolls(g, "defend", card=c)]
        if triggers.toll_total(found) > g.spendable_gold(ch.defender):  # core-d
            raise Refused(f"{ch.defender} must give {triggers.toll_total(found)} gold to declare those defenders "
                          f"({g.name(found[0][0])}) and has {g.spendable_gold(ch.defender)} (GEN-01)")
        problem = influence_toll_problem(g, ch.defender, "defend", picks) or \
            all_or_none_problem(g, ch.defender, ch.type, picks, eligible, "defenders")
        if problem:
            raise Refused(problem)
        stop = triggers.prohibited(g, ch.defender, "defenders") if len(picks) > 1 else None
        if stop is not None and len(picks) > int(stop[1].get("max", 0)):  # issue 24: Catch Them Unprepared
            n = int(stop[1].get("max", 0))
            raise Refused(f"{ch.defender} cannot declare more than {n} defender{'s' if n != 1 else ''} in a "
                          f"challenge ({g.name(stop[0])}, GEN-01)")
        return {"defend": list(picks)}

    return Decision("defend", ch.defender, f"declare defenders against {ch.attacker}'s {ch.type} challenge",
                    choices=eligible, min_count=0, max_count=len(eligible), can_pass=True, checker=check)


# --- core-d additions ---

def extra_challenges(g: Game, name: str, ctype: str | None = None) -> int:
    """Additional challenges the player may initiate this phase (of the type, or of any type): GEN-01."""
    return sum(1 for e in g.state.effects if e.stat == "extra_challenge" and e.value["player"] == name
               and (ctype is None or e.value["type"] == ctype)) + sum(  # issue 24: a constant's (Deepwood Motte)
        int(p.get("max", 0)) for _, p in triggers.prohibitions(g, name, "extra_challenges")
        if ctype is None or p.get("type", ctype) == ctype)


def extra_attackers_problem(g: Game, name: str, ctype: str, attackers) -> str | None:
    """Issue 24 (Rout of the Riverlords): a challenge that only an additional challenge with ``min_attackers`` allows
    needs that many attackers (GEN-01)."""
    grants = [e for e in g.state.effects if e.stat == "extra_challenge" and e.value["player"] == name
              and e.value["type"] == ctype]
    if not any("min_attackers" in e.value for e in grants):
        return None
    made = g.player(name).challenges_made.count(ctype)
    free = sum(1 for e in grants if "min_attackers" not in e.value)
    if made <= free:
        return None
    n = len(attackers) if isinstance(attackers, list) else 0
    need = min(e.value["min_attackers"] for e in grants if "min_attackers" in e.value)
    if n < need:
        source = next(e.source for e in grants if e.value.get("min_attackers") == need)
        return (f"{name}'s additional {ctype} challenge needs {need} attackers or more "
                f"({g.name(source) + ', ' if source is not None else ''}GEN-01)")
    return None


def declare_tolls(g: Game, name: str, answer: dict) -> list:
    """The gold the attacker must give to initiate this challenge (Uneasy Truce) and to declare these
    attackers (Motley): GEN-01."""
    found = triggers.tolls(g, "challenge", player=name, ctype=answer.get("challenge"),
                           defender=answer.get("against"))
    for cid in answer.get("attackers") or []:
        if cid in g.state.cards:
            found += triggers.tolls(g, "attack", card=cid)
    return [t for t in found if t[1] == name]


# --- gold tokens (Tywin Lannister) ---

def gold_of_answer(g: Game, name: str, answer: dict) -> int:
    """The gold a marshal or trigger answer would make ``name`` pay (0 when it names nothing payable); the
    table asks with it whether gold tokens pay first."""
    try:
        if "marshal" in answer:
            cid = answer["marshal"]
            if cid not in g.state.cards or answer.get("duplicate"):
                return 0
            return marshal_cost(g, name, cid, int(answer.get("x") or 0)) + \
                (triggers.optional_penalty(g, name, cid) if answer.get("penalty") else 0)
        if "trigger" in answer:
            cid = answer["trigger"]
            abs_ = triggers.abilities(g, cid) if cid in g.state.cards else []
            n = answer.get("ability", 1)
            if not isinstance(n, int) or not 1 <= n <= len(abs_):
                return 0
            ab = abs_[n - 1]
            gold = triggers._gold_cost(g, name, cid, ab, int(answer.get("x") or 0))
            if ab.cost.get("gold_target_cost"):
                gold += sum(g.defn(t).cost or 0 for t in answer.get("targets") or [] if t in g.state.cards)
            return gold
    except (TypeError, ValueError):
        return 0
    return 0


def gold_split_choice(g: Game, name: str, answer: dict) -> tuple[int, int, int] | None:
    """(cost, pool first: gold from tokens, tokens first: gold from tokens) when ``name`` could pay the answer's
    gold either from his pool first or from his gold tokens first and the two differ; else None."""
    cost = gold_of_answer(g, name, answer)
    pool = g.player(name).gold
    tokens = g.spendable_gold(name) - pool
    if not cost or not tokens or cost > pool + tokens:
        return None
    pool_first, tokens_first = max(0, cost - pool), min(cost, tokens)
    return (cost, pool_first, tokens_first) if pool_first != tokens_first else None


def extra_limited_location(g: Game, name: str, card) -> bool:
    """Issue 24: a card of ``name``'s lets him play one additional Limited card this round: a location
    (Taxation), or any card (Arianne's Admirer)."""
    return triggers.extra_limited_allowed(g, name, card)


def only_challenges_problem(g: Game, name: str, ctype: str, what: str) -> str | None:
    """Issue 24 (Caution to the Wind): ``name`` declares attackers and defenders only in one type of challenge."""
    for e in g.state.effects:
        if e.stat == "only_challenges" and e.value["player"] == name and e.value["type"] != ctype:
            return (f"{name} cannot declare {what} except in {e.value['type']} challenges ({g.name(e.source)}, "
                    "GEN-01)")
    return None


def declared_with_problem(g: Game, cids: list, role: str) -> str | None:
    """Issue 24 (Andrik the Unsmiling): a card whose constant ``not_declared_with: FILTER`` matches another card
    declared with it."""
    for cid in cids:
        for ab in triggers.abilities(g, cid):
            f = ab.not_declared_with
            if ab.kind != "constant" or not f:
                continue
            ctx = triggers.Ctx(cid, g.card(cid).controller, ab)
            other = next((o for o in cids if o != cid and triggers.matches(g, o, f, ctx)), None)
            if other is not None:
                return f"{g.name(cid)} cannot be declared as {role} with {g.name(other)} (its own text, GEN-01)"
    return None


# --- issue 24 (CCG Winter Edition, w1) additions ---

def penalty_choice(g: Game, name: str, answer: dict) -> int:
    """The optional gold penalty (MAR-07) the table may offer for a marshal answer: N when ``name`` may choose to
    pay it (and has the gold for it) and the answer has not said; else 0."""
    cid = answer.get("marshal")
    if cid not in g.state.cards or answer.get("duplicate") or "penalty" in answer:
        return 0
    extra = triggers.optional_penalty(g, name, cid)
    if not extra or marshal_problem(g, name, **normalise_marshal(dict(answer, penalty=True))):
        return 0
    return extra


def penalty_paid(g: Game, name: str, cid: int, optional: bool) -> bool:
    """Issue 24: marshalling ``cid`` costs ``name`` a gold penalty: the one he chose to pay, another House's (MAR-07)
    or a constant's (``gold_penalty``): "when you play it with a gold penalty"."""
    return optional or g.gold_penalty(name, cid) > 0 or (
        triggers.constants_modify(g, "gold_penalty") and constant_penalty(g, cid) > 0) or any(
        g.state.reducers[i].get("penalty") for i in triggers.reducers_for(g, name, cid))  # a raise (Greywater Swamp)


# --- issue 24: influence to kneel to declare (Banished, In Chains) ---

def influence_toll_problem(g: Game, name: str, on: str, cards: list) -> str | None:
    """The characters declared need ``name`` to kneel influence (an influence toll): his standing cards other
    than those being declared (they kneel to be declared) must have enough (GEN-01, COS-01)."""
    need = triggers.influence_tolls(g, on, cards)
    if not need:
        return None
    have = sum(g.bonus(c, "influence") for c in triggers.influence_givers(g, name, cards))
    if have < need:
        role = "attackers" if on == "attack" else "defenders"
        return (f"{name} must kneel {need} influence to declare those {role} and has {have} standing influence "
                f"besides them (GEN-01, COS-01)")
    return None


def has_icon_for(g: Game, cid: int, ctype: str) -> bool:
    """The character may be declared in a challenge of this type: it has the icon (CHL-02, CHL-07), or a
    constant lets it take part without it (``declare_without_icon``: The Night's Watch agenda, issue 24)."""
    if ctype in g.icons(cid):
        return True
    return triggers.constants_modify(g, "declare_without_icon") and \
        any(ctype in (m.get("declare_without_icon") or ()) for m in g._constants(cid))
