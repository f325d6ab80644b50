"""The storage tests, run on both backends of ``server.store.Store``: SQLite (embedded) and PostgreSQL (a
real server started for this module from Debian's ``postgresql`` package; skipped, saying why, where it
or the pg8000 driver is missing). And one short whole game through ``maester-server --store
postgresql://...``, killed with SIGKILL mid-game and restarted."""
from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading

import pytest

from server.store import SQLiteStore, StoreError, open_store
from pg_helpers import PostgresServer, why_not

GAME = {"id": "g1", "invite": "INV-1", "title": "Alice's game", "options": {"seats": 2, "mode": "enforce", "era": "x"},
        "creator": "Alice", "status": "waiting"}
SEATS = [{"idx": 0, "name": "Alice", "token_hash": "h0", "deck": "practice:stark", "computer": None, "handed": False,
          "stops": {}},
         {"idx": 1, "name": "Bob", "token_hash": "h1", "deck": None, "computer": None, "handed": False, "stops": {}}]


@pytest.fixture(scope="module")
def pg_server():
    reason = why_not()
    if reason:
        pytest.skip(f"PostgreSQL tests skipped: {reason}")
    server = PostgresServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def opener(request, tmp_path):
    """A function opening a new connection (a new ``Store``) to one fresh, empty storage."""
    if request.param == "sqlite":
        def new():
            return SQLiteStore(tmp_path / "games.sqlite3")
    else:
        url = request.getfixturevalue("pg_server").url()

        def new():
            return open_store(url, tmp_path)
    opened = []

    def make():
        opened.append(new())
        return opened[-1]
    yield make
    for store in opened:
        store.close()


@pytest.fixture
def store(opener):
    s = opener()
    s.create(GAME, SEATS)
    return s


def test_create_and_load(store):
    g = store.load("g1")
    assert {k: g[k] for k in ("id", "invite", "title", "creator", "status", "seq", "answers", "digest", "waiting")} \
        == {"id": "g1", "invite": "INV-1", "title": "Alice's game", "creator": "Alice", "status": "waiting",
            "seq": 0, "answers": 0, "digest": None, "waiting": []}
    assert g["options"] == GAME["options"] and list(g["options"]) == ["seats", "mode", "era"]  # as written
    assert g["seats"] == SEATS and g["history"] == [] and g["chat"] == []
    assert isinstance(g["created"], float) and g["updated"] >= g["created"]
    assert store.load("nope") is None


def test_create_refuses_a_taken_id_or_invite(store):
    with pytest.raises(StoreError):
        store.create(dict(GAME, invite="INV-2"), [])
    with pytest.raises(StoreError):
        store.create(dict(GAME, id="g2"), [])
    assert store.game_ids() == ["g1"] and store.load("g2") is None


def test_update(store):
    spec = {"seed": 7, "decks": {"Bob": ["b", "a"], "Alice": ["z", "y"]}}
    store.update("g1", spec=spec, engine="0.1/abc", cards_hash="c1", status="playing", waiting=["Bob"], round=2,
                 phase="plot", digest="d0")
    g = store.load("g1")
    assert (g["spec"], g["engine"], g["cards_hash"], g["status"], g["waiting"], g["round"], g["phase"],
            g["digest"]) == (spec, "0.1/abc", "c1", "playing", ["Bob"], 2, "plot", "d0")
    assert list(g["spec"]["decks"]) == ["Bob", "Alice"]  # key order kept: a game replays from what was stored
    with pytest.raises(ValueError):
        store.update("g1", status="over", nonsense=1)
    assert store.load("g1")["status"] == "playing"


def test_seats(store):
    seat = dict(SEATS[1], deck="practice:lannister", computer="random", handed=True,
                stops={"actions": ["marshalling"], "saves": False})
    store.save_seat("g1", seat)
    g = store.load("g1")
    assert g["seats"] == [SEATS[0], seat]
    assert store.by_token("h1") == ("g1", 1) and store.by_token("h0") == ("g1", 0)
    assert store.by_token("unknown") is None


def test_append_keeps_the_order(store):
    first = [("Alice", {"choose": [3, 1], "z": 1, "a": 2}, False), ("Bob", {"pass": True}, True),
             ("Alice", "plain", False)]
    store.append("g1", 0, first, answers=3, digest="d3", seq=1, status="playing")
    store.append("g1", 3, [("Bob", {"pass": True}, False), ("Alice", [1, 2], True)], answers=5, digest="d5",
                 seq=2, waiting=["Bob"])
    g = store.load("g1")
    assert g["history"] == first + [("Bob", {"pass": True}, False), ("Alice", [1, 2], True)]
    assert list(g["history"][0][1]) == ["choose", "z", "a"]
    assert (g["answers"], g["digest"], g["seq"], g["status"], g["waiting"]) == (5, "d5", 2, "playing", ["Bob"])
    store.append("g1", 5, [], seq=3)  # a change without answers (a game starting, a seat handed over)
    assert store.load("g1")["seq"] == 3 and len(store.load("g1")["history"]) == 5


def test_append_over_stored_answers_is_refused_and_changes_nothing(store):
    store.append("g1", 0, [("Alice", 1, False), ("Bob", 2, False)], answers=2, digest="d2")
    before = store.load("g1")
    with pytest.raises(StoreError):
        store.append("g1", 1, [("Alice", 9, False), ("Bob", 9, False)], answers=3, digest="bad")
    after = store.load("g1")
    assert after["history"] == before["history"] and after["digest"] == "d2" and after["answers"] == 2


def test_truncate(store):
    store.append("g1", 0, [("Alice", i, False) for i in range(5)], answers=5, status="over", winner="Alice")
    store.truncate("g1", 2, answers=2, status="playing", winner=None, digest="d2")
    g = store.load("g1")
    assert [a for _, a, _ in g["history"]] == [0, 1]
    assert (g["answers"], g["status"], g["winner"], g["digest"]) == (2, "playing", None, "d2")
    store.append("g1", 2, [("Bob", "again", False)], answers=3)
    assert [a for _, a, _ in store.load("g1")["history"]] == [0, 1, "again"]


def test_chat(store):
    store.add_chat("g1", 1, "Alice", "hello", 100.5)
    store.add_chat("g1", 2, "spectator", "hi — ça va? ✓", 101.0)
    g = store.load("g1")
    assert g["chat"] == [{"seq": 1, "seat": "Alice", "text": "hello", "time": 100.5},
                         {"seq": 2, "seat": "spectator", "text": "hi — ça va? ✓", "time": 101.0}]
    assert g["seq"] == 2
    with pytest.raises(StoreError):
        store.add_chat("g1", 2, "Bob", "same number", 102.0)
    assert len(store.load("g1")["chat"]) == 2


def test_lobby_lookups(store):
    store.create({"id": "g2", "invite": "INV-2", "title": "two", "options": {}, "creator": None, "status": "waiting"},
                 [dict(SEATS[0], token_hash="h2")])
    store.update("g2", status="playing", waiting=["Alice"], round=3, phase="challenges")
    store.create({"id": "g3", "invite": "INV-3", "title": "three", "options": {}, "status": "waiting"}, [])
    store.update("g3", status="over")
    assert store.by_invite("INV-2") == "g2" and store.by_invite("INV-1") == "g1" and store.by_invite("x") is None
    rows = sorted(store.games_of(["h0", "h2", "nobody"]), key=lambda r: r["game"])
    assert [(r["game"], r["invite"], r["title"], r["status"], r["waiting"], r["round"], r["phase"], r["seat"],
             r["token_hash"]) for r in rows] == [
        ("g1", "INV-1", "Alice's game", "waiting", [], 0, "", "Alice", "h0"),
        ("g2", "INV-2", "two", "playing", ["Alice"], 3, "challenges", "Alice", "h2")]
    assert all(isinstance(r["updated"], float) for r in rows)
    assert store.games_of([]) == []
    assert sorted(store.game_ids()) == ["g1", "g2"]
    assert store.game_ids(("over",)) == ["g3"]


def test_another_connection_sees_what_was_committed(store, opener):
    store.append("g1", 0, [("Alice", {"x": 1}, False)], answers=1, digest="d1")
    store.add_chat("g1", 1, "Alice", "gg", 5.0)
    store.close()
    other = opener()
    g = other.load("g1")
    assert g["history"] == [("Alice", {"x": 1}, False)] and g["digest"] == "d1" and len(g["chat"]) == 1


def test_concurrent_appends_from_two_connections_neither_interleave_nor_duplicate(store, opener):
    """Two writers (two connections, two threads) each store 12 batches of 3 answers, each read-then-append
    and retrying when the other got there first: every batch is stored once, whole and in order."""
    writers = [opener(), opener()]
    errors = []

    def write(who: str, s) -> None:
        try:
            for b in range(12):
                for _ in range(500):
                    n = len(s.load("g1")["history"])
                    try:
                        s.append("g1", n, [(who, {"batch": b, "k": k}, False) for k in range(3)], answers=n + 3)
                        break
                    except StoreError:
                        continue
                else:
                    errors.append(f"{who}: batch {b} never stored")
        except Exception as err:  # noqa: BLE001 - reported below
            errors.append(f"{who}: {err!r}")

    threads = [threading.Thread(target=write, args=(who, s)) for who, s in zip(("Alice", "Bob"), writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not any(t.is_alive() for t in threads) and errors == []
    g = store.load("g1")
    history = g["history"]
    assert len(history) == 72 and g["answers"] == 72
    batches = [history[i:i + 3] for i in range(0, 72, 3)]
    for batch in batches:  # each batch whole: one writer, one batch number, k = 0, 1, 2
        assert len({(p, a["batch"]) for p, a, _ in batch}) == 1 and [a["k"] for _, a, _ in batch] == [0, 1, 2]
    for who in ("Alice", "Bob"):
        assert [b[0][1]["batch"] for b in batches if b[0][0] == who] == list(range(12))


# -- PostgreSQL only -------------------------------------------------------------------------------------

def test_postgres_refuses_an_append_that_does_not_follow_the_stored_answers(pg_server, tmp_path):
    """A process that lost a game (another one wrote it meanwhile) cannot append after a gap."""
    s = open_store(pg_server.url(), tmp_path)
    try:
        s.create(GAME, SEATS)
        s.append("g1", 0, [("Alice", 1, False)], answers=1)
        with pytest.raises(StoreError, match="has 1 answers stored, not 3"):
            s.append("g1", 3, [("Alice", 2, False)], answers=4)
        with pytest.raises(StoreError, match="no game"):
            s.append("nope", 0, [("Alice", 2, False)], answers=1)
        assert s.load("g1")["history"] == [("Alice", 1, False)]
    finally:
        s.close()


def test_postgres_store_reconnects_after_the_connection_is_lost(pg_server, tmp_path):
    s = open_store(pg_server.url(), tmp_path)
    try:
        s.create(GAME, SEATS)
        s.db.close()  # as if the database restarted
        with pytest.raises(StoreError):
            s.load("g1")
        assert s.load("g1")["id"] == "g1"  # the next call opens a new connection
    finally:
        s.close()


def test_store_options_that_cannot_work_are_one_line(tmp_path, monkeypatch, capsys):
    from server.main import main

    monkeypatch.setitem(sys.modules, "pg8000", None)  # as on a machine without the driver
    monkeypatch.setitem(sys.modules, "pg8000.dbapi", None)
    assert main(["--data", str(tmp_path), "--store", "postgresql://127.0.0.1/maester"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == ("maester-server: the PostgreSQL store needs the pg8000 driver: pip install 'maester[postgres]' "
                   "(or pip install pg8000)")
    assert main(["--data", str(tmp_path), "--store", "mysql://x/y"]) == 2
    assert "unknown store 'mysql'" in capsys.readouterr().err


def test_an_unreachable_database_is_one_line(tmp_path, capsys):
    pytest.importorskip("pg8000", reason="the pg8000 driver is not installed")
    from server.main import main

    assert main(["--data", str(tmp_path), "--store", "postgresql://bob:secret@127.0.0.1:1/maester"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("maester-server: cannot reach the PostgreSQL database postgresql://bob:***@127.0.0.1:1")
    assert "secret" not in err and "\n" not in err and "Traceback" not in err


# -- a whole game on PostgreSQL, through a kill -9 --------------------------------------------------------

def test_a_game_on_postgres_survives_a_kill_9_and_a_restart(pg_server, tmp_path):
    from engine.game import Options
    from engine.replay import _decode, apply_history, start_from_spec
    from cards.pool import practice_pool
    from server.bot import NetBot
    from server.store_pg import PostgresStore
    from server_helpers import QUIET, ROOT, ServerProcess, run, two_seats

    url = pg_server.url()

    class PgServerProcess(ServerProcess):
        def start(self) -> int:  # ServerProcess.start, with --store
            env = dict(os.environ, PYTHONPATH=str(ROOT), MAESTER_HOME=str(self.data_dir / "home"))
            self.proc = subprocess.Popen([sys.executable, "-m", "server", "--port", str(self.port), "--data",
                                          str(self.data_dir), "--store", url], cwd=ROOT, env=env,
                                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            line = self.proc.stdout.readline()
            if "listening on port" not in line:
                self.proc.kill()
                raise RuntimeError(f"the server did not start: {line!r}")
            self.port = int(line.rsplit(" ", 1)[1])
            return self.port

    def stored() -> dict:
        s = PostgresStore(url)
        try:
            (gid,) = s.game_ids(("waiting", "playing", "over"))
            return s.load(gid)
        finally:
            s.close()

    def replayed(rec: dict) -> str:
        game = start_from_spec(rec["spec"], practice_pool(), Options(prompt_all=True))
        apply_history(game, [(p, _decode(a)) for p, a, _ in rec["history"]])
        return game.state.digest()

    server = PgServerProcess(tmp_path)
    port = server.start()

    async def main():
        a, b = await two_seats(f"ws://127.0.0.1:{port}")
        try:
            await a.set_stops(QUIET)
            await b.set_stops(QUIET)
            bots = NetBot(a, 1), NetBot(b, 2)
            await asyncio.gather(*(bot.play(stop_at=60) for bot in bots))
            await asyncio.sleep(0.3)
            before = stored()
            assert before["status"] == "playing" and before["answers"] >= 60
            assert replayed(before) == before["digest"]
            assert not (tmp_path / "games.sqlite3").exists()  # nothing went to SQLite

            server.kill9()
            await asyncio.sleep(0.3)
            server.start()  # the same port: the clients reconnect on their own
            for c in (a, b):
                await c.wait_connected(30)
                while c.reconnects == 0 or c.view is None or c.snapshots < 2:
                    await c.next_event(30)
                assert c.view.status == "playing"
            after = stored()
            assert after["digest"] == before["digest"] and after["problem"] is None
            assert after["history"] == before["history"]

            winners = await asyncio.gather(*(bot.play() for bot in bots))
            assert winners[0] == winners[1] and winners[0] in ("Alice", "Bob")
            final = stored()
            assert final["status"] == "over" and replayed(final) == final["digest"]
        finally:
            await a.close()
            await b.close()

    try:
        run(main(), 300)
    finally:
        server.stop()


def test_postgres_url_forms(pg_server, tmp_path, monkeypatch):
    from server.store_pg import connect_args, redact

    monkeypatch.setenv("PGPASSWORD", "from-env")
    a = connect_args("postgresql://bob:p%40ss@db.example:6543/games?sslmode=require")
    assert (a["user"], a["password"], a["host"], a["port"], a["database"]) == ("bob", "p@ss", "db.example", 6543,
                                                                                "games")
    assert a["ssl_context"].check_hostname is False
    a = connect_args("postgresql://bob@/games?host=/run/postgresql&sslmode=verify-full")
    assert a["unix_sock"] == "/run/postgresql/.s.PGSQL.5432" and a["password"] == "from-env"
    assert a["ssl_context"].check_hostname is True
    assert redact("postgresql://bob:p%40ss@h/db") == "postgresql://bob:***@h/db"
    with pytest.raises(StoreError, match="sslmode"):
        connect_args("postgresql://h/db?sslmode=sometimes")
    # the real server through its Unix socket
    db = pg_server.url().rsplit("/", 1)[1]
    s = open_store(f"postgresql://{pg_server.user}@/{db}?host={pg_server.dir}&port={pg_server.port}", tmp_path)
    try:
        s.create(GAME, SEATS)
        assert s.by_invite("INV-1") == "g1"
    finally:
        s.close()
