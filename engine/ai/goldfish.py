"""Goldfish: practise a deck with no opponent's cards.

    python -m engine.ai.goldfish DECK [--games 100] [--level heuristic] [--seed 0] [--rounds 30] [--verbose]

DECK is ``practice:stark``, ``practice:lannister`` or a deck file (``cards.deck.read_deck``). The
computer plays the deck (at ``--level``) against the **goldfish**: a second seat whose deck spec is empty
(House ``neutral``, no plots, no House-deck cards). The engine's own two-player rules then do the rest:
the goldfish sets up nothing, has no plot to reveal (its initiative is 0, it collects no gold), draws
nothing, and has no characters, so every challenge is unopposed and dominance is won with any standing
STR. The goldfish seat answers every question with the least answer (pass, no defenders; the first
player choice, if it ever wins initiative, names the deck's player). No rule is bent: the goldfish is a
player who has nothing.

It prints, per round of the first game (with ``--verbose``, of every game): gold collected and used,
cards played, power gained; then over all games the rounds needed to reach 15 power (mean, median,
spread) — a deck statistic to compare versions of a deck. ``maester --goldfish DECK`` opens the same
game at the table (you play the deck; the goldfish seat is a computer seat that always passes).
"""
from __future__ import annotations

import argparse
import statistics
import sys
from dataclasses import dataclass, field

from engine.ai import make_player
from engine.builder import DeckSpec, new_game, practice_decks
from engine.decisions import Decision, GameOver, Refused
from engine.game import Game, Options

GOLDFISH = "Goldfish"
PLAYER = "You"


def empty_deck() -> DeckSpec:
    return DeckSpec(house="neutral", plots=[], cards=[])


def goldfish_game(deck, *, seed: int = 0, name: str = PLAYER, ruleset: str = "lcg",
                  prompt_all: bool = False) -> Game:
    """A game of ``deck`` (a ``DeckSpec`` / ``cards.deck.Deck``) against the goldfish seat."""
    return new_game({name: deck, GOLDFISH: empty_deck()}, seed=seed, ruleset=ruleset,
                    options=Options(prompt_all=prompt_all))


class GoldfishPlayer:
    """The goldfish seat: the least answer to everything."""

    level = "goldfish"

    def __init__(self, seed: int = 0, **_):
        self.last_reason = ""

    def candidates(self, game: Game, d: Decision) -> list[dict]:
        out: list[dict] = []
        if d.kind == "defend":
            out.append({"defend": []})
        if d.kind == "first_player":
            others = [o for o in d.options if o["first_player"] != d.player]
            out += others
        if d.can_pass:
            out.append({"pass": True})
        if d.kind == "choose":
            out.append({"choose": list(d.choices[:d.min_count])})
        if d.kind == "order":
            out.append({"order": list(d.choices)})
        return out + list(d.options)

    def play_turn(self, game: Game) -> bool:
        d = game.advance()
        if isinstance(d, GameOver) or d is None:
            return False
        for a in self.candidates(game, d):
            try:
                game.answer(d.player, a)
                return True
            except Refused:
                continue
        raise RuntimeError(f"the goldfish cannot answer {d.describe()}")


@dataclass
class RoundSummary:
    round: int
    gold: int = 0
    gold_used: int = 0
    played: list[str] = field(default_factory=list)
    power_before: int = 0
    power: int = 0

    def line(self) -> str:
        return (f"round {self.round:>2}: {self.gold} gold, {self.gold_used} used; played "
                f"{', '.join(self.played) or 'nothing'}; +{self.power - self.power_before} power "
                f"({self.power} in all)")


def play_goldfish(deck, *, seed: int = 0, level: str = "heuristic", max_rounds: int = 30) -> tuple[Game, list[RoundSummary]]:
    """One automatic goldfish game: the game (ended or at ``max_rounds``) and its rounds."""
    game = goldfish_game(deck, seed=seed)
    players = {PLAYER: make_player(level, seed), GOLDFISH: GoldfishPlayer()}
    rounds: list[RoundSummary] = []
    seen = 0
    current: RoundSummary | None = None
    while not isinstance(game.advance(), GameOver) and game.state.round <= max_rounds:
        st = game.state
        if current is None or current.round != st.round:
            if current is not None:
                current.power = game.total_power(PLAYER)
            current = RoundSummary(st.round, power_before=game.total_power(PLAYER))
            rounds.append(current)
        d = game.advance()
        players[d.player].play_turn(game)
        for line in st.log[seen:]:
            _note(current, line)
        seen = len(st.log)
    if current is not None:
        current.power = game.total_power(PLAYER)
    return game, rounds


def _note(r: RoundSummary, line: str) -> None:
    """Read one log line of the deck's player into the round summary."""
    text = line.split(": ", 1)[-1]
    if text.startswith(f"{PLAYER} collects "):
        r.gold += int(text.split()[2])
    elif text.startswith(f"{PLAYER} marshals "):
        body = text[len(PLAYER) + 10:]
        name = body.split(" (")[0].split(" onto ")[0].split(" as a duplicate")[0]
        r.played.append(name)
        if body.endswith(" gold)"):
            r.gold_used += int(body.rsplit("(", 1)[1].split()[0])
    elif text.startswith(f"{PLAYER} plays "):
        r.played.append(text[len(PLAYER) + 7:].split(" targeting")[0])


def rounds_to_win(game: Game, rounds: list[RoundSummary]) -> int | None:
    return game.state.round if game.state.winner == PLAYER else None


def load_deck(spec: str):
    if spec.startswith("practice:"):
        stark, lannister = practice_decks()
        return {"practice:stark": stark, "practice:lannister": lannister}[spec]
    from cards.deck import read_deck
    return read_deck(spec)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m engine.ai.goldfish", description=__doc__.splitlines()[0])
    ap.add_argument("deck", help="practice:stark, practice:lannister or a deck file")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--level", default="heuristic", help="random, heuristic (normal) or strong")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--rounds", type=int, default=30, help="give up a game after this many rounds")
    ap.add_argument("--verbose", action="store_true", help="the round summaries of every game")
    args = ap.parse_args(argv)
    deck = load_deck(args.deck)
    results: list[int] = []
    unfinished = 0
    for i in range(args.games):
        game, rounds = play_goldfish(deck, seed=args.seed + i, level=args.level, max_rounds=args.rounds)
        if i == 0 or args.verbose:
            print(f"game {i + 1} (seed {args.seed + i}):")
            for r in rounds:
                print("  " + r.line())
        n = rounds_to_win(game, rounds)
        if n is None:
            unfinished += 1
        else:
            results.append(n)
    print()
    if results:
        q = statistics.quantiles(results, n=10) if len(results) >= 2 else [results[0]] * 9
        print(f"rounds to 15 power over {len(results)} games: mean {statistics.mean(results):.2f}, median "
              f"{statistics.median(results):g}, best {min(results)}, worst {max(results)}, "
              f"10%-90% {q[0]:g}-{q[-1]:g}" + (f"; {unfinished} games not won within {args.rounds} rounds"
                                               if unfinished else ""))
    else:
        print(f"no game reached 15 power within {args.rounds} rounds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
