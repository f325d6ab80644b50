"""Constant abilities (EFF-06): modifiers recalculated whenever a value is read, player
restrictions (GEN-01), terminal conditions (MOR-09), attachment restrictions (ATT-01/02)."""
from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

from cards.model import ATTACHMENTS_EXCEPT
from engine.abilities.conditions import condition_holds
from engine.abilities.filters import (candidates, dead_strength, house_and_plot_cards, immune_to, immunities_to,
                                      matches)
from engine.abilities.model import Ability, Ctx
from engine.abilities.reads import (BLANK, CHALLENGE, COUNTERS, GOLD, KEYWORDS, KNEEL, MODIFY_STATS, MORIBUND, PHASE,
                                   PILES, POWER, TRAITS, condition_stats, constant_reads, filter_reads, filter_stats,
                                   modify_stats, target_stats)
from engine.abilities.selectors import select
from engine.abilities.sources import abilities, printed_abilities, structural_text_mods
from engine.state import Version, cards_on_the_table, effects_on, face_up_in_text_zones, smemo
from engine.wording import article

if TYPE_CHECKING:
    from engine.game import Game


def trigger_prohibited(g: Game, player: str, cid: int, ab: Ability) -> str | None:
    """``prohibit: {what: trigger_abilities}``: the player cannot trigger card abilities (GEN-01, GEN-04).
    Playing an event is playing a card, not triggering an ability of one; passives are not triggered
    (TIM-16); paying influence is a cost, not an effect (COS-03). ``triggered_effects`` (issue 24, the CCG's
    "cannot use triggered effects") stops both: the abilities and the events."""
    if ab.kind not in ("action", "response"):
        return None
    if ab.kind == "response" and g.state.effects:  # issue 24: Life Is Not a Song (``forbid_responses``)
        stop = next((e for e in g.state.effects if e.stat == "no_responses" and player in e.value), None)
        if stop is not None:
            return f"{player} cannot trigger responses now ({g.name(stop.source)}, GEN-01)"
    if g.state.cards[cid].zone == "hand" and g.card_type(cid) == "event":
        stop = prohibited(g, player, "triggered_effects") or prohibited(g, player, "events")  # events: issue 24
        return None if stop is None else f"{player} cannot play events now ({g.name(stop[0])}, GEN-01)"
    stop = prohibited(g, player, "trigger_abilities") or prohibited(g, player, "triggered_effects")
    if stop is None:
        return None
    return f"{player} cannot trigger card abilities now ({g.name(stop[0])}, GEN-01)"


def prohibited(g: Game, player: str, what: str) -> tuple[int, dict] | None:
    """A player restriction in play that applies to ``player`` (GEN-01): (source card, prohibit)."""
    return next(prohibitions(g, player, what), None)


def extra_power_to_win(g: Game, player: str) -> int:
    """Issue 24 (Balon's Follower): the power ``player`` needs beyond 15 to win, one ``prohibit: {what:
    extra_power_to_win, max: N}`` in play after another (each adds its N)."""
    return sum(_max_of(g, cid, p) for cid, p in prohibitions(g, player, "extra_power_to_win"))


def extra_doomed(g: Game, player: str) -> int:
    """Issue 24 (Great Pyramid of Meereen): the Doomed cards ``player`` is considered to have in his dead pile
    beyond the real ones, one ``prohibit: {what: extra_doomed, max: N}`` in play after another."""
    return sum(_max_of(g, cid, p) for cid, p in prohibitions(g, player, "extra_doomed"))
def extra_claim(g: Game, player: str) -> int:
    """Issue 24 (Dragonstone): how much higher the claim of ``player``'s revealed plot is, one ``prohibit:
    {what: extra_claim, max: N}`` in play after another (each adds its N)."""
    return sum(_max_of(g, cid, p) for cid, p in prohibitions(g, player, "extra_claim"))


def extra_prohibited(g: Game, player: str, what: str) -> int:
    """Issue 24 (A Beggared Realm, Winter is Coming): the sum of the ``max`` of the player's ``prohibit: {what:
    extra_income | extra_strength, max: N}`` in play."""
    return sum(_max_of(g, cid, p) for cid, p in prohibitions(g, player, what))


def extra_initiative(g: Game, player: str) -> int:
    """Issue 24 (Mountain Bandits): how much higher ``player``'s initiative is, one ``prohibit: {what:
    extra_initiative, max: N}`` in play after another (each adds its N)."""
    return sum(_max_of(g, cid, p) for cid, p in prohibitions(g, player, "extra_initiative"))


def influence_factor(g: Game, cid: int) -> int:
    """Issue 24 (Taxed at Swordpoint): how many times a card's printed influence counts, 2 for each ``prohibit:
    {what: double_influence, player: you, card: FILTER}`` in play for its controller whose ``card`` it matches."""
    n = 1
    for src, p in prohibitions(g, g.state.cards[cid].controller, "double_influence"):
        if matches(g, cid, dict(p.get("card") or {}), Ctx(src, g.state.cards[src].controller, None)):
            n *= 2
    return n


def _max_of(g: Game, cid: int, p: dict) -> int:
    """A restriction's ``max`` (the N of "N more"), times the count of its ``for_each`` when it has one, read
    now as its card's controller's (issue 24: Bitterbridge Tourney Grounds, "for each Power Struggle plot in your
    used pile")."""
    n = int(p.get("max", 0))
    if "for_each" in p:
        n *= count_for_each(g, p["for_each"], Ctx(cid, g.state.cards[cid].controller, None))
    return n


def prohibitions(g: Game, player: str, what: str):
    """Every player restriction in play that applies to ``player`` now: (source card, prohibit)."""
    keys = g.__dict__.get("_prohibit_keys")
    if keys is None:
        keys = {d.key for d in g.pool.values() if any(isinstance(a, dict) and a.get("prohibit")
                                                       for a in d.abilities)}
        g._prohibit_keys = keys
    if not keys:
        return
    table = smemo(g.__dict__, g.state)
    sources = table.get("prohibit_sources")
    if sources is None:
        sources = table["prohibit_sources"] = [(cid, c) for cid, c in face_up_in_text_zones(g.__dict__, g.state)
                                               if c.key in keys]
    for cid, c in sources:
        for ab in abilities(g, cid):
            p = ab.prohibit
            if p is None or p["what"] != what:
                continue
            who = p.get("player", "you")
            if who == "each" or (who == "you") == (c.controller == player):
                if not _restricted_player(g, p, player, Ctx(cid, c.controller, ab)):
                    continue
                if condition_holds(g, ab.condition, Ctx(cid, c.controller, ab)):
                    yield cid, p


def _restricted_player(g: Game, p: dict, player: str, ctx: Ctx) -> bool:
    """Issue 24: a restriction that names which of its players it binds: those whose revealed plot matches
    ``revealed_plot`` (Foe I was Born to Fight), those with a lower total initiative than its controller's
    (``initiative_below: true``: Catch Them Unprepared)."""
    if "revealed_plot" in p:
        plot = g.player(player).revealed_plot
        if plot is None or not matches(g, plot, dict(p["revealed_plot"]), ctx):
            return False
    if p.get("initiative_below") and not g.initiative(player) < g.initiative(ctx.player):
        return False
    if "dead_strength_max" in p and dead_strength(g, player) > int(p["dead_strength_max"]):  # Turncoat Lord
        return False
    if "unless_controls" in p and any(g.card(c).controller == player  # Muster the Realm!
                                      for c in candidates(g, {**p["unless_controls"], "controller": "any"}, ctx)):
        return False
    return True


def _constant_keys(g: Game) -> set[str]:
    keys = g.__dict__.get("_constant_keys")
    if keys is None:
        keys = {d.key for d in g.pool.values() if any(isinstance(a, dict) and a.get("kind") == "constant"
                                                       and a.get("modify") for a in d.abilities)}
        g._constant_keys = keys
    return keys


def _constant_sources(g: Game) -> list[tuple[int, str]]:
    """(card, controller) for every card in play whose definition has a constant ability (kept while
    the structure stays: ``state.smemo``)."""
    table = smemo(g.__dict__, g.state)
    found = table.get("constant_sources")
    if found is None:
        found = table["constant_sources"] = _find_constant_sources(g)
    return found


def _find_constant_sources(g: Game) -> list[tuple[int, str]]:
    keys = _constant_keys(g)
    return [(cid, c.controller) for cid, c in face_up_in_text_zones(g.__dict__, g.state) if c.key in keys]


def _fingerprint(g: Game) -> tuple:
    """What the constants in play can read now (see docs/abilities.md): the structure
    (``Version.s``) and only those other aspects their conditions, targets and counts read
    (``engine.abilities.reads``), so kneeling a card or spending gold does not settle them again
    unless one of them reads it."""
    return watch_values(g, _constants_in_play(g)[0])


def watch_values(g: Game, aspects: frozenset) -> tuple:
    """The structure (``Version.s``) and the current values of ``aspects`` (``engine.abilities.reads``)
    on the cards on the table: equal while nothing those aspects cover has changed."""
    st = g.state
    ids = cards_on_the_table(g.__dict__, st)
    cards = st.cards
    fp: list = [Version.s]
    if not aspects:
        return tuple(fp)
    if MORIBUND in aspects:
        fp.append(tuple([cards[c].moribund for c in ids]))
    if KNEEL in aspects:
        fp.append(tuple([cards[c].kneeling for c in ids]))
    if POWER in aspects:
        fp.append(tuple([cards[c].power for c in ids]))
    if CHALLENGE in aspects:
        ch = st.challenge
        fp.append((ch.type, ch.attacker, ch.defender, tuple(ch.attackers), tuple(ch.defenders), ch.winner,
                   ch.resolved, ch.ended, ch.attacker_strength, ch.defender_strength) if ch else None)
    if GOLD in aspects:
        fp.append((tuple(p.gold for p in st.players), tuple(tuple(cards[c].tokens.items()) for c in ids)))
    if COUNTERS in aspects:
        fp.append((st.phase_serial, tuple(sorted((k, v) for k, v in st.counters.items()
                                                 if k.startswith(("plots_chosen", "str_changed", "lost_challenge"))))))
    if PILES in aspects:
        fp.append(tuple((len(p.deck), len(p.plot_deck), tuple(p.used_plots)) for p in st.players))
    if PHASE in aspects:
        fp.append(st.phase)
    return tuple(fp)


def attachment_reads(g: Game) -> frozenset:
    """What the attachment restrictions (``attach_to``) of any card of the game read, gained ones
    included (computed once per game)."""
    found = g.__dict__.get("_attachment_reads")
    if found is None:
        found = g.__dict__["_attachment_reads"] = frozenset().union(
            *(filter_reads(f) for d in g.pool.values() for f in _def_facts(d)["attach_to"]))
    return found


_DEF_FACTS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _def_facts(d) -> dict:
    """What the vocabulary walks find in one definition's ability data (``items``: every mapping,
    list and value, nested ones included; ``attach_to``: its restrictions), kept per definition
    (definitions are immutable), so a new game of the same cards does not walk them again."""
    found = _DEF_FACTS.get(d)
    if found is None:
        items = []
        stack = list(d.abilities)
        while stack:
            item = stack.pop()
            items.append(item)
            if isinstance(item, dict):
                stack.extend(item.values())
            elif isinstance(item, (list, tuple)):
                stack.extend(item)
        found = _DEF_FACTS[d] = {
            "items": items,
            "attach_to": [i["attach_to"] for i in items if isinstance(i, dict) and "attach_to" in i],
            "strings": [i for i in items if isinstance(i, str)]}
    return found


def _def_count(d, word: str) -> tuple[int, int]:
    """(abilities of ``d`` with ``word``, mappings anywhere in its ability data with ``word``)."""
    facts = _def_facts(d)
    key = ("count", word)
    found = facts.get(key)
    if found is None:
        found = facts[key] = (
            sum(1 for a in d.abilities if isinstance(a, dict) and a.get(word)),
            sum(1 for i in facts["items"] if isinstance(i, dict) and i.get(word)))
    return found


def _attached_restrictions(g: Game) -> list[dict]:
    """The printed ``attach_to`` of the face-up attachments in play (gained text is left to
    ``structural_text_mods``), kept while the structure stays."""
    table = smemo(g.__dict__, g.state)
    found = table.get("attached_restrictions")
    if found is None:
        found = table["attached_restrictions"] = [
            ab.attach_to for cid, c in face_up_in_text_zones(g.__dict__, g.state) if c.zone == "attached"
            for ab in printed_abilities(g, cid) if ab.attach_to is not None]
    return found


def attachment_stats(g: Game) -> frozenset:
    """Which values constants change (``reads.filter_stats``) the restrictions of the attachments in
    play read."""
    return frozenset().union(*(filter_stats(f) for f in _attached_restrictions(g)))


def attachment_trait_polarity(g: Game) -> frozenset:
    """How the restrictions of the attachments in play read traits: "+" (the host must have one),
    "-" (it must not: under ``not``)."""
    out: set = set()

    def walk(f, positive: bool) -> None:
        if not isinstance(f, dict):
            out.update("+-")
            return
        for key, want in f.items():
            if key == "trait":
                out.add("+" if positive else "-")
            elif key == "not":
                walk(want, not positive)
            elif key in ("has_attachment", "attached_to"):
                walk(want, positive)
            elif key == "any_of":
                for sub in want if isinstance(want, list) else [None]:
                    walk(sub, positive)

    for f in _attached_restrictions(g):
        walk(f, True)
    return frozenset(out)


def _constants_touch_attachments(g: Game) -> bool:
    """Whether a constant in play can change whether an attachment may stay where it is: by changing
    abilities (blank, gain), adding a "No attachments" keyword, removing a trait (Weapon), or changing
    a value an attachment restriction reads (kept while the structure stays)."""
    table = smemo(g.__dict__, g.state)
    found = table.get("constants_touch_attachments")
    if found is None:
        # what it reads: the constants in play, the restrictions of the attachments in play, and
        # whether the structure decides every card's text; the same as last time, the same answer
        inputs = (_constants_in_play(g), _attached_restrictions(g), structural_text_mods(g) is None)
        held = g.__dict__.get("_constants_touch_attachments_of")
        if held is not None and held[0][0] is inputs[0] and held[0][2] == inputs[2] and \
                len(held[0][1]) == len(inputs[1]) and all(a is b for a, b in zip(held[0][1], inputs[1])):
            found = table["constants_touch_attachments"] = held[1]
            return found
        found = table["constants_touch_attachments"] = _find_constants_touch_attachments(g)
        g.__dict__["_constants_touch_attachments_of"] = (inputs, found)
    return found


def _find_constants_touch_attachments(g: Game) -> bool:
    """``_constants_touch_attachments`` worked out."""
    changed = constants_change(g)
    read = changed & attachment_stats(g) if changed else changed
    touched = _constants_in_play(g)[2]
    if read == {TRAITS}:  # a trait a restriction asks for is lost only by removing one (below),
        # one it forbids (``not``) is gained only by adding one
        read = read if ("modify", "add_traits") in touched and "-" in attachment_trait_polarity(g) else set()
    found = bool(read) or ("unknown",) in touched or structural_text_mods(g) is None
    if not found:
        found = any(isinstance(ab.modify, dict) and (
                        ab.modify.get("remove_traits") or
                        any(str(k).startswith("no attachments") for k in ab.modify.get("add_keywords") or ()))
                    for _, _, ab in _printed_constants(g))
    return found


def attachments_check_key(g: Game) -> tuple:
    """What decides whether every attachment's restriction is met (ATT-02, KW-08): the structure,
    the constants in force, the moribund marks and what the restrictions read. Equal keys, equal
    answers: the check after a window is skipped when nothing it reads has changed."""
    table = smemo(g.__dict__, g.state)
    attached = table.get("attachments_in_play")
    if attached is None:
        attached = table["attachments_in_play"] = any(
            g.state.cards[h].attachments for p in g.state.players for h in p.in_play)
    if not attached:  # nothing to check: the structure alone says so
        return g.state, None, (Version.s,)
    # the check reads "No attachments" keywords, the Weapon trait, abilities (where an attachment
    # may go) and what the restrictions' filters read: the constants count only if they change these
    cm = constant_map(g) if _constants_touch_attachments(g) else None
    reads = attachment_reads(g)
    if PILES in reads or not _attachment_filters_local(g):
        return g.state, cm, watch_values(g, reads | {MORIBUND})  # a moribund attachment is not checked
    # the restrictions read only the host and its attachments: a card drawn, marshalled without a
    # host, or killed without attachments leaves every answer as it was
    st = g.state
    cards = st.cards
    found = table.get("attachment_hosts")
    if found is None:  # the structure's part, once per structure
        hosts, attachments = [], []
        for p in st.players:
            for h in p.in_play:
                c = cards[h]
                if c.attachments:
                    hosts.append((h, c.controller, c.key, tuple([
                        (a, cards[a].controller, cards[a].facedown) for a in c.attachments])))
                    attachments += c.attachments
        effects = tuple([(e.target, e.stat, repr(e.value), e.until, e.source) for e in st.effects])
        found = table["attachment_hosts"] = ((tuple(hosts), effects), attachments)
    return st, cm, (found[0], tuple([cards[a].moribund for a in found[1]]), watch_values(g, reads)[1:])


LOCAL_ATTACHMENT_FILTERS = frozenset({
    "type", "trait", "house", "unique", "not_self", "self", "cost_max", "cost_min", "strength_max",
    "strength_min", "icon", "keyword", "name", "has_attachments", "influence_min", "crest",
    "one_per_character", "income_min", "attachments_max", "named", "controller", "owner",
    "kneeling", "standing", "power_min", "moribund", "not", "any_of", "has_attachment", "doomed"})
"""Filter keys that read only the card they test and its own attachments (with the lasting effects,
the constants and the aspects ``reads`` names): attachment restrictions made of these are checked
again only when a host, one of its attachments, an effect or the constants change."""


def _attachment_filters_local(g: Game) -> bool:
    """Whether every attachment restriction (``attach_to``) of the game's cards uses only
    ``LOCAL_ATTACHMENT_FILTERS`` (and ``controller``/``owner`` only as you or opponent): computed
    once per game."""
    found = g.__dict__.get("_attachment_filters_local")
    if found is None:
        def local(f) -> bool:
            if isinstance(f, list):
                return all(local(x) for x in f)
            if not isinstance(f, dict):
                return False
            for k, v in f.items():
                if k not in LOCAL_ATTACHMENT_FILTERS:
                    return False
                if k in ("controller", "owner") and v not in ("you", "opponent"):
                    return False
                if k in ("not", "any_of", "has_attachment") and not local(v):
                    return False
            return True
        found = g.__dict__["_attachment_filters_local"] = all(
            local(f) for d in g.pool.values() for f in _def_facts(d)["attach_to"])
    return found


def constants_change(g: Game) -> frozenset:
    """The values of cards (``reads.ALL_STATS``) the printed constants of the cards in play can change
    (``reads.modify_stats``): a value none of them changes is read without settling them."""
    return _constants_in_play(g)[1]


def constants_touch(g: Game, stat: str, value: str, cid: int | None = None, *, prefix: bool = False) -> bool:
    """Whether a constant in play can add or take away this keyword (``KEYWORDS``) or trait
    (``TRAITS``) from card ``cid`` (any card: None); ``prefix``: any that starts with ``value``
    ("immune to "). A blank takes keywords, not traits (EFF-03), and only from the cards it blanks
    when the structure decides them (``structural_text_mods``). When none can, whether a card has it
    is read without settling the constants."""
    _, changed, touched = _constants_in_play(g)
    if ("unknown",) in touched:
        return True
    if prefix:
        if any(t[0] == stat and str(t[1]).startswith(value) for t in touched):
            return True
    elif (stat, value) in touched:
        return True
    if stat == KEYWORDS and BLANK in changed:
        text = structural_text_mods(g)
        return text is None or cid is None or any(m.get("blank") for m in text.get(cid, ()))
    return False


def constants_modify(g: Game, key: str) -> bool:
    """Whether a constant in play has this ``modify`` key (``gold_penalty``, ``cannot``...): when
    none has, what it would change is read without settling the constants."""
    return ("modify", key) in _constants_in_play(g)[2]


def _constants_in_play(g: Game) -> tuple[frozenset, frozenset, frozenset]:
    """(what the constants in play read, what they change, the (stat, keyword or trait) they add or
    take away and ("modify", key) for each key of their ``modify``), kept while the structure stays."""
    d = g.__dict__
    now = d.get("_constants_in_play")
    if now is not None and now[0] == Version.s and now[1] is g.state:
        return now[2]
    constants = _printed_constants(g)
    held = d.get("_constants_in_play_of")  # the same abilities as at the last structure: the same answer
    if held is not None and len(held[0]) == len(constants) and all(
            a[2] is b[2] for a, b in zip(held[0], constants)):
        d["_constants_in_play"] = (Version.s, g.state, held[1])
        return held[1]
    read: set = set()
    changed: set = set()
    touched: set = set()
    for _, _, ab in constants:
        m = ab.modify
        read |= constant_reads(ab.condition, m)
        changed |= modify_stats(m)
        if isinstance(m, dict):
            for key, stat in (("add_keywords", KEYWORDS), ("remove_keywords", KEYWORDS),
                              ("add_traits", TRAITS), ("remove_traits", TRAITS)):
                touched |= {(stat, v) for v in m.get(key) or ()}
            touched |= {("modify", key) for key in m}
            if any(key not in MODIFY_STATS for key in m):
                touched.add(("unknown",))  # a word this module cannot read: it may change anything
    found = (frozenset(read), frozenset(changed), frozenset(touched))
    d["_constants_in_play"] = (Version.s, g.state, found)
    d["_constants_in_play_of"] = (constants, found)
    return found


def _printed_constants(g: Game) -> list[tuple[int, str, Ability]]:
    """(card, controller, ability) for every printed constant with a ``modify`` of the cards in play
    (gained ones come from constants, EFF-03), kept while the structure stays."""
    table = smemo(g.__dict__, g.state)
    found = table.get("printed_constants")
    if found is None:
        found = table["printed_constants"] = [
            (cid, controller, ab) for cid, controller in _constant_sources(g)
            for ab in printed_abilities(g, cid) if ab.kind == "constant" and ab.modify is not None]
    return found


def constant_modifiers(g: Game, target: int) -> list[dict]:
    """Constant abilities in play that modify ``target`` now (recalculated whenever the table
    changes, EFF-06). The whole map is cached against the state version (``engine.state.Version``:
    bumped by every change to the table), so a read costs a lookup however many cards are in play."""
    override = g.__dict__.get("_constant_override")
    if override is not None:
        return override.get(target, [])  # while settling which constants apply (GEN-06)
    if g.__dict__.get("_in_constants"):
        return []  # a constant that reads a derived value does not see constants meanwhile
    if g.__dict__.get("_stat_free"):
        return []  # a value no constant in play changes (``Game`` derived values, ``constants_change``)
    if not _constant_keys(g):
        return []
    return constant_map(g).get(target, [])


def constant_map(g: Game) -> dict[int, list[dict]]:
    """Every card a constant ability modifies now, with its modifiers. Cached per state version; when
    the version moved on, the constants are settled again only if something they can read changed
    (``_fingerprint``), as most changes (a pass, a log line, a gate) leave them as they were."""
    key = Version.n
    st = g.state
    cached = g.__dict__.get("_constant_cache")
    if cached is not None and cached[0] == key and cached[3] is st:
        return cached[2]
    fp = _fingerprint(g)
    if cached is not None and cached[1] == fp and cached[3] is st:
        g.__dict__["_constant_cache"] = (key, fp, cached[2], st)
        return cached[2]
    settled = _settle_constants(g, _printed_constants(g))
    if cached is not None and settled == cached[2]:
        settled = cached[2]  # the same map as before (most changes): values cached against it stay
    cached = (key, fp, settled, st)
    g.__dict__["_constant_cache"] = cached
    return cached[2]


def _settle_constants(g: Game, constants: list) -> dict[int, list[dict]]:
    """Which constants apply: those whose conditions hold once they are applied. Conditions can
    read values constants change, so apply, re-check, and repeat until nothing changes; if it never
    settles, the constants caught in the loop are ignored, as though they did not exist (GEN-06)."""
    # The first guess at which constants apply starts from the blanks the structure decides
    # (``structural_text_mods``): then a constant on a card another one blanks (Milk of the Poppy)
    # is out from the start, and the view of the table does not need another round to drop it.
    text = structural_text_mods(g)
    blanked = {t for t, mods in text.items() if any(m.get("blank") for m in mods)} if text else set()

    def active_with(applied: dict | None) -> frozenset[int]:
        if applied is None:
            g.__dict__["_in_constants"] = True
        else:
            g.__dict__["_constant_override"] = applied
        try:  # a blank text box has no printed abilities, constants included (EFF-03, PLT-11)
            return frozenset(i for i, (cid, controller, ab) in enumerate(constants)
                             if not (applied is None and cid in blanked) and not g.is_blank(cid)
                             and condition_holds(g, ab.condition, Ctx(cid, controller, ab)))
        finally:
            g.__dict__["_in_constants"] = False
            g.__dict__.pop("_constant_override", None)

    def mods_of(active: frozenset[int], view: dict | None = None) -> dict[int, list[dict]]:
        if view is None:
            g.__dict__["_in_constants"] = True
        else:
            g.__dict__["_constant_override"] = view
        try:
            mods: dict[int, list[dict]] = {}
            for i in sorted(active):
                cid, controller, ab = constants[i]
                mod = ab.modify
                if "for_each" in mod:  # STR scaled by a count, read now (EFF-06)
                    n = count_for_each(g, mod["for_each"], Ctx(cid, controller, ab))
                    mod = dict(mod, strength=int(mod.get("strength", 0)) * n)
                if any(str(k).startswith(("immune to opponent's ", "immune to opponents' "))
                       for k in mod.get("add_keywords") or ()):
                    mod = dict(mod, granted_by=controller)  # EFF-09: "opponent" of this card's controller
                for t in select(g, ab.modify.get("target", "self"), Ctx(cid, controller, ab)):
                    if not immune_to(g, t, cid, "constant"):  # IMM-06: immunity cuts it off
                        mods.setdefault(t, []).append(mod)
            return mods
        finally:
            g.__dict__["_in_constants"] = False
            g.__dict__.pop("_constant_override", None)

    # What the constants change, and what their targets and conditions read of it: a read of
    # nothing they change gives the same answer before and after they apply, so it is not repeated.
    changed, targets_read, conditions_read = _settle_reads(g, constants)
    if targets_read & changed:
        mods_of = _seeing_constants(mods_of)  # core-b: target filters see what constants grant
    current = active_with(None)
    if not (conditions_read | {BLANK}) & changed:  # which apply reads their conditions and blanks
        return mods_of(current)
    seen = [current]
    for _ in range(16):
        view = mods_of(current)  # what ``current`` applies: the answer, once it holds still
        following = active_with(view)
        if following == current:
            return view
        if following in seen:  # an endless loop: ignore every constant that flips in it
            cycle = seen[seen.index(following):]
            flipping = frozenset().union(*cycle) - frozenset.intersection(*cycle)
            return mods_of(frozenset.intersection(*cycle) - flipping)
        seen.append(following)
        current = following
    return mods_of(frozenset.intersection(*seen))


def _settle_reads(g: Game, constants: list) -> tuple[frozenset, frozenset, frozenset]:
    """(values the constants change, values their targets and counts read, values their conditions
    read): ``engine.abilities.reads``. A target's immunity (IMM-06) reads its keywords."""
    cache = g.__dict__.setdefault("_settle_reads", {})
    changed: frozenset = frozenset()
    targets: frozenset = frozenset()
    conditions: frozenset = frozenset()
    for _, _, ab in constants:
        found = cache.get(id(ab))
        if found is None or found[0] is not ab:
            found = cache[id(ab)] = (ab, modify_stats(ab.modify), target_stats(ab.modify),
                                     condition_stats(ab.condition))
        changed |= found[1]
        targets |= found[2]
        conditions |= found[3]
    if _immunity_may_cut_constants(g, constants):
        targets |= {KEYWORDS}
    return changed, targets, conditions


def _immunity_may_cut_constants(g: Game, constants: list) -> bool:
    """Whether some card could be immune to one of these constants (IMM-06): an immunity the game's
    cards print or grant, or a lasting effect gives, names what one of their sources is (its type's
    abilities or effects, card effects, all)."""
    words = g.__dict__.get("_immunity_words")
    if words is None:  # printed, or added by any ability of the game's cards (computed once)
        texts = [k for d in g.pool.values() for k in d.keywords] + \
            [item for d in g.pool.values() for item in _def_facts(d)["strings"]]
        words = g.__dict__["_immunity_words"] = frozenset(
            k[len("immune to "):] for k in texts if k.startswith("immune to "))
    now = words | {str(e.value)[len("immune to "):] for e in g.state.effects
                   if e.stat == "keyword+" and str(e.value).startswith("immune to ")}
    if not now:
        return False
    return any(now & immunities_to(g, cid, "constant") for cid, _, _ in constants)


def terminal_conditions(g: Game, cid: int) -> list[dict]:
    """The terminal conditions on a card (MOR-09): from lasting effects and its own constants."""
    out = [e.value for e in effects_on(g.__dict__, g.state, cid, "terminal")]
    out += [ab.terminal for ab in abilities(g, cid) if ab.kind == "constant" and ab.terminal]
    if constants_modify(g, "terminal"):  # core-b: Flame-Kissed (no such constant in play: no settling)
        out += [m["terminal"] for m in g._constants(cid) if m.get("terminal")]
    return out


def terminal_holds(g: Game, cid: int) -> bool:
    c = g.card(cid)
    if c.zone != "in_play" or g.card_type(cid) != "character":
        return False
    return any(matches(g, cid, f, Ctx(cid, c.controller)) for f in terminal_conditions(g, cid))


def terminal_victims(g: Game) -> list[int]:
    """Characters in play, not already moribund, whose terminal condition holds now."""
    has = g.__dict__.get("_has_terminal")
    if has is None:  # any card in the pool with a terminal condition (computed once)
        has = g.__dict__["_has_terminal"] = any(
            isinstance(a, dict) and (a.get("terminal") or isinstance(a.get("modify"), dict)
                                     and a["modify"].get("terminal"))
            for d in g.pool.values() for a in d.abilities)
    if not has and not any(e.stat == "terminal" for e in g.state.effects):
        return []
    return [cid for p in g.state.players for cid in p.in_play
            if g.card(cid).moribund is None and terminal_holds(g, cid)]


def leaves_play_holds(g: Game, cid: int) -> bool:
    """A constant ``leaves_play: discard`` of the card, whose condition holds now: it is discarded."""
    return leaves_play_destination(g, cid) is not None


def leaves_play_destination(g: Game, cid: int) -> str | None:
    """Where the card's holding ``leaves_play`` constant sends it: ``discard``, ``removed`` (from the game:
    issue 24, Eddard Stark of the Five Kings Edition), or None when none holds."""
    c = g.card(cid)
    if c.zone not in ("in_play", "attached") or c.facedown:
        return None
    return next((ab.leaves_play for ab in abilities(g, cid) if ab.kind == "constant" and ab.leaves_play
                 and condition_holds(g, ab.condition, Ctx(cid, c.controller, ab))), None)


def leaves_play_victims(g: Game) -> list[int]:
    """Cards in play (attachments too), not already moribund, whose ``leaves_play`` condition holds now."""
    has = g.__dict__.get("_has_leaves_play")
    if has is None:  # any card in the pool with such a constant (computed once)
        has = g.__dict__["_has_leaves_play"] = any(
            isinstance(a, dict) and a.get("leaves_play") for d in g.pool.values() for a in d.abilities)
    if not has:
        return []
    out = []
    for p in g.state.players:
        for cid in p.in_play:
            for x in (cid, *g.card(cid).attachments):
                if g.card(x).moribund is None:
                    where = leaves_play_destination(g, x)
                    if where == "removed" or where == "discard" and not g.cannot(x, "be_discarded"):
                        out.append(x)
    return out


def host_types(g: Game, attachment: int) -> list[str]:
    """ATT-01: an attachment goes on a character unless its (current) text names another host."""
    named = [t for ab in abilities(g, attachment) if ab.attach_to and "type" in ab.attach_to
             for t in (ab.attach_to["type"] if isinstance(ab.attach_to["type"], list) else [ab.attach_to["type"]])]
    return named or ["character"]


def attachment_restriction_problem(g: Game, attachment: int, host: int, player: str) -> str | None:
    """ATT-01/02: the host must be of a type the attachment allows (a character unless its text says
    otherwise) and match every restriction the attachment states."""
    problem = weapon_only_problem(g, attachment, host)  # core-c
    if problem:
        return problem
    types = host_types(g, attachment)
    if g.card_type(host) not in types:
        return (f"{g.name(attachment)} can only be attached to {article(' or '.join(types))} (ATT-01); "
                f"{g.name(host)} is {article(g.card_type(host))}")
    for ab in abilities(g, attachment):
        if ab.attach_to is not None:
            ctx = Ctx(attachment, player, ab)
            f = dict(ab.attach_to)
            if not matches(g, host, f, ctx):
                what = ", ".join(f"{k} {v}" for k, v in f.items())
                return f"{g.name(attachment)} can only be attached to a card with {what} (ATT-01)"
    return None


# --- core-b additions ---

def _seeing_constants(mods_of):
    """A constant's target filter sees the icons, traits, keywords and STR that other constants
    grant (Hear Me Roar, Tourney for the Hand): select with the printed view, then again with the
    modifiers found, until they stop changing (at most 8 times; EFF-06)."""
    def settled(active, view=None):
        mods = mods_of(active)
        for _ in range(8):
            again = mods_of(active, mods)
            if again == mods:
                break
            mods = again
        return mods

    return settled


def count_for_each(g: Game, spec, ctx: Ctx) -> int:
    """``for_each``: the gold in your pool, or the cards a filter matches, any player's: in play, or in
    the pile ``from`` names (every player's dead pile: ``owner: you`` or ``opponent`` narrows it)."""
    if spec == "your_gold":
        return g.player(ctx.player).gold
    if spec == "your_house_power":  # issue 24: Accepted Destiny
        return g.house_power(ctx.player)
    return len(candidates(g, dict(spec), ctx, any_player=True)) + len(house_and_plot_cards(g, spec, ctx))


def defined_x(g: Game, player: str, cid: int) -> int | None:
    """Issue 24 (Lady of Schemes): the printed X of the card as its own ``x_is`` constant counts it (read as
    ``player``'s), or None when no such constant of the card applies."""
    keys = keys_with(g, "x_is")
    if keys is not None and g.state.cards[cid].key not in keys:
        return None
    for ab in abilities(g, cid):
        if ab.kind == "constant" and ab.x_is and condition_holds(g, ab.condition, Ctx(cid, player, ab)):
            return count_for_each(g, ab.x_is, Ctx(cid, player, ab))
    return None


ALL_OF_THE_COST = 10 ** 6
"""``lower_cost: {by: all}``: more than any cost, so that it is 0 (never below 0, COS-12)."""


def lower_cost(g: Game, player: str, cid: int) -> int:
    """How much a card's own ``lower_cost`` constants take off the cost of playing it from hand (its
    condition read with the player as its controller)."""
    keys = keys_with(g, "lower_cost")
    if keys is not None and g.state.cards[cid].key not in keys:
        return 0
    total = 0
    for ab in abilities(g, cid):
        lc = ab.lower_cost
        if ab.kind != "constant" or not lc:
            continue
        ctx = Ctx(cid, player, ab)
        if not condition_holds(g, ab.condition, ctx):
            continue
        if lc["by"] == "all":  # issue 24 (Vanguard Ranger): "reduce the cost to 0", penalties included
            return ALL_OF_THE_COST
        n = count_for_each(g, lc["for_each"], ctx) if "for_each" in lc else 1
        total += int(lc["by"]) * n
    return total


def _declared(g: Game, cid: int, field: str, what: str) -> bool:
    c = g.card(cid)
    if c.facedown:
        return False
    for ab in abilities(g, cid):
        if ab.kind == "constant" and what in getattr(ab, field) and \
                condition_holds(g, ab.condition, Ctx(cid, c.controller, ab)):
            return True
    return False


def does_not_kneel(g: Game, cid: int, what: str) -> bool:
    """``no_kneel``: the card does not kneel when declared as an attacker (``attack``) or defender
    (``defend``), while its condition holds, or for the duration of a lasting ``modify`` with ``no_kneel``."""
    return (_declared(g, cid, "no_kneel", what) or any(e.value == what for e in g._effects_on(cid, "no_kneel"))
            or any(what in (m.get("no_kneel") or ()) for m in g._constants(cid)))  # issue 24: Clash of Kings


def cannot_be(g: Game, cid: int, what: str) -> bool:
    """``cannot_be``: the card cannot be declared as an ``attacker`` / ``defender``, or chosen by stealth
    (``stealth_target``)."""
    return _declared(g, cid, "cannot_be", what)


# --- core-c additions ---

def weapon_only_problem(g: Game, attachment: int, host: int) -> str | None:
    """KW-08, KW-10: a card with "No attachments except Weapon" takes only attachments with the Weapon
    trait (duplicates are not attachments); likewise "... except Boon", "... except Weapon or Boon",
    "... except Weapon or Armor" (issue 24: the CCG's Five Kings Edition) with those traits."""
    for keyword, traits in ATTACHMENTS_EXCEPT.items():
        if g.has_keyword(host, keyword) and not any(g.has_trait(attachment, t) for t in traits):
            return f"{g.name(host)} takes only {' or '.join(traits)} attachments (KW-08)"


# --- core-d additions ---

def _keyed_sources(g: Game, attr: str) -> list[tuple[int, Ability]]:
    """Face-up cards in play (House cards, agendas and revealed plots too) with a constant that has ``attr``,
    whose condition holds: (card, ability)."""
    cache = g.__dict__.setdefault("_core_d_keys", {})
    keys = cache.get(attr)
    if keys is None:
        keys = {d.key for d in g.pool.values() if any(isinstance(a, dict) and a.get(attr) for a in d.abilities)}
        cache[attr] = keys
    if not keys:
        return []
    out = []
    table = smemo(g.__dict__, g.state)  # where the cards are is structure: kept while no card moves
    sources = table.get(("keyed_sources", attr))
    if sources is None:
        sources = table[("keyed_sources", attr)] = [(cid, c) for cid, c in face_up_in_text_zones(g.__dict__, g.state)
                                                    if c.key in keys]
    for cid, c in sources:
        for ab in abilities(g, cid):
            if getattr(ab, attr, None) and condition_holds(g, ab.condition, Ctx(cid, c.controller, ab)):
                out.append((cid, ab))
    return out


def enters_kneeling(g: Game, cid: int) -> int | None:
    """Issue 24 (King's Landing, Muddy Way): the card in play (the entering card itself too) whose
    ``enters_kneeling`` filter makes ``cid`` enter play kneeling, or None."""
    for src, ab in _keyed_sources(g, "enters_kneeling"):
        if matches(g, cid, ab.enters_kneeling, Ctx(src, g.card(src).controller, ab)):
            return src
    return None


def tolls(g: Game, on: str, *, card: int | None = None, player: str | None = None, ctype: str | None = None,
          defender: str | None = None) -> list[tuple[int, str, str | None, int]]:
    """The gold tolls (GEN-01) for ``on``: (source, payer, payee, gold); payee None: an opponent of the payer's
    choice. ``attack``/``defend``/``trigger`` name the card; ``challenge`` the type and the defender; ``event`` the
    player."""
    out = []
    for src, ab in _keyed_sources(g, "toll"):
        t = ab.toll
        if on not in t["for"] or "gold" not in t:  # issue 24: an influence toll is influence_tolls'
            continue
        if on in ("attack", "defend", "trigger"):
            if card is None or g.card(src).attached_to != card:
                continue
            payer, payee = g.card(card).controller, g.card(src).controller
        elif on == "challenge":
            if t.get("type") not in (None, ctype):
                continue
            payer, payee = player, defender
        else:
            payer, payee = player, None
        if payer is not None and payer != payee:
            out.append((src, payer, payee, int(t["gold"])))
    return out


def influence_tolls(g: Game, on: str, cards: list) -> int:
    """The influence the controller of ``cards`` must kneel to declare them as attackers (``on``: attack) or
    defenders (defend): the influence tolls of their attachments (Banished, In Chains; GEN-01)."""
    need = 0
    for src, ab in _keyed_sources(g, "toll"):
        t = ab.toll
        if "influence" in t and on in t["for"] and g.card(src).attached_to in cards:
            need += int(t["influence"])
    return need


def toll_total(found: list) -> int:
    return sum(n for _, _, _, n in found)


def pay_tolls(g: Game, found: list, chosen: str | None = None) -> None:
    """Each payer gives the payee the gold from his pool (an opponent: ``chosen``, else the next one)."""
    for src, payer, payee, n in found:
        to = payee or chosen or next(iter(g.opponents(payer)), None)
        if to is None:
            continue
        given = g.spend_gold(payer, min(n, g.spendable_gold(payer)))  # gold tokens he may spend, too
        g.player(to).gold += given
        g.log(f"{payer} gives {to} {given} gold ({g.name(src)})")


def untargetable(g: Game, cid: int, source: int, player: str) -> bool:
    """The card's own constant stops ``player`` choosing it as a target of ``source``'s class."""
    c = g.card(cid)
    if c.facedown:
        return False
    kind = g.card_type(source)
    for ab in abilities(g, cid):
        u = ab.untargetable
        if ab.kind != "constant" or not u:
            continue
        if u["by"] == "opponent" and player == c.controller:
            continue
        if u.get("source") and kind not in u["source"]:
            continue
        if condition_holds(g, ab.condition, Ctx(cid, c.controller, ab)):
            return True
    return False


def keys_with(g: Game, word: str) -> frozenset | None:
    """The definitions of the game's cards that print an ability with ``word`` (``lower_cost``,
    ``spend_gold``...): only their cards can have one, unless some card can gain such an ability from
    a constant (then None: any card may). Worked out once per game."""
    cache = g.__dict__.setdefault("_keys_with", {})
    if word not in cache:
        counts = [(d, _def_count(d, word)) for d in g.pool.values()]
        printed = frozenset(d.key for d, (top, _) in counts if top)
        nested = any(every != top for _, (top, every) in counts)
        cache[word] = None if nested else printed
    return cache[word]


def spends_gold(g: Game, cid: int) -> bool:
    """The card's own constant lets its controller spend the gold tokens on it as if they were in his
    gold pool (``spend_gold``; Tywin Lannister), and its condition holds."""
    c = g.card(cid)
    if c.facedown or c.zone not in ("in_play", "attached"):
        return False
    return any(ab.kind == "constant" and ab.spend_gold and condition_holds(g, ab.condition, Ctx(cid, c.controller, ab))
               for ab in abilities(g, cid))


def allowed(g: Game, what: str) -> bool:
    """A card in play opens this rule for every player (``allows``)."""
    return any(what in ab.allows for _, ab in _keyed_sources(g, "allows"))


from engine.abilities.costs import gold_cost  # noqa: E402  (core-d: costs never imports this module)


def trigger_tolls(g: Game, player: str, cid: int) -> list:
    """The tolls on triggering ``cid``'s ability (its host pays, Motley) or playing it as an event."""
    found = [t for t in tolls(g, "trigger", card=cid) if t[1] == player]
    if g.card_type(cid) == "event" and g.card(cid).zone == "hand":
        found += tolls(g, "event", player=player)
    return found


def toll_problem(g: Game, player: str, cid: int, ab: Ability, x: int = 0) -> str | None:
    """The gold of the ability's cost and of the tolls must be in the player's pool (GEN-01)."""
    found = trigger_tolls(g, player, cid)
    if not found:
        return None
    need = gold_cost(g, player, cid, ab, x) + toll_total(found)
    if need > g.spendable_gold(player):
        return (f"gold: {g.name(cid)} needs {need} gold with what {g.name(found[0][0])} makes {player} give; "
                f"{player} has {g.spendable_gold(player)} (GEN-01)")
    return None


def allowed_for(g: Game, player: str, what: str) -> bool:
    """A card that ``player`` controls opens this rule for him (``allows``: ``unopposed_by_4``)."""
    return any(what in ab.allows and g.card(cid).controller == player for cid, ab in _keyed_sources(g, "allows"))


def claim_into_play_types(g: Game, player: str) -> set:
    """Issue 24: the card types ``player``'s intrigue claim may put into play under his control (``allows:
    [claim_into_play]``, with ``claim_types``; none given: characters): Scouting the Pass, Breaking and Entering."""
    return {t for cid, ab in _keyed_sources(g, "allows") if "claim_into_play" in ab.allows
            and g.card(cid).controller == player for t in (ab.claim_types or ("character",))}


def extra_limited_allowed(g: Game, player: str, cid: int) -> bool:
    """Whether ``player`` may still play ``cid`` as his one additional Limited card this round (MAR-11, GEN-01):
    a card he controls allows it (``allows: [extra_limited]``, any card: Arianne's Admirer; or
    ``[extra_limited_location]``, a location: Taxation) and he has not played that additional card yet."""
    if g.player(player).extra_limited_played:
        return False
    return allowed_for(g, player, "extra_limited") or (
        g.defn(cid).type == "location" and allowed_for(g, player, "extra_limited_location"))


def optional_penalty(g: Game, player: str, cid: int) -> int:
    """Issue 24: the gold penalty ``player`` may choose to pay as he marshals ``cid`` (0: none is offered): the
    card's own ``optional_penalty`` (Veteran Builder), and those of his cards in play whose ``card`` filter it
    matches (Mance Rayder, for Wildling characters); several add up."""
    total = sum(int(ab.optional_penalty["gold"]) for ab in abilities(g, cid)
                if ab.kind == "constant" and ab.optional_penalty and "card" not in ab.optional_penalty
                and condition_holds(g, ab.condition, Ctx(cid, player, ab)))
    for src, ab in _keyed_sources(g, "optional_penalty"):
        f = ab.optional_penalty.get("card")
        if f is not None and g.card(src).controller == player and matches(g, cid, dict(f), Ctx(src, player, ab)):
            total += int(ab.optional_penalty["gold"])
    return total
