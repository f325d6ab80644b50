"""Read-only questions asked many times over (every legal marshal of a 1,000-card hand, every
option of a decision): inside ``with steady(g):`` the table does not change, so what depends on
the table alone is worked out once, not once per card.

- ``steady(g)``: a context manager; nested uses share the outermost one. Only code that changes
  nothing may run inside (the option lists of decisions, ``legality.marshal_options``).
- ``memo(g, key, compute)``: ``compute()`` once per steady context; outside one, every time. A
  trial on a copy of the state (``flow.terminal_save_problem`` swaps ``g.state``) is never served
  from the real state's memo.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Callable, Iterator

if TYPE_CHECKING:
    from engine.game import Game


@contextmanager
def steady(g: Game) -> Iterator[None]:
    if g.__dict__.get("_steady") is not None:
        yield
        return
    g.__dict__["_steady"] = (g.state, {})
    try:
        yield
    finally:
        g.__dict__.pop("_steady", None)


def memo(g: Game, key: Any, compute: Callable[[], Any]) -> Any:
    found = g.__dict__.get("_steady")
    if found is None or found[0] is not g.state:
        return compute()
    table = found[1]
    if key not in table:
        table[key] = compute()
    return table[key]
