"""How legality and options scale with the size of a hand (and of the board).

A two-player practice game with decks of many copies of the practice cards is played to
alice's marshalling turn; then N cards of her deck are moved into her hand (and ``--board``
of bob's characters and locations into play, 30 by default). For N = 100, 1,000 and 10,000 it
times:

- ``options``: ``legality.marshal_options`` (every legal marshal answer: hand x hosts);
- ``decision``: recomputing the pending action decision (``Decision.refresh``: marshal options,
  triggers, text by hand), what the table does after every answer;
- ``refused``: checking an illegal marshal answer (a card that is not in her hand);
- ``marshal``: answering one legal marshal and reaching the next decision.

    python bench/bench_legality.py [--sizes 100 1000 10000] [--board 30]

Marshal options list every attachment in hand with every host, so with a board that grows with
the hand they grow as their product (``--board`` sets it).

The issue asks for a 1,000-card hand to answer in under a second (tests/engine/test_legality_scale.py
checks the behaviour, with a generous bound).
"""
from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import legality  # noqa: E402
from engine.builder import new_game, practice_decks  # noqa: E402
from engine.decisions import Decision, Refused  # noqa: E402
from engine.game import Game, Options  # noqa: E402
from engine.players import RandomPlayer  # noqa: E402


def big_hand_game(hand: int, board: int = 30, seed: int = 3) -> tuple[Game, Decision]:
    """A game at alice's marshalling action with ``hand`` cards in her hand (every kind of card
    of the practice decks) and ``board`` of bob's characters and locations in play."""
    stark, lannister = practice_decks()
    copies = hand // len(stark.cards) + 2
    decks = {"alice": replace(stark, cards=stark.cards * copies),
             "bob": replace(lannister, cards=lannister.cards * (board * 2 // len(lannister.cards) + 2))}
    game = new_game(decks, seed=seed, options=Options(prompt_all=False))
    players = {n: RandomPlayer(seed=i) for i, n in enumerate(game.state.player_names)}
    while True:
        d = game.advance()
        if d.kind == "action" and game.state.phase == "marshalling" and d.player == "alice" \
                and game.state.active_player == "alice":
            break
        players[d.player].play_turn(game)
    alice, bob = game.player("alice"), game.player("bob")
    for cid in list(alice.deck[:hand - len(alice.hand)]):
        game.move_to_pile(cid, "hand")
    placed = 0
    for cid in list(bob.deck):
        if placed >= board:
            break
        if game.defn(cid).type in ("character", "location") and not game.defn(cid).unique:
            game.put_in_play(cid, "bob")
            placed += 1
    alice.gold = 30
    d.refresh()
    return game, d


def timed(fn, repeat: int = 1) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 10000])
    parser.add_argument("--board", type=int, default=30, help="bob's cards in play (default 30)")
    args = parser.parse_args(argv)
    print(f"{'hand':>7} {'in play':>8} {'options':>8} {'answers':>8} {'decision':>9} {'refused':>8} {'marshal':>8}")
    for n in args.sizes:
        game, d = big_hand_game(n, args.board)
        in_play = sum(len(p.in_play) for p in game.state.players)
        answers = len(legality.marshal_options(game, "alice"))
        t_opts = timed(lambda: legality.marshal_options(game, "alice"), 3 if n < 5000 else 1)
        t_dec = timed(d.refresh, 3 if n < 5000 else 1)
        foreign = game.player("bob").deck[0]

        def refuse():
            try:
                game.answer("alice", {"marshal": foreign})
            except Refused:
                pass

        t_ref = timed(refuse, 3)
        option = next(o for o in d.options if "marshal" in o)
        t_mar = timed(lambda: game.answer("alice", option))
        print(f"{len(game.player('alice').hand) + 1:>7} {in_play:>8} {t_opts:>7.3f}s {answers:>8} {t_dec:>8.3f}s "
              f"{t_ref * 1000:>6.1f}ms {t_mar:>7.3f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
