"""Advise mode: free moves that the engine applies, records and comments on.

At a physical table players move cards by hand; in advise mode the table does
the same. A free move is applied whatever the rules say, recorded in the
game's history (so replays and undo still work), and answered with the rules
it breaks, if any:

>>> free_move(game, "alice", {"draw": "alice", "count": 1})     # doctest: +SKIP
['draw cap: a fourth card drawn by effects this round (DRW-03)']

A move the table itself cannot represent (an unknown card, a House card
leaving its place) is refused with ``Refused``, and nothing changes.
"""
from __future__ import annotations

from engine import legality, manual
from engine.decisions import (FLAG, ID, NAME, NONE, NUMBER, TOOL_FIELDS, WORD, GameEnded, Refused, Shape,
                              check_fields, shown)
from engine.game import Game

FREE_ZONES = ("hand", "deck", "discard", "dead", "in_play", "attached", "plot_deck", "used_plots")
DRAW_CAP = 3
MAX_DELTA = 100
"""The most power or gold one free move adds or removes, and the most cards it draws."""

MOVE_FIELDS: dict[str, dict[str, Shape]] = {
    "tool": TOOL_FIELDS,
    "move": {"move": ID, "to": WORD, "attach_to": ID | NONE, "controller": NAME | NONE, "top": FLAG},
    "kneel": {"kneel": ID},
    "stand": {"stand": ID},
    "power": {"power": ID, "delta": NUMBER},
    "gold": {"gold": NAME, "delta": NUMBER},
    "draw": {"draw": NAME, "count": NUMBER},
    "shuffle": {"shuffle": NAME},
}
"""Each free move's keys and the type of each value: checked before anything else reads the move."""


def _card(game: Game, ref) -> int:
    if ref not in game.state.cards:
        raise Refused(f"there is no card {shown(ref)}")
    return ref


def _player(game: Game, name) -> str:
    if not isinstance(name, str) or name not in game.state.player_names:
        raise Refused(f"{shown(name)} is not a player")
    return name


def _amount(move: dict, key: str, default: int, low: int) -> int:
    n = move.get(key, default)
    if not low <= n <= MAX_DELTA:
        raise Refused(f"{key}: a whole number from {low} to {MAX_DELTA}, not {shown(n)}")
    return n


def check_free_move(game: Game, player: str, move: dict) -> list[str]:
    """The rules ``move`` would break, without applying it (raises Refused if it is impossible).
    Every key and value is checked (``MOVE_FIELDS``) before anything is read."""
    st = game.state
    _player(game, player)
    if not isinstance(move, dict) or not move:
        raise Refused("a free move is a mapping such as {'kneel': 12}")
    kind = next((k for k in MOVE_FIELDS if k in move), None)
    if kind is None:
        raise Refused(f"unknown free move {shown(list(move))}; use move, kneel, stand, power, gold, draw, shuffle "
                      f"or a manual effect tool ({{'tool': ...}})")
    check_fields(move, MOVE_FIELDS[kind], kind)
    warnings: list[str] = []
    if "tool" in move:  # the manual effect tools of card text by hand (engine/manual.py)
        manual.check_tool(game, player, move)
        if move["tool"] == "draw":
            warnings.extend(_draw_warnings(game, move.get("player", player), move.get("count", 1)))
        elif move["tool"] in ("kill", "discard", "return_to_hand", "return_to_deck", "put_into_play",
                              "take_control", "modify", "power", "move_power", "search"):
            warnings.append(f"{move['tool'].replace('_', ' ')}: only a card effect does that; say which card "
                            f"it plays")
    elif "move" in move:
        cid = _card(game, move["move"])
        to = move.get("to")
        if to not in FREE_ZONES:
            raise Refused(f"cannot move a card to {to!r}; use one of {', '.join(FREE_ZONES)}")
        c = game.card(cid)
        if c.zone in ("house", "agenda"):
            raise Refused("the House card and the agenda never leave their place (ZON-04/05)")
        d = game.defn(cid)
        if to in ("plot_deck", "used_plots") and d.type != "plot" or d.type == "plot" and to not in (
                "plot_deck", "used_plots"):
            raise Refused(f"{d.name}: plots stay in the plot deck, the revealed slot or the used pile")
        if c.zone == "played":
            raise Refused(f"{d.name} is being played: it leaves when its effect has resolved (MOR-05)")
        if to == "attached":
            host = move.get("attach_to")
            if host is None:
                raise Refused("say which card it goes on (attach_to)")
            _card(game, host)
            if game.card(host).zone not in ("in_play",):
                raise Refused(f"{game.name(host)} is not in play")
            if host == cid:
                raise Refused(f"{d.name} cannot be attached to itself")
        elif move.get("attach_to") is not None:
            raise Refused("attach_to goes with to: attached")
        if move.get("controller") is not None:
            if to not in ("in_play", "attached"):
                raise Refused("controller goes with to: in_play or attached (a card in a pile is its owner's)")
            if _player(game, move["controller"]) and game.player(move["controller"]).eliminated:
                raise Refused(f"{move['controller']} is out of the game")
        if "top" in move and to != "deck":
            raise Refused("top goes with to: deck")
        if c.zone == "hand" and to in ("in_play", "attached"):
            dup = to == "attached" and game.name(move.get("attach_to")) == d.name
            warnings.extend(legality.marshal_problems(game, player, cid, duplicate=dup,
                                                      attach_to=move.get("attach_to")))
        elif c.zone == "deck" and to == "hand":
            warnings.extend(_draw_warnings(game, c.owner, 1))
        if to in ("in_play", "attached") and c.zone not in ("in_play", "attached", "hand"):
            warnings.append(f"{d.name} comes into play from the {c.zone.replace('_', ' ')}: only a card "
                            f"effect does that")
    elif "kneel" in move or "stand" in move:
        cid = _card(game, move.get("kneel", move.get("stand")))
        if game.card(cid).zone not in ("in_play", "attached", "house", "agenda", "revealed_plot"):
            raise Refused(f"{game.name(cid)} is not in play")
        if "stand" in move and st.phase != "standing" and game.card(cid).kneeling:
            warnings.append(f"{game.name(cid)} stands outside the standing phase: only a card effect does that")
    elif "power" in move:
        cid = _card(game, move["power"])
        delta = _amount(move, "delta", 1, -MAX_DELTA)
        if game.card(cid).power + delta < 0:
            raise Refused(f"{game.name(cid)} has only {game.card(cid).power} power")
        if game.card(cid).zone not in ("in_play", "house"):
            raise Refused(f"{game.name(cid)} is not in play")
    elif "gold" in move:
        name = _player(game, move["gold"])
        delta = _amount(move, "delta", 1, -MAX_DELTA)
        if game.player(name).gold + delta < 0:
            raise Refused(f"{name} has only {game.player(name).gold} gold")
    elif "draw" in move:
        name = _player(game, move["draw"])
        warnings.extend(_draw_warnings(game, name, _amount(move, "count", 1, 1)))
    elif "shuffle" in move:
        _player(game, move["shuffle"])
    return warnings


def _draw_warnings(game: Game, name: str, count: int) -> list[str]:
    p = game.player(name)
    if game.state.phase == "setup":
        return ["setup: no card is drawn while setup cards are placed; the opening hand is drawn after "
                "the reveal (SET-09)"]
    after = p.drawn_this_round + count
    if after > DRAW_CAP:
        nth = {4: "fourth", 5: "fifth", 6: "sixth"}.get(after, f"{after}th")
        return [f"draw cap: a {nth} card drawn by effects this round (DRW-03)"]
    return []


def free_move(game: Game, player: str, move: dict) -> list[str]:
    """Apply ``move`` and record it; returns the rules it breaks (empty when it is legal)."""
    if game.pending is None:
        raise Refused("the game is over (WIN-01)")
    try:
        warnings = check_free_move(game, player, move)
    except Refused as err:
        raise game.refusal_for(player, move, err) if isinstance(player, str) else err from None
    try:
        apply_free_move(game, player, move)
    except GameEnded:
        pass  # the move decided the game (WIN-01): it is recorded like any other, and the game ends below
    game.history.append((player, {"free": dict(move)}))
    for w in warnings:
        game.log(f"advice: {player}: {w}")
    if game.state.winner is None:
        if game.pending is not None and game.pending.refresh is not None:
            game.pending.refresh()
        game.update_challenge_participants()  # a character moved away stops participating (CHL-08/09)
    game.end_by_free_move()
    return warnings


def apply_free_move(game: Game, player: str, move: dict) -> None:
    st = game.state
    if "tool" in move:
        manual.apply_tool(game, player, move)
    elif "move" in move:
        cid, to = move["move"], move["to"]
        c = game.card(cid)
        if c.zone in ("in_play", "attached"):
            for aid in list(c.attachments) + list(c.duplicates):
                game.move_to_pile(aid, "discard")
        title = game.name(cid)
        if to == "in_play":
            game.put_in_play(cid, move.get("controller") or (player if c.zone == "hand" else c.controller))
        elif to == "attached":
            host = move["attach_to"]
            dup = game.name(host) == title and game.defn(cid).unique
            game.attach(cid, host, move.get("controller") or player, duplicate=dup)
        else:
            if c.zone == "deck" and to == "hand":
                game.player(c.owner).drawn_this_round += 1 if st.phase != "setup" else 0
            game.move_to_pile(cid, to, top=move.get("top", True))
        game.log(f"{player} moves {title} to {to.replace('_', ' ')}")
    elif "kneel" in move:
        game.card(move["kneel"]).kneeling = True
        game.log(f"{player} kneels {game.name(move['kneel'])}")
    elif "stand" in move:
        game.card(move["stand"]).kneeling = False
        game.log(f"{player} stands {game.name(move['stand'])}")
    elif "power" in move:
        delta = int(move.get("delta", 1))
        game.card(move["power"]).power += delta
        game.log(f"{player} {'adds' if delta >= 0 else 'removes'} {abs(delta)} power "
                 f"{'to' if delta >= 0 else 'from'} {game.name(move['power'])}")
    elif "gold" in move:
        game.player(move["gold"]).gold += int(move.get("delta", 1))
        game.log(f"{player} changes {move['gold']}'s gold by {int(move.get('delta', 1))}")
    elif "draw" in move:
        n = game.draw(move["draw"], int(move.get("count", 1)), by_effect=True, enforce_cap=False)
        game.log(f"{move['draw']} draws {n} card{'s' if n != 1 else ''}")
    elif "shuffle" in move:
        st.rng.shuffle(game.player(move["shuffle"]).deck)  # the player asked for it
        game.log(f"{move['shuffle']} shuffles the deck")
