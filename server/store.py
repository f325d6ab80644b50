"""Where games are kept: a small interface (``Store``) and its SQLite backend.

A game is its start specification (seed, decks as card keys, options, the engine version and a hash of
the card data it was started with) plus the ordered history of accepted answers; the server writes an
answer (with the computer answers and automatic passes that followed it) in one transaction *before*
acknowledging it, so a server killed at any moment restarts with every acknowledged answer.

SQLite runs in WAL mode with ``synchronous=NORMAL``: a committed transaction survives the process being
killed (kill -9); a power cut may lose the last few (``--sync full`` keeps them too, slower).

The PostgreSQL backend (``server/store_pg.py``, ``--store postgresql://...``) implements the same methods
on the same four tables (``games``, ``seats``, ``answers``, ``chat``), each method one transaction, with
``SELECT ... FOR UPDATE`` on the game row in ``append``/``truncate`` so two server processes never write
one game (docs/server.md, "The PostgreSQL store"). ``open_store`` picks the backend.
"""
from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any, Protocol

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY, invite TEXT UNIQUE NOT NULL, title TEXT NOT NULL, options TEXT NOT NULL,
    creator TEXT, status TEXT NOT NULL, spec TEXT, engine TEXT, cards_hash TEXT,
    seq INTEGER NOT NULL DEFAULT 0, answers INTEGER NOT NULL DEFAULT 0, digest TEXT, winner TEXT,
    waiting TEXT NOT NULL DEFAULT '[]', round INTEGER NOT NULL DEFAULT 0, phase TEXT NOT NULL DEFAULT '',
    problem TEXT, created REAL NOT NULL, updated REAL NOT NULL);
CREATE TABLE IF NOT EXISTS seats (
    game TEXT NOT NULL, idx INTEGER NOT NULL, name TEXT NOT NULL, token_hash TEXT UNIQUE,
    deck TEXT, computer TEXT, handed INTEGER NOT NULL DEFAULT 0, stops TEXT NOT NULL DEFAULT '{}',
    PRIMARY KEY (game, idx));
CREATE TABLE IF NOT EXISTS answers (
    game TEXT NOT NULL, n INTEGER NOT NULL, player TEXT NOT NULL, answer TEXT NOT NULL,
    auto INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (game, n));
CREATE TABLE IF NOT EXISTS chat (
    game TEXT NOT NULL, seq INTEGER NOT NULL, seat TEXT NOT NULL, text TEXT NOT NULL, time REAL NOT NULL,
    PRIMARY KEY (game, seq));
"""

GAME_FIELDS = ("title", "options", "creator", "status", "spec", "engine", "cards_hash", "seq", "answers", "digest",
               "winner", "waiting", "round", "phase", "problem")
JSON_FIELDS = ("options", "spec", "waiting")


class Store(Protocol):
    """What the server needs of storage. Every method is one transaction."""

    def create(self, game: dict, seats: list[dict]) -> None: ...
    def update(self, game_id: str, **fields: Any) -> None: ...
    def save_seat(self, game_id: str, seat: dict) -> None: ...
    def append(self, game_id: str, first: int, entries: list[tuple[str, Any, bool]], **fields: Any) -> None: ...
    def truncate(self, game_id: str, keep: int, **fields: Any) -> None: ...
    def add_chat(self, game_id: str, seq: int, seat: str, text: str, when: float) -> None: ...
    def load(self, game_id: str) -> dict | None: ...
    def by_invite(self, invite: str) -> str | None: ...
    def by_token(self, token_hash: str) -> tuple[str, int] | None: ...
    def games_of(self, token_hashes: list[str]) -> list[dict]: ...
    def game_ids(self, statuses: tuple[str, ...] = ("waiting", "playing")) -> list[str]: ...
    def close(self) -> None: ...


class StoreError(Exception):
    """Storage failed (disk full, database locked or damaged); the command is not acknowledged."""


class SQLiteStore:
    """The embedded backend: one file, ``games.sqlite3`` in the server's data folder."""

    def __init__(self, path: str | Path, *, sync: str = "normal"):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute(f"PRAGMA synchronous={'FULL' if sync == 'full' else 'NORMAL'}")
        self.db.execute("PRAGMA busy_timeout=5000")
        self.db.executescript(SCHEMA)

    def _tx(self, work) -> Any:
        try:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                out = work(self.db)
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")
            return out
        except sqlite3.Error as err:
            raise StoreError(f"storage failed: {err}") from None

    @staticmethod
    def _set(fields: dict) -> tuple[str, list]:
        names, values = [], []
        for k, v in fields.items():
            if k not in GAME_FIELDS:
                raise ValueError(f"unknown game field {k}")
            names.append(f"{k}=?")
            values.append(json.dumps(v) if k in JSON_FIELDS and v is not None else v)
        names.append("updated=?")
        values.append(time.time())
        return ", ".join(names), values

    def create(self, game: dict, seats: list[dict]) -> None:
        now = time.time()

        def work(db):
            db.execute("INSERT INTO games (id, invite, title, options, creator, status, created, updated) "
                       "VALUES (?,?,?,?,?,?,?,?)", (game["id"], game["invite"], game["title"],
                                                    json.dumps(game["options"]), game.get("creator"),
                                                    game["status"], now, now))
            for s in seats:
                self._put_seat(db, game["id"], s)
        self._tx(work)

    @staticmethod
    def _put_seat(db, game_id: str, s: dict) -> None:
        db.execute("INSERT OR REPLACE INTO seats (game, idx, name, token_hash, deck, computer, handed, stops) "
                   "VALUES (?,?,?,?,?,?,?,?)", (game_id, s["idx"], s["name"], s.get("token_hash"), s.get("deck"),
                                                s.get("computer"), int(bool(s.get("handed"))),
                                                json.dumps(s.get("stops") or {})))

    def update(self, game_id: str, **fields: Any) -> None:
        sets, values = self._set(fields)
        self._tx(lambda db: db.execute(f"UPDATE games SET {sets} WHERE id=?", values + [game_id]))

    def save_seat(self, game_id: str, seat: dict) -> None:
        self._tx(lambda db: self._put_seat(db, game_id, seat))

    def append(self, game_id: str, first: int, entries: list[tuple[str, Any, bool]], **fields: Any) -> None:
        sets, values = self._set(fields)

        def work(db):
            db.executemany("INSERT INTO answers (game, n, player, answer, auto) VALUES (?,?,?,?,?)",
                           [(game_id, first + i, p, json.dumps(a), int(auto)) for i, (p, a, auto) in
                            enumerate(entries)])
            db.execute(f"UPDATE games SET {sets} WHERE id=?", values + [game_id])
        self._tx(work)

    def truncate(self, game_id: str, keep: int, **fields: Any) -> None:
        sets, values = self._set(fields)

        def work(db):
            db.execute("DELETE FROM answers WHERE game=? AND n>=?", (game_id, keep))
            db.execute(f"UPDATE games SET {sets} WHERE id=?", values + [game_id])
        self._tx(work)

    def add_chat(self, game_id: str, seq: int, seat: str, text: str, when: float) -> None:
        def work(db):
            db.execute("INSERT INTO chat (game, seq, seat, text, time) VALUES (?,?,?,?,?)",
                       (game_id, seq, seat, text, when))
            db.execute("UPDATE games SET seq=?, updated=? WHERE id=?", (seq, when, game_id))
        self._tx(work)

    def load(self, game_id: str) -> dict | None:
        db = self.db
        cur = db.execute("SELECT * FROM games WHERE id=?", (game_id,))
        row = cur.fetchone()
        if row is None:
            return None
        game = dict(zip([c[0] for c in cur.description], row))
        for k in JSON_FIELDS:
            if game[k] is not None:
                game[k] = json.loads(game[k])
        cur = db.execute("SELECT idx, name, token_hash, deck, computer, handed, stops FROM seats WHERE game=? "
                         "ORDER BY idx", (game_id,))
        game["seats"] = [{"idx": i, "name": n, "token_hash": t, "deck": d, "computer": c, "handed": bool(h),
                          "stops": json.loads(s)} for i, n, t, d, c, h, s in cur.fetchall()]
        cur = db.execute("SELECT player, answer, auto FROM answers WHERE game=? ORDER BY n", (game_id,))
        game["history"] = [(p, json.loads(a), bool(auto)) for p, a, auto in cur.fetchall()]
        cur = db.execute("SELECT seq, seat, text, time FROM chat WHERE game=? ORDER BY seq", (game_id,))
        game["chat"] = [{"seq": q, "seat": s, "text": t, "time": w} for q, s, t, w in cur.fetchall()]
        return game

    def by_invite(self, invite: str) -> str | None:
        row = self.db.execute("SELECT id FROM games WHERE invite=?", (invite,)).fetchone()
        return row[0] if row else None

    def by_token(self, token_hash: str) -> tuple[str, int] | None:
        row = self.db.execute("SELECT game, idx FROM seats WHERE token_hash=?", (token_hash,)).fetchone()
        return (row[0], row[1]) if row else None

    def games_of(self, token_hashes: list[str]) -> list[dict]:
        if not token_hashes:
            return []
        marks = ",".join("?" * len(token_hashes))
        cur = self.db.execute(
            f"SELECT g.id, g.invite, g.title, g.status, g.waiting, g.round, g.phase, g.updated, s.name, "
            f"s.token_hash FROM seats s JOIN games g ON g.id = s.game WHERE s.token_hash IN ({marks})",
            token_hashes)
        return [{"game": i, "invite": inv, "title": t, "status": st, "waiting": json.loads(w), "round": r,
                 "phase": ph, "updated": u, "seat": n, "token_hash": th}
                for i, inv, t, st, w, r, ph, u, n, th in cur.fetchall()]

    def game_ids(self, statuses: tuple[str, ...] = ("waiting", "playing")) -> list[str]:
        marks = ",".join("?" * len(statuses))
        return [r[0] for r in self.db.execute(f"SELECT id FROM games WHERE status IN ({marks})", statuses)]

    def close(self) -> None:
        self.db.close()


def open_store(url: str | None, data_dir: str | Path, *, sync: str = "normal") -> Store:
    """The store ``--store`` names: none, the SQLite file in the data folder; ``postgresql://...``, the
    PostgreSQL backend. Raises ``StoreError`` with a one-line reason."""
    if not url:
        return SQLiteStore(Path(data_dir) / "games.sqlite3", sync=sync)
    if url.startswith(("postgresql://", "postgres://")):
        from server.store_pg import PostgresStore

        return PostgresStore(url)
    raise StoreError(f"unknown store {url.split('://')[0]!r}: use postgresql://user@host:port/database, "
                     f"or leave --store out for SQLite in the data folder")
