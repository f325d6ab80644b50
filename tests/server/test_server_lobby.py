"""The lobby and the life of an online game: my games, chat across a reconnect, undo by agreement, an away
seat handed to the computer, deck checks, spectators, a stored game whose engine changed or that no longer
replays, and TLS."""
from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
import ssl
import subprocess

import pytest

from server import protocol as P
from server.app import Server
from server.client import Client, SeatSpec, ServerError
from server_helpers import local_server, run, two_seats


async def _pending_client(srv, a, b):
    room = srv.rooms[a.game]
    who = room.game.advance().player
    return (a, b) if a.seat == who else (b, a)


async def _wait(c: Client, test, timeout: float = 10):
    async def loop():
        while not test():
            await c.next_event(timeout)
    await asyncio.wait_for(loop(), timeout)


def test_my_games_put_waiting_for_you_first_and_chat_is_caught_up_on_resume(tmp_path):
    async def main():
        async with local_server(tmp_path) as (srv, url):
            a, b = await two_seats(url)
            c, d = await two_seats(url, title="second")
            asked, _ = await _pending_client(srv, a, b)
            asked2, other2 = await _pending_client(srv, c, d)
            games = (await a.my_games([a.token, other2.token, "A" * 22])).games
            assert len(games) == 2
            assert [g.waiting_for_you for g in games] == sorted((g.waiting_for_you for g in games), reverse=True)
            for g in games:
                assert g.waiting_for_you == (g.seat in g.waiting_for)
            assert games[0].waiting_for_you == (a is asked)

            await a.say("hello")
            await _wait(b, lambda: any(x.text == "hello" for x in b.chat))
            token, seq = b.token, b.last_seq
            await b.close()
            await a.say("again")
            b2 = Client(url)
            await b2.connect()
            await b2.resume(token, seq)
            await _wait(b2, lambda: b2.snapshots > 0)
            assert [x.text for x in b2.chat] == ["again"]  # only what it missed
            for x in (a, b2, c, d):
                await x.close()
    run(main(), 60)


def test_undo_takes_back_an_answer_when_the_other_player_accepts(tmp_path):
    async def main():
        async with local_server(tmp_path) as (srv, url):
            a, b = await two_seats(url)
            room = srv.rooms[a.game]
            asked, other = await _pending_client(srv, a, b)
            await _wait(asked, lambda: asked.decision is not None)
            before = (room.game.state.digest(), len(room.game.history))
            await asked.answer({"pass": True}, at=asked.decision.at)
            assert len(room.game.history) > before[1]
            with pytest.raises(ServerError):
                await other.undo()  # not his answer
            await asked.undo()
            await _wait(other, lambda: other.view.undo_asked_by == asked.seat)
            await other.undo_reply(False)  # refused: nothing changes
            assert len(room.game.history) > before[1]
            await asked.undo()
            await _wait(other, lambda: other.view.undo_asked_by == asked.seat)
            snaps = asked.snapshots
            await other.undo_reply(True)
            assert (room.game.state.digest(), len(room.game.history)) == before
            await _wait(asked, lambda: asked.snapshots > snaps)
            assert asked.view.at == before[1] and asked.decision is not None
            await a.close()
            await b.close()
    run(main(), 60)


def test_an_away_seat_waits_then_may_be_handed_to_the_computer_and_taken_back(tmp_path):
    async def main():
        async with local_server(tmp_path) as (srv, url):
            a, b = await two_seats(url, away_minutes=1)
            room = srv.rooms[a.game]
            token = b.token
            await b.close()
            await _wait(a, lambda: any(s.name == "Bob" and s.kind == "person" and not s.connected
                                       for s in (a.view.seats if a.view else [])) or False)
            with pytest.raises(ServerError) as err:
                await a.away("Bob", "computer")
            assert err.value.code == "forbidden"  # the creator chose to wait a minute
            room.seat("Bob").away_since -= 120
            await a.away("Bob", "computer", level="random")
            assert room.seat("Bob").computer == "random"
            d = room.game.advance()
            assert getattr(d, "player", "Alice") == "Alice"  # the computer answered what Bob owed
            b2 = Client(url)
            await b2.connect()
            await b2.resume(token)
            assert room.seat("Bob").computer is None  # he takes his seat back
            await a.close()
            await b2.close()
    run(main(), 60)


def test_decks_are_checked_and_spectators_see_public_information_only(tmp_path):
    async def main():
        async with local_server(tmp_path) as (srv, url):
            c = Client(url)
            await c.connect()
            with pytest.raises(ServerError) as err:
                await c.create([SeatSpec("A", "practice:stark"), SeatSpec("B", "practice:lannister")], era="ccg")
            assert err.value.code == "deck" and "(ERA)" in err.value.message
            with pytest.raises(ServerError) as err:
                await c.create([SeatSpec("A", "practice:stark"),
                                SeatSpec("B", "House: Stark\nAgenda: Vow of the Old Roads\n4x Lord Harlen Coldbrook\n")])
            assert err.value.code == "deck" and "B:" in err.value.message
            a, b = await two_seats(url)
            await c.watch(a.invite)
            await _wait(c, lambda: c.view is not None and c.view.state is not None)
            assert c.view.decision is None and c.view.you is None
            hands = [cid for p in c.view.state["players"] for cid in p["hand"]]
            assert hands and all(c.view.state["cards"][str(x)]["key"] == "hidden" for x in hands)
            with pytest.raises(ServerError):
                await c.answer({"pass": True})
            for x in (a, b, c):
                await x.close()
    run(main(), 60)


def test_a_changed_engine_is_checked_and_a_game_that_no_longer_replays_is_reported_untouched(tmp_path):
    async def play():
        async with local_server(tmp_path) as (srv, url):
            a, b = await two_seats(url)
            asked, _ = await _pending_client(srv, a, b)
            await _wait(asked, lambda: asked.decision is not None)
            await asked.answer({"pass": True}, at=asked.decision.at)
            await a.close()
            await b.close()
            return a.game
    gid = run(play(), 60)
    db = sqlite3.connect(str(tmp_path / "games.sqlite3"))
    db.execute("UPDATE games SET engine='maester 0.0 engine old'")
    db.commit()
    srv = Server(tmp_path)
    srv.load_all()
    assert srv.rooms[gid].status == "playing"
    assert any("replays to the same digest" in p for p in srv.problems), srv.problems
    assert db.execute("SELECT engine FROM games").fetchone()[0] == srv.engine_version
    srv.store.close()

    n, answer = db.execute("SELECT n, answer FROM answers ORDER BY n LIMIT 1").fetchone()
    db.execute("UPDATE answers SET answer=? WHERE n=?", (json.dumps({"setup": [123456]}), n))
    db.commit()
    rows = db.execute("SELECT * FROM answers ORDER BY n").fetchall()
    game_row = db.execute("SELECT answers, digest, status, seq FROM games").fetchone()
    srv = Server(tmp_path)
    srv.load_all()
    assert srv.rooms[gid].status == "broken"
    assert any("no longer replays" in p for p in srv.problems), srv.problems
    assert db.execute("SELECT * FROM answers ORDER BY n").fetchall() == rows  # never silently changed
    assert db.execute("SELECT answers, digest, status, seq FROM games").fetchone() == game_row
    srv.store.close()
    db.close()


def test_tls_with_cert_and_key(tmp_path):
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed: no certificate to test TLS with")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
                    "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out",
                    str(cert)], check=True, capture_output=True, timeout=60)
    server_ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server_ctx.load_cert_chain(cert, key)
    client_ctx = ssl.create_default_context(cafile=str(cert))

    async def main():
        srv = Server(tmp_path)
        ready = asyncio.get_running_loop().create_future()
        task = asyncio.create_task(srv.serve("127.0.0.1", 0, ssl=server_ctx, ready=ready.set_result))
        port = await ready
        c = Client(f"wss://127.0.0.1:{port}", ssl=client_ctx)
        await c.connect()
        assert isinstance(await c.ping(), P.Pong)
        await c.close()
        task.cancel()
        srv.store.close()
    run(main(), 60)


def test_online_prompts_follow_the_stop_settings_never_whether_a_seat_has_a_play(tmp_path):
    """Alice keeps the default stops (asked in every response and save window, legal play or not); Bob
    stops only in marshalling. What each is asked is recorded from the frames the server sends."""
    from server.bot import NetBot
    from server_helpers import QUIET

    asked: dict = {"Alice": [], "Bob": []}

    def hook(conn, data):
        m = P.decode_server(data)
        v = getattr(m, "view", None)
        if v is not None and v.decision is not None and conn.seat in asked:
            asked[conn.seat].append((v.decision.kind, v.state["phase"], len(v.decision.options), v.decision.at))

    async def main():
        async with local_server(tmp_path, frame_hook=hook) as (srv, url):
            a, b = await two_seats(url)
            await b.set_stops(QUIET)
            await asyncio.gather(NetBot(a, 3, rebuild=False).play(stop_at=250),
                                 NetBot(b, 4, rebuild=False).play(stop_at=250))
            for x in (a, b):
                await x.close()
    run(main(), 120)
    bob = set(asked["Bob"])
    assert bob and not [x for x in bob if x[0] in ("response", "save_cancel")]
    assert not [x for x in bob if x[0] == "action" and x[1] != "marshalling"]
    alice_empty = [x for x in set(asked["Alice"]) if x[0] in ("response", "save_cancel") and x[2] == 0]
    assert alice_empty  # asked although passing was all she could do: the prompt tells nobody anything


def test_advise_mode_takes_free_moves(tmp_path):
    async def main():
        async with local_server(tmp_path) as (srv, url):
            a, b = await two_seats(url, mode="advise")
            room = srv.rooms[a.game]
            n = len(room.game.history)
            hand = len(room.game.state.player("Alice").hand)
            await a.free_move({"draw": "Alice", "count": 1})
            assert len(room.game.history) == n + 1 and room.game.history[-1] == ("Alice", {"free": {"draw": "Alice", "count": 1}})
            assert len(room.game.state.player("Alice").hand) == hand + 1
            await _wait(b, lambda: b.view.at == n + 1)
            for x in (a, b):
                await x.close()
    run(main(), 60)


def test_the_others_see_who_is_away_and_for_how_long(tmp_path):
    async def main():
        async with local_server(tmp_path, presence_every=0.05) as (srv, url):
            a, b = await two_seats(url)
            await b.close()
            texts = []
            while not any(t.startswith("Bob is away (") for t in texts):
                m = await a.next_event(10)
                if isinstance(m, P.Notice):
                    texts.append(m.text)
            assert "Bob is away" in texts and "Bob is away (0 min)" in texts
            bob = [s for s in srv.rooms[a.game].seat_infos() if s.name == "Bob"][0]
            assert not bob.connected and bob.away_s is not None
            await a.close()
    run(main(), 30)
