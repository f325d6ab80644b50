"""The round, in rulebook order: generators that yield decisions (RND-01, RND-02).

Each phase follows the LCG timing charts: framework actions (grey boxes) open
framework windows; player-action segments give every player, clockwise from
the first player, the chance to act until all pass in succession (TIM-03).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

from engine import legality, manual, triggers
from engine.decisions import Decision, GameEnded, Refused, shown
from engine.state import CHALLENGE_TYPES, Challenge, Version, Window, effects_on
from engine.steady import steady

if TYPE_CHECKING:
    from engine.game import Flow, Game

HAND_SIZE = 7


def phases_of_round(g: Game) -> list[str]:
    phases = ["plot", "draw", "marshalling", "challenges", "dominance", "standing"]
    if g.state.ruleset != "ccg-winter":
        phases.append("taxation")  # C-01: F's charts add Taxation after Standing
    return phases


def play(g: Game, start_phase: str) -> Flow:
    """The whole game from ``start_phase`` of the current round."""
    st = g.state
    if start_phase == "setup":
        yield from setup(g)
        start_phase = "plot"
    phases = phases_of_round(g)
    i = phases.index(start_phase)
    while True:
        for phase in phases[i:]:
            if phase == "taxation" and triggers.prohibited(g, g.first_player, "taxation_phase") is not None:
                g.log("the taxation phase is skipped this round")  # core-b: Planning Ahead
                continue
            yield from PHASES[phase](g)
        end_round(g)
        st.round += 1
        i = 0


# ---------------------------------------------------------------------------
# Windows (TIM-05): framework windows, player windows, save/cancel and responses
# ---------------------------------------------------------------------------

@dataclass
class Event:
    """A framework event or an action resolving in a window: initiate (step 1), execute (step 3)."""

    name: str
    initiate: Callable[[Game, "Event"], Flow] | None = None
    execute: Callable[[Game, "Event"], Flow] | None = None
    victims: list[int] = field(default_factory=list)
    """Cards this event would kill or discard: they may be saved in step 2."""
    cancelled: bool = False
    data: dict = field(default_factory=dict)


def _run(gen) -> Flow:
    if gen is not None:
        result = yield from gen
        return result
    return None


def enter_step(g: Game, w: Window, step: int, ev: Event | None = None) -> None:
    """The window moves to ``step`` (1-6); an observer (Options.observer) hears of it."""
    w.step = step
    if g.options.observer is not None:
        g.observe("step", window=w, step=step, event=ev)


def resolve_event(g: Game, w: Window, ev: Event, first_to_respond: str, *, save_step: bool = True) -> Flow:
    ev.data.setdefault("source_class", "framework")
    enter_step(g, w, 1, ev)
    if ev.initiate:
        yield from _run(ev.initiate(g, ev))
    if save_step:
        enter_step(g, w, 2, ev)
        yield from save_cancel_step(g, ev, first_to_respond)
    enter_step(g, w, 3, ev)
    if not ev.cancelled and ev.execute:
        yield from _run(ev.execute(g, ev))
        yield from terminal_check(g)


def framework_window(g: Game, name: str, events: list[Event], *, end_of_phase: bool = False,
                     passives: list[Event] | None = None) -> Flow:
    """Each framework event gets steps 1-3; then steps 4-6 are shared (CHL-11, TIM-04).
    End-of-phase windows have no step 2 and no step 5 (TIM-17)."""
    # A game won inside the window ends at once (WIN-01): the window stays open in the final
    # state, with its moribund cards, exactly as the game stopped.
    w = g.open_window("end_of_phase" if end_of_phase else "framework", name, None)
    for ev in events:
        yield from resolve_event(g, w, ev, g.first_player, save_step=not end_of_phase)
    enter_step(g, w, 4)
    yield from passive_step(g, passives or [])
    if not end_of_phase:
        enter_step(g, w, 5)
        yield from response_step(g, g.first_player)
    enter_step(g, w, 6)
    g.resolve_moribund()
    yield from after_step_six(g)
    yield from ordered_end(g)
    g.close_window(w)
    update_challenge_participants(g)


def player_window(g: Game, initiator: str, action: Event) -> Flow:
    """A player action's window: save/cancel and responses start left of the initiator (TIM-09)."""
    w = g.open_window("player", action.name, initiator)
    yield from resolve_event(g, w, action, g.state.left_of(initiator))
    enter_step(g, w, 4)
    yield from passive_step(g, [])
    enter_step(g, w, 5)
    yield from response_step(g, g.state.left_of(initiator))
    enter_step(g, w, 6)
    g.resolve_moribund()
    yield from after_step_six(g)
    yield from ordered_end(g)
    g.close_window(w)
    update_challenge_participants(g)


def after_step_six(g: Game) -> Flow:
    """Cards that left play in step 6 may make a ``leaves_play`` condition hold (a moribund card is
    still in play until then, MOR-02): those cards are discarded now and leave at once. Cards returned to a
    hand in step 6 may break a hand limit (Tyrion Lannister's agenda): checked first."""
    yield from hand_limit_check(g)
    for _ in range(len(g.state.cards)):
        victims = triggers.leaves_play_victims(g)
        if not victims:
            return
        yield from leaves_play_check(g)
        if not any(g.card(c).moribund is not None for c in victims):
            return  # saved, and the condition ended
        g.resolve_moribund()


def ordered_end(g: Game) -> Flow:
    """WIN-06, C-10: when a win condition (15 power) and an elimination condition (five Doomed cards)
    hold at once, the first player chooses which applies first: ``victory`` (the player with 15 power
    wins) or ``elimination`` (the doomed players are out, then whoever still has 15 power wins)."""
    conflict = g.end_conflict()
    if conflict is None:
        return
    winners, doomed = conflict
    words = ["victory", "elimination"]
    decision = Decision("choose", g.first_player,
                        f"{' and '.join(winners)} {'has' if len(winners) == 1 else 'have'} 15 power and "
                        f"{' and '.join(doomed)} {'has' if len(doomed) == 1 else 'have'} five Doomed cards in the "
                        f"dead pile: choose which applies first (victory or elimination)",
                        choices=words, min_count=1, max_count=1,
                        checker=legality.selection_checker(g, words, 1, 1, "victory or elimination", "WIN-06"),
                        context={"winners": winners, "doomed": doomed, "end_order": True})
    answer = yield from g.ask(decision)
    first = answer["choose"][0]
    g.log(f"{g.first_player} applies the {first} first (WIN-06)")
    if first == "victory":
        g.check_victory()
    g.check_doomed()
    g.check_victory()


def until_all_pass(g: Game, first: str, offer, *, stop=lambda: False) -> Flow:
    """Offer each player still in the game an opportunity, clockwise from ``first``, until all pass
    in succession (TIM-03, TIM-09). ``offer(name)`` asks and acts; it returns True if the player
    did something, which gives everyone another opportunity."""
    order = g.state.clockwise_from(first)
    seats = [g.player(n) for n in order]
    passes, i = 0, 0
    living, seen = 0, -1
    while True:
        if seen != Version.s:  # elimination (a concession too) is a change of structure
            seen = Version.s
            living = sum(1 for p in seats if not p.eliminated)
        if passes >= living or stop():
            break
        p = seats[i % len(seats)]
        i += 1
        if p.eliminated:
            continue  # an eliminated player takes no more turns (WIN-04, WIN-07)
        acted = yield from offer(p.name)
        passes = 0 if acted else passes + 1


def save_cancel_step(g: Game, ev: Event, first: str) -> Flow:
    """Step 2: clockwise from ``first``, until every player passes in succession (or it is canceled)."""

    def offer(name: str) -> Flow:
        if not g.options.prompt_all and not _may_play(g, name, "save_cancel", ev):
            return False  # an empty opportunity: the pass it would get, without building it
        answer = yield from g.ask(save_cancel_decision(g, name, ev))
        if "pass" in answer:
            return False
        yield from apply_save_cancel(g, name, ev, answer)
        return True

    if _everyone_would_pass(g, first, "save_cancel", ev):
        return
    yield from until_all_pass(g, first, offer, stop=lambda: ev.cancelled)


def _everyone_would_pass(g: Game, first: str, step: str, ev: Event | None = None) -> bool:
    """With empty opportunities skipped (``Options.prompt_all`` off), a step where no player still in
    the game has anything to play (no ability of the step's kind, no text by hand, no duplicate to
    save with) would offer each an empty opportunity, answered with a pass: it ends at once, without
    building the decisions (the same passes, in less time)."""
    if g.options.prompt_all:
        return False
    for name in g.state.clockwise_from(first):
        if not g.player(name).eliminated and _may_play(g, name, step, ev):
            return False
    return True


def _may_play(g: Game, name: str, step: str, ev: Event | None) -> bool:
    """Whether ``name`` may have something to play in this step (save/cancel, response): an ability
    answering an open event (``triggers.may_answer``), text by hand, or a duplicate to save with. When
    not, his opportunity is empty."""
    if triggers.may_answer(g, name, step, ev) or manual.options(g, name, step=step, event=ev):
        return True
    return ev is not None and not ev.data.get("cannot_be_saved") and any(
        g.card(cid).controller == name and g.card(cid).duplicates and not g.cannot(cid, "be_saved")
        for cid in ev.victims)


def save_cancel_decision(g: Game, name: str, ev: Event) -> Decision:
    saves = [{"duplicate_save": cid} for cid in ev.victims
             if g.card(cid).controller == name and g.card(cid).duplicates and g.card(cid).moribund is None
             and not ev.data.get("cannot_be_saved") and not g.cannot(cid, "be_saved")]
    saves += triggers.options(g, name, step="save_cancel", event=ev)
    if ev.data.get("terminal"):
        saves = [s for s in saves if terminal_save_problem(g, name, ev, s) is None]
    by_hand = manual.options(g, name, step="save_cancel", event=ev)

    def check(answer: dict) -> dict:
        if "by_hand" in answer:
            return manual.check(g, name, answer, step="save_cancel", event=ev)
        if "duplicate_save" in answer:
            cid = answer["duplicate_save"]
            if {"duplicate_save": cid} not in saves:
                why = legality.duplicate_save_problem(g, name, cid, ev.victims)
                if ev.data.get("cannot_be_saved"):
                    why = f"{ev.name} cannot be saved against (GEN-04)"
                elif g.cannot(cid, "be_saved"):
                    why = f"{g.name(cid)} cannot be saved (GEN-04)"
                if why is None and ev.data.get("terminal"):
                    why = terminal_save_problem(g, name, ev, {"duplicate_save": cid})
                raise Refused(why or "no duplicate can save that card now (UNQ-08)")
            return {"duplicate_save": cid}
        normal = triggers.check_trigger(g, name, answer, step="save_cancel", event=ev)
        why = terminal_save_problem(g, name, ev, normal) if ev.data.get("terminal") else None
        if why:
            raise Refused(why)
        return normal

    return Decision("save_cancel", name, f"save or cancel against: {ev.name}", options=saves,
                    can_pass=True, checker=check, context={"event": ev.name, "by_hand": by_hand})


def terminal_save_problem(g: Game, name: str, ev: Event, answer: dict) -> str | None:
    """MOR-09: a save from a terminal kill is legal only if it also ends the terminal condition.
    The save (its costs and effects, or the duplicate's discard) is tried on a copy of the state,
    which is then thrown away: the real state is never touched."""
    import copy

    real = g.state
    g.state = copy.deepcopy(real)
    try:
        trial = Event(ev.name, victims=list(ev.victims), data=copy.deepcopy(ev.data))
        if "duplicate_save" in answer:
            cid = answer["duplicate_save"]
            g.move_to_pile(g.card(cid).duplicates[-1], "discard")
            saved = [cid]
        else:
            cid = answer["trigger"]
            ab = triggers.abilities(g, cid)[answer["ability"] - 1]
            ctx = triggers.Ctx(cid, name, ab, targets=list(answer.get("targets") or []),
                               gate=triggers.save_gate(g, name, answer, trial), event=trial)
            triggers.pay_costs(g, name, cid, ab, answer)
            before = list(trial.victims)
            triggers.execute(g, ab.effect, ctx)
            saved = [v for v in before if v not in trial.victims]
        still = [v for v in saved if triggers.terminal_holds(g, v) or triggers.leaves_play_holds(g, v)]
    except GameEnded:
        still = []
    finally:
        g.state = real
    if not still:
        return None
    return (f"that save would leave {g.name(still[0])} in its terminal condition, so it cannot save it "
            f"(MOR-09)")


def apply_save_cancel(g: Game, name: str, ev: Event, answer: dict) -> Flow:
    if "by_hand" in answer:
        yield from manual.resolve_nested(g, name, answer, target_event=ev)
        return
    if "duplicate_save" in answer:
        # UNQ-08: a gained triggered Response of the character: the duplicate is discarded as its
        # cost, then it has its own save/cancel step, where it can be canceled (COS-11).
        cid = answer["duplicate_save"]
        save = Event(f"{name}'s duplicate save of {g.name(cid)}",
                     data={"source": cid, "player": name, "source_class": "character"})
        g.move_to_pile(g.card(cid).duplicates[-1], "discard")
        g.log(f"{name} discards a duplicate to save {g.name(cid)}")
        yield from save_cancel_step(g, save, g.state.left_of(name))
        if save.cancelled:
            g.log(f"the duplicate save of {g.name(cid)} is canceled")
            return
        if cid in ev.victims:
            ev.victims.remove(cid)
            ev.data.setdefault("saved", []).append(cid)
            if g.state.window is not None:
                g.state.window.gates.append({"event": "saved", "card": cid, "player": name})
        return
    gate = triggers.save_gate(g, name, answer, ev)
    yield from resolve_triggered(g, name, answer, gate=gate, target_event=ev)


def triggered_event(g: Game, player: str, answer: dict, *, gate: dict | None = None,
                    target_event: Event | None = None) -> Event:
    """An action, response, save or cancel as an event with its own steps (TIM-05, 5a-d)."""
    cid = answer["trigger"]
    ab = triggers.abilities(g, cid)[answer["ability"] - 1]
    title = g.name(cid)
    ctx = triggers.Ctx(cid, player, ab, targets=list(answer.get("targets") or []), gate=gate)
    source_class = "event" if g.card_type(cid) == "event" else g.card_type(cid)
    ev = Event(f"{player}'s {title}", data={"source": cid, "player": player, "source_class": source_class,
                                            "triggered": True,  # EFF-01: an action or a response
                                            # ZON-05: an agenda's effects cannot be canceled
                                            "cannot_be_canceled": ab.cannot_be_canceled or source_class == "agenda",
                                            "cannot_be_saved": _unsaveable(g, ab)})
    ctx.event = target_event if ab.is_save_or_cancel else ev
    ctx.x = int(answer.get("x") or 0)
    ctx.paid = triggers.split_pay(ab, list(answer.get("pay") or []), ctx.x)[0]
    ev.data["targets"] = ctx.targets  # read by observers (the tutorials' "pending" panel)

    def initiate(g: Game, ev: Event) -> Flow:
        tolls = triggers.trigger_tolls(g, player, cid)  # core-d: gold given to declare or play (GEN-01)
        triggers.pay_costs(g, player, cid, ab, answer)
        yield from pay_chosen_costs(g, player, cid, ab, ctx)
        yield from pay_tolls(g, player, tolls)
        yield from triggers.prepare_flow(g, ab.effect, ctx)  # choices made in step 1 (core-b)
        if not ab.is_save_or_cancel:
            ev.victims, ev.data["removal"] = triggers.victims_of(g, ab, ctx)
        targets = f" targeting {', '.join(g.name(t) if isinstance(t, int) else t for t in ctx.targets)}" \
            if ctx.targets else ""
        played = source_class == "event" and g.card(cid).zone == "played"  # not one used from a pile (issue 24)
        g.log(f"{player} {'plays' if played else 'triggers'} {title}{targets}")
        if g.state.window is not None:
            if played:
                g.state.window.gates.append({"event": "played", "card": cid, "player": player})

    def execute(g: Game, ev: Event) -> Flow:
        yield from settle_destinations(g, ab.effect, ctx)
        if (yield from run_effects(g, ab.effect, ctx)) and ab.then:
            yield from settle_destinations(g, ab.then, ctx)
            yield from triggers.prepare_flow(g, ab.then, ctx)  # issue 24: a `chooses` of the then, made now
            yield from run_effects(g, ab.then, ctx)

    ev.initiate, ev.execute = initiate, execute
    return ev


def run_effects(g: Game, effects: tuple, ctx) -> Flow:
    """Carry out effects in order, asking the players the choices some of them leave to them as they
    resolve (``one_of``, ``search``, ``discard_gold``, ``search_pick``...): a decision of that player,
    never the first match. True if every effect resolved (COS-17). See ``triggers.execute_flow``."""
    return (yield from triggers.execute_flow(g, effects, ctx))


def settle_destinations(g: Game, effects: tuple, ctx) -> Flow:
    """MOR-06: a card killed, discarded and/or returned at the same moment goes to one place, which
    the first player chooses; only that removal happens, and only its triggers fire (C-23)."""
    for cid, dests in triggers.conflicting_removals(g, effects, ctx).items():
        words = sorted(dests)
        decision = Decision("choose", g.first_player,
                            f"{g.name(cid)} is removed in more than one way at once: choose where it goes",
                            choices=words, min_count=1, max_count=1,
                            checker=legality.selection_checker(g, words, 1, 1, " or ".join(words), "MOR-06"),
                            context={"card": cid, "destinations": words})
        answer = yield from g.ask(decision)
        ctx.destinations[cid] = answer["choose"][0]


def resolve_triggered(g: Game, player: str, answer: dict, *, gate: dict | None = None,
                      target_event: Event | None = None) -> Flow:
    """Initiate, save/cancel (clockwise from the left of the player), execute (5a-c)."""
    ev = triggered_event(g, player, answer, gate=gate, target_event=target_event)
    yield from ev.initiate(g, ev)
    if g.options.observer is not None:
        g.observe("event", window=g.state.window, event=ev, target=target_event)
    yield from save_cancel_step(g, ev, g.state.left_of(player))
    if not ev.cancelled:
        yield from ev.execute(g, ev)
        yield from terminal_check(g)
    else:
        g.log(f"{ev.name} is canceled")


def terminal_check(g: Game) -> Flow:
    """MOR-09: a character whose terminal condition holds is killed. It may be saved in the usual
    step, but a save that does not also end the condition does not save it."""
    yield from _removed_by_own_condition(g, triggers.terminal_victims, triggers.terminal_holds, "kill")
    yield from leaves_play_check(g)
    yield from hand_limit_check(g)


def hand_limit_check(g: Game) -> Flow:
    """Issue 24 (Tyrion Lannister's agenda, ``prohibit: {what: hand_max, max: N}``): a player bound by it who holds
    more than N cards discards at once, choosing which, until he holds N (the lowest N when several bind him)."""
    known = g.__dict__.get("_hand_max_cards")
    if known is None:  # read once per game: most pools have no such card
        known = g.__dict__["_hand_max_cards"] = any(
            isinstance(a, dict) and (a.get("prohibit") or {}).get("what") == "hand_max"
            for d in g.pool.values() for a in d.abilities)
    if not known:
        return
    for name in g.state.clockwise_from(g.first_player):
        p = g.player(name)
        if p.eliminated or not p.hand:
            continue
        limits = [(cid, int(r.get("max", 0))) for cid, r in triggers.prohibitions(g, name, "hand_max")]
        if not limits:
            continue
        source, limit = min(limits, key=lambda x: x[1])
        extra = len(p.hand) - limit
        if extra <= 0:
            continue
        hand = list(p.hand)
        answer = yield from g.ask(Decision(
            "choose", name, f"{g.name(source)}: you hold more than {limit} cards: choose {extra} to discard",
            choices=hand, min_count=extra, max_count=extra,
            checker=legality.selection_checker(g, hand, extra, extra, "a card in your hand", "GEN-01")))
        for cid in answer["choose"]:
            g.move_to_pile(cid, "discard")
        g.log(f"{name} discards {', '.join(g.name(c) for c in answer['choose'])} down to {limit} cards in hand "
              f"({g.name(source)})")


def leaves_play_check(g: Game) -> Flow:
    """A card whose constant ``leaves_play: discard`` condition holds is discarded from play (issue 24:
    "discard this card from play when ..."), with a save step like a terminal kill (MOR-09)."""
    yield from _removed_by_own_condition(
        g, lambda g: [c for c in triggers.leaves_play_victims(g) if triggers.leaves_play_destination(g, c) == "discard"],
        triggers.leaves_play_holds, "discard")
    for cid in triggers.leaves_play_victims(g):  # issue 24: removed from the game: no kill or discard to save from
        if triggers.leaves_play_destination(g, cid) == "removed" and g.remove(cid, "removed"):
            g.log(f"{g.name(cid)} is removed from the game (its own text)")
            if g.state.window is not None:
                g.state.window.gates.append({"event": "left_play", "card": cid, "player": g.card(cid).controller})


def _removed_by_own_condition(g: Game, victims, holds, removal: str) -> Flow:
    """Kill (``removal: kill``, a terminal condition) or discard from play each card ``victims`` names, each with
    its own save step (MOR-09): a save that does not also end the condition (``holds``) does not save it."""
    pending = g.__dict__.setdefault("_terminal_pending", set())
    killed = removal == "kill"
    for cid in victims(g):
        if cid in pending:
            continue  # already being removed: its save step is under way
        ev = Event(f"{g.name(cid)} is killed by a terminal effect" if killed
                   else f"{g.name(cid)} is discarded from play by its own text",
                   data={"removal": removal, "source_class": "framework", "cannot_be_canceled": True,
                         "terminal": True})
        ev.victims = [cid]
        pending.add(cid)
        try:
            yield from save_cancel_step(g, ev, g.first_player)
        finally:
            pending.discard(cid)
        if cid not in ev.victims and not holds(g, cid):
            continue
        if cid not in ev.victims:
            g.log(f"the save does not end the {'terminal ' if killed else ''}condition: {g.name(cid)} is "
                  f"{'killed' if killed else 'discarded'} anyway")
        if g.remove(cid, "dead" if killed else "discard"):
            g.log(f"{g.name(cid)} is killed (terminal effect)" if killed
                  else f"{g.name(cid)} is discarded from play (its own text)")
            if g.state.window is not None:
                player = g.card(cid).controller
                if killed:
                    g.state.window.gates.append({"event": "killed", "card": cid, "player": player})
                else:
                    g.state.window.gates.append({"event": "discarded", "card": cid, "player": player})
                g.state.window.gates.append({"event": "left_play", "card": cid, "player": player})
                if killed:
                    dead_pile_gate(g, cid)


def passive_step(g: Game, passives: list[Event]) -> Flow:
    """Step 4: passives triggered in this window, each with its own save/cancel step; passives
    they trigger follow (I-IV). Simultaneous card passives are ordered by the first player (TIM-14)."""
    for ev in passives:
        yield from _run(ev.initiate(g, ev) if ev.initiate else None)
        if ev.cancelled:
            continue
        yield from save_cancel_step(g, ev, g.first_player)
        if not ev.cancelled and ev.execute:
            yield from _run(ev.execute(g, ev))
    yield from card_passives(g)


def card_passives(g: Game) -> Flow:
    w = g.state.window
    while w is not None and w.scanned < len(w.gates):
        new = w.gates[w.scanned:]
        w.scanned = len(w.gates)
        found = triggers.passives_for(g, new)
        if len(found) > 1:
            ids = list(range(len(found)))
            decision = Decision("order", g.first_player, "order simultaneous passive abilities: "
                                + "; ".join(f"{g.name(c)}" for c, _, _, _ in found),
                                choices=[c for c, _, _, _ in found], min_count=len(found), max_count=len(found),
                                options=[{"order": [c for c, _, _, _ in found]}] if len(
                                    {c for c, _, _, _ in found}) == 1 else [],
                                checker=_order_checker(g, [c for c, _, _, _ in found]))
            answer = yield from g.ask(decision)
            chosen = list(answer["order"])
            ordered = []
            for cid in chosen:
                i = next(i for i in ids if found[i][0] == cid)
                ids.remove(i)
                ordered.append(found[i])
            found = ordered
        for cid, ab, gate, owner in found:
            yield from resolve_passive(g, owner, cid, ab, gate)
        for cid, ta, gate, owner in manual.passives_for(g, new):  # text by hand: its player resolves it
            yield from manual.resolve_passive(g, owner, cid, ta, gate)


def _plot_checker(g: Game, piles):
    """PLT-01/02: the plot comes from the plot deck the player uses now; not from the used pile."""
    def check(answer: dict) -> dict:
        cid = answer.get("plot")
        if cid in piles.plot_deck:
            return {"plot": cid}
        label = g.name(cid) if cid in g.state.cards else shown(cid)
        if cid in piles.used_plots:
            raise Refused(f"not a legal answer: {label} is in the used pile; choose a plot from the plot deck "
                          f"(PLT-02)")
        raise Refused(f"not a legal answer: {label} is not in {piles.name}'s plot deck; choose a plot from it "
                      f"(PLT-01)")

    return check


def _first_player_checker(names: list[str]):
    def check(answer: dict) -> dict:
        if answer.get("first_player") not in names:
            raise Refused(f"not a legal answer: {shown(answer.get('first_player'))} is not a player in the game; "
                          f"the first player is one of {', '.join(names)} (PLT-08)")
        return {"first_player": answer["first_player"]}

    return check


def _order_checker(g: Game, cards: list[int]):
    def check(answer: dict) -> dict:
        order = answer.get("order")
        if not isinstance(order, list) or sorted(order) != sorted(cards):
            raise Refused("order every one of the simultaneous passive abilities, each once (TIM-14)")
        return {"order": list(order)}

    return check


def _unsaveable(g: Game, ab) -> bool:
    """The ability's effect cannot be saved from, unless a card in play allows saves (Theon Greyjoy's agenda)."""
    return ab.cannot_be_saved and not triggers.allowed(g, "saves_allowed")


def resolve_passive(g: Game, owner: str, cid: int, ab, gate: dict) -> Flow:
    ctx = triggers.Ctx(cid, owner, ab, gate=gate)
    ev = Event(f"{g.name(cid)}'s passive ability", data={"source": cid, "player": owner,
                                                         "source_class": g.card_type(cid),
                                                         "cannot_be_canceled": ab.cannot_be_canceled
                                                         or g.card_type(cid) == "agenda",
                                                         "cannot_be_saved": _unsaveable(g, ab)})
    ctx.event = ev
    if ab.choose is not None:
        legal = triggers.legal_targets(g, cid, ab, ctx)
        if not legal:
            return
        count = min(triggers.choose_count(ab, ctx), len(legal))
        least = 0 if ab.choose.get("up_to") else count  # "up to N": none is a choice too
        decision = Decision("choose", owner, f"{g.name(cid)}: choose {'up to ' if least < count else ''}{count} "
                            f"target{'s' if count > 1 else ''}", choices=legal, min_count=least, max_count=count,
                            checker=legality.selection_checker(g, legal, least, count, "a legal target"))
        if least == count == len(legal):
            decision.options = [{"choose": list(legal)}]
        answer = yield from g.ask(decision)
        ctx.targets = list(answer["choose"])
    elif ab.granted:  # issue 24: the targets of the ability that enabled it (a delayed effect on "it")
        ctx.targets = [t for x in g.state.granted if x["card"] == cid and x["ability"] == ab.index
                       and x["player"] == owner for t in x.get("targets", ())]
    yield from triggers.prepare_flow(g, ab.effect, ctx)  # choices made in step 1 (core-b)
    ev.victims, ev.data["removal"] = triggers.victims_of(g, ab, ctx)
    g.log(f"{g.name(cid)}'s passive ability resolves")
    if g.options.observer is not None:
        ev.data["targets"] = list(ctx.targets)
        g.observe("event", window=g.state.window, event=ev, target=None)
    if g.state.window is None or g.state.window.kind != "end_of_phase":  # TIM-17: no step 2 there
        yield from save_cancel_step(g, ev, g.first_player)
    if not ev.cancelled:
        if (yield from run_effects(g, ab.effect, ctx)) and ab.then:
            yield from triggers.prepare_flow(g, ab.then, ctx)  # issue 24: a `chooses` of the then, made now
            yield from run_effects(g, ab.then, ctx)
        yield from terminal_check(g)


def response_step(g: Game, first: str) -> Flow:
    """Step 5: normal responses clockwise from ``first`` until all pass in succession (TIM-08/09);
    each response has its own save/cancel step and then its passives (5a-d)."""

    def offer(name: str) -> Flow:
        if not g.options.prompt_all and not _may_play(g, name, "response", None):
            return False  # an empty opportunity: the pass it would get, without building it

        def check(answer: dict) -> dict:
            if "by_hand" in answer:
                return manual.check(g, name, answer, step="response")
            return triggers.check_trigger(g, name, answer, step="response")

        decision = Decision("response", name, "play a response", can_pass=True, checker=check,
                            options=triggers.options(g, name, step="response"),
                            context=manual.split_untimed(g, manual.options(g, name, step="response")))
        answer = yield from g.ask(decision)
        if "pass" in answer:
            return False
        if "by_hand" in answer:
            gate = answer.get("gate")
            g.state.window.used.append(f"hand:{answer['by_hand']}:{answer['paragraph']}:"
                                       f"{'any' if gate is None else gate}")
            yield from manual.resolve_nested(g, name, answer)
            yield from card_passives(g)
            return True
        o = triggers.find_opportunity(g, name, answer, step="response")
        g.state.window.used.append(f"{o.card}:{o.ability.index}:{o.gate_index}")
        yield from resolve_triggered(g, name, answer, gate=o.gate)
        yield from card_passives(g)
        return True

    if _everyone_would_pass(g, first, "response"):
        return
    yield from until_all_pass(g, first, offer)


# ---------------------------------------------------------------------------
# Player-action segments (TIM-03, MAR-06)
# ---------------------------------------------------------------------------

def player_actions(g: Game) -> Flow:
    """The first player acts first; then clockwise, until all pass in succession."""

    def offer(name: str) -> Flow:
        found = _action_options(g, name)
        if not g.options.prompt_all and not found[0] and not found[1]:
            return False  # an empty opportunity: the pass it would get, without building it
        answer = yield from g.ask(action_decision(g, name, found))
        if "pass" in answer:
            return False
        yield from take_action(g, name, answer)
        return True

    yield from until_all_pass(g, g.first_player, offer)


def _action_options(g: Game, name: str) -> tuple[list[dict], list[dict]]:
    """(marshal and triggered answers, uses by hand) ``name`` may start now."""
    with steady(g):
        return (legality.marshal_options(g, name) + triggers.options(g, name, step="action"),
                manual.options(g, name, step="action"))


def action_decision(g: Game, name: str, found: tuple[list[dict], list[dict]] | None = None) -> Decision:
    """``found``: ``_action_options`` already worked out for this state."""
    options, by_hand = found if found is not None else _action_options(g, name)

    def check(answer: dict) -> dict:
        if "marshal" in answer:
            normal = legality.normalise_marshal(answer)
            problem = legality.marshal_problem(g, name, **normal)
            if problem:
                raise Refused(problem)
            out = {"marshal": normal["card"], "duplicate": normal["duplicate"],
                   "attach_to": normal["attach_to"], "x": normal["x"]}
            if "gold_tokens" in normal:
                out["gold_tokens"] = normal["gold_tokens"]
            if normal.get("penalty"):
                out["penalty"] = True
            return out
        if "trigger" in answer:
            return triggers.check_trigger(g, name, answer, step="action")
        if "by_hand" in answer:
            return manual.check(g, name, answer, step="action")
        raise Refused(legality.trigger_problem(g, name, answer))

    phase = g.state.phase
    prompt = f"{phase}: take an action or pass"
    if phase == "marshalling" and g.state.active_player == name:
        tokens = g.spendable_gold(name) - g.player(name).gold
        prompt = f"marshal a card ({g.player(name).gold} gold{f' + {tokens} on cards' if tokens else ''}) " \
                 f"or pass when done"
    decision = Decision("action", name, prompt, options=options, can_pass=True, checker=check,
                        context=manual.split_untimed(g, by_hand))

    def refresh() -> None:
        decision.options, by_hand_now = _action_options(g, name)
        decision.context.update(manual.split_untimed(g, by_hand_now))

    decision.refresh = refresh
    return decision


def take_action(g: Game, name: str, answer: dict) -> Flow:
    if "marshal" in answer:
        yield from player_window(g, name, marshal_event(g, name, answer))
    elif "trigger" in answer:
        yield from player_window(g, name, triggered_event(g, name, answer))
    elif "by_hand" in answer:
        yield from player_window(g, name, manual.by_hand_event(g, name, answer))


def marshal_event(g: Game, name: str, answer: dict) -> Event:
    cid, dup, host, x = answer["marshal"], answer["duplicate"], answer["attach_to"], answer["x"]
    card_name = g.name(cid)

    def initiate(g: Game, ev: Event) -> Flow:
        p = g.player(name)
        cost = 0 if dup else legality.marshal_cost(g, name, cid, x)
        if answer.get("penalty") and not dup:  # issue 24: the gold penalty he chose to pay (Veteran Builder)
            cost += triggers.optional_penalty(g, name, cid)
        ev.data["penalty"] = not dup and legality.penalty_paid(g, name, cid, bool(answer.get("penalty")))
        if cost:  # the pool first, then gold tokens he may spend, unless gold_tokens says (Tywin Lannister)
            g.spend_gold(name, cost, answer.get("gold_tokens"))
        if not dup:
            triggers.use_reducer(g, name, cid)
            key = f"marshalled:{g.state.phase_serial}:{name}:{g.card_type(cid)}"  # the first_marshalled filter
            g.state.counters[key] = g.state.counters.get(key, 0) + 1
        if g.has_keyword(cid, "limited") and not dup:
            if p.limited_played:  # issue 24: the additional Limited location (Taxation)
                p.extra_limited_played = True
            p.limited_played = True
        ev.data["cost"] = cost
        return
        yield

    def execute(g: Game, ev: Event) -> Flow:
        if dup:
            target = host if host is not None else legality.duplicate_host(g, name, cid)
            g.attach(cid, target, name, duplicate=True)
            g.log(f"{name} marshals {card_name} as a duplicate on {g.name(target)}")
        elif g.card_type(cid) == "attachment" or host is not None:
            g.attach(cid, host, name)
            g.card(cid).x = x
            g.log(f"{name} marshals {card_name} onto {g.name(host)} ({ev.data['cost']} gold)")
            if any(ab.control_host for ab in triggers.abilities(g, cid)) and \
                    not triggers.control_problem(g, name, host):
                g.set_controller(host, name)  # CTL-02: for as long as it stays attached
                g.log(f"{name} takes control of {g.name(host)}")
                if g.state.window is not None:  # issue 24: Punishment of Thieves
                    g.state.window.gates.append({"event": "control_taken", "card": host, "player": name})
        else:
            g.put_in_play(cid, name)
            g.card(cid).x = x
            g.log(f"{name} marshals {card_name} ({ev.data['cost']} gold)")
        g.state.window.gates.append({"event": "marshalled", "card": cid, "player": name,
                                     "penalty": bool(ev.data.get("penalty"))})
        g.state.window.gates.append({"event": "entered_play", "card": cid, "player": name, "from": "hand"})
        return
        yield

    return Event(f"{name} marshals {card_name}", initiate=initiate, execute=execute)


# ---------------------------------------------------------------------------
# Setup (SET-01..10)
# ---------------------------------------------------------------------------

def setup(g: Game) -> Flow:
    st = g.state
    st.phase = "setup"
    placed: dict[str, dict] = {}
    for name in st.clockwise_from(g.first_player):
        decision = legality.setup_decision(g, name)
        answer = yield from g.ask(decision)
        placed[name] = answer
        legality.place_setup(g, name, answer)
    # SET-07: all setup cards are revealed at once; nothing triggers (SET-08).
    for cid, c in st.cards.items():
        if c.facedown and c.zone in ("in_play", "attached"):
            c.facedown = False
    for name in st.clockwise_from(g.first_player):
        shown = [g.name(c) for c in g.in_play_cards(name)]
        g.log(f"{name} reveals setup: {', '.join(shown) if shown else 'nothing'}")
    for name in st.clockwise_from(g.first_player):  # SET-09: draw up to 7, outside any round
        need = HAND_SIZE - len(g.player(name).hand)
        if need > 0:
            g.draw(name, need, by_effect=False)


# ---------------------------------------------------------------------------
# Phases
# ---------------------------------------------------------------------------

def begin_phase(g: Game, phase: str) -> Flow:
    g.state.phase = phase
    g.state.phase_serial += 1
    g.log(f"{phase} phase begins")

    def begins(g: Game, ev: Event) -> Flow:
        g.state.window.gates.append({"event": "phase_begins", "phase": phase})
        return
        yield

    yield from framework_window(g, f"{phase} phase begins", [Event(f"{phase} phase begins", execute=begins)])


def end_phase(g: Game, phase: str) -> Flow:
    def expire(g: Game, ev: Event) -> Flow:
        g.expire("phase")  # "until the end of the phase" ends in step 3 (LST-05, TIM-17)
        last = phases_of_round(g)[-1] == phase or phase == "standing" and \
            triggers.prohibited(g, g.first_player, "taxation_phase") is not None  # the taxation phase skipped
        g.state.window.gates.append({"event": "phase_ends", "phase": phase, "round_end": last})
        return
        yield

    yield from framework_window(g, f"{phase} phase ends", [Event(f"{phase} phase ends", execute=expire)],
                                end_of_phase=True)
    g.expire("phase_end")  # core-d: delayed effects that act as the phase ends


def plot_phase(g: Game) -> Flow:
    st = g.state
    yield from begin_phase(g, "plot")
    yield from player_actions(g)
    chosen: dict[str, int] = {}
    result: dict = {}

    def choose_plots(g: Game, ev: Event) -> Flow:
        for name in st.clockwise_from(g.first_player):
            p = g.plot_piles(name)  # his own plot deck, or the one switched with him this round (Varys)
            if not p.plot_deck and p.used_plots:
                rotate_plots(g, name)
            if not p.plot_deck:
                continue
            decision = Decision("plot", name, "choose a plot to reveal" + (
                                f" (from {p.name}'s plot deck)" if p.name != name else ""),
                                options=[{"plot": c} for c in p.plot_deck], checker=_plot_checker(g, p))
            answer = yield from g.ask(decision)
            chosen[name] = answer["plot"]

    def reveal(g: Game, ev: Event) -> Flow:
        for name, cid in chosen.items():  # PLT-01: all revealed at once
            p = g.player(name)
            if p.revealed_plot is not None:
                g.move_to_pile(p.revealed_plot, "used_plots")
            g._detach_from_location(cid)
            g.card(cid).zone = "revealed_plot"
            g.card(cid).controller = name  # a switched plot deck's plot is revealed as his own (Varys)
            p.revealed_plot = cid
            g.log(f"{name} reveals {g.name(cid)}")
            g.state.window.gates.append({"event": "plot_revealed", "card": cid, "player": name})
            if not g.plot_piles(name).plot_deck:  # PLT-04: rotation as a passive of resolving the plot
                rotate_plots(g, name)
        return
        yield

    def count_initiative(g: Game, ev: Event) -> Flow:
        names = st.clockwise_from(g.first_player)
        totals = {n: g.initiative(n) for n in names}
        best = max(totals.values())
        tied = [n for n in names if totals[n] == best]
        if len(tied) > 1:  # PLT-07: least power, then random among the tied
            least = min(g.total_power(n) for n in tied)
            tied = [n for n in tied if g.total_power(n) == least]
        winner = tied[0] if len(tied) == 1 else st.rng.choice(sorted(tied))
        result["winner"] = winner
        g.log(f"initiative: {', '.join(f'{n} {t}' for n, t in totals.items())}; {winner} wins it")
        return
        yield

    def appoint(g: Game, ev: Event) -> Flow:
        winner = result["winner"]
        names = st.clockwise_from(g.first_player)
        decision = Decision("first_player", winner, "choose the first player",
                            options=[{"first_player": n} for n in names], checker=_first_player_checker(names))
        answer = yield from g.ask(decision)
        st.first_player = answer["first_player"]
        g.log(f"{winner} chooses {st.first_player} as first player")

    if triggers.allowed(g, "actions_before_reveal"):  # core-d: Dragonstone Port
        yield from framework_window(g, "plots are chosen", [Event("choose plots", initiate=choose_plots)])
        st.counters["plots_chosen"] = st.phase_serial
        closed = False
        try:
            yield from player_actions(g)
        except GeneratorExit:
            closed = True  # the game itself was dropped: its state stays as it stood
            raise
        finally:
            if not closed:
                st.counters.pop("plots_chosen", None)
        choose_plots = None
    yield from framework_window(g, "plots revealed", [
        Event("choose and reveal plots", initiate=choose_plots, execute=reveal),
        Event("initiative is counted", execute=count_initiative),
        Event("first player is appointed", initiate=appoint),
    ])
    yield from player_actions(g)
    yield from end_phase(g, "plot")


def rotate_plots(g: Game, name: str) -> None:
    """PLT-04: the used pile returns to the plot deck (the plot just revealed stays revealed). While
    his plot deck and used pile are switched with another player's (Varys), those are his."""
    p = g.plot_piles(name)
    if not p.used_plots:
        return
    for cid in p.used_plots:
        g.card(cid).zone = "plot_deck"
    p.plot_deck, p.used_plots = p.plot_deck + p.used_plots, []
    g.log(f"{name}'s used plots return to the plot deck" if p.name == name else
          f"the used plots {name} uses ({p.name}'s) return to their plot deck")


def draw_phase(g: Game) -> Flow:
    yield from begin_phase(g, "draw")
    yield from player_actions(g)

    def draw_two(g: Game, ev: Event) -> Flow:
        for name in g.state.clockwise_from(g.first_player):
            if triggers.prohibited(g, name, "draw_phase") is not None:  # issue 24: "skip your draw phase"
                g.log(f"{name} skips the draw this round")
                continue
            n = g.draw(name, 2, by_effect=False)  # DRW-01, DRW-06: not counted against the cap
            g.log(f"{name} draws {n} card{'s' if n != 1 else ''}")
        return
        yield

    yield from framework_window(g, "each player draws two cards", [Event("draw two cards", execute=draw_two)])
    yield from player_actions(g)
    yield from end_phase(g, "draw")


def marshalling_phase(g: Game) -> Flow:
    st = g.state
    yield from begin_phase(g, "marshalling")
    for name in st.clockwise_from(g.first_player):
        if g.player(name).eliminated:
            continue
        st.active_player = name

        def count_income(g: Game, ev: Event, name: str = name) -> Flow:
            income = g.income(name)  # MAR-02: counted as the player becomes active
            g.player(name).gold += income
            g.log(f"{name} collects {income} gold")
            return
            yield

        yield from framework_window(g, f"{name} becomes active and counts income",
                                    [Event("count income", execute=count_income)])
        yield from player_actions(g)
        yield from framework_window(g, f"{name} has no more gold actions",
                                    [Event("next player becomes active")])
    st.active_player = None
    if st.ruleset == "ccg-winter":  # MAR-09 (W): unspent gold is lost when marshalling ends
        for p in st.players:
            p.gold = 0
    yield from end_phase(g, "marshalling")


def challenges_phase(g: Game) -> Flow:
    st = g.state
    yield from begin_phase(g, "challenges")
    for p in st.players:
        p.challenges_made = []
        p.challenges_won = []
    for name in st.clockwise_from(g.first_player):
        if g.player(name).eliminated:
            continue
        st.active_player = name
        while True:
            yield from player_actions(g)
            if len(g.player(name).challenges_made) >= len(CHALLENGE_TYPES) + legality.extra_challenges(g, name):
                break
            decision = legality.challenge_decision(g, name)
            answer = yield from g.ask(decision)
            if "pass" in answer:
                break
            yield from challenge(g, name, answer)
            if triggers.terminal_victims(g):  # MOR-09: an effect that lasted the challenge has ended
                yield from framework_window(g, "the challenge's lasting effects end",
                                            [Event("terminal conditions are checked", execute=_nothing)])
        yield from framework_window(g, f"{name} is finished with challenges",
                                    [Event("next player becomes active")])
    st.active_player = None
    yield from end_phase(g, "challenges")


def _nothing(g: Game, ev: Event) -> Flow:
    """A framework event that changes nothing: its window only checks the terminal conditions (MOR-09)."""
    return
    yield


def framework_phase(g: Game, phase: str, action: str, execute) -> Flow:
    """A phase whose heart is one framework action, then player actions: dominance, standing,
    taxation (RND-02; no actions before the action itself, DOM-02)."""
    yield from begin_phase(g, phase)
    yield from framework_window(g, action, [Event(action, execute=execute)])
    yield from player_actions(g)
    yield from end_phase(g, phase)


def reward_dominance(g: Game, ev: Event) -> Flow:
    names = g.state.clockwise_from(g.first_player)
    totals = {n: sum(g.strength(c) for c in g.characters(n, standing=True) if not g.uncounted_in_dominance(c))
              for n in names}  # issue 24: Left, Right (not_counted: dominance)
    best = max(totals.values())
    leaders = [n for n in names if totals[n] == best]
    shown = ", ".join(f"{n} {t}" for n, t in totals.items())
    if len(leaders) == 1:  # DOM-01: a tie gives nothing
        g.log(f"dominance: {shown}; {leaders[0]} claims 1 power")
        g.state.window.gates.append({"event": "dominance_won", "player": leaders[0]})
        g.claim_house_power(leaders[0], 1)
    else:
        g.log(f"dominance: {shown}; tied, nobody wins dominance")
    return
    yield


def stand_all(g: Game, ev: Event) -> Flow:
    for c in g.state.cards.values():  # DOM-03, C-04: every kneeling card stands
        if c.kneeling and c.zone in ("in_play", "attached", "house", "agenda", "revealed_plot"):
            if c.zone == "in_play" and g.cannot(c.id, "stand"):
                continue  # core-b: Noose and Swordpoint
            if effects_on(g.__dict__, g.state, c.id, "no_standing"):
                continue  # core-c: skip_standing (Cersei Lannister)
            c.kneeling = False
            if c.zone == "in_play":
                g.state.window.gates.append({"event": "stood_in_standing", "card": c.id, "player": c.controller})
    g.log("all kneeling cards stand")
    return
    yield


def return_gold(g: Game, ev: Event) -> Flow:
    for p in g.state.players:  # DOM-04: unspent gold returns to the treasury
        if p.gold:
            g.log(f"{p.name} returns {p.gold} unspent gold")
        p.gold = 0
    return
    yield


def dominance_phase(g: Game) -> Flow:
    yield from framework_phase(g, "dominance", "reward dominance", reward_dominance)


def standing_phase(g: Game) -> Flow:
    yield from framework_phase(g, "standing", "all kneeling cards stand", stand_all)


def taxation_phase(g: Game) -> Flow:
    yield from framework_phase(g, "taxation", "return unspent gold", return_gold)


def end_round(g: Game) -> None:
    """DOM-05, PLT-03: revealed plots go to the used pile; round counters reset."""
    for p in g.state.players:
        if p.revealed_plot is not None:
            g.move_to_pile(p.revealed_plot, "used_plots")
        p.drawn_this_round = 0
        p.limited_played = p.extra_limited_played = False
    g.expire("round")
    if g.state.plot_swaps:  # Varys: "until the end of the round"
        g.state.plot_swaps = []
        g.log("plot decks and used piles switched this round go back to their players")


# ---------------------------------------------------------------------------
# Challenges (CHL-01..22)
# ---------------------------------------------------------------------------

def update_challenge_participants(g: Game) -> None:
    g.update_challenge_participants()


def no_participants(g: Game) -> bool:
    ch = g.state.challenge
    if ch.ended:  # issue 24: an effect ended it (end_challenge: Desolate Canyon)
        return True
    if not ch.attackers and not ch.defenders:  # CHL-10: ends at once without resolution
        ch.ended = True
        g.log(f"the {ch.type} challenge ends without resolution: no participating characters")
        return True
    return False


def challenge(g: Game, name: str, answer: dict) -> Flow:
    st = g.state
    ch = Challenge(type=answer["challenge"], attacker=name, defender=answer["against"],
                   attackers=list(answer["attackers"]))
    st.challenge = ch
    st.challenge_serial += 1
    g.player(name).challenges_made.append(ch.type)  # C-15: initiating uses up the type
    st.counters[f"challenged:{name}:{ch.defender}"] = st.phase_serial  # issue 24: the `challengers` selector
    triggers.pay_challenge_tolls(g, name, ch.type)  # core-c: a toll on this challenge type (Magister Illyrio)
    yield from pay_tolls(g, name, legality.declare_tolls(g, name, answer))  # core-d: GEN-01
    need = triggers.influence_tolls(g, "attack", ch.attackers)  # issue 24: Banished, In Chains
    if need:
        yield from triggers.kneel_influence(g, name, need, ch.attackers, "to declare those attackers")

    def declare(g: Game, ev: Event) -> Flow:
        names = ", ".join(g.name(c) for c in ch.attackers)
        article = "an" if ch.type == "intrigue" else "a"
        g.log(f"{name} declares {article} {ch.type} challenge against {ch.defender} with {names}")
        g.state.window.gates.append({"event": "challenge_declared", "type": ch.type, "player": name})
        return
        yield

    def kneel_attackers(g: Game, ev: Event) -> Flow:
        for c in ch.attackers:  # CHL-03
            if triggers.does_not_kneel(g, c, "attack"):
                g.log(f"{g.name(c)} attacks without kneeling")
                continue
            g.card(c).kneeling = True
        return
        yield

    yield from framework_window(g, "attackers are declared",
                                [Event("declare challenge", execute=declare),
                                 Event("kneel attackers", execute=kneel_attackers)])
    closed = False
    try:
        if no_participants(g):
            return
        yield from player_actions(g)
        if no_participants(g):
            return

        def stealth(g: Game, ev: Event) -> Flow:
            decision = legality.stealth_decision(g, ch)
            if decision is not None:
                answer = yield from g.ask(decision)
                ch.stealth = dict(answer.get("stealth", {}))
                for a, t in ch.stealth.items():
                    g.log(f"{g.name(a)} uses stealth on {g.name(t)}")
                    if g.state.window is not None:  # issue 24: Dornish Lancer
                        g.state.window.gates.append({"event": "stealth_used", "card": a, "player": ch.attacker,
                                                     "target": t})

        def defend(g: Game, ev: Event) -> Flow:
            decision = legality.defend_decision(g, ch)
            answer = yield from g.ask(decision)
            joined = list(ch.defenders)  # core-c: characters that joined before (join_challenge) stay
            ch.defenders = list(answer.get("defend", []))
            yield from pay_tolls(g, ch.defender, [t for c in ch.defenders
                                                  for t in triggers.tolls(g, "defend", card=c)])  # core-d
            need = triggers.influence_tolls(g, "defend", ch.defenders)  # issue 24: Banished, In Chains
            if need:
                yield from triggers.kneel_influence(g, ch.defender, need, ch.defenders, "to declare those defenders")
            for c in ch.defenders:
                if triggers.does_not_kneel(g, c, "defend"):
                    g.log(f"{g.name(c)} defends without kneeling")
                    continue
                g.card(c).kneeling = True
            declared = [c for c in ch.defenders if c not in joined]
            ch.defenders = joined + declared
            if declared:
                g.log(f"{ch.defender} defends with {', '.join(g.name(c) for c in declared)}")
                g.state.window.gates.append({"event": "defenders_declared", "type": ch.type,
                                             "player": ch.defender})
            else:
                g.log(f"{ch.defender} declares no defenders")

        yield from framework_window(g, "defenders are declared",
                                    [Event("choose stealth targets", initiate=stealth),
                                     Event("declare defenders", initiate=defend)])
        if no_participants(g):
            return
        yield from player_actions(g)
        if no_participants(g):
            return
        yield from resolution(g, ch)
    except GeneratorExit:
        closed = True  # the game itself was dropped mid-challenge: its state stays as it stood
        raise
    finally:
        if not closed:
            ch.ended = True  # resolved or not, nobody is attacking or defending any more
            g.expire("challenge")


def claim_into_play(g: Game, ch: Challenge, picks: list[int]) -> Flow:
    """Issue 24 (``allows: [claim_into_play]``): the winner may put into play under his control, instead of their
    discard, the cards his intrigue claim takes from the defender's hand: characters (Scouting the Pass), or the
    types its ``claim_types`` name (Breaking and Entering: attachments, each on a host it may legally take,
    ATT-01, and locations); uniqueness still applies (C-08). Returns the cards put into play."""
    types = triggers.claim_into_play_types(g, ch.attacker)
    if not types:
        return []

    def hosts(c: int) -> list:
        return [h for h in triggers.cards_in_play(g) if h != c and g.attach_problem(c, h, ch.attacker) is None]

    cards = [c for c in picks if g.defn(c).type in types and legality.unique_problem(g, ch.attacker, c) is None
             and (g.defn(c).type != "attachment" or hosts(c))]
    if not cards:
        return []
    answer = yield from g.ask(Decision(
        "choose", ch.attacker, "intrigue claim: choose the cards you put into play under your control "
        "instead of their discard", choices=cards, min_count=0, max_count=len(cards),
        checker=legality.selection_checker(g, cards, 0, len(cards), "a card the claim discards", "CHL-16")))
    chosen = list(answer["choose"])
    for c in chosen:
        if g.defn(c).type == "attachment":
            places = hosts(c)
            where = yield from g.ask(Decision(
                "choose", ch.attacker, f"intrigue claim: choose where {g.name(c)} is attached", choices=places,
                min_count=1, max_count=1,
                checker=legality.selection_checker(g, places, 1, 1, "a card it can be attached to", "ATT-01")))
            g.attach(c, where["choose"][0], ch.attacker)
        else:
            g.put_in_play(c, ch.attacker)
        g.log(f"{ch.attacker} puts {ch.defender}'s {g.name(c)} into play instead of its discard (intrigue claim)")
        g.state.window.gates.append({"event": "entered_play", "card": c, "player": ch.attacker, "from": "hand"})
    return chosen


def resolution(g: Game, ch: Challenge) -> Flow:
    """The four framework events of challenge resolution, then Deadly as a passive (CHL-11, C-12)."""

    def winner(g: Game, ev: Event) -> Flow:
        atk = sum(g.strength(c) for c in ch.attackers if not g.uncounted(c))  # core-c: not_counted
        dfn = sum(g.strength(c) for c in ch.defenders if not g.uncounted(c))
        atk += triggers.extra_prohibited(g, ch.attacker, "extra_strength") if ch.attackers else 0  # Winter is Coming
        dfn += triggers.extra_prohibited(g, ch.defender, "extra_strength") if ch.defenders else 0
        ch.attacker_strength, ch.defender_strength = atk, dfn
        if atk >= dfn and atk >= 1:  # CHL-12: ties go to an attacker with STR 1 or more
            ch.winner = ch.attacker
        elif dfn > atk and dfn >= 1:
            ch.winner = ch.defender
        else:
            ch.winner = None
        ch.unopposed = ch.winner == ch.attacker and (dfn == 0 or atk - dfn >= 4 and triggers.allowed_for(
            g, ch.attacker, "unopposed_by_4")  # issue 24: We Do Not Sow
            or triggers.allowed_for(g, ch.attacker, "unopposed_win"))  # issue 24: Balon Greyjoy (ITE)
        ch.resolved = True
        verdict = f"{ch.winner} wins" if ch.winner else "nobody wins"
        g.log(f"{ch.type} challenge: {ch.attacker} {atk} STR vs {ch.defender} {dfn} STR; {verdict}")
        if ch.winner:
            g.player(ch.winner).challenges_won.append(ch.type)
            role = "attacker" if ch.winner == ch.attacker else "defender"
            loser = ch.defender if ch.winner == ch.attacker else ch.attacker
            g.state.window.gates.append({"event": "challenge_won", "player": ch.winner, "type": ch.type,
                                         "as": role, "margin": abs(atk - dfn)})
            g.state.window.gates.append({"event": "challenge_lost", "player": loser, "type": ch.type,
                                         "as": "defender" if role == "attacker" else "attacker",
                                         "margin": abs(atk - dfn)})
            g.state.counters[f"lost_challenge:{loser}"] = g.state.phase_serial  # the lost_challenge condition
        return
        yield

    def claim_initiate(g: Game, ev: Event) -> Flow:
        if ch.winner != ch.attacker:
            return  # CHL-18: no claim when the defender wins
        won = [gt for gt in g.state.window.gates if gt.get("event") == "challenge_won"]
        instead = triggers.claim_replacements(g, won)  # issue 24: "instead of the normal claim effect"
        if instead:
            ev.data["instead"] = instead
            g.log(f"{' and '.join(g.name(c) for c, _, _, _ in instead)} replace{'s' if len(instead) == 1 else ''} "
                  f"{ch.attacker}'s claim")
            return
        claim = g.claim(ch.attacker)
        ev.data["claim"] = claim
        if ch.type == "military" and claim > 0:  # CHL-14/15
            eligible = [c for c in g.characters(ch.defender) if g.card(c).moribund is None
                        and not g.cannot(c, "be_killed")
                        and not g.cannot(c, "military_claim")]  # issue 24: Marked for Ransom
            count = min(claim, len(eligible))
            if count == 0:
                return
            decision = Decision("choose", ch.defender, f"military claim {claim}: choose {count} "
                                f"character{'s' if count > 1 else ''} to kill",
                                choices=eligible, min_count=count, max_count=count,
                                checker=legality.selection_checker(g, eligible, count, count,
                                                                   "a character you control in play", "CHL-14"))
            if count == len(eligible):
                decision.options = [{"choose": list(eligible)}]
            answer = yield from g.ask(decision)
            ev.victims = list(answer["choose"])

    def claim_execute(g: Game, ev: Event) -> Flow:
        if ch.winner != ch.attacker:
            return
        for cid, ab, gate, owner in ev.data.get("instead", ()):
            yield from resolve_passive(g, owner, cid, ab, gate)
        if ev.data.get("instead"):
            return
        claim = ev.data.get("claim", 0)
        d = g.player(ch.defender)
        if ch.type == "military":
            for c in ev.victims:
                if g.remove(c, "dead"):
                    g.log(f"{ch.defender}'s {g.name(c)} is killed for military claim")
                    g.state.window.gates.append({"event": "killed", "card": c, "player": ch.defender})
                    g.state.window.gates.append({"event": "left_play", "card": c, "player": ch.defender})
                    dead_pile_gate(g, c)
        elif ch.type == "intrigue" and claim > 0:  # CHL-16: at random
            picks = g.state.rng.sample(d.hand, min(claim, len(d.hand)))
            saved = yield from claim_into_play(g, ch, picks)  # issue 24: Scouting the Pass
            for c in picks:
                if c not in saved:
                    g.move_to_pile(c, "discard")
            g.log(f"{ch.defender} discards {', '.join(g.name(c) for c in picks if c not in saved) or 'nothing'} "
                  f"at random for intrigue claim")
        elif ch.type == "power" and claim > 0:  # CHL-17: moved from the House card only
            amount = min(claim, g.house_power(ch.defender))
            g.card(d.house_card).power -= amount
            g.log(f"{ch.attacker} moves {amount} power from {ch.defender}'s House for power claim")
            g.card(g.player(ch.attacker).house_card).power += amount
            g.check_victory()
        return
        yield

    def unopposed(g: Game, ev: Event) -> Flow:
        stop = triggers.prohibited(g, ch.attacker, "unopposed_power") if ch.unopposed else None
        if stop is not None:  # issue 24: Break Their Defense
            g.log(f"{ch.attacker} claims no power for the unopposed challenge ({g.name(stop[0])})")
        elif ch.unopposed:  # CHL-19
            n = 1 + triggers.extra_prohibited(g, ch.attacker, "extra_unopposed_power")  # issue 24: Rise of the Kraken
            g.log(f"{ch.attacker} claims {n} power for an unopposed challenge")
            g.claim_house_power(ch.attacker, n)
        return
        yield

    def renown(g: Game, ev: Event) -> Flow:
        # issue 24 (Trystane Martell): the last framework event; its responses come after Deadly too
        g.state.window.gates.append({"event": "challenge_resolved", "player": ch.attacker, "type": ch.type})
        if ch.winner is None:
            return
        side = ch.attackers if ch.winner == ch.attacker else ch.defenders
        for c in side:  # CHL-20
            if g.has_keyword(c, "renown") and g.card(c).zone == "in_play":
                g.log(f"{g.name(c)} claims 1 power for renown")
                g.add_card_power(c, 1)
                g.state.window.gates.append({"event": "renown_claimed", "card": c, "player": ch.winner})
        return
        yield

    deadly = Event("deadly", data={"removal": "kill", "cannot_be_canceled": True})  # KW-02

    def deadly_initiate(g: Game, ev: Event) -> Flow:
        atk = sum(1 for c in ch.attackers if g.has_keyword(c, "deadly"))
        dfn = sum(1 for c in ch.defenders if g.has_keyword(c, "deadly"))
        eligible = [c for c in ch.defenders if g.card(c).moribund is None and not g.cannot(c, "be_killed")]
        if atk <= dfn or not eligible:
            ev.cancelled = True  # nothing to resolve: not a cancel by a player
            return
        decision = Decision("choose", ch.defender, "deadly: choose a defending character to kill",
                            choices=eligible, min_count=1, max_count=1,
                            checker=legality.selection_checker(g, eligible, 1, 1, "one of your defenders", "KW-03"))
        if len(eligible) == 1:
            decision.options = [{"choose": list(eligible)}]
        answer = yield from g.ask(decision)
        ev.victims = list(answer["choose"])

    def deadly_execute(g: Game, ev: Event) -> Flow:
        for c in ev.victims:
            if g.remove(c, "dead"):
                g.log(f"{g.name(c)} is killed by deadly")
                g.state.window.gates.append({"event": "killed", "card": c, "player": ch.defender})
                g.state.window.gates.append({"event": "left_play", "card": c, "player": ch.defender})
                dead_pile_gate(g, c)
        return
        yield

    deadly.initiate, deadly.execute = deadly_initiate, deadly_execute
    yield from framework_window(g, "challenge resolution", [
        Event("determine the winner", execute=winner),
        Event("implement the challenge result", initiate=claim_initiate, execute=claim_execute,
              data={"removal": "kill"}),
        Event("reward for an unopposed challenge", execute=unopposed),
        Event("renown", execute=renown),
    ], passives=[deadly])


PHASES = {
    "plot": plot_phase, "draw": draw_phase, "marshalling": marshalling_phase,
    "challenges": challenges_phase, "dominance": dominance_phase, "standing": standing_phase,
    "taxation": taxation_phase,
}


# --- core-d additions ---

def pay_tolls(g: Game, payer: str, found: list) -> Flow:
    """Gold a player gives another to declare, trigger or play something (GEN-01: Motley, Uneasy Truce,
    Calm Over Westeros). A toll to "an opponent" is given to the opponent the payer chooses."""
    found = [t for t in found if t[1] == payer]
    if not found:
        return
    chosen = None
    others = [n for n in g.opponents(payer) if not g.player(n).eliminated]
    if any(t[2] is None for t in found) and len(others) > 1:
        decision = Decision("choose", payer, "choose the opponent you give the gold to", choices=others,
                            min_count=1, max_count=1,
                            checker=legality.selection_checker(g, others, 1, 1, "an opponent", "GEN-01"))
        answer = yield from g.ask(decision)
        chosen = answer["choose"][0]
    triggers.pay_tolls(g, found, chosen)


def dead_pile_gate(g: Game, cid: int) -> None:
    """MOR-02: a card killed into its owner's dead pile counts as placed there for responses (core-d)."""
    if g.state.window is not None and g.card(cid).moribund == "dead":
        g.state.window.gates.append({"event": "placed_in_dead_pile", "card": cid, "player": g.card(cid).owner})


def pay_chosen_costs(g: Game, player: str, cid: int, ab, ctx) -> Flow:
    """Issue 24: costs paid with cards the player chooses as he pays them (COS-07 e: "kill another Night's Watch
    character", "discard 1 power from a character you control"): he is asked which when he has a choice."""
    for word, n, found in triggers.chosen_costs(g, player, cid, ab, ctx):
        picks = list(found[:n])
        if n and len(found) > n:
            what = {"kill": "kill", "discard": "discard from play", "power": "discard 1 power from",
                    "discard_in_hand": "discard from your hand", "leave_challenge": "remove from the challenge"}[word]
            decision = Decision("choose", player, f"{g.name(cid)}: choose {n} card{'s' if n != 1 else ''} to {what} "
                                f"for its cost", choices=list(found), min_count=n, max_count=n,
                                checker=legality.selection_checker(g, list(found), n, n, "a card that can pay the cost",
                                                                   "COS-05"))
            answer = yield from g.ask(decision)
            picks = list(answer["choose"])
        triggers.pay_chosen(g, word, picks)
        g.log(f"{player} pays for {g.name(cid)}: {word} {', '.join(g.name(c) for c in picks)}")
