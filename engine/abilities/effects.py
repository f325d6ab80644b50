"""Effects: each effect word is one ``@effect`` entry, its schema (the word's value and the keys
allowed beside it), its doc line and ``fn(g, e, arg, ctx) -> bool`` (True when it resolved,
for ``then``, COS-17)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cards.model import ICONS
from engine import scripted
from engine.abilities.filters import candidates, challenge_loser, house_and_plot_cards, immune_to, matches
from engine.abilities.model import Ctx
from engine.abilities.registry import (FROM, REGISTRY, Bool, Either, FilterSchema, Int, Keyword, ListOf, Schema,
                                       Text, TrueOnly, Words, card_selector, effect)
from engine.abilities.selectors import select
from engine.state import PILE_ZONES, Effect
from engine.uniqueness import copies_in_play, unique_problem
from engine.wording import article

if TYPE_CHECKING:
    from engine.game import Game

UNTIL = Words("challenge", "phase", "round")
PLAYERS = Words("you", "opponent", "each_opponent", "target")
"""Who draws or discards: ``target`` is a chosen player (``choose: {player: ...}``)."""
DESTINATIONS = ("dead", "discard", "hand", "deck_top", "deck_bottom", "deck_shuffled")
PARTICIPATE = ("participate_military", "participate_intrigue", "participate_power")
"""``cannot: [participate_<type>]``: the card takes no part in challenges of that type (issue 24)."""
REMOVAL_WORD = {"kill": "dead", "discard": "discard", "return_to_hand": "hand", "return_to_deck": "deck"}
MODIFIERS = {"strength": Int(minimum=None), "add_icons": ListOf(Words(*ICONS)),
             "remove_icons": ListOf(Words(*ICONS)), "add_keywords": ListOf(Keyword()),
             "remove_keywords": ListOf(Keyword()), "add_traits": ListOf(Text("TRAIT")),
             "remove_traits": ListOf(Text("TRAIT")), "blank": Bool()}
"""The modifier keys of a lasting ``modify`` effect and of a constant's ``modify``."""


FOR_EACH = Either(Words("your_gold"), FilterSchema({"from": FROM}), form="FILTER | your_gold")
"""``modify``'s ``for_each``: what the STR change is multiplied by, counted as the effect resolves."""


def _kind(ctx: Ctx) -> str | None:
    return ctx.ability.kind if ctx.ability else None


def _remove(g: Game, e: dict, name: str, arg: Any, ctx: Ctx) -> bool:
    dest = REMOVAL_WORD[name] if name != "return_to_deck" else ("deck_bottom" if e.get("bottom") else "deck_top")
    saved = set(ctx.event.data.get("saved", [])) - set(ctx.own_saves) if ctx.event is not None else set()
    title = g.name(ctx.source)
    done = False
    for cid in select(g, arg, ctx):
        if cid in saved or immune_to(g, cid, ctx.source, _kind(ctx)) and cid not in ctx.targets:
            continue
        chosen = ctx.destinations.get(cid)
        if chosen is not None and chosen != REMOVAL_WORD.get(name, "deck"):
            continue  # MOR-06: the first player sent it elsewhere
        if g.card(cid).zone not in ("in_play", "attached"):
            continue
        if g.remove(cid, dest):
            done = True
            verb = {"kill": "killed", "discard": "discarded", "return_to_hand": "returned to hand",
                    "return_to_deck": "returned to the deck"}[name]
            g.log(f"{g.name(cid)} is {verb} by {title}")
            if g.state.window is not None:
                player = g.card(cid).controller
                if name == "kill":
                    g.state.window.gates.append({"event": "killed", "card": cid, "player": player})
                elif name == "discard":
                    g.state.window.gates.append({"event": "discarded", "card": cid, "player": player})
                else:
                    g.state.window.gates.append({"event": "returned", "card": cid, "player": player})
                g.state.window.gates.append({"event": "left_play", "card": cid, "player": player})
                if g.card(cid).moribund == "dead":  # core-d: MOR-02, placed in the dead pile
                    _gate(g, "dead", cid, g.card(cid).owner)
    return done


@effect("kill", card_selector(), "removes cards in play; inside a window they are moribund until step 6. The "
        "cards are known at initiation so they can be saved in step 2", removal="dead",
        phrase=lambda v, e, r: "kill " + r.cards(v))
def _kill(g, e, arg, ctx):
    return _remove(g, e, "kill", arg, ctx)


@effect("discard", card_selector(), "the same, to the discard pile", removal="discard",
        phrase=lambda v, e, r: "discard " + r.cards(v) + " from play")
def _discard(g, e, arg, ctx):
    return _remove(g, e, "discard", arg, ctx)


@effect("return_to_hand", card_selector(), "the same, to the owner's hand", removal="hand",
        phrase=lambda v, e, r: "return " + r.cards(v) + " to " + r.owners(v) + " hand")
def _return_to_hand(g, e, arg, ctx):
    return _remove(g, e, "return_to_hand", arg, ctx)


@effect("return_to_deck", card_selector(), "the same, to the top (or with `bottom: true` the bottom) of the "
        "owner's deck", keys={"bottom": Bool()}, removal="deck",
        phrase=lambda v, e, r: ("put " + r.cards(v) + (" on the bottom" if e.get("bottom") else " on top") + " of "
                                + r.owners(v) + " deck"))
def _return_to_deck(g, e, arg, ctx):
    return _remove(g, e, "return_to_deck", arg, ctx)


def _kneel_or_stand(g, name, arg, ctx):
    done = False
    for cid in select(g, arg, ctx):
        if immune_to(g, cid, ctx.source, _kind(ctx)) and cid not in ctx.targets:
            continue
        if name == "stand" and g.cannot(cid, "stand"):
            continue  # core-b: a constant says it cannot stand
        if g.card(cid).kneeling != (name == "kneel"):
            g.card(cid).kneeling = name == "kneel"
            done = True
    g.log(f"{g.name(ctx.source)}: {name} {', '.join(g.name(c) for c in select(g, arg, ctx)) or 'nothing'}")
    return done


@effect("kneel", card_selector(), "kneels the cards",
        phrase=lambda v, e, r: "kneel " + r.cards(v))
def _kneel(g, e, arg, ctx):
    return _kneel_or_stand(g, "kneel", arg, ctx)


@effect("stand", card_selector(), "stands the cards",
        phrase=lambda v, e, r: "stand " + r.cards(v))
def _stand(g, e, arg, ctx):
    return _kneel_or_stand(g, "stand", arg, ctx)


@effect("claim_power", card_selector("house", "your_house"), "claims power (house: for your House card)",
        keys={"amount": Int(minimum=1)},
        phrase=lambda v, e, r: (f"gain {str(e.get('amount', 1)).upper()} power for your House"
                                if v in ("house", "your_house")
                                else r.subject(v, f"gain {str(e.get('amount', 1)).upper()} power"))
        + r.for_each(e.get("for_each"))
        + (f" for each {e['per_difference']} STR by which the challenge's totals differ"
           if e.get("per_difference") else ""))
def _claim_power(g, e, arg, ctx):
    n = _amount(e.get("amount", 1), ctx)
    if "for_each" in e:
        n *= _reduce_count(g, e["for_each"], ctx)
    if "per_difference" in e:  # issue 24 (Support of the Seven): for each N STR of the challenge's difference
        ch = g.state.challenge
        n *= 0 if ch is None else abs(ch.attacker_strength - ch.defender_strength) // int(e["per_difference"])
    if n <= 0:
        return False
    title = g.name(ctx.source)
    if arg in ("house", "your_house"):
        g.log(f"{ctx.player} claims {n} power for House with {title}")
        g.claim_house_power(ctx.player, n)
        return True
    for cid in select(g, arg, ctx):
        g.log(f"{g.name(cid)} claims {n} power ({title})")
        g.add_card_power(cid, n)
    return True


POWER_FROM = card_selector("opponent_house", "your_house", "gate_house", "each_opponent_house", "target_house")
"""``gate_house``: the House card of the gate's player (issue 24: Infamous!, after a House power claim);
``each_opponent_house``: the House card of each opponent, one after the other (issue 24: The Iron Throne of
the Iron Throne Edition); ``target_house``: the House card of the chosen player (issue 24: Abandoned Lighthouse)."""


def _power(g, name, e, arg, ctx):
    if arg == "all":  # issue 24: every power token of every card the selector picks (Robert Baratheon)
        return _all_power(g, name, e, ctx)
    if arg == "claimed":  # issue 24 (Infamous!): the power the gate's player has just claimed for his House
        n = int((ctx.gate or {}).get("amount", 0))
    elif arg == "x":  # issue 24 (Abandoned Lighthouse): as much as the X paid (all there is, if less)
        n = int(ctx.x)
    else:
        n = int(arg if isinstance(arg, int) else e.get("amount", 1))
    src = e.get("from", "opponent_house")
    if src == "each_opponent_house":  # issue 24: N power from each opponent's House, in turn
        done = [_power(g, name, {**e, "from": {"house_of_player": who}}, n, ctx)
                for who in select(g, "each_opponent", ctx)]
        return any(done)
    if isinstance(src, dict) and "house_of_player" in src:
        holder = g.player(src["house_of_player"]).house_card
    elif src == "gate_house":
        who = (ctx.gate or {}).get("player")
        holder = g.player(who).house_card if isinstance(who, str) else None
    elif src == "target_house":
        who = next((t for t in ctx.targets if isinstance(t, str)), None)
        holder = g.player(who).house_card if who else None
    elif src in ("opponent_house",):
        holder = g.player(select(g, "opponent", ctx)[0]).house_card
    elif src == "your_house":
        holder = g.player(ctx.player).house_card
    elif src == "loser_house":  # issue 24: the House of the player who lost the challenge (Bloody Trident)
        loser = challenge_loser(g)
        holder = g.player(loser).house_card if loser else None
    else:
        found = select(g, src, ctx)
        holder = found[0] if found else None
    if holder is None:
        return False
    n = min(n, g.card(holder).power)
    g.card(holder).power -= n
    if name == "move_power":
        dst = e.get("to", "your_house")
        target = g.player(ctx.player).house_card if dst == "your_house" else (select(g, dst, ctx) or [None])[0]
        if target is not None:
            g.card(target).power += n
    g.log(f"{g.name(ctx.source)}: {n} power {'moved' if name == 'move_power' else 'discarded'} from "
          f"{g.name(holder)}")
    g.check_victory()
    return n > 0


def _power_holders(g, src, ctx) -> list[int]:
    if src == "each_opponent_house":
        return [g.player(who).house_card for who in select(g, "each_opponent", ctx)]
    if src == "opponent_house":
        return [g.player(select(g, "opponent", ctx)[0]).house_card]
    if src == "your_house":
        return [g.player(ctx.player).house_card]
    if src == "target_house":
        return [g.player(t).house_card for t in ctx.targets if isinstance(t, str)][:1]
    if src == "loser_house":
        loser = challenge_loser(g)
        return [g.player(loser).house_card] if loser else []
    return list(select(g, src, ctx))


def _all_power(g, name, e, ctx):
    holders = [h for h in _power_holders(g, e.get("from", "opponent_house"), ctx) if h is not None]
    target = None
    if name == "move_power":
        dst = e.get("to", "your_house")
        target = g.player(ctx.player).house_card if dst == "your_house" else (select(g, dst, ctx) or [None])[0]
    moved = 0
    for holder in holders:
        n = g.card(holder).power
        if holder == target or n <= 0:
            continue
        g.card(holder).power -= n
        if target is not None:
            g.card(target).power += n
        moved += n
        g.log(f"{g.name(ctx.source)}: {n} power {'moved' if name == 'move_power' else 'discarded'} from "
              f"{g.name(holder)}")
    g.check_victory()
    return moved > 0


POWER_AMOUNT = Either(Int(minimum=1), Words("all", "claimed", "x"), form="N | all | claimed | x")


@effect("move_power", POWER_AMOUNT, "moves N power (moving is not claiming, ZON-08); from defaults to "
        "opponent_house, to to your_house; `all`: all the power of every card `from` picks; `claimed` with `from: "
        "gate_house`: the power the gate's player has just claimed for his House, from his House card "
        "(`house_power_claimed`); `from: each_opponent_house`: N power from each opponent's House card in turn; `from: "
        "target_house`: from the House card of the chosen player; `x`: as "
        "much as the X paid (all there is, when there is less)",
        keys={"from": POWER_FROM, "to": card_selector("your_house")},
        phrase=lambda v, e, r: (f"move {'that' if v == 'claimed' else 'up to X' if v == 'x' else v} power from "
                                f"{r.power_place(e.get('from', 'opponent_house'))} "
                                f"to {r.power_place(e.get('to', 'your_house'))}"))
def _move_power(g, e, arg, ctx):
    return _power(g, "move_power", e, arg, ctx)


@effect("discard_power", POWER_AMOUNT, "discards N power from a House card or a card; `all`: all the power of "
        "every card `from` picks",
        keys={"from": POWER_FROM},
        phrase=lambda v, e, r: (f"discard {'X' if v == 'x' else v} power from {r.power_place(e.get('from', 'opponent_house'))}"
                                + r.for_each(e.get("for_each"))))
def _discard_power(g, e, arg, ctx):
    if "for_each" in e:  # issue 24 (The Wildling Horde): N times the number of matching cards
        arg = int(arg) * _reduce_count(g, e["for_each"], ctx)
        if arg <= 0:
            return False
    return _power(g, "discard_power", e, arg, ctx)


@effect("draw", Int(minimum=1), "the player (default you) draws N; card-effect draws count against the draw cap "
        "(DRW-03..05); `gate_player`: the player of the gate; `hand_max: N`: only a player with N or fewer cards in "
        "hand as the effect resolves (Forever Listening); `for_each: FILTER`: N times the number of matching cards "
        "(in play, or the pile `from:` names), counted as the effect resolves (Perished in Flame)",
        keys={"player": Words(*PLAYERS.words, "gate_player", "each_player"), "hand_max": Int(),
              "for_each": FilterSchema({"from": FROM})},
        phrase=lambda v, e, r: (r.subject(e.get("player", "you"), "draw " + r.count(v, "card"))
                                + r.for_each(e.get("for_each"))
                                + (f" if {'you have' if e.get('player', 'you') == 'you' else 'they have'} "
                                   f"{e['hand_max']} or fewer cards in hand" if "hand_max" in e else "")))
def _draw(g, e, arg, ctx):
    n = int(arg) * (len(candidates(g, dict(e["for_each"]), ctx)) if "for_each" in e else 1)
    if n == 0:
        return False  # issue 24 (Tyrion Lannister of the CCG): one card for each of none
    for who in select(g, e.get("player", "you"), ctx):
        if "hand_max" in e and len(g.player(who).hand) > int(e["hand_max"]):
            continue
        if e.get("reveal") and g.player(who).deck:  # issue 24 (Massing at Twilight): shown to all, then drawn
            g.log(f"{who} reveals {', '.join(g.name(c) for c in g.player(who).deck[:n])} from the top of the deck "
                  f"({g.name(ctx.source)})")
            _shown(g, list(g.player(who).deck[:n]), who)
            if g.state.window is not None:
                g.state.window.gates.append({"event": "cards_revealed", "card": ctx.source, "player": ctx.player})
        got = g.draw(who, n, by_effect=True)
        g.log(f"{who} draws {got} card{'s' if got != 1 else ''} ({g.name(ctx.source)})")
    return True


@effect("gain_gold", Int(minimum=1), "you gain N gold",
        phrase=lambda v, e, r: f"gain {v} gold")
def _gain_gold(g, e, arg, ctx):
    g.player(ctx.player).gold += int(arg)
    g.log(f"{ctx.player} gains {int(arg)} gold ({g.name(ctx.source)})")
    return True


def _describe_modify(e: dict) -> str:
    parts = ["loses its text box"] if e.get("blank") else []
    if e.get("become"):
        parts.append(f"becomes {article(e['become'])}")
    if e.get("strength"):
        parts.append(f"{int(e['strength']):+d} STR")
    for key, word in (("add_icons", "gains"), ("add_keywords", "gains"), ("add_traits", "gains"),
                      ("remove_icons", "loses"), ("remove_keywords", "loses"), ("remove_traits", "loses")):
        if e.get(key):
            parts.append(f"{word} {', '.join(e[key])}")
    if e.get("cannot"):
        parts.append("cannot " + " or ".join((f"participate in {w[12:]} challenges" if w.startswith("participate_") else w.replace("_", " "))
                                             for w in e["cannot"]))
    if e.get("no_kneel"):
        parts.append("does not kneel to " + " or ".join(e["no_kneel"]))
    if e.get("doomed"):
        parts.append("is Doomed")
    return ", ".join(parts) or "is modified"


@effect("modify", card_selector(), "a lasting effect (LST-01..05) until the end of the challenge, phase "
        "(default) or round; net sum, STR floor 0. `blank: true`: the card loses its printed text box "
        "(abilities, keywords, gold, influence and initiative icons; PLT-11, EFF-03/05; traits, challenge icons "
        "and gained text stay; a blanked attachment whose text let it sit on another type of card goes back to "
        "the default host, a character, so it is discarded at once, ATT-02, and the control it gave ends, "
        "CTL-02). `become: character`: only a character for the duration (EFF-12): its power "
        "counts while it is one (WIN-03), and killed it goes to the discard pile. `terminal: FILTER` (e.g. "
        "`{strength_max: 0}`): while the card matches it, it is killed, and a save that does not end the "
        "condition does not save it (MOR-09); a card's own terminal rule is `{kind: constant, terminal: FILTER}`. "
        "`for_each: FILTER | your_gold`: the STR change is multiplied by the number of matching cards (in play, with "
        "the House cards and revealed plots when its `type` names them, or the pile `from:` names) or the gold in your pool, counted once as the effect resolves (EFF-06: \"+1 STR "
        "for each card in your hand\" is `{for_each: {from: hand}}`). `cannot: [be_killed | be_discarded | defend | "
        "stand | attack | be_saved | be_removed_from_challenge | participate_military | participate_intrigue | "
        "participate_power]`: for the duration the card cannot be killed, be discarded from play, be declared as a "
        "defender, stand, be declared as an attacker, be saved, be removed from the challenge (by "
        "`remove_from_challenge`), or take part in a challenge of that type (declared or joining: Pious Pacifist), "
        "as with a constant's `cannot`. `no_kneel: [attack, defend]`: for the duration it does not kneel "
        "when declared as an attacker / defender (CHL-03, CHL-07). `doomed: true`: it is Doomed for the duration "
        "(the `doomed` filter; a card that leaves play loses it)",
        keys={**MODIFIERS, "terminal": FilterSchema(), "become": Words("character", "location", "attachment"),
              "until": UNTIL, "for_each": FOR_EACH,
              "cannot": ListOf(Words("be_killed", "be_discarded", "defend", "stand", "attack", "be_saved",
                                     "be_removed_from_challenge", *PARTICIPATE)),
              "no_kneel": ListOf(Words("attack", "defend")), "doomed": TrueOnly()},
        phrase=lambda v, e, r: (("have " + r.cards(v) if r.imperative else r.subject_noun(v)) + " "
                                + r.modifiers(e, r.imperative or r.is_plural(v)) + " " + r.until(e.get("until"))))
def _modify(g, e, arg, ctx):
    until = e.get("until", "phase")
    done = False
    if e.get("strength") in ("x", "minus_x"):  # issue 24: the X paid (Blood Magic)
        e = dict(e, strength=_amount(e["strength"], ctx))
    if e.get("strength") and "for_each" in e:  # EFF-06: counted once, as the effect resolves
        n = g.player(ctx.player).gold if e["for_each"] == "your_gold" else (  # the revealed plots count too (C-18)
            len(candidates(g, dict(e["for_each"]), ctx)) + len(house_and_plot_cards(g, e["for_each"], ctx)))
        e = dict(e, strength=int(e["strength"]) * n)
    for cid in select(g, arg, ctx):
        if immune_to(g, cid, ctx.source, _kind(ctx)) and cid not in ctx.targets:
            continue
        done = True
        if e.get("strength"):
            g.state.effects.append(Effect(cid, "strength", int(e["strength"]), until, ctx.source))
        if e.get("blank"):
            g.state.effects.append(Effect(cid, "blank", True, until, ctx.source))
        if isinstance(e.get("terminal"), dict):
            g.state.effects.append(Effect(cid, "terminal", dict(e["terminal"]), until, ctx.source))
        if e.get("become") in ("character", "location", "attachment"):
            g.state.effects.append(Effect(cid, "type", e["become"], until, ctx.source))
        for what in e.get("cannot", []) or []:
            g.state.effects.append(Effect(cid, "cannot", what, until, ctx.source))
        for what in e.get("no_kneel", []) or []:
            g.state.effects.append(Effect(cid, "no_kneel", what, until, ctx.source))
        if e.get("doomed"):
            g.state.effects.append(Effect(cid, "doomed", True, until, ctx.source))
        for key, stat in (("add_icons", "icon+"), ("remove_icons", "icon-"), ("add_keywords", "keyword+"),
                          ("remove_keywords", "keyword-"), ("add_traits", "trait+"),
                          ("remove_traits", "trait-")):
            for v in e.get(key, []) or []:
                g.state.effects.append(Effect(cid, stat, v, until, ctx.source))
        g.log(f"{g.name(ctx.source)}: {g.name(cid)} {_describe_modify(e)} until the end of the {until}")
    return done


@effect("save", card_selector(), "step 2: the card (usually trigger) is no longer removed by the effect being "
        "resolved; the ability's own `then` still acts on the card it saved (`{save: self}` then "
        "`{return_to_hand: self}`: Viserys Targaryen). From a terminal kill (MOR-09), a save that would not also "
        "end the condition is not a legal save (refused, and not offered; tried on a copy of the state)",
        phrase=lambda v, e, r: "save " + r.cards(v))
def _save(g, e, arg, ctx):
    ev = ctx.event
    done = False
    for cid in select(g, arg or "trigger", ctx):
        if ev is not None and cid in ev.victims:
            ev.victims.remove(cid)
            ev.data.setdefault("saved", []).append(cid)
            ctx.own_saves.append(cid)
            g.log(f"{g.name(cid)} is saved by {g.name(ctx.source)}")
            if g.state.window is not None:
                g.state.window.gates.append({"event": "saved", "card": cid, "player": g.card(cid).controller})
            done = True
    return done


@effect("cancel", TrueOnly(), "step 2: the effect being resolved is canceled (its costs stay paid); written "
        "as the bare word", bare=True,
        phrase=lambda v, e, r: "cancel that effect")
def _cancel(g, e, arg, ctx):
    ev = ctx.event
    if ev is None:
        return False
    ev.cancelled = True
    g.log(f"{g.name(ctx.source)} cancels {ev.name}")
    return True


@effect("discard_at_random", Int(minimum=1), "the player (default opponent) discards N cards at random from "
        "hand", keys={"player": PLAYERS},
        phrase=lambda v, e, r: (r.subject(e.get("player", "opponent"), f"discard {r.count(v, 'card')} at random from")
                                + f" {r.their(e.get('player', 'opponent'))} hand"))
def _discard_at_random(g, e, arg, ctx):
    n = int(arg)
    for who in select(g, e.get("player", "opponent"), ctx):
        hand = g.player(who).hand
        picks = g.state.rng.sample(hand, min(n, len(hand)))
        for cid in picks:
            g.move_to_pile(cid, "discard")
        g.log(f"{who} discards {', '.join(g.name(c) for c in picks) or 'nothing'} at random "
              f"({g.name(ctx.source)})")
    return True


@effect("put_into_play", card_selector(), "from hand or discard pile (`from:` in the filter); uniqueness still "
        "applies (C-08). `controller: target` (a chosen player) or `opponent`: into play under that player's "
        "control (CTL-01); `owner`: each card under its owner's control (cards the players chose from their own "
        "hands with `chooses`); `kneeling: true`: it enters play kneeling; a card in a dead pile comes back too "
        "(\"put it into play from your dead pile\": Beric Dondarrion)",
        keys={"controller": Words("you", "opponent", "target", "owner"), "kneeling": TrueOnly()},
        phrase=lambda v, e, r: ("put " + r.cards(v) + " into play" + (" kneeling" if e.get("kneeling") else "") + (
            "" if e.get("controller", "you") == "you" else " under their owners' control"
            if e["controller"] == "owner" else f" under {r.poss(e['controller'])} control")))
def _put_into_play(g, e, arg, ctx):
    done = False
    who = e.get("controller", "you")
    player = ctx.player if who in ("you", "owner") else (
        next((t for t in ctx.targets if isinstance(t, str)), None) if who == "target" else
        (select(g, "opponent", ctx) or [None])[0])
    if player is None:
        return False
    for cid in select(g, arg, ctx):
        if who == "owner":
            player = g.card(cid).owner
        if unique_problem(g, player, cid):
            continue  # C-08: uniqueness still applies
        came_from = g.card(cid).zone
        g.put_in_play(cid, player, kneeling=bool(e.get("kneeling")))
        g.log(f"{player if who == 'owner' else ctx.player} puts {g.name(cid)} into play"
              + (" kneeling" if e.get("kneeling") else "")
              + (f" under {player}'s control" if player != ctx.player and who != "owner" else "")
              + f" ({g.name(ctx.source)})")
        if g.state.window is not None:
            g.state.window.gates.append({"event": "entered_play", "card": cid, "player": player, "from": came_from})
        done = True
    return done


@effect("return_control", card_selector(), "control of the cards goes back to their owner (CTL-01)",
        phrase=lambda v, e, r: "return control of " + r.cards(v) + " to " + r.owners(v)[:-2])
def _return_control(g, e, arg, ctx):
    done = False
    for cid in select(g, arg, ctx):
        c = g.card(cid)
        if c.zone == "in_play" and c.controller != c.owner:
            g.set_controller(cid, c.owner)
            g.log(f"{c.owner} takes control of {g.name(cid)} back ({g.name(ctx.source)})")
            done = True
    return done


@effect("remove_from_challenge", card_selector(), "the cards stop participating",
        phrase=lambda v, e, r: "remove " + r.cards(v) + " from the challenge")
def _remove_from_challenge(g, e, arg, ctx):
    ch = g.state.challenge
    done = False
    for cid in select(g, arg, ctx):
        if g.cannot(cid, "be_removed_from_challenge"):
            continue  # issue 24: Desert Stocks
        if ch is not None and cid in ch.attackers + ch.defenders:
            (ch.attackers if cid in ch.attackers else ch.defenders).remove(cid)
            g.log(f"{g.name(cid)} is removed from the challenge ({g.name(ctx.source)})")
            done = True
    return done


def control_problem(g: Game, player: str, cid: int) -> str | None:
    """Taking control of a card: not a unique you already have (UNQ-02), nor a character carrying a
    unique attachment of which you have a copy in play (UNQ-04)."""
    if g.defn(cid).unique and g.card(cid).controller != player:
        for other in copies_in_play(g, g.name(cid)):
            if other != cid and (g.card(other).owner == player or g.card(other).controller == player):
                return f"{player} already has {g.name(cid)} in play (UNQ-02)"
        if any(g.name(c) == g.name(cid) for c in g.player(player).dead):
            return f"a copy of {g.name(cid)} is in {player}'s dead pile (UNQ-02)"
    for aid in g.card(cid).attachments:
        if g.defn(aid).unique:
            for other in copies_in_play(g, g.name(aid)):
                if other != aid and g.card(other).controller == player:
                    return f"{g.name(cid)} carries {g.name(aid)}, and {player} has a copy in play (UNQ-04)"
    return None


@effect("take_control", card_selector(), "you take control of the cards (not a unique you already have, "
        "UNQ-02/04); with `until: challenge | phase | round` only until then: control goes back to the owner as it "
        "ends, if you still have it (CTL-01)", steals=True, keys={"until": Words("challenge", "phase", "round")},
        phrase=lambda v, e, r: "take control of " + r.cards(v) + ((" " + r.until(e["until"])) if e.get("until") else ""))
def _take_control(g, e, arg, ctx):
    done = False
    for cid in select(g, arg, ctx):
        c = g.card(cid)
        if c.zone == "in_play" and c.controller != ctx.player and not control_problem(g, ctx.player, cid):
            g.set_controller(cid, ctx.player)
            if g.state.window is not None:  # issue 24: Punishment of Thieves
                g.state.window.gates.append({"event": "control_taken", "card": cid, "player": ctx.player})
            if e.get("until"):  # given back by Game.expire
                g.state.effects.append(Effect(cid, "control", ctx.player, e["until"], ctx.source))
            g.log(f"{ctx.player} takes control of {g.name(cid)} ({g.name(ctx.source)})"
                  + (f" until the end of the {e['until']}" if e.get("until") else ""))
            done = True
    return done


def _search_ask(g, e, ctx):
    f = dict(e["search"]) if isinstance(e["search"], dict) else {}
    found = [c for c in g.player(ctx.player).deck if matches(g, c, f, ctx)]
    if len(found) < 1:
        return None
    return {"prompt": f"{g.name(ctx.source)}: choose the card your search finds", "choices": found, "count": 1}


@effect("search", FilterSchema(), "search your deck: you choose a matching card, reveal it and put it in your hand, "
        "then shuffle (ZON-16)", ask=_search_ask,
        phrase=lambda v, e, r: ("search your deck for " + r.filter(v, bare=True)
                                + ", reveal it and add it to your hand, then shuffle your deck"))
def _search(g, e, arg, ctx):
    f = dict(arg) if isinstance(arg, dict) else {}
    deck = g.player(ctx.player).deck
    found = [c for c in deck if matches(g, c, f, ctx)]
    picks = [c for c in ctx.answers.get(id(e), []) if c in found] or found[:1]
    if picks:
        g.move_to_pile(picks[0], "hand")
        if e.get("reveal") is False:  # issue 24: Benjen's Cache (the card stays hidden in his hand)
            g.log(f"{ctx.player} searches the deck and adds a card to hand ({g.name(ctx.source)})")
        else:
            g.log(f"{ctx.player} searches the deck and reveals {g.name(picks[0])} ({g.name(ctx.source)})")
    else:
        g.log(f"{ctx.player} searches the deck and finds nothing ({g.name(ctx.source)})")
    g.shuffle_deck(ctx.player)  # ZON-16
    return bool(picks)


class EffectLists(Schema):
    """``one_of``: a mapping of our own labels to lists of effects."""

    form = "{LABEL: [EFFECT, ...], ...}"
    check_effect: Any = None

    def check(self, value, where):
        if not isinstance(value, dict) or len(value) < 2:
            raise where.error("one_of needs two or more labelled lists of effects", "write {label: [...], ...}")
        for label, seq in value.items():
            w = where.at(str(label), value, label)
            if not isinstance(seq, list):
                raise w.error("expected a list of effects (may be empty)")
            for j, item in enumerate(seq):
                EffectLists.check_effect(item, w.at(f"[{j + 1}]", seq, j, sep=""))


def _possible(g, effects, ctx) -> bool:
    """A choice is offered when its first effect could do something (gold to pay, a card to discard)."""
    if not effects:
        return True
    first = effects[0]
    if isinstance(first, dict):
        name = next((k for k in first if k in REGISTRY["effect"]), None)
        check = REGISTRY["effect"][name].extra.get("possible") if name else None
        if check is not None:
            return bool(check(g, first, ctx))
    return True


def one_of_choices(g, e, ctx) -> list[str]:
    return [label for label, seq in e["one_of"].items() if _possible(g, seq, ctx)]


def _one_of_ask(g, e, ctx):
    labels = one_of_choices(g, e, ctx)
    if not labels:
        return None
    look = e.get("look")
    seen = ""
    if look is not None:
        who = next((t for t in ctx.targets if isinstance(t, str)), None) if look == "target" else \
            (select(g, look, ctx) or [None])[0]
        deck = g.player(who).deck if who else []
        seen = f" (the top card of {who}'s deck is {g.name(deck[0])})" if deck else f" ({who}'s deck is empty)"
    return {"prompt": f"{g.name(ctx.source)}: choose one: {', '.join(labels)}{seen}", "choices": labels,
            "count": 1}


@effect("one_of", EffectLists(), "the controller chooses one of the labelled lists (our own words), among those "
        "whose first effect can be done, and its effects happen in order, each only if the one before resolved "
        "(a `chooses` in a branch is made as the branch runs); "
        "`look: target | opponent | you` shows the chooser the top card of that player's deck first",
        keys={"look": Words("target", "opponent", "you")}, ask=_one_of_ask, sequence=True,
        phrase=lambda v, e, r: r.one_of(v, e))
def _one_of(g, e, arg, ctx):
    """Run without a decision (a trial on a copy): the first possible choice."""
    labels = ctx.answers.get(id(e)) or one_of_choices(g, e, ctx)[:1]
    if not labels:
        return False
    ok = True
    for item in e["one_of"][labels[0]]:
        if not execute_one(g, item, ctx):
            ok = False
            break
    return ok


def _can_pay(g, e, ctx):
    return g.spendable_gold(ctx.player) >= int(e["pay_gold"])


@effect("pay_gold", Int(minimum=1), "you pay N gold from your pool as part of the effect (not a cost: COS-17 "
        "then-chains stop when you cannot)", possible=_can_pay,
        phrase=lambda v, e, r: f"pay {v} gold")
def _pay_gold(g, e, arg, ctx):
    if g.spendable_gold(ctx.player) < int(arg):
        return False
    g.spend_gold(ctx.player, int(arg))  # the pool first, then gold tokens he may spend (Tywin Lannister)
    g.log(f"{ctx.player} pays {int(arg)} gold ({g.name(ctx.source)})")
    return True


def _gold_holders(g, e, ctx):
    who = e.get("player", "any")
    names = g.state.clockwise_from(ctx.player) if who == "any" else select(g, who, ctx)
    return [n for n in names if g.player(n).gold > 0 and not g.player(n).eliminated]


def _discard_gold_ask(g, e, ctx):
    names = _gold_holders(g, e, ctx)
    if e.get("player", "any") != "any" or not names:
        return None
    return {"prompt": f"{g.name(ctx.source)}: choose a player whose gold pool loses {int(e['discard_gold'])} gold",
            "choices": names, "count": 1}


@effect("discard_gold", Int(minimum=1), "N gold goes from a player's pool back to the treasury; `player: any` "
        "(default): the controller chooses a player who has gold", keys={"player": Words("any", "you", "opponent")},
        ask=_discard_gold_ask, possible=lambda g, e, ctx: bool(_gold_holders(g, e, ctx)),
        phrase=lambda v, e, r: (f"discard {v} gold from "
                                + {"any": "a player's", "you": "your"}.get(e.get("player", "any"), r.poss(e.get("player")))
                                + " gold pool"))
def _discard_gold(g, e, arg, ctx):
    names = _gold_holders(g, e, ctx)
    picked = [n for n in ctx.answers.get(id(e), []) if n in names] or names[:1]
    if not picked:
        return False
    p = g.player(picked[0])
    n = min(int(arg), p.gold)
    p.gold -= n
    g.log(f"{picked[0]} discards {n} gold ({g.name(ctx.source)})")
    return n > 0


def _deck_of(g, sel, ctx) -> str | None:
    if sel == "target":
        return next((t for t in ctx.targets if isinstance(t, str)), None)
    found = select(g, sel, ctx)
    return found[0] if found else None


def _discard_top_phrase(v, e, r) -> str:
    n = e.get("count", 1)
    if n == "target_printed_strength":  # issue 24: Pilfering Stowaway
        return f"discard the top X cards of {r.poss(v)} deck (X is the chosen card's printed STR)"
    if n == "x":
        return f"discard the top X cards of {r.poss(v)} deck"
    return (f"discard the top {n} cards of {r.poss(v)} deck" if n > 1
            else f"discard the top card of {r.poss(v)} deck")


def _discard_top_count(g, e, ctx) -> int:
    n = e.get("count", 1)
    if n == "target_printed_strength":
        cards = [t for t in ctx.targets if isinstance(t, int) and t in g.state.cards]
        return (g.defn(cards[0]).strength or 0) if cards else 0
    if n == "x":  # issue 24 (Abandoned Lighthouse): the X paid
        return int(ctx.x)
    return int(n)


@effect("discard_top", Words("you", "opponent", "target", "each_opponent", "target_controller", "gate_player"),
        "the top card of "
        "that player's deck goes to the discard pile; `count: N`: the top N cards (as many as there are); "
        "`each_opponent`: of each opponent's deck; `target_controller`: of the chosen card's controller; "
        "`gate_player`: of the player of the gate; `count: "
        "target_printed_strength`: as many as the chosen card's printed STR; `count: x`: as many as the X paid (the "
        "condition `discarded` reads the cards it discarded)",
        keys={"count": Either(Int(minimum=1), Words("target_printed_strength", "x"),
                              form="N | target_printed_strength | x")},
        possible=lambda g, e, ctx: any(g.player(w).deck for w in _decks_of(g, e["discard_top"], ctx)),
        phrase=_discard_top_phrase)
def _discard_top(g, e, arg, ctx):
    done = False
    for who in _decks_of(g, arg, ctx):
        deck = g.player(who).deck
        for _ in range(_discard_top_count(g, e, ctx)):
            if not deck:
                break
            cid = deck[0]
            g.move_to_pile(cid, "discard")
            ctx.discarded.append(cid)
            g.log(f"{who} discards {g.name(cid)} from the top of the deck ({g.name(ctx.source)})")
            done = True
    return done


def _decks_of(g, sel, ctx) -> list[str]:
    if sel == "each_opponent":
        return [n for n in select(g, sel, ctx) if isinstance(n, str) and not g.player(n).eliminated]
    who = _deck_of(g, sel, ctx)
    return [who] if who else []


@effect("top_to_bottom", Words("you", "opponent", "target"), "the top card of that player's deck goes to the "
        "bottom of it, unseen by the others",
        phrase=lambda v, e, r: f"put the top card of {r.poss(v)} deck on the bottom of that deck")
def _top_to_bottom(g, e, arg, ctx):
    who = _deck_of(g, arg, ctx)
    deck = g.player(who).deck if who else []
    if not deck:
        return False
    deck.append(deck.pop(0))
    g.log(f"{g.name(ctx.source)}: the top card of {who}'s deck goes to the bottom")
    return True


@effect("discard_to_deck", Words("you", "opponent", "target"), "the top card of that player's discard pile goes "
        "on top of his or her deck; `card: FILTER`: the matching card nearest the top of the pile (\"the event "
        "closest to the top\")", keys={"card": FilterSchema()},
        phrase=lambda v, e, r: (f"put the {r.filter(e['card'], article_='')} closest to the top of {r.poss(v)} "
                                f"discard pile on top of {r.poss(v)} deck" if isinstance(e.get("card"), dict) else
                                f"put the top card of {r.poss(v)} discard pile on top of {r.poss(v)} deck"))
def _discard_to_deck(g, e, arg, ctx):
    who = _deck_of(g, arg, ctx)
    pile = g.player(who).discard if who and not g.discard_sealed() else []  # issue 24: Sealed Mine
    if isinstance(e.get("card"), dict):  # issue 24: the Iron Throne (Martell printing)
        pile = [c for c in pile if matches(g, c, dict(e["card"]), ctx)]
    if not pile:
        return False
    cid = pile[-1]
    g.move_to_pile(cid, "deck", top=True)
    g.log(f"{g.name(cid)} goes from {who}'s discard pile to the top of the deck ({g.name(ctx.source)})")
    return True


@effect("move_to_hand", card_selector(), "cards in a pile (discard or dead) go to their owner's hand (not a "
        "return from play)",
        phrase=lambda v, e, r: ("return this card to your hand" if v == "self"
                                else "put " + r.cards(v) + " into " + r.owners(v) + " hand"))
def _move_to_hand(g, e, arg, ctx):
    done = False
    for cid in select(g, arg, ctx):
        c = g.card(cid)
        if c.zone in ("discard", "dead"):
            pile = "dead pile" if c.zone == "dead" else "discard pile"
            g.move_to_pile(cid, "hand")
            g.log(f"{g.name(cid)} goes from {c.owner}'s {pile} to hand ({g.name(ctx.source)})")
            done = True
    return done


@effect("reduce", Either(Int(minimum=1), Words("printed_cost"), form="N | printed_cost"), "the next card you play "
        "this phase that matches `card` costs N gold less (COS-07 d: after penalties; never below 0, COS-12); one card "
        "uses it up; `printed_cost`: less its own printed cost (a gold penalty is still paid)",
        keys={"card": FilterSchema(), "until": UNTIL},
        phrase=lambda v, e, r: (f"reduce the cost of the next {r.filter(e.get('card') or {}, article_='')} "
                                f"you play this {e.get('until', 'phase')} by "
                                f"{'its printed cost' if v == 'printed_cost' else f'{v} gold'}"
                                + r.for_each(e.get("for_each"))))
def _reduce(g, e, arg, ctx):
    if arg == "printed_cost":  # issue 24 (A Test of Devotion): the card's own printed cost comes off
        g.state.reducers.append({"player": ctx.player, "amount": "printed_cost", "filter": dict(e.get("card") or {}),
                                 "until": e.get("until", "phase"), "source": ctx.source})
        g.log(f"{ctx.player}'s next matching card costs its printed cost less ({g.name(ctx.source)})")
        return True
    n = int(arg) * (_reduce_count(g, e["for_each"], ctx) if "for_each" in e else 1)  # issue 24: Paper Money
    who = "any" if e.get("player") == "any" else ctx.player  # issue 24: Tobho Mott's Armory
    g.state.reducers.append({"player": who, "amount": -n if e.get("raise") else n,
                             "filter": dict(e.get("card") or {}), "until": e.get("until", "phase"),
                             "source": ctx.source, **({"penalty": True} if e.get("penalty") else {})})
    g.log(f"{'the' if who == 'any' else ctx.player + chr(39) + 's'} next matching card costs {n} "
          f"{'more' if e.get('raise') else 'less'} ({g.name(ctx.source)})")
    return True


@effect("set_destination", card_selector(), "changes where a moribund card will go, without removing it again "
        "(MOR-03: Unorthodox Priest). A \"goes to X instead\" card is a passive on `killed`/`discarded` of itself "
        "with this effect (Aeron Damphair) — see the note below",
        keys={"to": Words(*DESTINATIONS)},
        phrase=lambda v, e, r: r.set_destination(v, e.get("to", "discard")))
def _set_destination(g, e, arg, ctx):
    done = False
    for cid in select(g, arg, ctx):  # MOR-03: changes where a moribund card goes, no removal
        c = g.card(cid)
        if c.moribund is not None and e.get("to") in DESTINATIONS:
            c.moribund = e["to"]
            g.log(f"{g.name(cid)} will go to its owner's {e['to'].replace('_', ' ')} instead ({g.name(ctx.source)})")
            done = True
    return done


@effect("enable", Int(minimum=1), "a delayed effect: this card's ability N (marked `granted: true`) becomes "
        "usable by you until then, wherever the card is (EFF-04; Spinning Slash's \"if you win the challenge, ...\")", keys={"until": UNTIL},
        phrase=lambda v, e, r: "enable this card's \u201conce enabled\u201d ability " + r.until(e.get("until")))
def _enable(g, e, arg, ctx):
    entry = {"card": ctx.source, "ability": int(arg), "player": ctx.player, "until": e.get("until", "phase")}
    cards = [t for t in ctx.targets if isinstance(t, int)]
    if cards:  # issue 24: a granted passive without a choose of its own acts on them ("it": Sea God's Grotto)
        entry["targets"] = cards
    g.state.granted.append(entry)
    return True


@effect("script", Words(form="NAME", source=lambda: sorted(scripted.SCRIPTS)),
        "the escape hatch: a Python function in `engine/scripted.py`, each with its own test",
        phrase=lambda v, e, r: "carry out this card's own rule")
def _script(g, e, arg, ctx):
    return scripted.run(g, str(arg), ctx)


EFFECTS = REGISTRY["effect"]


def execute(g: Game, effects: tuple, ctx: Ctx) -> bool:
    """Carry out effects in order; True if every one resolved successfully (for "then", COS-17)."""
    ok = True
    for e in effects:
        ok = execute_one(g, e, ctx) and ok
    g.discard_illegal_attachments()  # ATT-02: at once, not at step 6
    return ok


def effect_word(e: Any):
    """The registry entry of one effect entry, or None."""
    if isinstance(e, str):
        return EFFECTS.get(e)
    return next((EFFECTS[k] for k in e if k in EFFECTS), None)


def execute_one(g: Game, e: Any, ctx: Ctx) -> bool:
    if isinstance(e, str):
        return EFFECTS[e].impl(g, {}, None, ctx)
    name = next(k for k in e if k in EFFECTS)
    return EFFECTS[name].impl(g, e, e[name], ctx)


def removes(e: Any) -> bool:
    return isinstance(e, dict) and any(k in e for k in REMOVAL_WORD)


def conflicting_removals(g: Game, effects: tuple, ctx: Ctx) -> dict[int, set[str]]:
    """Cards that one resolution would remove in more than one way at the same moment (MOR-06)."""
    found: dict[int, set[str]] = {}
    saved = set(ctx.event.data.get("saved", [])) if ctx.event is not None else set()
    for e in effects:
        if not isinstance(e, dict):
            continue
        for name, word in REMOVAL_WORD.items():
            if name in e:
                for cid in select(g, e[name], ctx):
                    c = g.card(cid)
                    if c.zone in ("in_play", "attached") and c.moribund is None and cid not in saved:
                        found.setdefault(cid, set()).add(word)
    return {cid: ways for cid, ways in found.items() if len(ways) > 1}


def victims_of(g: Game, ab, ctx: Ctx) -> tuple[list[int], str]:
    """The cards an ability would kill or discard, known at initiation so they can be saved."""
    out: list[int] = []
    removal = "kill"
    for e in ab.effect:
        if isinstance(e, dict) and ("kill" in e or "discard" in e):
            removal = "kill" if "kill" in e else "discard"
            out += [c for c in select(g, e.get("kill", e.get("discard")), ctx)
                    if g.card(c).zone in ("in_play", "attached") and g.card(c).moribund is None]
    return out, removal


# --- core-b additions ---
# Effects that ask: ``prepare`` (a generator run in step 1, after the targets are chosen: choices that
# are part of initiating, COS-07) or ``asks`` (the implementation itself is a generator that yields
# decisions while the effect resolves: a search, naming a card, a new plot). ``execute_flow`` runs an
# effect list, yielding those decisions; ``prepare_flow`` runs the prepare steps.

from engine.abilities.conditions import condition_holds  # noqa: E402
from engine.abilities.registry import Mapping  # noqa: E402
from engine.decisions import Decision, Refused, selection_checker  # noqa: E402

EVERY_PLAYER = Words("you", "opponent", "each_opponent", "target", "each_player", "you_and_target",
                     "most_cards_in_hand")
AMOUNT = Either(Int(minimum=None), Words("x", "minus_x"), form="N | x | minus_x")


def _amount(value, ctx: Ctx) -> int:
    if value == "x":
        return int(ctx.x)
    if value == "minus_x":
        return -int(ctx.x)
    return int(value)


def _choice(g: Game, player: str, prompt: str, choices: list, lo: int, hi: int, what: str) -> Decision:
    """A ``choose`` decision (its checker only reads: distinct, eligible, between lo and hi)."""
    d = Decision("choose", player, prompt, choices=list(choices), min_count=lo, max_count=hi,
                 checker=selection_checker(g, list(choices), lo, hi, what))
    if lo == hi == len(choices):
        d.options = [{"choose": list(choices)}]
    return d


@effect("plot_claim", AMOUNT, "changes the claim value of the players' revealed plots by N (x: the X paid; "
        "minus_x: lowered by X), floor 0, until the end of the challenge (default); `trait: TRAIT`: only "
        "the revealed plots with that trait (\"all Battle plots\")",
        keys={"player": EVERY_PLAYER, "house": Words(*("stark", "lannister", "baratheon", "greyjoy",
                                                     "targaryen", "martell")), "until": UNTIL,
              "trait": Text("TRAIT")},
        phrase=lambda v, e, r: r.plot_claim(v, e))
def _plot_claim(g, e, arg, ctx):
    n = _amount(arg, ctx)
    done = False
    for who in select(g, e.get("player", "opponent"), ctx):
        p = g.player(who)
        if p.revealed_plot is None or e.get("house") and p.house != e["house"]:
            continue
        if e.get("trait") and not g.has_trait(p.revealed_plot, e["trait"]):  # issue 24: "all Battle plots"
            continue
        g.state.effects.append(Effect(p.revealed_plot, "claim", n, e.get("until", "challenge"), ctx.source))
        g.log(f"{g.name(ctx.source)}: the claim of {who}'s {g.name(p.revealed_plot)} {n:+d}")
        done = True
    return done


@effect("forbid_challenges", Words(*("military", "intrigue", "power")), "you and the chosen player cannot "
        "declare challenges of this type against one another until the end of the round (default)",
        keys={"player": Words("target", "opponent"), "until": UNTIL},
        phrase=lambda v, e, r: (f"you and {r.cards(e.get('player', 'target'))} cannot initiate {v} "
                                "challenges against each other " + r.until(e.get("until"), "round")))
def _forbid_challenges(g, e, arg, ctx):
    others = [w for w in select(g, e.get("player", "target"), ctx) if isinstance(w, str) and w != ctx.player]
    for other in others:
        g.state.effects.append(Effect(ctx.source, "forbid_challenge", {"type": arg, "players": [ctx.player, other]},
                                      e.get("until", "round"), ctx.source))
        g.log(f"{g.name(ctx.source)}: {ctx.player} and {other} cannot declare {arg} challenges against one "
              f"another")
    return bool(others)


def _prepare_chooses(g: Game, e: dict, arg: Any, ctx: Ctx):
    """Each chooser picks, in turn from you clockwise; the filter is read as the chooser's own (``you``
    is the chooser) or, with ``among: each_player``, as each player's in turn."""
    f = dict(arg)
    ctx.chosen, ctx.unchosen = [], []
    for chooser in select(g, e.get("by", "you"), ctx):
        if "unless" in e and condition_holds(g, dict(e["unless"]), Ctx(ctx.source, chooser, ctx.ability)):
            continue  # issue 24: this player is not one of those who choose (Battle of Oxcross)
        owners = [chooser] if e.get("among", "own") == "own" else \
            [n for n in g.state.clockwise_from(ctx.player) if not g.player(n).eliminated]
        for owner in owners:
            sub = Ctx(ctx.source, owner, ctx.ability, targets=ctx.targets)  # `target`: "another than the chosen one"
            cands = [c for c in candidates(g, f, sub) if c not in ctx.chosen and c not in ctx.unchosen
                     and not immune_to(g, c, ctx.source, _kind(ctx))]
            if "keep" in e:
                lo = hi = max(0, len(cands) - int(e["keep"]))
            else:
                want = int(ctx.x) if e.get("count") == "x" else int(e.get("count", 1))  # issue 24: X paid
                if "count_each" in e:  # issue 24: one for each matching card (Dark and Full of Terrors)
                    want = len(candidates(g, dict(e["count_each"]), ctx))
                hi = min(want, len(cands))
                lo = 0 if e.get("up_to") else hi
            picks: list = []
            if hi > 0:
                whose = "" if owner == chooser else f" of {owner}'s"
                d = _choice(g, chooser, f"{g.name(ctx.source)}: choose {lo if lo == hi else f'up to {hi}'}"
                            f"{whose} card{'s' if hi != 1 else ''}", cands, lo, hi, "a card the ability offers")
                answer = yield from g.ask(d)
                picks = list(answer.get("choose") or [])
            g.log(f"{chooser} chooses {', '.join(g.name(c) for c in picks) or 'nothing'} ({g.name(ctx.source)})")
            ctx.chosen += picks
            ctx.unchosen += [c for c in cands if c not in picks]


@effect("chooses", FilterSchema({"from": FROM}), "in step 1, the players `by` names (default you; `gate_player`: the "
        "player of the gate) each choose `count` (up to, with `up_to: true`) of the matching cards, or all but `keep`; the filter is read as the "
        "chooser's (`controller: you` = the chooser's own; `among: each_player`: one choice among each player's "
        "cards). Later effects act on `chosen` and `unchosen`",
        keys={"by": Words(*EVERY_PLAYER.words, "gate_player"), "count": Int(minimum=1), "up_to": TrueOnly(),
              "keep": Int(), "among": Words("own", "each_player")}, prepare=_prepare_chooses,
        phrase=lambda v, e, r: r.chooses(v, e))
def _chooses(g, e, arg, ctx):
    return bool(ctx.chosen) or bool(e.get("up_to")) or "keep" in e


def _search_pick(g: Game, e: dict, arg: Any, ctx: Ctx):
    f = dict(arg) if isinstance(arg, dict) else {}
    found_any = False
    for who in select(g, e.get("player", "you"), ctx):
        sub = Ctx(ctx.source, who, ctx.ability)
        found = [c for c in g.player(who).deck if matches(g, c, f, sub)]
        to_play = e.get("to") == "play"
        if to_play:
            found = [c for c in found if not unique_problem(g, who, c)]  # C-08
        if e.get("to") == "agenda":  # issue 24: Recover the Heir
            found = [c for c in found if _agenda_problem(g, who, c) is None]
        picks = []
        n = 1 if "count" not in e else g.strength(ctx.source) if e["count"] == "self_strength" \
            else len(found) if e["count"] == "any" else int(e["count"])
        if found and n > 0:
            hi = min(n, len(found))
            lo = 0 if e.get("up_to") or e.get("count") == "any" else hi
            d = _choice(g, who, f"{g.name(ctx.source)}: choose the card your search finds" if "count" not in e else
                        f"{g.name(ctx.source)}: choose the cards your search finds ({lo} to {hi})", found, lo, hi,
                        "a matching card of your deck")
            if "cost_total_max" in e:  # issue 24 (Defenders of the Realm): "a combined cost of N or less"
                d.checker = _cost_total_checker(g, d.checker, int(e["cost_total_max"]))
            if e.get("same_title"):  # issue 24 (From the Ashes of Winterfell): "copies of one card"
                d.checker = _same_title_checker(g, d.checker)
            answer = yield from g.ask(d)
            picks = list(answer["choose"])
        for pick in picks:
            found_any = True
            if e.get("to") == "agenda":
                g.place_as_agenda(pick)
                g.log(f"{who} searches the deck and places {g.name(pick)} on the House card as the agenda "
                      f"({g.name(ctx.source)})")
            elif to_play:
                g.put_in_play(pick, who)
                g.log(f"{who} searches the deck and puts {g.name(pick)} into play ({g.name(ctx.source)})")
                if g.state.window is not None:
                    g.state.window.gates.append({"event": "entered_play", "card": pick, "player": who,
                                                 "from": "deck"})
            else:
                g.move_to_pile(pick, "hand")
                g.log(f"{who} searches the deck and reveals {g.name(pick)} ({g.name(ctx.source)})")
        if not picks:
            g.log(f"{who} searches the deck and finds nothing ({g.name(ctx.source)})")
        g.shuffle_deck(who)  # ZON-16
    return found_any


effect("search_pick", FilterSchema(), "each player of `player` (default you) searches his deck, chooses a "
       "matching card, reveals it and puts it into his hand (or with `to: play` into play, C-08), then shuffles "
       "(ZON-16)", keys={"player": EVERY_PLAYER, "to": Words("hand", "play")}, asks=True,
        phrase=lambda v, e, r: r.search_pick(v, e))(_search_pick)


def _nearest_top(g: Game, cards: list) -> list:
    """The one card of ``cards`` nearest the top of its pile (a deck's top is its first card; a discard or
    dead pile's, its last), or none."""
    def height(c):
        pile = g.player(g.card(c).owner).pile(g.card(c).zone) if g.card(c).zone in PILE_ZONES else []
        i = pile.index(c) if c in pile else -1
        return -i if g.card(c).zone == "deck" else i
    return [max(cards, key=height)] if cards else []


def _attach(g: Game, e: dict, arg: Any, ctx: Ctx):
    cards = [c for c in select(g, arg, ctx)]
    if e.get("top_only"):  # issue 24: "the attachment closest to the top of your discard pile" (Ruined Tomb)
        cards = _nearest_top(g, cards)
    to = e.get("to", "target")
    done = False
    for cid in cards:
        if isinstance(to, dict):
            hosts = [h for h in candidates(g, dict(to), ctx) if h != cid and not g.attach_problem(cid, h, ctx.player)]
            if not hosts:
                g.log(f"{g.name(cid)} cannot be attached: it is discarded ({g.name(ctx.source)})")
                if g.card(cid).zone == "played":
                    continue  # it goes to the discard pile with the event
                if g.card(cid).zone in ("in_play", "attached"):
                    g.remove(cid, "discard")
                continue
            d = _choice(g, ctx.player, f"{g.name(ctx.source)}: choose where {g.name(cid)} is attached", hosts, 1, 1,
                        "a card it can be attached to")
            answer = yield from g.ask(d)
            host = answer["choose"][0]
        else:
            found = [h for h in select(g, to, ctx) if h != cid]
            if not found or g.attach_problem(cid, found[0], ctx.player):
                continue
            host = found[0]
        came_from = g.card(cid).zone
        g.attach(cid, host, ctx.player)
        g.card(cid).moribund = None
        g.log(f"{ctx.player} attaches {g.name(cid)} to {g.name(host)} ({g.name(ctx.source)})")
        if came_from in ("hand", "deck", "discard", "dead") and g.state.window is not None:
            # issue 24 (Rusted Sword): attached from a pile, it enters play (Flayer of Men answers it)
            g.state.window.gates.append({"event": "entered_play", "card": cid, "player": ctx.player,
                                         "from": came_from})
        done = True
    return done


effect("attach", card_selector(), "attaches the cards (this card, or a chosen card from a pile or in play) to "
       "`to`: a selector (target; `self`: this card, \"move it onto this character, if possible\") or a FILTER "
       "whose card the controller chooses as the effect resolves; an illegal host is never offered (ATT-01), and "
       "a card that no host can take is discarded (given a selector, it stays where it is); `top_only: true`: only "
       "the one of the cards nearest the top of its pile (\"the attachment closest to the top of your discard pile\")",
       keys={"to": Either(Words("target", "host", "trigger", "self"), FilterSchema(),
                          form="target | host | trigger | self | FILTER"), "top_only": TrueOnly()},
       asks=True,
        phrase=lambda v, e, r: ("attach " + (("the topmost " + r.filter(v["all"], article_=""))
                                             if e.get("top_only") and isinstance(v, dict) and "all" in v
                                             else r.cards(v)) + " to "
                                + (r.cards(e["to"]) if isinstance(e.get("to"), str) else r.filter(e.get("to") or {}))))(_attach)


@effect("take_to_hand", card_selector(), "puts the cards from a pile (dead, discard) into their owner's hand",
        phrase=lambda v, e, r: "put " + r.cards(v) + " into " + r.owners(v) + " hand")
def _take_to_hand(g, e, arg, ctx):
    done = False
    for cid in select(g, arg, ctx):
        if g.card(cid).zone in ("dead", "discard", "deck"):
            g.move_to_pile(cid, "hand")
            g.log(f"{g.name(cid)} returns to {g.card(cid).owner}'s hand ({g.name(ctx.source)})")
            done = True
    return done


@effect("discard_cards", card_selector(), "discards the cards from their owner's hand (chosen with `chooses` "
        "from: hand)",
        phrase=lambda v, e, r: "discard " + r.cards(v) + " from hand")
def _discard_cards(g, e, arg, ctx):
    picks = [c for c in select(g, arg, ctx) if g.card(c).zone == "hand"]
    for cid in picks:
        g.move_to_pile(cid, "discard")
    if picks:
        g.log(f"{', '.join(g.name(c) for c in picks)} discarded from hand ({g.name(ctx.source)})")
    return bool(picks)


@effect("reveal_hand", EVERY_PLAYER, "each player named here reveals his hand to every player (the game log lists it)",
        phrase=lambda v, e, r: r.subject(v, "reveal") + f" {r.their(v)} hand")
def _reveal_hand(g, e, arg, ctx):
    for who in select(g, arg, ctx):
        if isinstance(who, str):
            hand = g.player(who).hand
            g.log(f"{who} reveals {', '.join(g.name(c) for c in hand) or 'an empty hand'} ({g.name(ctx.source)})")
            _shown(g, list(hand), who)
    return True


def _name_and_discard(g: Game, e: dict, arg: Any, ctx: Ctx):
    titles = sorted({d.name for d in g.pool.values() if d.type not in ("plot", "agenda", "house")})
    d = _choice(g, ctx.player, f"{g.name(ctx.source)}: name a card", titles, 1, 1, "a card title")
    by_title = d.checker
    # a card (its id) names its title too
    d.checker = lambda a: by_title({"choose": [g.name(c) if isinstance(c, int) and c in g.state.cards else c
                                               for c in a.get("choose") or []]} if isinstance(a.get("choose"), list) else a)
    answer = yield from g.ask(d)
    title = answer["choose"][0]
    g.log(f"{ctx.player} names {title} ({g.name(ctx.source)})")
    for who in select(g, arg, ctx):
        hand = g.player(who).hand
        g.log(f"{who} reveals {', '.join(g.name(c) for c in hand) or 'an empty hand'}")
        _shown(g, list(hand), who)
        hit = [c for c in hand if g.name(c) == title]
        for cid in hit:
            g.move_to_pile(cid, "discard")
        g.log(f"{who} discards {len(hit)} card{'s' if len(hit) != 1 else ''} named {title}")
    return True


effect("name_and_discard", EVERY_PLAYER, "you name a card title; each player named here reveals his hand and "
       "discards every card with that title", asks=True,
        phrase=lambda v, e, r: "name a card; " + r.subject(v, "reveal") + f" {r.their(v)} hand, and each card in it "
               "with that title is discarded")(_name_and_discard)


def _new_plot(g: Game, e: dict, arg: Any, ctx: Ctx):
    done = False
    for who in select(g, arg, ctx):
        p = g.player(who)
        piles = g.plot_piles(who)  # his own, or those switched with him this round (Varys)
        if not piles.plot_deck and piles.used_plots:
            for cid in piles.used_plots:  # PLT-04
                g.card(cid).zone = "plot_deck"
            piles.plot_deck, piles.used_plots = piles.plot_deck + piles.used_plots, []
        if not piles.plot_deck:
            continue
        d = _choice(g, who, f"{g.name(ctx.source)}: choose a new plot to reveal", list(piles.plot_deck), 1, 1,
                    "a plot of your plot deck")
        answer = yield from g.ask(d)
        cid = answer["choose"][0]
        if p.revealed_plot is not None:
            g.move_to_pile(p.revealed_plot, "used_plots")
        g._detach_from_location(cid)
        g.card(cid).zone = "revealed_plot"
        g.card(cid).controller = who  # a switched plot deck's plot is revealed as his own
        p.revealed_plot = cid
        g.log(f"{who} reveals a new plot: {g.name(cid)} ({g.name(ctx.source)})")
        if g.state.window is not None:
            g.state.window.gates.append({"event": "plot_revealed", "card": cid, "player": who})
        done = True
    return done


effect("new_plot", EVERY_PLAYER, "the player chooses a plot of his plot deck and reveals it as his new plot (the "
       "old one goes to his used pile; its \"when revealed\" triggers)", asks=True,
        phrase=lambda v, e, r: r.subject(v, "reveal") + f" a new plot from {r.their(v)} plot deck")(_new_plot)


class _Condition(Mapping):
    """A condition mapping: the condition words of the registry, read when the data is checked."""

    def __init__(self):
        super().__init__({}, form="CONDITION", what="a condition")

    def check(self, value, where):
        self.keys = {k: w.value for k, w in REGISTRY["condition"].items()}
        super().check(value, where)


@effect("check", _Condition(), "resolves only if the condition holds now (so `then` follows "
        "only then: \"if ..., claim 1 power\")",
        phrase=lambda v, e, r: "if " + r.cond(v) + ",")
def _check(g, e, arg, ctx):
    return condition_holds(g, dict(arg), ctx)


def prepare_flow(g: Game, effects: tuple, ctx: Ctx):
    """Step 1: the choices some effects make while the ability is initiated."""
    for e in effects:
        if isinstance(e, dict):
            name = next((k for k in e if k in EFFECTS), None)
            prep = EFFECTS[name].extra.get("prepare") if name else None
            if prep is not None:
                yield from prep(g, e, e[name], ctx)


def execute_flow(g: Game, effects: tuple, ctx: Ctx):
    """``execute``, yielding the decisions of effects that ask while they resolve. True if every
    effect resolved (COS-17)."""
    ok = True
    for e in effects:
        ok = (yield from _flow_one(g, e, ctx)) and ok
    g.discard_illegal_attachments()  # ATT-02: at once
    return ok


def _flow_one(g: Game, e, ctx: Ctx):
    """One effect. Three ways to ask: ``ask`` (a word that names its choices: the controller picks,
    then the word resolves with ``ctx.answers``), ``sequence`` (``one_of``: the chosen branch runs),
    ``asks`` (the implementation is itself a generator of decisions)."""
    name = e if isinstance(e, str) else next(k for k in e if k in EFFECTS)
    word = EFFECTS[name]
    ask = word.extra.get("ask")
    spec = ask(g, e, ctx) if ask is not None else None
    if spec is not None:
        choices = list(spec["choices"])
        count = min(spec.get("count", 1), len(choices))
        answer = yield from g.ask(_choice(g, ctx.player, spec["prompt"], choices, count, count,
                                          "one of the choices"))
        ctx.answers[id(e)] = list(answer["choose"])
    if word.extra.get("sequence"):
        labels = ctx.answers.get(id(e)) or []
        if not labels:
            return False
        g.log(f"{ctx.player} chooses {labels[0]} ({g.name(ctx.source)})")
        for item in e[name][labels[0]]:
            yield from prepare_flow(g, (item,), ctx)  # issue 24: a branch's `chooses` is made as it runs
            if not (yield from _flow_one(g, item, ctx)):
                return False
        return True
    if word.extra.get("asks"):
        return (yield from word.impl(g, e, e[name], ctx))
    return execute_one(g, e, ctx)


# --- core-c additions ---
# Piles shuffled into decks, a STR that does not count, keywords taken from a character, joining a
# challenge, not standing in the standing phase, a draw the player may refuse, the top card revealed
# into the hand, a kill replaced by standing this card, a gold toll on a challenge type.

PILES = Words("discard", "dead")


@effect("shuffle_into_deck", PILES, "each player of `player` (default each_player) shuffles that pile (discard "
        "or dead) into his deck (ZON-16); a moribund card is not in the pile yet (MOR-04)",
        keys={"player": EVERY_PLAYER},
        phrase=lambda v, e, r: r.subject(e.get("player", "each_player"), "shuffle") + (
            " {0} {1} into {0} deck".format(r.their(e.get("player", "each_player")), r.PILES.get(v, v))))
def _shuffle_into_deck(g, e, arg, ctx):
    done = False
    for who in select(g, e.get("player", "each_player"), ctx):
        p = g.player(who)
        pile = p.pile(arg)
        moved = list(pile)
        for cid in moved:
            g.move_to_pile(cid, "deck", top=False)
        g.shuffle_deck(who)
        g.log(f"{who} shuffles {len(moved)} card{'s' if len(moved) != 1 else ''} of the {arg} pile into the "
              f"deck ({g.name(ctx.source)})")
        done = True
    return done


@effect("not_counted", card_selector(), "until then (default the challenge), the cards' STR does not count "
        "towards their side's total in the challenge (CHL-12)", keys={"until": UNTIL},
        phrase=lambda v, e, r: (("have the STR of " + r.cards(v) + " not count" if r.imperative  # after a cost
                                 else r.cap(r.poss(v)) + " STR does not count")
                                + " toward the challenge " + r.until(e.get("until"), "challenge")))
def _not_counted(g, e, arg, ctx):
    done = False
    for cid in select(g, arg, ctx):
        if immune_to(g, cid, ctx.source, _kind(ctx)) and cid not in ctx.targets:
            continue
        g.state.effects.append(Effect(cid, "uncounted", True, e.get("until", "challenge"), ctx.source))
        g.log(f"{g.name(ctx.source)}: the STR of {g.name(cid)} does not count in the challenge")
        done = True
    return done


@effect("take_keywords", card_selector(), "the cards lose those of the listed keywords they have, and this card "
        "gains each keyword lost that way, until the end of the phase (default)",
        keys={"keywords": ListOf(Keyword()), "until": UNTIL},
        phrase=lambda v, e, r: (r.subject(v, "lose") + " " + r.join(e.get("keywords") or [], "and")
                                + ", and this card gains each keyword lost this way " + r.until(e.get("until"))))
def _take_keywords(g, e, arg, ctx):
    from cards.schema import normalise_keyword
    until = e.get("until", "phase")
    taken: list[str] = []
    for cid in select(g, arg, ctx):
        if immune_to(g, cid, ctx.source, _kind(ctx)) and cid not in ctx.targets:
            continue
        for kw in e.get("keywords") or []:
            kw = normalise_keyword(kw)
            if kw and g.has_keyword(cid, kw):
                g.state.effects.append(Effect(cid, "keyword-", kw, until, ctx.source))
                taken.append(kw)
                g.log(f"{g.name(ctx.source)}: {g.name(cid)} loses {kw}")
    for kw in dict.fromkeys(taken):
        if g.card(ctx.source).zone in ("in_play", "attached"):
            g.state.effects.append(Effect(ctx.source, "keyword+", kw, until, ctx.source))
            g.log(f"{g.name(ctx.source)} gains {kw}")
    return bool(taken)


@effect("join_challenge", card_selector(), "the cards participate in the current challenge on their controller's "
        "side (attacking if he is the attacker, defending if he is the defender); they are not declared and "
        "do not kneel for it",
        phrase=lambda v, e, r: r.subject(v, "join") + " the challenge on its controller's side")
def _join_challenge(g, e, arg, ctx):
    ch = g.state.challenge
    if ch is None or ch.ended or ch.resolved:
        return False
    done = False
    for cid in select(g, arg, ctx):
        c = g.card(cid)
        if c.zone != "in_play" or cid in ch.attackers + ch.defenders or g.cannot(cid, f"participate_{ch.type}"):
            continue
        side = ch.attackers if c.controller == ch.attacker else ch.defenders if c.controller == ch.defender \
            else None
        if side is None:
            continue
        side.append(cid)
        g.log(f"{g.name(cid)} joins the {ch.type} challenge as "
              f"{'an attacker' if side is ch.attackers else 'a defender'} ({g.name(ctx.source)})")
        done = True
    return done


@effect("skip_standing", card_selector(), "the cards do not stand in the standing phase this round (DOM-03); "
        "other effects may still stand them",
        phrase=lambda v, e, r: ((f"have {r.cards(v)} not" if r.imperative else r.subject(v, "do") + " not")
                                + " stand during the standing phase this round"))
def _skip_standing(g, e, arg, ctx):
    done = False
    for cid in select(g, arg, ctx):
        if immune_to(g, cid, ctx.source, _kind(ctx)) and cid not in ctx.targets:
            continue
        g.state.effects.append(Effect(cid, "no_standing", True, "round", ctx.source))
        g.log(f"{g.name(cid)} will not stand in the standing phase this round ({g.name(ctx.source)})")
        done = True
    return done


def _may_draw(g: Game, e: dict, arg: Any, ctx: Ctx):
    done = False
    for who in select(g, e.get("player", "you"), ctx):
        if not g.player(who).deck:
            continue
        d = _choice(g, who, f"{g.name(ctx.source)}: you may draw {int(arg)} card{'s' if int(arg) != 1 else ''}",
                    ["draw", "pass"], 1, 1, "draw or pass")
        answer = yield from g.ask(d)
        if answer["choose"][0] == "draw":
            got = g.draw(who, int(arg), by_effect=True)
            g.log(f"{who} draws {got} card{'s' if got != 1 else ''} ({g.name(ctx.source)})")
            done = done or got > 0
        else:
            g.log(f"{who} chooses not to draw ({g.name(ctx.source)})")
    return done


effect("may_draw", Int(minimum=1), "each player of `player` (default you; `gate_player`: the player of the gate) "
       "may draw N: that player decides (`choose: [draw]` or `[pass]`); draws count against the cap (DRW-03..05)",
       keys={"player": Words(*EVERY_PLAYER.words, "gate_player")}, asks=True,
        phrase=lambda v, e, r: r.cards(e.get("player", "you")) + " may draw " + r.count(v, "card"))(_may_draw)


def _reveal_top_phrase(v, e, r) -> str:
    if int(e.get("count", 1)) > 1:  # issue 24: Desert Hermit, A Test of Knowledge
        return (f"reveal the top {e['count']} cards of your deck, put each "
                + (r.filter(e["card"], article_="") if e.get("card") else "card")
                + " among them into your hand" + {"discard": " and discard the others",
                                                  "deck_bottom": " and put the others on the bottom of your deck"}.get(
                    e.get("otherwise"), ""))
    if v == "target":  # issue 24: Cape Kraken
        text = "reveal the top card of that player's deck and put it into its owner's hand"
    else:
        text = "reveal the top card of your deck and put it into your hand"
    text += f" if it is {r.filter(e['card'])}" if e.get("card") else ""
    return text + {"discard": ", else discard it", "dead": ", else place it in its owner's dead pile",
                   "deck_bottom": ", else put it on the bottom of your deck"}.get(
        e.get("otherwise"), "")


@effect("reveal_top_to_hand", Words("you", "target"), "reveals the top card of your deck (`target`: of the chosen "
        "player's) and puts it into its owner's hand (not a draw: the draw cap does not count it); with `card: "
        "FILTER` only a matching card goes to the hand, and with `otherwise: discard | dead` any other card goes "
        "to its owner's discard (dead) pile (resolved only when the card goes to the hand); `count: N` (your "
        "deck): the top N cards, each matching one to the hand, the others discarded (`otherwise: discard`) or "
        "left on top in their order (resolved when one goes to the hand; Desert Hermit); `otherwise: deck_bottom`: "
        "the others go to the bottom of the deck (A Test of Knowledge)",
        keys={"card": FilterSchema(), "otherwise": Words("discard", "dead", "deck_bottom"),
              "count": Int(minimum=1)},
        phrase=_reveal_top_phrase)
def _reveal_top_to_hand(g, e, arg, ctx):
    who = ctx.player if arg != "target" else next((t for t in ctx.targets if isinstance(t, str)), None)
    deck = g.player(who).deck if who else []
    if not deck:
        return False
    if int(e.get("count", 1)) > 1:  # issue 24 (Desert Hermit, A Test of Knowledge): the top N cards
        shown = list(deck[:int(e["count"])])
        g.log(f"{ctx.player} reveals {', '.join(g.name(c) for c in shown)} from the top of the deck "
              f"({g.name(ctx.source)})")
        _shown(g, shown, ctx.player)
        taken = [c for c in shown if not e.get("card") or matches(g, c, dict(e["card"]), ctx)]
        for cid in shown:
            if cid in taken:
                g.move_to_pile(cid, "hand")
                g.log(f"{ctx.player} puts {g.name(cid)} into hand ({g.name(ctx.source)})")
            elif e.get("otherwise") == "discard":
                g.move_to_pile(cid, "discard")
                g.log(f"{g.name(cid)} is discarded ({g.name(ctx.source)})")
            elif e.get("otherwise") == "deck_bottom":
                g.move_to_pile(cid, "deck", top=False)
        return bool(taken)
    cid = deck[0]
    _shown(g, [cid], ctx.player)
    if e.get("card") and not matches(g, cid, dict(e["card"]), ctx):  # issue 24: Winterfell Tutor
        g.log(f"{ctx.player} reveals {g.name(cid)} from the top of {'the' if who == ctx.player else who + chr(39) + 's'}"
              f" deck ({g.name(ctx.source)})")
        if e.get("otherwise") == "discard":
            g.move_to_pile(cid, "discard")
            g.log(f"{g.name(cid)} is discarded ({g.name(ctx.source)})")
        elif e.get("otherwise") == "dead":  # issue 24: Cape Kraken
            g.move_to_pile(cid, "dead")
            g.log(f"{g.name(cid)} is placed in {who}'s dead pile ({g.name(ctx.source)})")
            _gate(g, "dead", cid, who)
        elif e.get("otherwise") == "deck_bottom":
            g.move_to_pile(cid, "deck", top=False)
        return False
    g.move_to_pile(cid, "hand")
    g.log(f"{ctx.player} reveals {g.name(cid)} from the top of {'the' if who == ctx.player else who + chr(39) + 's'}"
          f" deck and puts it into {'hand' if who == ctx.player else who + chr(39) + 's hand'} ({g.name(ctx.source)})")
    return True


@effect("stand_instead_of_kill", card_selector(), "until then (default the phase), each time one of the cards "
        "would be killed while this card is kneeling in play, this card stands instead and the card is not "
        "killed (a replacement effect, MOR-10)", keys={"until": UNTIL},
        phrase=lambda v, e, r: (r.until(e.get("until")) + ", each time " + r.cards(v)
                                + " would be killed while this card is kneeling, stand this card instead"))
def _stand_instead_of_kill(g, e, arg, ctx):
    done = False
    for cid in select(g, arg, ctx):
        if immune_to(g, cid, ctx.source, _kind(ctx)) and cid not in ctx.targets:
            continue
        g.state.effects.append(Effect(cid, "kill_replaced", ctx.source, e.get("until", "phase"), ctx.source))
        g.log(f"{g.name(ctx.source)} guards {g.name(cid)}")
        done = True
    return done


def replaced_kill(g: Game, cid: int) -> int | None:
    """The card that stands instead of ``cid`` being killed (``stand_instead_of_kill``), or None."""
    for eff in g.state.effects:
        if eff.target == cid and eff.stat == "kill_replaced":
            guard = g.card(eff.value)
            if guard.zone == "in_play" and guard.kneeling and guard.moribund is None and not g.cannot(eff.value,
                                                                                                      "stand"):
                return eff.value
    return None


def _toll_ask(g, e, ctx):
    return {"prompt": f"{g.name(ctx.source)}: name a challenge type", "choices": ["military", "intrigue", "power"],
            "count": 1}


@effect("toll", Int(minimum=1), "you name a challenge type as it resolves; until then (default the phase), each "
        "time the player (default target) initiates a challenge of that type he pays you N gold from his pool "
        "(what he has, up to N)", keys={"player": Words("target", "opponent"), "until": UNTIL}, ask=_toll_ask,
        phrase=lambda v, e, r: ("name a challenge type; " + r.until(e.get("until")) + ", each time "
                                + r.subject(e.get("player", "target"), "initiate")
                                + f" a challenge of that type, they give you {v} gold"))
def _toll(g, e, arg, ctx):
    picked = (ctx.answers.get(id(e)) or ["military"])[0]
    payers = [w for w in select(g, e.get("player", "target"), ctx) if isinstance(w, str) and w != ctx.player]
    for who in payers:
        g.state.effects.append(Effect(ctx.source, "toll", {"payer": who, "to": ctx.player, "type": picked,
                                                            "gold": int(arg)}, e.get("until", "phase"), ctx.source))
        g.log(f"{ctx.player} names {picked}: {who} pays {int(arg)} gold for each {picked} challenge he initiates "
              f"({g.name(ctx.source)})")
    return bool(payers)


def pay_challenge_tolls(g: Game, player: str, challenge_type: str) -> None:
    """A player initiating a challenge pays the tolls on its type (``toll``)."""
    for eff in list(g.state.effects):
        v = eff.value if eff.stat == "toll" else None
        if v and v["payer"] == player and v["type"] == challenge_type:
            n = g.spend_gold(player, min(g.spendable_gold(player), int(v["gold"])))  # gold tokens too
            g.player(v["to"]).gold += n
            g.log(f"{player} pays {n} gold to {v['to']} for initiating {article(challenge_type)} challenge "
                  f"({g.name(eff.source)})")


def _reveals(fn, generator: bool):
    """Wraps an effect that reveals cards (a search, a hand, a new plot): when it did, it opens
    ``cards_revealed`` for the ability's controller (Grand Maester Pycelle)."""
    def opened(g, ctx):
        if g.state.window is not None:
            g.state.window.gates.append({"event": "cards_revealed", "card": ctx.source, "player": ctx.player})

    if generator:
        def wrapped(g, e, arg, ctx):
            done = yield from fn(g, e, arg, ctx)
            if done:
                opened(g, ctx)
            return done
    else:
        def wrapped(g, e, arg, ctx):
            done = fn(g, e, arg, ctx)
            if done and e.get("reveal") is not False:  # issue 24: a search that reveals nothing
                opened(g, ctx)
            return done
    return wrapped


for _name in ("search", "search_pick", "name_and_discard", "new_plot"):
    EFFECTS[_name].impl = _reveals(EFFECTS[_name].impl, bool(EFFECTS[_name].extra.get("asks")))


# --- core-d additions ---

def _gate(g: Game, name: str, card: int, player: str) -> None:
    if g.state.window is not None:
        g.state.window.gates.append({"event": "card_revealed", "card": card, "player": player}) if name == "revealed" \
            else g.state.window.gates.append({"event": "placed_in_dead_pile", "card": card, "player": player})
    if name == "revealed":
        _shown(g, [card], player)


def _shown(g: Game, cards: list, player: str) -> None:
    """Issue 24 (Melisandre of the Five Kings Edition): one ``card_shown`` gate for each card a player reveals, by
    any effect (a search, his hand, the top of a deck)."""
    if g.state.window is not None:
        for cid in cards:
            g.state.window.gates.append({"event": "card_shown", "card": cid, "player": player})


@effect("move_gold", Either(Int(minimum=1), Words("all"), form="N | all"), "N (or all) gold goes from the player's "
        "pool (`from`, default opponent: the loser of the challenge, or the gate's other player) to yours",
        keys={"from": Words("opponent", "each_opponent", "target")},
        phrase=lambda v, e, r: (("take all the gold" if v == "all" else f"take {v} gold")
                                + f" from {r.poss(e.get('from', 'opponent'))} gold pool"))
def _move_gold(g, e, arg, ctx):
    moved = 0
    for who in select(g, e.get("from", "opponent"), ctx):
        if not isinstance(who, str) or who == ctx.player:
            continue
        p = g.player(who)
        n = p.gold if arg == "all" else min(int(arg), p.gold)
        p.gold -= n
        g.player(ctx.player).gold += n
        moved += n
        g.log(f"{n} gold moves from {who}'s pool to {ctx.player}'s ({g.name(ctx.source)})")
    return moved > 0


@effect("extra_challenge", Words(*("military", "intrigue", "power")), "you (with `player: each_player`, every "
        "player) may initiate one additional challenge of this type this phase (GEN-01: beyond CHL-01's one of each "
        "type); `double_attackers: true`: only with twice as many attackers as the challenge just won had (Rout of "
        "the Riverlords)", keys={"player": Words("you", "each_player"), "double_attackers": TrueOnly()},
        phrase=lambda v, e, r: ((f"each player may initiate an additional {v} challenge this phase"
                                 if e.get("player") == "each_player" else f"gain an additional {v} challenge this phase")
                                + (", declaring at least twice as many attackers as in the challenge just won"
                                   if e.get("double_attackers") else "")))
def _extra_challenge(g, e, arg, ctx):
    for who in select(g, e.get("player", "you"), ctx):
        holder = g.player(who).house_card  # the source may be leaving play (Edric Storm pays by leaving)
        value = {"player": who, "type": arg}
        ch = g.state.challenge
        if e.get("double_attackers"):  # issue 24: twice the attackers of the challenge just won
            value["min_attackers"] = 2 * len(ch.attackers) if ch is not None else 0
        g.state.effects.append(Effect(ctx.source if holder is None else holder, "extra_challenge",
                                      value, "phase", ctx.source))
        g.log(f"{who} may initiate an additional {arg} challenge this phase"
              + (f" with {value['min_attackers']} attackers or more" if "min_attackers" in value else "")
              + f" ({g.name(ctx.source)})")
    return True


def _name_card(g: Game, e: dict, arg: Any, ctx: Ctx):
    titles = sorted({d.name for d in g.pool.values() if d.type == arg})
    if not titles:
        return False
    d = _choice(g, ctx.player, f"{g.name(ctx.source)}: name {article(arg)} card", titles, 1, 1, f"{article(arg)} title")
    by_title = d.checker
    d.checker = lambda a: by_title({"choose": [g.name(c) if isinstance(c, int) and c in g.state.cards else c
                                               for c in a.get("choose") or []]} if isinstance(a.get("choose"), list) else a)
    answer = yield from g.ask(d)
    title = answer["choose"][0]
    g.state.effects.append(Effect(ctx.source, "named", title, "phase", ctx.source))
    g.log(f"{ctx.player} names {title} ({g.name(ctx.source)})")
    return True


effect("name_card", Words("plot", "character", "location", "attachment", "event"), "you name a card title of this "
       "type; until the end of the phase this card's `named: true` filter matches cards with that title",
       asks=True,
        phrase=lambda v, e, r: f"name {r.article(v)}")(_name_card)


def _gain_or_lose_trait(g: Game, e: dict, arg: Any, ctx: Ctx):
    """Issue 24 (Liars and Thieves): for each card, the controller chooses a trait it gains (any trait a card of
    the game's pool has, that it lacks) or one it loses (one it has now), until the end of ``until``."""
    until = e.get("until", "phase")
    known = sorted({t for d in g.pool.values() for t in d.traits})
    done = False
    for cid in select(g, arg, ctx):
        have = g.traits(cid)
        labels = [f"lose {t}" for t in sorted(have)] + [f"gain {t}" for t in known if t not in have]
        if not labels:
            continue
        d = _choice(g, ctx.player, f"{g.name(ctx.source)}: choose a trait {g.name(cid)} gains or loses",
                    labels, 1, 1, "a trait to gain or lose")
        label = (yield from g.ask(d))["choose"][0]
        verb, trait = label.split(" ", 1)
        g.state.effects.append(Effect(cid, "trait+" if verb == "gain" else "trait-", trait, until, ctx.source))
        g.log(f"{ctx.player}: {g.name(cid)} {verb}s the {trait} trait until the end of the {until} "
              f"({g.name(ctx.source)})")
        done = True
    return done


effect("gain_or_lose_trait", card_selector(), "for each of the cards (a card in play, or a plot of a used pile: "
       "Liars and Thieves), the controller chooses as the effect resolves one trait it gains (any trait of a card "
       "in the game, that it lacks) or one it loses (one it has), until the end of `until` (default the phase)",
       keys={"until": UNTIL}, asks=True,
       phrase=lambda v, e, r: (f"{r.cards(v)} gains a trait you name, or loses one it has, "
                               + r.until(e.get("until"))))(_gain_or_lose_trait)


def _when_revealed(g: Game, plot: int) -> list:
    from_card = [ab for ab in g.abilities(plot) if ab.kind == "passive" and (ab.when or {}).get("event") ==
                 "plot_revealed" and (ab.when or {}).get("card") == "self"]
    return [ab for ab in from_card if not any(isinstance(x, dict) and "copy_when_revealed" in x for x in ab.effect)]


def _copy_targets(g: Game, ab, ctx: Ctx) -> list:
    if "player" in ab.choose:
        names = g.opponents(ctx.player) if ab.choose["player"] == "opponent" else g.state.clockwise_from(ctx.player)
        return [n for n in names if not g.player(n).eliminated]
    removes_ = any(removes(x) for x in ab.effect)
    return [t for t in candidates(g, ab.choose, ctx) if not immune_to(g, t, ctx.source, ab.kind)
            and not (removes_ and g.card(t).moribund is not None)]


def _copy_when_revealed(g: Game, e: dict, arg: Any, ctx: Ctx):
    plots = [g.player(n).revealed_plot for n in select(g, arg, ctx) if isinstance(n, str) and n != ctx.player
             and g.player(n).revealed_plot is not None]
    offered = [(p, ab) for p in plots for ab in _when_revealed(g, p)]
    if not offered:
        g.log(f"{g.name(ctx.source)}: no opponent's revealed plot has a \"when revealed\" ability to copy")
        return False
    pick = offered[0]
    if len({p for p, _ in offered}) > 1:
        choices = list(dict.fromkeys(p for p, _ in offered))
        answer = yield from g.ask(_choice(g, ctx.player, f"{g.name(ctx.source)}: choose the plot whose \"when "
                                          f"revealed\" ability you copy", choices, 1, 1, "an opponent's plot"))
        pick = next(x for x in offered if x[0] == answer["choose"][0])
    plot, ab = pick
    g.log(f"{ctx.player} copies the \"when revealed\" ability of {g.name(plot)} ({g.name(ctx.source)})")
    sub = Ctx(ctx.source, ctx.player, ab, gate=ctx.gate, event=ctx.event)
    if not condition_holds(g, ab.condition, sub):
        return False
    if ab.choose is not None:
        legal = _copy_targets(g, ab, sub)
        if not legal:
            return False
        count = min(ab.choose.get("count", 1), len(legal))
        answer = yield from g.ask(_choice(g, ctx.player, f"{g.name(plot)} (copied): choose {count} target"
                                          f"{'s' if count > 1 else ''}", legal, count, count, "a legal target"))
        sub.targets = list(answer["choose"])
    yield from prepare_flow(g, ab.effect, sub)
    ok = yield from execute_flow(g, ab.effect, sub)
    if ok and ab.then:
        yield from prepare_flow(g, ab.then, sub)  # issue 24: a `chooses` of the then, made now
        ok = yield from execute_flow(g, ab.then, sub)
    return ok


effect("copy_when_revealed", Words("opponent", "each_opponent"), "you copy the \"when revealed\" ability of a revealed "
       "plot of that player (of your choice among them): it resolves as this card's, with your choices and targets",
       asks=True,
        phrase=lambda v, e, r: f"copy the \u201cwhen revealed\u201d ability of {r.poss(v)} revealed plot")(_copy_when_revealed)

# search_pick: `to: duplicate` attaches the found card to this card as a duplicate (Rhaegal); both searches
# open `card_revealed` for the card they reveal.
REGISTRY["effect"]["search_pick"].keys["to"] = Words("hand", "play", "duplicate", "agenda")
REGISTRY["effect"]["search_pick"].doc += ("; `to: duplicate`: attached to this card as a duplicate (UNQ-06); `to: "
                                          "agenda`: only a character that may become the player's agenda is found "
                                          "(`place_as_agenda`), and it is placed on his House card as his agenda")
# issue 24 (Khal Drogo, Balon Greyjoy of the Five Kings Edition; Grey Wind): "search your deck for (up to) X cards",
# "for any number of"
REGISTRY["effect"]["search_pick"].keys["count"] = Either(Int(minimum=1), Words("self_strength", "any"),
                                                         form="N | self_strength | any")
REGISTRY["effect"]["search_pick"].keys["up_to"] = TrueOnly()
REGISTRY["effect"]["search_pick"].doc += ("; `count: N | self_strength | any`: N matching cards (as many as there are; "
                                          "`self_strength`: this card's current STR; `any`: any number of them, none "
                                          "included), `up_to: true`: up to N")


def _search_attach(g: Game, e: dict, arg: Any, ctx: Ctx):
    """Issue 24 (Karhold Master at Arms, Scouring the Vaults): ``to: attach``: the card found is attached, if
    possible, to this card (``attach_to: self``) or to a card in play that matches ``attach_to``, which the
    player chooses; only a card that some such host can take is found (ATT-01)."""
    f = dict(arg) if isinstance(arg, dict) else {}
    where = e.get("attach_to", "self")

    def hosts(cid: int) -> list:
        if where == "self":
            cands = [ctx.source] if g.card(ctx.source).zone == "in_play" else []
        else:
            cands = candidates(g, dict(where), ctx)
        return [h for h in cands if h != cid and not g.attach_problem(cid, h, ctx.player)]

    found = [c for c in g.player(ctx.player).deck if matches(g, c, f, ctx) and hosts(c)]
    pick = None
    if found:
        d = _choice(g, ctx.player, f"{g.name(ctx.source)}: choose the attachment your search finds", found, 1, 1,
                    "a matching attachment of your deck")
        pick = (yield from g.ask(d))["choose"][0]
        places = hosts(pick)
        d = _choice(g, ctx.player, f"{g.name(ctx.source)}: choose where {g.name(pick)} is attached", places, 1, 1,
                    "a card it can be attached to")
        host = (yield from g.ask(d))["choose"][0]
        g.attach(pick, host, ctx.player)
        g.log(f"{ctx.player} searches the deck and attaches {g.name(pick)} to {g.name(host)} ({g.name(ctx.source)})")
        _gate(g, "revealed", pick, ctx.player)
        if g.state.window is not None:
            g.state.window.gates.append({"event": "entered_play", "card": pick, "player": ctx.player,
                                         "from": "deck"})
    else:
        g.log(f"{ctx.player} searches the deck and finds nothing to attach ({g.name(ctx.source)})")
    g.shuffle_deck(ctx.player)  # ZON-16
    return pick is not None


REGISTRY["effect"]["search_pick"].keys["to"] = Words("hand", "play", "duplicate", "agenda", "attach")
REGISTRY["effect"]["search_pick"].keys["attach_to"] = Either(Words("self"), FilterSchema(), form="self | FILTER")
REGISTRY["effect"]["search_pick"].doc += ("; `to: attach`: the attachment found is attached, if possible, to this card "
                                          "(`attach_to: self`, the default) or to a card in play that matches "
                                          "`attach_to: FILTER`, of the player's choice; only an attachment some such "
                                          "host can take is found (ATT-01)")


REGISTRY["effect"]["attach"].doc += ("; a card attached from a pile (hand, deck, discard or dead pile) enters play: "
                                     "an `entered_play` gate opens for it (Rusted Sword)")
REGISTRY["effect"]["draw"].keys["reveal"] = TrueOnly()
REGISTRY["effect"]["draw"].doc += ("; `reveal: true`: the top N cards are first revealed to every player, then drawn "
                                   "(the cap may leave some on the deck: Massing at Twilight)")
_draw_phrase = REGISTRY["effect"]["draw"].phrase
REGISTRY["effect"]["draw"].phrase = lambda v, e, r: (
    f"reveal the top {v} cards of your deck, then draw them" if e.get("reveal") and e.get("player", "you") == "you"
    else _draw_phrase(v, e, r))
REGISTRY["effect"]["search_pick"].keys["cost_total_max"] = Int(minimum=0)
REGISTRY["effect"]["search_pick"].doc += ("; `cost_total_max: N`: the cards found have a combined printed cost of N "
                                          "or less (Defenders of the Realm)")


def _cost_total_checker(g: Game, check, most: int):
    def checked(answer: dict) -> dict:
        out = check(answer)
        total = sum(g.defn(c).cost or 0 for c in out["choose"])
        if total > most:
            raise Refused(f"the cards found cost {total} together, more than {most} (COS-14)")
        return out
    return checked


REGISTRY["effect"]["search_pick"].keys["same_title"] = TrueOnly()
REGISTRY["effect"]["search_pick"].doc += ("; `same_title: true`: the cards found all have one title (From the Ashes of "
                                          "Winterfell)")


def _same_title_checker(g: Game, check):
    def checked(answer: dict) -> dict:
        out = check(answer)
        if len({g.name(c) for c in out["choose"]}) > 1:
            raise Refused("the cards found must all have the same title (COS-14)")
        return out
    return checked


def _search_pick_core_d(g: Game, e: dict, arg: Any, ctx: Ctx):
    if e.get("to") == "attach":
        return (yield from _search_attach(g, e, arg, ctx))
    if e.get("to") != "duplicate":
        before = {who: set(g.player(who).hand) for who in select(g, e.get("player", "you"), ctx)}
        ok = yield from _search_pick(g, e, arg, ctx)
        for who, had in before.items():
            for cid in g.player(who).hand:
                if cid not in had:
                    _gate(g, "revealed", cid, who)
        return ok
    f = dict(arg) if isinstance(arg, dict) else {}
    found = [c for c in g.player(ctx.player).deck if matches(g, c, f, ctx) and g.name(c) == g.name(ctx.source)]
    pick = None
    if found and g.card(ctx.source).zone == "in_play":
        d = _choice(g, ctx.player, f"{g.name(ctx.source)}: choose the duplicate your search finds", found, 1, 1,
                    "a copy of this card in your deck")
        answer = yield from g.ask(d)
        pick = answer["choose"][0]
        g.attach(pick, ctx.source, ctx.player, duplicate=True)
        g.log(f"{ctx.player} searches the deck and attaches {g.name(pick)} to {g.name(ctx.source)} as a duplicate")
    else:
        g.log(f"{ctx.player} searches the deck and finds no duplicate ({g.name(ctx.source)})")
    g.shuffle_deck(ctx.player)  # ZON-16
    return pick is not None


REGISTRY["effect"]["search_pick"].impl = _search_pick_core_d
_search_impl = REGISTRY["effect"]["search"].impl


def _search_core_d(g, e, arg, ctx):
    had = set(g.player(ctx.player).hand)
    ok = _search_impl(g, e, arg, ctx)
    for cid in g.player(ctx.player).hand if e.get("reveal") is not False else ():
        if cid not in had:
            _gate(g, "revealed", cid, ctx.player)
    return ok


REGISTRY["effect"]["search"].impl = _search_core_d
REGISTRY["effect"]["enable"].keys["until"] = Words("challenge", "phase", "round", "phase_end")
REGISTRY["effect"]["enable"].doc += "; `until: phase_end`: also through the window that ends this phase (\"at the " \
    "end of the phase\")"
_set_destination_impl = REGISTRY["effect"]["set_destination"].impl


def _set_destination_core_d(g, e, arg, ctx):
    before = {cid: g.card(cid).moribund for cid in select(g, arg, ctx)}
    ok = _set_destination_impl(g, e, arg, ctx)
    for cid, was in before.items():
        if was not in (None, "dead") and g.card(cid).moribund == "dead":
            _gate(g, "dead", cid, g.card(cid).owner)
    return ok


REGISTRY["effect"]["set_destination"].impl = _set_destination_core_d
_modify_impl = REGISTRY["effect"]["modify"].impl


def _modify_core_d(g, e, arg, ctx):
    """Records the cards whose STR a lasting effect raised or lowered this phase (`strength_changed`)."""
    before = len(g.state.effects)
    ok = _modify_impl(g, e, arg, ctx)
    for eff in g.state.effects[before:]:
        if eff.stat == "strength" and eff.value:
            g.state.counters[f"str_changed:{eff.target}"] = g.state.phase_serial
            if g.state.window is not None:  # issue 24: "when its STR is raised or lowered" (A Song of Night's Armies)
                g.state.window.gates.append({"event": "strength_changed", "card": eff.target,
                                             "player": g.card(eff.target).controller})
    return ok


REGISTRY["effect"]["modify"].impl = _modify_core_d


# --- gold tokens and switched plot decks (Tywin Lannister, Varys) ---

@effect("place_gold", card_selector(), "N gold (`amount`, default 1) is taken from the treasury and placed on each "
        "card in play as gold tokens: they stay on it through taxation and go back to the treasury when it leaves "
        "play; with a constant `spend_gold: true` its controller may spend them as if in his gold pool",
        keys={"amount": Int(minimum=1)},
        phrase=lambda v, e, r: f"place {e.get('amount', 1)} gold from the treasury on {r.cards(v)}")
def _place_gold(g, e, arg, ctx):
    cards = [c for c in select(g, arg, ctx) if g.card(c).zone in ("in_play", "attached")]
    for cid in cards:
        g.place_gold(cid, int(e.get("amount", 1)))
    return bool(cards)


def _switch_partner(g, arg, ctx) -> str | None:
    found = [t for t in ctx.targets if isinstance(t, str)] if arg == "target" else select(g, arg, ctx)
    return next((n for n in found if n != ctx.player and not g.player(n).eliminated), None)


@effect("switch_plots", Words("target", "opponent"), "for the rest of the round you and the player (the chosen "
        "player, or your opponent) use each other's plot deck and used pile as your own: each chooses his plots from "
        "the other's plot deck (and may look at it), and PLT-04 rotation returns the used pile he uses to it; a plot "
        "he reveals is his while revealed, and goes to its owner's used pile (ZON-10). It ends as the round ends",
        possible=lambda g, e, ctx: _switch_partner(g, e["switch_plots"], ctx) is not None,
        phrase=lambda v, e, r: f"you and {r.cards(v)} swap plot decks and used piles until the end of the round")
def _switch_plots(g, e, arg, ctx):
    other = _switch_partner(g, arg, ctx)
    if other is None:
        return False
    g.state.plot_swaps.append([ctx.player, other])
    g.log(f"{ctx.player} and {other} switch plot decks and used piles for the rest of the round "
          f"({g.name(ctx.source)})")
    return True


# --- issue 22 additions ---
# An influence cost reduced, a card moved from one pile to another, an effect an opponent may prevent
# by discarding his hand; ``modify``'s ``for_each`` (an amount read as the effect resolves) is above.

@effect("reduce_influence", Int(minimum=1), "the next ability you trigger (or event you play) this phase whose "
        "card matches `card` costs N influence less (COS-12: influence costs can be reduced; never below 0); one "
        "payment uses it up", keys={"card": FilterSchema(), "until": UNTIL},
        phrase=lambda v, e, r: (f"reduce the influence cost of the next ability you trigger or event you play this "
                                f"{e.get('until', 'phase')}" + (f" (of {r.filter(e['card'])})" if e.get("card") else "")
                                + f" by {v}"))
def _reduce_influence(g, e, arg, ctx):
    g.state.reducers.append({"player": ctx.player, "amount": int(arg), "filter": dict(e.get("card") or {}),
                             "until": e.get("until", "phase"), "source": ctx.source, "kind": "influence"})
    g.log(f"{ctx.player}'s next matching influence cost is {int(arg)} lower ({g.name(ctx.source)})")
    return True


@effect("free_next", FilterSchema(), "the next ability you trigger (or event you play) whose card matches the filter "
        "has its fixed gold and influence costs reduced to 0 (an event's printed cost, `gold`, `influence`; COS-12: "
        "costs can be reduced; an X cost is still paid, and other costs too; an event with a printed gold cost is "
        "still played in marshalling only, MAR-08); one trigger of a matching card uses it "
        "up, until the end of `until` (default the phase): Favors for the King", keys={"until": UNTIL},
        phrase=lambda v, e, r: (f"the {r.filter(v or {}, article_='')} ability you use next this "
                                f"{e.get('until', 'phase')} costs no gold or influence (X costs aside)"))
def _free_next(g, e, arg, ctx):
    g.state.reducers.append({"player": ctx.player, "amount": 0, "filter": dict(arg or {}),
                             "until": e.get("until", "phase"), "source": ctx.source, "kind": "free"})
    g.log(f"{ctx.player}'s next matching ability or event costs no gold or influence ({g.name(ctx.source)})")
    return True


PILE_TO = {"hand": ("hand", True), "deck_top": ("deck", True), "deck_bottom": ("deck", False),
           "discard": ("discard", True), "dead": ("dead", True), "deck": ("deck", True),
           "used_plots": ("used_plots", True), "plot_deck": ("plot_deck", True)}
"""``to: deck``: shuffled into the deck (ZON-16); ``to: used_plots``: a plot from the plot deck to the used pile;
``to: plot_deck``: a plot from the used pile back to the plot deck (The Land of Always Winter)."""
_PLOT_PILES = ("plot_deck", "used_plots")


@effect("move_between_piles", card_selector(), "cards in a pile (hand, deck, discard or dead pile: choose them "
        "with `from:`) go to another pile of their owner (`to`): not leaving play (MOR-08), not a draw (DRW-04), "
        "not a discard from play; a card already in that pile stays; `to: deck`: shuffled into the deck (ZON-16); "
        "`to: used_plots`: a plot of the plot deck (`from: plot_deck`) goes to the used pile; `to: plot_deck`: a plot "
        "of the used pile (`from: used_plots`) goes back to the plot deck",
        keys={"to": Words(*PILE_TO)},
        phrase=lambda v, e, r: ("shuffle " + r.cards(v) + " into {} deck".format(r.owners(v))) if e.get("to") == "deck"
        else "put " + r.cards(v) + {
            "hand": " into {} hand", "deck_top": " on top of {} deck", "deck_bottom": " on the bottom of {} deck",
            "discard": " in {} discard pile", "dead": " in {} dead pile",
            "used_plots": " in {} used pile", "plot_deck": " back in {} plot deck"}.get(e.get("to", "hand"), " in {} " + str(
                e.get("to"))).format(r.owners(v)))
def _move_between_piles(g, e, arg, ctx):
    zone, top = PILE_TO[e.get("to", "hand")]
    done = False
    for cid in select(g, arg, ctx):
        c = g.card(cid)
        if c.zone not in ("hand", "deck", "discard", "dead", "plot_deck", "used_plots") or c.zone == zone \
                or (c.zone in _PLOT_PILES) != (zone in _PLOT_PILES):  # plots stay among the plot piles
            continue
        was = c.zone
        g.move_to_pile(cid, zone, top=top)
        g.log(f"{g.name(cid) if zone in ('discard', 'dead') or was in ('discard', 'dead') else 'a card'} goes from "
              f"{c.owner}'s {was} to {'the bottom of ' if not top else ''}{c.owner}'s {zone} ({g.name(ctx.source)})")
        if e.get("to") == "deck":
            g.shuffle_deck(c.owner)  # ZON-16
        done = True
    return done


def _agenda_problem(g: Game, player: str, cid: int) -> str | None:
    """Why the card cannot become the player's agenda (None if it can): it must be able to (its text places it,
    `place_as_agenda`), the player has no agenda yet (ZON-05), and his House is the card's (a neutral card suits
    any House)."""
    d, p = g.defn(cid), g.player(player)
    if not any(isinstance(a, dict) and any(isinstance(x, dict) and "place_as_agenda" in x for x in a.get("effect") or ())
               for a in d.abilities):
        return "its text does not let it become an agenda"
    if p.agenda is not None:
        return "there is one already (ZON-05)"
    houses = {h for h in (d.house if isinstance(d.house, (tuple, list)) else (d.house,)) if h and h != "neutral"}
    if houses and p.house not in houses:
        return f"{player}'s House is not {' or '.join(sorted(houses))}"
    return None


@effect("place_as_agenda", Words("self"), "this character, played from your hand and in play under your control, "
        "leaves play and is placed on your House card as your agenda (ZON-05; the FAQ: it has left play, so other "
        "copies may be played): only if you have no agenda and your House is the card's (any House for a neutral "
        "card); its attachments and duplicates are discarded, its power and tokens go. While it is the agenda, only "
        "its abilities marked `as_agenda: true` work, and its type is agenda",
        phrase=lambda v, e, r: "place this card on your House card as your agenda")
def _place_as_agenda(g, e, arg, ctx):
    cid = ctx.source
    c = g.card(cid)
    if c.zone != "in_play" or c.moribund is not None or c.controller != ctx.player or c.owner != ctx.player:
        return False
    problem = _agenda_problem(g, ctx.player, cid)
    if problem is not None:
        g.log(f"{g.name(cid)} cannot become {ctx.player}'s agenda: {problem}")
        return False
    g.place_as_agenda(cid)
    g.log(f"{ctx.player} places {g.name(cid)} on the House card as the agenda ({g.name(ctx.source)})")
    return True


def _unless_discard_hand(g: Game, e: dict, arg: Any, ctx: Ctx):
    for who in select(g, arg, ctx):
        if who == ctx.player or g.player(who).eliminated:
            continue
        d = _choice(g, who, f"{g.name(ctx.source)}: discard your hand to prevent its effect, or allow it",
                    ["allow", "discard_hand"], 1, 1, "allow or discard_hand")
        answer = yield from g.ask(d)
        if answer["choose"][0] == "discard_hand":
            hand = list(g.player(who).hand)
            for cid in hand:  # the hand is one entity: even an empty hand can be discarded (ZON-12)
                g.move_to_pile(cid, "discard")
            g.log(f"{who} discards {len(hand)} card{'s' if len(hand) != 1 else ''} from hand to prevent "
                  f"{g.name(ctx.source)}'s effect")
            return False
        g.log(f"{who} does not prevent {g.name(ctx.source)}'s effect")
    return True


effect("unless_discard_hand", Words("opponent", "each_opponent", "target"), "each player named here, in turn, may "
       "discard his hand (even an empty one, ZON-12) to prevent the effect (`choose: [allow]` or "
       "`[discard_hand]`); it resolves only if nobody does, so what it prevents is written after it in `then` "
       "(COS-17), like `check`", asks=True,
       phrase=lambda v, e, r: "unless " + r.subject(v, "discard") + f" {r.their(v)} hand,")(_unless_discard_hand)


# --- issue 24 (CCG Winter Edition) additions ---

def _duplicate_onto_ask(g, e, ctx):
    hosts = [c for c in candidates(g, dict(e["to"]), ctx) if g.card(c).zone == "in_play"]
    if len(hosts) < 2:
        return None
    return {"prompt": f"{g.name(ctx.source)}: choose the card it becomes a duplicate of", "choices": hosts,
            "count": 1}


@effect("duplicate_onto", card_selector(), "the cards in play, with their own duplicates, become duplicates of a "
        "card in play that matches `to` (the controller chooses when several do; nothing happens when none "
        "does): they are no longer characters in play (UNQ-06; the CCG Hatchlings on their Dragon)",
        keys={"to": FilterSchema()}, ask=_duplicate_onto_ask,
        phrase=lambda v, e, r: (r.subject(v, "become") + " a duplicate of " + r.filter(e.get("to") or {})))
def _duplicate_onto(g, e, arg, ctx):
    hosts = [c for c in candidates(g, dict(e["to"]), ctx) if g.card(c).zone == "in_play"]
    if not hosts:
        return False
    host = ([c for c in ctx.answers.get(id(e), []) if c in hosts] or hosts)[0]
    done = False
    for cid in select(g, arg, ctx):
        c = g.card(cid)
        if c.zone != "in_play" or cid == host:
            continue
        for d in list(c.duplicates):
            g.attach(d, host, g.card(host).controller, duplicate=True)
        g.attach(cid, host, g.card(host).controller, duplicate=True)
        g.log(f"{g.name(cid)} becomes a duplicate of {g.name(host)} ({g.name(ctx.source)})")
        done = True
    return done


REGISTRY["effect"]["modify"].keys["strength"] = AMOUNT
REGISTRY["effect"]["modify"].doc += "; `strength: x | minus_x`: plus or minus the X paid"
REGISTRY["effect"]["claim_power"].keys["amount"] = Either(Int(minimum=1), Words("x"), form="N | x")
REGISTRY["effect"]["claim_power"].doc += " (`amount: x`: the X paid)"
# Issue 24 (True King's Bannerman): "X power, X the number of ..." counted as the effect resolves.
REGISTRY["effect"]["claim_power"].keys["for_each"] = FilterSchema({"from": FROM})
REGISTRY["effect"]["claim_power"].doc += ("; `for_each: FILTER`: the amount times the number of matching cards "
                                          "(in play, or in your pile that `from:` names), counted as it resolves")
REGISTRY["effect"]["draw"].keys["for_each"] = FilterSchema({"from": FROM})
REGISTRY["effect"]["draw"].doc += ("; `for_each: FILTER`: N cards for each matching card (in play, or in your pile "
                                   "that `from:` names), counted as it resolves (Tyrion Lannister of the CCG)")
REGISTRY["effect"]["claim_power"].keys["per_difference"] = Int(minimum=1)
REGISTRY["effect"]["claim_power"].doc += ("; `per_difference: N`: the amount for each N STR of difference between "
                                          "the sides of the current (or last) challenge (Support of the Seven)")

def _reduce_count(g, for_each, ctx) -> int:
    if for_each == "host_attachments":
        host = g.card(ctx.source).attached_to
        return 0 if host is None else len(g.card(host).attachments)
    return len(candidates(g, dict(for_each), ctx))


REGISTRY["effect"]["reduce"].keys["for_each"] = Either(Words("host_attachments"), FilterSchema({"from": FROM}),
                                                       form="FILTER | host_attachments")
REGISTRY["effect"]["reduce"].doc += ("; `for_each: FILTER | host_attachments`: N times the number of matching cards "
                                     "(in play, or the pile `from:` names) or of the attachments on the card this one "
                                     "is attached to (a House card too), counted as the effect resolves")


@effect("only_challenges", Words("military", "intrigue", "power"), "until then (default the round) you cannot "
        "declare attackers or defenders except in challenges of this type (GEN-01; Caution to the Wind names it "
        "with `one_of`)", keys={"until": UNTIL},
        phrase=lambda v, e, r: (f"you cannot declare attackers or defenders except in {v} challenges "
                                + r.until(e.get("until"), "round")))
def _only_challenges(g, e, arg, ctx):
    g.state.effects.append(Effect(ctx.source, "only_challenges", {"type": arg, "player": ctx.player},
                                  e.get("until", "round"), ctx.source))
    g.log(f"{g.name(ctx.source)}: {ctx.player} declares attackers and defenders only in {arg} challenges")
    return True


# --- issue 24 (CCG Winter Edition, w1) additions ---

REGISTRY["effect"]["chooses"].keys["by"] = Words(*EVERY_PLAYER.words, "gate_player")
"""``by: gate_player``: the player of the gate chooses ("the player who controls that character": Cersei
Lannister of the CCG, on a ``cancelable`` gate)."""
# --- issue 24: "unless that player kneels X influence" (Standard of the Kraken, Banished) ---

def influence_givers(g: Game, player: str, exclude=()) -> list[int]:
    """The standing cards ``player`` controls that can kneel to pay influence (COS-01, COS-05): his cards in
    play and his House card, less ``exclude``."""
    cards = list(g.in_play_cards(player)) + [g.player(player).house_card]
    return [c for c in cards if c is not None and c not in exclude and not g.card(c).kneeling
            and g.bonus(c, "influence") > 0]


def kneel_influence(g: Game, player: str, need: int, exclude=(), why: str = ""):
    """``player`` kneels standing cards of his whose influence adds up to ``need`` or more (COS-01), choosing
    them one at a time when there is a choice (each pick is legal, so any answer works); the caller checked
    that he has enough. Paying influence is a cost, not a kneel effect (COS-03). Returns the knelt cards."""
    givers = influence_givers(g, player, exclude)
    knelt: list[int] = []
    total = 0
    while total < need:
        left = [c for c in givers if c not in knelt]
        if not left:
            break
        rest = need - total
        values = [g.bonus(c, "influence") for c in left]
        if len(left) == 1 or sum(values) - min(values) < rest:  # every card left is needed: no choice
            pick = left[0]
        else:
            answer = yield from g.ask(_choice(g, player, f"{why}: choose a card to kneel for influence "
                                                         f"({rest} more needed)", left, 1, 1, "a card with influence"))
            pick = answer["choose"][0]
        knelt.append(pick)
        total += g.bonus(pick, "influence")
    for c in knelt:
        g.card(c).kneeling = True
    if knelt:
        g.log(f"{player} kneels {', '.join(g.name(c) for c in knelt)} for {need} influence ({why})")
    return knelt


def _unless_influence(g: Game, e: dict, arg: Any, ctx: Ctx):
    need = int(arg) * (_reduce_count(g, e["for_each"], ctx) if e.get("for_each") else 1)
    title = g.name(ctx.source)
    for who in select(g, e.get("player", "opponent"), ctx):
        if who == ctx.player and e.get("player") != "you" or g.player(who).eliminated:
            continue  # issue 24: ``player: you``, "kneel 1 influence or ..." (Fallen Brother)
        have = sum(g.bonus(c, "influence") for c in influence_givers(g, who))
        if have < need:
            g.log(f"{who} cannot kneel {need} influence to prevent {title}'s effect (has {have} standing)")
            continue
        d = _choice(g, who, f"{title}: kneel {need} influence to prevent its effect, or allow it",
                    ["kneel_influence", "allow"], 1, 1, "kneel_influence or allow")
        answer = yield from g.ask(d)
        if answer["choose"][0] == "kneel_influence":
            yield from kneel_influence(g, who, need, (), f"to prevent {title}'s effect")
            return False
        g.log(f"{who} does not prevent {title}'s effect")
    return True


effect("unless_influence", Int(minimum=1), "each player named here (default opponent; `target_controller`: the "
       "chosen card's controller), in turn, may kneel N influence (COS-01; N times the count of `for_each`, as in "
       "`reduce`) to prevent the effect (`choose: [kneel_influence]`, then the cards one at a time when there is a "
       "choice, or `[allow]`; not asked when he has too little standing influence); it resolves only if nobody "
       "does, so what it prevents is written after it in `then` (COS-17), like `unless_discard_hand`; `you`: the "
       "ability's controller himself (\"kneel 1 influence, or discard ...\")",
       keys={"player": Words("opponent", "each_opponent", "target", "target_controller", "you"),
             "for_each": Either(Words("host_attachments"), FilterSchema({"from": FROM}),
                                form="FILTER | host_attachments")}, asks=True,
       phrase=lambda v, e, r: ("unless " + ("you kneel" if e.get("player") == "you" else
                                            r.subject(e.get("player", "opponent"), "kneel"))
                               + f" {v} influence" + r.for_each(e.get("for_each")) + ","))(_unless_influence)


REGISTRY["effect"]["discard_power"].keys["from"] = card_selector("opponent_house", "your_house", "loser_house",
                                                                  "each_opponent_house")
REGISTRY["effect"]["discard_power"].doc += "; `from: loser_house`: the House card of the player who lost the challenge"
REGISTRY["effect"]["discard_power"].keys["for_each"] = FilterSchema({"from": FROM})
REGISTRY["effect"]["discard_power"].doc += ("; `from: each_opponent_house`: from every opponent's House card in turn; "
                                            "`for_each: FILTER`: N times the number of matching cards (in play, or in "
                                            "your pile that `from:` names), counted as it resolves (The Wildling Horde)")


# --- issue 24 (CCG Five Kings Edition) additions ---

def _may_claim_house_power(g: Game, e: dict, arg: Any, ctx: Ctx):
    done = False
    n = int(arg)
    for who in select(g, e.get("player", "you"), ctx):
        d = _choice(g, who, f"{g.name(ctx.source)}: you may gain {n} power for your House", ["claim", "pass"], 1, 1,
                    "claim or pass")
        answer = yield from g.ask(d)
        if answer["choose"][0] == "claim":
            g.log(f"{who} claims {n} power for House with {g.name(ctx.source)}")
            g.claim_house_power(who, n)
            done = True
        else:
            g.log(f"{who} chooses not to claim power ({g.name(ctx.source)})")
    return done


effect("may_claim_house_power", Int(minimum=1), "each player of `player` (default you; `gate_player`: the player of "
       "the gate) may claim N power for his House: that player decides (`choose: [claim]` or `[pass]`)",
       keys={"player": Words(*EVERY_PLAYER.words, "gate_player")}, asks=True,
       phrase=lambda v, e, r: (r.cards(e.get("player", "you")) + f" may gain {v} power for "
                               + r.their(e.get("player", "you")) + " House"))(_may_claim_house_power)

REGISTRY["effect"]["chooses"].keys["count"] = Either(Int(minimum=1), Words("x"), form="N | x")
REGISTRY["effect"]["chooses"].doc += " (`count: x`: the X paid, Seek out the Traitors)"

REGISTRY["effect"]["search"].keys["reveal"] = Bool()
REGISTRY["effect"]["search"].doc += ("; `reveal: false`: the card is not revealed (it goes unseen into the hand, no "
                                     "`card_revealed` or `cards_revealed` gate: Benjen's Cache)")
_search_phrase = REGISTRY["effect"]["search"].phrase
REGISTRY["effect"]["search"].phrase = lambda v, e, r: (
    _search_phrase(v, e, r) if e.get("reveal") is not False else
    "search your deck for " + r.filter(v, bare=True) + ", add it to your hand, then shuffle your deck")


@effect("max_declared", Int(minimum=1), "until then (default the phase), no player may declare more than N attackers, "
        "nor more than N defenders, in a challenge (GEN-01)", keys={"until": UNTIL},
        phrase=lambda v, e, r: (r.until(e.get("until")) + f", no player can declare more than {v} attacker"
                                f"{'s' if v != 1 else ''} or {v} defender{'s' if v != 1 else ''} in a challenge"))
def _max_declared(g, e, arg, ctx):
    holder = g.player(ctx.player).house_card  # the event leaves play as it resolves: the effect is not on it
    g.state.effects.append(Effect(ctx.source if holder is None else holder, "max_declared", int(arg),
                                  e.get("until", "phase"), ctx.source))
    g.log(f"{g.name(ctx.source)}: no player may declare more than {arg} attacker(s) or defender(s) in a challenge")
    return True


def _copyable_keywords(g: Game, arg: Any, ctx: Ctx) -> list[str]:
    """The keywords the cards have now, in a fixed order (Riders from Eastwatch)."""
    found: list[str] = []
    for cid in select(g, arg, ctx):
        found += sorted(k for k in g.keywords(cid) if k not in found)
    return found


def _copy_keyword_ask(g, e, ctx):
    found = _copyable_keywords(g, e["copy_keyword"], ctx)
    if not found:
        return None
    return {"prompt": f"{g.name(ctx.source)}: choose the keyword it gains", "choices": found, "count": 1}


@effect("copy_keyword", card_selector(), "you choose one keyword the cards have now (they keep it); this card gains "
        "it until the end of the phase (default)", keys={"until": UNTIL}, ask=_copy_keyword_ask,
        phrase=lambda v, e, r: ("choose a keyword " + r.cards(v) + " has; this card gains that keyword "
                                + r.until(e.get("until"))))
def _copy_keyword(g, e, arg, ctx):
    found = _copyable_keywords(g, arg, ctx)
    picked = [k for k in (ctx.answers.get(id(e)) or found[:1]) if k in found]
    if not picked or g.card(ctx.source).zone not in ("in_play", "attached"):
        return False
    g.state.effects.append(Effect(ctx.source, "keyword+", picked[0], e.get("until", "phase"), ctx.source))
    g.log(f"{g.name(ctx.source)} gains {picked[0]}")
    return True


@effect("forbid_responses", EVERY_PLAYER, "until then (default the phase), the players named here cannot trigger "
        "responses (\"Response:\" abilities and events, saves and cancels included; GEN-01)", keys={"until": UNTIL},
        phrase=lambda v, e, r: (r.until(e.get("until")) + ", " + r.cards(v) + " cannot trigger responses"))
def _forbid_responses(g, e, arg, ctx):
    who = [w for w in select(g, arg, ctx) if isinstance(w, str)]
    if not who:
        return False
    holder = g.player(ctx.player).house_card  # the event leaves play as it resolves: the effect is not on it
    g.state.effects.append(Effect(ctx.source if holder is None else holder, "no_responses", who,
                                  e.get("until", "phase"), ctx.source))
    g.log(f"{', '.join(who)} cannot trigger responses ({g.name(ctx.source)})")
    return True
REGISTRY["effect"]["chooses"].keys["count_each"] = FilterSchema({"from": FROM})
REGISTRY["effect"]["chooses"].doc += (" (`count_each: FILTER`: as many as the cards that match, yours in a pile with "
                                      "`from:`, counted as the choice is made: Dark and Full of Terrors)")


# --- issue 24 (CCG Five Kings Edition, part 6) additions ---

REGISTRY["effect"]["chooses"].keys["unless"] = _Condition()
REGISTRY["effect"]["chooses"].doc += (" (`unless: CONDITION`: a chooser for whom the condition holds, read as his "
                                      "own, chooses nothing: \"each player who has not won a military challenge\", "
                                      "Battle of Oxcross)")
REGISTRY["effect"]["chooses"].keys["by"] = Words(*REGISTRY["effect"]["chooses"].keys["by"].words, "challengers")


def _reduce_phrase(v, e, r) -> str:
    who = "any player plays" if e.get("player") == "any" else "you play"
    by = "its printed cost" if v == "printed_cost" else f"{v} gold"
    verb = "raise" if e.get("raise") else "reduce"
    return (f"{verb} the cost of the next {r.filter(e.get('card') or {}, article_='')} {who} this "
            f"{e.get('until', 'phase')} by {by}" + r.for_each(e.get("for_each"))
            + (" (a gold penalty)" if e.get("penalty") else ""))


REGISTRY["effect"]["reduce"].keys["player"] = Words("you", "any")
REGISTRY["effect"]["reduce"].keys["raise"] = TrueOnly()
REGISTRY["effect"]["reduce"].phrase = _reduce_phrase
REGISTRY["effect"]["reduce"].doc += ("; `player: any`: the next matching card any player plays, whoever plays it uses "
                                     "it up; `raise: true`: that card costs N gold more instead (Tobho Mott's Armory)")
REGISTRY["effect"]["enable"].doc += ("; a granted passive that chooses no target of its own acts on the targets of "
                                     "the ability that enabled it (`target`: \"it\", Sea God's Grotto, Burning, Yet "
                                     "Shivering Too)")


@effect("switch_revealed_plots", Words("target", "opponent"), "until then (default the phase) you and the player "
        "(the chosen player, or your opponent) exchange revealed plots: each has and controls the other's as his "
        "own revealed plot; as it ends they go back, if both are still revealed (Lady Stoneheart)",
        keys={"until": UNTIL},
        phrase=lambda v, e, r: (f"{r.until(e.get('until'))}, exchange your revealed plot with "
                                f"{r.poss(v)}"))
def _switch_revealed_plots(g, e, arg, ctx):
    other = next((w for w in select(g, arg, ctx) if isinstance(w, str) and w != ctx.player), None)
    if other is None:
        return False
    me, him = g.player(ctx.player), g.player(other)
    a, b = me.revealed_plot, him.revealed_plot
    if a is None or b is None:
        return False
    me.revealed_plot, him.revealed_plot = b, a
    g.card(a).controller, g.card(b).controller = other, ctx.player
    g.state.effects.append(Effect(a, "plot_swap", [ctx.player, other, b], e.get("until", "phase"), ctx.source))
    g.log(f"{ctx.player} and {other} exchange revealed plots: {ctx.player} has {g.name(b)}, {other} has "
          f"{g.name(a)} ({g.name(ctx.source)})")
    return True
REGISTRY["effect"]["reduce"].keys["penalty"] = TrueOnly()
REGISTRY["effect"]["reduce"].doc += ("; `penalty: true` (with `raise`): the gold added is a gold penalty, so the "
                                     "`marshalled` gate of the card carries `penalty: true` (Greywater Swamp)")
# --- issue 24 (Five Kings Edition, fk5) ---

@effect("replace_hand", Words("you", "target"), "the player puts every card of his hand on the bottom of his deck, "
        "then puts as many cards from the top of his deck into his hand (not a draw, DRW-04: The Promise of Victory)",
        phrase=lambda v, e, r: r.subject(v, "put every card in hand on the bottom of the deck, then take as many "
                                            "cards from the top of it into hand"))
def _replace_hand(g, e, arg, ctx):
    who = _deck_of(g, arg, ctx)
    if who is None:
        return False
    p = g.player(who)
    hand = list(p.hand)
    for cid in hand:
        g.move_to_pile(cid, "deck", top=False)
    for _ in range(len(hand)):
        if not p.deck:
            break
        g.move_to_pile(p.deck[0], "hand")
    g.log(f"{who} puts {len(hand)} card{'s' if len(hand) != 1 else ''} from hand on the bottom of the deck and "
          f"takes as many from its top ({g.name(ctx.source)})")
    return bool(hand)


def _house_power_to(g: Game, e: dict, arg: Any, ctx: Ctx):
    house = g.player(ctx.player).house_card
    n = g.card(house).power if house is not None else 0
    if not n:
        return False
    g.card(house).power = 0
    g.log(f"{ctx.player} discards {n} power from the House card ({g.name(ctx.source)})")
    f = {**dict(arg), "controller": "you", "moribund": False}
    for i in range(n):
        cands = candidates(g, f, ctx)
        if not cands:
            g.log(f"{n - i} power cannot be placed: {ctx.player} controls no card to take it")
            break
        pick = cands[0]
        if len(cands) > 1:
            answer = yield from g.ask(_choice(g, ctx.player, f"{g.name(ctx.source)}: choose the card that takes "
                                              f"power {i + 1} of {n}", cands, 1, 1, "a card that may take the power"))
            pick = answer["choose"][0]
        g.card(pick).power += 1
        g.log(f"{ctx.player} places 1 power on {g.name(pick)} ({g.name(ctx.source)})")
    return True


effect("house_power_to", FilterSchema(), "all the power on your House card is discarded, then you place as many "
       "power on cards you control that match, one at a time, each on a card of your choice (none when none "
       "matches; moving power is not claiming, ZON-08): Qyburn", asks=True,
       phrase=lambda v, e, r: ("discard all power from your House card, then place that much power, one at a time, "
                               "on " + r.filter({"controller": "you", **v}, article_="", plural=True)))(_house_power_to)


def _offer_players(g: Game, cid: int, ctx: Ctx) -> list[str]:
    return [n for n in g.state.clockwise_from(ctx.player)
            if not g.player(n).eliminated and n != g.card(cid).controller]


def _prepare_offer_control(g: Game, e: dict, arg: Any, ctx: Ctx):
    """Step 1: the ability's controller chooses the player (one who does not control the card)."""
    cards = select(g, arg, ctx)
    players = _offer_players(g, cards[0], ctx) if cards else []
    if len(players) > 1:
        answer = yield from g.ask(_choice(g, ctx.player, f"{g.name(ctx.source)}: choose the player who may take "
                                          f"control of {g.name(cards[0])}", players, 1, 1,
                                          "a player who does not control it"))
        players = list(answer["choose"])
    ctx.answers[id(e)] = players[:1]


def _offer_control(g: Game, e: dict, arg: Any, ctx: Ctx):
    cards = select(g, arg, ctx)
    who = (ctx.answers.get(id(e)) or [None])[0]
    if not cards or who is None:
        return False
    cid = cards[0]
    c = g.card(cid)
    if c.zone != "in_play" or c.controller == who or control_problem(g, who, cid):
        return False
    answer = yield from g.ask(_choice(g, who, f"{g.name(ctx.source)}: take control of {g.name(cid)}?",
                                      ["take", "pass"], 1, 1, "take or pass"))
    if answer["choose"] != ["take"]:
        g.log(f"{who} does not take control of {g.name(cid)} ({g.name(ctx.source)})")
        return False
    g.set_controller(cid, who)
    g.log(f"{who} takes control of {g.name(cid)} ({g.name(ctx.source)})")
    if g.state.window is not None:
        g.state.window.gates.append({"event": "control_taken", "card": cid, "player": who})
    return True


effect("offer_control", card_selector(), "in step 1 you choose a player who does not control the card (asked only "
       "when there are several); as it resolves, that player may take control of it (`choose: [take]` or "
       "`[pass]`; not a unique he already has, UNQ-02/04): Nightfire Convert", asks=True,
       prepare=_prepare_offer_control,
       phrase=lambda v, e, r: "choose a player who does not control " + r.cards(v)
       + "; that player may take control of it")(_offer_control)


@effect("end_challenge", TrueOnly(), "the current challenge ends at once without being resolved: no winner, no claim "
        "(CHL-10's way); its participants leave it. `attacker_extra: true`: its attacking player may initiate one "
        "additional challenge of its type this phase (GEN-01: Desolate Canyon)",
        keys={"attacker_extra": TrueOnly()},
        phrase=lambda v, e, r: ("end the challenge at once without resolving it"
                                + ("; the attacking player may initiate an additional challenge of that type this "
                                   "phase" if e.get("attacker_extra") else "")))
def _end_challenge(g, e, arg, ctx):
    ch = g.state.challenge
    if ch is None or ch.ended or ch.resolved or ch.winner is not None:
        return False
    ch.attackers, ch.defenders = [], []
    ch.ended = True
    g.log(f"the {ch.type} challenge ends without being resolved ({g.name(ctx.source)})")
    if e.get("attacker_extra"):
        holder = g.player(ch.attacker).house_card
        g.state.effects.append(Effect(ctx.source if holder is None else holder, "extra_challenge",
                                      {"player": ch.attacker, "type": ch.type}, "phase", ctx.source))
        g.log(f"{ch.attacker} may initiate an additional {ch.type} challenge this phase ({g.name(ctx.source)})")
    return True
