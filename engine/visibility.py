"""What a seat may see: the one rule every view of the game goes through.

``may_see(game, viewer, card_id)`` answers for one card and one seat. The table
draws every card, preview, strip, dialog and log link through it, and a
computer player's view of the game is ``visible_state(game, viewer)``: the
state with every card the seat may not see masked.

- a card in play, attached or a duplicate: everyone, unless it is facedown
  (setup cards before SET-07, facedown attachments): then only its controller;
- discard and dead piles, used and revealed plots, House cards, agendas, events
  being played: everyone;
- a hand: its owner; other seats only a card revealed from it (``state.revealed``);
- a House deck: nobody, except the top cards a seat is looking at by hand
  (``state.looking``), the owner searching it (step 3 of his own use by hand,
  ``engine.manual``'s ``search`` tool, or his choice among his deck's cards:
  a card's search such as Summoning Season), and a card revealed from it;
- a plot deck: its owner, and while plot decks are switched (Varys, until the end of the
  round) also the player who uses it as his own. A plot chosen in the plot phase stays in the plot
  deck until all plots are revealed together (PLT-01), so it is hidden until then.

``viewer=None`` is nobody's seat (the hotseat privacy screen): only what everyone
may see. No Qt here.
"""
from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Union

from engine.state import GameState

if TYPE_CHECKING:
    from engine.game import Game

PUBLIC_ZONES = ("discard", "dead", "used_plots", "revealed_plot", "house", "agenda", "played", "removed")
"""Zones whose cards every seat sees."""
TABLE_ZONES = ("in_play", "attached", "duplicate")
"""Cards on the table: public unless facedown."""
HIDDEN_KEY = "hidden"
"""The key a masked card carries in ``visible_state``."""

GameOrState = Union["Game", GameState]


def _state(game_or_state: GameOrState) -> GameState:
    return game_or_state if isinstance(game_or_state, GameState) else game_or_state.state


def searching(game_or_state: GameOrState, viewer: str | None) -> bool:
    """True while ``viewer`` may look through his own deck: step 3 of his own use of card text by hand
    (the ``search`` tool), or his choice among cards of his own deck (a card's search: Summoning Season,
    ``search``, ``search_pick``, ``chooses`` from the deck). Only a game knows its pending decision; a bare
    state never searches."""
    if viewer is None or isinstance(game_or_state, GameState):
        return False
    d = getattr(game_or_state, "pending", None)
    if d is None or d.player != viewer:
        return False
    if d.kind == "by_hand_effect":
        return True
    if d.kind != "choose":
        return False
    cards = game_or_state.state.cards
    return any(isinstance(c, int) and c in cards and cards[c].zone == "deck" and cards[c].owner == viewer
               for c in d.choices)


def looked_at(state: GameState, viewer: str | None, card_id: int) -> bool:
    """True when ``viewer`` is looking at the top of the deck that holds ``card_id`` (the ``look`` tool)."""
    if viewer is None:
        return False
    c = state.cards[card_id]
    if c.zone != "deck":
        return False
    deck = state.player(c.owner).deck
    for x in state.looking:
        if x.get("player") == viewer and x.get("deck") == c.owner and card_id in deck[:int(x.get("count", 0))]:
            return True
    return False


def may_see(game_or_state: GameOrState, viewer: str | None, card_id) -> bool:
    """May the seat ``viewer`` (None: nobody's seat) see the face of card ``card_id``?"""
    st = _state(game_or_state)
    c = st.cards.get(card_id) if isinstance(card_id, int) and not isinstance(card_id, bool) else None
    if c is None:
        return False
    if c.zone in TABLE_ZONES:
        return not c.facedown or (viewer is not None and c.controller == viewer)
    if c.zone in PUBLIC_ZONES:
        return True
    if card_id in st.revealed:
        return True
    if viewer is None:
        return False
    if c.zone == "plot_deck":  # and the player who uses it as his own this round (Varys)
        return c.owner == viewer or st.plot_holder(viewer) == c.owner
    if c.zone == "hand":
        return c.owner == viewer
    if c.zone == "deck":
        return looked_at(st, viewer, card_id) or (c.owner == viewer and searching(game_or_state, viewer))
    return False


def public(game_or_state: GameOrState, card_id) -> bool:
    """Every seat may see this card now."""
    return may_see(game_or_state, None, card_id)


def visible_cards(game_or_state: GameOrState, viewer: str | None) -> set[int]:
    """The ids of every card ``viewer`` may see now."""
    st = _state(game_or_state)
    return {cid for cid in st.cards if may_see(game_or_state, viewer, cid)}


def may_browse(game_or_state: GameOrState, viewer: str | None, player: str, zone: str) -> bool:
    """May ``viewer`` look through ``player``'s pile ``zone``? Discard, dead and used piles: everyone;
    a hand and a plot deck: their owner; a deck: its owner while he searches it (``searching``). Each card
    shown is still drawn through ``may_see``."""
    if zone in ("discard", "dead", "used_plots"):
        return True
    if zone == "deck":
        return viewer is not None and player == viewer and searching(game_or_state, viewer)
    if zone == "plot_deck" and viewer is not None and _state(game_or_state).plot_holder(viewer) == player:
        return True  # the plot deck he uses as his own this round (Varys)
    return zone in ("hand", "plot_deck") and viewer is not None and player == viewer


def visible_state(game_or_state: GameOrState, viewer: str | None) -> GameState:
    """A copy of the state as ``viewer`` may know it, for computer players that must not cheat.

    Every card the seat may not see keeps its id and zone (the table shows where cards are and how many)
    but its ``key`` is ``HIDDEN_KEY`` and its label, tokens and note are gone. The order of every deck is
    hidden (sorted by id), except the top cards the seat is looking at; other seats' hands and plot decks
    are sorted by id too. The random generator is reseeded, so the copy cannot predict shuffles or draws."""
    st = _state(game_or_state)
    seen = visible_cards(game_or_state, viewer)
    out = GameState.from_dict(copy.deepcopy(st.to_dict()))
    for cid, c in out.cards.items():
        if cid not in seen:
            c.key, c.label, c.tokens, c.note = HIDDEN_KEY, None, {}, ""
    for p in out.players:
        n = 0
        while n < len(p.deck) and p.deck[n] in seen:  # the top cards looked at (or a searched deck) keep
            n += 1                                     # their order; the rest is an unknown pile
        p.deck = p.deck[:n] + sorted(p.deck[n:])
        if p.name != viewer:
            p.hand = sorted(p.hand, key=lambda cid: (cid not in seen, cid))
            p.plot_deck = sorted(p.plot_deck)
    out.rng_state = None
    out._rng.seed(0)
    return out
