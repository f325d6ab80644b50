"""Uniqueness reads (UNQ-01/02) shared by the legality checks and the ability effects."""
from __future__ import annotations

from typing import TYPE_CHECKING

from engine.steady import memo

if TYPE_CHECKING:
    from engine.game import Game


def copies_in_play(g: Game, title: str) -> list[int]:
    return list(memo(g, ("copies_in_play", title), lambda: _copies_in_play(g, title)))


def dead_titles(g: Game, name: str) -> set[str]:
    """The titles in ``name``'s dead pile (UNQ-02)."""
    return memo(g, ("dead_titles", name), lambda: {g.name(c) for c in g.player(name).dead})


def _copies_in_play(g: Game, title: str) -> list[int]:
    out = []
    for p in g.state.players:
        if p.house_card is not None:  # a card played on the House card is in play (ZON-04)
            out.extend(a for a in g.card(p.house_card).attachments if g.name(a) == title)
        for cid in p.in_play:
            if g.name(cid) == title and not g.card(cid).facedown:
                out.append(cid)
            out.extend(a for a in g.card(cid).attachments if g.name(a) == title)
    return out


def _other_dead_copy(g: Game, name: str, cid: int) -> bool:
    """UNQ-02: another copy of the card is in ``name``'s dead pile. The card itself is not a copy of
    itself: a unique card that an effect brings back from the dead pile may come into play."""
    title = g.defn(cid).name
    if title not in dead_titles(g, name):
        return False
    return any(c != cid and g.name(c) == title for c in g.player(name).dead)


def unique_problem(g: Game, name: str, cid: int) -> str | None:
    d = g.defn(cid)
    if not d.unique:
        return None
    for other in copies_in_play(g, d.name):
        c = g.card(other)
        if c.owner == name or c.controller == name:
            return (f"{name} already has {d.name} in play (UNQ-01): a unique card can be in play only "
                    f"once per player; marshal this copy as a duplicate instead")
    if _other_dead_copy(g, name, cid):
        return f"a copy of {d.name} is in {name}'s dead pile, so it cannot come into play (UNQ-02)"
    return None


def entry_problem(g: Game, name: str, cid: int) -> str | None:
    """Why a card cannot be put into play under ``name``'s control: putting into play skips costs
    and play restrictions, never uniqueness (UNQ-02, C-08)."""
    d = g.defn(cid)
    if not d.unique:
        return None
    for other in copies_in_play(g, d.name):
        c = g.card(other)
        if other != cid and (c.owner == name or c.controller == name):
            return f"{d.name} cannot come into play: {name} already has a copy in play (UNQ-02)"
    if _other_dead_copy(g, name, cid):
        return f"{d.name} cannot come into play: a copy is in {name}'s dead pile (UNQ-02)"
    return None
