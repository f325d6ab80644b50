"""Starting games: from decks (SET-01), or from an explicit position (scenarios)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from cards.model import CardDef
from engine.decisions import names_problem
from engine.game import Game, Options
from engine.state import CardInstance, GameState, Player


@dataclass
class DeckSpec:
    """What the engine needs of a deck (cards.deck.Deck satisfies it)."""

    house: str
    plots: list[CardDef]
    cards: list[CardDef]
    agenda: CardDef | None = None
    house_card: CardDef | None = None
    titles: list[CardDef] = field(default_factory=list)
    """Five Kings titles the player brings: in play in front of them from the start, passed by hand (the
    rules documents define no title rules; the engine gives a title no rule of its own)."""


def house_card_def(house: str) -> CardDef:
    """A plain House card for a House that has no House card in the pool."""
    title = "Neutral House" if house == "neutral" else f"House {house.capitalize()}"
    return CardDef(key=f"house:{house}", name=title, type="house",
                   house=() if house == "neutral" else (house,))


class StateBuilder:
    """Adds card instances to a fresh state, registering their definitions in one pool."""

    def __init__(self, names: Iterable[str], houses: dict[str, str], seed: int = 0, ruleset: str = "lcg"):
        self.pool: dict[str, CardDef] = {}
        self.state = GameState(players=[Player(name=n, house=houses[n]) for n in names], cards={},
                               seed=seed, ruleset=ruleset)

    def new_card(self, d: CardDef, owner: str, zone: str, **fields) -> int:
        self.pool.setdefault(d.key, d)
        st = self.state
        cid = st.next_id
        st.next_id += 1
        st.cards[cid] = CardInstance(id=cid, key=d.key, owner=owner, controller=fields.pop("controller", owner),
                                     zone=zone, **fields)
        return cid

    def add_house_card(self, owner: str, d: CardDef | None = None) -> int:
        p = self.state.player(owner)
        cid = self.new_card(d or house_card_def(p.house), owner, "house")
        p.house_card = cid
        return cid

    def add_to_pile(self, owner: str, d: CardDef, zone: str) -> int:
        cid = self.new_card(d, owner, zone)
        self.state.player(owner).pile(zone).append(cid)
        return cid


def new_game(decks: dict[str, DeckSpec], *, seed: int = 0, ruleset: str = "lcg",
             options: Options | None = None) -> Game:
    """A game from decks, set up by the rules: random first player, shuffle, draw 7 (SET-01)."""
    names = list(decks)
    if not 2 <= len(names) <= 4:
        raise ValueError("first edition is played by 2 to 4 players")
    problem = names_problem(names)  # checked where the names were entered; here for callers of the engine
    if problem:
        raise ValueError(problem)
    b = StateBuilder(names, {n: decks[n].house for n in names}, seed=seed, ruleset=ruleset)
    st = b.state
    for name, deck in decks.items():
        b.add_house_card(name, deck.house_card)
        if deck.agenda is not None:
            st.player(name).agenda = b.new_card(deck.agenda, name, "agenda")
        for d in deck.plots:
            b.add_to_pile(name, d, "plot_deck")
        for d in deck.cards:
            b.add_to_pile(name, d, "deck")
        for d in getattr(deck, "titles", ()):
            b.add_to_pile(name, d, "in_play")
    st.first_player = st.rng.choice(names)  # SET-01.2: the first player is picked at random
    for p in st.players:
        st.rng.shuffle(p.deck)
        for cid in p.deck[:7]:
            st.cards[cid].zone = "hand"
        p.hand, p.deck = p.deck[:7], p.deck[7:]
    st.log.append(f"R1 setup: {st.first_player} is chosen at random as first player")
    options = options or Options()
    return Game(st, b.pool, options, start_phase="setup",
                setup_spec={"decks": {n: _deck_keys(d) for n, d in decks.items()}, "seed": seed,
                            "ruleset": ruleset, "prompt_all": options.prompt_all, "mode": options.mode})


def _deck_keys(deck: DeckSpec) -> dict:
    keys = {"house": deck.house, "plots": [d.key for d in deck.plots], "cards": [d.key for d in deck.cards],
            "agenda": deck.agenda.key if deck.agenda else None,
            "house_card": deck.house_card.key if deck.house_card else None}
    if getattr(deck, "titles", None):
        keys["titles"] = [d.key for d in deck.titles]  # only when there are some: older saves stay the same
    return keys


PRACTICE_DECKS = ("stark-practice.txt", "lannister-practice.txt")


def practice_decks() -> list:
    """The two practice decks that ship with Maester (cards/practice/decks)."""
    from pathlib import Path

    from cards.deck import read_deck
    from cards.pool import practice_pool

    folder = Path(__file__).resolve().parent.parent / "cards" / "practice" / "decks"
    pool = practice_pool()
    return [read_deck(folder / name, pool) for name in PRACTICE_DECKS]


def practice_game(seed: int = 0, *, players: tuple[str, ...] = ("alice", "bob"), ruleset: str = "lcg",
                  options: Options | None = None) -> Game:
    """A game between the practice decks (they alternate when more than two play)."""
    decks = practice_decks()
    return new_game({name: decks[i % 2] for i, name in enumerate(players)}, seed=seed, ruleset=ruleset,
                    options=options)
