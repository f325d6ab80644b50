"""A ``strong`` computer seat works out its answers in a worker thread with its game locked: other games'
answers are taken and acknowledged meanwhile, and the stored history replays to the stored digest."""
from __future__ import annotations

import asyncio
import threading

from engine.game import Options
from engine.replay import apply_history, start_from_spec
from server import rooms
from server.bot import NetBot
from server.client import Client, SeatSpec
from server_helpers import QUIET, local_server, run, two_seats


def test_another_games_answers_are_acknowledged_while_a_strong_seat_thinks(tmp_path, monkeypatch):
    armed, thinking, other_acked = threading.Event(), threading.Event(), threading.Event()
    saw: list[bool] = []
    real_make = rooms.make_player

    class SlowThinker:
        """The strong player, made deliberately slow once armed: it thinks until another game's answer is
        acknowledged (or gives up after a bound, which fails the test)."""

        def __init__(self, real):
            self.real = real

        def candidates(self, game, d):
            if armed.is_set():
                armed.clear()
                thinking.set()
                saw.append(other_acked.wait(5))
            return self.real.candidates(game, d)

        def play_turn(self, game):  # the same choice when it is made in place
            d = game.advance()
            return self.real.give(game, d, self.candidates(game, d))

        def __getattr__(self, name):
            return getattr(self.real, name)

    monkeypatch.setattr(rooms, "make_player", lambda level, **kw: SlowThinker(real_make(level, **kw))
                        if level == "strong" else real_make(level, **kw))

    async def main():
        async with local_server(tmp_path) as (srv, url):
            a = Client(url)
            await a.connect()
            me = await a.create([SeatSpec("Alice", "practice:stark"),
                                 SeatSpec("Bob", "practice:lannister", computer="strong")])
            await a.set_stops(QUIET)
            c1, c2 = await two_seats(url)
            other = srv.rooms[c1.game]
            armed.set()
            alice = asyncio.create_task(NetBot(a, 3).play())
            while not thinking.is_set():  # Alice plays until Bob thinks (a bounded wait: run's timeout)
                await asyncio.sleep(0.01)
            room = srv.rooms[me.game]
            h0 = len(room.game.history)
            chat = asyncio.create_task(a.say("are you there?"))  # a command for Bob's game waits for him
            n = len(other.game.history)
            pending = c1 if other.game.advance().player == c1.seat else c2
            await NetBot(pending, 1).play(stop_at=n + 1)  # returns once its answer is acknowledged
            assert len(other.game.history) > n
            await asyncio.sleep(0.05)
            assert not chat.done() and len(room.game.history) == h0
            other_acked.set()
            await chat
            assert len(room.game.history) > h0  # Bob's answer came first
            while not saw:
                await asyncio.sleep(0.01)
            assert saw == [True]  # the other game's answer was acknowledged while Bob was still thinking
            at = len(room.game.history)
            while len(room.game.history) == at:  # Bob answers; the game goes on
                await asyncio.sleep(0.01)
            alice.cancel()
            await asyncio.gather(alice, return_exceptions=True)
            game = start_from_spec(room.spec, srv.pool, Options(prompt_all=True))
            apply_history(game, room.game.history)
            stored = srv.store.load(room.id)
            assert game.state.digest() == room.digest == stored["digest"]
            assert len(stored["history"]) == len(room.game.history)
            for x in (a, c1, c2):
                await x.close()
    run(main(), 120)
