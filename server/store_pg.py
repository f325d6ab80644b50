"""The PostgreSQL backend of ``server.store.Store``: for several server processes (or hosts) sharing one
database (docs/server.md, "The PostgreSQL store").

The same four tables as the SQLite backend (``games``, ``seats``, ``answers``, ``chat``) with the same
columns; JSON values are kept as the text the server wrote (``TEXT``, not ``JSONB``: JSONB reorders an
object's keys, and a game must replay from exactly what was stored). Every method is one transaction;
``append`` and ``truncate`` lock the game row (``SELECT ... FOR UPDATE``) and ``append`` checks that the
answers stored so far are exactly the ones the process expects (``first``), so two processes never write
one game: the second is refused with ``StoreError`` and changes nothing.

The driver is pg8000 (pure Python: ``pip install 'maester[postgres]'``), imported only when a
PostgreSQL store is opened, so the server runs without it.
"""
from __future__ import annotations

import json
import os
import ssl
import time
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from server.store import GAME_FIELDS, JSON_FIELDS, StoreError

SCHEMA = [
    """CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY, invite TEXT UNIQUE NOT NULL, title TEXT NOT NULL, options TEXT NOT NULL,
    creator TEXT, status TEXT NOT NULL, spec TEXT, engine TEXT, cards_hash TEXT,
    seq BIGINT NOT NULL DEFAULT 0, answers BIGINT NOT NULL DEFAULT 0, digest TEXT, winner TEXT,
    waiting TEXT NOT NULL DEFAULT '[]', round BIGINT NOT NULL DEFAULT 0, phase TEXT NOT NULL DEFAULT '',
    problem TEXT, created DOUBLE PRECISION NOT NULL, updated DOUBLE PRECISION NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS seats (
    game TEXT NOT NULL, idx BIGINT NOT NULL, name TEXT NOT NULL, token_hash TEXT UNIQUE,
    deck TEXT, computer TEXT, handed BIGINT NOT NULL DEFAULT 0, stops TEXT NOT NULL DEFAULT '{}',
    PRIMARY KEY (game, idx))""",
    """CREATE TABLE IF NOT EXISTS answers (
    game TEXT NOT NULL, n BIGINT NOT NULL, player TEXT NOT NULL, answer TEXT NOT NULL,
    auto BIGINT NOT NULL DEFAULT 0, PRIMARY KEY (game, n))""",
    """CREATE TABLE IF NOT EXISTS chat (
    game TEXT NOT NULL, seq BIGINT NOT NULL, seat TEXT NOT NULL, text TEXT NOT NULL,
    time DOUBLE PRECISION NOT NULL, PRIMARY KEY (game, seq))""",
    "CREATE INDEX IF NOT EXISTS games_status ON games (status)",
]
SCHEMA_LOCK = 0x6D61657374  # a pg_advisory_xact_lock key: two processes starting at once create the tables once
TIMEOUT = 30.0  # seconds: connecting, and any one round trip
LOCK_TIMEOUT = "10s"  # waiting for another process's lock on a game row


def redact(url: str) -> str:
    """The URL without its password (for messages and logs)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return parts._replace(netloc=netloc).geturl()


def connect_args(url: str) -> dict:
    """pg8000's connection arguments for ``postgresql://user[:password]@host[:port]/database`` (libpq's URL
    form; ``?host=/run/postgresql`` for a Unix socket folder, ``?sslmode=require`` or ``verify-full`` for
    TLS; a password not in the URL comes from ``PGPASSWORD``)."""
    parts = urlsplit(url)
    if parts.scheme not in ("postgresql", "postgres"):
        raise StoreError(f"not a PostgreSQL URL: {redact(url)} (use postgresql://user@host:port/database)")
    query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
    try:
        port = parts.port or int(query.get("port", 5432))
    except ValueError:
        raise StoreError(f"bad port in {redact(url)}") from None
    args: dict[str, Any] = {
        "user": unquote(parts.username or query.get("user") or os.environ.get("PGUSER") or "postgres"),
        "database": unquote(parts.path.lstrip("/")) or query.get("dbname") or "maester",
        "port": port, "timeout": TIMEOUT, "application_name": "maester-server",
    }
    password = unquote(parts.password) if parts.password is not None else os.environ.get("PGPASSWORD")
    if password is not None:
        args["password"] = password
    host = query.get("host") or (unquote(parts.hostname) if parts.hostname else "localhost")
    if host.startswith("/"):
        args["unix_sock"] = f"{host}/.s.PGSQL.{port}"
    else:
        args["host"] = host
    mode = query.get("sslmode", "disable")
    if mode in ("require", "verify-ca", "verify-full"):
        ctx = ssl.create_default_context()
        if mode == "require":  # libpq's meaning: encrypted, the certificate not checked
            ctx.check_hostname = False
            ctx.verify_mode = ssl.CERT_NONE
        args["ssl_context"] = ctx
    elif mode not in ("disable", "allow", "prefer"):
        raise StoreError(f"unknown sslmode {mode!r} in {redact(url)}")
    return args


def _driver():
    try:
        import pg8000.dbapi
    except ImportError:
        raise StoreError("the PostgreSQL store needs the pg8000 driver: pip install 'maester[postgres]' "
                         "(or pip install pg8000)") from None
    return pg8000.dbapi


def _reason(err: BaseException) -> str:
    """One line from a driver error (pg8000 puts the server's fields in a dict)."""
    arg = err.args[0] if err.args else None
    if isinstance(arg, dict):
        return str(arg.get("M") or arg)
    text = str(err) or type(err).__name__
    cause = err.__cause__ or err.__context__
    return f"{text} ({cause})" if cause is not None and str(cause) not in text else text


class PostgresStore:
    """``Store`` on a PostgreSQL database, given as a ``postgresql://`` URL. One connection per store;
    a lost connection is opened again by the next call."""

    def __init__(self, url: str):
        self.url = url
        self._dbapi = _driver()
        self._args = connect_args(url)
        self.db = None
        self._connect()
        self._tx(lambda cur: [cur.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))]
                 + [cur.execute(sql) for sql in SCHEMA])

    def _connect(self):
        try:
            self.db = self._dbapi.connect(**self._args)
            self.db.autocommit = True  # transactions are explicit (BEGIN ... COMMIT), one per method
            self.db.cursor().execute(f"SET lock_timeout = '{LOCK_TIMEOUT}'")
        except (self._dbapi.Error, OSError) as err:
            self.db = None
            raise StoreError(f"cannot reach the PostgreSQL database {redact(self.url)}: {_reason(err)}") from None
        return self.db

    def _tx(self, work, begin: str = "BEGIN") -> Any:
        db = self.db or self._connect()
        cur = db.cursor()
        try:
            cur.execute(begin)
            try:
                out = work(cur)
            except BaseException:
                cur.execute("ROLLBACK")
                raise
            cur.execute("COMMIT")
            return out
        except (self._dbapi.InterfaceError, OSError) as err:  # the connection is gone: a new one next time
            self._drop()
            raise StoreError(f"storage failed: {_reason(err)}") from None
        except self._dbapi.Error as err:
            raise StoreError(f"storage failed: {_reason(err)}") from None

    def _read(self, work) -> Any:
        """A read: one snapshot of the database for all its queries."""
        return self._tx(work, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")

    def _drop(self) -> None:
        if self.db is not None:
            try:
                self.db.close()
            except Exception:  # noqa: BLE001 - it is gone already
                pass
        self.db = None

    @staticmethod
    def _set(fields: dict) -> tuple[str, list]:
        names, values = [], []
        for k, v in fields.items():
            if k not in GAME_FIELDS:
                raise ValueError(f"unknown game field {k}")
            names.append(f"{k}=%s")
            values.append(json.dumps(v) if k in JSON_FIELDS and v is not None else v)
        names.append("updated=%s")
        values.append(time.time())
        return ", ".join(names), values

    @staticmethod
    def _lock(cur, game_id: str) -> None:
        cur.execute("SELECT id FROM games WHERE id=%s FOR UPDATE", (game_id,))
        if cur.fetchone() is None:
            raise StoreError(f"no game {game_id} in the database")

    def create(self, game: dict, seats: list[dict]) -> None:
        now = time.time()

        def work(cur):
            cur.execute("INSERT INTO games (id, invite, title, options, creator, status, created, updated) "
                        "VALUES (%s,%s,%s,%s,%s,%s,%s,%s)",
                        (game["id"], game["invite"], game["title"], json.dumps(game["options"]),
                         game.get("creator"), game["status"], now, now))
            for s in seats:
                self._put_seat(cur, game["id"], s)
        self._tx(work)

    @staticmethod
    def _put_seat(cur, game_id: str, s: dict) -> None:
        cur.execute("INSERT INTO seats (game, idx, name, token_hash, deck, computer, handed, stops) "
                    "VALUES (%s,%s,%s,%s,%s,%s,%s,%s) ON CONFLICT (game, idx) DO UPDATE SET name=EXCLUDED.name, "
                    "token_hash=EXCLUDED.token_hash, deck=EXCLUDED.deck, computer=EXCLUDED.computer, "
                    "handed=EXCLUDED.handed, stops=EXCLUDED.stops",
                    (game_id, s["idx"], s["name"], s.get("token_hash"), s.get("deck"), s.get("computer"),
                     int(bool(s.get("handed"))), json.dumps(s.get("stops") or {})))

    def update(self, game_id: str, **fields: Any) -> None:
        sets, values = self._set(fields)
        self._tx(lambda cur: cur.execute(f"UPDATE games SET {sets} WHERE id=%s", values + [game_id]))

    def save_seat(self, game_id: str, seat: dict) -> None:
        self._tx(lambda cur: self._put_seat(cur, game_id, seat))

    def append(self, game_id: str, first: int, entries: list[tuple[str, Any, bool]], **fields: Any) -> None:
        sets, values = self._set(fields)

        def work(cur):
            self._lock(cur, game_id)
            if entries:
                cur.execute("SELECT count(*) FROM answers WHERE game=%s", (game_id,))
                stored = cur.fetchone()[0]
                if stored != first:
                    raise StoreError(f"game {game_id} has {stored} answers stored, not {first}: another "
                                     f"process is writing it; nothing stored")
                cur.executemany("INSERT INTO answers (game, n, player, answer, auto) VALUES (%s,%s,%s,%s,%s)",
                                [(game_id, first + i, p, json.dumps(a), int(auto))
                                 for i, (p, a, auto) in enumerate(entries)])
            cur.execute(f"UPDATE games SET {sets} WHERE id=%s", values + [game_id])
        self._tx(work)

    def truncate(self, game_id: str, keep: int, **fields: Any) -> None:
        sets, values = self._set(fields)

        def work(cur):
            self._lock(cur, game_id)
            cur.execute("DELETE FROM answers WHERE game=%s AND n>=%s", (game_id, keep))
            cur.execute(f"UPDATE games SET {sets} WHERE id=%s", values + [game_id])
        self._tx(work)

    def add_chat(self, game_id: str, seq: int, seat: str, text: str, when: float) -> None:
        def work(cur):
            cur.execute("INSERT INTO chat (game, seq, seat, text, time) VALUES (%s,%s,%s,%s,%s)",
                        (game_id, seq, seat, text, when))
            cur.execute("UPDATE games SET seq=%s, updated=%s WHERE id=%s", (seq, when, game_id))
        self._tx(work)

    def load(self, game_id: str) -> dict | None:
        def work(cur):
            cur.execute("SELECT * FROM games WHERE id=%s", (game_id,))
            row = cur.fetchone()
            if row is None:
                return None
            game = dict(zip([c[0] for c in cur.description], row))
            for k in JSON_FIELDS:
                if game[k] is not None:
                    game[k] = json.loads(game[k])
            cur.execute("SELECT idx, name, token_hash, deck, computer, handed, stops FROM seats WHERE game=%s "
                        "ORDER BY idx", (game_id,))
            game["seats"] = [{"idx": i, "name": n, "token_hash": t, "deck": d, "computer": c, "handed": bool(h),
                              "stops": json.loads(s)} for i, n, t, d, c, h, s in cur.fetchall()]
            cur.execute("SELECT player, answer, auto FROM answers WHERE game=%s ORDER BY n", (game_id,))
            game["history"] = [(p, json.loads(a), bool(auto)) for p, a, auto in cur.fetchall()]
            cur.execute("SELECT seq, seat, text, time FROM chat WHERE game=%s ORDER BY seq", (game_id,))
            game["chat"] = [{"seq": q, "seat": s, "text": t, "time": w} for q, s, t, w in cur.fetchall()]
            return game
        return self._read(work)

    def _one(self, sql: str, params: tuple) -> tuple | None:
        def work(cur):
            cur.execute(sql, params)
            return cur.fetchone()
        return self._read(work)

    def by_invite(self, invite: str) -> str | None:
        row = self._one("SELECT id FROM games WHERE invite=%s", (invite,))
        return row[0] if row else None

    def by_token(self, token_hash: str) -> tuple[str, int] | None:
        row = self._one("SELECT game, idx FROM seats WHERE token_hash=%s", (token_hash,))
        return (row[0], row[1]) if row else None

    def games_of(self, token_hashes: list[str]) -> list[dict]:
        if not token_hashes:
            return []
        marks = ",".join(["%s"] * len(token_hashes))

        def work(cur):
            cur.execute(f"SELECT g.id, g.invite, g.title, g.status, g.waiting, g.round, g.phase, g.updated, "
                        f"s.name, s.token_hash FROM seats s JOIN games g ON g.id = s.game "
                        f"WHERE s.token_hash IN ({marks})", list(token_hashes))
            return cur.fetchall()
        return [{"game": i, "invite": inv, "title": t, "status": st, "waiting": json.loads(w), "round": r,
                 "phase": ph, "updated": u, "seat": n, "token_hash": th}
                for i, inv, t, st, w, r, ph, u, n, th in self._read(work)]

    def game_ids(self, statuses: tuple[str, ...] = ("waiting", "playing")) -> list[str]:
        marks = ",".join(["%s"] * len(statuses))

        def work(cur):
            cur.execute(f"SELECT id FROM games WHERE status IN ({marks})", list(statuses))
            return [r[0] for r in cur.fetchall()]
        return self._read(work)

    def close(self) -> None:
        self._drop()
