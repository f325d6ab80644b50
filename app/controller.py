"""Gestures become engine answers: the one place where the table talks to the engine.

A drag, a click, a double-click, a menu entry, a hotkey or a prompt button is
turned into the answer it means for the pending decision (``{"marshal": 12}``,
``{"defend": [4, 9]}``...) and sent with ``game.answer``. The engine applies it
or refuses it with a reason; either way the table then redraws from the state
(a drag is a request, the engine answers).

In advise mode a gesture the rules refuse, or one no decision asks for
(kneel, draw, kill...), is applied as a free move (``engine.advise``) and the
rules it breaks are shown as warnings.

Seats played by the computer are answered by ``engine.players.RandomPlayer``.
Hotseat: when the next decision belongs to another person at the same screen
(and at the start of the game), the table is hidden until that player takes the
seat (``reveal``). What the seat may see is ``engine.visibility.may_see``: every
widget draws cards and names through ``may_see`` and ``title`` here.

Prompting: each person chooses when the table stops for him (``PROMPTING``);
the other decisions are passed here, as answers in the history (the table's
games run with ``Options(prompt_all=True)``, so the setting can change at any
time without breaking a replay).
"""
from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QObject, QTimer, Signal

from cards.errors import printable
from engine import advise, legality, manual, triggers, visibility
from engine.decisions import Decision, GameOver, Refused
from engine.game import Game
from engine.players import RandomPlayer
from engine.wording import article

SELECTION_KINDS = ("setup", "challenge", "defend", "stealth", "choose", "order")
"""Decisions answered by picking cards on the table, then pressing the prompt's button."""
ROW_ZONES = ("characters", "locations", "in_play")

PROMPTING = {
    "legal": "when I have a legal play",
    "always": "in every window (tells nobody anything)",
    "never": "never for optional windows",
}
"""When the table stops for a person: ``legal`` (the default) skips the windows where passing is his only
answer; ``always`` stops in every window he may act in, even to pass; ``never`` passes every optional window
(actions outside his own marshalling, responses, saves and cancels) and stops only for what he must answer."""
OPTIONAL_KINDS = ("action", "response", "save_cancel")

Action = tuple[str, Callable[[], None] | None, bool]
"""A context-menu entry: label, what it does, whether it is enabled ("-" is a separator)."""


class TableController(QObject):
    """Holds the game being played at this table and turns gestures into answers."""

    changed = Signal()
    """The state (or the selection) changed: redraw."""
    message = Signal(str, str)
    """Something to tell the player: text and level (info, refused, warning, over)."""
    privacy_needed = Signal(str)
    """The next decision belongs to another person at this screen: show "Pass to <name>"."""
    influence_requested = Signal(dict, int)
    """An ability costs influence: open the picker (option, influence needed)."""
    browse_requested = Signal(str, str)
    """Show the cards of a pile (player, zone) the viewer may look through."""
    progressed = Signal()
    """An answer or a free move went into the history (the table autosaves, ``app/session.py``)."""
    seat_changed = Signal()
    """The seat at the screen changed (hidden for a hand-over, or taken): forget what the last seat saw."""

    def __init__(self, game: Game, *, computers: dict[str, RandomPlayer] | None = None, privacy: bool = True,
                 computer_delay_ms: int = 0, prompting: dict[str, str] | None = None,
                 parent: QObject | None = None):
        super().__init__(parent)
        self.game = game
        self.computers: dict[str, RandomPlayer] = dict(computers or {})
        self.privacy = privacy
        self.computer_delay_ms = computer_delay_ms
        self.selection: list[int] = []
        self.setup_attach: dict[int, int] = {}
        self.waiting_for: str | None = None
        self.last_message: tuple[str, str] = ("", "info")
        self.prompting: dict[str, str] = {n: p for n, p in (prompting or {}).items() if p in PROMPTING}
        self.auto_at: set[int] = set()
        """History positions of the passes the table gave for a player (undo skips them)."""
        self.phase_pass: dict[str, tuple[int, int]] = {}
        """Players passing the optional windows of one phase: name -> (round, phase serial)."""
        self.phase_pass_at: dict[str, int] = {}
        """The history length when each of them asked it (an undo of that answer forgets it)."""
        self.auto_passes = 0
        """Decisions passed for the players by their prompting setting (they are in the history)."""
        self.handovers = 0
        """Times the privacy screen was put up (the start of the game included)."""
        self.public_keys: set[str] = set()
        """Keys of every card that every seat could see at some moment (the log links only these)."""
        self.ask_gold_tokens: Callable[[int, int], bool] | None = None
        """``ask_gold_tokens(cost, from_tokens) -> bool``: when gold tokens on cards (Tywin Lannister) and the
        pool could each pay first, True pays ``from_tokens`` of ``cost`` from the tokens first; unset (None), or
        False: the pool pays first. The window asks the player; tests replace it."""
        self.ask_penalty: Callable[[str, int], bool] | None = None
        """``ask_penalty(card name, gold) -> bool``: when the card being marshalled offers a gold penalty its
        player may choose to pay (issue 24: Veteran Builder, Mance Rayder), True pays it. Unset (None), or
        False: it is not paid. The window asks the player; tests replace it."""
        d = self.decision
        humans = self.humans
        if d is not None and d.player in humans:
            self.viewer = d.player
        else:
            self.viewer = humans[0] if humans else game.state.player_names[0]
        # Hotseat: nobody's seat until the first person to decide takes it.
        self.hands_hidden = self.privacy and len(humans) > 1
        self._timer_pending = False
        self.note_public()

    # -- what is asked ---------------------------------------------------------------
    @property
    def names(self) -> list[str]:
        return self.game.state.player_names

    @property
    def humans(self) -> list[str]:
        """Seats played by people at this screen."""
        return [n for n in self.names if n not in self.computers]

    @property
    def decision(self) -> Decision | None:
        d = self.game.advance()
        return d if isinstance(d, Decision) else None

    @property
    def result(self) -> GameOver | None:
        d = self.game.advance()
        return d if isinstance(d, GameOver) else None

    @property
    def mode(self) -> str:
        return self.game.options.mode

    def set_mode(self, mode: str) -> None:
        """Switch between ``enforce`` and ``advise`` for the rest of the game."""
        self.game.options.mode = mode
        self.say(f"{mode} mode: " + ("illegal moves are refused" if mode == "enforce" else
                                     "moves are free; the engine warns about the rules they break"), "info")
        self.changed.emit()

    # -- what the seat at the screen may see (engine.visibility) ------------------------------
    @property
    def seat(self) -> str | None:
        """Whose seat the screen shows now; None while the privacy screen is up."""
        return None if self.hands_hidden else self.viewer

    def may_see(self, cid) -> bool:
        """The one rule every widget draws through: may the seat at the screen see this card?"""
        return visibility.may_see(self.game, self.seat, cid)

    def title(self, cid) -> str:
        """A card's name as the seat may read it ("a hidden card" when it may not see it), control
        characters escaped (``cards.errors.printable``)."""
        if not self.may_see(cid):
            c = self.game.state.cards.get(cid)
            return "a facedown card" if c is not None and c.facedown else "a hidden card"
        return printable(self.game.name(cid))

    def note_public(self) -> None:
        """Remember the keys of the cards every seat sees now (names in the log may link to them)."""
        g = self.game
        for cid, c in g.state.cards.items():
            if c.key not in self.public_keys and visibility.public(g, cid):
                self.public_keys.add(c.key)

    def key_visible(self, key: str) -> bool:
        """May the seat preview card ``key`` by name (a log link)? Yes if the card was ever public, or a card
        of that key is one the seat may see now."""
        if key in self.public_keys:
            return True
        return any(c.key == key and self.may_see(cid) for cid, c in self.game.state.cards.items())

    # -- prompting: when the table stops for a person -------------------------------------------
    def prompting_of(self, name: str) -> str:
        if name in self.computers:
            return "legal"
        return self.prompting.get(name, self.prompting.get("*", "legal"))

    def set_prompting(self, name: str, policy: str) -> None:
        """Change when the table stops for ``name`` (``PROMPTING``), from now on."""
        if policy not in PROMPTING:
            raise ValueError(f"prompting: one of {', '.join(PROMPTING)}, not {policy!r}")
        self.prompting[name] = policy
        d = self.decision
        if d is not None and d.player == name and not self.hands_hidden and self.skips(d):
            self._after_change()
        else:
            self.changed.emit()

    def optional_window(self, d: Decision | None = None) -> bool:
        """An opportunity the player may simply let pass: an action window other than his own marshalling
        turn, a response, a save or cancel."""
        d = d if d is not None else self.decision
        if d is None or not d.can_pass or d.kind not in OPTIONAL_KINDS:
            return False
        st = self.game.state
        return not (d.kind == "action" and st.phase == "marshalling" and st.active_player == d.player)

    def skips(self, d: Decision, game: Game | None = None) -> bool:
        """Whether the table passes ``d`` for its player without asking (his prompting setting);
        ``game``: another game's decision (undo asks it of the rebuilt game)."""
        if not d.can_pass:
            return False
        policy = self.prompting_of(d.player)
        if d.only_pass_or_untimed and policy != "always":
            return True
        if not self.optional_window(d):
            return False
        st = (game or self.game).state
        return policy == "never" or self.phase_pass.get(d.player) == (st.round, st.phase_serial)

    def pass_phase(self) -> bool:
        """Pass now and in every optional window of the rest of this phase."""
        d = self.decision
        if d is None or not self.my_turn() or not self.optional_window(d):
            return False
        st = self.game.state
        self.phase_pass[self.viewer] = (st.round, st.phase_serial)
        self.phase_pass_at[self.viewer] = len(self.game.history)
        return self.pass_()

    def _auto_pass(self) -> None:
        """Pass the decisions the players' settings skip (their answers go into the history as any)."""
        while True:
            d = self.decision
            if d is None or not self.skips(d):
                return
            self.game.answer(d.player, {"pass": True})
            self.auto_passes += 1
            self.auto_at.add(len(self.game.history) - 1)

    def my_turn(self) -> bool:
        """True when the pending decision is the viewer's and the screen is his."""
        d = self.decision
        return d is not None and d.player == self.viewer and not self.hands_hidden

    def eligible_cards(self) -> list[int]:
        """Cards the viewer can pick or play for the pending decision (the table outlines them)."""
        d = self.decision
        if d is None or not self.my_turn():
            return []
        if d.kind in SELECTION_KINDS:
            return list(d.choices)
        if d.kind == "action":
            return [o["marshal"] for o in d.options if "marshal" in o] + \
                   [o["trigger"] for o in d.options if "trigger" in o]
        if d.kind == "save_cancel":
            return [o["duplicate_save"] for o in d.options if "duplicate_save" in o]
        return []

    def say(self, text: str, level: str = "info") -> None:
        self.last_message = (text, level)
        self.message.emit(text, level)

    # -- sending answers -----------------------------------------------------------------
    def start(self) -> None:
        """Let the computer seats answer if the game opens with one of their decisions."""
        self._after_change()

    def submit(self, answer: dict, *, free: dict | None = None) -> bool:
        """Send ``answer`` for the viewer. In advise mode a refused answer falls back to ``free``."""
        if self.hands_hidden:
            self.say(f"Pass the screen to {self.waiting_for} first: the table is hidden.", "refused")
            return False
        if self.decision is None:
            if self.mode == "advise" and free is not None:
                return self.free_move(free)
            self.say("The game is over.", "refused")
            return False
        if "marshal" in answer and self.ask_penalty is not None and self.decision.player == self.viewer:
            extra = legality.penalty_choice(self.game, self.viewer, answer)
            if extra and self.ask_penalty(self.game.name(answer["marshal"]), extra):
                answer = dict(answer, penalty=True)  # the optional gold penalty (MAR-07)
        if ("marshal" in answer or "trigger" in answer) and "gold_tokens" not in answer \
                and self.ask_gold_tokens is not None and self.decision.player == self.viewer:
            split = legality.gold_split_choice(self.game, self.viewer, answer)
            if split is not None:  # gold tokens he may spend (Tywin Lannister): pool first, or tokens first?
                cost, pool_first, tokens_first = split
                if self.ask_gold_tokens(cost, tokens_first):
                    answer = dict(answer, gold_tokens=tokens_first)
        try:
            self.game.answer(self.viewer, answer)
        except Refused as refusal:
            if self.mode == "advise" and free is not None:
                return self.free_move(free)
            self.say(str(refusal), "refused")
            self.changed.emit()
            return False
        # Advise mode: an answer the engine let through may still break a rule (gold, influence).
        broken = getattr(self.game, "warnings", None) or []
        self.say("Rules broken: " + "; ".join(broken) if broken else "", "warning" if broken else "info")
        self._after_change()
        return True

    def pass_title(self, cid: int, to: str) -> bool:
        """Pass a Five Kings title to another player, in either mode: no rule governs titles (the
        rules documents define none), so the move breaks none; it is recorded like advise mode's
        free moves (``engine.advise``), and a save replays it."""
        if self.hands_hidden:
            self.say(f"Pass the screen to {self.waiting_for} first: the table is hidden.", "refused")
            return False
        try:
            advise.free_move(self.game, self.viewer, {"move": cid, "to": "in_play", "controller": to})
        except Refused as refusal:
            self.say(str(refusal), "refused")
            return False
        self.say(f"{self.title(cid)} passes to {to} (titles are passed by hand).", "info")
        self._after_change()
        return True

    def free_move(self, move: dict, *, quiet: bool = False) -> bool:
        """Apply a free move (advise mode) and show the rules it breaks."""
        if self.mode != "advise":
            self.say("Enforce mode: only the rules move cards here. Turn on advise mode "
                     "(Game \u25b8 Advise mode) to move cards by hand.", "refused")
            return False
        if self.hands_hidden:
            self.say(f"Pass the screen to {self.waiting_for} first: the table is hidden.", "refused")
            return False
        try:
            warnings = advise.free_move(self.game, self.viewer, move)
        except Refused as refusal:
            self.say(str(refusal), "refused")
            return False
        if warnings:
            self.say("Rules broken: " + "; ".join(warnings), "warning")
        elif not quiet:
            self.say("Moved freely; no rule is broken.", "info")
        self._after_change()
        return True

    def _after_change(self) -> None:
        """After any change: clear the picks, pass what the settings skip, let computers answer, hand the
        screen over."""
        self.selection.clear()
        self.setup_attach.clear()
        self._auto_pass()
        self.progressed.emit()  # after the passes the settings gave: the autosave holds them too
        d = self.decision
        if d is not None and d.player in self.computers:
            if self.computer_delay_ms > 0:
                self.note_public()
                self.changed.emit()
                if not self._timer_pending:
                    self._timer_pending = True
                    QTimer.singleShot(self.computer_delay_ms, self._computer_step)
                return
            self._play_computers()
            self.progressed.emit()
            d = self.decision
        self.note_public()
        if d is None:
            if self.hands_hidden and self.waiting_for is None:  # over before anyone took the seat
                self.hands_hidden = False
            res = self.result
            if res is not None:
                self.say(f"Game over: {res.winner} wins. {res.reason}" if res.winner != "draw"
                         else f"Game over: a draw. {res.reason}", "over")
        elif d.player in self.humans and (d.player != self.viewer or self.hands_hidden):
            if self.privacy and len(self.humans) > 1:
                if not (self.hands_hidden and self.waiting_for == d.player):
                    self.hide_for(d.player)
                return
            self.viewer = d.player
            self.seat_changed.emit()
        self.changed.emit()

    def hide_for(self, name: str) -> None:
        """Put the privacy screen up until ``name`` takes the seat; the last seat's picks and messages go."""
        self.hands_hidden = True
        self.waiting_for = name
        self.handovers += 1
        self.selection.clear()
        self.setup_attach.clear()
        self.say("", "info")  # a refusal may name a card of the last seat's hand
        self.seat_changed.emit()
        self.changed.emit()
        self.privacy_needed.emit(name)

    def _computer_step(self) -> None:
        self._timer_pending = False
        d = self.decision
        if d is None or d.player not in self.computers:
            return
        self._answer_as_computer(d)
        self._after_change()

    def _play_computers(self, limit: int = 100_000) -> None:
        for _ in range(limit):
            self._auto_pass()
            d = self.decision
            if d is None or d.player not in self.computers:
                return
            self._answer_as_computer(d)

    def _answer_as_computer(self, d: Decision) -> None:
        try:
            self.computers[d.player].play_turn(self.game)
        except RuntimeError as err:  # no legal answer found: hand the seat back to a person
            self.computers.pop(d.player)
            self.say(f"The computer could not answer for {d.player} ({err}); the seat is yours now.", "warning")

    def seat_for(self, viewer: str | None, hidden: bool) -> None:
        """Who has the screen when a game is rebuilt or opened (undo, Open, recovery): ``viewer``
        if a person plays that seat; with ``hidden`` (hotseat) the table stays covered until the
        player the next question is for takes the seat. Call before ``start``."""
        if viewer in self.humans:
            self.viewer = viewer
        d = self.decision
        if hidden and self.privacy and len(self.humans) > 1 and d is not None and d.player in self.humans:
            self.hands_hidden = True
            self.waiting_for = d.player

    def concede(self) -> bool:
        """The viewer concedes (``Game.concede``): the other player wins, or with three or four
        players the viewer leaves the game and it goes on."""
        if self.hands_hidden:
            self.say(f"Pass the screen to {self.waiting_for} first: the table is hidden.", "refused")
            return False
        try:
            self.game.concede(self.viewer)
        except Refused as refusal:
            self.say(str(refusal), "refused")
            return False
        self.say(f"{self.viewer} concedes.", "info")
        self._after_change()
        return True

    def reveal(self) -> None:
        """The next player has taken the seat: show the table from his side."""
        if self.waiting_for is not None:
            self.viewer = self.waiting_for
        self.hands_hidden = False
        self.waiting_for = None
        self.selection.clear()
        self.seat_changed.emit()
        self.changed.emit()

    def autoplay(self, count: int, *, stop_at: str | None = None, seed: int = 0) -> int:
        """Let the computer answer every seat for up to ``count`` decisions (the smoke command).

        Stops early at a decision of kind ``stop_at`` or at the end of the game; the
        viewer becomes whoever is asked next. Returns the number of decisions played.
        """
        players = {n: self.computers.get(n) or RandomPlayer(seed + i) for i, n in enumerate(self.names)}
        played = 0
        while played < count:
            d = self.decision
            if d is not None and d.only_pass_or_untimed:  # skipped at the table: not counted
                self.game.answer(d.player, {"pass": True})
                continue
            if d is None or (stop_at and d.kind == stop_at):
                break
            players[d.player].play_turn(self.game)
            played += 1
        d = self.decision
        self.selection.clear()
        self.hands_hidden, self.waiting_for = False, None
        if d is not None:
            self.viewer = d.player
        self.progressed.emit()
        self.note_public()
        self.seat_changed.emit()
        self.changed.emit()
        return played

    # -- picks on the table ------------------------------------------------------------
    def toggle(self, cid: int) -> None:
        """Add a card to (or take it out of) the picks for the pending decision."""
        if cid in self.selection:
            self.selection.remove(cid)
            for att, host in list(self.setup_attach.items()):
                if cid in (att, host):
                    del self.setup_attach[att]
        else:
            self.selection.append(cid)
        self.changed.emit()

    def _not_yours(self) -> bool:
        d = self.decision
        if self.hands_hidden:
            self.say(f"Pass the screen to {self.waiting_for} first.", "refused")
            return True
        if d is None:
            return False
        if d.player != self.viewer:
            self.say(f"It is {d.player}'s turn: {d.prompt}.", "info")
            return True
        return False

    def click_card(self, cid: int) -> None:
        """A click picks a card for the pending decision (attackers, defenders, a choice...)."""
        d = self.decision
        if d is None or self._not_yours():
            return
        if d.kind in SELECTION_KINDS:
            if cid in d.choices or cid in self.selection:
                self.toggle(cid)
            else:
                self.say(f"{self.title(cid)} cannot be picked: {d.prompt}.", "info")
        elif d.kind == "save_cancel" and {"duplicate_save": cid} in d.options:
            self.submit({"duplicate_save": cid})
        elif d.kind == "plot" and {"plot": cid} in d.options:
            self.submit({"plot": cid})
        elif self.trigger_options():
            self.toggle(cid)  # picks are the targets of the ability triggered next

    def double_click(self, cid: int) -> None:
        """Double-click: play a card from hand, or kneel/stand a card in play (advise mode)."""
        g = self.game
        c = g.card(cid)
        d = self.decision
        if d is not None and d.kind in SELECTION_KINDS and cid in d.choices and d.player == self.viewer:
            return  # the first click of the double-click already picked it
        own = [o for o in self.trigger_options() if o["trigger"] == cid]
        if len(own) == 1:
            self.request_trigger(own[0])
        elif c.zone == "hand":
            self.play_from_hand(cid)
        elif c.zone in ("in_play", "attached", "house", "agenda", "revealed_plot"):
            self.toggle_kneel(cid)

    def play_from_hand(self, cid: int) -> None:
        """Marshal a character or location (a drag onto the rows does the same)."""
        g = self.game
        d = self.decision
        if d is not None and d.kind == "setup" and d.player == self.viewer:
            if cid in d.choices and cid not in self.selection:
                self.toggle(cid)
            return
        if g.defn(cid).type == "attachment":
            self.say(f"{self.title(cid)} is an attachment: drag it onto the character it goes on.", "info")
            return
        owner = g.card(cid).owner
        self.submit({"marshal": cid}, free={"move": cid, "to": "in_play", "controller": owner})

    def toggle_kneel(self, cid: int) -> None:
        """Kneel a standing card or stand a kneeling one: a free move (advise mode)."""
        if self.mode != "advise":
            self.say(f"Enforce mode: the rules kneel and stand cards (attackers and defenders kneel when "
                     f"declared; all stand in the standing phase). Turn on advise mode to kneel "
                     f"{self.title(cid)} by hand.", "refused")
            return
        key = "stand" if self.game.card(cid).kneeling else "kneel"
        self.free_move({key: cid})

    def drop(self, cid: int | None, target) -> None:
        """A card dragged onto ``target`` (("card", id) or ("zone", player, zone)) — a request."""
        if cid is None:
            return
        g = self.game
        if target is None:
            self.say("Drop cards on a row, a pile or a character.", "info")
            self.changed.emit()
            return
        c = g.card(cid)
        d = self.decision
        title = self.title(cid)
        if d is not None and d.kind == "setup" and d.player == self.viewer and c.zone == "hand" \
                and not self.hands_hidden:
            self._setup_drop(cid, target)
            return
        if target[0] == "card":
            host = target[1]
            if host == cid:
                self.changed.emit()
                return
            hc = g.card(host)
            if c.zone == "hand" and hc.zone == "in_play":
                dup = g.name(host) == g.name(cid) and g.defn(cid).unique
                self.submit({"marshal": cid, "duplicate": dup, "attach_to": host},
                            free={"move": cid, "to": "attached", "attach_to": host})
                return
            if hc.zone in ("in_play",) and c.zone in ("in_play", "attached"):
                self._free_or_explain({"move": cid, "to": "attached", "attach_to": host},
                                      f"attach {title} to {self.title(host)}")
                return
            # Dropped on a card in a row or hand: treat it as a drop on that card's zone.
            zone = {"in_play": "characters", "attached": "characters", "hand": "hand"}.get(hc.zone)
            if zone is None:
                self.say(f"{title} cannot go onto {self.title(host)}.", "info")
                self.changed.emit()
                return
            target = ("zone", hc.controller, zone)
        _, player, zone = target
        if zone in ROW_ZONES:
            if c.zone == "hand":
                if g.defn(cid).type == "attachment":
                    self._refuse_or_free(f"{title} is an attachment: drop it onto the character it goes on.",
                                         {"move": cid, "to": "in_play", "controller": player})
                    return
                self.submit({"marshal": cid}, free={"move": cid, "to": "in_play", "controller": player})
                return
            if c.zone == "in_play" and c.controller == player:
                self.changed.emit()  # moved within its own rows: nothing changes
                return
            self._free_or_explain({"move": cid, "to": "in_play", "controller": player},
                                  f"put {title} into play under {player}'s control")
            return
        if zone in ("house", "agenda", "revealed_plot"):
            self.say(f"The {zone.replace('_', ' ')} slot takes no other cards.", "info")
            self.changed.emit()
            return
        if c.zone == zone and c.owner == player:
            self.changed.emit()
            return
        verbs = {"discard": "discard", "dead": "kill", "hand": "return to hand", "deck": "put on the deck",
                 "plot_deck": "return to the plot deck", "used_plots": "put in the used pile"}
        self._free_or_explain({"move": cid, "to": zone}, f"{verbs.get(zone, 'move')} {title}")

    def _setup_drop(self, cid: int, target) -> None:
        """Setup: a drag from hand stages cards (and attachments onto characters) for placing."""
        g = self.game
        d = self.decision
        if target[0] == "card" and g.defn(cid).type == "attachment" and target[1] in d.choices \
                and g.card_type(target[1]) == "character":
            host = target[1]
            for pick in (cid, host):
                if pick not in self.selection:
                    self.selection.append(pick)
            self.setup_attach[cid] = host
            self.say(f"{self.title(cid)} will be placed on {self.title(host)}.", "info")
            self.changed.emit()
            return
        if target[0] == "zone":
            zone = target[2]
        else:
            zone = "characters" if g.card(target[1]).zone == "in_play" else "hand"
        if zone in ROW_ZONES:
            if cid not in d.choices:
                self.say(f"{self.title(cid)} cannot be placed at setup: only characters, locations and "
                         f"Setup cards are (SET-02/03).", "refused")
            elif cid not in self.selection:
                self.selection.append(cid)
        elif cid in self.selection:
            self.toggle(cid)
            return
        self.changed.emit()

    def _free_or_explain(self, move: dict, doing: str) -> None:
        if self.mode == "advise":
            self.free_move(move)
        else:
            self.say(f"Enforce mode: the rules decide when to {doing}. Turn on advise mode "
                     f"(Game \u25b8 Advise mode) to do it by hand.", "refused")
            self.changed.emit()

    def _refuse_or_free(self, reason: str, move: dict) -> None:
        if self.mode == "advise":
            self.free_move(move)
        else:
            self.say(reason, "refused")
            self.changed.emit()

    def click_pile(self, target: tuple[str, str]) -> None:
        """Clicking a pile you may look through shows its cards."""
        if self.may_look(*target):
            self.browse_requested.emit(*target)

    def double_click_pile(self, target: tuple[str, str]) -> None:
        """Double-click your deck: draw a card (advise mode)."""
        player, zone = target
        if zone == "deck" and player == self.viewer:
            self.hotkey("draw")

    # -- prompt bar answers ---------------------------------------------------------------
    def pass_(self) -> bool:
        """Pass (or "done": no more marshalling, no more challenges, no defenders...)."""
        return self.submit({"pass": True})

    def confirm_setup(self) -> bool:
        """Place the picked setup cards (the engine checks the 5 gold limit and the rest)."""
        return self.submit({"setup": list(self.selection), "attach": dict(self.setup_attach)})

    def declare(self, challenge_type: str, against: str | None = None) -> bool:
        """Declare a challenge with the picked attackers."""
        d = self.decision
        opponents = (d.context.get("opponents") if d is not None else None) or []
        if against is None and opponents:
            against = opponents[0]
        return self.submit({"challenge": challenge_type, "against": against, "attackers": list(self.selection)})

    def confirm_defenders(self) -> bool:
        return self.submit({"defend": list(self.selection)})

    def confirm_stealth(self) -> bool:
        """Stealth targets are picked in the order of the attackers the prompt names."""
        d = self.decision
        attackers = d.context.get("attackers", []) if d is not None else []
        return self.submit({"stealth": dict(zip(attackers, self.selection))})

    def confirm_choice(self) -> bool:
        return self.submit({"choose": list(self.selection)})

    def confirm_order(self) -> bool:
        return self.submit({"order": list(self.selection)})

    def choose_plot(self, cid: int) -> bool:
        return self.submit({"plot": cid})

    def choose_first_player(self, name: str) -> bool:
        return self.submit({"first_player": name})

    def duplicate_save(self, cid: int) -> bool:
        return self.submit({"duplicate_save": cid})

    def trigger_options(self) -> list[dict]:
        """Abilities the viewer may trigger now (``{"trigger": id, "ability": n}``)."""
        d = self.decision
        if d is None or not self.my_turn():
            return []
        return [o for o in d.options if "trigger" in o]

    def ability(self, option: dict) -> dict:
        """The ability an option names, as card data (cost, choose, effect...)."""
        abilities = self.game.defn(option["trigger"]).abilities
        n = option.get("ability", 1)
        raw = abilities[n - 1] if 1 <= n <= len(abilities) else {}
        return raw if isinstance(raw, dict) else {}

    def influence_needed(self, option: dict) -> int:
        """The influence the option's ability costs now: its printed cost less any reduction waiting
        for it (``reduce_influence``, COS-12)."""
        g, cid, n = self.game, option.get("trigger"), option.get("ability", 1)
        found = triggers.abilities(g, cid) if cid in g.state.cards else []
        if not isinstance(n, int) or not 1 <= n <= len(found):
            return 0
        return triggers.influence_cost(g, self.decision.player if self.decision else g.card(cid).controller,
                                       cid, found[n - 1])

    def request_trigger(self, option: dict) -> None:
        """Trigger now, or first ask for influence when the ability costs some."""
        needed = self.influence_needed(option)
        if needed:
            self.influence_requested.emit(option, needed)
        else:
            self.trigger(option)

    def trigger(self, option: dict, pay: list[int] | None = None) -> bool:
        """Trigger a card ability offered by the engine: the picks are its targets, ``pay`` the
        cards knelt for its costs (influence)."""
        answer = {"trigger": option["trigger"], "ability": option.get("ability", 1)}
        if self.selection:
            answer["targets"] = list(self.selection)
        elif option.get("targets"):
            answer["targets"] = list(option["targets"])  # nothing picked: the engine's first legal target
        if pay:
            answer["pay"] = list(pay)
        elif option.get("pay") and not self.influence_needed(option):
            answer["pay"] = list(option["pay"])  # a kneel cost's cards, as the engine suggests
        return self.submit(answer)

    # -- card text by hand (engine/manual.py) ---------------------------------------------------
    def by_hand_options(self) -> list[dict]:
        """Uses by hand the engine offers the viewer now (``{"by_hand": id, "paragraph": n, ...}``)."""
        d = self.decision
        if d is None or not self.my_turn():
            return []
        found = d.context.get("by_hand")
        return list(found) if isinstance(found, list) else []

    def text_ability(self, option: dict):
        """The paragraph (``cards.textlabels.TextAbility``) a use by hand names."""
        for ta in manual.text_abilities(self.game, option["by_hand"]):
            if ta.paragraph == option.get("paragraph", 1):
                return ta
        return None

    def use_by_hand(self, option: dict, *, kneel: list[int] | None = None, gold: int = 0,
                    pay: list[int] | None = None, influence: int = 0, discard: list[int] | None = None,
                    removes: str | None = None) -> bool:
        """Start a use by hand: the picks are its targets; the costs are the ones the player states."""
        answer = dict(option)
        cost: dict = {}
        if kneel:
            cost["kneel"] = list(kneel)
        if gold:
            cost["gold"] = gold
        if influence:
            cost["influence"], cost["pay"] = influence, list(pay or [])
        if discard:
            cost["discard"] = list(discard)
        answer["cost"] = cost
        if self.selection:
            answer["targets"] = list(self.selection)
        if removes:
            answer["removes"] = removes
        return self.submit(answer)

    def tool(self, name: str, **args) -> bool:
        """A manual effect tool: in step 3 of a use by hand, an answer; in advise mode, a free move."""
        move = {"tool": name, **args}
        d = self.decision
        if d is not None and d.kind == "by_hand_effect" and self.my_turn():
            return self.submit(move, free=move)
        return self.free_move(move)

    def tool_actions(self, cid: int) -> list[Action]:
        """Manual effect tools on a card (context menu in step 3 of a use by hand, or advise mode)."""
        g = self.game
        c = g.card(cid)
        d = self.decision
        live = d is not None and d.kind == "by_hand_effect" and self.my_turn()
        if not live and self.mode != "advise":
            return []
        title = self.title(cid)
        out: list[Action] = []

        def add(label: str, name: str, **args) -> None:
            if live or name in ("modify", "token", "take_control", "put_into_play", "reveal", "return_to_deck"):
                # advise mode already has kneel, power, kill, discard as free moves
                out.append((f"{label}", lambda: self.tool(name, card=cid, **args), True))

        if c.zone in ("in_play", "attached"):
            if c.moribund is None:
                add(f"Kill {title}", "kill")
                add(f"Discard {title}", "discard")
                add(f"Return {title} to hand", "return_to_hand")
                add(f"Return {title} to the top of the deck", "return_to_deck")
                add(f"Return {title} to the bottom of the deck", "return_to_deck", bottom=True)
            if c.zone == "in_play" and c.controller != self.viewer:
                add(f"Take control of {title}", "take_control")
        if c.zone in manual.SOURCE_ZONES:
            add("Stand" if c.kneeling else "Kneel", "stand" if c.kneeling else "kneel")
            if c.zone in ("in_play", "attached", "house"):
                add("Power +1", "power", amount=1)
                if c.power:
                    add("Power \u22121", "power", amount=-1)
            if g.card_type(cid) == "character":
                add("STR +1 until the end of the phase", "modify", strength=1, until="phase")
                add("STR \u22121 until the end of the phase", "modify", strength=-1, until="phase")
                for icon in ("military", "intrigue", "power"):
                    if icon in g.icons(cid):
                        add(f"Lose the {icon} icon until the end of the phase", "modify", remove_icons=[icon])
                    else:
                        add(f"Gain {article(icon)} icon until the end of the phase", "modify", add_icons=[icon])
            add("Blank its text until the end of the phase", "modify", blank=True)
            add("Token +1", "token", amount=1)
            if c.tokens:
                add("Token \u22121", "token", amount=-1)
        if c.zone == "hand" and c.owner == self.viewer:
            add(f"Reveal {title}", "reveal")
            add(f"Discard {title} from hand", "discard")
        if c.zone in ("hand", "discard", "dead") and c.owner == self.viewer and \
                g.defn(cid).type in ("character", "location"):
            add(f"Put {title} into play", "put_into_play")
        return out

    def influence_sources(self, player: str | None = None) -> list[tuple[int, str, int]]:
        """Standing cards a player controls that have influence: (id, name, influence)."""
        g = self.game
        name = player or self.viewer
        out = []
        for cid in g.in_play_cards(name):
            c = g.card(cid)
            infl = g.defn(cid).influence
            if infl > 0 and not c.kneeling and not c.facedown and c.moribund is None:
                out.append((cid, self.title(cid), infl))
        return out

    # -- hotkeys (OCTGN style) ------------------------------------------------------------
    def hotkey(self, action: str, cid: int | None = None) -> None:
        """A hotkey on the card under the mouse (or on the viewer's own piles)."""
        me = self.viewer
        g = self.game
        if action == "pass":
            self.pass_()
            return
        if action in ("kneel", "power+", "power-", "kill", "discard") and cid is None:
            self.say("Point at a card first: hotkeys act on the card under the mouse.", "info")
            return
        if action == "kneel":
            self.toggle_kneel(cid)
        elif action == "draw":
            self._free_or_explain({"draw": me, "count": 1}, "draw a card")
        elif action == "stand_all":
            kneeling = [c for c in g.in_play_cards(me) if g.card(c).kneeling]
            if self.mode != "advise":
                self._free_or_explain({}, "stand cards")
            elif not kneeling:
                self.say("Nothing of yours is kneeling.", "info")
            else:
                for c in kneeling[:-1]:
                    self.free_move({"stand": c}, quiet=True)
                self.free_move({"stand": kneeling[-1]})
        elif action in ("power+", "power-"):
            self._free_or_explain({"power": cid, "delta": 1 if action == "power+" else -1},
                                  f"change the power on {self.title(cid)}")
        elif action == "kill":
            self._free_or_explain({"move": cid, "to": "dead"}, f"kill {self.title(cid)}")
        elif action == "discard":
            self._free_or_explain({"move": cid, "to": "discard"}, f"discard {self.title(cid)}")
        elif action == "shuffle":
            self._free_or_explain({"shuffle": me}, "shuffle your deck")
        elif action in ("gold+", "gold-"):
            self._free_or_explain({"gold": me, "delta": 1 if action == "gold+" else -1}, "change your gold")

    # -- context menus -------------------------------------------------------------------------
    def card_actions(self, cid: int) -> list[Action]:
        """The context menu of a card: what the rules ask now first, then free moves."""
        g = self.game
        c = g.card(cid)
        d = self.decision
        mine = self.my_turn()
        advise = self.mode == "advise"
        title = self.title(cid)
        out: list[Action] = []
        if d is not None and mine and d.kind in SELECTION_KINDS and cid in d.choices:
            verb = {"challenge": "Attack with", "defend": "Defend with", "setup": "Place at setup",
                    "stealth": "Stealth target:", "choose": "Choose", "order": "Order next:"}[d.kind]
            label = f"Unpick {title}" if cid in self.selection else f"{verb} {title}"
            out.append((label, lambda: self.toggle(cid), True))
        if d is not None and mine and d.kind == "save_cancel" and {"duplicate_save": cid} in d.options:
            out.append((f"Save {title} with a duplicate", lambda: self.duplicate_save(cid), True))
        if c.zone == "hand" and c.owner == self.viewer:
            options = [o for o in (d.options if d is not None and mine else []) if o.get("marshal") == cid]
            for o in options:
                if o.get("duplicate"):
                    out.append((f"Marshal {title} as a duplicate", lambda o=o: self.submit(o), True))
                elif o.get("attach_to") is not None:
                    host = o["attach_to"]
                    out.append((f"Marshal {title} onto {self.title(host)}", lambda o=o: self.submit(o), True))
                else:
                    out.append((f"Marshal {title}", lambda: self.play_from_hand(cid), True))
            if not options and g.defn(cid).type in ("character", "location"):
                out.append((f"Marshal {title}", lambda: self.play_from_hand(cid), True))
        tools = self.tool_actions(cid)
        if tools:
            if out:
                out.append(("-", None, False))
            out.extend(tools)
            if d is not None and d.kind == "by_hand_effect":
                return out
        if c.zone == "in_play" and g.card_type(cid) == "title":
            passes = [(f"Pass {title} to {name}", lambda name=name: self.pass_title(cid, name), True)
                      for name in self.game.state.player_names
                      if name != c.controller and not g.player(name).eliminated]
            if passes:
                out += ([("-", None, False)] if out else []) + passes
        free = []
        if c.zone in ("in_play", "attached", "house", "agenda", "revealed_plot"):
            free.append(("Stand" if c.kneeling else "Kneel", lambda: self.toggle_kneel(cid)))
        if c.zone in ("in_play", "house"):
            free.append(("Power +1", lambda: self.hotkey("power+", cid)))
            free.append(("Power \u22121", lambda: self.hotkey("power-", cid)))
        if c.zone in ("in_play", "attached", "hand"):
            free.append(("Kill (dead pile)", lambda: self.hotkey("kill", cid)))
            free.append(("Discard", lambda: self.hotkey("discard", cid)))
        if c.zone in ("in_play", "attached", "discard", "dead"):
            free.append(("Return to hand", lambda: self.free_move({"move": cid, "to": "hand"})))
        if free:
            if out:
                out.append(("-", None, False))
            suffix = "" if advise else "  (advise mode)"
            out.extend((label + suffix, fn, advise) for label, fn in free)
        return out

    def may_look(self, player: str, zone: str) -> bool:
        """Discard, dead and used piles are open to all; hands and plot decks to their owner
        (``engine.visibility.may_browse``)."""
        return visibility.may_browse(self.game, self.seat, player, zone)

    def pile_actions(self, target: tuple[str, str]) -> list[Action]:
        player, zone = target
        advise = self.mode == "advise"
        suffix = "" if advise else "  (advise mode)"
        out: list[Action] = []
        if self.may_look(player, zone):
            out.append(("Look through", lambda: self.browse_requested.emit(player, zone), True))
        if zone == "deck" and player == self.viewer:
            out += [("Draw a card" + suffix, lambda: self.hotkey("draw"), advise),
                    ("Shuffle" + suffix, lambda: self.hotkey("shuffle"), advise)]
        return out

    def seat_actions(self, name: str) -> list[Action]:
        if name != self.viewer:
            return []
        advise = self.mode == "advise"
        suffix = "" if advise else "  (advise mode)"
        return [("Gold +1" + suffix, lambda: self.hotkey("gold+"), advise),
                ("Gold \u22121" + suffix, lambda: self.hotkey("gold-"), advise),
                ("Stand all my cards" + suffix, lambda: self.hotkey("stand_all"), advise)]
