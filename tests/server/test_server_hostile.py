"""Hostile and malformed messages: each is answered with ``error`` (or ``refused``) and changes nothing.

A real server on loopback holds one game between Alice and Bob. Well over 100 bad messages are sent over
real WebSocket connections: not JSON, unknown types, wrong field types, answers of the wrong shape,
answers to another seat's decision, stale answers, ids the seat was never sent, forged and unknown seat
tokens, lobby commands with bad seats and illegal decks, frames over the size limits, and a flood. After
each, the game's digest, history, event number and every stored seat are unchanged, and no reply
carries a traceback. The server keeps serving throughout.
"""
from __future__ import annotations

import asyncio
import json

import websockets

from server import protocol as P
from server.client import Client
from server_helpers import local_server, run, two_seats

LONG = "x" * 5000


def _answers() -> list:
    """Answers of a wrong shape or naming what the seat cannot name (sent to the seat that is asked)."""
    bad_values = [None, "yes", 1, 0, -1, 1.5, [], {}, [1], {"a": 1}, True, False, LONG, "\u0000", 10**30]
    out = [{"pass": v} for v in bad_values if v is not True]
    out += [{"marshal": v} for v in bad_values]
    out += [{"choose": v} for v in (None, "a", 1, {"a": 1}, [[1]], [[[[[]]]]], [None], [1.5], [1] * 5000)]
    out += [{}, {"nonsense": 1}, {"pass": True, "x": 1}, {"marshal": 1, "evil": [1]}, {"tool": "kill", "card": 1},
            {"by_hand": 1, "paragraph": 1}, {"order": [1, 2]}, {"stealth": {"1": 2}}, {"defend": [1]},
            {"challenge": "military"}, {"plot": 5}, {"first_player": "Mallory"}, {"first_player": "\u0007"},
            {"setup": [99999999]}, {"setup": [1, 2, 3]}, {"setup": "all"}, {"setup": [-5]}, {"setup": [2**31]},
            {"duplicate_save": 3}, {"resolve": True}, {"trigger": 1, "ability": 0}, {"free": {"kneel": 1}},
            {"concede": True}, {"__map__": [[1, 2]]}]
    return [{"t": "answer", "answer": a} for a in out]


def _frames(invite: str, bob_token: str) -> tuple[list, list, list]:
    """(messages for the asked seat, for the other seat, for an unattached connection)."""
    raw = [b"", b"{", b"\x00\xff\xfe", b"[]", b"null", b"42", b'"answer"', b"[" * 5000, b'{"t":', b"{}" * 3,
           "{\"t\": \"ping\"".encode(), b'{"t": null}', b'{"t": 5}', b'{"t": "nope"}', b'{"t": "ANSWER"}',
           b'{"t": "answer"}', b'{"t": "ping", "extra": 1}', b'{"t": "ping", "ref": -1}', b'{"t": "ping", "ref": "x"}',
           b'{"t": "ping", "ref": 1.5}', b'{"t": "ping", "ref": 1099511627776}', b'{"t": "answer", "answer": "pass"}',
           b'{"t": "answer", "answer": {"pass": true}, "at": -1}', b'{"t": "answer", "answer": {"pass": true}, "at": 99999}',
           b'{"t": "answer", "answer": {"pass": NaN}}', b'{"t": "answer", "answer": {"pass": 1e999}}',
           b'{"t": "answer", "answer": {"pass": true}, "at": "0"}', b'\xef\xbb\xbf{"t": "ping"}']
    asked = raw + [json.dumps(m).encode() for m in _answers()]
    other = [json.dumps(m).encode() for m in (
        {"t": "answer", "answer": {"pass": True}}, {"t": "answer", "answer": {"setup": []}},
        {"t": "free", "move": {"kneel": 1}}, {"t": "undo"}, {"t": "undo_reply", "accept": True},
        {"t": "away", "seat": "Alice", "action": "computer"}, {"t": "away", "seat": "Mallory", "action": "end"},
        {"t": "away", "seat": "Alice", "action": "explode"}, {"t": "stops", "stops": {"actions": ["lunch"]}},
        {"t": "stops", "stops": {"cheat": True}}, {"t": "stops", "stops": "all"}, {"t": "chat", "text": ""},
        {"t": "chat", "text": "y" * 501}, {"t": "chat", "text": "bell\u0007"}, {"t": "chat"},
        {"t": "concede", "seat": "Alice"}, {"t": "undo_reply", "accept": "yes"})]
    bad_deck = "House: Stark\n1x Lord Harlen Coldbrook\n"
    seats = [{"name": "A", "deck": "practice:stark"}, {"name": "B", "deck": "practice:lannister"}]
    unattached = [json.dumps(m).encode() for m in (
        {"t": "answer", "answer": {"pass": True}}, {"t": "chat", "text": "hi"}, {"t": "concede"}, {"t": "undo"},
        {"t": "stops", "stops": {}}, {"t": "join", "invite": "nosuchgame"}, {"t": "watch", "invite": "nosuchgame"},
        {"t": "join", "invite": invite}, {"t": "join", "invite": "a b"}, {"t": "resume", "token": "A" * 22},
        {"t": "resume", "token": bob_token[:-1] + ("A" if bob_token[-1] != "A" else "B")},
        {"t": "resume", "token": "abc"}, {"t": "resume", "token": "../../etc/passwd!!!!"},
        {"t": "resume", "token": bob_token, "last_seq": -1},
        {"t": "create", "seats": seats[:1]}, {"t": "create", "seats": seats * 3},
        {"t": "create", "seats": [seats[0], dict(seats[1], name="A")]},
        {"t": "create", "seats": [seats[0], dict(seats[1], deck="practice:greyjoy")]},
        {"t": "create", "seats": [seats[0], dict(seats[1], deck="3x Nothing At All")]},
        {"t": "create", "seats": [seats[0], dict(seats[1], deck=bad_deck)]},
        {"t": "create", "seats": [seats[0], dict(seats[1], deck="practice:lannister" * 2000)]},
        {"t": "create", "seats": [seats[0], dict(seats[1], computer="godlike")]},
        {"t": "create", "seats": [seats[0], dict(seats[1], deck=None, computer="random")]},
        {"t": "create", "seats": seats, "my_seat": 3}, {"t": "create", "seats": seats, "ruleset": "chess"},
        {"t": "create", "seats": seats, "era": "future"}, {"t": "create", "seats": seats, "away_minutes": 0},
        {"t": "create", "seats": [dict(seats[0], deck=None), seats[1]]},
        {"t": "create", "seats": [dict(seats[0], name=""), seats[1]]},
        {"t": "create", "seats": [dict(seats[0], name="Draw"), seats[1]]},
        {"t": "create", "seats": [dict(seats[0], name="\u0000x"), seats[1]]},
        {"t": "my_games", "tokens": ["A" * 22] * 201}, {"t": "my_games", "tokens": ["short"]},
        {"t": "my_games", "tokens": "all"})]
    return asked, other, unattached


def _state(srv, room) -> tuple:
    g = room.game
    seats = tuple((s.name, s.token_hash, s.computer, json.dumps(s.record()["stops"], sort_keys=True)) for s in room.seats)
    games = srv.store.db.execute("SELECT COUNT(*), SUM(seq) FROM games").fetchone()
    return g.state.digest(), len(g.history), room.seq, room.status, seats, games, len(room.chat)


async def _reply(c: Client):
    while True:
        m = await c.next_event(10)
        if isinstance(m, (P.Error, P.Refused)):
            return m


def test_over_100_hostile_messages_are_answered_and_change_nothing(tmp_path):
    async def main():
        async with local_server(tmp_path) as (srv, url):
            srv.rate, srv.burst = 10_000.0, 10_000.0  # the flood below is the rate limit's own test
            a, b = await two_seats(url)
            room = srv.rooms[a.game]
            pending = room.game.advance().player
            tokens = {a.seat: a.token, b.seat: b.token}
            other_seat = "Bob" if pending == "Alice" else "Alice"
            conns = {}
            for role, token in (("asked", tokens[pending]), ("other", tokens[other_seat]), ("none", None)):
                c = Client(url, reconnect=False)
                await c.connect()
                if token:
                    await c.resume(token)
                conns[role] = c
            asked, other, unattached = _frames(room.invite, tokens["Bob"])
            before = _state(srv, room)
            count = 0
            kinds = {}
            for role, frames in (("asked", asked), ("other", other), ("none", unattached)):
                c = conns[role]
                for frame in frames:
                    await c.send_raw(frame)
                    reply = await _reply(c)
                    assert "Traceback" not in reply.message and "File \"" not in reply.message, reply
                    assert len(reply.message) <= 1000
                    assert _state(srv, room) == before, (role, frame[:200], reply)
                    kinds[type(reply).__name__] = kinds.get(type(reply).__name__, 0) + 1
                    count += 1
            # ids of cards the seat may not see (the other's hand) get one answer, whatever the card is
            c = conns["asked"]
            st = c.view.state
            hidden = [x for p in st["players"] if p["name"] != pending for x in p["hand"]]
            assert hidden and all(st["cards"][str(x)]["key"] == "hidden" for x in hidden)
            for x in hidden[:3]:
                for answer in ({"setup": [x]}, {"marshal": x}, {"choose": [x]}, {"defend": [x]}):
                    await c.send_raw(json.dumps({"t": "answer", "answer": answer}))
                    reply = await _reply(c)
                    assert isinstance(reply, P.Refused) and reply.message == f"card {x}: you cannot see that card"
                    assert _state(srv, room) == before
                    count += 1
            assert count >= 100, count
            assert kinds.get("Error", 0) > 50 and kinds.get("Refused", 0) > 20, kinds

            # a frame over the protocol's limit: an error; over the transport's: the connection closes (1009)
            c = conns["other"]
            await c.send_raw(json.dumps({"t": "chat", "text": "z" * (P.MAX_MESSAGE + 10)}))
            assert (await _reply(c)).code == "too_big"
            big = await websockets.connect(url, max_size=None)
            await big.send("{" + " " * (P.MAX_FRAME + 10) + "}")
            try:
                await asyncio.wait_for(big.recv(), 10)
                closed = None
            except websockets.ConnectionClosed as err:
                closed = err.rcvd.code if err.rcvd else None
            assert closed == 1009
            assert _state(srv, room) == before

            # a flood: 300 messages at once get errors ("rate") beyond the burst; the state stays
            srv.rate, srv.burst = 40.0, 80.0
            flood = Client(url, reconnect=False)
            await flood.connect()
            await flood.resume(tokens[other_seat])
            for _ in range(300):
                await flood.send_raw(b'{"t": "answer", "answer": {"pass": true}}')
            rates = refused = 0
            while rates + refused < 300:
                m = await _reply(flood)
                rates += isinstance(m, P.Error) and m.code == "rate"
                refused += isinstance(m, P.Refused)
            assert rates >= 150 and refused >= 50, (rates, refused)
            assert _state(srv, room) == before
            assert (await conns["asked"].ping()).time > 0  # still serving
            for c in (a, b, flood, *conns.values()):
                await c.close()
    run(main(), 120)
