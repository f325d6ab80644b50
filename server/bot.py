"""A computer player that plays over the network from what its seat is sent (tests and the benchmark).

``view_game(view_state, defs)`` rebuilds a read-only ``Game`` from a ``View`` exactly as a client may:
``GameState.from_dict`` of the view's state and the card definitions received (hidden cards are
``engine.ai.view.HIDDEN_DEF``). ``engine.players.RandomPlayer`` then picks candidate answers for the
``DecisionMsg``; a refused candidate is followed by the next.
"""
from __future__ import annotations

import asyncio
import contextlib
import random

import msgspec

from cards.model import CardDef
from engine.ai.view import ViewPool
from engine.decisions import Decision
from engine.game import Game, Options
from engine.players import RandomPlayer
from engine.state import GameState
from server.client import AnswerRefused, Client, ConnectionLost, ServerError


def card_from(d: dict) -> CardDef:
    return msgspec.convert(d, CardDef)


def view_game(state: dict, defs: dict[str, CardDef]) -> Game:
    """A read-only ``Game`` over a view's state (no rules run on it): what the table draws from."""
    g = Game.__new__(Game)
    g.state = GameState.from_dict(state)
    g.pool = ViewPool(defs)
    g.options = Options()
    g.setup_spec, g.history, g.pending, g.result, g.warnings, g.conceded = None, [], None, None, [], []
    return g


def decision_of(msg, seat: str) -> Decision:
    return Decision(kind=msg.kind, player=seat, prompt=msg.prompt, options=list(msg.options),
                    choices=list(msg.choices), min_count=msg.min_count, max_count=msg.max_count,
                    can_pass=msg.can_pass, context=dict(msg.context))


class NetBot:
    """Answers its seat's decisions over ``client`` until the game ends."""

    def __init__(self, client: Client, seed: int = 0, *, pass_bias: float = 0.3, rebuild: bool = True):
        self.client = client
        self.rebuild = rebuild
        """Rebuild a ``Game`` from every view (as the table does) for ``RandomPlayer``; False: pick from the
        decision message alone (cheaper: the benchmark's many bots)."""
        self.pass_bias = pass_bias
        self.rng = random.Random(seed)
        self.player = RandomPlayer(seed, pass_bias=pass_bias)
        self.defs: dict[str, CardDef] = {}
        self.answered = 0
        self.refused = 0
        self.latencies: list[float] = []

    def quick(self, d) -> list[dict]:
        rng, out = self.rng, []
        if d.options and d.kind != "choose":
            opts = list(d.options)
            rng.shuffle(opts)
            out = ([{"pass": True}] if d.can_pass and rng.random() < self.pass_bias else []) + opts
        elif d.kind == "challenge":
            for t in d.context.get("types", []):
                if d.choices and rng.random() > self.pass_bias:
                    out.append({"challenge": t, "against": rng.choice(d.context.get("opponents") or [None]),
                                "attackers": rng.sample(list(d.choices), rng.randint(1, len(d.choices)))})
        elif d.kind == "defend":
            out = [{"defend": rng.sample(list(d.choices), rng.randint(0, len(d.choices)))}, {"defend": []}]
        elif d.kind == "choose":
            pool = list(d.choices)
            k = rng.randint(d.min_count, max(d.min_count, min(d.max_count, len(pool))))
            out = [{"choose": rng.sample(pool, min(k, len(pool)))}, {"choose": pool[:d.min_count]}]
        elif d.kind == "order":
            out = [{"order": list(d.choices)}]
        elif d.kind == "setup":
            hand = list(d.choices)
            rng.shuffle(hand)
            out = [{"setup": hand[:k]} for k in (3, 2, 1)]
        return out + ([{"pass": True}] if d.can_pass else []) + list(d.options)

    def candidates(self) -> list[dict]:
        c = self.client
        if not self.rebuild:
            return self.quick(c.decision)
        for k, d in c.defs.items():
            if k not in self.defs:
                self.defs[k] = card_from(d)
        g = view_game(c.view.state, self.defs)
        d = decision_of(c.decision, c.seat)
        try:
            out = self.player.candidates(g, d)
        except Exception:  # noqa: BLE001 - a view without something the random player reads
            out = []
        return out + ([{"pass": True}] if d.can_pass else []) + list(d.options)

    async def play(self, *, max_answers: int = 20_000, stop_at: int | None = None, timeout: float = 60.0) -> str | None:
        """Answer until the game is over (returns the winner, or ``ended``), or until ``stop_at`` answers
        are in the game's history (returns None)."""
        c = self.client
        loop = asyncio.get_running_loop()
        seen_reconnects, snaps = c.reconnects, c.snapshots
        while self.answered < max_answers:
            if c.reconnects != seen_reconnects or not c.connected:  # wait for the fresh view after a resume
                await c.wait_connected(timeout)
                while c.snapshots == snaps:
                    await c.next_event(timeout)
                seen_reconnects = c.reconnects
            snaps = c.snapshots
            v = c.view
            if v is not None and v.status in ("over", "ended", "broken"):
                return v.winner or v.status
            if stop_at is not None and v is not None and v.at >= stop_at:
                return None
            d = c.decision
            if d is None or v.at != d.at:
                await c.next_event(timeout)
                continue
            at, view = d.at, c.view
            accepted = False
            for answer in self.candidates()[:40]:
                t0 = loop.time()
                try:
                    await c.answer(answer, at=at)
                except AnswerRefused:
                    self.refused += 1
                    if c.view is not view:
                        break  # a new view came (a snapshot after a reconnect): its ids are new
                    continue
                except (ConnectionLost, ServerError, asyncio.TimeoutError):
                    break  # the server went away or changed: wait for the next view
                self.latencies.append(loop.time() - t0)
                self.answered += 1
                accepted = True
                break
            if not accepted:
                if c.view is view and c.connected:
                    with contextlib.suppress(asyncio.TimeoutError):
                        await c.next_event(1.0)
                continue
            while c.view is view and c.connected and c.reconnects == seen_reconnects:
                await c.next_event(timeout)  # the view after the answer (sent before the ack: usually here)
        return None


async def _main(args) -> int:
    from server.client import SeatSpec

    c = Client(args.url)
    await c.connect()
    try:
        if args.join:
            me = await c.join(args.join, deck=args.deck)
        else:
            seats = [SeatSpec(args.name, args.deck or "practice:stark"),
                     SeatSpec("Computer" if args.computer else "Guest", "practice:lannister",
                              computer=args.computer)]
            me = await c.create(seats)
            if not args.computer:
                print(f"invite code: {me.invite}  (the other player: python -m server.bot {args.url} "
                      f"--join {me.invite})", flush=True)
        print(f"seat {me.seat}, token {me.token} (keep it to come back)", flush=True)
        winner = await NetBot(c, args.seed).play(timeout=3600)
        print(f"game over: {winner}")
    except (ServerError, AnswerRefused) as err:
        print(f"the server refused: {err}")
        return 1
    finally:
        await c.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m server.bot",
                                 description="Play a seat on a Maester server with the random computer player.")
    ap.add_argument("url", help="the server, e.g. ws://127.0.0.1:8765")
    ap.add_argument("--join", metavar="INVITE", help="take a seat of this game (else create one)")
    ap.add_argument("--deck", help="practice:stark, practice:lannister (a deck list's text: use the client library)")
    ap.add_argument("--name", default="Bot")
    ap.add_argument("--computer", metavar="LEVEL", help="create the game against a computer seat of this level")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    try:
        return asyncio.run(_main(args))
    except (OSError, asyncio.TimeoutError) as err:
        print(f"cannot reach {args.url}: {err}")
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
