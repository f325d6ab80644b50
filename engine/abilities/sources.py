"""Which abilities a card has now (printed, blanked, gained) and which cards a player may use."""
from __future__ import annotations

import weakref
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from engine.abilities.conditions import condition_holds
from engine.abilities.model import Ability, Ctx
from engine.abilities.reads import KEYWORDS, TRAITS, condition_reads, condition_stats
from engine.abilities.filters import _may_be_immune
from engine.abilities.parse import parse_abilities
from engine.state import Version, face_up_in_text_zones, smemo

if TYPE_CHECKING:
    from engine.game import Game


def abilities(g: Game, cid: int) -> list[Ability]:
    """The card's parsed abilities (cached per definition). A facedown card has none."""
    gd = g.__dict__
    held = gd.get("_abilities_now")  # (structure, state, table) while the structure decides the text
    if held is not None and held[0] == Version.s and held[1] is g.state and not gd.get("_in_constants") \
            and "_constant_override" not in gd:
        found = held[2].get(cid)
        if found is not None:
            return found
    printed = printed_abilities(g, cid)
    if gd.get("_in_constants"):
        return printed
    text = structural_text_mods(g) if "_constant_override" not in gd else None
    if text is not None:
        mods = text.get(cid)
        if mods:
            found = _current(g, cid, printed, mods)
        else:
            found = printed
            if printed and g.blank_by_structure(cid):
                found = []
        if held is None or held[0] != Version.s or held[1] is not g.state:
            held = gd["_abilities_now"] = (Version.s, g.state, {})
        held[2][cid] = found
        return found
    if not text_modifiers_in_play(g):  # while constants settle: the printed text less lasting blanks
        if printed and g.blank_by_structure(cid):
            return []
        return printed
    if "_constant_override" in gd:
        return _current(g, cid, printed)
    table = g.constant_table()
    key = ("abilities", cid)
    found = table.get(key)
    if found is None:
        found = table[key] = _current(g, cid, printed)
    return found


def printed_abilities(g: Game, cid: int) -> list[Ability]:
    """The card's printed abilities, parsed once per definition (what constants are made of: gained
    ones come from constants, EFF-03)."""
    d = g.defn(cid)
    cache = g.__dict__.setdefault("_abilities", {})
    printed = cache.get(d.key)
    if printed is None:
        printed = _PARSED.get(d)
        if printed is None:
            printed = _PARSED[d] = parse_abilities(d.abilities, d.source) if d.abilities else []
        cache[d.key] = printed
    return printed


_PARSED: "weakref.WeakKeyDictionary[Any, list[Ability]]" = weakref.WeakKeyDictionary()
"""Parsed abilities by definition (``CardDef`` is immutable, compared by identity): the games of one
pool parse each card once, not once per game."""


def _current(g: Game, cid: int, printed: list[Ability], mods: list[dict] | None = None) -> list[Ability]:
    """Printed abilities unless blanked, plus those gained from constants (EFF-03): ``mods``, or the
    constants in force on the card."""
    n = len(printed)
    if mods is None:
        mods = g._constants(cid)
    if printed and g.is_blank(cid, mods):
        printed = []  # a blank text box has no printed abilities (EFF-03)
    gained = _gained(g, mods, n)
    return printed + gained if gained else printed


def text_modifiers_exist(g: Game) -> bool:
    """Whether any card in the pool can blank a text box or grant abilities through a constant."""
    return bool(_text_modifier_keys(g))


def text_modifiers_in_play(g: Game) -> bool:
    """Whether a card whose constant can blank a text box or grant abilities is in play now, face up
    (kept while the structure stays). When none is, every card's abilities are its printed ones less
    lasting blanks, which read the structure alone: an opportunity nobody can answer then costs a
    lookup, without settling the constants (EFF-03, EFF-06)."""
    gd = g.__dict__
    held = gd.get("_text_mods_now")
    if held is not None and held[0] == Version.s and held[1] is g.state:
        return held[2]
    found = False
    if text_modifiers_exist(g):
        keys = _text_modifier_keys(g)
        found = any(c.key in keys for _, c in face_up_in_text_zones(gd, g.state))
    gd["_text_mods_now"] = (Version.s, g.state, found)
    return found


def structural_text_mods(g: Game) -> dict[int, list[dict]] | None:
    """The text modifiers (blank, gain) the constants in play apply, by card, when the structure alone
    decides them, else None: kept while the structure stays. It decides them when every such constant
    in play targets its own card or its host, has no condition or one that reads only the structure
    and no value a constant changes (``engine.abilities.reads``), its target cannot be immune to it
    (IMM-06), and no such constant blanks the card of another (a chain the settling of constants
    works out, EFF-03). Then a card's abilities are read without settling the constants."""
    gd = g.__dict__
    held = gd.get("_text_structural")
    if held is not None and held[0] == Version.s and held[1] is g.state:
        return held[2]
    found = _structural_text_mods(g)
    gd["_text_structural"] = (Version.s, g.state, found)
    return found


def _structural_text_mods(g: Game) -> dict[int, list[dict]] | None:
    if not text_modifiers_in_play(g):
        return {}
    keys = _text_modifier_keys(g)
    out: dict[int, list[dict]] = {}
    sources = set()
    for cid, c in face_up_in_text_zones(g.__dict__, g.state):
        if c.key not in keys:
            continue
        if g.blank_by_structure(cid):
            continue  # a blank text box has no constants (EFF-03)
        for ab in printed_abilities(g, cid):
            m = ab.modify
            if ab.kind != "constant" or not isinstance(m, dict) or not ("gain" in m or "blank" in m):
                continue
            target = m.get("target", "self")
            if target not in ("self", "host"):
                return None
            if ab.condition:  # decided now if it reads only the structure, and no value constants change
                if condition_reads(ab.condition) or not _values_untouched(g, ab.condition):
                    return None
                if not condition_holds(g, ab.condition, Ctx(cid, c.controller, ab)):
                    continue
            t = cid if target == "self" else c.attached_to
            if t is None:
                continue
            if t != cid and _may_be_immune(g, t) and _constants._immunity_may_cut_constants(g, [(cid, None, ab)]):
                return None
            out.setdefault(t, []).append(m)
            sources.add(cid)
    if any(m.get("blank") for t in sources for m in out.get(t, ())):
        return None  # a text modifier blanked by another: left to the settling of constants
    return out


def _values_untouched(g: Game, condition: Any) -> bool:
    """Whether no constant in play changes a value ``condition`` reads (``reads.condition_stats``):
    for traits and keywords, only those the condition names count (a constant that grants Knight
    leaves "you control three Direwolf" alone)."""
    read = condition_stats(condition) & _constants.constants_change(g)
    if not read:
        return True
    if not read <= {TRAITS, KEYWORDS}:
        return False
    named: dict[str, set] = {TRAITS: set(), KEYWORDS: set()}
    stack = [condition]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for k, v in item.items():
                if k in ("trait", "keyword"):
                    values = v if isinstance(v, list) else [v]
                    if not all(isinstance(x, str) for x in values):
                        return False
                    named[TRAITS if k == "trait" else KEYWORDS].update(values)
                else:
                    stack.append(v)
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return not any(_constants.constants_touch(g, stat, v) for stat in read for v in named[stat])


def _text_modifier_keys(g: Game) -> frozenset[str]:
    keys = g.__dict__.get("_text_mod_keys")
    if keys is None:
        keys = g.__dict__["_text_mod_keys"] = frozenset(
            d.key for d in g.pool.values() for a in d.abilities
            if isinstance(a, dict) and isinstance(a.get("modify"), dict)
            and ("gain" in a["modify"] or "blank" in a["modify"]))
    return keys


def _gained(g: Game, mods: list[dict], start: int) -> list[Ability]:
    """Abilities a card gains from constants (EFF-03): numbered after its printed ones."""
    raw = [a for m in mods for a in (m.get("gain") or [])]
    if not raw:
        return []
    cache = g.__dict__.setdefault("_gained_abilities", {})
    key = tuple(id(a) for a in raw)
    if key not in cache:
        cache[key] = parse_abilities(tuple(raw))
    return [replace(ab, index=start + i + 1) for i, ab in enumerate(cache[key])]


def ability_sources(g: Game, player: str) -> list[int]:
    """Cards whose abilities ``player`` may use: in play (moribund too, MOR-02), his House card,
    agenda and revealed plot, and events in his hand (cached per state version)."""
    table = smemo(g.__dict__, g.state)  # structure only: kept while no card moves
    key = ("ability_sources", player)
    found = table.get(key)
    if found is None:
        found = table[key] = _ability_sources(g, player)
    return list(found)


def _ability_sources(g: Game, player: str) -> list[int]:
    p = g.player(player)
    out = [c for c in g.in_play_cards(player) if not g.card(c).facedown]
    out += [c for c in (p.house_card, p.agenda, p.revealed_plot) if c is not None]
    from_hand = _from_hand_cards(g, p.hand)
    out += [c for c in p.hand if c in from_hand or g.card_type(c) == "event"]
    out += [x["card"] for x in g.state.granted if x["player"] == player and x["card"] not in out]
    from_dead = _from_dead_cards(g, p.dead)
    out += [c for c in p.dead if c in from_dead]
    out += [c for c in _from_pile_cards(g, p.discard + p.dead) if c not in out]
    return out


def _from_pile_cards(g: Game, pile: list[int]) -> list[int]:
    keys = g.__dict__.get("_from_pile_keys")
    if keys is None:
        keys = {d.key for d in g.pool.values()
                if any(isinstance(a, dict) and a.get("from_pile") for a in d.abilities)}
        g._from_pile_keys = keys
    return [c for c in pile if g.card(c).key in keys] if keys else []


def _from_hand_cards(g: Game, hand: list[int]) -> set[int]:
    keys = g.__dict__.get("_from_hand_keys")
    if keys is None:
        keys = {d.key for d in g.pool.values()
                if any(isinstance(a, dict) and a.get("from_hand") for a in d.abilities)}
        g._from_hand_keys = keys
    return {c for c in hand if g.card(c).key in keys} if keys else set()


def is_granted(g: Game, player: str, cid: int, ab: Ability) -> bool:
    return any(x["card"] == cid and x["ability"] == ab.index and x["player"] == player for x in g.state.granted)


def usable_here(g: Game, player: str, cid: int, ab: Ability) -> bool:
    """An event's abilities are played from hand; other cards' work in play; a granted ability works
    wherever its card is, and only while granted."""
    if ab.granted:
        return is_granted(g, player, cid, ab)
    zone = g.card(cid).zone
    if ab.as_agenda or zone == "agenda":  # issue 24: a character laid on the House card as the agenda
        return zone == "agenda" and (ab.as_agenda or g.defn(cid).type == "agenda")
    if ab.from_dead:
        return zone == "dead"  # core-b: Forever Burning
    if ab.from_pile:
        return zone == ab.from_pile
    if zone in ("discard", "dead"):
        return False
    if g.card_type(cid) == "event" or ab.from_hand:  # "... from your hand": used while in hand
        return zone == "hand"
    return zone != "hand"


# --- core-b additions ---

def _from_dead_cards(g: Game, dead: list[int]) -> set[int]:
    """Cards in a dead pile with an ability used from there (``from_dead: true``)."""
    keys = g.__dict__.get("_from_dead_keys")
    if keys is None:
        keys = {d.key for d in g.pool.values()
                if any(isinstance(a, dict) and a.get("from_dead") for a in d.abilities)}
        g._from_dead_keys = keys
    return {c for c in dead if g.card(c).key in keys} if keys else set()


from engine.abilities import constants as _constants  # noqa: E402  (constants imports this module)
