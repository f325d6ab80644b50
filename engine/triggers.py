"""Triggered abilities at run time: who may trigger what now, paying, and resolving.

The timing (which step of which window) lives in ``engine.flow``; this module
answers the questions the steps ask: which actions, saves, cancels, responses
and passives are available; is this trigger legal (restrictions, limits,
costs, targets: COS-07 a-f); pay; and carry out the effects.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.abilities import Ability, _effect_name, parse_abilities
from engine.decisions import Refused
from engine.game import Game
from engine.state import Effect

SOURCE_CLASS = {"character": "character abilities", "location": "location abilities",
                "attachment": "attachments", "event": "events", "plot": "plots", "agenda": "agendas",
                "house": "house cards"}


def abilities(g: Game, cid: int) -> list[Ability]:
    """The card's parsed abilities (cached per definition). A facedown card has none."""
    d = g.defn(cid)
    cache = g.__dict__.setdefault("_abilities", {})
    if d.key not in cache:
        cache[d.key] = parse_abilities(d.abilities, d.source) if d.abilities else []
    printed = cache[d.key]
    if g.__dict__.get("_in_constants"):
        return printed
    if not text_modifiers_exist(g):
        if printed and (g.is_facedown_attachment(cid) or
                        any(e.target == cid and e.stat == "blank" for e in g.state.effects)):
            return []
        return printed
    mods = g._constants(cid)
    if printed and g.is_blank(cid, mods):
        printed = []  # a blank text box has no printed abilities (EFF-03)
    gained = _gained(g, mods, len(cache[d.key]))
    return printed + gained if gained else printed


def text_modifiers_exist(g: Game) -> bool:
    """Whether any card in the pool can blank a text box or grant abilities through a constant."""
    found = g.__dict__.get("_text_mods")
    if found is None:
        found = any(isinstance(a, dict) and isinstance(a.get("modify"), dict)
                    and ("gain" in a["modify"] or "blank" in a["modify"])
                    for d in g.pool.values() for a in d.abilities)
        g._text_mods = found
    return found


def _gained(g: Game, mods: list[dict], start: int) -> list[Ability]:
    """Abilities a card gains from constants (EFF-03): numbered after its printed ones."""
    raw = [a for m in mods for a in (m.get("gain") or [])]
    if not raw:
        return []
    from dataclasses import replace

    cache = g.__dict__.setdefault("_gained_abilities", {})
    key = tuple(id(a) for a in raw)
    if key not in cache:
        cache[key] = parse_abilities(tuple(raw))
    return [replace(ab, index=start + i + 1) for i, ab in enumerate(cache[key])]


def prohibited(g: Game, player: str, what: str) -> tuple[int, dict] | None:
    """A player restriction in play that applies to ``player`` (GEN-01): (source card, prohibit)."""
    keys = g.__dict__.get("_prohibit_keys")
    if keys is None:
        keys = {d.key for d in g.pool.values() if any(isinstance(a, dict) and a.get("prohibit")
                                                       for a in d.abilities)}
        g._prohibit_keys = keys
    if not keys:
        return None
    for cid, c in g.state.cards.items():
        if c.key not in keys or c.zone not in ("in_play", "attached", "house", "agenda", "revealed_plot") \
                or c.facedown:
            continue
        for ab in abilities(g, cid):
            p = ab.prohibit
            if p is None or p["what"] != what:
                continue
            who = p.get("player", "you")
            if who == "each" or (who == "you") == (c.controller == player):
                if condition_holds(g, ab.condition, Ctx(cid, c.controller, ab)):
                    return cid, p
    return None


@dataclass
class Ctx:
    """What an ability's words refer to while it is checked or resolved."""

    source: int
    player: str
    ability: Ability | None = None
    targets: list = field(default_factory=list)
    gate: dict | None = None
    event: Any = None
    destinations: dict = field(default_factory=dict)
    """MOR-06: where the first player chose to send a card removed in several ways at once."""
    own_saves: list = field(default_factory=list)
    """Cards this ability's own effect saved: its "then" still acts on them (Viserys Targaryen)."""


# ---------------------------------------------------------------------------
# Filters, selectors, conditions
# ---------------------------------------------------------------------------

def immune_to(g: Game, cid: int, source: int, kind: str | None = None) -> bool:
    """IMM-01/05: a card is immune to effects of the types it names, never to its own.
    "Triggered effects" are actions and responses, not passives or constants (EFF-01)."""
    if cid == source:
        return False
    imm = {k[len("immune to "):] for k in g.keywords(cid) if k.startswith("immune to ")}
    if not imm:
        return False
    cls = SOURCE_CLASS.get(g.card_type(source), "")
    covered = {cls, f"{g.card_type(source)} effects", "card effects", "all"}  # "location effects" too
    if kind in (None, "action", "response"):
        covered.add("triggered effects")
    if g.card(source).controller != g.card(cid).controller:  # "immune to opponent's ..."
        covered |= {f"opponent's {c}" for c in covered} | {f"opponents' {c}" for c in covered}
    return bool(imm & covered)


def in_challenge(g: Game, cid: int) -> str | None:
    ch = g.state.challenge
    if ch is None or ch.resolved and ch.ended or ch.ended:
        return None
    if cid in ch.attackers:
        return "attacking"
    if cid in ch.defenders:
        return "defending"
    return None


def matches(g: Game, cid: int, f: dict, ctx: Ctx) -> bool:
    c = g.card(cid)
    d = g.defn(cid)
    for key, want in f.items():
        if key in ("count", "from", "all", "up_to"):
            continue
        if key == "type" and g.card_type(cid) not in (want if isinstance(want, list) else [want]):
            return False
        if key == "trait" and not any(t in g.traits(cid) for t in (want if isinstance(want, list) else [want])):
            return False
        if key == "house":
            wanted = want if isinstance(want, list) else [want]
            if not any(h in d.house or (h == "neutral" and not d.house) for h in wanted):
                return False
        if key == "unique" and d.unique != want:
            return False
        if key in ("controller", "owner"):
            who = c.controller if key == "controller" else c.owner
            if want == "you" and who != ctx.player or want == "opponent" and who == ctx.player:
                return False
            if want == "loser" and who != challenge_loser(g):
                return False
        if key == "participating" and bool(in_challenge(g, cid)) != want:
            return False
        if key == "attacking" and (in_challenge(g, cid) == "attacking") != want:
            return False
        if key == "defending" and (in_challenge(g, cid) == "defending") != want:
            return False
        if key == "kneeling" and c.kneeling != want:
            return False
        if key == "standing" and c.kneeling == want:
            return False
        if key == "not_self" and want and cid == ctx.source:
            return False
        if key == "self" and want and cid != ctx.source:
            return False
        if key == "host" and want and cid != g.card(ctx.source).attached_to:
            return False
        if key == "cost_max" and (d.cost or 0) > want or key == "cost_min" and (d.cost or 0) < want:
            return False
        if key == "strength_max" and g.strength(cid) > want or key == "strength_min" and g.strength(cid) < want:
            return False
        if key == "icon" and want not in g.icons(cid):
            return False
        if key == "keyword" and want not in g.keywords(cid):
            return False
        if key == "name" and d.name != want:
            return False
        if key == "moribund" and (c.moribund is not None) != want:
            return False
        if key == "has_attachments" and bool(c.attachments) != want:
            return False
        if key == "influence_min" and d.influence < want:
            return False
    return True


def challenge_loser(g: Game) -> str | None:
    """The player who lost the current (or last) challenge; None while nobody has won it."""
    ch = g.state.challenge
    if ch is None or ch.winner is None:
        return None
    return ch.defender if ch.winner == ch.attacker else ch.attacker


def cards_in_play(g: Game) -> list[int]:
    out = []
    for p in g.state.players:
        for cid in p.in_play:
            if not g.card(cid).facedown:
                out.append(cid)
                out.extend(g.card(cid).attachments)
    return out


def candidates(g: Game, f: dict, ctx: Ctx) -> list[int]:
    """Cards a filter can pick: in play by default, or ``from: hand|discard|dead|deck`` of the player."""
    where = f.get("from", "in_play")
    if where == "in_play":
        pool = cards_in_play(g)
    else:
        pool = list(g.player(ctx.player).pile(where))
    return [c for c in pool if matches(g, c, f, ctx)]


def select(g: Game, sel: Any, ctx: Ctx) -> list:
    """An effect's object: self, target(s), host, trigger, you/opponent, or {all: FILTER}."""
    if sel in ("self", None):
        return [ctx.source]
    if sel in ("target", "targets"):
        return list(ctx.targets)
    if sel == "host":
        host = g.card(ctx.source).attached_to
        return [host] if host is not None else []
    if sel == "trigger":
        card = (ctx.gate or {}).get("card")
        return [card] if card is not None else []
    if sel == "you":
        return [ctx.player]
    if sel == "opponent":
        ch = g.state.challenge
        if ctx.gate and ctx.gate.get("player") and ctx.gate["player"] != ctx.player:
            return [ctx.gate["player"]]
        if ch is not None and ctx.player in (ch.attacker, ch.defender):
            return [ch.defender if ctx.player == ch.attacker else ch.attacker]
        return g.opponents(ctx.player)[:1]
    if sel == "each_opponent":
        return g.opponents(ctx.player)
    if isinstance(sel, dict) and "all" in sel:
        f = dict(sel["all"]) if isinstance(sel["all"], dict) else {"type": sel["all"]}
        return candidates(g, f, ctx)
    if isinstance(sel, dict):
        return candidates(g, sel, ctx)
    return []


def condition_holds(g: Game, cond: dict | None, ctx: Ctx) -> bool:
    if not cond:
        return True
    st = g.state
    for key, want in cond.items():
        if key == "self" and not matches(g, ctx.source, want, ctx):
            return False
        if key == "host":
            host = g.card(ctx.source).attached_to
            if host is None or not matches(g, host, want, ctx):
                return False
        if key == "phase" and st.phase != want:
            return False
        if key == "challenge_type" and (st.challenge is None or st.challenge.ended
                                        or st.challenge.type != want):
            return False
        if key == "you_control":
            f = dict(want)
            need = f.pop("count_min", 1)
            f["controller"] = "you"
            if len(candidates(g, f, ctx)) < need:
                return False
        if key == "you_are" and want in ("attacker", "defender"):
            ch = st.challenge
            if ch is None or getattr(ch, want) != ctx.player:
                return False
        if key == "you_won" and want:
            ch = st.challenge
            if ch is None or ch.winner != ctx.player:
                return False
    return True


def gate_matches(g: Game, when: dict, gate: dict, ctx: Ctx) -> bool:
    if when.get("event") != gate.get("event"):
        return False
    if "card" in when:
        card = gate.get("card")
        if card is None:
            return False
        spec = when["card"]
        if spec == "self":
            if card != ctx.source:
                return False
        elif spec == "host":
            if card != g.card(ctx.source).attached_to:
                return False
        elif not matches(g, card, spec, ctx):
            return False
    if "player" in when:
        who = gate.get("player")
        if when["player"] == "you" and who != ctx.player or when["player"] == "opponent" and who == ctx.player:
            return False
    for key in ("type", "as", "phase", "source"):
        if key in when and when[key] not in ("any", gate.get(key)):
            return False
    return True


# ---------------------------------------------------------------------------
# Sources of abilities
# ---------------------------------------------------------------------------

def ability_sources(g: Game, player: str) -> list[int]:
    """Cards whose abilities ``player`` may use: in play (moribund too, MOR-02), his House card,
    agenda and revealed plot, and events in his hand."""
    p = g.player(player)
    out = [c for c in g.in_play_cards(player) if not g.card(c).facedown]
    out += [c for c in (p.house_card, p.agenda, p.revealed_plot) if c is not None]
    out += [c for c in p.hand if g.card_type(c) == "event" or c in _from_hand_cards(g, p.hand)]
    out += [x["card"] for x in g.state.granted if x["player"] == player and x["card"] not in out]
    return out


def _from_hand_cards(g: Game, hand: list[int]) -> set[int]:
    keys = g.__dict__.get("_from_hand_keys")
    if keys is None:
        keys = {d.key for d in g.pool.values()
                if any(isinstance(a, dict) and a.get("from_hand") for a in d.abilities)}
        g._from_hand_keys = keys
    return {c for c in hand if g.card(c).key in keys} if keys else set()


def is_granted(g: Game, player: str, cid: int, ab: Ability) -> bool:
    return any(x["card"] == cid and x["ability"] == ab.index and x["player"] == player for x in g.state.granted)


def usable_here(g: Game, player: str, cid: int, ab: Ability) -> bool:
    """An event's abilities are played from hand; other cards' work in play; a granted ability works
    wherever its card is, and only while granted."""
    if ab.granted:
        return is_granted(g, player, cid, ab)
    zone = g.card(cid).zone
    if g.card_type(cid) == "event" or ab.from_hand:  # "... from your hand": used while in hand
        return zone == "hand"
    return zone != "hand"


def limit_key(g: Game, cid: int, ab: Ability, player: str | None = None) -> str | None:
    """Limits count per title, across every copy a player uses (ERR-91: Patchface's FAQ)."""
    if ab.limit is None:
        return None
    per = ab.limit[1]
    period = {"challenge": g.state.challenge_serial, "phase": g.state.phase_serial, "round": g.state.round,
              "game": 0}[per]
    who = player or g.card(cid).controller
    return f"{who}:{g.name(cid)}:{ab.index}:{per}:{period}"


def reducers_for(g: Game, player: str, cid: int) -> list[int]:
    """Indices of every waiting reduction that applies to playing ``cid``: all of them apply to
    it (COS-07 d) and it uses them all up."""
    return [i for i, r in enumerate(g.state.reducers)
            if r["player"] == player and matches(g, cid, r["filter"], Ctx(r["source"], player))]


def reduction(g: Game, player: str, cid: int) -> int:
    return sum(g.state.reducers[i]["amount"] for i in reducers_for(g, player, cid))


def use_reducer(g: Game, player: str, cid: int) -> None:
    """Playing the card uses up the reductions it had (one card per reduction)."""
    used = set(reducers_for(g, player, cid))
    g.state.reducers = [r for i, r in enumerate(g.state.reducers) if i not in used]


def _gold_cost(g: Game, player: str, cid: int, ab: Ability, x: int) -> int:
    if g.card_type(cid) == "event" and g.card(cid).zone == "hand":
        d = g.defn(cid)
        printed = max(0, (x if d.cost_x else (d.cost or 0)) - reduction(g, player, cid))  # COS-12
        return printed + ab.cost.get("gold", 0)
    return ab.cost.get("gold", 0)


def restriction_problem(g: Game, player: str, cid: int, ab: Ability, ctx: Ctx, *, x: int = 0,
                        influence: bool = True) -> str | None:
    """COS-13: phase labels, conditions, limits and payable costs (without targets)."""
    st = g.state
    title = g.name(cid)
    if ab.phase and ab.phase != "any" and ab.kind == "action" and st.phase != ab.phase:
        return f"{title} can be used only in the {ab.phase} phase (RND-05)"
    if not condition_holds(g, ab.condition, ctx):
        return f"{title}: its play restriction is not met now"
    key = limit_key(g, cid, ab, player)
    if key and st.counters.get(key, 0) >= ab.limit[0]:
        return f"{title}: limit {ab.limit[0]} per {ab.limit[1]} reached"
    c = g.card(cid)
    gold = _gold_cost(g, player, cid, ab, x)
    d = g.defn(cid)
    printed_gold = (d.cost or d.cost_x) if d.type == "event" and c.zone == "hand" else 0
    if d.type == "event" and c.zone == "hand" and g.has_keyword(cid, "limited") and g.player(player).limited_played:
        return f"{player} has already played a Limited card this round (MAR-11)"  # any type counts (KW-07)
    if printed_gold and not (st.phase == "marshalling" and st.active_player == player):
        # C-14: a gold-cost card only in your own marshalling turn; an ability whose text asks
        # for gold says when it may be paid, so its label rules
        return f"{title} costs gold: it can be played only in {player}'s own marshalling turn (MAR-08, C-14)"
    if gold > g.player(player).gold:
        return f"gold: {title} costs {gold}; {player} has {g.player(player).gold}"
    if ab.cost.get("kneel_self") and (c.kneeling or c.zone not in ("in_play", "attached", "house", "agenda")):
        return f"{title} must kneel to pay its cost, and it is already kneeling"
    if ab.cost.get("kneel_host"):
        host = c.attached_to
        if host is None or g.card(host).kneeling:
            return f"{title}: the attached character must stand to be knelt"
    if (ab.cost.get("discard_self") or ab.cost.get("kill_self")) and c.moribund is not None:
        return f"{title} is already leaving play (moribund, MOR-03)"
    if ab.cost.get("power_self", 0) > c.power:
        return f"{title} has {c.power} power; the cost needs {ab.cost['power_self']}"
    if ab.cost.get("discard_from_hand", 0) > len(g.player(player).hand) - (1 if c.zone == "hand" else 0):
        return f"{player} has too few cards in hand to pay for {title}"
    if "kneel" in ab.cost:
        f = dict(ab.cost["kneel"]) if isinstance(ab.cost["kneel"], dict) else {}
        n = f.pop("count", 1)
        f["controller"], f["standing"] = "you", True
        if len([c for c in candidates(g, f, ctx)]) < n:
            return f"{title}: {player} has no standing card to kneel for its cost"
    need = ab.cost.get("influence", 0)
    if need and influence:
        available = sum(g.bonus(i, "influence") for i in g.in_play_cards(player) if not g.card(i).kneeling)
        if available < need:
            return f"influence: {title} needs {need}; {player} has only {available} standing influence"
    return None


def influence_problem(g: Game, player: str, need: int, pay: list) -> str | None:
    """COS-01/05, C-25: kneel standing cards you control with total influence >= need."""
    if not need:
        return "this ability has no influence cost; do not name cards to pay" if pay else None
    total = 0
    for cid in pay:
        if cid not in g.state.cards:
            return f"there is no card {cid}"
        c = g.card(cid)
        if c.controller != player or c.zone not in ("in_play", "attached", "house"):
            return f"influence: {g.name(cid)} is not a card {player} controls in play (COS-05)"
        if c.kneeling:
            return f"influence: {g.name(cid)} is kneeling and cannot be knelt for influence"
        if g.bonus(cid, "influence") <= 0:
            return f"influence: {g.name(cid)} provides no influence"
        total += g.bonus(cid, "influence")
    if total < need:
        return f"influence: {need} needed, {total} knelt"
    return None


def split_pay(ab: Ability, pay: list) -> tuple[list, list]:
    """``pay`` lists the cards knelt for a ``kneel`` cost first, then those knelt for influence."""
    if "kneel" not in ab.cost:
        return [], list(pay)
    n = ab.cost["kneel"].get("count", 1) if isinstance(ab.cost["kneel"], dict) else 1
    return list(pay[:n]), list(pay[n:])


def kneel_cost_problem(g: Game, player: str, ab: Ability, cards: list, ctx: Ctx) -> str | None:
    """A "kneel a character you control" cost: standing cards you control (COS-05); a moribund card
    is still in play and can kneel (the FAQ's Treachery example)."""
    if "kneel" not in ab.cost:
        return None
    f = dict(ab.cost["kneel"]) if isinstance(ab.cost["kneel"], dict) else {}
    n = f.pop("count", 1)
    f["controller"] = "you"
    if len(cards) != n:
        return f"name {n} card{'s' if n != 1 else ''} to kneel for the cost, first in 'pay'"
    for cid in cards:
        if cid not in g.state.cards or g.card(cid).zone not in ("in_play", "attached"):
            return f"{cid!r} is not a card in play"
        if g.card(cid).kneeling:
            return f"{g.name(cid)} is already kneeling and cannot kneel to pay the cost"
        if not matches(g, cid, f, ctx):
            return f"{g.name(cid)} cannot be knelt for this cost (COS-05)"
    return None


def target_problem(g: Game, player: str, cid: int, ab: Ability, targets: list, ctx: Ctx) -> str | None:
    if ab.choose is None:
        return "this ability chooses no target" if targets else None
    count = ab.choose.get("count", 1)
    legal = legal_targets(g, cid, ab, ctx)
    if not legal:
        return no_target_problem(g, cid, ab, ctx)
    if len(targets) != min(count, len(legal)) and not (ab.choose.get("up_to") and 0 < len(targets) <= count):
        return f"{g.name(cid)}: choose {count} target{'s' if count != 1 else ''}"
    if len(set(targets)) != len(targets):
        return "each target is chosen once"
    for t in targets:
        if t not in legal:
            label = g.name(t) if t in g.state.cards else t
            why = _entry_problem(g, ab, ctx, t) if t in g.state.cards else None
            return f"{label} is not a legal target for {g.name(cid)}" + (f": {why}" if why else "")
    return None


def no_target_problem(g: Game, cid: int, ab: Ability, ctx: Ctx) -> str:
    """COS-14, with the uniqueness reason when that is what leaves no target (UNQ-02)."""
    whys = [] if "player" in ab.choose else \
        [w for t in candidates(g, ab.choose, ctx) for w in [_entry_problem(g, ab, ctx, t)] if w]
    return f"{g.name(cid)} has no legal target (COS-14)" + (f": {whys[0]}" if whys else "")


def _entry_problem(g: Game, ab: Ability, ctx: Ctx, t: int) -> str | None:
    """A chosen card that the ability would put into play must be able to enter play (UNQ-02, C-08)."""
    if not any(isinstance(e, dict) and e.get("put_into_play") in ("target", "targets") for e in ab.effect):
        return None
    from engine import legality

    return legality.entry_problem(g, ctx.player, t)


def legal_targets(g: Game, cid: int, ab: Ability, ctx: Ctx) -> list:
    if ab.choose is None:
        return []
    if "player" in ab.choose:  # a player target: immunity never applies to players (IMM-02)
        names = g.opponents(ctx.player) if ab.choose["player"] == "opponent" else \
            g.state.clockwise_from(ctx.player)
        return [n for n in names if not g.player(n).eliminated]
    removes = any(_removes(e) for e in ab.effect)
    steals = any(isinstance(e, dict) and "take_control" in e for e in ab.effect)
    out = []
    for t in candidates(g, ab.choose, ctx):
        if immune_to(g, t, cid, ab.kind):
            continue  # IMM-03
        if removes and g.card(t).moribund is not None:
            continue  # MOR-03
        if steals and control_problem(g, ctx.player, t):
            continue  # UNQ-02, UNQ-04
        if _entry_problem(g, ab, ctx, t):
            continue  # UNQ-02, C-08: it could not enter play
        out.append(t)
    return out


def control_problem(g: Game, player: str, cid: int) -> str | None:
    """Taking control of a card: not a unique you already have (UNQ-02), nor a character carrying a
    unique attachment of which you have a copy in play (UNQ-04)."""
    from engine import legality

    if g.defn(cid).unique and g.card(cid).controller != player:
        for other in legality.copies_in_play(g, g.name(cid)):
            if other != cid and (g.card(other).owner == player or g.card(other).controller == player):
                return f"{player} already has {g.name(cid)} in play (UNQ-02)"
        if any(g.name(c) == g.name(cid) for c in g.player(player).dead):
            return f"a copy of {g.name(cid)} is in {player}'s dead pile (UNQ-02)"
    for aid in g.card(cid).attachments:
        if g.defn(aid).unique:
            for other in legality.copies_in_play(g, g.name(aid)):
                if other != aid and g.card(other).controller == player:
                    return f"{g.name(cid)} carries {g.name(aid)}, and {player} has a copy in play (UNQ-04)"
    return None


def _removes(effect: Any) -> bool:
    return isinstance(effect, dict) and any(k in effect for k in ("kill", "discard", "return_to_hand",
                                                                   "return_to_deck"))


# ---------------------------------------------------------------------------
# What can be triggered now
# ---------------------------------------------------------------------------

@dataclass
class Opportunity:
    card: int
    ability: Ability
    gate: dict | None = None
    gate_index: int | None = None
    targets: list = field(default_factory=list)


def available(g: Game, player: str, *, step: str, event: Any = None) -> list[Opportunity]:
    """Abilities ``player`` could trigger in this step (``action``, ``save_cancel``, ``response``),
    costs and restrictions considered; targets are checked when an answer comes."""
    out: list[Opportunity] = []
    window = g.state.window
    for cid in ability_sources(g, player):
        for ab in abilities(g, cid):
            if not usable_here(g, player, cid, ab):
                continue
            if step == "action" and ab.kind != "action":
                continue
            if step in ("save_cancel", "response") and ab.kind != "response":
                continue
            if step == "save_cancel" and not ab.is_save_or_cancel or step == "response" and ab.is_save_or_cancel:
                continue
            ctx = Ctx(cid, player, ab, event=event)
            gates: list[tuple[int | None, dict | None]] = [(None, None)]
            if step == "response":
                gates = [(i, gt) for i, gt in enumerate(window.gates) if gate_matches(g, ab.when, gt, ctx)
                         and f"{cid}:{ab.index}:{i}" not in window.used] if window else []
            elif step == "save_cancel":
                gates = [(None, gt) for gt in save_cancel_gates(g, event) if gate_matches(g, ab.when, gt, ctx)]
            for i, gt in gates:
                ctx.gate = gt
                if restriction_problem(g, player, cid, ab, ctx) is None:
                    if ab.choose is not None and not legal_targets(g, cid, ab, ctx):
                        continue
                    out.append(Opportunity(cid, ab, gt, i))
                    break
    return out


def save_cancel_gates(g: Game, event: Any) -> list[dict]:
    """What a save or cancel can answer in step 2 of ``event``: the cards it would remove, and itself."""
    if event is None:
        return []
    out = []
    removal = event.data.get("removal", "kill")
    for v in ([] if event.data.get("cannot_be_saved") else event.victims):  # GEN-04
        if g.card(v).moribund is None:
            out.append({"event": f"would_be_{'killed' if removal == 'kill' else 'discarded'}", "card": v})
            out.append({"event": "would_leave_play", "card": v})
    if not event.data.get("cannot_be_canceled"):
        out.append({"event": "cancelable", "source": event.data.get("source_class", "framework"),
                    "card": event.data.get("source"), "player": event.data.get("player")})
    return out


def _checked_costs(g: Game, player: str, o: Opportunity, answer: dict, event: Any) -> dict:
    """Costs of a save checked like any trigger (nothing to add to the answer)."""
    pay = list(answer.get("pay") or [])
    ctx = Ctx(o.card, player, o.ability, gate=o.gate, event=event)
    kneel_pay, influence_pay = split_pay(o.ability, pay)
    for problem in (restriction_problem(g, player, o.card, o.ability, ctx, influence=False),
                    kneel_cost_problem(g, player, o.ability, kneel_pay, ctx),
                    influence_problem(g, player, o.ability.cost.get("influence", 0), influence_pay)):
        if problem and g.options.mode == "advise" and problem.startswith(SOFT_PROBLEMS):
            g.warn(player, problem)
        elif problem:
            raise Refused(problem)
    return {}


def save_gate(g: Game, player: str, answer: dict, event: Any) -> dict | None:
    """The step-2 opportunity a save or cancel answers: for a save, the card named in ``targets``
    (or the first card the event would remove that the ability may save)."""
    cid = answer.get("trigger")
    if event is None or cid not in g.state.cards:
        return None
    n = answer.get("ability", 1)
    abs_ = abilities(g, cid)
    if not isinstance(n, int) or not 1 <= n <= len(abs_):
        return None
    ab = abs_[n - 1]
    ctx = Ctx(cid, player, ab, event=event)
    gates = [gt for gt in save_cancel_gates(g, event) if gate_matches(g, ab.when, gt, ctx)]
    wanted = list(answer.get("targets") or [])
    if wanted and ab.choose is None:
        gates = [gt for gt in gates if gt.get("card") == wanted[0]] or [None]
    return gates[0] if gates else None


def options(g: Game, player: str, *, step: str, event: Any = None, cap: int = 8) -> list[dict]:
    """Complete legal answers for what ``player`` can trigger now: targets and payment filled in
    (one answer per target, up to ``cap`` per ability), for the table and computer players."""
    out: list[dict] = []
    for o in available(g, player, step=step, event=event):
        ab = o.ability
        ctx = Ctx(o.card, player, ab, gate=o.gate, event=event)
        pay = _payment(g, player, o.card, ab, ctx)
        if pay is None:
            continue
        base = {"trigger": o.card, "ability": ab.index, "targets": [], "pay": pay, "x": 0}
        if ab.choose is not None:
            legal = legal_targets(g, o.card, ab, ctx)
            count = min(ab.choose.get("count", 1), len(legal))
            picks = [[t] for t in legal[:cap]] if count == 1 else [legal[:count]]
            out.extend(dict(base, targets=p) for p in picks)
        elif step == "save_cancel" and any(isinstance(e, dict) and e.get("save") in ("trigger", None)
                                           for e in ab.effect):
            cards = [gt["card"] for gt in save_cancel_gates(g, event)
                     if gt.get("card") is not None and gt["event"] != "cancelable"
                     and gate_matches(g, ab.when, gt, ctx)]
            out.extend(dict(base, targets=[c]) for c in dict.fromkeys(cards))
        else:
            out.append(base)
    return out


def _payment(g: Game, player: str, cid: int, ab: Ability, ctx: Ctx) -> list | None:
    """Cards to name in ``pay``: a kneel cost's cards first, then influence, largest first (C-25)."""
    pay: list[int] = []
    if "kneel" in ab.cost:
        f = dict(ab.cost["kneel"]) if isinstance(ab.cost["kneel"], dict) else {}
        n = f.pop("count", 1)
        f["controller"], f["standing"] = "you", True
        found = [c for c in candidates(g, f, ctx) if not (ab.cost.get("kneel_self") and c == cid)][:n]
        if len(found) < n:
            return None
        pay += found
    need = ab.cost.get("influence", 0)
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


SOFT_PROBLEMS = ("gold:", "influence:")
"""Problems advise mode turns into warnings: paying too little, as at a real table."""


def find_opportunity(g: Game, player: str, answer: dict, *, step: str, event: Any = None) -> Opportunity:
    """The opportunity an answer names, or Refused with the reason it is not one now."""
    cid = answer.get("trigger")
    if cid not in g.state.cards:
        raise Refused(f"there is no card {cid!r}")
    n = answer.get("ability", 1)
    abs_ = abilities(g, cid)
    if not abs_:
        raise Refused(f"{g.name(cid)} has no ability that can be triggered")
    if not isinstance(n, int) or not 1 <= n <= len(abs_):
        raise Refused(f"{g.name(cid)} has {len(abs_)} abilit{'y' if len(abs_) == 1 else 'ies'}; ability {n} "
                      f"does not exist")
    ab = abs_[n - 1]
    if cid not in ability_sources(g, player):
        raise Refused(f"{player} cannot use {g.name(cid)}: it is not a card {player} controls in play or holds")
    kind_word = {"action": "an action", "response": "a response", "passive": "a passive ability (it triggers "
                 "by itself)", "constant": "a constant ability"}[ab.kind]
    if not usable_here(g, player, cid, ab):
        raise Refused(f"{g.name(cid)}'s ability {n} cannot be used now: "
                      + ("it works only after the card's own effect enables it" if ab.granted else
                         "an event is played from hand; other cards' abilities work in play"))
    if step == "action" and ab.kind != "action":
        raise Refused(f"{g.name(cid)}'s ability {n} is {kind_word}, not an action (TIM-13)")
    if step in ("save_cancel", "response") and ab.kind != "response":
        raise Refused(f"{g.name(cid)}'s ability {n} is {kind_word}, not a response")
    if step == "save_cancel" and not ab.is_save_or_cancel:
        raise Refused(f"{g.name(cid)} is not a save or cancel; normal responses come in step 5 (TIM-06)")
    if step == "response" and ab.is_save_or_cancel:
        raise Refused(f"{g.name(cid)} saves or cancels: it is played in step 2, right after what it answers")
    for o in available(g, player, step=step, event=event):
        if o.card == cid and o.ability.index == n:
            return o
    ctx = Ctx(cid, player, ab, event=event)
    problem = restriction_problem(g, player, cid, ab, ctx, x=int(answer.get("x") or 0), influence=False)
    if problem is None and ab.cost.get("influence"):
        problem = influence_problem(g, player, ab.cost["influence"], list(answer.get("pay") or []))
    if problem and g.options.mode == "advise" and problem.startswith(SOFT_PROBLEMS):
        return Opportunity(cid, ab, None, None)
    if problem:
        raise Refused(problem)
    if ab.choose is not None and not legal_targets(g, cid, ab, ctx):
        raise Refused(no_target_problem(g, cid, ab, ctx))
    if event is not None and event.data.get("cannot_be_saved") and any(
            _effect_name(e) == "save" for e in ab.effect):
        raise Refused(f"{g.name(cid)}: what {event.name} removes cannot be saved (GEN-04)")
    raise Refused(f"{g.name(cid)}: its opportunity has not arisen in this window (TIM-13)")


def check_trigger(g: Game, player: str, answer: dict, *, step: str, event: Any = None) -> dict:
    """Validate a trigger answer completely (COS-07 a-f) without changing anything."""
    o = find_opportunity(g, player, answer, step=step, event=event)
    targets = list(answer.get("targets") or [])
    if step == "save_cancel" and o.ability.choose is None and targets:
        # a save of "the card that would be killed": targets may name which one, if several
        if len(targets) != 1 or save_gate(g, player, answer, event) is None or \
                save_gate(g, player, answer, event).get("card") != targets[0]:
            raise Refused(f"{g.name(o.card)} can save only a card that {event.name} would remove")
        return {"trigger": o.card, "ability": o.ability.index, "targets": targets,
                "pay": list(answer.get("pay") or []), "x": answer.get("x") or 0} | \
            _checked_costs(g, player, o, answer, event)
    pay = list(answer.get("pay") or [])
    x = answer.get("x") or 0
    if not isinstance(x, int) or x < 0:
        raise Refused("x must be a whole number of 0 or more")
    ctx = Ctx(o.card, player, o.ability, gate=o.gate, event=event)
    kneel_pay, influence_pay = split_pay(o.ability, pay)
    for problem in (restriction_problem(g, player, o.card, o.ability, ctx, x=x, influence=False),
                    kneel_cost_problem(g, player, o.ability, kneel_pay, ctx),
                    influence_problem(g, player, o.ability.cost.get("influence", 0), influence_pay),
                    target_problem(g, player, o.card, o.ability, targets, ctx)):
        if problem and g.options.mode == "advise" and problem.startswith(SOFT_PROBLEMS):
            g.warn(player, problem)  # advise mode: the move stands, the rule is pointed out
        elif problem:
            raise Refused(problem)
    if o.ability.cost.get("kneel_self") and o.card in pay:
        raise Refused(f"{g.name(o.card)} kneels for its own cost; it cannot also pay influence")
    return {"trigger": o.card, "ability": o.ability.index, "targets": targets, "pay": pay, "x": x}


# ---------------------------------------------------------------------------
# Paying and resolving
# ---------------------------------------------------------------------------

def pay_costs(g: Game, player: str, cid: int, ab: Ability, answer: dict) -> None:
    """COS-07 e: pay every cost; an event leaves the hand and is moribund until step 6 (MOR-05)."""
    c = g.card(cid)
    p = g.player(player)
    p.gold -= min(p.gold, _gold_cost(g, player, cid, ab, answer.get("x", 0)))  # advise mode may underpay
    for i in answer.get("pay", []):
        g.card(i).kneeling = True  # COS-03: paying influence (or a kneel cost) is a cost, not an effect
    if ab.cost.get("kneel_self"):
        c.kneeling = True
    if ab.cost.get("kneel_host") and c.attached_to is not None:
        g.card(c.attached_to).kneeling = True
    if ab.cost.get("power_self"):
        c.power -= ab.cost["power_self"]
    if ab.cost.get("discard_self"):
        g.remove(cid, "discard")
    if ab.cost.get("kill_self"):
        g.remove(cid, "dead")
    key = limit_key(g, cid, ab, player)
    if key:
        g.state.counters[key] = g.state.counters.get(key, 0) + 1
    if g.card_type(cid) == "event" and c.zone == "hand":
        use_reducer(g, player, cid)
        g._detach_from_location(cid)
        c.zone = "played"
        p.played.append(cid)
        c.moribund = "dead" if g.has_keyword(cid, "deathbound") else "discard"
        if g.has_keyword(cid, "limited"):
            p.limited_played = True


def execute(g: Game, effects: tuple, ctx: Ctx) -> bool:
    """Carry out effects in order; True if every one resolved successfully (for "then", COS-17)."""
    ok = True
    for e in effects:
        ok = _execute_one(g, e, ctx) and ok
    g.discard_illegal_attachments()  # ATT-02: at once, not at step 6
    return ok


def _amount(e: dict, default: int = 1) -> int:
    return int(e.get("amount", default))


def _execute_one(g: Game, e: Any, ctx: Ctx) -> bool:
    name = e if isinstance(e, str) else next(k for k in e if k in ("reduce", "set_destination", "enable",
                                                                 "kill", "discard", "kneel", "stand",
                                                                 "return_to_hand", "return_to_deck",
                                                                 "claim_power", "move_power", "discard_power",
                                                                 "draw", "gain_gold", "modify", "save", "cancel",
                                                                 "discard_at_random", "put_into_play",
                                                                 "remove_from_challenge", "take_control",
                                                                 "search", "script"))
    arg = None if isinstance(e, str) else e[name]
    saved = set(ctx.event.data.get("saved", [])) - set(ctx.own_saves) if ctx.event is not None else set()
    title = g.name(ctx.source)
    if name in ("kill", "discard", "return_to_hand", "return_to_deck"):
        dest = REMOVAL_WORD[name] if name != "return_to_deck" else ("deck_bottom" if e.get("bottom") else
                                                                     "deck_top")
        done = False
        for cid in select(g, arg, ctx):
            if cid in saved or immune_to(g, cid, ctx.source, ctx.ability.kind if ctx.ability else None) and cid not in ctx.targets:
                continue
            chosen = ctx.destinations.get(cid)
            if chosen is not None and chosen != REMOVAL_WORD.get(name, "deck"):
                continue  # MOR-06: the first player sent it elsewhere
            if g.card(cid).zone not in ("in_play", "attached"):
                continue
            if g.remove(cid, dest):
                done = True
                verb = {"kill": "killed", "discard": "discarded", "return_to_hand": "returned to hand",
                        "return_to_deck": "returned to the deck"}[name]
                g.log(f"{g.name(cid)} is {verb} by {title}")
                gate = {"kill": "killed", "discard": "discarded"}.get(name, "returned")
                if g.state.window is not None:
                    g.state.window.gates.append({"event": gate, "card": cid, "player": g.card(cid).controller})
                    g.state.window.gates.append({"event": "left_play", "card": cid,
                                                 "player": g.card(cid).controller})
        return done
    if name in ("kneel", "stand"):
        done = False
        for cid in select(g, arg, ctx):
            if immune_to(g, cid, ctx.source, ctx.ability.kind if ctx.ability else None) and cid not in ctx.targets:
                continue
            if g.card(cid).kneeling != (name == "kneel"):
                g.card(cid).kneeling = name == "kneel"
                done = True
        g.log(f"{title}: {name} {', '.join(g.name(c) for c in select(g, arg, ctx)) or 'nothing'}")
        return done
    if name == "claim_power":
        n = _amount(e)
        if arg in ("house", "your_house"):
            g.log(f"{ctx.player} claims {n} power for House with {title}")
            g.claim_house_power(ctx.player, n)
            return True
        for cid in select(g, arg, ctx):
            g.log(f"{g.name(cid)} claims {n} power ({title})")
            g.add_card_power(cid, n)
        return True
    if name in ("move_power", "discard_power"):
        n = int(arg if isinstance(arg, int) else _amount(e))
        src = e.get("from", "opponent_house")
        if src in ("opponent_house",):
            holder = g.player(select(g, "opponent", ctx)[0]).house_card
        elif src == "your_house":
            holder = g.player(ctx.player).house_card
        else:
            found = select(g, src, ctx)
            holder = found[0] if found else None
        if holder is None:
            return False
        n = min(n, g.card(holder).power)
        g.card(holder).power -= n
        if name == "move_power":
            dst = e.get("to", "your_house")
            target = g.player(ctx.player).house_card if dst == "your_house" else (select(g, dst, ctx) or [None])[0]
            if target is not None:
                g.card(target).power += n
        g.log(f"{title}: {n} power {'moved' if name == 'move_power' else 'discarded'} from {g.name(holder)}")
        g.check_victory()
        return n > 0
    if name == "draw":
        n = int(arg)
        for who in select(g, e.get("player", "you"), ctx):
            got = g.draw(who, n, by_effect=True)
            g.log(f"{who} draws {got} card{'s' if got != 1 else ''} ({title})")
        return True
    if name == "gain_gold":
        g.player(ctx.player).gold += int(arg)
        g.log(f"{ctx.player} gains {int(arg)} gold ({title})")
        return True
    if name == "modify":
        until = e.get("until", "phase")
        done = False
        for cid in select(g, arg, ctx):
            if immune_to(g, cid, ctx.source, ctx.ability.kind if ctx.ability else None) and cid not in ctx.targets:
                continue
            done = True
            if e.get("strength"):
                g.state.effects.append(Effect(cid, "strength", int(e["strength"]), until, ctx.source))
            if e.get("blank"):
                g.state.effects.append(Effect(cid, "blank", True, until, ctx.source))
            if isinstance(e.get("terminal"), dict):
                g.state.effects.append(Effect(cid, "terminal", dict(e["terminal"]), until, ctx.source))
            if e.get("become") in ("character", "location", "attachment"):
                g.state.effects.append(Effect(cid, "type", e["become"], until, ctx.source))
            for key, stat in (("add_icons", "icon+"), ("remove_icons", "icon-"), ("add_keywords", "keyword+"),
                              ("remove_keywords", "keyword-"), ("add_traits", "trait+"),
                              ("remove_traits", "trait-")):
                for v in e.get(key, []) or []:
                    g.state.effects.append(Effect(cid, stat, v, until, ctx.source))
            g.log(f"{title}: {g.name(cid)} {_describe_modify(e)} until the end of the {until}")
        return done
    if name == "save":
        ev = ctx.event
        done = False
        for cid in select(g, arg or "trigger", ctx):
            if ev is not None and cid in ev.victims:
                ev.victims.remove(cid)
                ev.data.setdefault("saved", []).append(cid)
                ctx.own_saves.append(cid)
                g.log(f"{g.name(cid)} is saved by {title}")
                if g.state.window is not None:
                    g.state.window.gates.append({"event": "saved", "card": cid, "player": g.card(cid).controller})
                done = True
        return done
    if name == "cancel":
        ev = ctx.event
        if ev is None:
            return False
        ev.cancelled = True
        g.log(f"{title} cancels {ev.name}")
        return True
    if name == "discard_at_random":
        n = int(arg)
        for who in select(g, e.get("player", "opponent"), ctx):
            hand = g.player(who).hand
            picks = g.state.rng.sample(hand, min(n, len(hand)))
            for cid in picks:
                g.move_to_pile(cid, "discard")
            g.log(f"{who} discards {', '.join(g.name(c) for c in picks) or 'nothing'} at random ({title})")
        return True
    if name == "put_into_play":
        done = False
        for cid in select(g, arg, ctx):
            from engine import legality

            if legality.unique_problem(g, ctx.player, cid):
                continue  # C-08: uniqueness still applies
            g.put_in_play(cid, ctx.player)
            g.log(f"{ctx.player} puts {g.name(cid)} into play ({title})")
            if g.state.window is not None:
                g.state.window.gates.append({"event": "entered_play", "card": cid, "player": ctx.player})
            done = True
        return done
    if name == "remove_from_challenge":
        ch = g.state.challenge
        done = False
        for cid in select(g, arg, ctx):
            if ch is not None and cid in ch.attackers + ch.defenders:
                (ch.attackers if cid in ch.attackers else ch.defenders).remove(cid)
                g.log(f"{g.name(cid)} is removed from the challenge ({title})")
                done = True
        return done
    if name == "take_control":
        done = False
        for cid in select(g, arg, ctx):
            c = g.card(cid)
            if c.zone == "in_play" and c.controller != ctx.player and not control_problem(g, ctx.player, cid):
                g.set_controller(cid, ctx.player)
                g.log(f"{ctx.player} takes control of {g.name(cid)} ({title})")
                done = True
        return done
    if name == "search":
        f = dict(arg) if isinstance(arg, dict) else {}
        deck = g.player(ctx.player).deck
        found = [c for c in deck if matches(g, c, f, ctx)]
        if found:
            g.move_to_pile(found[0], "hand")
            g.log(f"{ctx.player} searches the deck and reveals {g.name(found[0])} ({title})")
        g.shuffle_deck(ctx.player)  # ZON-16
        return bool(found)
    if name == "reduce":
        g.state.reducers.append({"player": ctx.player, "amount": int(arg), "filter": dict(e.get("card") or {}),
                                 "until": e.get("until", "phase"), "source": ctx.source})
        g.log(f"{ctx.player}'s next matching card costs {int(arg)} less ({title})")
        return True
    if name == "set_destination":
        done = False
        for cid in select(g, arg, ctx):  # MOR-03: changes where a moribund card goes, no removal
            c = g.card(cid)
            if c.moribund is not None and e.get("to") in ("dead", "discard", "hand", "deck_top", "deck_bottom"):
                c.moribund = e["to"]
                g.log(f"{g.name(cid)} will go to its owner's {e['to'].replace('_', ' ')} instead ({title})")
                done = True
        return done
    if name == "enable":
        g.state.granted.append({"card": ctx.source, "ability": int(arg), "player": ctx.player,
                                "until": e.get("until", "phase")})
        return True
    if name == "script":
        from engine import scripted

        return scripted.run(g, str(arg), ctx)
    return False


def _describe_modify(e: dict) -> str:
    parts = ["loses its text box"] if e.get("blank") else []
    if e.get("become"):
        parts.append(f"becomes a {e['become']}")
    if e.get("strength"):
        parts.append(f"{int(e['strength']):+d} STR")
    for key, word in (("add_icons", "gains"), ("add_keywords", "gains"), ("add_traits", "gains"),
                      ("remove_icons", "loses"), ("remove_keywords", "loses"), ("remove_traits", "loses")):
        if e.get(key):
            parts.append(f"{word} {', '.join(e[key])}")
    return ", ".join(parts) or "is modified"


REMOVAL_WORD = {"kill": "dead", "discard": "discard", "return_to_hand": "hand", "return_to_deck": "deck"}


def conflicting_removals(g: Game, effects: tuple, ctx: Ctx) -> dict[int, set[str]]:
    """Cards that one resolution would remove in more than one way at the same moment (MOR-06)."""
    found: dict[int, set[str]] = {}
    saved = set(ctx.event.data.get("saved", [])) if ctx.event is not None else set()
    for e in effects:
        if not isinstance(e, dict):
            continue
        for name, word in REMOVAL_WORD.items():
            if name in e:
                for cid in select(g, e[name], ctx):
                    c = g.card(cid)
                    if c.zone in ("in_play", "attached") and c.moribund is None and cid not in saved:
                        found.setdefault(cid, set()).add(word)
    return {cid: ways for cid, ways in found.items() if len(ways) > 1}


def victims_of(g: Game, ab: Ability, ctx: Ctx) -> tuple[list[int], str]:
    """The cards an ability would kill or discard, known at initiation so they can be saved."""
    out: list[int] = []
    removal = "kill"
    for e in ab.effect:
        if isinstance(e, dict) and ("kill" in e or "discard" in e):
            removal = "kill" if "kill" in e else "discard"
            out += [c for c in select(g, e.get("kill", e.get("discard")), ctx)
                    if g.card(c).zone in ("in_play", "attached") and g.card(c).moribund is None]
    return out, removal


# ---------------------------------------------------------------------------
# Passive abilities and constant abilities
# ---------------------------------------------------------------------------

def passives_for(g: Game, gates: list[dict]) -> list[tuple[int, Ability, dict, str]]:
    """Passive abilities that new gates trigger (TIM-11: passives are mandatory)."""
    out = []
    for p in g.state.players:
        for cid in ability_sources(g, p.name):
            for ab in abilities(g, cid):
                if ab.kind != "passive" or not usable_here(g, p.name, cid, ab):
                    continue
                for gt in gates:
                    ctx = Ctx(cid, p.name, ab, gate=gt)
                    if gate_matches(g, ab.when, gt, ctx) and condition_holds(g, ab.condition, ctx):
                        out.append((cid, ab, gt, p.name))
    return out


def _constant_keys(g: Game) -> set[str]:
    keys = g.__dict__.get("_constant_keys")
    if keys is None:
        keys = {d.key for d in g.pool.values() if any(isinstance(a, dict) and a.get("kind") == "constant"
                                                       and a.get("modify") for a in d.abilities)}
        g._constant_keys = keys
    return keys


def _constant_sources(g: Game) -> list[tuple[int, str]]:
    """(card, controller) for every card in play whose definition has a constant ability."""
    keys = _constant_keys(g)
    return [(cid, c.controller) for cid, c in g.state.cards.items()
            if c.key in keys and c.zone in ("in_play", "attached", "house", "agenda", "revealed_plot")
            and not c.facedown]


def _fingerprint(g: Game) -> tuple:
    """Everything a constant ability's condition or selector can read (see docs/abilities.md)."""
    st = g.state
    ch = st.challenge
    cards = tuple((cid, c.controller, c.kneeling, c.facedown, c.moribund, c.attached_to, c.zone, c.power)
                  for p in st.players for cid in p.in_play + [p.house_card] + p.played
                  if cid is not None for c in (st.cards[cid],))
    atts = tuple((a, st.cards[a].attached_to) for p in st.players for cid in p.in_play
                 for a in st.cards[cid].attachments)
    plots = tuple(p.revealed_plot for p in st.players)
    hands = tuple(tuple(p.hand) for p in st.players)
    chal = (ch.type, ch.attacker, ch.defender, tuple(ch.attackers), tuple(ch.defenders), ch.winner,
            ch.resolved, ch.ended) if ch else None
    effects = tuple((e.target, e.stat, e.value) for e in st.effects)
    return st.phase, chal, cards, atts, plots, hands, effects


def constant_modifiers(g: Game, target: int) -> list[dict]:
    """Constant abilities in play that modify ``target`` now (recalculated whenever the table
    changes, EFF-06). The whole map is cached against a fingerprint of the table."""
    override = g.__dict__.get("_constant_override")
    if override is not None:
        return override.get(target, [])  # while settling which constants apply (GEN-06)
    if g.__dict__.get("_in_constants"):
        return []  # a constant that reads a derived value does not see constants meanwhile
    if not _constant_keys(g):
        return []
    key = _fingerprint(g)
    cached = g.__dict__.get("_constant_cache")
    if cached is None or cached[0] != key:
        g.__dict__["_in_constants"] = True  # printed abilities only: gained ones come from constants
        try:
            constants = [(cid, controller, ab) for cid, controller in _constant_sources(g)
                         for ab in abilities(g, cid) if ab.kind == "constant" and ab.modify is not None]
        finally:
            g.__dict__["_in_constants"] = False
        cached = (key, _settle_constants(g, constants))
        g.__dict__["_constant_cache"] = cached
    return cached[1].get(target, [])


def _settle_constants(g: Game, constants: list) -> dict[int, list[dict]]:
    """Which constants apply: those whose conditions hold once they are applied. Conditions can
    read values constants change, so apply, re-check, and repeat until nothing changes; if it never
    settles, the constants caught in the loop are ignored, as though they did not exist (GEN-06)."""
    def active_with(applied: dict | None) -> frozenset[int]:
        if applied is None:
            g.__dict__["_in_constants"] = True
        else:
            g.__dict__["_constant_override"] = applied
        try:
            return frozenset(i for i, (cid, controller, ab) in enumerate(constants)
                             if condition_holds(g, ab.condition, Ctx(cid, controller, ab)))
        finally:
            g.__dict__["_in_constants"] = False
            g.__dict__.pop("_constant_override", None)

    def mods_of(active: frozenset[int]) -> dict[int, list[dict]]:
        g.__dict__["_in_constants"] = True
        try:
            mods: dict[int, list[dict]] = {}
            for i in sorted(active):
                cid, controller, ab = constants[i]
                for t in select(g, ab.modify.get("target", "self"), Ctx(cid, controller, ab)):
                    if not immune_to(g, t, cid, "constant"):  # IMM-06: immunity cuts it off
                        mods.setdefault(t, []).append(ab.modify)
            return mods
        finally:
            g.__dict__["_in_constants"] = False

    current = active_with(None)
    if not any(ab.condition for _, _, ab in constants):
        return mods_of(current)
    seen = [current]
    for _ in range(16):
        following = active_with(mods_of(current))
        if following == current:
            return mods_of(current)
        if following in seen:  # an endless loop: ignore every constant that flips in it
            cycle = seen[seen.index(following):]
            flipping = frozenset().union(*cycle) - frozenset.intersection(*cycle)
            return mods_of(frozenset.intersection(*cycle) - flipping)
        seen.append(following)
        current = following
    return mods_of(frozenset.intersection(*seen))


def terminal_conditions(g: Game, cid: int) -> list[dict]:
    """The terminal conditions on a card (MOR-09): from lasting effects and its own constants."""
    out = [e.value for e in g.state.effects if e.target == cid and e.stat == "terminal"]
    out += [ab.terminal for ab in abilities(g, cid) if ab.kind == "constant" and ab.terminal]
    return out


def terminal_holds(g: Game, cid: int) -> bool:
    c = g.card(cid)
    if c.zone != "in_play" or g.card_type(cid) != "character":
        return False
    return any(matches(g, cid, f, Ctx(cid, c.controller)) for f in terminal_conditions(g, cid))


def terminal_victims(g: Game) -> list[int]:
    """Characters in play, not already moribund, whose terminal condition holds now."""
    if not any(e.stat == "terminal" for e in g.state.effects) and not g.__dict__.setdefault(
            "_has_terminal", any(isinstance(a, dict) and a.get("terminal") for d in g.pool.values()
                                 for a in d.abilities)):
        return []
    return [cid for p in g.state.players for cid in p.in_play
            if g.card(cid).moribund is None and terminal_holds(g, cid)]


def host_types(g: Game, attachment: int) -> list[str]:
    """ATT-01: an attachment goes on a character unless its (current) text names another host."""
    named = [t for ab in abilities(g, attachment) if ab.attach_to and "type" in ab.attach_to
             for t in (ab.attach_to["type"] if isinstance(ab.attach_to["type"], list) else [ab.attach_to["type"]])]
    return named or ["character"]


def attachment_restriction_problem(g: Game, attachment: int, host: int, player: str) -> str | None:
    """ATT-01/02: the host must be of a type the attachment allows (a character unless its text says
    otherwise) and match every restriction the attachment states."""
    types = host_types(g, attachment)
    if g.card_type(host) not in types:
        return (f"{g.name(attachment)} can only be attached to a {' or '.join(types)} (ATT-01); "
                f"{g.name(host)} is a {g.card_type(host)}")
    for ab in abilities(g, attachment):
        if ab.attach_to is not None:
            ctx = Ctx(attachment, player, ab)
            f = dict(ab.attach_to)
            if not matches(g, host, f, ctx):
                what = ", ".join(f"{k} {v}" for k, v in f.items())
                return f"{g.name(attachment)} can only be attached to a card with {what} (ATT-01)"
    return None
