"""Card text by hand: abilities the engine does not automate, used inside the enforced timing.

A card whose text the engine does not play by itself (no ability data, see
``engine.automation``) still has real abilities. ``cards.textlabels`` reads each
paragraph's timing from the card's text; this module offers each one exactly
where the rules let the card be used, and lets its controller carry out the
effect with **manual effect tools**:

- an action (``Marshalling:``, ``Any Phase:`` ...) in the player-action
  segments of its phase; a save or cancel in step 2 of what it answers; a
  response in step 5 against a gate its controller names; a passive ("When
  revealed", "After you win ...") prompts its controller when its gate opens:
  resolve it by hand, or skip; a paragraph whose timing cannot be read is
  offered wherever its controller may act (player-action segments and step 5),
  flagged as such, apart from the others (``split_untimed``): it is a legal play,
  but the table does not stop a player for it (``Decision.only_pass_or_untimed``);
- step 1: the player states the costs paid by hand (``cost``: kneel, gold,
  influence with ``pay``, discard, kill, return, power) and, if the effect
  removes cards, its targets (so they can be saved in step 2);
- step 2: every other player's save/cancel step, as for any ability;
- step 3: its controller uses the tools (``{"tool": NAME, ...}``) until Done.
  What they remove becomes moribund until step 6 and opens its gates
  (``killed``, ``discarded``, ``returned``, ``left_play``); draws count against
  the draw cap (DRW-03); put into play keeps uniqueness (UNQ-02).

Everything is an answer to a decision, so it is in the history, replays and
saves like any other. In advise mode every tool is also a free move
(``engine.advise``). The tool vocabulary is the registry ``TOOLS`` below: its
entries give the checks, the effect and the one-line docs (docs/table.md).
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from cards.textlabels import TextAbility, read_text, triggered_words
from engine import legality, triggers
from engine.automation import status  # one definition of what is automated
from engine.decisions import Decision, Refused
from engine.state import Effect, smemo
from engine.wording import article

if TYPE_CHECKING:
    from engine.game import Flow, Game

IN_PLAY = ("in_play", "attached")
SOURCE_ZONES = ("in_play", "attached", "house", "agenda", "revealed_plot")
UNTILS = ("challenge", "phase", "round", "in_play")
"""How long a STR/icon/keyword change made by hand lasts; ``in_play``: while the card whose
text it is stays in play."""
COST_KEYS = {"kneel", "gold", "influence", "pay", "discard", "kill", "return_to_hand", "power"}


# ---------------------------------------------------------------------------
# Which cards have text by hand
# ---------------------------------------------------------------------------

def text_abilities(g: Game, cid: int) -> list[TextAbility]:
    """The paragraphs of this card's text that are played by hand (none if it is automated)."""
    d = g.defn(cid)
    cache = g.__dict__.setdefault("_by_hand", {})
    if d.key not in cache:
        cache[d.key] = _by_hand_paragraphs(d)
    if not cache[d.key] or g.card(cid).facedown:
        return []
    return cache[d.key]


_READ: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _by_hand_paragraphs(d) -> list[TextAbility]:
    """The paragraphs not automated, as the report says (``engine.automation.status``): all of a card
    without ability data; the ones a partial card's data names (all of them when it names none).
    Kept per definition (definitions are immutable)."""
    if not d.text:
        return []
    found = _READ.get(d)
    if found is None:
        found = _READ[d] = _read_by_hand(d)
    return found


def _read_by_hand(d) -> list[TextAbility]:
    st = status(d)
    if st.automated:
        return []
    read = read_text(d.text)
    if st.paragraphs is None:
        return read
    return [ta for ta in read if ta.paragraph in st.paragraphs]


def is_by_hand(g: Game, cid: int) -> bool:
    """The card has text the engine does not automate (the table marks it: "text by hand")."""
    return bool(text_abilities(g, cid))


def by_hand_in_pool(g: Game) -> bool:
    return bool(_by_hand_keys(g))


def _ability(g: Game, cid: Any, n: Any) -> TextAbility:
    if not isinstance(cid, int) or isinstance(cid, bool) or cid not in g.state.cards:
        raise Refused(f"there is no card {cid!r}")
    if not isinstance(n, int) or isinstance(n, bool):
        raise Refused(f"paragraph: expected a whole number, got {n!r}")
    for ta in text_abilities(g, cid):
        if ta.paragraph == n:
            return ta
    have = ", ".join(str(t.paragraph) for t in text_abilities(g, cid))
    raise Refused(f"{g.name(cid)} has no paragraph {n!r} played by hand"
                  + (f" (its paragraphs by hand: {have})" if have else " (its text is automated or empty)"))


def _sources(g: Game, player: str) -> list[int]:
    """Cards whose text ``player`` may use by hand: in play (moribund too, MOR-02), House card,
    agenda, revealed plot, and events in hand (kept while the structure stays, ``state.smemo``: the
    list is shared, callers only read it)."""
    table = smemo(g.__dict__, g.state)
    key = ("by_hand_sources", player)
    found = table.get(key)
    if found is None:
        found = table[key] = _find_sources(g, player)
    return found


def _find_sources(g: Game, player: str) -> list[int]:
    keys = _by_hand_keys(g)  # only cards of these definitions can have text by hand
    if not keys:
        return []
    cards = g.state.cards
    p = g.player(player)
    out = [c for c in g.in_play_cards(player) if cards[c].key in keys and not cards[c].facedown]
    out += [c for c in (p.house_card, p.agenda, p.revealed_plot) if c is not None and cards[c].key in keys]
    out += [c for c in p.hand if cards[c].key in keys and g.card_type(c) == "event"]
    return [c for c in out if text_abilities(g, c)]


def _by_hand_keys(g: Game) -> frozenset:
    """The definitions of the game's cards with text played by hand (computed once per game)."""
    found = g.__dict__.get("_by_hand_keys")
    if found is None:
        found = g.__dict__["_by_hand_keys"] = frozenset(
            d.key for d in g.pool.values() if d.text and _by_hand_paragraphs(d))
    return found


def _usable_zone(g: Game, cid: int) -> bool:
    zone = g.card(cid).zone
    return zone == "hand" if g.defn(cid).type == "event" else zone in SOURCE_ZONES


# ---------------------------------------------------------------------------
# Opportunities (what the decisions offer)
# ---------------------------------------------------------------------------

def _fits(ta: TextAbility, step: str, phase: str) -> bool:
    """Where a paragraph is offered. Unread timing: in the action segments; in step 5 as well when
    its words read as triggered ("each time", "after"...), so a constant does not stop every window."""
    unread = ta.kind == "unlabelled" or ta.kind == "passive" and ta.when is None
    if step == "action":
        return ta.kind == "action" and ta.phase in ("any", phase) or unread
    if step == "save_cancel":
        return ta.kind in ("save", "cancel")
    if step == "response":
        return ta.kind == "response" or unread and (ta.kind == "passive" or triggered_words(ta.text))
    return False


def _gold_problem(g: Game, player: str, cid: int) -> str | None:
    """An event's printed gold cost: only in its player's own marshalling turn (MAR-08, C-14)."""
    d = g.defn(cid)
    if d.type != "event" or g.card(cid).zone != "hand" or not (d.cost or d.cost_x):
        return None
    st = g.state
    if not (st.phase == "marshalling" and st.active_player == player):
        return f"{d.name} costs gold: it can be played only in {player}'s own marshalling turn (MAR-08, C-14)"
    if (d.cost or 0) > g.spendable_gold(player) and g.options.mode != "advise":
        return f"gold: {d.name} costs {d.cost}; {player} has {g.spendable_gold(player)} (MAR-04)"
    return None


def _limited_problem(g: Game, player: str, cid: int, ta: TextAbility) -> str | None:
    limited = ta.limited or g.defn(cid).type == "event" and g.card(cid).zone == "hand" \
        and g.has_keyword(cid, "limited")
    if limited and g.player(player).limited_played:
        return f"{g.name(cid)}: {player} has already played a Limited card this round (MAR-11)"
    return None


def _gates(g: Game, player: str, cid: int, ta: TextAbility) -> list[int | None]:
    """Gates of the open window a response by hand may answer (indices), once per gate (TIM-12)."""
    w = g.state.window
    if w is None or w.kind == "end_of_phase":
        return []
    if ta.when is None:  # timing not read: it answers "something in this window", once per window
        return [None] if f"hand:{cid}:{ta.paragraph}:any" not in w.used else []
    ctx = triggers.Ctx(cid, player)
    out, seen = [], set()
    for i, gate in enumerate(w.gates):
        if f"hand:{cid}:{ta.paragraph}:{i}" in w.used:
            continue
        if triggers.gate_matches(g, ta.when, gate, ctx):
            sig = (gate.get("event"), gate.get("card"), gate.get("player"))
            if sig not in seen:
                seen.add(sig)
                out.append(i)
    return out


def options(g: Game, player: str, *, step: str, event: Any = None) -> list[dict]:
    """Every use by hand ``player`` may start now, as complete answers (costs left to the player)."""
    if not by_hand_in_pool(g) or g.player(player).eliminated:
        return []
    out: list[dict] = []
    for cid in _sources(g, player):
        for ta in text_abilities(g, cid):
            if not _fits(ta, step, g.state.phase) or not _usable_zone(g, cid):
                continue
            if _gold_problem(g, player, cid) or _limited_problem(g, player, cid, ta):
                continue
            base = {"by_hand": cid, "paragraph": ta.paragraph}
            if step == "save_cancel":
                if event is None:
                    continue
                if ta.kind == "cancel" and not event.data.get("cannot_be_canceled") \
                        and event.data.get("source") != cid and event.data.get("source_class") != "framework":
                    # a cancel by hand answers a card's effect, not the framework's steps
                    out.append(dict(base, cancel=True))
                if ta.kind == "save" and not event.data.get("cannot_be_saved"):
                    out += [dict(base, save=v) for v in event.victims if g.card(v).moribund is None]
            elif step == "response":
                out += [dict(base, gate=i) for i in _gates(g, player, cid, ta)[:6]]
            else:
                out.append(base)
    return out


def untimed(g: Game, option: dict) -> bool:
    """Whether the paragraph a use by hand names has a timing that could not be read (``flagged``)."""
    return any(ta.paragraph == option.get("paragraph", 1) and ta.flagged
               for ta in text_abilities(g, option["by_hand"]))


def split_untimed(g: Game, found: list[dict]) -> dict:
    """A decision's context for the uses by hand ``found``: ``by_hand``, those whose timing was read, and
    ``by_hand_untimed``, those offered everywhere because it was not."""
    out: dict = {"by_hand": [], "by_hand_untimed": []}
    for option in found:
        out["by_hand_untimed" if untimed(g, option) else "by_hand"].append(option)
    return out


# ---------------------------------------------------------------------------
# Checking a use by hand (step 1's answer)
# ---------------------------------------------------------------------------

def _ids(value: Any, what: str) -> list[int]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise Refused(f"{what}: expected a list of card ids, got {value!r}")
    return list(value)


def _cost_problem(g: Game, player: str, cid: int, cost: dict) -> str | None:
    """Costs stated by hand (COS-05: only your own cards pay your costs)."""
    for key, value in cost.items():
        if key not in COST_KEYS:
            return f"cost: unknown key '{key}' (use {', '.join(sorted(COST_KEYS))})"
    for k in cost.get("kneel", []):
        c = g.state.cards.get(k)
        if c is None or c.controller != player or c.zone not in SOURCE_ZONES:
            return f"cost: {k!r} is not a card {player} controls in play (COS-05)"
        if c.kneeling:
            return f"cost: {g.name(k)} is already kneeling and cannot kneel to pay (COS-05)"
    gold = cost.get("gold", 0)
    if not isinstance(gold, int) or isinstance(gold, bool) or gold < 0:
        return f"cost: gold must be a whole number of 0 or more, got {gold!r}"
    printed = g.defn(cid).cost or 0 if g.defn(cid).type == "event" and g.card(cid).zone == "hand" else 0
    if gold + printed > g.spendable_gold(player) and g.options.mode != "advise":
        return f"gold: {gold + printed} needed; {player} has {g.spendable_gold(player)} (COS-06)"
    need = cost.get("influence", 0)
    if not isinstance(need, int) or isinstance(need, bool) or need < 0:
        return f"cost: influence must be a whole number, got {need!r}"
    if need or cost.get("pay"):
        problem = triggers.influence_problem(g, player, need, cost.get("pay", []))
        if problem and not (g.options.mode == "advise" and problem.startswith("influence:")):
            return problem + " (COS-01)"
    for k in cost.get("discard", []):
        c = g.state.cards.get(k)
        if c is None or c.owner != player or c.zone not in ("hand",) + IN_PLAY or \
                c.zone in IN_PLAY and c.controller != player:
            return f"cost: {k!r} is not a card in {player}'s hand or in play under {player}'s control (COS-05)"
        if c.moribund is not None:
            return f"cost: {g.name(k)} is already leaving play (moribund, MOR-03)"
    for key in ("kill", "return_to_hand"):
        for k in cost.get(key, []):
            c = g.state.cards.get(k)
            if c is None or c.controller != player or c.zone not in IN_PLAY:
                return f"cost: {k!r} is not a card {player} controls in play (COS-05)"
            if c.moribund is not None:
                return f"cost: {g.name(k)} is already leaving play (moribund, MOR-03)"
    powers: dict[int, int] = {}
    for k in cost.get("power", []):
        powers[k] = powers.get(k, 0) + 1
    for k, n in powers.items():
        c = g.state.cards.get(k)
        if c is None or c.controller != player or c.zone not in SOURCE_ZONES:
            return f"cost: {k!r} is not a card {player} controls in play (COS-05)"
        if c.power < n:
            return f"cost: {g.name(k)} has {c.power} power; the cost discards {n}"
    listed = [k for key in ("kneel", "discard", "kill", "return_to_hand") for k in cost.get(key, [])]
    if len(set(listed)) != len(listed):
        return "cost: a card pays one cost at a time"
    return None


def check(g: Game, player: str, answer: dict, *, step: str, event: Any = None) -> dict:
    """Validate a use by hand completely, without changing anything; the answer normalised."""
    allowed = {"by_hand", "paragraph", "cost", "targets", "removes", "save", "cancel", "gate"}
    extra = set(answer) - allowed
    if extra:
        raise Refused(f"by_hand: unknown key '{sorted(extra)[0]}' (use {', '.join(sorted(allowed))})")
    cid = answer.get("by_hand")
    n = answer.get("paragraph", 1)
    ta = _ability(g, cid, n)
    title = g.name(cid)
    if cid not in _sources(g, player) or not _usable_zone(g, cid):
        raise Refused(f"{player} cannot use {title}: it is not a card {player} controls in play "
                      f"or an event in {player}'s hand (EFF-08)")
    if not _fits(ta, step, g.state.phase):
        where = {"action": "in a player-action segment", "save_cancel": "in step 2 (save/cancel)",
                 "response": "in step 5 (responses)"}.get(step, step)
        raise Refused(f"{title}'s paragraph {n} is {article(ta.describe())}: it cannot be used {where} now "
                      f"({'RND-05' if ta.kind == 'action' else 'TIM-06' if ta.kind in ('save', 'cancel') else 'TIM-08'})")
    for problem in (_gold_problem(g, player, cid), _limited_problem(g, player, cid, ta)):
        if problem:
            raise Refused(problem)
    cost = answer.get("cost") or {}
    if not isinstance(cost, dict):
        raise Refused(f"cost: expected a mapping such as {{kneel: [CARD], gold: 1}}, got {cost!r}")
    cost = {k: (_ids(v, f"cost.{k}") if k in ("kneel", "pay", "discard", "kill", "return_to_hand", "power")
                else v) for k, v in cost.items()}
    problem = _cost_problem(g, player, cid, cost)
    if problem:
        raise Refused(problem)
    targets = answer.get("targets") or []
    if not isinstance(targets, list):
        raise Refused(f"targets: expected a list, got {targets!r}")
    for t in targets:
        if isinstance(t, str) and t in g.state.player_names:
            continue
        if not isinstance(t, int) or isinstance(t, bool) or t not in g.state.cards:
            raise Refused(f"targets: {t!r} is not a card or a player")
    removes = answer.get("removes")
    if removes not in (None, "kill", "discard", "return_to_hand", "return_to_deck"):
        raise Refused(f"removes: {removes!r} is not kill, discard, return_to_hand or return_to_deck")
    if removes:
        for t in targets:
            c = g.state.cards.get(t) if isinstance(t, int) else None
            if c is None or c.zone not in IN_PLAY:
                raise Refused(f"targets: {t!r} is not a card in play, so it cannot be removed (ZON-03)")
            if c.moribund is not None:
                raise Refused(f"{g.name(t)} is already leaving play: it is not a legal target (MOR-03)")
    out = {"by_hand": cid, "paragraph": n, "cost": cost, "targets": list(targets), "removes": removes}
    for key, only in (("save", "save_cancel"), ("cancel", "save_cancel"), ("gate", "response")):
        if key in answer and step != only:
            raise Refused(f"by_hand: '{key}' belongs to {'a save or cancel (step 2)' if only == 'save_cancel' else 'a response (step 5)'}"
                          f", not to this decision (TIM-05)")
    if step == "save_cancel":
        if event is None:
            raise Refused("there is nothing to save or cancel now (TIM-06)")
        if ta.kind == "cancel":
            if event.data.get("cannot_be_canceled"):
                raise Refused(f"{event.name} cannot be canceled (GEN-04)")
            if event.data.get("source") == cid:
                raise Refused(f"{title} cannot cancel itself (TIM-07)")
            if event.data.get("source_class") == "framework":
                raise Refused(f"{title}: a cancel by hand answers a card's effect, not a framework step "
                              f"({event.name}) (TIM-06)")
            out["cancel"] = True
        else:
            v = answer.get("save")
            if event.data.get("cannot_be_saved"):
                raise Refused(f"what {event.name} removes cannot be saved (GEN-04)")
            if v not in event.victims or g.card(v).moribund is not None:
                raise Refused(f"{title} can save only a card that {event.name} would remove (TIM-06)")
            if any(triggers.matches(g, v, f, triggers.Ctx(v, g.card(v).controller))
                   for f in triggers.terminal_conditions(g, v)):
                raise Refused(f"{g.name(v)} is in a terminal condition: a save that does not end it "
                              f"does not save it (MOR-09)")
            out["save"] = v
    elif step == "response":
        gates = _gates(g, player, cid, ta)
        i = answer.get("gate", gates[0] if len(gates) == 1 else "?")
        if isinstance(i, bool) or i not in gates:
            if not gates:
                raise Refused(f"{title}: its opportunity has not arisen in this window (TIM-08)")
            raise Refused(f"{title}: name the gate it answers (gate: one of {gates}) (TIM-12)")
        out["gate"] = i
    return out


# ---------------------------------------------------------------------------
# Resolving a use by hand
# ---------------------------------------------------------------------------

def by_hand_event(g: Game, player: str, answer: dict, *, target_event: Any = None):
    """A use by hand as an event with its own steps: step 1 pays what the player stated, step 3
    carries out the text with the tools (and the engine saves or cancels for a save or cancel)."""
    from engine.flow import Event

    cid, n = answer["by_hand"], answer["paragraph"]
    ta = _ability(g, cid, n)
    title = g.name(cid)
    d = g.defn(cid)
    source_class = d.type
    ev = Event(f"{player}'s {title} (by hand)",
               data={"source": cid, "player": player, "source_class": source_class, "by_hand": True,
                     "cannot_be_canceled": source_class == "agenda"})

    def initiate(g: Game, ev: Event) -> Flow:
        pay_costs(g, player, cid, ta, answer.get("cost") or {})
        if answer.get("removes"):
            ev.victims = [t for t in answer.get("targets", []) if isinstance(t, int)]
            ev.data["removal"] = "kill" if answer["removes"] == "kill" else "discard"
        targets = answer.get("targets") or []
        named = f" targeting {', '.join(g.name(t) if isinstance(t, int) else t for t in targets)}" if targets else ""
        g.log(f"{player} {'plays' if source_class == 'event' else 'uses'} {title}{named}: "
              f"text not automated — resolve by hand")
        if g.state.window is not None and source_class == "event":
            g.state.window.gates.append({"event": "played", "card": cid, "player": player})
        return
        yield

    def execute(g: Game, ev: Event) -> Flow:
        if answer.get("cancel") and target_event is not None:
            target_event.cancelled = True
            g.log(f"{title} cancels {target_event.name}")
        if answer.get("save") is not None and target_event is not None:
            v = answer["save"]
            if v in target_event.victims:
                target_event.victims.remove(v)
                target_event.data.setdefault("saved", []).append(v)
                g.log(f"{g.name(v)} is saved by {title}")
                if g.state.window is not None:
                    g.state.window.gates.append({"event": "saved", "card": v, "player": g.card(v).controller})
        yield from carry_out(g, player, cid, ta, ev)

    ev.initiate, ev.execute = initiate, execute
    return ev


def pay_costs(g: Game, player: str, cid: int, ta: TextAbility, cost: dict) -> None:
    """Step 1e by hand: an event leaves the hand and is moribund until step 6 (MOR-05)."""
    c = g.card(cid)
    p = g.player(player)
    d = g.defn(cid)
    if d.type == "event" and c.zone == "hand":
        g.spend_gold(player, d.cost or 0)  # the pool first, then gold tokens he may spend
        triggers.use_reducer(g, player, cid)
        g._detach_from_location(cid)
        c.zone = "played"
        p.played.append(cid)
        c.moribund = "dead" if g.has_keyword(cid, "deathbound") else "discard"
        if g.has_keyword(cid, "limited"):
            p.limited_played = True
    if ta.limited:
        p.limited_played = True
    g.spend_gold(player, cost.get("gold", 0))
    for k in cost.get("kneel", []) + cost.get("pay", []):
        g.card(k).kneeling = True
    for k in cost.get("discard", []):
        if g.card(k).zone == "hand":
            g.move_to_pile(k, "discard")
        else:
            g.remove(k, "discard")
    for k in cost.get("kill", []):
        g.remove(k, "dead")
    for k in cost.get("return_to_hand", []):
        g.remove(k, "hand")
    for k in cost.get("power", []):
        g.card(k).power -= 1


def resolve_nested(g: Game, player: str, answer: dict, *, target_event: Any = None) -> Flow:
    """A save, cancel or response by hand: initiate, its own save/cancel step, execute (5a-c)."""
    from engine import flow

    ev = by_hand_event(g, player, answer, target_event=target_event)
    yield from ev.initiate(g, ev)
    yield from flow.save_cancel_step(g, ev, g.state.left_of(player))
    if not ev.cancelled:
        yield from ev.execute(g, ev)
        yield from flow.terminal_check(g)
    else:
        g.log(f"{ev.name} is canceled")


def carry_out(g: Game, player: str, cid: int, ta: TextAbility, ev: Any = None) -> Flow:
    """Step 3 by hand: the controller uses the tools until Done. A card saved from this effect in
    step 2 cannot be removed by it (TIM-07)."""
    title = g.name(cid)
    used = 0
    while True:
        def checker(answer: dict) -> dict:
            if "tool" not in answer:
                raise Refused("use a tool ({'tool': 'kill', 'card': ...}) or say done")
            saved = ev.data.get("saved", []) if ev is not None else []
            if answer.get("tool") in REMOVALS and answer.get("card") in saved:
                raise Refused(f"{g.name(answer['card'])} was saved from {title}'s effect: it cannot remove "
                              f"it now (TIM-07)")
            return check_tool(g, player, answer, source=cid)

        d = Decision("by_hand_effect", player,
                     f"{title}: carry out its text by hand with the tools, then Done",
                     can_pass=True, checker=checker,
                     context={"by_hand": True, "card": cid, "paragraph": ta.paragraph, "kind": ta.kind,
                              "tools": sorted(TOOLS), "used": used})
        answer = yield from g.ask(d)
        if "pass" in answer:
            return
        apply_tool(g, player, answer, source=cid)
        used += 1


def passives_for(g: Game, gates: list[dict]) -> list[tuple[int, TextAbility, dict, str]]:
    """By-hand passives whose gate is among ``gates``: (card, ability, gate, controller)."""
    if not by_hand_in_pool(g):
        return []
    out = []
    for p in g.state.players:
        for cid in _sources(g, p.name):
            if not _usable_zone(g, cid) or g.defn(cid).type == "event":
                continue
            for ta in text_abilities(g, cid):
                if ta.kind != "passive" or ta.when is None:
                    continue
                ctx = triggers.Ctx(cid, p.name)
                gate = next((gt for gt in gates if triggers.gate_matches(g, ta.when, gt, ctx)), None)
                if gate is not None:
                    out.append((cid, ta, gate, p.name))
    return out


def resolve_passive(g: Game, owner: str, cid: int, ta: TextAbility, gate: dict) -> Flow:
    """A passive by hand: its controller resolves it with the tools, or skips it (the engine
    cannot tell whether its condition holds, so the player says)."""
    from engine import flow

    title = g.name(cid)
    g.log(f"{title}: text not automated — resolve by hand")
    decision = Decision("by_hand_passive", owner,
                        f"{title} would trigger now ({ta.describe()}): resolve it by hand, or skip",
                        options=[{"resolve": True}], can_pass=True,
                        context={"by_hand": True, "card": cid, "paragraph": ta.paragraph})
    answer = yield from g.ask(decision)
    if "pass" in answer:
        g.log(f"{owner} skips {title}'s text")
        return
    ev = flow.Event(f"{title}'s passive ability (by hand)",
                    data={"source": cid, "player": owner, "source_class": g.card_type(cid), "by_hand": True,
                          "cannot_be_canceled": g.card_type(cid) == "agenda"})
    if g.state.window is None or g.state.window.kind != "end_of_phase":  # TIM-17
        yield from flow.save_cancel_step(g, ev, g.first_player)
    if not ev.cancelled:
        yield from carry_out(g, owner, cid, ta, ev)
        yield from flow.terminal_check(g)


# ---------------------------------------------------------------------------
# The tools: one registry
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Tool:
    name: str
    keys: frozenset
    doc: str
    check: Callable[[Game, str, dict, int | None], str | None]
    apply: Callable[[Game, str, dict, int | None], None]


TOOLS: dict[str, Tool] = {}


def tool(name: str, keys: set, doc: str):
    def wrap(pair):
        check_fn, apply_fn = pair
        TOOLS[name] = Tool(name, frozenset(keys | {"tool"}), doc, check_fn, apply_fn)
        return pair
    return wrap


def _card_at(g: Game, answer: dict, key: str = "card") -> int:
    cid = answer.get(key)
    if not isinstance(cid, int) or isinstance(cid, bool) or cid not in g.state.cards:
        raise Refused(f"{key}: there is no card {cid!r}")
    return cid


def _int_at(answer: dict, key: str, default: int | None = None, *, low: int = -99, high: int = 99) -> int:
    v = answer.get(key, default)
    if not isinstance(v, int) or isinstance(v, bool) or not low <= v <= high:
        raise Refused(f"{key}: expected a whole number from {low} to {high}, got {v!r}")
    return v


def _player_at(g: Game, answer: dict, player: str, key: str = "player") -> str:
    who = answer.get(key, player)
    if who not in g.state.player_names:
        raise Refused(f"{key}: {who!r} is not a player")
    return who


def _open_gates(g: Game, cid: int, verb: str) -> None:
    if g.state.window is not None:
        g.state.window.gates.append({"event": verb, "card": cid, "player": g.card(cid).controller})
        g.state.window.gates.append({"event": "left_play", "card": cid, "player": g.card(cid).controller})


def _removal(dest: str, verb: str, gate: str):
    def check_(g: Game, player: str, a: dict, source: int | None) -> str | None:
        cid = _card_at(g, a)
        c = g.card(cid)
        if dest == "discard" and c.zone == "hand":
            return None
        if c.zone not in IN_PLAY:
            return f"{g.name(cid)} is not in play"
        if c.moribund is not None:
            return f"{g.name(cid)} is already leaving play (moribund): it cannot be removed again (MOR-03)"
        if "bottom" in a and not isinstance(a["bottom"], bool):
            return "bottom: true or false"
        return None

    def apply_(g: Game, player: str, a: dict, source: int | None) -> None:
        cid = a["card"]
        if dest == "discard" and g.card(cid).zone == "hand":
            g.move_to_pile(cid, "discard")
            g.log(f"{player} discards {g.name(cid)} from hand (by hand)")
            return
        where = "deck_bottom" if dest == "deck" and a.get("bottom") else "deck_top" if dest == "deck" else dest
        if g.remove(cid, where):
            g.log(f"{g.name(cid)} is {verb} (by hand)")
            _open_gates(g, cid, gate)

    return check_, apply_


REMOVALS = ("kill", "discard", "return_to_hand", "return_to_deck")

tool("kill", {"card"}, "kill a card in play: moribund until step 6, opens `killed`")(
    _removal("dead", "killed", "killed"))
tool("discard", {"card"}, "discard a card in play (moribund until step 6) or from hand")(
    _removal("discard", "discarded", "discarded"))
tool("return_to_hand", {"card"}, "return a card in play to its owner's hand")(
    _removal("hand", "returned to hand", "returned"))
tool("return_to_deck", {"card", "bottom"}, "return a card in play to its owner's deck (top, or `bottom: true`)")(
    _removal("deck", "returned to the deck", "returned"))


def _kneel_check(kneel: bool):
    def check_(g: Game, player: str, a: dict, source: int | None) -> str | None:
        cid = _card_at(g, a)
        c = g.card(cid)
        if c.zone not in SOURCE_ZONES:
            return f"{g.name(cid)} is not in play"
        if c.kneeling == kneel:
            return f"{g.name(cid)} is already {'kneeling' if kneel else 'standing'} (ZON-06)"
        return None

    def apply_(g: Game, player: str, a: dict, source: int | None) -> None:
        g.card(a["card"]).kneeling = kneel
        g.log(f"{g.name(a['card'])} {'kneels' if kneel else 'stands'} (by hand)")

    return check_, apply_


tool("kneel", {"card"}, "kneel a card in play")(_kneel_check(True))
tool("stand", {"card"}, "stand a card in play")(_kneel_check(False))


def _power_check(g: Game, player: str, a: dict, source: int | None) -> str | None:
    cid = _card_at(g, a)
    n = _int_at(a, "amount", 1)
    c = g.card(cid)
    if c.zone not in ("in_play", "attached", "house"):
        return f"{g.name(cid)} is not in play: power sits on cards in play and House cards"
    if c.power + n < 0:
        return f"{g.name(cid)} has {c.power} power; it cannot lose {-n} (ZON-07)"
    return None


def _power_apply(g: Game, player: str, a: dict, source: int | None) -> None:
    cid, n = a["card"], a.get("amount", 1)
    g.card(cid).power += n
    g.log(f"{g.name(cid)} {'gains' if n >= 0 else 'loses'} {abs(n)} power (by hand)")
    g.check_victory()


tool("power", {"card", "amount"}, "a card in play or a House card gains (or, negative, loses) power")(
    (_power_check, _power_apply))


def _move_power_check(g: Game, player: str, a: dict, source: int | None) -> str | None:
    src, dst = _card_at(g, a, "from"), _card_at(g, a, "to")
    n = _int_at(a, "amount", 1, low=1)
    for cid in (src, dst):
        if g.card(cid).zone not in ("in_play", "attached", "house"):
            return f"{g.name(cid)} is not in play: power sits on cards in play and House cards"
    if g.card(src).power < n:
        return f"{g.name(src)} has {g.card(src).power} power; it cannot give {n} (ZON-08)"
    return None


def _move_power_apply(g: Game, player: str, a: dict, source: int | None) -> None:
    n = a.get("amount", 1)
    g.card(a["from"]).power -= n
    g.card(a["to"]).power += n
    g.log(f"{n} power moves from {g.name(a['from'])} to {g.name(a['to'])} (by hand)")
    g.check_victory()


tool("move_power", {"from", "to", "amount"}, "move power from one card to another (moving is not claiming, ZON-08)")(
    (_move_power_check, _move_power_apply))


def _gold_check(g: Game, player: str, a: dict, source: int | None) -> str | None:
    who = _player_at(g, a, player)
    n = _int_at(a, "amount", 1)
    if g.player(who).gold + n < 0:
        return f"{who} has {g.player(who).gold} gold; cannot lose {-n} (ZON-02)"
    return None


def _gold_apply(g: Game, player: str, a: dict, source: int | None) -> None:
    who, n = a.get("player", player), a.get("amount", 1)
    g.player(who).gold += n
    g.log(f"{who} {'gains' if n >= 0 else 'loses'} {abs(n)} gold (by hand)")


tool("gold", {"player", "amount"}, "a player gains (or, negative, loses) gold")((_gold_check, _gold_apply))


def _draw_check(g: Game, player: str, a: dict, source: int | None) -> str | None:
    who = _player_at(g, a, player)
    _int_at(a, "count", 1, low=1, high=10)
    if g.player(who).drawn_this_round >= 3 and g.options.mode != "advise":
        return f"{who} has already drawn 3 cards by card effects this round: the draw cap (DRW-03)"
    if not g.player(who).deck:
        return f"{who}'s deck is empty (DRW-01)"
    return None


def _draw_apply(g: Game, player: str, a: dict, source: int | None) -> None:
    who = a.get("player", player)
    got = g.draw(who, a.get("count", 1), by_effect=True, enforce_cap=g.options.mode != "advise")
    g.log(f"{who} draws {got} card{'s' if got != 1 else ''} (by hand)")


tool("draw", {"player", "count"}, "a player draws cards; card-effect draws count against the draw cap (DRW-03)")(
    (_draw_check, _draw_apply))


SEARCH_TO = ("hand", "in_play", "discard", "deck_top")


def _search_check(g: Game, player: str, a: dict, source: int | None) -> str | None:
    who = _player_at(g, a, player)
    pick = a.get("pick")
    if a.get("to", "hand") not in SEARCH_TO:
        return f"to: one of {', '.join(SEARCH_TO)}"
    if pick is None:
        return None
    cid = _card_at(g, a, "pick")
    if g.card(cid).zone != "deck" or g.card(cid).owner != who:
        return f"{g.name(cid)} is not in {who}'s deck"
    if a.get("to") == "in_play":
        return _into_play_problem(g, player, cid)
    return None


def _search_apply(g: Game, player: str, a: dict, source: int | None) -> None:
    who, pick = a.get("player", player), a.get("pick")
    if pick is not None:
        to = a.get("to", "hand")
        g.log(f"{player} searches {who}'s deck and reveals {g.name(pick)} (by hand)")
        if to == "in_play":
            _put(g, player, pick)
        elif to == "deck_top":
            g.move_to_pile(pick, "deck", top=True)
        else:
            g.move_to_pile(pick, to)
    else:
        g.log(f"{player} searches {who}'s deck and takes nothing (by hand)")
    if to_shuffle(a):
        g.shuffle_deck(who)  # ZON-16: a searched deck is shuffled


def to_shuffle(a: dict) -> bool:
    return a.get("to", "hand") != "deck_top"


tool("search", {"player", "pick", "to"}, "look through a deck, take a card (`pick`, or none) to hand, play or "
                                         "discard, reveal it, then shuffle (ZON-16)")((_search_check, _search_apply))


def _shuffle_check(g: Game, player: str, a: dict, source: int | None) -> str | None:
    _player_at(g, a, player)
    return None


def _shuffle_apply(g: Game, player: str, a: dict, source: int | None) -> None:
    who = a.get("player", player)
    g.shuffle_deck(who)
    g.log(f"{who}'s deck is shuffled (by hand)")


tool("shuffle", {"player"}, "shuffle a player's deck")((_shuffle_check, _shuffle_apply))


def _look_check(g: Game, player: str, a: dict, source: int | None) -> str | None:
    _player_at(g, a, player)
    _int_at(a, "count", 1, low=1, high=20)
    return None


def _look_apply(g: Game, player: str, a: dict, source: int | None) -> None:
    who, n = a.get("player", player), a.get("count", 1)
    g.state.looking.append({"player": player, "deck": who, "count": n})
    g.log(f"{player} looks at the top {n} card{'s' if n != 1 else ''} of {who}'s deck (by hand)")


tool("look", {"player", "count"}, "look at the top N cards of a deck (only the looking seat sees them)")(
    (_look_check, _look_apply))


def _reveal_check(g: Game, player: str, a: dict, source: int | None) -> str | None:
    cid = _card_at(g, a)
    c = g.card(cid)
    if c.zone not in ("hand", "deck") or c.owner != player and c.zone == "hand":
        return f"reveal: {g.name(cid)} must be in your hand or a deck you are searching"
    return None


def _reveal_apply(g: Game, player: str, a: dict, source: int | None) -> None:
    cid = a["card"]
    if cid not in g.state.revealed:
        g.state.revealed.append(cid)
    g.log(f"{player} reveals {g.name(cid)} (by hand)")


tool("reveal", {"card"}, "reveal a card from your hand to every seat (until the window closes)")(
    (_reveal_check, _reveal_apply))


def _into_play_problem(g: Game, player: str, cid: int, host: Any = None) -> str | None:
    d = g.defn(cid)
    if d.type not in ("character", "location", "attachment"):
        return f"{d.name} is a{'n' if d.type[0] in 'aeiou' else ''} {d.type}: only characters, locations and " \
               f"attachments are put into play (ZON-01)"
    problem = legality.entry_problem(g, player, cid)
    if problem:
        return problem
    if d.type == "attachment":
        if not isinstance(host, int) or host not in g.state.cards or g.card(host).zone != "in_play":
            return f"{d.name} is an attachment: say which card in play it goes on (attach_to)"
    return None


def _put(g: Game, player: str, cid: int, host: int | None = None) -> None:
    came_from = g.card(cid).zone
    if g.defn(cid).type == "attachment" and host is not None:
        g.attach(cid, host, player)
    else:
        g.put_in_play(cid, player)
    g.log(f"{player} puts {g.name(cid)} into play (by hand)")
    if g.state.window is not None:
        g.state.window.gates.append({"event": "entered_play", "card": cid, "player": player, "from": came_from})


def _into_play_check(g: Game, player: str, a: dict, source: int | None) -> str | None:
    cid = _card_at(g, a)
    c = g.card(cid)
    if c.zone not in ("hand", "discard", "dead", "deck"):
        return f"{g.name(cid)} is not in a hand, deck, discard or dead pile"
    if c.owner != player:
        return f"{g.name(cid)} belongs to {c.owner}: put into play takes your own cards (ZON-10)"
    return _into_play_problem(g, player, cid, a.get("attach_to"))


tool("put_into_play", {"card", "attach_to"}, "put your card into play from hand, deck, discard or dead pile "
                                              "(uniqueness still applies, UNQ-02)")(
    (_into_play_check, lambda g, player, a, source: _put(g, player, a["card"], a.get("attach_to"))))


def _control_check(g: Game, player: str, a: dict, source: int | None) -> str | None:
    cid = _card_at(g, a)
    c = g.card(cid)
    if c.zone != "in_play":
        return f"{g.name(cid)} is not in play"
    if c.controller == player:
        return f"{player} already controls {g.name(cid)}"
    return triggers.control_problem(g, player, cid)


def _control_apply(g: Game, player: str, a: dict, source: int | None) -> None:
    g.set_controller(a["card"], player)
    g.log(f"{player} takes control of {g.name(a['card'])} (by hand)")


tool("take_control", {"card"}, "take control of a card in play (UNQ-02, CTL-01)")((_control_check, _control_apply))

_MODS = {"add_icons": "icon+", "remove_icons": "icon-", "add_keywords": "keyword+", "remove_keywords": "keyword-"}


def _modify_check(g: Game, player: str, a: dict, source: int | None) -> str | None:
    cid = _card_at(g, a)
    if g.card(cid).zone not in SOURCE_ZONES:
        return f"{g.name(cid)} is not in play"
    if a.get("until", "phase") not in UNTILS:
        return f"until: one of {', '.join(UNTILS)}"
    if a.get("until") == "in_play" and source is None:
        return "until in_play lasts while the card whose text it is stays in play: use it inside that card's effect"
    _int_at(a, "strength", 0)
    from cards.model import ICONS

    for key in _MODS:
        v = a.get(key, [])
        if not isinstance(v, list) or not all(isinstance(x, str) and 0 < len(x) <= 40 for x in v):
            return f"{key}: expected a list of words"
        if "icons" in key and any(x not in ICONS for x in v):
            return f"{key}: icons are {', '.join(ICONS)}"
    if not a.get("strength") and not any(a.get(k) for k in _MODS) and not a.get("blank"):
        return "say what changes: strength, add_icons, remove_icons, add_keywords, remove_keywords or blank"
    if "blank" in a and not isinstance(a["blank"], bool):
        return "blank: true or false"
    return None


def _modify_apply(g: Game, player: str, a: dict, source: int | None) -> None:
    cid = a["card"]
    until = a.get("until", "phase")
    if until == "in_play":
        until = f"in_play:{source}"
    parts = []
    if a.get("strength"):
        g.state.effects.append(Effect(cid, "strength", a["strength"], until, source))
        parts.append(f"{a['strength']:+d} STR")
    if a.get("blank"):
        g.state.effects.append(Effect(cid, "blank", True, until, source))
        parts.append("loses its text box")
    for key, stat in _MODS.items():
        for v in a.get(key, []):
            g.state.effects.append(Effect(cid, stat, v.lower() if "keywords" in key else v, until, source))
            parts.append(f"{'gains' if key.startswith('add') else 'loses'} {v}")
    how = f"while {g.name(source)} stays in play" if until.startswith("in_play:") and source is not None \
        else f"until the end of the {until}"
    g.log(f"{g.name(cid)} {', '.join(parts)} {how} (by hand)")


tool("modify", {"card", "strength", "add_icons", "remove_icons", "add_keywords", "remove_keywords", "blank", "until"},
     "STR +/-N, gain or lose icons and keywords, or blank the text box, until the end of the challenge, phase, "
     "round, or while the card stays in play")((_modify_check, _modify_apply))


def _token_check(g: Game, player: str, a: dict, source: int | None) -> str | None:
    cid = _card_at(g, a)
    if g.card(cid).zone not in SOURCE_ZONES:
        return f"{g.name(cid)} is not in play"
    name = a.get("name", "token")
    if not isinstance(name, str) or not 0 < len(name) <= 30:
        return "name: a short word for the token (up to 30 letters)"
    n = _int_at(a, "amount", 1)
    if g.card(cid).tokens.get(name, 0) + n < 0:
        return f"{g.name(cid)} has {g.card(cid).tokens.get(name, 0)} {name} tokens"
    return None


def _token_apply(g: Game, player: str, a: dict, source: int | None) -> None:
    c = g.card(a["card"])
    name, n = a.get("name", "token"), a.get("amount", 1)
    c.tokens[name] = c.tokens.get(name, 0) + n
    if not c.tokens[name]:
        del c.tokens[name]
    g.log(f"{g.name(a['card'])}: {n:+d} {name} token{'s' if abs(n) != 1 else ''} (by hand)")


tool("token", {"card", "name", "amount"}, "put (or, negative, remove) named tokens on a card in play")(
    (_token_check, _token_apply))


def _note_check(g: Game, player: str, a: dict, source: int | None) -> str | None:
    cid = _card_at(g, a)
    if g.card(cid).zone not in SOURCE_ZONES:
        return f"{g.name(cid)} is not in play"
    text = a.get("text", "")
    if not isinstance(text, str) or len(text) > 200 or any(ord(ch) < 32 for ch in text):
        return "text: a note of up to 200 printable characters"
    return None


def _note_apply(g: Game, player: str, a: dict, source: int | None) -> None:
    g.card(a["card"]).note = a.get("text", "")
    g.log(f"{player} notes on {g.name(a['card'])}: {a.get('text', '') or '(cleared)'}")


tool("note", {"card", "text"}, "write a note on a card in play (empty text clears it)")((_note_check, _note_apply))


def check_tool(g: Game, player: str, answer: dict, *, source: int | None = None) -> dict:
    """A tool answer checked against the registry; Refused names what is wrong. Nothing changes."""
    name = answer.get("tool")
    t = TOOLS.get(name) if isinstance(name, str) else None
    if t is None:
        raise Refused(f"tool: {name!r} is not a tool; the tools are {', '.join(sorted(TOOLS))}")
    extra = set(answer) - t.keys
    if extra:
        raise Refused(f"{name}: unknown key '{sorted(extra)[0]}' (it takes {', '.join(sorted(t.keys - {'tool'}))})")
    problem = t.check(g, player, answer, source)
    if problem:
        raise Refused(problem)
    return dict(answer)


def apply_tool(g: Game, player: str, answer: dict, *, source: int | None = None) -> None:
    TOOLS[answer["tool"]].apply(g, player, answer, source)
