"""Triggered abilities at run time: who may trigger what now, and whether an answer is legal.

The timing (which step of which window) lives in ``engine.flow``; this module
answers the questions the steps ask: which actions, saves, cancels, responses
and passives are available; is this trigger legal (restrictions, limits,
costs, targets: COS-07 a-f). Paying is ``engine.abilities.costs``, resolving
``engine.abilities.effects``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.abilities.costs import gold_cost, target_gold
from engine.abilities.costs import (influence_cost, influence_problem, kneel_cost_problem, payment,
                                    restriction_problem, split_pay)
from engine.abilities.effects import control_problem
from engine.abilities.effects import removes as _removes
from engine.abilities.conditions import condition_holds
from engine.abilities.constants import _constant_keys, constant_map, defined_x, toll_problem, trigger_prohibited, untargetable
from engine.abilities.events import gate_matches
from engine.abilities.filters import candidates, immune_to, iter_candidates
from engine.abilities.model import Ability, Ctx, _effect_name
from engine.abilities.sources import abilities, ability_sources, structural_text_mods, usable_here
from engine.decisions import Refused
from engine.state import Version, memo, smemo
from engine.uniqueness import entry_problem

if TYPE_CHECKING:
    from engine.game import Game


def target_problem(g: Game, player: str, cid: int, ab: Ability, targets: list, ctx: Ctx) -> str | None:
    if ab.choose is None:
        return "this ability chooses no target (COS-14)" if targets else None
    count = choose_count(ab, ctx)
    legal = legal_targets(g, cid, ab, ctx)
    if not legal:
        return no_target_problem(g, cid, ab, ctx)
    if len(targets) != min(count, len(legal)) and not (ab.choose.get("up_to") and 0 < len(targets) <= count):
        return f"{g.name(cid)}: choose {count} target{'s' if count != 1 else ''} (COS-14)"
    if len(set(targets)) != len(targets):
        return "each target is chosen once (COS-14)"
    for t in targets:
        if t not in legal:
            label = g.name(t) if t in g.state.cards else t
            why = _entry_problem(g, ab, ctx, t) if t in g.state.cards else None
            return f"{label} is not a legal target for {g.name(cid)}" + (f": {why}" if why else "") + \
                " (COS-14)"
    return None


def choose_count(ab: Ability, ctx: Ctx) -> int:
    """How many targets ``choose`` picks: its ``count`` (default 1), or the X paid (``count: x``: "kneel X
    Battlefield locations to choose X characters", A Song of Night)."""
    n = ab.choose.get("count", 1)
    return int(ctx.x) if n == "x" else int(n)


def no_target_problem(g: Game, cid: int, ab: Ability, ctx: Ctx) -> str:
    """COS-14, with the uniqueness reason when that is what leaves no target (UNQ-02)."""
    whys = [] if "player" in ab.choose else \
        [w for t in candidates(g, ab.choose, ctx) for w in [_entry_problem(g, ab, ctx, t)] if w]
    return f"{g.name(cid)} has no legal target (COS-14)" + (f": {whys[0]}" if whys else "")


def _entry_problem(g: Game, ab: Ability, ctx: Ctx, t: int) -> str | None:
    """A chosen card that the ability would put into play must be able to enter play (UNQ-02, C-08)."""
    if not any(isinstance(e, dict) and e.get("put_into_play") in ("target", "targets") for e in ab.effect):
        return None
    return entry_problem(g, ctx.player, t)


def legal_targets(g: Game, cid: int, ab: Ability, ctx: Ctx, *, first: bool = False) -> list:
    """The cards (or players) ``ab`` may choose now; ``first``: stop at the first (whether there is
    one)."""
    if ab.choose is None:
        return []
    if "player" in ab.choose:  # a player target: immunity never applies to players (IMM-02)
        names = g.opponents(ctx.player) if ab.choose["player"] == "opponent" else \
            g.state.clockwise_from(ctx.player)
        return [n for n in names if not g.player(n).eliminated]
    removes = any(_removes(e) for e in ab.effect)
    kills = any(isinstance(e, dict) and "kill" in e for e in ab.effect)
    discards = any(isinstance(e, dict) and "discard" in e for e in ab.effect)
    steals = any(isinstance(e, dict) and "take_control" in e for e in ab.effect)
    out = []
    sealed = ab.choose.get("from") == "discard" and g.discard_sealed()
    for t in (iter_candidates if first else candidates)(g, ab.choose, ctx):
        if sealed and g.card(t).zone == "discard":
            continue  # issue 24 (Sealed Mine): a card in a discard pile cannot leave it
        if immune_to(g, t, cid, ab.kind):
            continue  # IMM-03
        if untargetable(g, t, cid, ctx.player):
            continue  # core-d: the card's own targeting restriction (Quaithe of the Shadow)
        if removes and g.card(t).moribund is not None:
            continue  # MOR-03
        if kills and g.cannot(t, "be_killed"):
            continue  # core-b: a card that cannot be killed is no target for a kill
        if discards and g.cannot(t, "be_discarded"):
            continue  # core-c: nor one that cannot be discarded for a discard
        if steals and control_problem(g, ctx.player, t):
            continue  # UNQ-02, UNQ-04
        if _entry_problem(g, ab, ctx, t):
            continue  # UNQ-02, C-08: it could not enter play
        out.append(t)
        if first:
            break
    return out


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
    found = step_abilities(g, player, step)
    if not found:
        return []
    window = g.state.window
    d = g.__dict__
    if step != "action" or event is not None or "_constant_override" in d or d.get("_in_constants"):
        return _available(g, player, step, event, found, window)
    # actions are kept for this state version (and window: it is not tracked), so checking an answer
    # finds the opportunities its decision listed without working them out again
    key = ("available", player, id(window), (len(window.gates), len(window.used)) if window else None)
    table = memo(d)
    held = table.get(key)
    if held is None or held[0] is not window:
        held = table[key] = (window, _available(g, player, step, event, found, window))
    return list(held[1])


def _available(g: Game, player: str, step: str, event: Any, found: list, window: Any) -> list[Opportunity]:
    out: list[Opportunity] = []
    open_gates = _open_gates(g, step, event)
    events = {gt.get("event") for _, gt in open_gates}  # a gate answers only its own event (gate_matches)
    cards = g.state.cards
    for cid, ab in found:
        if step != "action" and (ab.when or {}).get("event") not in events:
            continue
        if cards[cid].kneeling and ab.cost.get("kneel_self"):
            continue  # restriction_problem's answer, found before building anything (COS-05)
        ctx = Ctx(cid, player, ab, event=event)
        gates: list[tuple[int | None, dict | None]] = [(None, None)]
        if step == "response":
            gates = [(i, gt) for i, gt in open_gates if gate_matches(g, ab.when, gt, ctx)
                     and f"{cid}:{ab.index}:{i}" not in window.used]
        elif step == "save_cancel":
            gates = [(None, gt) for _, gt in open_gates if gate_matches(g, ab.when, gt, ctx)]
        for i, gt in gates:
            ctx.gate = gt
            if restriction_problem(g, player, cid, ab, ctx, why=False) is None and \
                    toll_problem(g, player, cid, ab) is None and \
                    trigger_prohibited(g, player, cid, ab) is None:  # core-d: gold tolls; issue 22
                if ab.choose is not None and not legal_targets(g, cid, ab, ctx, first=True):
                    continue
                out.append(Opportunity(cid, ab, gt, i))
                if step != "response":
                    break  # core-b: a response may answer any one of its matching gates
    return out


def _open_gates(g: Game, step: str, event: Any) -> list[tuple[int | None, dict]]:
    """What a ``response`` (the open window's gates, by index) or a ``save_cancel`` (what ``event``
    would remove, and the event itself) can answer now."""
    if step == "response":
        window = g.state.window
        return list(enumerate(window.gates)) if window else []
    if step == "save_cancel":
        return [(None, gt) for gt in save_cancel_gates(g, event)]
    return []


def may_answer(g: Game, player: str, step: str, event: Any = None) -> bool:
    """Whether ``player`` has an ability of ``step`` (``save_cancel``, ``response``) that answers an
    event now open (before its gate's other words, costs and targets): when not, ``available`` finds
    nothing, without building a context for each ability."""
    table = _table(g)
    key = ("answer_events", player, step)
    wanted = table.get(key)
    if wanted is None:  # the events the player's abilities of this step answer
        wanted = table[key] = frozenset((ab.when or {}).get("event") for _, ab in step_abilities(g, player, step))
    if not wanted:
        return False
    if step == "response":
        window = g.state.window
        return window is not None and any(gt.get("event") in wanted for gt in window.gates)
    return any(gt["event"] in wanted for gt in save_cancel_gates(g, event))


def step_abilities(g: Game, player: str, step: str) -> list[tuple[int, Ability]]:
    """(card, ability) pairs ``player`` could use in ``step`` (``action``, ``save_cancel``,
    ``response``) as the table stands, before gates, costs and targets (actions of this phase only,
    RND-05): an index kept while the structure stays, so an opportunity nobody can answer costs a
    lookup."""
    table = _table(g)
    key = ("step_abilities", player, step, g.state.phase if step == "action" else None)
    found = table.get(key)
    if found is None:
        kind = "action" if step == "action" else "response"
        found = _kind_abilities(g, table, player, kind)
        if step != "action":  # save/cancel (step 2) and other responses (step 5) share one list
            saves = step == "save_cancel"
            found = [(cid, ab) for cid, ab in found if ab.is_save_or_cancel == saves]
        else:  # an action labelled for another phase cannot be used (RND-05; the phase is structure)
            phase = g.state.phase
            found = [(cid, ab) for cid, ab in found if not ab.phase or ab.phase in ("any", phase)]
        table[key] = found
    return found


def _table(g: Game) -> dict:
    """Where the step indexes are kept: per structure when the structure decides every card's text
    (``sources.structural_text_mods``), else with the values that read the constants in force
    (``Game.constant_table``); per version while constants are being settled."""
    d = g.__dict__
    if "_constant_override" in d or d.get("_in_constants"):
        return memo(d)
    held = d.get("_smemo")  # smemo's fast path, when the structure decides the text
    if held is not None and held[0] == Version.s and held[1] is g.state and held[2] is d.get("_step_table"):
        return held[2]
    if structural_text_mods(g) is not None:
        table = d["_step_table"] = smemo(d, g.state)
        return table
    return g.constant_table()


TRIGGERED_KINDS = ("action", "response", "passive")


def _kind_abilities(g: Game, table: dict, player: str, kind: str) -> list[tuple[int, Ability]]:
    """(card, ability) pairs of ``kind`` (action, response, passive) that ``player`` could use now, in
    ``table`` (this version's): one pass over his cards finds all three kinds."""
    key = ("kind_abilities", player)
    found = table.get(key)
    if found is None:
        printed = _triggered_keys(g)
        st = g.state
        cards = st.cards
        gainers = _gainers(g, table)
        sources = ability_sources(g, player)
        d = g.__dict__
        sig = None
        text = structural_text_mods(g)
        if text is not None and "_constant_override" not in d and not d.get("_in_constants"):
            # the structure decides every card's text: the lists are those of the last structure
            # while the same cards with triggered abilities are in the same zones, with the same text
            # modifiers, lasting blanks and types (``abilities``, ``usable_here``) and grants (a card
            # played elsewhere leaves them as they were)
            sig = (tuple([(cid, cards[cid].zone, tuple(map(id, text[cid])) if cid in text else None)
                          for cid in sources if cards[cid].key in printed or cid in gainers]),
                   tuple([(e.target, e.stat, e.value) for e in st.effects if e.stat in ("blank", "type")]),
                   tuple([x for x in st.granted if x["player"] == player]))
            held = d.setdefault("_kind_held", {}).get(player)
            if held is not None and held[0] is st and held[1] == sig:
                found = table[key] = held[2]
                return found[kind]
        found = table[key] = {k: [] for k in TRIGGERED_KINDS}
        for cid in sources:
            if cards[cid].key in printed or cid in gainers:
                for ab in abilities(g, cid):
                    if ab.kind in found and usable_here(g, player, cid, ab):
                        found[ab.kind].append((cid, ab))
        if sig is not None:
            d["_kind_held"][player] = (st, sig, found)
    return found[kind]


def _gainers(g: Game, table: dict):
    """Cards that gain abilities from constants now (EFF-03), kept in ``table`` (this version's)."""
    found = table.get("gainers")
    if found is None:
        text = structural_text_mods(g)
        if text is not None:
            found = {t for t, mods in text.items() if any(m.get("gain") for m in mods)}
        elif _constant_keys(g):
            found = {t for t, mods in constant_map(g).items() if any(m.get("gain") for m in mods)}
        else:
            found = ()
        table["gainers"] = found
    return found


def _triggered_keys(g: Game) -> frozenset[str]:
    """Definitions with a printed action, response or passive (an ability without ``kind`` is an
    action): the index that lets a card without one be skipped at every opportunity."""
    index = g.__dict__.get("_triggered_keys")
    if index is None or index[0] is not g.pool:
        index = g.__dict__["_triggered_keys"] = (g.pool, frozenset(
            d.key for d in g.pool.values()
            if any(isinstance(a, dict) and a.get("kind", "action") in TRIGGERED_KINDS for a in d.abilities)))
    return index[1]


def save_cancel_gates(g: Game, event: Any) -> list[dict]:
    """What a save or cancel can answer in step 2 of ``event``: the cards it would remove, and itself."""
    if event is None:
        return []
    out = []
    removal = event.data.get("removal", "kill")
    for v in ([] if event.data.get("cannot_be_saved") else event.victims):  # GEN-04
        if g.card(v).moribund is None and not g.cannot(v, "be_saved"):  # issue 24: a card that cannot be saved
            if removal == "kill":
                out.append({"event": "would_be_killed", "card": v})
            else:
                out.append({"event": "would_be_discarded", "card": v})
            out.append({"event": "would_leave_play", "card": v})
    if not event.data.get("cannot_be_canceled"):
        out.append({"event": "cancelable", "source": event.data.get("source_class", "framework"),
                    "card": event.data.get("source"), "player": event.data.get("player"),
                    "triggered": bool(event.data.get("triggered"))})
    return out


def _checked_costs(g: Game, player: str, o: Opportunity, answer: dict, event: Any) -> dict:
    """Costs of a save checked like any trigger (nothing to add to the answer)."""
    pay = list(answer.get("pay") or [])
    ctx = Ctx(o.card, player, o.ability, gate=o.gate, event=event)
    kneel_pay, influence_pay = split_pay(o.ability, pay)
    for problem in (restriction_problem(g, player, o.card, o.ability, ctx, influence=False),
                    kneel_cost_problem(g, player, o.ability, kneel_pay, ctx),
                    influence_problem(g, player, influence_cost(g, player, o.card, o.ability), influence_pay)):
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
        pay = payment(g, player, o.card, ab, ctx)
        if pay is None:
            continue
        base = {"trigger": o.card, "ability": ab.index, "targets": [], "pay": pay, "x": 0}
        if step == "response" and o.gate_index is not None:
            base["gate"] = o.gate_index  # core-b: which opportunity it answers
        if ab.choose is not None:
            legal = legal_targets(g, o.card, ab, ctx)
            count = min(choose_count(ab, ctx), len(legal))
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


SOFT_PROBLEMS = ("gold:", "influence:")
"""Problems advise mode turns into warnings: paying too little, as at a real table."""


def find_opportunity(g: Game, player: str, answer: dict, *, step: str, event: Any = None) -> Opportunity:
    """The opportunity an answer names, or Refused with the reason it is not one now."""
    cid = answer.get("trigger")
    if cid not in g.state.cards:
        raise Refused(f"there is no card {cid!r} (TIM-02)")
    n = answer.get("ability", 1)
    abs_ = abilities(g, cid)
    if not abs_:
        raise Refused(f"{g.name(cid)} has no ability that can be triggered (TIM-16)")
    if not isinstance(n, int) or not 1 <= n <= len(abs_):
        raise Refused(f"{g.name(cid)} has {len(abs_)} abilit{'y' if len(abs_) == 1 else 'ies'}; ability {n} "
                      f"does not exist (COS-16)")
    ab = abs_[n - 1]
    if cid not in ability_sources(g, player):
        raise Refused(f"{player} cannot use {g.name(cid)}: it is not a card {player} controls in play or holds (EFF-08)")
    kind_word = {"action": "an action", "response": "a response", "passive": "a passive ability (it triggers "
                 "by itself)", "constant": "a constant ability"}[ab.kind]
    if not usable_here(g, player, cid, ab):
        raise Refused(f"{g.name(cid)}'s ability {n} cannot be used now: "
                      + ("it works only after the card's own effect enables it" if ab.granted else
                         "an event is played from hand; other cards' abilities work in play") + " (EFF-08)")
    if step == "action" and ab.kind != "action":
        raise Refused(f"{g.name(cid)}'s ability {n} is {kind_word}, not an action (TIM-13)")
    if step in ("save_cancel", "response") and ab.kind != "response":
        raise Refused(f"{g.name(cid)}'s ability {n} is {kind_word}, not a response (TIM-13)")
    if step == "save_cancel" and not ab.is_save_or_cancel:
        raise Refused(f"{g.name(cid)} is not a save or cancel; normal responses come in step 5 (TIM-06)")
    if step == "response" and ab.is_save_or_cancel:
        raise Refused(f"{g.name(cid)} saves or cancels: it is played in step 2, right after what it answers (TIM-06)")
    gate, gate_card = answer.get("gate"), answer.get("gate_card")
    for o in available(g, player, step=step, event=event):
        if o.card == cid and o.ability.index == n and (step != "response" or (
                (gate is None or o.gate_index == gate)
                and (gate_card is None or (o.gate or {}).get("card") == gate_card))):
            return o
    ctx = Ctx(cid, player, ab, event=event)
    problem = trigger_prohibited(g, player, cid, ab) \
        or restriction_problem(g, player, cid, ab, ctx, x=int(answer.get("x") or 0), influence=False) \
        or toll_problem(g, player, cid, ab, int(answer.get("x") or 0))  # core-d
    x = int(answer.get("x") or 0)
    if problem is None and influence_cost(g, player, cid, ab, x):
        problem = influence_problem(g, player, influence_cost(g, player, cid, ab, x), list(answer.get("pay") or []))
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
            raise Refused(f"{g.name(o.card)} can save only a card that {event.name} would remove (TIM-07)")
        return {"trigger": o.card, "ability": o.ability.index, "targets": targets,
                "pay": list(answer.get("pay") or []), "x": answer.get("x") or 0} | \
            _checked_costs(g, player, o, answer, event)
    pay = list(answer.get("pay") or [])
    x = answer.get("x") or 0
    if not isinstance(x, int) or x < 0:
        raise Refused("x must be a whole number of 0 or more (COS-08)")
    defined = defined_x(g, player, o.card)
    if defined is not None:  # issue 24 (Abandoned Lighthouse): X its own text defines, whatever X was announced
        x = defined
    ctx = Ctx(o.card, player, o.ability, gate=o.gate, event=event)
    ctx.x = x  # a kneel cost or a choose counted by X
    kneel_pay, influence_pay = split_pay(o.ability, pay, x)
    for problem in (restriction_problem(g, player, o.card, o.ability, ctx, x=x, influence=False),
                    toll_problem(g, player, o.card, o.ability, x),  # core-d
                    kneel_cost_problem(g, player, o.ability, kneel_pay, ctx),
                    influence_problem(g, player, influence_cost(g, player, o.card, o.ability, x), influence_pay),
                    target_problem(g, player, o.card, o.ability, targets, ctx)):
        if problem and g.options.mode == "advise" and problem.startswith(SOFT_PROBLEMS):
            g.warn(player, problem)  # advise mode: the move stands, the rule is pointed out
        elif problem:
            raise Refused(problem)
    if o.ability.cost.get("kneel_self") and o.card in pay:
        raise Refused(f"{g.name(o.card)} kneels for its own cost; it cannot also pay influence (COS-10)")
    out = {"trigger": o.card, "ability": o.ability.index, "targets": targets, "pay": pay, "x": x}
    if answer.get("gold_tokens") is not None:  # how much of the gold gold tokens pay (Tywin Lannister)
        gold = gold_cost(g, player, o.card, o.ability, x) + \
            (target_gold(g, {"targets": targets}) if o.ability.cost.get("gold_target_cost") else 0)
        problem = g.gold_tokens_problem(player, gold, answer["gold_tokens"])
        if problem:
            raise Refused(problem)
        out["gold_tokens"] = answer["gold_tokens"]
    if step == "response" and o.gate_index is not None:
        out["gate"] = o.gate_index  # core-b
    return out


def passives_for(g: Game, gates: list[dict]) -> list[tuple[int, Ability, dict, str]]:
    """Passive abilities that new gates trigger (TIM-11: passives are mandatory), in seat order, then
    the order of each player's cards and abilities, then the gates'."""
    if not gates:
        return []
    return _passives(g, gates, False)


def claim_replacements(g: Game, gates: list[dict]) -> list[tuple[int, Ability, dict, str]]:
    """Issue 24: the passives marked ``instead_of_claim`` that these gates (the ``challenge_won`` of the
    attacker) trigger: they resolve in place of the claim, in the order of ``passives_for``."""
    return _passives(g, gates, True)


def _passives(g: Game, gates: list[dict], claim: bool) -> list[tuple[int, Ability, dict, str]]:
    if not gates:
        return []
    index = _passive_index(g)
    found = []
    for k, gt in enumerate(gates):
        for seq, name, cid, ab in index.get(gt.get("event"), ()):
            if ab.instead_of_claim != claim:
                continue
            ctx = Ctx(cid, name, ab, gate=gt)
            if gate_matches(g, ab.when, gt, ctx) and condition_holds(g, ab.condition, ctx):
                found.append((seq, k, cid, ab, gt, name))
    found.sort(key=lambda f: (f[0], f[1]))
    return [(cid, ab, gt, name) for _, _, cid, ab, gt, name in found]


def _passive_index(g: Game) -> dict:
    """Passive abilities usable now, by the event of their gate (``when.event``), each with its place
    in seat, card and ability order: kept with the step indexes (``_table``)."""
    table = _table(g)
    found = table.get("passive_index")
    if found is None:
        lists = [(p.name, _kind_abilities(g, table, p.name, "passive")) for p in g.state.players]
        held = g.__dict__.get("_passive_held")  # the same lists as before: the same index
        if held is not None and len(held[0]) == len(lists) and all(
                a[0] == b[0] and a[1] is b[1] for a, b in zip(held[0], lists)):
            found = table["passive_index"] = held[1]
            return found
        found = table["passive_index"] = {}
        seq = 0
        for name, passives in lists:
            for cid, ab in passives:
                found.setdefault((ab.when or {}).get("event"), []).append((seq, name, cid, ab))
                seq += 1
        g.__dict__["_passive_held"] = (lists, found)
    return found
