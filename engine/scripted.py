"""The escape hatch: the rare card whose ability the declarative format cannot say.

An ability effect ``{script: NAME}`` runs the function registered here under
NAME. Every scripted card has its own test (tests/engine/test_scripted.py).
Keep this list short: when two scripts look alike, the format should grow.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from engine.game import Game

SCRIPTS: dict[str, Callable] = {}


def script(name: str):
    def register(fn: Callable) -> Callable:
        SCRIPTS[name] = fn
        return fn

    return register


def run(g: Game, name: str, ctx) -> bool:
    fn = SCRIPTS.get(name)
    if fn is None:
        g.log(f"{g.name(ctx.source)}: no script named {name!r}; the ability does nothing")
        return False
    return bool(fn(g, ctx))


@script("field_sergeant")
def field_sergeant(g: Game, ctx) -> bool:
    """Put the top 2 cards of your discard pile on the bottom of your deck. The moribund card itself
    is not yet in the pile, so it is not among them (MOR-04)."""
    p = g.player(ctx.player)
    moved = list(reversed(p.discard[-2:]))
    for cid in moved:
        g.move_to_pile(cid, "deck", top=False)
    g.log(f"{ctx.player} puts {', '.join(g.name(c) for c in moved) or 'nothing'} from the discard pile "
          f"on the bottom of the deck")
    return bool(moved)
