"""A small asyncio client for the Maester server (docs/protocol.md); the Qt table wraps it.

>>> c = Client("ws://127.0.0.1:8765")                         # doctest: +SKIP
>>> await c.connect()                                          # doctest: +SKIP
>>> me = await c.create([SeatSpec("Alice", "practice:stark"),
...                      SeatSpec("Bob", "practice:lannister")])  # doctest: +SKIP
>>> me.token, me.invite                                        # keep the token; share the invite
>>> ev = await c.next_event()                                  # a Snapshot, then Events
>>> d = c.decision                                             # this seat's pending decision, or None
>>> await c.answer({"pass": True}, at=d.at)                    # AnswerRefused if the engine refuses

What the client keeps: ``token`` (all it needs to come back), ``last_seq`` (the last event seen),
``view`` (the latest ``View``), ``defs`` (every card definition sent so far, by key), ``log`` (the seat's
log) and ``chat``. When the connection drops, the client reconnects on its own (with ``reconnect``) and
resumes with its token and ``last_seq``; a command in flight fails with ``ConnectionLost`` (send it again
after ``wait_connected()``: the server refuses a stale answer by its ``at``). Every received message is
put on ``events`` (``next_event()``) except replies to commands, which their command returns.
"""
from __future__ import annotations

import asyncio
import contextlib
import itertools
import ssl as ssl_module
from typing import Any

import msgspec
import websockets

from server.protocol import (MAX_FRAME, Ack, Answer, Attached, AwayAction, Chat, ChatLine, Concede, Create,
                             Error, Event, FreeMove, Games, Join, MyGames, Notice, Ping, Pong, Refused, Resume,
                             SeatSpec, SetStops, Snapshot, Stops, UndoReply, UndoRequest, View, Watch,
                             decode_server, encode)

__all__ = ["Client", "ServerError", "AnswerRefused", "ConnectionLost", "SeatSpec", "Stops"]


class ServerError(Exception):
    """The server answered a command with ``error``: ``code`` and ``message``."""

    def __init__(self, code: str, message: str):
        super().__init__(f"{code}: {message}")
        self.code, self.message = code, message


class AnswerRefused(Exception):
    """The engine refused the answer (nothing changed): ``message`` and ``rule`` (e.g. ``MAR-05``)."""

    def __init__(self, message: str, rule: str | None):
        super().__init__(message)
        self.message, self.rule = message, rule


class ConnectionLost(Exception):
    """The connection dropped before the command's reply arrived."""


class Client:
    def __init__(self, url: str, *, ssl: ssl_module.SSLContext | None = None, reconnect: bool = True,
                 timeout: float = 30.0):
        self.url, self.ssl, self.reconnect, self.timeout = url, ssl, reconnect, timeout
        self.token: str | None = None
        self.game: str | None = None
        self.invite: str | None = None
        self.seat: str | None = None
        self.spectator = False
        self.last_seq = 0
        self.view: View | None = None
        self.defs: dict[str, dict] = {}
        self.log: list[str] = []
        self.chat: list[ChatLine] = []
        self.events: asyncio.Queue = asyncio.Queue()
        self.reconnects = 0
        self.snapshots = 0
        """Snapshots received (a client that reconnected waits for the next one before reading ``view``)."""
        self._ws = None
        self._refs = itertools.count(1)
        self._waiting: dict[int, asyncio.Future] = {}
        self._reader: asyncio.Task | None = None
        self._connected = asyncio.Event()
        self._closing = False

    # -- connection ----------------------------------------------------------------------------------
    async def connect(self) -> None:
        """Open the connection (and resume the seat or spectator seat already known)."""
        self._closing = False
        await self._open()
        self._reader = asyncio.create_task(self._read_loop())

    async def _open(self) -> None:
        self._ws = await websockets.connect(self.url, ssl=self.ssl, max_size=MAX_FRAME, open_timeout=self.timeout,
                                            ping_interval=20, ping_timeout=20)
        self._connected.set()

    async def close(self) -> None:
        self._closing = True
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
        self._fail_waiting()

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    async def wait_connected(self, timeout: float | None = None) -> None:
        await asyncio.wait_for(self._connected.wait(), timeout or self.timeout)

    async def _read_loop(self) -> None:
        while not self._closing:
            try:
                async for frame in self._ws:
                    try:
                        self._dispatch(frame)
                    except (msgspec.ValidationError, msgspec.DecodeError):
                        continue  # a message of a newer server this client does not know: skipped
            except (websockets.ConnectionClosed, OSError):
                pass
            self._connected.clear()
            self._fail_waiting()
            if self._closing or not self.reconnect:
                return
            await self._reconnect()

    async def _reconnect(self) -> None:
        delay = 0.05
        while not self._closing:
            try:
                await self._open()
            except (OSError, websockets.InvalidHandshake, asyncio.TimeoutError, websockets.ConnectionClosed):
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)
                continue
            self.reconnects += 1
            if self.token is not None or self.invite is not None:
                msg = Resume(token=self.token, last_seq=self.last_seq) if self.token else Watch(invite=self.invite)
                await self._ws.send(encode(msg))
            return

    def _fail_waiting(self) -> None:
        for fut in self._waiting.values():
            if not fut.done():
                fut.set_exception(ConnectionLost("the connection to the server dropped"))
        self._waiting.clear()

    # -- receiving -----------------------------------------------------------------------------------
    def _dispatch(self, frame) -> None:
        msg = decode_server(frame)
        ref = getattr(msg, "ref", None)
        if isinstance(msg, Attached):
            self.game, self.invite, self.seat = msg.game, msg.invite, msg.seat
            self.spectator = msg.seat is None
            if msg.token:
                self.token = msg.token
        if isinstance(msg, Snapshot):
            self.snapshots += 1
            self.last_seq = msg.seq
            self.view, self.defs, self.log = msg.view, dict(msg.view.defs), list(msg.view.log)
            self.chat = list(msg.chat)
        elif isinstance(msg, Event):
            self.last_seq = max(self.last_seq, msg.seq)
            if msg.view is not None:
                self.view = msg.view
                self.defs.update(msg.view.defs)
                del self.log[msg.view.log_start:]
                self.log.extend(msg.view.log)
            if msg.chat is not None:
                self.chat.append(msg.chat)
        if ref is not None and ref in self._waiting:
            fut = self._waiting.pop(ref)
            if not fut.done():
                fut.set_result(msg)
            return
        if isinstance(msg, (Event, Snapshot, Notice, Error, Refused, Attached)):
            self.events.put_nowait(msg)

    async def next_event(self, timeout: float | None = None):
        """The next event, snapshot, notice (or an error that answered no command)."""
        return await asyncio.wait_for(self.events.get(), timeout or self.timeout)

    def table_game(self):
        """A read-only ``engine.game.Game`` over the latest view (what the table draws from): the view's
        state with the definitions received; hidden cards are ``engine.ai.view.HIDDEN_DEF``."""
        from server.bot import card_from, view_game

        if self.view is None or self.view.state is None:
            return None
        return view_game(self.view.state, {k: card_from(d) for k, d in self.defs.items()})

    @property
    def decision(self):
        """This seat's pending decision (``DecisionMsg``) in the latest view, or None."""
        return self.view.decision if self.view is not None else None

    # -- commands ------------------------------------------------------------------------------------
    async def request(self, msg) -> Any:
        """Send a command and wait for its reply; ``ServerError``/``AnswerRefused`` for a refusal."""
        if self._ws is None:
            raise ConnectionLost("not connected")
        ref = next(self._refs)
        msg.ref = ref
        fut = asyncio.get_running_loop().create_future()
        self._waiting[ref] = fut
        try:
            await self._ws.send(encode(msg))
        except websockets.ConnectionClosed:
            self._waiting.pop(ref, None)
            raise ConnectionLost("the connection to the server dropped") from None
        reply = await asyncio.wait_for(fut, self.timeout)
        if isinstance(reply, Error):
            raise ServerError(reply.code, reply.message)
        if isinstance(reply, Refused):
            raise AnswerRefused(reply.message, reply.rule)
        return reply

    async def send_raw(self, data: bytes | str) -> None:
        """Send a frame as it is (tests of hostile input)."""
        await self._ws.send(data)

    async def create(self, seats: list[SeatSpec], **options) -> Attached:
        """Create a game (options: title, ruleset, mode, era, casual, away_minutes, my_seat)."""
        return await self.request(Create(seats=seats, **options))

    async def join(self, invite: str, seat: str | None = None, deck: str | None = None) -> Attached:
        return await self.request(Join(invite=invite, seat=seat, deck=deck))

    async def watch(self, invite: str) -> Attached:
        return await self.request(Watch(invite=invite))

    async def resume(self, token: str | None = None, last_seq: int | None = None) -> Attached:
        self.token = token or self.token
        return await self.request(Resume(token=self.token, last_seq=self.last_seq if last_seq is None else last_seq))

    async def answer(self, answer: dict, at: int | None = None) -> Ack:
        return await self.request(Answer(answer=answer, at=at))

    async def free_move(self, move: dict, at: int | None = None) -> Ack:
        return await self.request(FreeMove(move=move, at=at))

    async def say(self, text: str) -> Ack:
        return await self.request(Chat(text=text))

    async def set_stops(self, stops: Stops) -> Ack:
        return await self.request(SetStops(stops=stops))

    async def concede(self) -> Ack:
        return await self.request(Concede())

    async def undo(self) -> Ack:
        return await self.request(UndoRequest())

    async def undo_reply(self, accept: bool) -> Ack:
        return await self.request(UndoReply(accept=accept))

    async def away(self, seat: str, action: str, level: str = "heuristic") -> Ack:
        return await self.request(AwayAction(seat=seat, action=action, level=level))

    async def my_games(self, tokens: list[str]) -> Games:
        return await self.request(MyGames(tokens=tokens))

    async def ping(self) -> Pong:
        return await self.request(Ping())
