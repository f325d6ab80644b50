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
from engine.replay import ReplayError, apply_history, start_from_spec

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
    observed: bool = False   # the game was seen at a decision in this round (power_before is set)
    closed: bool = False     # a later round was seen, or the game ended (power is final)

    def short(self) -> str:
        n = len(self.played)
        return (f"{self.gold} gold ({self.gold_used} used) \u00b7 {n} card{'s' if n != 1 else ''} played "
                f"\u00b7 +{self.power - self.power_before} power ({self.power} in all)")

    def line(self) -> str:
        return (f"round {self.round:>2}: {self.gold} gold, {self.gold_used} used; played "
                f"{', '.join(self.played) or 'nothing'}; +{self.power - self.power_before} power "
                f"({self.power} in all)")


def goldfish_seats(game: Game) -> list[str]:
    """The seats of ``game`` that are goldfish: dealt from an empty deck spec (no plots, no cards, no
    agenda). Read from the game's setup, so a game rebuilt by undo or loaded from a save still knows."""
    spec = game.setup_spec if isinstance(game.setup_spec, dict) else {}
    decks = spec.get("decks") or {}
    return [n for n in game.state.player_names
            if isinstance(decks.get(n), dict) and not decks[n].get("plots") and not decks[n].get("cards")
            and not decks[n].get("agenda")]


class RoundTracker:
    """The round summaries of one player, kept while a game is played (the table, ``play_goldfish``).

    ``observe(game)`` is called at decisions (at least at every decision of the player, or after every
    answer): log lines are read once, each into the round its ``R<n>`` prefix names (gold collected,
    gold used, cards marshalled or played); a round's power is the player's power when the game was
    first observed in it (its first decision: the plot choice) and when it was first observed in the
    next round. It returns the rounds completed since the last call. When the game went back (undo, a
    save opened) it starts again from the game's start and its history (``rebuild``)."""

    def __init__(self, player: str):
        self.player = player
        self.rounds: list[RoundSummary] = []
        self._seen = 0       # log lines read
        self._answers = 0    # history length at the last observation
        self._rebuilding = False

    def _round(self, n: int) -> RoundSummary:
        for r in reversed(self.rounds):
            if r.round == n:
                return r
        r = RoundSummary(n)
        self.rounds.append(r)
        self.rounds.sort(key=lambda x: x.round)
        return r

    def observe(self, game: Game) -> list[RoundSummary]:
        st = game.state
        if len(game.history) < self._answers or len(st.log) < self._seen:
            self.rebuild(game)
            return []
        self._answers = len(game.history)
        for line in st.log[self._seen:]:
            prefix = line.split(" ", 1)[0]
            if prefix[:1] == "R" and prefix[1:].isdigit():
                _note(self._round(int(prefix[1:])), line, self.player)
        self._seen = len(st.log)
        if not self._rebuilding and any(not r.observed for r in self.rounds if r.round < st.round):
            self.rebuild(game)  # a round went by unobserved (autoplay): its power is only known by replay
            return [r for r in self.rounds if r.closed and r.round < st.round][-1:]
        power = game.total_power(self.player)
        done: list[RoundSummary] = []
        current = self._round(st.round)
        if not current.observed:
            current.observed = True
            current.power_before = power
            for r in self.rounds:
                if r.round < st.round and not r.closed:
                    r.closed = True
                    r.power = power
                    done.append(r)
        current.power = power
        return done

    def finish(self, game: Game) -> None:
        """At the end of the game: the last round closes with the final power."""
        self.observe(game)
        for r in self.rounds:
            if not r.closed:
                r.closed = True
                r.power = game.total_power(self.player)

    def rebuild(self, game: Game) -> None:
        """The summaries of ``game`` from its start: its history answered again on a copy, observed
        after every answer (the table's undo and Open)."""
        self.rounds, self._seen, self._answers = [], 0, 0
        self._rebuilding = True
        try:
            shadow = start_from_spec(game.setup_spec, game.pool)
            self.observe(shadow)
            for entry in game.history:
                if isinstance(shadow.advance(), GameOver):
                    break
                apply_history(shadow, [entry])
                self.observe(shadow)
        except (ReplayError, Refused, KeyError, TypeError, ValueError):
            pass  # a game built by hand: only what is observed from now on is summarised
        finally:
            self._rebuilding = False
        self._seen = min(self._seen, len(game.state.log))
        self._answers = len(game.history)


def play_goldfish(deck, *, seed: int = 0, level: str = "heuristic", max_rounds: int = 30) -> tuple[Game, list[RoundSummary]]:
    """One automatic goldfish game: the game (ended or at ``max_rounds``) and its rounds."""
    game = goldfish_game(deck, seed=seed)
    players = {PLAYER: make_player(level, seed), GOLDFISH: GoldfishPlayer()}
    tracker = RoundTracker(PLAYER)
    while not isinstance(game.advance(), GameOver) and game.state.round <= max_rounds:
        tracker.observe(game)
        d = game.advance()
        players[d.player].play_turn(game)
    tracker.finish(game)
    return game, [r for r in tracker.rounds if r.round <= max_rounds]


def _note(r: RoundSummary, line: str, player: str = PLAYER) -> None:
    """Read one log line of ``player`` into the round summary."""
    text = line.split(": ", 1)[-1]
    if text.startswith(f"{player} collects "):
        words = text[len(player) + 10:].split()
        if words and words[0].isdigit():
            r.gold += int(words[0])
    elif text.startswith(f"{player} marshals "):
        body = text[len(player) + 10:]
        name = body.split(" (")[0].split(" onto ")[0].split(" as a duplicate")[0]
        r.played.append(name)
        if body.endswith(" gold)"):
            amount = body.rsplit("(", 1)[1].split()[0]
            if amount.isdigit():
                r.gold_used += int(amount)
    elif text.startswith(f"{player} plays "):
        r.played.append(text[len(player) + 7:].split(" targeting")[0])


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
