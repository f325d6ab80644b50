""""Why?": the current moment of a game, in words (no Qt).

One explainer for every game at the table (the *Why?* button, F1) and for the
step-through tutorials (``engine.tutorial``)::

    >>> explain(game, decision=game.pending, passed=trail.passed)   # doctest: +SKIP
    "Step 2, save/cancel: Bob may cancel Alice's Flash of Steel or save a character it would kill; Alice already passed."

``Trail`` is an observer (``Options.observer``) that remembers who passed in the
current step, so the explanation can say so; it only reads the game.

The rule summaries here are the project's own short wording of the rule ids of
``../shared/rules/rules-checklist.md`` (never the publisher's text).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.wording import article, for_players

if TYPE_CHECKING:
    from engine.decisions import Decision
    from engine.game import Game

STEP_NAMES = {1: "initiation", 2: "save/cancel", 3: "execution", 4: "passives", 5: "responses",
              6: "moribund cards leave play"}
STEP_RULES = {1: "TIM-05", 2: "TIM-06", 3: "TIM-05", 4: "TIM-14", 5: "TIM-09", 6: "MOR-07"}

RULES = {
    # our own one-line summaries, keyed by rule id
    "RND-01": "a round runs plot, draw, marshalling, challenges, dominance, standing, then taxation",
    "RND-02": "each phase is a fixed chain of framework actions and player-action segments",
    "RND-03": "marshalling and challenges are taken in turns; the other phases are played by all at once",
    "RND-04": "the first player acts first in every segment; the active player is the one taking his turn",
    "RND-06": "a phase beginning and a phase ending are framework actions with their own windows",
    "SET-01": "setup: place facedown cards, reveal them together, then draw up to seven",
    "SET-02": "setup cards are characters and locations worth at most 5 gold in all",
    "SET-03": "a card with the Setup keyword may be placed at setup even if it is not a character or location",
    "SET-04": "at most one Limited card at setup",
    "SET-07": "setup cards are revealed together and come into play standing",
    "SET-09": "after the reveal each player draws up to 7 cards",
    "PLT-01": "everyone picks a plot in secret; they are revealed together",
    "PLT-05": "the revealed plot gives income, initiative and claim",
    "PLT-06": "initiative is the plot's value plus every bonus on your cards, kneeling ones too",
    "PLT-07": "the highest initiative wins; a tie goes to the player with the least power",
    "PLT-08": "the initiative winner names the first player, himself or anyone else",
    "DRW-01": "in the draw phase everyone draws two cards",
    "DRW-03": "card effects may make a player draw at most three cards a round",
    "DRW-05": "an effect that would pass the draw cap draws up to it and no further",
    "DRW-06": "the draw cap counts card-effect draws only, and resets every round",
    "MAR-01": "each player takes a whole marshalling turn, clockwise from the first player",
    "MAR-02": "income is counted when your marshalling turn starts: plot income plus your cards' bonuses",
    "MAR-04": "the active player pays gold to put characters, locations and attachments into play",
    "MAR-05": "only the active player may marshal cards, and only in his turn",
    "MAR-07": "a card of another House costs 2 gold more",
    "MAR-09": "unspent gold stays in the pool until taxation (the Winter rules lose it at once)",
    "MAR-11": "a player plays at most one Limited card per round",
    "CHL-01": "one military, one intrigue and one power challenge per turn at most",
    "CHL-02": "declare the type and the opponent, then kneel your attackers, each with that icon",
    "CHL-03": "attackers and defenders kneel when they are declared",
    "CHL-06": "each stealth attacker picks a character without stealth that cannot defend",
    "CHL-11": "resolution: the winner, the claim, the unopposed bonus, then renown",
    "CHL-12": "the side with more STR wins; ties go to an attacker with at least 1 STR",
    "CHL-13": "the claim value comes from the attacker's plot",
    "CHL-14": "military claim: the defender kills characters of his own choice",
    "CHL-16": "intrigue claim: the defender discards cards from his hand at random",
    "CHL-17": "power claim: power moves from the defender's House card to the attacker's",
    "CHL-18": "when the defender wins there is no claim",
    "CHL-19": "an attacker who wins against no defending STR gains 1 power: unopposed",
    "CHL-20": "renown: each winning participant with renown gains 1 power",
    "DOM-01": "dominance goes to the most STR among standing characters; a tie gives nothing",
    "DOM-02": "no player actions come before dominance is counted",
    "DOM-03": "in the standing phase every kneeling card stands",
    "DOM-04": "taxation returns unspent gold",
    "COS-01": "influence is paid by kneeling cards that show influence; extra influence is lost",
    "COS-03": "paying influence is a cost, not an effect",
    "COS-09": "X is fixed first, then penalties are added",
    "COS-11": "a canceled card still counts as played, and its costs stay paid",
    "COS-17": "\"then\": the second part happens only if the first part really resolved",
    "KW-02": "keyword effects cannot be canceled, but characters can be saved from them",
    "KW-03": "deadly: more deadly attackers than deadly defenders kill a defender",
    "UNQ-05": "a copy of your own unique card can be placed on it as a duplicate",
    "UNQ-08": "discarding a duplicate saves its card from being killed or discarded",
    "TIM-01": "an action is playing a card or triggering an ability; a passive is not an action",
    "TIM-03": "in a player-action segment everyone may act in turn until all pass in succession",
    "TIM-04": "framework actions open windows just like players' actions",
    "TIM-05": "every action opens a window of six steps: initiate, save/cancel, execute, passives, "
              "responses, moribund cards leave",
    "TIM-06": "save/cancel responses are played in step 2; once all pass, that gate is closed",
    "TIM-07": "a save stops a card being killed or discarded; a cancel stops an effect altogether",
    "TIM-08": "normal responses are played in step 5, for anything that happened earlier in the window",
    "TIM-09": "responses start left of the player who acted (with the first player in framework windows)",
    "TIM-10": "a response that is canceled is over; the chance passes on clockwise",
    "TIM-11": "responses are optional, passives are not",
    "TIM-12": "a response or passive resolves at most once per thing that triggers it",
    "TIM-14": "passives that trigger together are put in order by the first player",
    "TIM-15": "passives resolve before anyone may take an action",
    "TIM-17": "end-of-phase windows have no save/cancel step and no response step",
    "TIM-18": "each action resolves completely; only saves and cancels interrupt it",
    "MOR-01": "a card killed, discarded or returned in a window stays in play, moribund, until step 6",
    "MOR-02": "a moribund card still uses its abilities and still counts as in play",
    "MOR-03": "a moribund card cannot be removed from play a second time",
    "MOR-04": "a moribund card is not yet in the pile it is going to",
    "MOR-05": "an event being played is moribund until step 6, then goes to the discard pile",
    "MOR-07": "in step 6 every moribund card goes to its owner's pile, all together",
    "MOR-09": "terminal conditions: a save counts only if it also ends the condition",
    "MOR-10": "replacement effects change where a card goes as it becomes moribund",
    "LST-01": "a lasting effect outlives the action that made it",
    "LST-02": "lasting modifiers are added together and applied as one",
    "LST-03": "STR below 0 after everything is added counts as 0",
    "LST-05": "durations end exactly when they say",
    "IMM-01": "immunity protects a card from the effects it names",
    "WIN-01": "15 power wins at once, wherever the game is",
    "EFF-06": "constant abilities are recalculated all the time",
}

_REMOVAL_VERB = {"kill": "kill", "discard": "discard", "return": "return to hand", "hand": "return to hand"}


def rule_line(rule_id: str) -> str:
    """``TIM-06 — save/cancel responses are played in step 2; ...`` (our own words)."""
    summary = RULES.get(rule_id)
    return f"{rule_id} \u2014 {summary}" if summary else rule_id


def _names(game: "Game", ids) -> str:
    return ", ".join(game.name(c) if isinstance(c, int) else str(c) for c in ids)


def _and(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def gate_text(game: "Game", gate: dict) -> str:
    """A window's response opportunity, in words."""
    ev = gate.get("event", "?")
    who = gate.get("player", "")
    card = gate.get("card")
    title = game.name(card) if isinstance(card, int) and card in game.state.cards else ""
    words = {
        "challenge_won": f"{who} won {article(gate.get('type', ''))} challenge",
        "challenge_lost": f"{who} lost {article(gate.get('type', ''))} challenge",
        "challenge_declared": f"{who} declared {article(gate.get('type', ''))} challenge",
        "defenders_declared": f"{who} declared defenders",
        "killed": f"{title} was killed",
        "left_play": f"{title} left play",
        "discarded": f"{title} was discarded",
        "saved": f"{title} was saved",
        "played": f"{who} played {title}",
        "marshalled": f"{who} marshalled {title}",
        "entered_play": f"{title} came into play",
        "renown_claimed": f"{title} gained power for renown",
        "cancelable": f"{title} can be canceled",
    }
    return words.get(ev, f"{ev.replace('_', ' ')}" + (f": {title}" if title else ""))


def moribund_cards(game: "Game") -> list[tuple[int, str]]:
    """Cards waiting for step 6 with their destination (events being played go to the discard pile)."""
    out = []
    for cid, c in sorted(game.state.cards.items()):
        if c.moribund is not None:
            out.append((cid, c.moribund))
        elif c.zone == "played":
            out.append((cid, "discard"))
    return out


def destination_text(dest: str) -> str:
    return {"dead": "dead pile", "discard": "discard pile", "hand": "hand", "deck_top": "top of the deck",
            "deck_bottom": "bottom of the deck", "deck_shuffled": "deck, shuffled", "deck": "deck"}.get(dest, dest)


def first_to_act(game: "Game") -> str | None:
    """Who is asked first in the current window's save/cancel and response steps."""
    w = game.state.window
    if w is None:
        return game.first_player
    if w.kind == "player" and w.initiator:
        return game.state.left_of(w.initiator)
    return game.first_player


def event_text(game: "Game", event: dict | None) -> str:
    if not event:
        w = game.state.window
        return w.name if w is not None else ""
    text = event.get("name", "")
    targets = [t for t in event.get("targets") or [] if not isinstance(t, int) or t in game.state.cards]
    if targets:
        text += f" (targeting {_names(game, targets)})"
    return text


def explain(game: "Game", *, decision: "Decision | None" = None, event: dict | None = None,
            passed: list[str] | tuple = ()) -> str:
    """The current moment in words: which window and step, who holds priority, what is pending."""
    return for_players(_explain(game, decision, event, passed), game.state.player_names)


def _explain(game: "Game", decision: "Decision | None", event: dict | None, passed: list[str] | tuple) -> str:
    st = game.state
    if st.winner is not None and decision is None:
        return ("The game is over: " + (f"{st.winner} wins." if st.winner != "draw" else "a draw.")
                + (" (WIN-01: 15 power wins at once, even in the middle of a window.)" if st.window else ""))
    w = st.window
    if decision is not None and decision.kind == "order":
        return (f"Step 4, passives: several passive abilities triggered at the same moment, and "
                f"{decision.player}, the first player, chooses the order they resolve in "
                f"({_names(game, decision.choices)}). Passives are not optional: only their order is "
                f"a choice. ({rule_line('TIM-14')})")
    if w is None:
        return _outside_window(game, decision, passed)
    kind = {"player": f"{w.initiator}'s action", "framework": "the framework action",
            "end_of_phase": "the end of the phase"}.get(w.kind, w.kind)
    head = f"Step {w.step}, {STEP_NAMES.get(w.step, '?')}"
    opened = f"The window was opened by {kind}: {w.name}."
    ev_name = event_text(game, event)
    who = decision.player if decision is not None else first_to_act(game)
    done = [p for p in passed if p != who]
    passed_txt = f"; {_and(done)} already passed" if done else ""
    if w.step == 1:
        body = f"{ev_name or w.name} begins: costs are paid and targets chosen now"
    elif w.step == 2:
        victims = [v for v in (event or {}).get("victims") or [] if v in st.cards]
        verb = _REMOVAL_VERB.get((event or {}).get("removal") or "kill", "remove")
        save = f" or save {_names(game, victims)}, which it would {verb}" if victims else ""
        cancel = "" if (event or {}).get("cannot_be_canceled") else f"cancel {ev_name or w.name}"
        what = (cancel + save).strip() if cancel else (save[4:] if save else "pass")
        if decision is not None and decision.kind == "save_cancel":
            body = f"{who} may {what}{passed_txt}"
        else:
            body = f"each player in turn, starting with {who}, may {what}"
        body += "; when all pass in succession the gate closes"
    elif w.step == 3:
        if (event or {}).get("cancelled"):
            body = f"{ev_name or w.name} was canceled: it does nothing, its costs stay paid"
        else:
            body = f"{ev_name or w.name} resolves now"
    elif w.step == 4:
        body = ("passive abilities triggered in this window resolve now, before anyone may respond; "
                f"when several trigger at once, {game.first_player} (first player) orders them")
    elif w.step == 5:
        gates = [gate_text(game, g) for g in w.gates]
        about = f" to what happened here ({_and(gates[-4:])})" if gates else ""
        if decision is not None and decision.kind == "response":
            body = f"{who} may play a response{about}{passed_txt}"
        else:
            body = f"each player in turn, starting with {who}, may respond{about}"
    else:
        body = "the moribund cards go to their piles, all together"
    if w.kind == "end_of_phase":
        body += " (an end-of-phase window has no step 2 and no step 5)"
    leaving = moribund_cards(game)
    tail = ""
    if leaving and w.step != 6:
        tail = " Moribund, still in play until step 6: " + ", ".join(
            f"{game.name(c)} (to the {destination_text(d)})" for c, d in leaving) + "."
    elif leaving:
        body += ": " + ", ".join(f"{game.name(c)} to the {destination_text(d)}" for c, d in leaving)
    elif w.step == 6:
        body += "; no card is moribund"
    rule = STEP_RULES.get(w.step, "TIM-05")
    return f"{head}: {body}. {opened}{tail} ({rule_line(rule)})"


def _outside_window(game: "Game", decision: "Decision | None", passed) -> str:
    st = game.state
    if decision is None:
        return f"Round {st.round}, {st.phase} phase."
    who = decision.player
    phase = f"Round {st.round}, {st.phase} phase"
    done = [p for p in passed if p != who]
    passed_txt = f"; {_and(done)} passed already" if done else ""
    k = decision.kind
    if k == "action":
        if st.phase == "marshalling" and st.active_player == who:
            return (f"{phase}: {who} is the active player and may marshal cards or take an action; passing ends "
                    f"his marshalling turn. ({rule_line('MAR-05')})")
        return (f"{phase}: a player-action segment. {who} may take an action or pass{passed_txt}; when every "
                f"player passes in succession the game moves on. ({rule_line('TIM-03')})")
    if k == "challenge":
        return (f"{phase}: {who} is the active player and may declare a challenge, or be done. "
                f"({rule_line('CHL-01')})")
    if k == "defend":
        return f"{phase}: {who} chooses defenders, or none. ({rule_line('CHL-03')})"
    if k == "stealth":
        return f"{phase}: {who} picks a target for each stealth attacker. ({rule_line('CHL-06')})"
    if k == "plot":
        return f"{phase}: {who} picks a plot in secret. ({rule_line('PLT-01')})"
    if k == "first_player":
        return f"{phase}: {who} won initiative and names the first player. ({rule_line('PLT-08')})"
    if k == "setup":
        return f"Setup: {who} places setup cards facedown. ({rule_line('SET-02')})"
    return f"{phase}: {who} is asked: {decision.prompt}."


class Trail:
    """An observer that remembers who passed in the current window step (and the event being
    resolved), for ``explain``. Chain another observer with ``then``."""

    def __init__(self, then: Any = None):
        self.then = then
        self.passed: list[str] = []
        self.event: dict | None = None
        self._key: Any = None

    def _step_key(self, game: "Game") -> Any:
        w = game.state.window
        return (len(game.state.windows), w.name, w.step) if w is not None else None

    def __call__(self, kind: str, game: "Game", info: dict) -> None:
        if kind == "step":
            self.passed = []
            self._key = self._step_key(game)
            self.event = event_info(game, info.get("event"))
        elif kind == "event":
            self.passed = []
            self.event = event_info(game, info.get("event"))
        elif kind == "answer":
            d = info["decision"]
            if self._step_key(game) != self._key:
                self._key, self.passed = self._step_key(game), []
            if "pass" in info["answer"] and d.kind in ("save_cancel", "response", "action"):
                if info["player"] not in self.passed:
                    self.passed.append(info["player"])
            elif d.kind in ("save_cancel", "response", "action"):
                self.passed = []
        if self.then is not None:
            self.then(kind, game, info)


def event_info(game: "Game", ev: Any) -> dict | None:
    """The part of a flow ``Event`` the explainer and the tutorial panel show, as plain data."""
    if ev is None:
        return None
    data = getattr(ev, "data", {}) or {}
    return {"name": ev.name, "victims": list(ev.victims), "cancelled": bool(ev.cancelled),
            "removal": data.get("removal"), "source": data.get("source"),
            "targets": list(data.get("targets") or []), "player": data.get("player"),
            "cannot_be_canceled": bool(data.get("cannot_be_canceled"))}
