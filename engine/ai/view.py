"""A seat's view of the game: what a computer player may read, and nothing more.

``view_game(game, me)`` is a ``Game`` over ``engine.visibility.visible_state(game, me)``: every card
the seat may not see has the key ``hidden`` (a blank placeholder definition), deck orders and other
seats' hands are sorted, the random generator is reseeded. The view never runs the rules (no flow is
started): the computer player only reads derived values from it (STR, icons, keywords, income,
abilities, selectors). Everything the AI module knows about the table comes from here and from the
pending ``Decision`` (the question a person at that seat is asked, with its legal options).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cards.model import CardDef
from engine.game import Game
from engine.visibility import HIDDEN_KEY, visible_state

HIDDEN_DEF = CardDef(key=HIDDEN_KEY, name="(hidden card)", type="hidden")
"""What a card the seat may not see is, as far as the view knows."""


class ViewPool(Mapping):
    """The card pool (printed card data is public knowledge) plus the hidden placeholder."""

    def __init__(self, pool: Any):
        self.pool = pool

    def __getitem__(self, key: str) -> CardDef:
        if key == HIDDEN_KEY:
            return HIDDEN_DEF
        d = self.pool.get(key)
        if d is None:
            raise KeyError(key)
        return d

    def get(self, key, default=None):
        try:
            return self[key]
        except KeyError:
            return default

    def __iter__(self):
        return iter(self.pool)

    def __len__(self) -> int:
        return len(self.pool)


def view_game(game: Game, me: str, cache: dict | None = None) -> Game:
    """A read-only ``Game`` over what seat ``me`` may see now. ``cache`` (kept by the caller) holds
    parsed abilities between views."""
    st = visible_state(game, me)
    g = Game.__new__(Game)
    g.state = st
    g.pool = ViewPool(game.pool)
    g.options = game.options
    g.setup_spec = None
    g.history = []
    g.pending = None
    g.result = None
    g.warnings = []
    g.conceded = list(game.conceded)
    if cache is not None:
        g.__dict__["_abilities"] = cache
    return g


def hidden(g: Game, cid: int) -> bool:
    return g.state.cards[cid].key == HIDDEN_KEY
