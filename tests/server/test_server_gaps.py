"""What the online client needs from the server without reading text: card definitions with their abilities
(of cards the seat sees only), away/back as data, advise-mode warnings in the view, a deck error a table user
can act on."""
from __future__ import annotations

import asyncio

import msgspec
import pytest

from server import protocol as P
from server.client import Client, SeatSpec, ServerError
from server_helpers import local_server, run, two_seats


async def _wait(c: Client, test, timeout: float = 10):
    async def loop():
        while not test():
            await c.next_event(timeout)
    await asyncio.wait_for(loop(), timeout)


def test_definitions_carry_the_abilities_of_the_cards_the_seat_sees_only(tmp_path):
    async def main():
        async with local_server(tmp_path) as (srv, url):
            a, b = await two_seats(url)
            await _wait(a, lambda: a.view is not None and a.view.state is not None)
            pool = srv.rooms[a.game].game.pool
            with_abilities = [k for k in a.defs if pool[k].abilities]
            assert with_abilities  # a practice hand and house card have automated text
            for k in with_abilities:
                assert a.defs[k]["abilities"] == msgspec.json.decode(msgspec.json.encode(pool[k].abilities))
            st = a.view.state
            shown = {c["key"] for c in st["cards"].values()}
            assert "hidden" in shown and set(a.defs) <= shown  # nothing defined that the seat cannot see
            for x in (a, b):
                await x.close()
    run(main(), 60)


def test_away_and_back_arrive_as_data(tmp_path):
    async def main():
        async with local_server(tmp_path) as (srv, url):
            a, b = await two_seats(url)
            token = b.token
            await b.close()

            async def notice(kind):
                while True:
                    m = await a.next_event(10)
                    if isinstance(m, P.Notice) and m.kind == kind:
                        return m
            away = await notice("away")
            bob = next(s for s in away.seats if s.name == "Bob")
            assert not bob.connected and bob.away_s is not None
            b2 = Client(url)
            await b2.connect()
            await b2.resume(token)
            back = await notice("back")
            bob = next(s for s in back.seats if s.name == "Bob")
            assert bob.connected and bob.away_s is None
            for x in (a, b2):
                await x.close()
    run(main(), 30)


def test_advise_mode_free_move_warnings_reach_the_movers_view(tmp_path):
    async def main():
        async with local_server(tmp_path) as (srv, url):
            a, b = await two_seats(url, mode="advise")
            n = a.view.at
            await a.free_move({"draw": "Alice", "count": 5})
            await _wait(a, lambda: a.view.at == n + 1)
            await _wait(b, lambda: b.view.at == n + 1)
            assert a.view.warnings and any("DRW-" in w or "SET-" in w for w in a.view.warnings)
            assert b.view.warnings == []  # the rules Alice broke are hers to read (the log tells everyone)
            for x in (a, b):
                await x.close()
    run(main(), 60)


def test_an_unreadable_deck_says_what_to_do_at_the_table(tmp_path):
    async def main():
        async with local_server(tmp_path) as (srv, url):
            c = Client(url)
            await c.connect()
            with pytest.raises(ServerError) as err:
                await c.create([SeatSpec("A", "practice:stark"),
                                SeatSpec("B", "House: Stark\nAgenda: None\n3x Zzqx Not A Card Anywhere\n")])
            msg = err.value.message
            assert err.value.code == "deck" and "--pool" not in msg
            assert "take the card out of the deck" in msg
            await c.close()
    run(main(), 30)
