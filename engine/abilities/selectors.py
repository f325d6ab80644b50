"""Selectors: what an effect acts on (cards, or players for draws and discards)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.abilities.filters import candidates
from engine.abilities.model import Ctx
from engine.abilities.registry import REGISTRY, selector

if TYPE_CHECKING:
    from engine.game import Game


@selector("self", "card", "this card",
        phrase=lambda r: "this card")
def _self(g, ctx):
    return [ctx.source]


@selector("target", "card", "the chosen targets",
        phrase=lambda r: r.target_noun())
def _target(g, ctx):
    return list(ctx.targets)


@selector("targets", "card", "the same as target",
        phrase=lambda r: r.target_noun())
def _targets(g, ctx):
    return list(ctx.targets)


@selector("host", "card", "the card this attachment is on",
        phrase=lambda r: r.host_noun)
def _host(g, ctx):
    host = g.card(ctx.source).attached_to
    return [host] if host is not None else []


@selector("trigger", "card", "the card of the gate that triggered the ability",
        phrase=lambda r: r.trigger_noun())
def _trigger(g, ctx):
    card = (ctx.gate or {}).get("card")
    return [card] if card is not None else []


@selector("you", "player", "the ability's controller",
        phrase=lambda r: "you")
def _you(g, ctx):
    return [ctx.player]


@selector("opponent", "player", "the gate's other player, else your opponent in the challenge, else the "
                                 "next opponent in seat order",
        phrase=lambda r: "your opponent")
def _opponent(g, ctx):
    ch = g.state.challenge
    if ctx.gate and ctx.gate.get("player") and ctx.gate["player"] != ctx.player:
        return [ctx.gate["player"]]
    if ch is not None and ctx.player in (ch.attacker, ch.defender):
        return [ch.defender if ctx.player == ch.attacker else ch.attacker]
    return g.opponents(ctx.player)[:1]


@selector("each_opponent", "player", "every opponent",
        phrase=lambda r: "each opponent")
def _each_opponent(g, ctx):
    return g.opponents(ctx.player)


SELECTORS = REGISTRY["selector"]


def select(g: Game, sel: Any, ctx: Ctx) -> list:
    """An effect's object: a selector word, or {all: FILTER} (every matching card)."""
    out = _select(g, sel, ctx)
    if out and any(isinstance(c, int) and g.card(c).zone == "discard" for c in out) and g.discard_sealed():
        out = [c for c in out if not (isinstance(c, int) and g.card(c).zone == "discard")]  # Sealed Mine
    return out


def _select(g: Game, sel: Any, ctx: Ctx) -> list:
    if sel is None:
        return [ctx.source]
    if isinstance(sel, str):
        word = SELECTORS.get(sel)
        return word.impl(g, ctx) if word is not None else []
    if isinstance(sel, dict) and "all" in sel:
        f = dict(sel["all"]) if isinstance(sel["all"], dict) else {"type": sel["all"]}
        return candidates(g, f, ctx)
    if isinstance(sel, dict):
        return candidates(g, sel, ctx)
    return []


# --- core-b additions ---

@selector("chosen", "card", "the cards the players chose for this ability's `chooses` effect",
        phrase=lambda r: "the chosen cards")
def _chosen(g, ctx):
    return list(ctx.chosen)


@selector("unchosen", "card", "the cards a `chooses` effect offered that nobody chose (\"all ... not chosen\")",
        phrase=lambda r: "each card not chosen")
def _unchosen(g, ctx):
    return list(ctx.unchosen)


@selector("paid", "card", "the cards knelt to pay this ability's `kneel` cost",
        phrase=lambda r: "the knelt cards")
def _paid(g, ctx):
    return list(ctx.paid)


@selector("each_player", "player", "every player still in the game, clockwise from you",
        phrase=lambda r: "each player")
def _each_player(g, ctx):
    return [n for n in g.state.clockwise_from(ctx.player) if not g.player(n).eliminated]


@selector("you_and_target", "player", "you, then the chosen player",
        phrase=lambda r: "you and the chosen player")
def _you_and_target(g, ctx):
    return [ctx.player] + [t for t in ctx.targets if isinstance(t, str) and t != ctx.player]


@selector("most_cards_in_hand", "player", "the player (or each tied player) with the most cards in hand",
        phrase=lambda r: "the player with the most cards in hand")
def _most_cards_in_hand(g, ctx):
    names = [n for n in g.state.clockwise_from(ctx.player) if not g.player(n).eliminated]
    most = max(len(g.player(n).hand) for n in names)
    return [n for n in names if len(g.player(n).hand) == most]


# --- core-c additions ---

@selector("gate_player", "player", "the player of the gate that triggered the ability (who played the card, "
          "won the challenge...)",
        phrase=lambda r: "that player")
def _gate_player(g, ctx):
    who = (ctx.gate or {}).get("player")
    return [who] if who else []


# --- issue 24 (CCG Five Kings Edition) additions ---

@selector("your_discard_top", "card", "the card on top of your discard pile (none when it is empty)",
          phrase=lambda r: "your discard pile's top card")
def _your_discard_top(g, ctx):
    pile = g.player(ctx.player).discard
    return [pile[-1]] if pile else []


# --- issue 24 (CCG Winter Edition) additions ---

@selector("target_controller", "player", "the player who controls the chosen card (each chosen card's controller, "
          "once)",
        phrase=lambda r: "their controllers" if r.target_noun() == "them" else "its controller")
def _target_controller(g, ctx):
    out: list[str] = []
    for t in ctx.targets:
        if isinstance(t, int) and t in g.state.cards and g.card(t).controller not in out:
            out.append(g.card(t).controller)
    return out


# --- issue 24 (CCG Five Kings Edition, part 6) additions ---

@selector("challengers", "player", "every opponent who has initiated a challenge against you this phase (Against "
          "the Common Foe)",
          phrase=lambda r: "each opponent who initiated a challenge against you this phase")
def _challengers(g, ctx):
    st = g.state
    return [n for n in g.opponents(ctx.player)
            if st.counters.get(f"challenged:{n}:{ctx.player}") == st.phase_serial]
