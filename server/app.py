"""The Maester server: one asyncio process, WebSocket connections, the lobby, and the games it holds.

Every frame a client sends goes through ``protocol.decode_client`` (size, JSON, type, every field) and a
per-connection rate limit before anything reads it; a bad one is answered with ``error`` and changes
nothing. A command's handler runs without an ``await`` until its events are queued (``rooms``), so a game
is never seen half-changed; a command for a game whose ``strong`` computer seat is thinking (in a worker
thread, ``Room.think``) waits until it has answered. Nothing a client sends can raise out of the handler: an unexpected exception
is logged on the server (with its traceback) and the client gets ``error`` ``internal``, without details.
"""
from __future__ import annotations

import asyncio
import contextlib
import gc
import hashlib
import json
import logging
import secrets
import sys
import time
from pathlib import Path
from typing import Any, Callable

import websockets

from cards.errors import DataError
from engine.ai import level_name
from engine.builder import new_game, practice_decks
from engine.game import Options
from server import protocol as P
from server.rooms import AnswerRefused, CommandError, Room, Seat, hash_token, rule_of
from server.store import SQLiteStore, Store

log = logging.getLogger("maester.server")

RATE = 40.0
"""Messages a second a connection may send on average ..."""
BURST = 80.0
"""... and in a burst."""
FLOOD_CLOSE = 500
"""Messages refused for rate in a row before the connection is closed (1008)."""
OUT_QUEUE = 2000
"""Messages waiting to be sent to one connection before it is closed as too slow."""
EVICT_AFTER = 1800.0
"""Seconds a game with nobody connected stays in memory (a correspondence game waits in storage)."""
GC_THRESHOLD = 50_000
"""Allocations between young collections (the default is 700)."""
PRESENCE_EVERY = 60.0
"""Seconds between "Bob is away (N min)" notices."""


def engine_version() -> str:
    """The package version and a hash of the engine's and the card model's source: a game stored under
    another one is replayed and checked by digest when it is loaded."""
    root = Path(__file__).resolve().parent.parent
    h = hashlib.sha256()
    for folder in ("engine", "cards"):
        for f in sorted((root / folder).rglob("*.py")):
            h.update(f.relative_to(root).as_posix().encode())
            h.update(f.read_bytes())
    try:
        from importlib.metadata import version
        v = version("maester")
    except Exception:  # noqa: BLE001 - running from a source tree
        v = "0"
    return f"maester {v} engine {h.hexdigest()[:16]}"


def _canonical(value: Any) -> Any:
    if isinstance(value, (set, frozenset)):
        return sorted(_canonical(v) for v in value)
    if isinstance(value, (list, tuple)):
        return [_canonical(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _canonical(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    return value


class Conn:
    """One WebSocket connection: at most one game (as a seat or a spectator) at a time."""

    def __init__(self, server: "Server", ws):
        self.server, self.ws = server, ws
        self.room: Room | None = None
        self.seat: str | None = None
        self.sent_keys: set[str] = set()
        self.out: asyncio.Queue = asyncio.Queue()
        self.tokens = server.burst
        self.last = time.monotonic()
        self.flood = 0
        self.closed = False

    def send(self, msg: Any) -> None:
        if self.closed:
            return
        data = P.encode(msg)
        if self.server.frame_hook is not None:
            self.server.frame_hook(self, data)
        if self.out.qsize() > OUT_QUEUE:
            self.closed = True
            asyncio.ensure_future(self.ws.close(1008, "too slow"))
            return
        self.out.put_nowait(data)

    def snapshot(self, room: Room, last_seq: int = 0) -> None:
        self.send(room.snapshot_msg(self.seat, self.sent_keys, last_seq))

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.server.burst, self.tokens + (now - self.last) * self.server.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            self.flood = 0
            return True
        self.flood += 1
        return False

    async def writer(self) -> None:
        try:
            while True:
                data = await self.out.get()
                await self.ws.send(data.decode())
        except (websockets.ConnectionClosed, asyncio.CancelledError):
            pass


class Server:
    def __init__(self, data_dir: str | Path, *, store: Store | None = None, pool: Any = None,
                 unsafe_no_filter: bool = False, frame_hook: Callable | None = None, presence_every: float =
                 PRESENCE_EVERY, sync: str = "normal", draining: bool = False, seeds: Any = None):
        self.data_dir = Path(data_dir)
        self.store = store or SQLiteStore(self.data_dir / "games.sqlite3", sync=sync)
        if pool is None:
            from cards.pool import default_pool
            pool = default_pool()
        self.pool = pool
        self.unsafe_no_filter = unsafe_no_filter
        """Test hook only (tests/server/test_server_leaks.py): send every seat everything, engine ids included."""
        self.frame_hook = frame_hook
        self.presence_every = presence_every
        self.draining = draining
        """No new games are created (an upgrade drains the process: docs/server.md)."""
        self.seeds = seeds
        """Test hook: a ``random.Random`` the games' seeds are drawn from (reproducible tests); None: the
        operating system's secure generator (players cannot predict a deal)."""
        self.rate, self.burst = RATE, BURST
        self.rooms: dict[str, Room] = {}
        self.conns: set[Conn] = set()
        self.engine_version = engine_version()
        self.problems: list[str] = []
        self.answers = 0
        self._practice = None
        self._ws_server = None

    # -- the card side ------------------------------------------------------------------------------------
    def report(self, text: str) -> None:
        self.problems.append(text)
        log.warning(text)

    def cards_hash(self, spec: dict) -> str:
        keys = set()
        for d in (spec.get("decks") or {}).values():
            keys.update(d.get("plots", []))
            keys.update(d.get("cards", []))
            keys.update(k for k in (d.get("agenda"), d.get("house_card")) if k)
        h = hashlib.sha256()
        for k in sorted(keys):
            d = self.pool.get(k)
            data = None if d is None else {n: getattr(d, n) for n in d.__dataclass_fields__ if n != "source"}
            h.update(json.dumps([k, _canonical(data)], sort_keys=True, default=repr).encode())
        return h.hexdigest()[:32]

    def read_deck(self, ref: str | None, options: dict):
        """A seat's deck from ``practice:stark``/``practice:lannister`` or a deck list's text, checked for
        legality (``cards.deck.check_deck``, the game's era and casual/tournament rules)."""
        from cards.deck import check_deck, parse_deck_text

        if not ref:
            raise CommandError("deck", "the seat has no deck: choose practice:stark, practice:lannister or send "
                                       "a deck list")
        if ref in ("practice:stark", "practice:lannister"):
            if self._practice is None:
                self._practice = practice_decks()
            deck = self._practice[0 if ref == "practice:stark" else 1]
        else:
            try:
                deck = parse_deck_text(ref, self.pool, "<deck>")
            except DataError as err:
                if err.hint and "--pool" in err.hint:  # the command line's advice: a table user has no --pool
                    err.hint = ("take the card out of the deck, or check its name and set: this server's card "
                                "pool has no such card")
                raise CommandError("deck", f"the deck list cannot be read: {err}") from None
        problems = check_deck(deck, casual=options.get("casual", True), era=options.get("era"))
        if problems:
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            raise CommandError("deck", f"the deck is not legal: {problems[0]} ({problems[0].rule}){more}")
        return deck

    def new_seed(self) -> int:
        return self.seeds.randrange(2**30) if self.seeds is not None else secrets.randbelow(2**30)

    def new_game(self, decks: dict, seed: int, options: dict):
        return new_game(decks, seed=seed, ruleset=options.get("ruleset", "lcg"),
                        options=Options(prompt_all=True, mode=options.get("mode", "enforce")))

    # -- rooms ----------------------------------------------------------------------------------------------
    def room(self, game_id: str) -> Room:
        r = self.rooms.get(game_id)
        if r is None:
            record = self.store.load(game_id)
            if record is None:
                raise CommandError("not_found", "no such game")
            r = Room(self, record)
            if r.status != "broken":
                r.load(record)
            self.rooms[game_id] = r
        return r

    def reload(self, room: Room) -> None:
        """Drop a room's memory (storage or our code failed mid-command) and load it again from storage;
        its connections get a fresh snapshot."""
        self.rooms.pop(room.id, None)
        conns = list(room.conns)
        room.conns.clear()
        try:
            fresh = self.room(room.id)
        except Exception:  # noqa: BLE001 - storage unreadable now: the clients resume later
            log.exception("game %s could not be loaded again", room.id)
            fresh = None
        for c in conns:
            c.room = fresh
            if fresh is not None:
                fresh.conns.add(c)
                c.snapshot(fresh)

    def load_all(self, statuses: tuple[str, ...] = ("waiting", "playing")) -> None:
        """Load (replay and check) every game still waiting or playing: done at start, so a game whose
        engine or card data changed is reported at once (``--check``: finished games too)."""
        for gid in self.store.game_ids(statuses):
            try:
                self.room(gid)
            except Exception as err:  # noqa: BLE001 - one damaged game never stops the server
                self.report(f"game {gid} could not be loaded: {type(err).__name__}: {err}")

    # -- lobby --------------------------------------------------------------------------------------------
    def _attach(self, conn: Conn, room: Room, seat: str | None, last_seq: int = 0, token: str | None = None,
                ref: int | None = None) -> None:
        self._detach(conn)
        conn.room, conn.seat = room, seat
        room.conns.add(conn)
        conn.send(P.Attached(game=room.id, invite=room.invite, seat=seat, token=token, ref=ref))
        if seat is not None:
            s = room.seat(seat)
            was_away = s.away_since is not None
            s.away_since = None
            if was_away:
                room.notice(f"{seat} is back", kind="back", seats=room.seat_infos())
        conn.snapshot(room, last_seq)

    def _detach(self, conn: Conn) -> None:
        room, seat = conn.room, conn.seat
        if room is None:
            return
        room.conns.discard(conn)
        conn.room = conn.seat = None
        if not any(c.seat == seat for c in room.conns):
            room.viewer(seat).forget_all()
        if seat is not None and not room.connected(seat) and room.status in ("waiting", "playing"):
            room.seat(seat).away_since = time.time()
            room.notice(f"{seat} is away", kind="away", seats=room.seat_infos())

    def create(self, conn: Conn, m: P.Create) -> None:
        if self.draining:
            raise CommandError("busy", "this server is draining for an upgrade: create the game on another one")
        names = [s.name for s in m.seats]
        if len(set(n.casefold() for n in names)) != len(names):
            raise CommandError("bad_message", "every seat needs its own name")
        if any(n.casefold() == "draw" for n in names):
            raise CommandError("bad_message", "'draw' is what a drawn game's winner reads: choose another name")
        options = {"ruleset": m.ruleset, "mode": m.mode, "era": m.era, "casual": m.casual,
                   "away_minutes": m.away_minutes}
        for s in m.seats:
            if s.computer:
                level_name(s.computer)
            if s.deck is not None or s.computer:
                try:
                    self.read_deck(s.deck, options)
                except CommandError as err:
                    raise CommandError(err.code, f"{s.name}: {err}") from None
        if m.my_seat is not None and (m.my_seat >= len(m.seats) or m.seats[m.my_seat].computer):
            raise CommandError("bad_message", "my_seat must be a person's seat of this game")
        if m.my_seat is not None and m.seats[m.my_seat].deck is None:
            raise CommandError("deck", f"{m.seats[m.my_seat].name}: your seat needs a deck")
        gid = secrets.token_hex(8)
        invite = secrets.token_urlsafe(6)
        token = secrets.token_urlsafe(16) if m.my_seat is not None else None  # 128 random bits
        seats = []
        for i, s in enumerate(m.seats):
            seats.append({"idx": i, "name": s.name, "deck": s.deck, "computer": level_name(s.computer) if
                          s.computer else None, "token_hash": hash_token(token) if i == m.my_seat else None})
        creator = m.seats[m.my_seat].name if m.my_seat is not None else None
        record = {"id": gid, "invite": invite, "title": m.title or " vs ".join(names), "options": options,
                  "creator": creator, "status": "waiting", "seats": seats}
        self.store.create(record, seats)
        room = Room(self, record)
        self.rooms[gid] = room
        self._maybe_start(room)
        self._attach(conn, room, creator, token=token, ref=m.ref)

    def _maybe_start(self, room: Room) -> None:
        if room.status == "waiting" and all(s.computer or s.token_hash for s in room.seats):
            room.start()

    def join(self, conn: Conn, m: P.Join) -> None:
        gid = self.store.by_invite(m.invite)
        if gid is None:
            raise CommandError("not_found", "no game has this invite code")
        room = self.room(gid)
        free = [s for s in room.seats if s.person and s.token_hash is None]
        if m.seat is not None:
            free = [s for s in free if s.name == m.seat]
        if not free or room.status != "waiting":
            raise CommandError("full", "no free seat" + (f" named {m.seat}" if m.seat else "") + " in this game")
        seat: Seat = free[0]
        if m.deck is not None:
            room.server.read_deck(m.deck, room.options)
            seat.deck = m.deck
        elif seat.deck is None:
            raise CommandError("deck", f"{seat.name}'s seat has no deck: bring one (deck)")
        token = secrets.token_urlsafe(16)
        seat.token_hash = hash_token(token)
        self.store.save_seat(room.id, seat.record())
        self._maybe_start(room)
        self._attach(conn, room, seat.name, token=token, ref=m.ref)
        room.notice(f"{seat.name} takes a seat")

    def watch(self, conn: Conn, m: P.Watch) -> None:
        gid = self.store.by_invite(m.invite)
        if gid is None:
            raise CommandError("not_found", "no game has this invite code")
        self._attach(conn, self.room(gid), None, ref=m.ref)

    def resume(self, conn: Conn, m: P.Resume) -> None:
        found = self.store.by_token(hash_token(m.token))
        if found is None:
            raise CommandError("forbidden", "unknown seat token")
        room = self.room(found[0])
        seat = room.seats[found[1]]
        room.take_back(seat)
        self._attach(conn, room, seat.name, last_seq=m.last_seq, ref=m.ref)

    def my_games(self, conn: Conn, m: P.MyGames) -> None:
        by_hash = {hash_token(t): t for t in m.tokens}
        rows = self.store.games_of(list(by_hash))
        entries = [P.GameEntry(game=r["game"], invite=r["invite"], seat=r["seat"], title=r["title"],
                               status=r["status"], waiting_for_you=r["status"] == "playing" and r["seat"] in
                               r["waiting"], waiting_for=r["waiting"], round=r["round"], phase=r["phase"],
                               updated=r["updated"], token=by_hash[r["token_hash"]]) for r in rows]
        order = {"playing": 1, "waiting": 2}
        entries.sort(key=lambda e: (not e.waiting_for_you, order.get(e.status, 3), -e.updated))
        conn.send(P.Games(games=entries, ref=m.ref))

    # -- one message ------------------------------------------------------------------------------------
    def handle(self, conn: Conn, frame) -> None:
        """Take one frame from ``conn``. Never raises."""
        ref = None
        try:
            if not conn.allow():
                raise P.BadMessage("too many messages: slow down", "rate")
            m = P.decode_client(frame)
            ref = getattr(m, "ref", None)
            self.dispatch(conn, m)
        except P.BadMessage as err:
            conn.send(P.Error(code=err.code, message=str(err), ref=err.ref if ref is None else ref))
        except CommandError as err:
            conn.send(P.Error(code=err.code, message=str(err)[:1000], ref=ref))
        except AnswerRefused as err:
            conn.send(P.Refused(message=str(err), rule=rule_of(str(err)), ref=ref))
        except ValueError as err:  # an unknown computer level and the like
            conn.send(P.Error(code="bad_message", message=str(err)[:300], ref=ref))
        except Exception:  # noqa: BLE001 - a bug of ours: logged here, never sent
            log.exception("internal error on a client message")
            room = conn.room
            if room is not None:
                self.reload(room)
            conn.send(P.Error(code="internal", message="the server failed on this message; nothing changed",
                              ref=ref))

    def dispatch(self, conn: Conn, m) -> None:
        if isinstance(m, P.Ping):
            conn.send(P.Pong(time=time.time(), ref=m.ref))
            return
        if isinstance(m, P.Create):
            return self.create(conn, m)
        if isinstance(m, P.Join):
            return self.join(conn, m)
        if isinstance(m, P.Watch):
            return self.watch(conn, m)
        if isinstance(m, P.Resume):
            return self.resume(conn, m)
        if isinstance(m, P.MyGames):
            return self.my_games(conn, m)
        room = conn.room
        if room is None:
            raise CommandError("not_attached", "create, join, watch or resume a game first")
        seat = conn.seat
        if isinstance(m, P.Answer):
            seq = room.answer(seat, m.answer, m.at)
            self.answers += 1
        elif isinstance(m, P.FreeMove):
            seq = room.free(seat, m.move, m.at)
        elif isinstance(m, P.Chat):
            seq = room.say(seat, m.text)
        elif isinstance(m, P.SetStops):
            seq = room.set_stops(seat, m.stops)
        elif isinstance(m, P.Concede):
            seq = room.concede(seat)
        elif isinstance(m, P.UndoRequest):
            seq = room.ask_undo(seat)
        elif isinstance(m, P.UndoReply):
            seq = room.reply_undo(seat, m.accept)
        elif isinstance(m, P.AwayAction):
            seq = room.away_action(seat, m.seat, m.action, level_name(m.level))
        else:  # pragma: no cover - the union is closed
            raise CommandError("bad_message", "unknown command")
        conn.send(P.Ack(seq=seq, ref=m.ref))

    # -- the transport ----------------------------------------------------------------------------------
    async def handler(self, ws) -> None:
        conn = Conn(self, ws)
        self.conns.add(conn)
        writer = asyncio.create_task(conn.writer())
        try:
            async for frame in ws:
                room = conn.room
                if room is not None and room.lock.locked():  # its computer seat is thinking: wait for it
                    async with room.lock:
                        self.handle(conn, frame)
                else:
                    self.handle(conn, frame)
                if conn.flood > FLOOD_CLOSE:
                    await ws.close(1008, "flood")
                    break
                await asyncio.sleep(0)
        except websockets.ConnectionClosed:
            pass
        finally:
            conn.closed = True
            self._detach(conn)
            self.conns.discard(conn)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._drain(conn), 1.0)
            writer.cancel()

    async def _drain(self, conn: Conn) -> None:
        while not conn.out.empty():
            await asyncio.sleep(0.01)

    async def presence(self) -> None:
        """Every ``presence_every`` seconds: tell each game's players who is away, and for how long; let go
        of games nobody has been connected to for ``EVICT_AFTER`` (they load again from storage on use)."""
        while True:
            await asyncio.sleep(self.presence_every)
            now = time.time()
            for room in list(self.rooms.values()):
                if room.conns:
                    room.last_used = now
                elif now - room.last_used > EVICT_AFTER:
                    self.rooms.pop(room.id, None)
                    continue
                for s in room.seats:
                    if s.person and s.away_since is not None and room.status == "playing":
                        room.notice(f"{s.name} is away ({int((now - s.away_since) // 60)} min)", kind="away",
                                    seats=room.seat_infos())

    async def serve(self, host: str, port: int, *, ssl=None, ready: Callable[[int], None] | None = None) -> None:
        # Views and engine steps allocate many small objects: with the default thresholds the collector
        # walks every game's objects several times an answer (measured: most of an answer's time).
        gc.set_threshold(GC_THRESHOLD, 20, 20)
        self.load_all()
        gc.freeze()
        async with websockets.serve(self.handler, host, port, ssl=ssl, max_size=P.MAX_FRAME, ping_interval=20,
                                    ping_timeout=20, max_queue=64) as ws_server:
            self._ws_server = ws_server
            bound = ws_server.sockets[0].getsockname()[1]
            if ready is not None:
                ready(bound)
            task = asyncio.create_task(self.presence())
            try:
                await asyncio.Future()
            finally:
                task.cancel()


def print_ready(port: int) -> None:
    print(f"maester-server: listening on port {port}", flush=True)
    sys.stdout.flush()
