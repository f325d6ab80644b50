"""One online game: its engine ``Game``, its seats, who is asked what, and what each viewer is sent.

Everything here runs in the server's one event loop: a command is checked, applied, stored and its
events queued without an ``await`` in between, so two commands of one game never interleave. One thing
runs elsewhere: a ``strong`` computer seat works out its answer in a worker thread (``think``), so other
games go on meanwhile. While it thinks the game's ``lock`` is held and every command for that game waits
for it (``app.Server.handler``); the answer is then given, stored and sent in the loop, as any automatic
answer, so the stored history is the same as if it had been worked out in place.

**Who is asked (the prompt and timing rule).** Online games run the engine with ``prompt_all`` on: the
engine offers every opportunity to every player, whether or not he has a legal play. The server then
passes an *optional* window (an action window other than the seat's own marshalling, a response or a
save/cancel opportunity) for a seat unless the seat's explicit stop settings (``protocol.Stops``: the
phases whose action windows stop, responses, saves, "only my own challenges") select it. Those settings
read public facts only (the decision's kind, the phase, who attacks and defends), never whether the seat
could play: so which prompts a seat gets, the automatic passes every seat sees in the log and their
timing are the same whatever the hidden cards are. (The table's "when I have a legal play" setting is
not offered online: it would pass instantly exactly when a player has nothing.) Every other decision
is always asked. A computer seat answers everything itself.
"""
from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import re
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import msgspec

from engine.advise import free_move
from engine.ai import make_player
from engine.decisions import GameOver, Refused
from engine.game import Game, Options
from engine.visibility import visible_cards
from engine.replay import ReplayError, _decode, _encode, apply_history, start_from_spec
from server import protocol as P
from server.views import UnknownCard, Viewer, card_def, map_answer, map_move

OPTIONAL_KINDS = ("action", "response", "save_cancel")
MAX_AUTO = 50_000
"""Automatic answers in a row (passes, computer answers) before the server stops and reports."""
RULE_ID = re.compile(r"\b([A-Z]{2,4}-\d{2}[a-z]?)\b")
STRONG_ROLLOUTS = 5
"""Rollouts a ``strong`` computer seat plays per decision (its answer depends only on its view and seed; it runs
in a worker thread with its game locked, and a search that passes ``STRONG_TIME_LIMIT`` seconds is dropped for
the rules of thumb)."""
STRONG_TIME_LIMIT = 1.0


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def rule_of(message: str) -> str | None:
    m = RULE_ID.search(message)
    return m[1] if m else None


@dataclass
class Seat:
    idx: int
    name: str
    token_hash: str | None = None
    deck: str | None = None
    computer: str | None = None
    handed: bool = False
    """A person's seat handed to the computer while he was away (he takes it back by resuming)."""
    stops: P.Stops = field(default_factory=P.Stops)
    away_since: float | None = None
    player: Any = None

    @property
    def person(self) -> bool:
        return self.computer is None

    def record(self) -> dict:
        return {"idx": self.idx, "name": self.name, "token_hash": self.token_hash, "deck": self.deck,
                "computer": self.computer, "handed": self.handed, "stops": msgspec.to_builtins(self.stops)}


class CommandError(Exception):
    """A command that cannot be taken now: becomes an ``error`` message (nothing changed)."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


class AnswerRefused(Exception):
    """The engine (or the view's ids) refused an answer: becomes a ``refused`` message."""


class Room:
    def __init__(self, server, record: dict):
        self.server = server
        self.store = server.store
        self.id: str = record["id"]
        self.invite: str = record["invite"]
        self.title: str = record.get("title", "")
        self.options: dict = record["options"]
        self.creator: str | None = record.get("creator")
        self.status: str = record["status"]
        self.seq: int = record.get("seq", 0)
        self.winner: str | None = record.get("winner")
        self.reason: str | None = None
        self.problem: str | None = record.get("problem")
        self.seats = [Seat(idx=s["idx"], name=s["name"], token_hash=s.get("token_hash"), deck=s.get("deck"),
                           computer=s.get("computer"), handed=bool(s.get("handed")),
                           stops=msgspec.convert(s.get("stops") or {}, P.Stops)) for s in record["seats"]]
        self.game: Game | None = None
        self.spec: dict | None = record.get("spec")
        self.auto: list[bool] = []
        self.chat: list[P.ChatLine] = [P.ChatLine(**c) for c in record.get("chat", [])][-200:]
        self.viewers: dict[str | None, Viewer] = {}
        self.conns: set = set()
        self.undo: dict | None = None
        self.views: dict[str | None, tuple[int, P.View, set[str]]] = {}
        self.log_sent: int = 0
        """Log lines covered by the events so far (an event carries the lines after it)."""
        self.digest: str | None = record.get("digest")
        self._base: dict | None = None
        self.last_used = time.time()
        self._base_bytes: bytes | None = None
        self.lock = asyncio.Lock()
        """Held while a computer seat thinks in a worker thread: the game's commands wait for it."""
        self.thinking: asyncio.Task | None = None
        self.advice: tuple[str | None, list[str]] = (None, [])
        """Advise mode: the seat whose last answer or free move broke rules, and those rules (its view's
        ``warnings``)."""

    # -- seats ------------------------------------------------------------------------------------------
    def seat(self, name: str) -> Seat:
        for s in self.seats:
            if s.name == name:
                return s
        raise CommandError("not_found", f"there is no seat {name!r} in this game")

    def people(self) -> list[Seat]:
        return [s for s in self.seats if s.person]

    def connected(self, seat: str) -> bool:
        return any(c.seat == seat for c in self.conns)

    def viewer(self, seat: str | None) -> Viewer:
        v = self.viewers.get(seat)
        if v is None:
            v = self.viewers[seat] = Viewer(seat, unsafe=self.server.unsafe_no_filter)
        return v

    # -- starting and loading --------------------------------------------------------------------------
    def start(self) -> None:
        """Every person's seat is taken: deal (a fresh secret seed) and play until a person is asked."""
        decks = {s.name: self.server.read_deck(s.deck, self.options) for s in self.seats}
        seed = self.server.new_seed()
        self.game = self.server.new_game(decks, seed, self.options)
        self.spec = dict(self.game.setup_spec)
        self.spec["seats"] = [s.name for s in self.seats]
        self.status = "playing"
        self._make_players()
        self.store.update(self.id, spec=self.spec, engine=self.server.engine_version,
                          cards_hash=self.server.cards_hash(self.spec), status="playing")
        self.auto = []
        self._after_change(0, force=True)

    def load(self, record: dict) -> None:
        """Rebuild the game from its start and its answers; check the digest (and report, never change, a
        game that no longer replays the same)."""
        if self.spec is None:
            return
        history = record["history"]
        try:
            game = start_from_spec(self.spec, self.server.pool,
                                   Options(prompt_all=True, mode=self.options.get("mode", "enforce")))
            apply_history(game, [(p, _decode(a)) for p, a, _ in history])
        except (ReplayError, KeyError, ValueError, TypeError) as err:
            self._broken(f"it no longer replays: {err}")
            return
        changed = []
        if record.get("engine") != self.server.engine_version:
            changed.append("engine")
        if record.get("cards_hash") != self.server.cards_hash(self.spec):
            changed.append("card data")
        if self.digest and game.state.digest() != self.digest:
            what = " and ".join(changed) or "nothing recorded"
            self._broken(f"replayed to another digest (changed since it was stored: {what})")
            return
        self.game = game
        self._base_bytes = None
        self.auto = [auto for _, _, auto in history]
        self.log_sent = len(game.state.log)
        self._make_players()
        if changed:
            self.server.report(f"game {self.id}: {' and '.join(changed)} changed since it was stored; it replays "
                               f"to the same digest")
            self.store.update(self.id, engine=self.server.engine_version,
                              cards_hash=self.server.cards_hash(self.spec))
        d = game.advance()
        if self.status == "playing" and not isinstance(d, GameOver) and (self.seat(d.player).computer or
                                                                          not self.asks(d)):
            self._after_change(len(game.history))  # answers the server owed when it stopped

    def _broken(self, why: str) -> None:
        self.problem = why
        self.status = "broken"
        self.server.report(f"game {self.id} is not loaded: {why}. Its stored data is kept as it is.")

    def _make_players(self) -> None:
        for s in self.seats:
            s.player = None
            if s.computer:
                s.player = make_player(s.computer, seed=int(hashlib.sha256(f"{self.id}/{s.idx}".encode())
                                                             .hexdigest()[:8], 16),
                                       rollouts=STRONG_ROLLOUTS, time_limit=STRONG_TIME_LIMIT)

    # -- the automatic answers --------------------------------------------------------------------------
    def asks(self, d) -> bool:
        """Whether the server stops for the seat of decision ``d`` (module docstring: public facts only)."""
        if not d.can_pass or d.kind not in OPTIONAL_KINDS:
            return True
        st = self.game.state
        if d.kind == "action" and st.phase == "marshalling" and st.active_player == d.player:
            return True
        stops = self.seat(d.player).stops
        ask = (st.phase in stops.actions if d.kind == "action" else
               stops.responses if d.kind == "response" else stops.saves)
        if ask and stops.own_challenges_only and st.phase == "challenges":
            ch = st.challenge
            ask = ch is not None and not ch.ended and d.player in (ch.attacker, ch.defender)
        return ask

    def run_auto(self) -> None:
        g = self.game
        for _ in range(MAX_AUTO):
            d = g.advance()
            if isinstance(d, GameOver) or d is None:
                return
            seat = self.seat(d.player)
            if seat.computer and self.thinks_apart(seat):
                return  # worked out in a worker thread (``think``), once this change is stored and sent
            if seat.computer:
                try:
                    seat.player.play_turn(g)
                except Refused:
                    raise
                except Exception:  # noqa: BLE001 - a computer player's bug must not stop the game
                    logging.getLogger("maester.server").exception("computer seat %s failed", seat.name)
                    if not self._least_answer(d):
                        self.server.report(f"game {self.id}: the computer seat {seat.name} found no answer")
                        return
            elif not self.asks(d):
                g.answer(d.player, {"pass": True})
            else:
                return
            self.auto.extend([True] * (len(g.history) - len(self.auto)))
        self.server.report(f"game {self.id}: {MAX_AUTO} automatic answers in a row; stopped")

    def thinks_apart(self, seat: Seat) -> bool:
        """Whether ``seat``'s answers are worked out in a worker thread: a ``strong`` computer seat, when the
        server's loop is running (a game loaded outside it answers in place)."""
        if seat.computer != "strong" or not hasattr(seat.player, "give"):
            return False
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return False
        return True

    def _schedule_thinking(self) -> None:
        g = self.game
        if g is None or self.status != "playing" or (self.thinking is not None and not self.thinking.done()):
            return
        d = g.advance()
        if not isinstance(d, GameOver) and d is not None and self.seat(d.player).computer \
                and self.thinks_apart(self.seat(d.player)):
            self.thinking = asyncio.get_running_loop().create_task(self.think())

    async def think(self) -> None:
        """Let the computer seats whose turn it is answer, each working out its answer in a worker thread
        while the game is locked; each answer (and the automatic ones after it) is stored, then sent."""
        async with self.lock:
            while self.status == "playing" and self.game is not None and self.server.rooms.get(self.id) is self:
                g = self.game
                d = g.advance()
                if isinstance(d, GameOver) or d is None:
                    return
                seat = self.seat(d.player)
                player = seat.player
                if not seat.computer or not self.thinks_apart(seat):
                    return
                first = len(g.history)
                try:
                    candidates = await asyncio.to_thread(player.candidates, g, d)
                except Exception:  # noqa: BLE001 - a computer player's bug must not stop the game
                    logging.getLogger("maester.server").exception("computer seat %s failed", seat.name)
                    candidates = []
                if self.game is not g or len(g.history) != first or seat.player is not player \
                        or self.server.rooms.get(self.id) is not self:
                    return  # the game was reloaded, or the seat taken back, meanwhile
                try:
                    try:
                        player.give(g, d, candidates)
                    except Refused:
                        raise
                    except Exception:  # noqa: BLE001 - as in ``run_auto``
                        logging.getLogger("maester.server").exception("computer seat %s failed", seat.name)
                        if not self._least_answer(d):
                            self.server.report(f"game {self.id}: the computer seat {seat.name} found no answer")
                            return
                    self.auto.extend([True] * (len(g.history) - len(self.auto)))
                    self._after_change(first)
                except Exception:  # noqa: BLE001 - logged; the game is reloaded from what is stored
                    logging.getLogger("maester.server").exception("game %s: a computer answer failed", self.id)
                    if self.server.rooms.get(self.id) is self:
                        self.server.reload(self)
                    return

    def _least_answer(self, d) -> bool:
        """Pass, or the first listed option: what a computer seat gives when its player fails."""
        for answer in ([{"pass": True}] if d.can_pass else []) + list(d.options):
            try:
                self.game.answer(d.player, answer)
                return True
            except Refused:
                continue
        return False

    def _after_change(self, first: int, *, force: bool = False, chat_only: bool = False) -> int:
        """Run the automatic answers, store every answer from ``first`` on (before anything is sent), and
        send each viewer its event. Returns the new ``seq``."""
        g = self.game
        if g is not None:
            self.auto.extend([False] * (len(g.history) - len(self.auto)))  # the person's own answer
        if g is not None and self.status == "playing":
            self.run_auto()
            if isinstance(g.advance(), GameOver):
                self.status = "over"
                self.winner = g.result.winner
                self.reason = g.result.reason
        entries = []
        if g is not None:
            self.auto.extend([False] * (len(g.history) - len(self.auto)))
            entries = [(p, _encode(a), self.auto[first + i]) for i, (p, a) in enumerate(g.history[first:])]
        self.seq += 1
        fields = dict(seq=self.seq, status=self.status, winner=self.winner)
        if g is not None:
            st = g.state
            d = g.advance()
            self.digest = self.fresh_digest()
            fields.update(answers=len(g.history), digest=self.digest, round=st.round, phase=st.phase,
                          waiting=[d.player] if self.status == "playing" and d is not None
                          and not isinstance(d, GameOver) else [])
        try:
            self.store.append(self.id, first, entries, **fields)
        except Exception:
            self.server.reload(self)  # memory went ahead of the disk: back to what is stored
            raise CommandError("internal", "the server could not store the game; nothing changed, try again")
        self.broadcast()
        self.advice = (None, [])  # sent with this event only
        self._schedule_thinking()
        return self.seq

    # -- commands ---------------------------------------------------------------------------------------
    def _playing(self, seat: str | None) -> Game:
        if seat is None:
            raise CommandError("forbidden", "spectators watch; they cannot play")
        if self.status != "playing" or self.game is None:
            raise CommandError("not_playing", f"the game is {self.status}" +
                               (" (waiting for players to join)" if self.status == "waiting" else ""))
        return self.game

    def _translate(self, seat: str, value: dict, mapper: Callable) -> tuple[dict, dict[int, Any]]:
        """``value`` with the seat's view ids turned into engine ids. A card the seat may not see is refused
        with one message whatever it is (unless its decision offers it as a choice), so refusals cannot be
        used to probe hidden cards."""
        viewer = self.viewer(seat)
        used: dict[int, Any] = {}
        g = self.game
        d = g.advance()
        offered = set(d.choices) if not isinstance(d, GameOver) and d.player == seat else set()
        seen: list = []  # worked out at the first card id (most answers name none)

        def f(vid):
            eid = viewer.to_engine(vid)
            if not viewer.unsafe:
                if not seen:
                    seen.append(visible_cards(g, seat))
                if eid not in seen[0] and eid not in offered:
                    raise UnknownCard(vid, hidden=True)
            used[eid] = vid
            return eid
        try:
            return mapper(value, f), used
        except UnknownCard as err:
            raise AnswerRefused(str(err)) from None

    def _refusal(self, seat: str, err: Exception, used: dict) -> AnswerRefused:
        v = self.viewer(seat)
        return AnswerRefused(v.scrub(v.scrub_engine_ids(str(err), used))[:1000])

    def answer(self, seat: str, answer: dict, at: int | None) -> int:
        g = self._playing(seat)
        d = g.advance()
        if isinstance(d, GameOver):
            raise CommandError("not_playing", "the game is over")
        if d.player != seat:
            raise AnswerRefused(f"it is not your decision: the game waits for {d.player}")
        if at is not None and at != len(g.history):
            raise AnswerRefused(f"that answer is for decision {at}; the pending one is {len(g.history)}")
        engine_answer, used = self._translate(seat, answer, map_answer)
        first = len(g.history)
        try:
            g.answer(seat, engine_answer)
        except Refused as err:
            raise self._refusal(seat, err, used) from None
        self.undo = None
        self.advice = (seat, list(g.warnings))  # before the automatic answers clear them
        return self._after_change(first)

    def free(self, seat: str, move: dict, at: int | None) -> int:
        g = self._playing(seat)
        if g.options.mode != "advise":
            raise AnswerRefused("free moves are for advise mode; this game enforces the rules")
        if at is not None and at != len(g.history):
            raise AnswerRefused(f"that move is for decision {at}; the game is at {len(g.history)}")
        engine_move, used = self._translate(seat, move, map_move)
        first = len(g.history)
        try:
            broken = free_move(g, seat, engine_move)
        except Refused as err:
            raise self._refusal(seat, err, used) from None
        self.undo = None
        self.advice = (seat, broken)
        return self._after_change(first)

    def concede(self, seat: str) -> int:
        g = self._playing(seat)
        first = len(g.history)
        try:
            g.concede(seat)
        except Refused as err:
            raise AnswerRefused(str(err)) from None
        self.undo = None
        return self._after_change(first)

    def say(self, seat: str | None, text: str) -> int:
        if seat is None:
            raise CommandError("forbidden", "spectators cannot chat")
        if not text.isprintable():
            raise CommandError("bad_message", "chat text: printable characters only")
        line = P.ChatLine(seq=self.seq + 1, seat=seat, text=text, time=time.time())
        self.store.add_chat(self.id, line.seq, seat, text, line.time)
        self.seq = line.seq
        self.chat = (self.chat + [line])[-200:]
        for c in list(self.conns):
            c.send(P.Event(game=self.id, seq=self.seq, chat=line))
        return self.seq

    def set_stops(self, seat: str | None, stops: P.Stops) -> int:
        if seat is None:
            raise CommandError("forbidden", "spectators have no stop settings")
        s = self.seat(seat)
        s.stops = stops
        self.store.save_seat(self.id, s.record())
        if self.status == "playing" and self.game is not None:
            d = self.game.advance()
            if not isinstance(d, GameOver) and d.player == seat and not self.asks(d):
                return self._after_change(len(self.game.history))
        return self.seq

    # undo: a request every other person accepts; then the history is replayed without the last answer
    def ask_undo(self, seat: str) -> int:
        g = self._playing(seat)
        k = next((i for i in range(len(g.history) - 1, -1, -1) if not self.auto[i]), None)
        if k is None or g.history[k][0] != seat:
            raise CommandError("forbidden", "only the last answer a person gave can be taken back, by him")
        others = [s.name for s in self.people() if s.name != seat]
        self.undo = {"by": seat, "at": k, "accepted": set()}
        if not others:
            return self._do_undo()
        self.notice(f"{seat} asks to take back his last answer", kind="undo")
        self.broadcast()
        return self.seq

    def reply_undo(self, seat: str, accept: bool) -> int:
        self._playing(seat)
        u = self.undo
        if u is None:
            raise CommandError("not_found", "nobody asked to take an answer back")
        if seat == u["by"]:
            raise CommandError("forbidden", "the other players answer your request")
        if not accept:
            self.undo = None
            self.notice(f"{seat} refuses to take back {u['by']}'s answer", kind="undo")
            self.broadcast()
            return self.seq
        u["accepted"].add(seat)
        if all(s.name in u["accepted"] for s in self.people() if s.name != u["by"]):
            return self._do_undo()
        return self.seq

    def _do_undo(self) -> int:
        keep = self.undo["at"]
        by = self.undo["by"]
        self.undo = None
        g = start_from_spec(self.spec, self.server.pool,
                            Options(prompt_all=True, mode=self.options.get("mode", "enforce")))
        apply_history(g, [(p, a) for p, a in self.game.history[:keep]])
        self.game = g
        self._base_bytes = None
        self.auto = self.auto[:keep]
        self.status, self.winner, self.reason = "playing", None, None
        self.seq += 1
        st = g.state
        d = g.advance()
        self.digest = self.fresh_digest()
        self.store.truncate(self.id, keep, seq=self.seq, status=self.status, winner=None, answers=keep,
                            digest=self.digest, round=st.round, phase=st.phase,
                            waiting=[d.player] if not isinstance(d, GameOver) else [])
        self.log_sent = 0
        self.views.clear()
        self.notice(f"{by}'s last answer is taken back", kind="undo")
        for c in list(self.conns):
            c.snapshot(self)
        self.log_sent = len(g.state.log)
        return self.seq

    def away_action(self, seat: str | None, target: str, action: str, level: str) -> int:
        self._playing(seat)
        t = self.seat(target)
        if not t.person or t.away_since is None:
            raise CommandError("forbidden", f"{target} is not away")
        waited = time.time() - t.away_since
        limit = self.options.get("away_minutes", 10) * 60
        if waited < limit:
            raise CommandError("forbidden", f"{target} has been away {int(waited // 60)} min; the game's creator "
                                            f"chose to wait {limit // 60} min")
        if action == "end":
            self.status, self.winner, self.reason = "ended", None, f"ended without a winner: {target} was away"
            self.notice(f"{seat} ends the game without a winner ({target} is away)")
            return self._after_change(len(self.game.history))
        t.computer, t.handed = level, True
        self.store.save_seat(self.id, t.record())
        self._make_players()
        self.notice(f"{seat} hands {target}'s seat to the computer ({level})")
        return self._after_change(len(self.game.history))

    def take_back(self, seat: Seat) -> None:
        """A person resumes a seat handed to the computer while he was away."""
        if seat.handed:
            seat.computer, seat.handed, seat.player = None, False, None
            self.store.save_seat(self.id, seat.record())

    def fresh_digest(self) -> str:
        """``GameState.digest()``, keeping the plain state for the views built next (one ``to_dict``)."""
        self._base = self.game.state.to_dict()
        blob = json.dumps(self._base, sort_keys=True, separators=(",", ":"))
        self._base_bytes = msgspec.json.encode({k: v for k, v in self._base.items() if k not in ("log", "rng_state")})
        return hashlib.sha256(blob.encode()).hexdigest()

    def state_copy(self) -> dict:
        if self._base_bytes is None:
            self.fresh_digest()
        return msgspec.json.decode(self._base_bytes)

    # -- what is sent ----------------------------------------------------------------------------------
    def seat_infos(self) -> list[P.SeatInfo]:
        now = time.time()
        out = []
        for s in self.seats:
            if s.computer:
                out.append(P.SeatInfo(name=s.name, kind="computer", connected=True))
            elif s.token_hash is None:
                out.append(P.SeatInfo(name=s.name, kind="open"))
            else:
                here = self.connected(s.name)
                out.append(P.SeatInfo(name=s.name, kind="person", connected=here,
                                      away_s=None if here or s.away_since is None else int(now - s.away_since)))
        return out

    def view_for(self, seat: str | None, *, full: bool) -> tuple[P.View, set[str]]:
        """The view of ``seat`` now; ``full``: the whole log (a snapshot), else the lines since the last
        event. Built once per viewer and event."""
        key = (seat, full)
        held = self.views.get(key)
        if held is not None and held[0] == (self.seq, self.log_sent):
            return held[1], held[2]
        v = self.viewer(seat)
        g = self.game
        state = decision = None
        keys: set[str] = set()
        log: list[str] = []
        start = 0
        waiting: list[str] = []
        warnings: list[str] = []
        if g is not None:
            state, keys = v.build(g, self.state_copy())
            start = 0 if full else self.log_sent
            log = [v.scrub(line) for line in g.state.log[start:]]
            d = g.advance()
            if not isinstance(d, GameOver) and d is not None and self.status == "playing":
                waiting = [d.player]
                if d.player == seat:
                    decision = P.DecisionMsg(**v.decision(d, len(g.history)))
            if seat is not None and self.advice[0] == seat:
                warnings = [v.scrub(w) for w in self.advice[1]]
        view = P.View(at=len(g.history) if g else 0, status=self.status, seats=self.seat_infos(), state=state,
                      log=log, log_start=start, decision=decision, waiting_for=waiting, winner=self.winner,
                      reason=v.scrub(self.reason or self.problem or "") or None, undo_asked_by=self.undo["by"] if self.undo else None,
                      warnings=warnings, you=seat)
        self.views[key] = ((self.seq, self.log_sent), view, keys)
        return view, keys

    def defs_for(self, keys: set[str], sent: set[str]) -> dict:
        pool = self.server.pool
        out = {}
        for k in sorted(keys - sent):
            d = pool.get(k) if self.game is None else self.game.pool.get(k)
            if d is not None:
                out[k] = card_def(d)
        sent |= keys
        return out

    def broadcast(self) -> None:
        """Send every connection the event for the current ``seq`` (its viewer's content)."""
        self.views.clear()
        for c in list(self.conns):
            view, keys = self.view_for(c.seat, full=False)
            defs = self.defs_for(keys, c.sent_keys)
            c.send(P.Event(game=self.id, seq=self.seq, view=msgspec.structs.replace(view, defs=defs) if defs
                           else view))
        if self.game is not None:
            self.log_sent = len(self.game.state.log)
        self.views.clear()

    def snapshot_msg(self, seat: str | None, sent: set[str], last_seq: int = 0) -> P.Snapshot:
        view, keys = self.view_for(seat, full=True)
        sent.clear()
        defs = self.defs_for(keys, sent)
        return P.Snapshot(game=self.id, seq=self.seq, view=msgspec.structs.replace(view, defs=defs),
                          chat=[c for c in self.chat if c.seq > last_seq])

    def notice(self, text: str, kind: str = "info", seats: list[P.SeatInfo] | None = None) -> None:
        for c in list(self.conns):
            c.send(P.Notice(game=self.id, text=text, kind=kind, seats=seats))
