"""Invariants of a game state that must hold whenever the engine waits for an answer.

``check_invariants(game)`` returns a list of sentences, one per broken invariant
(empty when everything holds). The fuzz tests call it after every decision of
thousands of random games; it only reads the game.

What is checked:

- every card instance is in exactly one place (a player's pile, the ``in_play``
  list of its controller, a host's ``attachments``/``duplicates``, the owner's
  ``played`` list of events being played, a revealed plot, a House card or an
  agenda slot; ``removed`` cards, if the engine has them, in none), and its
  ``zone`` field agrees with the place holding it;
- attached cards and duplicates name their host in ``attached_to``; hosts are
  in play; no other card has ``attached_to`` set;
- the controller of an in-play card is the player whose ``in_play`` holds it;
  cards in piles, House cards and agendas are controlled by their owner, a
  revealed plot by the player who revealed it (his owner's, unless plot decks
  were switched: Varys); cards in piles carry no power or tokens, are standing
  and face up;
- no card is moribund outside an open action window (MOR-01), and moribund
  cards are in play (or an event being played); no event is still being played
  outside a window (MOR-05);
- gold and power are never negative; ``drawn_this_round`` never exceeds the
  draw cap of 3 (DRW-03);
- ``Game.total_power`` equals House power plus power on the characters the
  player controls in play (C-19), counted independently here (House power alone
  while a card says his characters' power does not count: Melisandre);
- no player has two face-up, non-duplicate copies of one unique title in play
  (UNQ-01);
- the winner is a player's name or ``draw``, once set it stays set (a per-game
  memory kept here), and a finished game has a winner.

In advise mode a free move may break a rule on purpose (a fourth draw, a second copy of a unique
card: the table warns of it, engine/advise.py), so the two rule invariants (DRW-03, UNQ-01) are not
checked there; every invariant of the state's consistency is.
"""
from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from engine import triggers
from engine.state import PILE_ZONES, ZONES

if TYPE_CHECKING:
    from engine.game import Game

DRAW_CAP = 3
MORIBUND_DESTINATIONS = ("dead", "discard", "hand", "deck_top", "deck_bottom", "deck_shuffled", "removed")
_LISTS = PILE_ZONES + ("in_play", "played")   # the card lists on a Player ("played": events, MOR-05)
_ZONE_SET = frozenset(ZONES) | {"removed"}
_PILE_SET = frozenset(PILE_ZONES)

# The winner last seen for each game, so "once set, stays set" can be checked
# by a stateless-looking call. Weak keys: a finished test forgets its games.
_seen_winner: "weakref.WeakKeyDictionary[Game, str]" = weakref.WeakKeyDictionary()


def check_invariants(game: "Game") -> list[str]:
    """Every broken invariant of ``game`` now, as a sentence; empty when all hold."""
    st = game.state
    problems: list[str] = []
    bad = problems.append
    cards = st.cards
    pool = game.pool
    names = [p.name for p in st.players]
    name_set = set(names)
    lab = _labeller(game)
    rules = game.options.mode != "advise"  # free moves may break the draw cap and uniqueness

    if len(name_set) != len(names):
        bad(f"player names are not distinct: {names}")

    # -- where each card is held: the first place in ``place``, any further ones in ``extra`` ----
    # A holder is a player's name (piles, in_play, played, plot/House/agenda slots) or a host id.
    place: dict[int, tuple[str, Any]] = {}
    extra: dict[int, list[tuple[str, Any]]] = {}
    for p in st.players:
        name = p.name
        for zone in _LISTS:
            for cid in getattr(p, zone, ()):
                if cid in place:
                    extra.setdefault(cid, [place[cid]]).append((zone, name))
                else:
                    place[cid] = (zone, name)
        for zone, cid in (("revealed_plot", p.revealed_plot), ("house", p.house_card), ("agenda", p.agenda)):
            if cid is not None:
                if cid in place:
                    extra.setdefault(cid, [place[cid]]).append((zone, name))
                else:
                    place[cid] = (zone, name)
    for host, c in cards.items():
        for zone, held in (("attached", c.attachments), ("duplicate", c.duplicates)):
            for cid in held:
                if cid in place:
                    extra.setdefault(cid, [place[cid]]).append((zone, host))
                else:
                    place[cid] = (zone, host)

    for cid in place:
        if cid not in cards:
            bad(f"card #{cid} is held in {_where(extra.get(cid) or [place[cid]])} but is not a card of this game")

    # -- each card ------------------------------------------------------------------------
    windows_open = bool(st.windows)
    on_characters = dict.fromkeys(names, 0)
    titles: dict[tuple[str, str], int] = {}
    for cid, c in cards.items():
        zone = c.zone
        if c.id != cid:
            bad(f"{lab(cid)} is stored under id {cid} but its id field says {c.id}")
        if zone not in _ZONE_SET:
            bad(f"{lab(cid)} has an unknown zone {zone!r}")
        if c.owner not in name_set:
            bad(f"{lab(cid)} is owned by {c.owner!r}, who is not a player")
        if c.controller not in name_set:
            bad(f"{lab(cid)} is controlled by {c.controller!r}, who is not a player")
        where = place.get(cid)
        if zone == "removed":
            if where is not None:
                bad(f"{lab(cid)} is removed from the game but still held in {_where(extra.get(cid) or [where])}")
            continue
        if where is None or cid in extra:
            found = _where(extra[cid]) if cid in extra else "no place at all"
            bad(f"{lab(cid)} (zone {zone}) must be in exactly one place; it is in {found}")
            continue
        held_zone, holder = where
        if held_zone != zone:
            bad(f"{lab(cid)} says zone {zone!r} but is held in {_where([where])}")
        if held_zone == "attached" or held_zone == "duplicate":
            if c.attached_to != holder:
                bad(f"{lab(cid)} is on #{holder}'s {held_zone} list but attached_to is {c.attached_to}")
            h = cards.get(holder)
            if h is not None and h.zone != "in_play" and not (h.zone == "house" and held_zone == "attached"):
                bad(f"{lab(cid)} is {held_zone} to {lab(holder)}, which is not in play (zone {h.zone})")
        else:
            if c.attached_to is not None:
                bad(f"{lab(cid)} is in {held_zone} but attached_to is {c.attached_to}")
            if held_zone == "in_play":
                if c.controller != holder:
                    bad(f"{lab(cid)} is in {holder}'s in_play list but is controlled by {c.controller}")
            elif held_zone == "revealed_plot":  # a plot of a switched plot deck is its revealer's (Varys)
                if c.controller != holder:
                    bad(f"{lab(cid)} is {holder}'s revealed plot but controlled by {c.controller}")
            else:  # piles, events being played, House card, agenda: the owner's
                if holder != c.owner:
                    bad(f"{lab(cid)} is in {holder}'s {held_zone} but is owned by {c.owner}")
                if c.controller != c.owner:
                    bad(f"{lab(cid)} is in {c.owner}'s {held_zone} but controlled by {c.controller}")
        if (c.attachments or c.duplicates) and zone not in ("in_play", "attached") and \
                not (zone == "house" and not c.duplicates):  # ZON-04: the House card is in play
            bad(f"{lab(cid)} is not in play (zone {zone}) but carries attachments {c.attachments} "
                f"/ duplicates {c.duplicates}")
        if zone in _PILE_SET and (c.power or c.kneeling or c.facedown):
            state = ", ".join(w for w, v in (("power", c.power), ("kneeling", c.kneeling),
                                             ("facedown", c.facedown)) if v)
            bad(f"{lab(cid)} is in {c.owner}'s {zone} but is still marked: {state}")
        if c.power < 0:
            bad(f"{lab(cid)} has negative power {c.power}")
        if zone in _PILE_SET and c.tokens:
            bad(f"{lab(cid)} is in {c.owner}'s {zone} but still has tokens {c.tokens}")
        if any(n < 0 for n in c.tokens.values()):
            bad(f"{lab(cid)} has a negative number of tokens {c.tokens}")
        if c.moribund is not None:
            if not windows_open:
                bad(f"{lab(cid)} is moribund ({c.moribund}) but no action window is open (MOR-01)")
            if c.moribund not in MORIBUND_DESTINATIONS:
                bad(f"{lab(cid)} is moribund towards an unknown destination {c.moribund!r}")
            if zone not in ("in_play", "attached", "duplicate", "played"):
                bad(f"{lab(cid)} is moribund ({c.moribund}) but not in play (zone {zone})")
        if zone == "played" and not windows_open:
            bad(f"{lab(cid)} is still being played but no action window is open (MOR-05)")
        if (zone == "in_play" or zone == "attached") and not c.facedown:
            d = pool[c.key]
            if zone == "in_play" and d.type == "character" and c.controller in on_characters:
                on_characters[c.controller] += c.power
            if d.unique and rules:
                for who in (c.controller, c.owner) if c.controller != c.owner else (c.owner,):
                    first = titles.setdefault((who, d.name), cid)
                    if first != cid:
                        bad(f"{who} has two copies of the unique {d.name} in play: #{first} and #{cid} (UNQ-01)")

    if cards and st.next_id <= max(cards):
        bad(f"next_id {st.next_id} would reuse an existing card id (largest {max(cards)})")

    # -- players: gold, draws, power -------------------------------------------------------
    for p in st.players:
        if p.gold < 0:
            bad(f"{p.name} has negative gold {p.gold}")
        if p.drawn_this_round < 0 or rules and p.drawn_this_round > DRAW_CAP:
            bad(f"{p.name} has drawn {p.drawn_this_round} cards by effects this round (cap {DRAW_CAP}, DRW-03)")
        if p.house_card is None:
            bad(f"{p.name} has no House card")
        house = cards[p.house_card].power if p.house_card in cards else 0
        expected = house + on_characters[p.name]
        if triggers.prohibited(game, p.name, "character_power") is not None:
            expected = house  # Melisandre: power on his characters does not count (GEN-01)
        try:
            computed = game.total_power(p.name)
        except Exception as err:  # noqa: BLE001 - report, don't crash the checker
            bad(f"total_power({p.name}) raised {err!r}")
        else:
            if computed != expected:
                bad(f"{p.name}'s total power is computed as {computed}, but House power {house} plus power "
                    f"on controlled characters {on_characters[p.name]} is {expected} (C-19)")

    if st.first_player is not None and st.first_player not in names:
        bad(f"first player {st.first_player!r} is not a player")
    for w in st.windows:
        if not 1 <= w.step <= 6:
            bad(f"window {w.name!r} is at step {w.step}, outside 1..6")
    for e in st.effects:
        if e.target not in cards:
            bad(f"a lasting effect ({e.stat} {e.value}) targets #{e.target}, which is not a card")

    # -- the winner ----------------------------------------------------------------------
    winner = st.winner
    if winner is not None and winner != "draw" and winner not in names:
        bad(f"the winner {winner!r} is neither a player nor 'draw'")
    seen = _seen_winner.get(game)
    if seen is not None and winner != seen:
        bad(f"the winner was {seen!r} and is now {winner!r}: a winner, once set, stays set")
    if winner is not None:
        try:
            _seen_winner[game] = winner
        except TypeError:  # a game object that cannot be weakly referenced: no memory
            pass
    if game.pending is None and winner is None:
        bad("the game is over but no winner is recorded")
    if winner is not None and game.pending is not None:
        bad(f"{winner} has won but the engine still asks: {game.pending.describe()}")
    return problems


def _where(held: list[tuple[str, Any]]) -> str:
    return ", ".join(f"{zone} of {'#' if isinstance(holder, int) else ''}{holder}" for zone, holder in held)


def _labeller(game: "Game"):
    """``lab(12)`` -> ``#12 Ser Corwen Thornfell``; only called when a message is written."""
    return lambda cid: _label(game, cid)


def _label(game: "Game", cid: int) -> str:
    c = game.state.cards.get(cid)
    d = game.pool.get(c.key) if c is not None else None
    return f"#{cid} {d.name}" if d is not None else f"#{cid}"
