"""How the computer player values cards and judges effects, from the cards' data (no card names).

Everything here reads a view game (``engine.ai.view``): the seat's own knowledge.

- ``card_value``: what a card in play is worth to its controller (cost, STR, icons, keywords, power,
  income, influence, abilities).
- ``effect_score(g, me, answer)``: what triggering an ability (a complete option: card, ability,
  targets, payment) is worth to ``me``: each effect word is judged by whom it hits. Removal
  (kill, discard, return to hand or deck), kneeling, power loss and blanking are good aimed at an
  opponent's cards and bad aimed at one's own; standing, power, draws, gold and saves the other way
  round. Costs (gold, kneeling the card, an event card spent) are subtracted by the caller.
"""
from __future__ import annotations

from typing import Any

from engine import triggers
from engine.abilities.filters import candidates
from engine.abilities.model import Ctx
from engine.abilities.selectors import select
from engine.ai.view import hidden
from engine.game import Game

HARM = {"kill": 1.0, "discard": 0.9, "return_to_deck": 0.8, "return_to_hand": 0.55, "kneel": 0.3,
        "take_control": 1.2, "return_control": 0.8, "remove_from_challenge": 0.3}
"""Effects that hurt the controller of the cards they act on (times the card's value)."""
HELP = {"stand": 0.3, "put_into_play": 0.9, "move_to_hand": 0.6, "take_to_hand": 0.6, "save": 1.0}
"""Effects that help the owner/controller of the cards they act on."""


def card_value(g: Game, cid: int) -> float:
    """What a card is worth to its controller (in play) or owner (elsewhere); about its gold cost."""
    if hidden(g, cid):
        return 2.5
    d = g.defn(cid)
    c = g.card(cid)
    cost = 0 if d.cost_x else (d.cost or 0)
    v = 0.6 * cost + 0.4 * len(d.abilities)
    if d.type == "character":
        in_play = c.zone == "in_play"
        strength = g.strength(cid) if in_play else (d.strength or 0)
        icons = g.icons(cid) if in_play else set(d.icons)
        kws = g.keywords(cid) if in_play else set(d.keywords)
        v += 0.6 * strength + 0.8 * len(icons) + 0.9 * ("renown" in kws) + 0.4 * len(kws - {"renown"})
        v += 1.3 * c.power + 0.8 * len(c.duplicates)
    elif d.type == "location":
        v += 1.2 * d.income + 0.5 * d.influence + 0.3 * d.initiative
    else:
        v += 0.3
    v += 0.6 * (d.income if d.type != "location" else 0) + 0.4 * (d.influence if d.type != "location" else 0)
    if d.unique:
        v += 0.2
    return max(0.5, v)


def owner_side(g: Game, me: str, cid: int) -> int:
    """+1 when the card is ``me``'s (controlled in play, else owned), -1 when another player's."""
    c = g.state.cards.get(cid)
    if c is None:
        return 0
    who = c.controller if c.zone in ("in_play", "attached", "duplicate") else c.owner
    return 1 if who == me else -1


def ability_of(g: Game, answer: dict):
    cid = answer.get("trigger")
    try:
        abs_ = triggers.abilities(g, cid)
        return abs_[int(answer.get("ability", 1)) - 1]
    except Exception:  # noqa: BLE001 - an ability the view cannot read scores 0
        return None


def _selected(g: Game, sel: Any, ctx: Ctx) -> list:
    try:
        return list(select(g, sel, ctx))
    except Exception:  # noqa: BLE001 - a selector that needs what the view lacks: its targets only
        return list(ctx.targets)


def _chooses_score(g: Game, me: str, e: dict, rest: tuple, ctx: Ctx) -> float:
    """A ``chooses`` effect and what follows it: each chooser picks the card best for him among the
    candidates (``me`` the best for ``me``, an opponent the worst for ``me``), judged by the later effects
    acting on ``chosen``; their score with those picks."""
    arg = e.get("chooses")
    if not isinstance(arg, dict) or e.get("among", "own") != "own":
        return 0.0
    if "keep" in e or any(isinstance(x, dict) and "unchosen" in x.values() for x in rest):
        return _keep_score(g, me, e, arg, rest, ctx)
    chosen: list = []
    for chooser in _selected(g, e.get("by", "you"), ctx):
        if not isinstance(chooser, str):
            continue
        try:
            cands = [c for c in candidates(g, dict(arg), Ctx(ctx.source, chooser, ctx.ability)) if c not in chosen]
        except Exception:  # noqa: BLE001 - a filter the view cannot read
            continue
        if not cands:
            continue
        best = None
        for c in cands[:12]:
            ctx.chosen = chosen + [c]
            s = _effects_score(g, me, rest, ctx)
            s = s if chooser == me else -s
            if best is None or s > best[0]:
                best = (s, c)
        chosen.append(best[1])
    ctx.chosen = chosen
    return _effects_score(g, me, rest, ctx) if chosen else 0.0


def _keep_score(g: Game, me: str, e: dict, arg: dict, rest: tuple, ctx: Ctx) -> float:
    """A ``chooses`` that keeps cards (``keep: N``, or the later effects act on ``unchosen``): each chooser
    keeps his most valuable cards; the later effects judged on what is chosen and what is not."""
    chosen: list = []
    unchosen: list = []
    for chooser in _selected(g, e.get("by", "you"), ctx):
        if not isinstance(chooser, str):
            continue
        try:
            cands = [c for c in candidates(g, dict(arg), Ctx(ctx.source, chooser, ctx.ability))
                     if c not in chosen and c not in unchosen]
        except Exception:  # noqa: BLE001 - a filter the view cannot read
            continue
        order = sorted(cands, key=lambda c: -card_value(g, c))
        if "keep" in e:  # all but ``keep`` are chosen: the least valuable
            chosen += order[int(e["keep"]):]
        else:  # ``count`` chosen (kept), the rest unchosen
            n = int(e.get("count", 1))
            chosen += order[:n]
            unchosen += order[n:]
    ctx.chosen, ctx.unchosen = chosen, unchosen
    return _effects_score(g, me, rest, ctx)


def _effects_score(g: Game, me: str, effects: tuple, ctx: Ctx) -> float:
    score = 0.0
    challenge = g.state.challenge
    in_challenge = challenge is not None and not challenge.resolved and not challenge.ended
    for i, e in enumerate(effects):
        if isinstance(e, dict) and "chooses" in e:
            return score + _chooses_score(g, me, e, tuple(effects[i + 1:]), ctx)
        if isinstance(e, str):
            if e == "cancel":
                score += 2.0  # judged by the caller (cancel what an opponent does)
            continue
        if not isinstance(e, dict):
            continue
        word = next((k for k in e if k in HARM or k in HELP or k in PLAYER_WORDS or k in ("modify", "chooses")),
                    None)
        if word is None:
            continue
        arg = e[word]
        if word in HARM or word in HELP:
            for t in _selected(g, arg, ctx):
                if not isinstance(t, int) or t not in g.state.cards:
                    continue
                side = owner_side(g, me, t)
                v = card_value(g, t)
                c = g.card(t)
                if word == "kneel":
                    if c.kneeling:
                        continue
                    v = v * (2.5 if in_challenge and t in (challenge.attackers + challenge.defenders) else 1.0)
                if word == "stand" and not c.kneeling:
                    continue
                if word == "take_control":
                    score += (1 if side < 0 else -1) * HARM[word] * v * 2
                elif word in HARM:
                    score -= side * HARM[word] * v
                else:
                    score += side * HELP[word] * v
        elif word == "modify":
            for t in _selected(g, arg, ctx):
                if not isinstance(t, int) or t not in g.state.cards:
                    continue
                side = owner_side(g, me, t)
                s = int(e.get("strength") or 0)
                delta = 0.25 * s * (2.0 if in_challenge and t in (challenge.attackers + challenge.defenders) else 1.0)
                delta += 0.6 * len(e.get("add_icons") or []) - 0.6 * len(e.get("remove_icons") or [])
                delta += 0.4 * len(e.get("add_keywords") or []) - 0.4 * len(e.get("remove_keywords") or [])
                if e.get("blank"):
                    delta -= 0.4 * card_value(g, t)
                if e.get("terminal"):
                    delta -= 0.8 * card_value(g, t)
                score += side * delta
        elif word == "chooses":
            score += 0.0
        else:
            score += PLAYER_WORDS[word](g, me, e, arg, ctx)
    return score


def _players(g: Game, e: dict, key: str, default: str, ctx: Ctx) -> list[str]:
    return [p for p in _selected(g, e.get(key, default), ctx) if isinstance(p, str)]


def _per_player(g, me, e, ctx, key, default, each):
    return sum(each if p == me else -each for p in _players(g, e, key, default, ctx))


PLAYER_WORDS = {
    "draw": lambda g, me, e, arg, ctx: _per_player(g, me, e, ctx, "player", "you", 0.8 * int(arg)),
    "gain_gold": lambda g, me, e, arg, ctx: 0.7 * int(arg),
    "discard_at_random": lambda g, me, e, arg, ctx: _per_player(g, me, e, ctx, "player", "opponent",
                                                               -1.0 * int(arg)),
    "discard_gold": lambda g, me, e, arg, ctx: _per_player(g, me, e, ctx, "player", "opponent",
                                                          -0.5 * int(arg) if isinstance(arg, int) else -0.5),
    "claim_power": lambda g, me, e, arg, ctx: 1.6 * int(e.get("amount", 1)) * _claim_side(g, me, arg, ctx),
    "move_power": lambda g, me, e, arg, ctx: 1.4 * int(arg) * _move_side(g, me, e, ctx),
    "discard_power": lambda g, me, e, arg, ctx: -1.5 * int(arg) * _from_side(g, me, e, ctx),
    "search": lambda g, me, e, arg, ctx: 1.8,
    "search_pick": lambda g, me, e, arg, ctx: 1.8,
    "reduce": lambda g, me, e, arg, ctx: 0.5 * (3 if arg == "printed_cost" else int(arg)),
    "discard_cards": lambda g, me, e, arg, ctx: sum(-0.8 * owner_side(g, me, t)
                                                    for t in _selected(g, arg, ctx) if isinstance(t, int)),
}


def _claim_side(g: Game, me: str, arg, ctx: Ctx) -> int:
    if arg in ("house", "your_house"):
        return 1
    side = 0
    for t in _selected(g, arg, ctx):
        if isinstance(t, int):
            side += owner_side(g, me, t)
    return side or 1


def _move_side(g: Game, me: str, e: dict, ctx: Ctx) -> int:
    to = e.get("to", "house")
    if to in ("house", "your_house", "self"):
        return 1
    return sum(owner_side(g, me, t) for t in _selected(g, to, ctx) if isinstance(t, int)) or 1


def _from_side(g: Game, me: str, e: dict, ctx: Ctx) -> int:
    src = e.get("from", "target")
    if isinstance(src, str) and src in ("house", "your_house"):
        return 1
    sides = [owner_side(g, me, t) for t in _selected(g, src, ctx) if isinstance(t, int)]
    players = [p for p in _selected(g, src, ctx) if isinstance(p, str)]
    return (sum(sides) + sum(1 if p == me else -1 for p in players)) or -1


def effect_score(g: Game, me: str, answer: dict) -> float:
    """What triggering ``answer`` (a listed option) is worth to ``me``, effects only (costs apart)."""
    ab = ability_of(g, answer)
    if ab is None:
        return 0.0
    gate = None
    idx = answer.get("gate")
    window = g.state.window if g.state.windows else None
    if isinstance(idx, int) and window is not None and 0 <= idx < len(window.gates):
        gate = window.gates[idx]
    ctx = Ctx(answer["trigger"], me, ab, targets=list(answer.get("targets") or []), gate=gate)
    ctx.x = int(answer.get("x") or 0)
    try:
        ctx.paid = triggers.split_pay(ab, list(answer.get("pay") or []), int(answer.get("x") or 0))[0]
    except Exception:  # noqa: BLE001
        pass
    score = _effects_score(g, me, ab.effect, ctx)
    if ab.then:
        score += 0.8 * _effects_score(g, me, ab.then, ctx)
    return score


def plot_effect_score(g: Game, me: str, cid: int) -> float:
    """What revealing plot ``cid`` now does for ``me`` through its "when revealed" abilities (judged as
    ``effect_score`` judges a triggered ability; choices by an opponent go against ``me``)."""
    total = 0.0
    try:
        abs_ = triggers.abilities(g, cid)
    except Exception:  # noqa: BLE001
        return 0.0
    for ab in abs_:
        when = getattr(ab, "when", None) or {}
        if not isinstance(when, dict) or when.get("event") != "plot_revealed":
            continue
        targets: list = []
        if isinstance(ab.choose, dict) and ab.choose.get("player"):
            who = ab.choose["player"]
            others = [p for p in g.state.player_names if p != me and not g.player(p).eliminated]
            targets = [me] if who in ("you", "self") else others[:1] if who == "opponent" else [me] + others[:1]
        ctx = Ctx(cid, me, ab, targets=targets)
        try:
            total += _effects_score(g, me, tuple(ab.effect), ctx)
            if ab.then:
                total += 0.8 * _effects_score(g, me, tuple(ab.then), ctx)
        except Exception:  # noqa: BLE001 - an ability the view cannot judge counts 0
            continue
    return total


def harms_own(g: Game, me: str, answer: dict) -> bool:
    """Does this option aim a harmful effect at ``me``'s own cards (kill, discard, return, kneel, blank,
    power loss), outside its cost? Independent of ``effect_score``: reads the effect words and targets."""
    ab = ability_of(g, answer)
    if ab is None:
        return False
    ctx = Ctx(answer["trigger"], me, ab, targets=list(answer.get("targets") or []))
    for e in tuple(ab.effect) + tuple(ab.then):
        if not isinstance(e, dict):
            continue
        for word in ("kill", "discard", "return_to_hand", "return_to_deck", "kneel"):
            if word in e and e[word] in ("target", "targets"):
                for t in ctx.targets:
                    if isinstance(t, int) and owner_side(g, me, t) > 0 and g.card(t).zone == "in_play" \
                            and not (word == "kneel" and g.card(t).kneeling):
                        return True
        if "modify" in e and e["modify"] in ("target", "targets") and (
                int(e.get("strength") or 0) < 0 or e.get("blank") or e.get("remove_icons")):
            if any(isinstance(t, int) and owner_side(g, me, t) > 0 for t in ctx.targets):
                return True
    return False


def cost_of(g: Game, me: str, answer: dict) -> float:
    """What paying for ``answer`` costs ``me``: gold, an event card spent, cards knelt to pay."""
    ab = ability_of(g, answer)
    if ab is None:
        return 0.0
    cost = ab.cost or {}
    total = 0.6 * int(cost.get("gold", 0) or 0)
    cid = answer["trigger"]
    if cid in g.state.cards and g.card_type(cid) == "event":
        total += 1.0
    knelt = list(answer.get("pay") or [])
    if cost.get("kneel_self"):
        knelt.append(cid)
    for k in knelt:
        if isinstance(k, int) and k in g.state.cards and g.card_type(k) == "character":
            total += 0.25 * card_value(g, k) if g.state.phase in ("challenges", "marshalling", "draw", "plot") else 0
    if cost.get("kneel_host") and cid in g.state.cards and g.card(cid).attached_to is not None:
        total += 0.25 * card_value(g, g.card(cid).attached_to)
    if cost.get("discard_self") or cost.get("kill_self"):
        total += 0.8 * card_value(g, cid) if g.card(cid).zone == "in_play" else 0.5
    total += 1.2 * int(cost.get("power_self", 0) or 0) + 0.8 * int(cost.get("discard_from_hand", 0) or 0)
    return total
