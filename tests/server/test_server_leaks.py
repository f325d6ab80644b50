"""No frame a client receives names or identifies a card that client may not see.

Every frame sent to every client over whole 2-, 3- and 4-player games is recorded (the server's
``frame_hook``, in this process, so the real game is read at the moment the frame was built). For each:

- no key, title or text of a card hidden from that client (``engine.visibility``) and of which he was
  never shown a card, anywhere in the frame;
- no id that follows a hidden card: an id that stood for a hidden card is never used again for that card,
  and a card seen, then hidden, then seen again comes back with a new id.

The same checker run with the filtering switched off (``Server(unsafe_no_filter=True)``, a test hook)
must find leaks, or it proves nothing.
"""
from __future__ import annotations

import asyncio
import json
import random

import msgspec

from engine.visibility import visible_cards
from server.bot import NetBot
from server.client import Client, SeatSpec
from server_helpers import QUIET, local_server, run

NAMES = ("Alice", "Bob", "Carol", "Dave")
DECKS = ("practice:stark", "practice:lannister")


def _enc(value: str) -> str:
    """``value`` as it stands inside a JSON string of a frame."""
    return msgspec.json.encode(value).decode()[1:-1] if value else ""


class LeakChecker:
    def __init__(self):
        self.ever_seen: dict = {}      # viewer -> keys shown to him so far
        self.history: dict = {}        # (viewer, engine id) -> [(frame number, view id, hidden)]
        self.frames = 0
        self.leaks: list[str] = []
        self.known: dict = {}

    def __call__(self, conn, data: bytes) -> None:
        room = conn.room
        if room is None or room.game is None or b'"view"' not in data:
            return
        self.frames += 1
        g, seat = room.game, conn.seat
        viewer = room.viewer(seat)
        seen = visible_cards(g, seat)
        shown = self.ever_seen.setdefault(seat, set())
        shown |= {g.state.cards[e].key for e in seen}
        text = data.decode()
        if '"abilities"' in text:  # a seen card's own ability data may name another card (as its text does)
            msg = msgspec.json.decode(data)
            for key, d in ((msg.get("view") or {}).get("defs") or {}).items():
                if key in shown:
                    d.pop("abilities", None)
            text = msgspec.json.encode(msg).decode()
        held = self.known.get(seat)
        if held is None or held[0] != len(shown):  # titles and texts he may know (a hidden card may share
            known = set()                          # a text, or part of a title, with one he saw)
            for key in shown:
                d = g.pool.get(key)
                if d is not None:
                    known |= {_enc(d.name), _enc(d.text)} - {""}
            held = self.known[seat] = (len(shown), sorted(known, key=len, reverse=True))
        for value in held[1]:
            if value in text:
                text = text.replace(value, "")
        for eid, c in g.state.cards.items():
            if eid in seen or c.key in shown:
                continue
            d = g.pool[c.key]
            for what, value in (("key", json.dumps(c.key)), ("title", _enc(d.name)), ("text", _enc(d.text))):
                if value and len(value) >= 4 and value in text:
                    self.leaks.append(f"{seat}: the {what} of hidden card {eid} ({c.key}) in frame {self.frames}")
        # ids: the view's ids of this frame (the server's own record of what it sent)
        for vid, eid in viewer.frame.items():
            if str(vid) not in text and f"{vid}" not in text:
                continue
            hidden = eid not in seen
            past = self.history.setdefault((seat, eid), [])
            if past:
                last_frame, last_vid, last_hidden = past[-1]
                if vid == last_vid and (hidden or last_hidden):
                    self.leaks.append(f"{seat}: id {vid} follows hidden card {eid}")
                if not hidden and any(v == vid for _, v, _ in past) and any(h for _, _, h in past) \
                        and past[-1][1] != vid:
                    self.leaks.append(f"{seat}: id {vid} of card {eid} comes back after it was hidden")
            past.append((self.frames, vid, hidden))


async def _game(tmp_path, players: int, checker: LeakChecker, *, unsafe: bool = False, stop_at: int | None = None,
                concede: bool = False):
    async with local_server(tmp_path, frame_hook=checker, unsafe_no_filter=unsafe,
                            seeds=random.Random(players)) as (srv, url):
        clients = [Client(url) for _ in range(players)]
        for c in clients:
            await c.connect()
        seats = [SeatSpec(NAMES[i], DECKS[i % 2]) for i in range(players)]
        me = await clients[0].create(seats)
        for c in clients[1:]:
            await c.join(me.invite)
        spectator = Client(url)
        await spectator.connect()
        await spectator.watch(me.invite)
        for c in clients:
            await c.set_stops(QUIET)
        bots = [NetBot(c, 10 + i, rebuild=False, pass_bias=0.1) for i, c in enumerate(clients)]
        results = await asyncio.gather(*(b.play(stop_at=stop_at) for b in bots))
        if concede:  # the others concede one by one: the game ends (eliminations, then a winner)
            for c in clients[1:]:
                await c.concede()
            await asyncio.sleep(0.2)
            results = [clients[0].view.winner]
        for c in clients + [spectator]:
            await c.close()
        return results, srv.rooms[me.game]


def test_whole_2_3_and_4_player_games_leak_nothing(tmp_path):
    """2 and 3 players play to a winner; the 4-player game (about 8,000 decisions to a winner) is played
    for 300 answers, then three players concede one after the other (eliminated, their cards leave)."""
    for players in (2, 3, 4):
        checker = LeakChecker()
        results, room = run(_game(tmp_path / str(players), players, checker, stop_at=300 if players == 4 else None,
                                  concede=players == 4), 400)
        assert room.status == "over" and results[0] == room.winner, (players, results)
        assert checker.frames > 100
        assert not checker.leaks, checker.leaks[:10]


def test_the_checker_finds_leaks_when_the_filtering_is_off(tmp_path):
    checker = LeakChecker()
    run(_game(tmp_path, 2, checker, unsafe=True, stop_at=40), 120)
    assert checker.frames > 5
    kinds = {leak.split(" of ")[0].split(": the ")[-1] for leak in checker.leaks if ": the " in leak}
    assert {"key", "title"} <= kinds, checker.leaks[:5]
    assert any("follows hidden card" in leak for leak in checker.leaks)
