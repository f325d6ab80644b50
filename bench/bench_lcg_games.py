"""Time complete games between Core Set decks built from the community LCG card data.

    python bench/bench_lcg_games.py [JSON] [--games N] [--seed S] [--prompt-all]

JSON is the community card data (default ``../shared/data/agot1-lcg-cards.json``,
relative to the repository root); it is read with ``cards.pool.load_pool``, which adds
the project's ability data (``cards/abilities``). For each matchup (Stark vs Lannister,
Baratheon vs Greyjoy, Targaryen vs Martell) it builds one deck per House from the Core
Set only (``core_deck``), plays N games (default 10) with seeds S, S+1, ... between
computer players that trigger abilities 60% of the time they can (``TriggerPlayer``),
and prints games per second and decisions (answered prompts) per second. No mischief
and no invariant checks here: ``tests/engine/test_lcg_games.py`` plays the same decks
with both.

The deck builder and the player live here, and the test imports them, so both play
exactly the same decks. Runs from the repository root with or without the project
installed.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from cards.deck import MIN_HOUSE_DECK, PLOT_DECK_SIZE, Deck  # noqa: E402
from cards.model import HOUSE_DECK_TYPES, CardDef, CardPool  # noqa: E402
from engine.builder import new_game  # noqa: E402
from engine.decisions import Decision, GameOver  # noqa: E402
from engine.game import Game, Options  # noqa: E402
from engine.players import RandomPlayer  # noqa: E402

DEFAULT_JSON = ROOT.parent / "shared" / "data" / "agot1-lcg-cards.json"
CORE = "Core"
MATCHUPS = (("stark", "lannister"), ("baratheon", "greyjoy"), ("targaryen", "martell"))
TRIGGER_BIAS = 0.6
"""How often a player with an ability it may trigger triggers one (else it answers at random)."""
MAX_COPIES = 3


# ---------------------------------------------------------------------------
# Decks
# ---------------------------------------------------------------------------

def _titles(cards: list[CardDef]) -> dict[str, list[CardDef]]:
    """Printings grouped by title (case-insensitive), in key order; the deck rules count titles."""
    groups: dict[str, list[CardDef]] = {}
    for card in sorted(cards, key=lambda c: c.key):
        groups.setdefault(card.name.casefold(), []).append(card)
    return groups


def _fits(card: CardDef, house: str) -> bool:
    """A card of ``house`` or neutral that a ``house`` deck may hold (DCK-04)."""
    return (not card.house or house in card.house) and card.deck_allows(house)


DECK_SHAPE = {"character": 28, "location": 10, "attachment": 8, "event": 14}
"""The card types of a typical 60-card joust deck (``core_deck(..., shape=DECK_SHAPE)``): about half characters."""


def core_deck(pool: CardPool, house: str, seed: int, *, set_name: str = CORE, by_hand_first: bool = False,
              shape: dict[str, int] | None = None) -> Deck:
    """A legal deck for ``house`` from ``set_name`` cards only, chosen from ``seed``.

    Its House card (when the set has one), 7 plots with distinct titles, and exactly 60
    House-deck cards of the House or neutral: first every title that has ability data (the
    engine runs those; the others play as vanilla cards), then the rest in a shuffled
    order. Copies per title: at most 3, the card's
    ``deck_limit``, and 2 when a chosen card imposes ``max-2-copies`` (DCK-06); at most one
    title of the joust restricted list (DCK-07), so the deck is tournament-legal too
    unless a card is banned or promotional. Deterministic: same pool, House and seed,
    same deck. ``shape`` (card type -> count, e.g. ``DECK_SHAPE``) fills the deck type by type
    to those counts (in the same order of titles), then tops it up to 60 with any type: without it
    a deck may hold 15 characters and 39 events, with it about as many characters as a real deck.
    """
    rng = random.Random(f"{set_name}/{house}/{seed}")
    in_set = [c for c in pool if c.set == set_name]
    house_card = next((c for c in sorted(in_set, key=lambda c: c.key)
                       if c.type == "house" and c.house and c.house[0] == house), None)

    usable = lambda c: _fits(c, house) and c.legal_in("joust") != "banned" and not c.promo  # noqa: E731
    plot_titles = [g[0] for g in _titles([c for c in in_set if c.type == "plot" and usable(c)]).values()]
    if len(plot_titles) < PLOT_DECK_SIZE:
        raise ValueError(f"{set_name} has only {len(plot_titles)} plot titles a {house} deck may use")
    plots = rng.sample(plot_titles, PLOT_DECK_SIZE)

    groups = list(_titles([c for c in in_set if c.type in HOUSE_DECK_TYPES and usable(c)]).values())
    rng.shuffle(groups)
    # Titles with ability data first (the engine runs them; the rest play as vanilla cards).
    # ``by_hand_first``: the other way round, for games that play card text by hand (engine/manual.py).
    groups.sort(key=lambda g: any(c.abilities for c in g) == by_hand_first)
    limiter = any(c.deck_rule == "max-2-copies" for g in groups for c in g)
    cap = 2 if limiter else MAX_COPIES
    restricted_taken = any(c.legal_in("joust") == "restricted" for c in plots)
    chosen: list[tuple[CardDef, int]] = []
    for printings in groups:
        card = next((c for c in printings if c.abilities), printings[0])
        if card.legal_in("joust") == "restricted" or any(p.legal_in("joust") == "restricted" for p in printings):
            if restricted_taken:
                continue
            restricted_taken = True
        limit = min(cap, min(p.deck_limit for p in printings))
        if limit < 1:
            continue
        chosen.append((card, limit))
    cards: list[CardDef] = []
    counts = [0] * len(chosen)
    # First pass: every copy allowed of a title with abilities, 1..limit copies of the
    # others; then top up to the limits in the same order until the deck has 60 cards.
    # With a ``shape``, the two passes run per card type up to its count first.
    quotas = [(t, n) for t, n in (shape or {}).items()] + [(None, MIN_HOUSE_DECK)]
    for ctype, quota in quotas:
        of_type = [i for i, (card, _) in enumerate(chosen) if ctype is None or card.type == ctype]
        target = min(MIN_HOUSE_DECK, len(cards) + quota) if ctype is not None else MIN_HOUSE_DECK
        for i in of_type:
            if len(cards) >= target or counts[i]:
                continue
            card, limit = chosen[i]
            k = min(limit if card.abilities else rng.randint(1, limit), target - len(cards))
            counts[i] = k
            cards.extend([card] * k)
        for i in of_type:
            if len(cards) >= target:
                break
            card, limit = chosen[i]
            k = min(limit - counts[i], target - len(cards))
            counts[i] += k
            cards.extend([card] * k)
    if len(cards) < MIN_HOUSE_DECK:
        raise ValueError(f"{set_name} has only {len(cards)} House-deck cards a {house} deck may use")
    rng.shuffle(cards)
    return Deck(name=f"{set_name} {house.capitalize()} #{seed}", house=house, house_card=house_card,
                agenda=None, plots=plots, cards=cards, source=f"core_deck({house!r}, {seed})")


def matchup_decks(pool: CardPool, houses: tuple[str, ...], seed: int,
                  names: tuple[str, ...] = ("alice", "bob"), by_hand_first: bool = False,
                  shape: dict[str, int] | None = None) -> dict[str, Deck]:
    """One ``core_deck`` per player, seat order as given."""
    return {name: core_deck(pool, house, seed, by_hand_first=by_hand_first, shape=shape)
            for name, house in zip(names, houses)}


def lcg_game(pool: CardPool, houses: tuple[str, ...], seed: int, *, prompt_all: bool = False,
             by_hand_first: bool = False) -> Game:
    return new_game(matchup_decks(pool, houses, seed, by_hand_first=by_hand_first), seed=seed,
                    options=Options(prompt_all=prompt_all))


# ---------------------------------------------------------------------------
# Players
# ---------------------------------------------------------------------------

class TriggerPlayer(RandomPlayer):
    """A random player that prefers to trigger abilities: when a decision lists options with
    ``trigger`` (complete legal answers, targets and payment included), it picks one of them
    ``trigger_bias`` of the time; otherwise it answers like ``RandomPlayer``."""

    def __init__(self, seed: int = 0, *, trigger_bias: float = TRIGGER_BIAS, **kw):
        super().__init__(seed, **kw)
        self.trigger_bias = trigger_bias
        self.triggered = 0

    def trigger_option(self, d: Decision) -> dict | None:
        offered = [o for o in d.options if "trigger" in o]
        if offered and self.rng.random() < self.trigger_bias:
            return self.rng.choice(offered)
        return None

    def play_turn(self, game: Game) -> bool:
        d = game.advance()
        if isinstance(d, GameOver) or d is None:
            return False
        option = self.trigger_option(d)
        if option is not None:
            game.answer(d.player, option)   # a listed option must be legal: a Refused here is a bug
            self.triggered += 1
            return True
        return super().play_turn(game)


def trigger_players(names, seed: int, mischief: float = 0.0) -> dict[str, TriggerPlayer]:
    return {name: TriggerPlayer(seed=seed * 31 + i, mischief=mischief) for i, name in enumerate(names)}


# ---------------------------------------------------------------------------
# The benchmark
# ---------------------------------------------------------------------------

def play_one(pool: CardPool, houses: tuple[str, ...], seed: int, prompt_all: bool,
             max_decisions: int = 100_000) -> tuple[int, int, Game]:
    """(decisions, triggers, game) of one game played to its end."""
    game = lcg_game(pool, houses, seed, prompt_all=prompt_all)
    players = trigger_players(game.state.player_names, seed)
    decisions = 0
    while not isinstance(game.advance(), GameOver):
        if decisions >= max_decisions:
            raise RuntimeError(f"{houses} seed {seed}: no winner within {max_decisions} decisions")
        players[game.advance().player].play_turn(game)
        decisions += 1
    return decisions, sum(p.triggered for p in players.values()), game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("json", nargs="?", default=str(DEFAULT_JSON),
                        help=f"the LCG card data (default {DEFAULT_JSON})")
    parser.add_argument("--games", type=int, default=10, help="games per matchup (default 10)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--prompt-all", action="store_true", help="ask every opportunity (as scenarios do)")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    path = Path(args.json)
    if not path.is_file():
        print(f"error: the LCG card data is missing: {path} is not a file.\n"
              f"Give its path as the first argument (python bench/bench_lcg_games.py PATH/agot1-lcg-cards.json).",
              file=sys.stderr)
        return 1

    from cards.pool import load_pool

    start = time.perf_counter()
    pool = load_pool(path)
    print(f"{len(pool)} cards loaded in {time.perf_counter() - start:.2f} s "
          f"({sum(1 for c in pool if c.set == CORE)} Core Set, "
          f"{sum(1 for c in pool if c.set == CORE and c.abilities)} of them with ability data)")
    all_games = all_decisions = 0
    all_time = 0.0
    for houses in MATCHUPS:
        decisions = triggers = rounds = 0
        elapsed = 0.0
        wins: dict[str, int] = {}
        for s in range(args.seed, args.seed + args.games):
            t0 = time.perf_counter()
            n, t, game = play_one(pool, houses, s, args.prompt_all)
            elapsed += time.perf_counter() - t0
            decisions += n
            triggers += t
            rounds += game.state.round
            winner = game.state.winner
            label = "draw" if winner == "draw" else dict(zip(game.state.player_names, houses)).get(winner, winner)
            wins[label] = wins.get(label, 0) + 1
        all_games += args.games
        all_decisions += decisions
        all_time += elapsed
        label = " vs ".join(h.capitalize() for h in houses)
        print(f"{label:<24} {args.games} games in {elapsed:6.2f} s: {args.games / elapsed:6.2f} games/s, "
              f"{decisions / elapsed:7.0f} decisions/s ({decisions / args.games:.0f} decisions, "
              f"{triggers / args.games:.1f} triggers, {rounds / args.games:.1f} rounds a game; "
              f"wins {', '.join(f'{k} {v}' for k, v in sorted(wins.items()))})")
    print(f"{'all':<24} {all_games} games in {all_time:6.2f} s: {all_games / all_time:6.2f} games/s, "
          f"{all_decisions / all_time:7.0f} decisions/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
