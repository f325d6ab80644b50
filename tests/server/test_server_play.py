"""Whole games through WebSocket messages: two bot clients against a real server on loopback, killed with
SIGKILL mid-game and restarted (both clients come back on their own, to the same game), and a game
against a computer seat."""
from __future__ import annotations

import asyncio
import sqlite3

from engine.game import Options
from engine.replay import _decode, apply_history, start_from_spec
from cards.pool import practice_pool
from server.bot import NetBot
from server.client import Client, SeatSpec
from server_helpers import QUIET, ServerProcess, local_server, run, two_seats


def _stored(db_path) -> dict:
    db = sqlite3.connect(str(db_path))
    try:
        gid, status, answers, digest, problem, spec = db.execute(
            "SELECT id, status, answers, digest, problem, spec FROM games").fetchone()
        history = [(p, a) for p, a in db.execute("SELECT player, answer FROM answers WHERE game=? ORDER BY n",
                                                   (gid,))]
    finally:
        db.close()
    import json
    return {"id": gid, "status": status, "answers": answers, "digest": digest, "problem": problem,
            "spec": json.loads(spec), "history": [(p, _decode(json.loads(a))) for p, a in history]}


def _replayed_digest(stored: dict) -> str:
    game = start_from_spec(stored["spec"], practice_pool(), Options(prompt_all=True))
    apply_history(game, stored["history"])
    return game.state.digest()


def _public(view) -> tuple:
    """What a view says that does not depend on its ids."""
    st = view.state
    return (view.at, st["round"], st["phase"],
            tuple((p["name"], p["gold"], len(p["hand"]), len(p["deck"]), len(p["in_play"]), len(p["discard"]))
                  for p in st["players"]))


def test_two_clients_play_a_whole_game_through_a_kill_9_and_a_restart(tmp_path):
    server = ServerProcess(tmp_path)
    port = server.start()
    url = f"ws://127.0.0.1:{port}"

    async def main():
        a, b = await two_seats(url)
        try:
            await a.set_stops(QUIET)
            await b.set_stops(QUIET)
            bots = NetBot(a, 1), NetBot(b, 2)
            await asyncio.gather(*(bot.play(stop_at=120) for bot in bots))
            await asyncio.sleep(0.3)  # the last events reach both
            before = _public(a.view), _public(b.view)
            stored = _stored(tmp_path / "games.sqlite3")
            assert stored["status"] == "playing" and stored["answers"] >= 120
            assert _replayed_digest(stored) == stored["digest"]  # what is stored is the game as it stood

            server.kill9()
            await asyncio.sleep(0.3)
            assert not a.connected and not b.connected
            ServerProcess.start(server)  # the same port: the clients reconnect on their own
            for c, old in zip((a, b), before):
                await c.wait_connected(30)
                while c.reconnects == 0 or c.view is None or c.snapshots < 2:
                    await c.next_event(30)
                assert c.view.status == "playing"
                assert _public(c.view) == old  # the same position, to the answer
            after = _stored(tmp_path / "games.sqlite3")
            assert after["digest"] == stored["digest"] and after["problem"] is None

            winners = await asyncio.gather(*(bot.play() for bot in bots))
            assert winners[0] == winners[1] and winners[0] in ("Alice", "Bob")
            final = _stored(tmp_path / "games.sqlite3")
            assert final["status"] == "over"
            assert _replayed_digest(final) == final["digest"]
        finally:
            await a.close()
            await b.close()

    try:
        run(main(), 240)
    finally:
        server.stop()


def test_a_person_against_a_computer_seat_through_a_kill_9(tmp_path):
    """The computer seat lives in the server: after a kill -9 and a restart it goes on where it was."""
    server = ServerProcess(tmp_path)
    url = f"ws://127.0.0.1:{server.start()}"

    async def main():
        a = Client(url)
        await a.connect()
        try:
            me = await a.create([SeatSpec("Alice", "practice:stark"),
                                 SeatSpec("Bob", "practice:lannister", computer="random")])
            assert me.token and len(me.token) >= 22  # 128 random bits
            await a.set_stops(QUIET)
            bot = NetBot(a, 5)
            await bot.play(stop_at=80)
            stored = _stored(tmp_path / "games.sqlite3")
            server.kill9()
            ServerProcess.start(server)
            winner = await bot.play()
            final = _stored(tmp_path / "games.sqlite3")
            assert final["status"] == "over" and winner in ("Alice", "Bob")
            assert final["history"][:len(stored["history"])] == stored["history"]  # nothing lost or changed
            assert _replayed_digest(final) == final["digest"]
            db = sqlite3.connect(str(tmp_path / "games.sqlite3"))
            autos = {auto for (auto,) in db.execute("SELECT auto FROM answers")}
            db.close()
            assert autos == {0, 1}  # the computer's answers and Alice's
            assert a.reconnects == 1
        finally:
            await a.close()

    try:
        run(main(), 180)
    finally:
        server.stop()


def test_a_client_rebuilds_the_table_from_its_view(tmp_path):
    """``Client.table_game()``: the view as a read-only Game the table can draw (derived values work)."""
    async def main():
        async with local_server(tmp_path) as (srv, url):
            a, b = await two_seats(url)
            for c in (a, b):
                while c.view is None or c.view.state is None:
                    await c.next_event(10)
                g = c.table_game()
                me = g.state.player(c.seat)
                assert len(me.hand) == 7 and all(g.card(x).key != "hidden" for x in me.hand)
                assert all(g.strength(x) is not None for x in me.hand if g.defn(x).type == "character")
                other = [p for p in g.state.players if p.name != c.seat][0]
                assert all(g.card(x).key == "hidden" for x in other.hand)
            await a.close()
            await b.close()
    run(main(), 60)
