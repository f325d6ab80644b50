"""Online play at the table: the same table, fed by a Maester server (docs/protocol.md, docs/table.md).

- ``NetWorker`` is a ``QThread`` running the asyncio client (``server.client.Client``) in its own event
  loop. It talks to the table only through Qt signals (queued to the UI thread), and the table sends it
  commands with ``command()`` (thread-safe, never waits): the UI never blocks on the network. The client
  reconnects on its own and resumes with its seat token and the last sequence number it saw.
- ``OnlineController`` is the table's controller for an online game: its game is a read-only ``ViewGame``
  rebuilt from every view the server sends (``GameState.from_dict`` of the view's state, a pool of the
  definitions received; hidden cards have the key ``hidden``), so the table draws it exactly as it draws
  a local game. Gestures become the same engine answers as locally; they go to the server as ``answer``
  messages (with the view's card ids), and a refusal comes back to the prompt bar like a local one.
- ``OnlineGame`` ties one connection to a ``TableWindow``: it starts the controller when the first view
  with a game arrives, shows "Connecting…", "Bob is away (2 min)", "reconnected" in the status bar (and
  notices in the prompt bar), and keeps the seat token in the user's data folder (``SeatBook``).

Nothing here decides what a seat may see: the server sends each seat only what ``engine.visibility``
allows, and the table still draws every card through ``may_see``.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from PySide6.QtCore import QObject, QThread, Signal
from PySide6.QtWidgets import QLabel

from app.controller import TableController
from engine.decisions import Decision, GameOver, Refused
from engine.game import Game, Options
from engine.state import GameState

DEFAULT_SERVER = "ws://127.0.0.1:8765"
SEATS_FILE = "online/seats.json"
"""Seat tokens of the user's online games, in the user data folder (``cards.pool.user_data_dir``); the
``online`` folder is its owner's only (0700) and the file too (0600)."""
INVITE = re.compile(r"^[A-Za-z0-9_-]{4,32}$")
STOPS = {
    "usual": "in the action windows of marshalling and challenges, in responses and saves",
    "always": "in every window",
    "own": "in every window, but in challenges only my own (attacking or defending)",
    "never": "never for optional windows",
}
"""Online stop settings (the server's ``Stops``): they read only public facts, so the prompts a seat gets,
and when, tell the others nothing. "When I have a legal play" is not offered online (docs/protocol.md)."""
PHASES = ["setup", "plot", "draw", "marshalling", "challenges", "dominance", "standing", "taxation"]


# -- where a game is: server URL and invite code -------------------------------------------------------
def parse_target(text: str, server: str | None = None) -> tuple[str, str]:
    """``ws://host:port/CODE`` (or ``wss://``), or a bare ``CODE`` with ``server`` -> (server URL, code).
    Raises ``ValueError`` with one line saying what is wrong."""
    text = (text or "").strip()
    if "://" in text:
        parts = urlsplit(text)
        if parts.scheme not in ("ws", "wss") or not parts.netloc:
            raise ValueError(f"{text}: an invite link looks like ws://HOST:PORT/CODE (or wss://)")
        code = parts.path.strip("/") or parts.fragment or parts.query.partition("=")[2]
        if not INVITE.match(code):
            raise ValueError(f"{text}: the link has no invite code after the server (ws://HOST:PORT/CODE)")
        return f"{parts.scheme}://{parts.netloc}", code
    if not INVITE.match(text):
        raise ValueError(f"{text or '(empty)'}: an invite code is 4-32 letters, digits, - or _ "
                         f"(or paste the whole link ws://HOST:PORT/CODE)")
    return normal_server(server or DEFAULT_SERVER), text


def normal_server(url: str) -> str:
    """``host:port`` -> ``ws://host:port``; a URL is kept (without a trailing slash)."""
    url = (url or "").strip().rstrip("/")
    if not url:
        raise ValueError("no server given (e.g. ws://127.0.0.1:8765)")
    if "://" not in url:
        url = "ws://" + url
    parts = urlsplit(url)
    if parts.scheme not in ("ws", "wss") or not parts.netloc:
        raise ValueError(f"{url}: a server is ws://HOST:PORT (or wss://HOST:PORT with TLS)")
    return f"{parts.scheme}://{parts.netloc}"


def invite_link(server: str, invite: str) -> str:
    return f"{server.rstrip('/')}/{invite}"


# -- the seat tokens kept by the client ---------------------------------------------------------------
@dataclass
class SeatRecord:
    server: str
    token: str
    game: str = ""
    invite: str = ""
    seat: str = ""
    title: str = ""
    mode: str = "enforce"
    stops: str = "usual"
    """When the server stops for this seat (``STOPS``): sent again whenever the table comes back."""
    joined: float = field(default_factory=time.time)


class SeatBook:
    """``online/seats.json`` in the user data folder: every seat token this user holds (a token is all a
    seat needs to come back; the file is readable by its owner only), and the last server used."""

    def __init__(self, path: str | Path | None = None):
        if path is None:
            from cards.pool import user_data_dir

            path = user_data_dir() / SEATS_FILE
        self.path = Path(path)
        self.seats: list[SeatRecord] = []
        self.server: str | None = None
        self.problem: str | None = None
        self.load()

    def load(self) -> None:
        self.seats, self.server, self.problem = [], None, None
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return
        except (OSError, ValueError) as err:
            self.problem = f"{self.path}: cannot be read ({err}); your online games are still on their servers"
            return
        if not isinstance(data, dict):
            self.problem = f"{self.path}: not a seat list"
            return
        self.server = data.get("server") if isinstance(data.get("server"), str) else None
        for item in data.get("seats") or []:
            if isinstance(item, dict) and isinstance(item.get("server"), str) and isinstance(item.get("token"), str):
                known = {k: v for k, v in item.items() if k in SeatRecord.__dataclass_fields__}
                try:
                    self.seats.append(SeatRecord(**known))
                except TypeError:
                    continue

    def save(self) -> None:
        from cards.files import atomic_write

        data = {"format": "maester-online-seats", "server": self.server,
                "seats": [asdict(s) for s in self.seats]}
        if self.path.parent.name == "online":  # the temporary file is never readable by others either
            self.path.parent.mkdir(parents=True, exist_ok=True)
            os.chmod(self.path.parent, 0o700)
        atomic_write(self.path, json.dumps(data, indent=1))
        os.chmod(self.path, 0o600)

    def add(self, record: SeatRecord) -> None:
        self.seats = [s for s in self.seats if s.token != record.token]
        self.seats.insert(0, record)
        self.server = record.server
        self.save()

    def update(self, token: str, **fields) -> None:
        for s in self.seats:
            if s.token == token:
                for k, v in fields.items():
                    setattr(s, k, v)
        self.save()

    def forget(self, token: str) -> None:
        self.seats = [s for s in self.seats if s.token != token]
        self.save()

    def find(self, token: str) -> SeatRecord | None:
        return next((s for s in self.seats if s.token == token), None)

    def servers(self) -> list[str]:
        return list(dict.fromkeys(s.server for s in self.seats))


# -- the network thread -----------------------------------------------------------------------------
class NetWorker(QThread):
    """The asyncio client in a thread of its own. ``first`` (a name of a ``Client`` command and its
    arguments: ``("create", seats, options)``, ``("join", invite, seat, deck)``, ``("resume", token)``,
    ``("my_games", tokens)``) is sent once connected; with ``keep=False`` the worker stops after its reply."""

    received = Signal(object)
    """A ``Snapshot``, ``Event``, ``Notice``, ``Attached`` (after a reconnection) or unasked ``Error``."""
    replied = Signal(str, object)
    """(command, its reply or the exception it ended with: ``AnswerRefused``, ``ServerError``...)."""
    status = Signal(str, str)
    """(state, text): ``connecting``, ``connected``, ``lost``, ``reconnected``, ``failed``."""

    tries = 10
    """Attempts to reach the server at first (about 30 s with the back-off) before saying it cannot."""

    def __init__(self, url: str, first: tuple, *, keep: bool = True, timeout: float = 20.0, parent=None):
        super().__init__(parent)
        self.url, self.first, self.keep, self.timeout = url, first, keep, timeout
        self.loop: asyncio.AbstractEventLoop | None = None
        self.client = None
        self._stop: asyncio.Event | None = None
        self._halt = threading.Event()  # stop() before the loop runs

    def run(self) -> None:  # the worker thread
        try:
            asyncio.run(self._main())
        except Exception as err:  # noqa: BLE001 - said in one line, never a traceback at the player
            self.status.emit("failed", f"the connection failed: {err}")

    async def _main(self) -> None:
        import websockets

        from server.client import Client, ServerError

        self._stop = asyncio.Event()
        self.loop = asyncio.get_running_loop()
        if self._halt.is_set():
            self._stop.set()
        if self.keep:
            self.local_pool = local_pool()  # read here, off the UI thread (the log links this pool's card names)
        self.client = c = Client(self.url, timeout=self.timeout)
        delay, tries = 0.2, 0
        while not self._stop.is_set():
            self.status.emit("connecting", f"Connecting to {self.url}\u2026")
            try:
                await self._unless_stopped(c.connect())  # stopped first: the loop ends below
                break
            except (websockets.InvalidURI, ValueError) as err:
                self.status.emit("failed", f"{self.url}: not a server address ({err})")
                return
            except (OSError, asyncio.TimeoutError, websockets.InvalidHandshake, websockets.ConnectionClosed) as err:
                tries += 1
                if tries >= (self.tries if self.keep else 3):
                    self.status.emit("failed", f"cannot reach {self.url} ({err or type(err).__name__}); is "
                                               f"maester-server running there?")
                    return
                self.status.emit("connecting", f"Connecting to {self.url}\u2026 (not reachable: "
                                               f"{type(err).__name__}; trying again)")
                try:
                    await asyncio.wait_for(self._stop.wait(), delay)
                except asyncio.TimeoutError:
                    pass
                delay = min(delay * 2, 5.0)
        if self._stop.is_set():
            await c.close()
            return
        self.status.emit("connected", f"Connected to {self.url}")
        what, *args = self.first
        try:
            call = c.create(args[0], **args[1]) if what == "create" else getattr(c, what)(*args)
            done, reply = await self._unless_stopped(call, result=True)
            if not done:
                await c.close()
                return
        except ServerError as err:
            self.replied.emit(what, err)
            self.status.emit("failed", err.message)
            await c.close()
            return
        except Exception as err:  # noqa: BLE001 - ConnectionLost, a timeout
            self.replied.emit(what, err)
            self.status.emit("failed", f"{what}: {err or type(err).__name__}")
            await c.close()
            return
        self.replied.emit(what, reply)
        if not self.keep:
            await c.close()
            return
        from server.protocol import Attached

        up, seen = True, c.reconnects
        while not self._stop.is_set():
            try:
                msg = await c.next_event(0.25)
            except asyncio.TimeoutError:
                msg = None
            if up and not c.connected:
                up = False
                self.status.emit("lost", "Connection lost \u2014 reconnecting\u2026")
            if msg is not None:
                if isinstance(msg, Attached) and (not up or c.reconnects != seen):  # resumed after a drop
                    up, seen = True, c.reconnects
                    self.status.emit("reconnected", f"Reconnected to {self.url}")
                self.received.emit(msg)
        await c.close()

    async def _unless_stopped(self, coro, result: bool = False):
        """Await ``coro`` unless the worker is stopped first (then it is cancelled): True (and its result)
        when it finished."""
        task = asyncio.ensure_future(coro)
        stop = asyncio.ensure_future(self._stop.wait())
        try:
            await asyncio.wait({task, stop}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            stop.cancel()
        if not task.done():
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
            return (False, None) if result else False
        return (True, task.result()) if result else (task.result() or True)

    def command(self, what: str, *args) -> bool:
        """Send a ``Client`` command from the UI thread (returns at once; the reply comes by ``replied``)."""
        loop = self.loop
        if loop is None or self.client is None or loop.is_closed():
            return False
        asyncio.run_coroutine_threadsafe(self._command(what, args), loop)
        return True

    async def _command(self, what: str, args: tuple) -> None:
        try:
            reply = await getattr(self.client, what)(*args)
        except Exception as err:  # noqa: BLE001 - every failure is a reply the table shows
            self.replied.emit(what, err)
            return
        self.replied.emit(what, reply)

    def stop(self, wait_ms: int = 5000) -> None:
        self._halt.set()
        loop, ev = self.loop, self._stop
        if loop is not None and ev is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(ev.set)
            except RuntimeError:  # the loop just closed
                pass
        self.wait(wait_ms)


# -- the game as the seat sees it ------------------------------------------------------------------
class ViewGame(Game):
    """A read-only game over one view: the table draws it; answers go to the server, never to it."""

    next_decision: Decision | GameOver | None = None

    def advance(self):
        return self.next_decision

    def answer(self, player, answer):  # noqa: D401 - nothing is played locally
        raise Refused("online: answers go to the server")


def view_game(state: dict, defs: dict, log: list[str], at: int) -> ViewGame:
    from engine.ai.view import ViewPool

    g = ViewGame.__new__(ViewGame)
    g.state = GameState.from_dict({"seed": 0, "rng_state": None, "log": [], "next_id": 0, **state})
    g.state.log = log
    g.pool = ViewPool(defs)
    g.options = Options(prompt_all=True)
    g.setup_spec, g.pending, g.result, g.warnings, g.conceded = None, None, None, [], []
    g.history = [(None, None)] * at  # only its length is read (how many answers the game holds)
    return g


def local_pool():
    """This Maester's card pool (the practice set and the imported cards), or an empty one."""
    try:
        from cards.pool import default_pool

        return default_pool()
    except Exception:  # noqa: BLE001 - a damaged import cache: the views still draw, without abilities
        return {}


def decision_of(msg, seat: str) -> Decision:
    return Decision(kind=msg.kind, player=seat, prompt=msg.prompt, options=list(msg.options),
                    choices=list(msg.choices), min_count=msg.min_count, max_count=msg.max_count,
                    can_pass=msg.can_pass, context=dict(msg.context))


def away_text(seat) -> str:
    minutes = (seat.away_s or 0) // 60
    return f"{seat.name} is away" + (f" ({minutes} min)" if minutes else "")


class OnlineController(TableController):
    """The table's controller for one online seat (or a spectator: ``seat`` None)."""

    online = True

    def __init__(self, net: "OnlineGame", view, game: ViewGame, parent=None):
        self.net = net
        self.my_seat: str | None = net.seat
        self.view = view
        rec = net.book.find(net.token) if net.book is not None and net.token else None
        self.stops = rec.stops if rec is not None and rec.stops in STOPS else "usual"
        self._mode = net.mode
        self._sent_at: int | None = None
        self._fallback: dict | None = None
        super().__init__(game, computers={}, privacy=False, parent=parent)
        self.viewer = self.my_seat or game.state.player_names[0]
        self.hands_hidden = False

    # -- what is asked ---------------------------------------------------------------------------
    @property
    def humans(self) -> list[str]:
        return [self.my_seat] if self.my_seat else []

    @property
    def seat(self) -> str | None:
        return self.my_seat

    @property
    def decision(self) -> Decision | None:
        d = self.game.next_decision
        return d if isinstance(d, Decision) else None

    @property
    def result(self) -> GameOver | None:
        d = self.game.next_decision
        return d if isinstance(d, GameOver) else None

    @property
    def mode(self) -> str:
        return self._mode

    def set_mode(self, mode: str) -> None:
        if mode != self._mode:
            self.say("Online, the game's mode is the host's choice (set when it was created).", "refused")
        self.changed.emit()

    def my_turn(self) -> bool:
        d = self.decision
        return d is not None and d.player == self.my_seat and d.kind != "waiting"

    def may_see(self, cid) -> bool:
        c = self.game.state.cards.get(cid)
        return c is not None and c.key != "hidden" and super().may_see(cid)

    def prompting_of(self, name: str) -> str:
        return "always"  # the server's stops decide what this seat is asked; nothing is skipped here

    def set_prompting(self, name: str, policy: str) -> None:
        self.set_stops(policy)

    def set_stops(self, policy: str) -> None:
        """When the server asks this seat in optional windows (``STOPS``)."""
        from server.protocol import Stops

        if policy not in STOPS:
            raise ValueError(f"stops: one of {', '.join(STOPS)}, not {policy!r}")
        self.stops = policy
        if self.net.book is not None and self.net.token and self.net.book.find(self.net.token):
            try:
                self.net.book.update(self.net.token, stops=policy)  # kept for this seat's next visits
            except OSError:
                pass
        stops = {"usual": Stops(), "always": Stops(actions=list(PHASES)),
                 "own": Stops(actions=list(PHASES), own_challenges_only=True),
                 "never": Stops(actions=[], responses=False, saves=False)}[policy]
        self.net.command("set_stops", stops)
        self.say(f"The server stops for you {STOPS[policy]}.", "info")

    # -- a new view from the server --------------------------------------------------------------
    def show_view(self, view, game: ViewGame) -> None:
        moved = self.view is None or view.at != self.view.at or self.game.next_decision != game.next_decision
        self.view, self.game = view, game
        if moved:
            self._sent_at = None
            self._fallback = None
            self.selection.clear()
            self.setup_attach.clear()
            broken = list(view.warnings)  # the server sends a seat the rules its own last move broke
            if broken:  # advise mode: the rules the last answer or free move broke (also in the log)
                self.say("Rules broken: " + "; ".join(broken), "warning")
            elif self.last_message[1] == "refused":
                self.say("", "info")  # the game moved on: an old refusal no longer applies
        self.note_public()
        d = self.decision
        if d is not None and self.my_turn() and self.skips(d):  # "pass for the rest of this phase"
            self.pass_()
            return
        self.changed.emit()

    # -- answers go to the server -----------------------------------------------------------------
    def submit(self, answer: dict, *, free: dict | None = None) -> bool:
        d = self.decision
        if self.my_seat is None:
            self.say("You are watching: spectators do not play.", "refused")
            return False
        if d is None or d.kind == "waiting":
            if self.mode == "advise" and free is not None:
                return self.free_move(free)
            self.say("The game is over." if self.result is not None else
                     f"It is not your turn: waiting for {d.player if d else 'the server'}.", "refused")
            return False
        if self._sent_at == self.view.at:
            self.say("Sent \u2014 waiting for the server.", "info")
            return False
        self._sent_at = self.view.at
        self._fallback = free if self.mode == "advise" else None
        self.net.command("answer", dict(answer), self.view.decision.at)
        return True

    def free_move(self, move: dict, *, quiet: bool = False) -> bool:
        if self.mode != "advise":
            return super().free_move(move, quiet=quiet)  # says: enforce mode, only the rules move cards
        if self.my_seat is None:
            self.say("You are watching: spectators do not play.", "refused")
            return False
        self.net.command("free_move", dict(move), self.view.at)
        return True

    def refused(self, what: str, err: Exception) -> None:
        """The server refused a command: the reason goes to the prompt bar, nothing changed."""
        from server.client import AnswerRefused, ConnectionLost, ServerError

        self._sent_at = None
        if isinstance(err, AnswerRefused):
            if what == "answer" and self._fallback is not None:
                move, self._fallback = self._fallback, None
                self.net.command("free_move", move, self.view.at)
                return
            text = err.message if not err.rule or err.rule in err.message else f"{err.message} ({err.rule})"
            self.say(text, "refused")
        elif isinstance(err, ServerError):
            self.say(f"The server refused it: {err.message}", "refused")
        elif isinstance(err, ConnectionLost):
            self.say("The connection dropped before the server answered; it reconnects on its own "
                     "(answer again once the table is back).", "warning")
        else:
            self.say(f"The server did not answer ({type(err).__name__}); try again.", "warning")
        self.changed.emit()

    def concede(self) -> bool:
        if self.my_seat is None or self.result is not None:
            return False
        self.net.command("concede")
        self.say(f"{self.my_seat} concedes.", "info")
        return True

    def request_undo(self) -> bool:
        """Online undo is a request the other players accept (then the server takes the answer back)."""
        if self.my_seat is None:
            return False
        self.net.command("undo")
        self.say("Undo asked: the other players must accept.", "info")
        return True

    def _after_change(self) -> None:
        self.selection.clear()
        self.setup_attach.clear()
        self.changed.emit()

    def start(self) -> None:
        self.changed.emit()

    def autoplay(self, count: int, **kw) -> int:
        return 0


# -- one online game on a window ------------------------------------------------------------------
class OnlineGame(QObject):
    """One connection to a server, shown on ``window`` (an ``app.window.TableWindow``)."""

    started = Signal()
    """The table shows this game (its first view with a game arrived)."""
    failed = Signal(str)
    """It could not start: the reason, one line."""
    attached = Signal(object)
    """The server attached this connection to a game (``Attached``: the invite code, the token)."""

    def __init__(self, window, url: str, first: tuple, *, book: SeatBook | None = None, mode: str = "enforce",
                 title: str = "", worker_factory=NetWorker):
        super().__init__(window)
        self.window, self.url, self.book = window, normal_server(url), book
        self.mode, self.title = mode, title
        self.seat: str | None = None
        self.token: str | None = first[1] if first[0] == "resume" else None
        self.game_id = self.invite = None
        self.defs: dict = {}
        self.log: list[str] = []
        self.chat: list = []
        self.names: dict[str, str] = {}
        self.view = None
        self.controller: OnlineController | None = None
        self.presence = ""
        self.connection = "connecting"
        self.closed = False
        self.worker = worker_factory(self.url, first)
        self.worker.received.connect(self._received)
        self.worker.replied.connect(self._replied)
        self.worker.status.connect(self._status)
        self.worker.start()

    # -- the worker's signals (in the UI thread) ------------------------------------------------------
    def _status(self, state: str, text: str) -> None:
        self.connection = state
        if self.controller is not None and state in ("lost", "reconnected"):
            self.controller.say(text, "warning" if state == "lost" else "info")
        self._show_status(text)
        if state == "failed" and self.controller is None:
            self.failed.emit(text)

    def _replied(self, what: str, reply) -> None:
        from server.protocol import Attached

        if isinstance(reply, Attached):
            self._attached(reply)
            return
        if isinstance(reply, Exception) and self.controller is not None:
            self.controller.refused(what, reply)  # before the table shows, the worker's status says it

    def _attached(self, msg) -> None:
        self.game_id, self.invite, self.seat = msg.game, msg.invite, msg.seat
        if msg.token:
            self.token = msg.token
            if self.book is not None:
                try:
                    self.book.add(SeatRecord(server=self.url, token=msg.token, game=msg.game, invite=msg.invite,
                                             seat=msg.seat or "", title=self.title, mode=self.mode))
                except OSError as err:
                    self._show_status(f"Your seat token could not be kept ({err}): note the invite code "
                                      f"{msg.invite}")
        self.attached.emit(msg)

    def _received(self, msg) -> None:
        try:
            self._receive(msg)
        except Exception as err:  # noqa: BLE001 - one line, never a traceback; the table keeps the last view
            text = f"This table could not show what the server sent ({type(err).__name__}: {err})"
            if self.controller is not None:
                self.controller.say(text, "warning")
            else:
                self.failed.emit(text)

    def _receive(self, msg) -> None:
        from server.protocol import Attached, Error, Event, Notice, Snapshot

        if isinstance(msg, Attached):
            self._attached(msg)
            return
        if isinstance(msg, Notice):
            self._presence_news(msg)
            if self.controller is not None:
                self.controller.say(msg.text, "warning" if msg.kind in ("away", "undo") else "info")
                if msg.kind == "undo" and "asks" in msg.text:
                    self.window.online_undo_asked(msg.text)
            self._show_status()
            return
        if isinstance(msg, Error):
            if self.controller is not None:
                self.controller.say(f"The server: {msg.message}", "warning")
            else:
                self.failed.emit(msg.message)
            return
        if isinstance(msg, Snapshot):
            self.defs, self.log, self.chat = {}, [], list(msg.chat)
            view = msg.view
        elif isinstance(msg, Event):
            view = msg.view
            if msg.chat is not None:
                self.chat.append(msg.chat)
                if self.controller is not None:
                    self._show_chat([msg.chat])
            if view is None:
                return
        else:
            return
        self._take(view, isinstance(msg, Snapshot))

    def _presence_news(self, msg) -> None:
        """A presence notice (``away``/``back``) carries every seat's presence: the status follows at once
        (the next view, which lists the same, replaces it)."""
        if self.view is None or not msg.seats or msg.kind not in ("away", "back"):
            return
        import msgspec

        self.view = msgspec.structs.replace(self.view, seats=list(msg.seats))
        ctl = self.controller
        if ctl is not None and isinstance(ctl.game.next_decision, Decision) and \
                ctl.game.next_decision.kind == "waiting":
            ctl.game.next_decision = self._next(self.view)  # "Bob: is away; the game waits"
            ctl.changed.emit()

    def _take(self, view, snapshot: bool = False) -> None:
        from server.bot import card_from

        local = getattr(self.worker, "local_pool", None) or {}
        new = {k: card_from(d) for k, d in view.defs.items() if k not in self.defs}  # abilities included
        self.defs.update(new)
        del self.log[view.log_start:]
        self.log.extend(view.log)
        self.view = view
        if self.title == "" and self.book is not None and self.token:
            rec = self.book.find(self.token)
            self.title = rec.title if rec else ""
        if view.state is None:  # waiting for players to join
            from app.online_dialogs import waiting_room

            self._show_status()
            waiting_room(self.window, self)
            return
        game = view_game(view.state, self.defs, list(self.log), view.at)
        game.next_decision = self._next(view)
        if self.controller is None:
            from app.dialogs import GameSetup

            self.controller = OnlineController(self, view, game)
            if self.controller.stops != "usual" and self.seat is not None:
                self.controller.set_stops(self.controller.stops)  # this seat's standing settings
            setup = GameSetup(names=list(game.state.player_names), privacy=False, mode=self.mode)
            self.window.start(setup, game=game, controller=self.controller)
            self._link_names(local)
            self.window.online_started(self)
            self.window.setWindowTitle(f"Maester \u2014 online: {self.title or self.game_id}"
                                       + (f" ({self.seat})" if self.seat else " (watching)"))
            self._show_chat(self.chat)
            self.started.emit()
        else:
            if any(d.name not in self.names for d in new.values()):
                self._link_names(local)  # a card this Maester does not know: its name links too
            self.controller.show_view(view, game)
        if self.token and self.book is not None and view.status in ("over", "ended"):
            pass  # a finished game stays in "My online games" (its replay is on the server)
        self._show_status()

    def _link_names(self, local) -> None:
        """Card names in the log link to their preview (of cards the seat was sent): this Maester's pool
        and the definitions received (set once; again only for a name it did not know)."""
        self.names = {d.name: d.key for d in (local.values() if hasattr(local, "values") else [])}
        self.names.update({d.name: d.key for d in self.defs.values()})
        ctl = self.controller
        self.window.log.set_cards(self.names, linkable=lambda key: key in ctl.public_keys)
        self.window.log.sync(ctl.game.state.log)

    def _show_chat(self, lines) -> None:
        for c in lines:
            self.window.log.append(f"<span style='color:#1d4f8a'>&#128172; <b>{_esc(c.seat)}</b>: "
                                   f"{_esc(c.text)}</span>")

    def _next(self, view):
        if view.status in ("over", "ended", "broken"):
            return GameOver(view.winner or "nobody", view.reason or "the game ended without a winner")
        if view.decision is not None and self.seat is not None:
            return decision_of(view.decision, self.seat)
        who = ", ".join(view.waiting_for) or "the server"
        away = [away_text(s) for s in view.seats if s.name in view.waiting_for and s.kind == "person"
                and not s.connected]
        prompt = away[0][len(who) + 1:] + "; the game waits" if len(away) == 1 and len(view.waiting_for) == 1 \
            else "deciding\u2026"  # "Bob: is away (2 min); the game waits"
        return Decision(kind="waiting", player=who, prompt=prompt)

    # -- what the window shows ------------------------------------------------------------------------
    def presence_text(self) -> str:
        v = self.view
        if v is None:
            return ""
        out = []
        for s in v.seats:
            if s.name == self.seat:
                continue
            if s.kind == "open":
                out.append(f"waiting for {s.name} to join")
            elif s.kind == "person" and not s.connected:
                out.append(away_text(s))
        return "; ".join(out)

    def _show_status(self, text: str | None = None) -> None:
        label = self.window.online_label()
        state = {"connecting": "Connecting\u2026", "connected": "Connected", "lost": "Connection lost \u2014 "
                 "reconnecting\u2026", "reconnected": "Reconnected", "failed": "Not connected"}.get(self.connection, "")
        parts = [f"Online: {self.title or self.game_id or self.url}"]
        if self.seat:
            parts.append(f"you are {self.seat}")
        elif self.view is not None:
            parts.append("watching")
        if self.invite:
            parts.append(f"invite code {self.invite}")
        parts.append(text or state)
        presence = self.presence_text()
        if presence:
            parts.append(presence)
        self.presence = presence
        label.setText(" \u00b7 ".join(p for p in parts if p))

    def command(self, what: str, *args) -> bool:
        ok = self.worker.command(what, *args)
        if not ok and self.controller is not None:
            self.controller.say("Not connected yet: try again in a moment.", "warning")
        return ok

    def close(self) -> None:
        """Leave this game (it stays on the server; "My online games" resumes it)."""
        if self.closed:
            return
        self.closed = True
        for sig in (self.worker.received, self.worker.replied, self.worker.status):
            try:
                sig.disconnect()
            except (RuntimeError, TypeError):
                pass
        self.worker.stop()


def _esc(text: str) -> str:
    import html

    return html.escape(text, quote=False)


def status_label(window) -> QLabel:
    """The window's status bar line for online games (made on first use)."""
    label = getattr(window, "_online_label", None)
    if label is None:
        label = window._online_label = QLabel()
        label.setObjectName("online-status")
        window.statusBar().addWidget(label, 1)
    window.statusBar().show()
    return label
