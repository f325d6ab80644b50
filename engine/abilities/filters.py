"""Filter keys: which cards a ``choose``, ``{all: ...}``, ``when: {card: ...}`` or condition means.

Each key is one ``@filter_key`` entry: its value schema, its doc line and its test
``fn(g, cid, want, ctx) -> bool``. A filter matches when every key's test passes.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from cards.model import HOUSES, ICONS, TYPES
from engine.abilities.model import Ctx
from engine.state import effects_on, face_up_in_text_zones, smemo
from engine.abilities.registry import (REGISTRY, Bool, FilterSchema, Int, Keyword, OneOrList, Text, TrueOnly,
                                       Words, filter_key)

if TYPE_CHECKING:
    from engine.game import Game

SOURCE_CLASS = {"character": "character abilities", "location": "location abilities",
                "attachment": "attachments", "event": "events", "plot": "plots", "agenda": "agendas",
                "house": "house cards"}
WHO = Words("you", "opponent", "loser", "winner", "any", "gate_player")
"""``loser``: the player who lost the current (or last) challenge ("controlled by the losing player"); ``winner``:
the player who won it (issue 24: Reckless); ``any``: every player (with ``from:``, every player's pile: "any
player's discard pile"); ``gate_player``: the player of the gate that triggered the ability ("a card he controls":
Punishment of Thieves)."""


def _listed(want) -> list:
    return want if isinstance(want, list) else [want]


def challenge_loser(g: Game) -> str | None:
    """The player who lost the current (or last) challenge; None while nobody has won it."""
    ch = g.state.challenge
    if ch is None or ch.winner is None:
        return None
    return ch.defender if ch.winner == ch.attacker else ch.attacker


def in_challenge(g: Game, cid: int) -> str | None:
    ch = g.state.challenge
    if ch is None or ch.resolved and ch.ended or ch.ended:
        return None
    if cid in ch.attackers:
        return "attacking"
    if cid in ch.defenders:
        return "defending"
    return None


@filter_key("type", OneOrList(Words(*TYPES)), "the card's current type (one, or any of a list)",
        phrase=lambda v, r: r.noun(r.join(["House card" if t == "house" else t for t in r.listed(v)], "or")))
def _type(g, cid, want, ctx):
    return g.card_type(cid) in _listed(want)


@filter_key("trait", OneOrList(Text("TRAIT")), "has the trait (any of a list), printed or gained",
        phrase=lambda v, r: r.pre(" or ".join([v] if isinstance(v, str) else v)))
def _trait(g, cid, want, ctx):
    return any(g.has_trait(cid, t) for t in _listed(want))


@filter_key("house", OneOrList(Words(*HOUSES, "neutral", "yours")), "of the House (any of a list); neutral: no "
            "House; yours: of your House (in `chooses`, the chooser's: \"a character of his House\")",
        phrase=lambda v, r: (r.post("of your House") if r.listed(v) == ["yours"] else
                             r.pre(" or ".join(h if h == "neutral" else h.capitalize() for h in r.listed(v)))))
def _house(g, cid, want, ctx):
    d = g.defn(cid)
    return any(h in d.house or (h == "neutral" and not d.house)
               or (h == "yours" and g.player(ctx.player).house in d.house) for h in _listed(want))


@filter_key("unique", Bool(), "unique or not",
        phrase=lambda v, r: r.pre("unique" if v else "non-unique"))
def _unique(g, cid, want, ctx):
    return g.defn(cid).unique == want


def _who(g, who, want, ctx):
    if want == "target":  # issue 24: the player the ability chose (Weapons at the Door)
        return who in ctx.targets
    if want == "you" and who != ctx.player or want == "opponent" and who == ctx.player:
        return False
    if want == "gate_player":
        return who == (ctx.gate or {}).get("player")
    if want == "winner":
        ch = g.state.challenge
        return ch is not None and ch.winner is not None and who == ch.winner
    return not (want == "loser" and who != challenge_loser(g))


@filter_key("controller", Words(*WHO.words, "target"), "controlled by you / by an opponent / by the player who lost "
                               "(won) the current or last challenge / by anyone (with `from:`, in every player's pile) "
                               "/ by the player of the gate / by the player the ability chose (`target`, with "
                               "`choose: {player: ...}`)",
        phrase=lambda v, r: r.post({"you": "you control", "opponent": "an opponent controls",
                                        "loser": "the losing player controls", "winner": "the winning player controls",
                                        "any": "", "gate_player": "that player controls",
                                        "target": "that player controls"}[v]))
def _controller(g, cid, want, ctx):
    return _who(g, g.card(cid).controller, want, ctx)


@filter_key("owner", WHO, "owned by you / by an opponent / by the loser (winner) of the current or last challenge "
                          "/ by anyone (with `from:`, in every player's pile: \"any player's discard pile\") / by the "
                          "player of the gate",
        phrase=lambda v, r: r.post({"you": "you own", "opponent": "an opponent owns",
                                        "loser": "the losing player owns", "winner": "the winning player owns",
                                        "any": "", "gate_player": "that player owns"}[v]))
def _owner(g, cid, want, ctx):
    return _who(g, g.card(cid).owner, want, ctx)


@filter_key("participating", Bool(), "attacking or defending in the current challenge",
        phrase=lambda v, r: r.pre("participating" if v else "non-participating"))
def _participating(g, cid, want, ctx):
    return bool(in_challenge(g, cid)) == want


@filter_key("attacking", Bool(), "attacking in the current challenge",
        phrase=lambda v, r: r.pre("attacking" if v else "non-attacking"))
def _attacking(g, cid, want, ctx):
    return (in_challenge(g, cid) == "attacking") == want


@filter_key("defending", Bool(), "defending in the current challenge",
        phrase=lambda v, r: r.pre("defending" if v else "non-defending"))
def _defending(g, cid, want, ctx):
    return (in_challenge(g, cid) == "defending") == want


@filter_key("kneeling", Bool(), "kneeling",
        phrase=lambda v, r: r.pre("kneeling" if v else "standing"))
def _kneeling(g, cid, want, ctx):
    return g.card(cid).kneeling == want


@filter_key("standing", Bool(), "standing",
        phrase=lambda v, r: r.pre("standing" if v else "kneeling"))
def _standing(g, cid, want, ctx):
    return g.card(cid).kneeling != want


@filter_key("not_self", TrueOnly(), "any card but this one",
        phrase=lambda v, r: r.post("other than this card"))
def _not_self(g, cid, want, ctx):
    return not (want and cid == ctx.source)


@filter_key("self", TrueOnly(), "this card only",
        phrase=lambda v, r: r.post("(this card)"))
def _self(g, cid, want, ctx):
    return not (want and cid != ctx.source)


@filter_key("host", TrueOnly(), "the card this attachment is on",
        phrase=lambda v, r: r.post("(" + r.host_noun + ")"))
def _host(g, cid, want, ctx):
    return not (want and cid != g.card(ctx.source).attached_to)


@filter_key("cost_max", Int(), "printed cost N or less",
        phrase=lambda v, r: r.post(f"with printed cost {v} or lower"))
def _cost_max(g, cid, want, ctx):
    return (g.defn(cid).cost or 0) <= want


@filter_key("cost_min", Int(), "printed cost N or more",
        phrase=lambda v, r: r.post(f"with printed cost {v} or higher"))
def _cost_min(g, cid, want, ctx):
    return (g.defn(cid).cost or 0) >= want


@filter_key("strength_max", Int(minimum=None), "current STR N or less",
        phrase=lambda v, r: r.post(f"with STR {v} or lower"))
def _strength_max(g, cid, want, ctx):
    return g.strength(cid) <= want


@filter_key("strength_min", Int(minimum=None), "current STR N or more",
        phrase=lambda v, r: r.post(f"with STR {v} or higher"))
def _strength_min(g, cid, want, ctx):
    return g.strength(cid) >= want


@filter_key("icon", Words(*ICONS), "has the challenge icon now",
        phrase=lambda v, r: r.post(f"with {r.article(v)} icon"))
def _icon(g, cid, want, ctx):
    return want in g.icons(cid)


@filter_key("keyword", Keyword(), "has the keyword now (e.g. stealth, immune to events)",
        phrase=lambda v, r: r.post(f"with {r.cap(v) if v.startswith('immune') else v}"))
def _keyword(g, cid, want, ctx):
    return want in g.keywords(cid)


@filter_key("name", Text("TITLE"), "the card's title",
        phrase=lambda v, r: r.post(f"named {v}"))
def _name(g, cid, want, ctx):
    return g.defn(cid).name == want


@filter_key("moribund", Bool(), "leaving play in this window (MOR-01)",
        phrase=lambda v, r: r.pre("leaving play" if v else ""))
def _moribund(g, cid, want, ctx):
    return (g.card(cid).moribund is not None) == want


@filter_key("has_attachments", Bool(), "has at least one attachment",
        phrase=lambda v, r: r.post("with an attachment" if v else "with no attachments"))
def _has_attachments(g, cid, want, ctx):
    return bool(g.card(cid).attachments) == want


@filter_key("influence_min", Int(), "printed influence N or more",
        phrase=lambda v, r: r.post(f"with {v} or more influence"))
def _influence_min(g, cid, want, ctx):
    return g.defn(cid).influence >= want


@filter_key("power_min", Int(), "has N or more power on it",
        phrase=lambda v, r: r.post(f"with {v} or more power"))
def _power_min(g, cid, want, ctx):
    return g.card(cid).power >= want


@filter_key("has_attachment", FilterSchema(), "has at least one attachment that matches the filter",
        phrase=lambda v, r: r.post("with " + r.filter({"type": "attachment", **v}) + " on it"))
def _has_attachment(g, cid, want, ctx):
    return any(matches(g, a, want, ctx) for a in g.card(cid).attachments
               if not g.card(a).facedown or not want)


@filter_key("controller_power", Words("more", "less"), "controlled by a player with more / less total power than "
            "you",
        phrase=lambda v, r: r.post(f"controlled by a player with {v} power than you"))
def _controller_power(g, cid, want, ctx):
    theirs, mine = g.total_power(g.card(cid).controller), g.total_power(ctx.player)
    return theirs > mine if want == "more" else theirs < mine


FILTERS = REGISTRY["filter"]


def matches(g: Game, cid: int, f: dict, ctx: Ctx) -> bool:
    """True when card ``cid`` passes every key of filter ``f`` (extras such as ``count`` and ``from``
    are not tests)."""
    for key, want in f.items():
        word = FILTERS.get(key)
        if word is not None and not word.impl(g, cid, want, ctx):
            return False
    return True


def immune_to(g: Game, cid: int, source: int, kind: str | None = None) -> bool:
    """IMM-01/05: a card is immune to effects of the types it names, never to its own.
    "Triggered effects" are actions and responses, not passives or constants (EFF-01)."""
    if cid == source:
        return False
    if not _may_be_immune(g, cid):
        return False
    imm = g.immunities(cid)
    if not imm:
        return False
    covered = immunities_to(g, source, kind, opponent=False)
    if imm & covered:
        return True
    by = g.card(source).controller
    return any(word.split(" ", 1)[1] in covered and any(by != p for p in immunity_granters(g, cid, word))
               for word in imm if word.startswith(("opponent's ", "opponents' ")))


def immunity_granters(g: Game, cid: int, word: str) -> set[str]:
    """EFF-09: whose opponents "immune to opponent's ..." counts from: the controller of the card whose
    text gives the card that immunity (the rules' Storybooks example); for a printed keyword, the card's
    own controller."""
    kw = "immune to " + word
    out = set()
    if kw in g.defn(cid).keywords and not g.is_blank(cid):
        out.add(g.card(cid).controller)
    for e in effects_on(g.__dict__, g.state, cid, "keyword+"):
        if e.value == kw:
            out.add(g.card(e.source).controller if e.source is not None else g.card(cid).controller)
    for m in g._constants(cid):
        if kw in (m.get("add_keywords") or ()):
            out.add(m.get("granted_by", g.card(cid).controller))
    return out or {g.card(cid).controller}


def immunities_to(g: Game, source: int, kind: str | None, opponent: bool = True) -> set[str]:
    """The words after "immune to" that cover an effect of ``source`` (IMM-01/05): its class, its
    type's effects ("location effects"), card effects, all; triggered effects for actions and
    responses; "opponent's ..." too when it comes from an opponent's card."""
    ctype = g.card_type(source)
    covered = {SOURCE_CLASS.get(ctype, ""), f"{ctype} effects", "card effects", "all"}
    if kind in (None, "action", "response"):
        covered.add("triggered effects")
    if opponent:  # "immune to opponent's ..."
        covered |= {f"opponent's {c}" for c in covered} | {f"opponents' {c}" for c in covered}
    return covered


def maybe_immune(g: Game) -> tuple[frozenset, frozenset] | None:
    """Who may have an "immune to" keyword now (IMM-01): (definitions printing one, cards a lasting
    effect gives one), or None when any card may (a constant in play can grant one); kept while the
    structure stays. Every other card is immune to nothing, without reading its keywords."""
    table = smemo(g.__dict__, g.state)
    if "maybe_immune" in table:
        return table["maybe_immune"]
    keys = g.__dict__.get("_immune_keys")
    if keys is None:  # definitions printing an immunity, and those whose constants can grant one
        printed = frozenset(d.key for d in g.pool.values() if any(k.startswith("immune to ") for k in d.keywords))
        granting = frozenset(d.key for d in g.pool.values()
                             if any(isinstance(a, dict) and a.get("kind") == "constant" and "immune to" in repr(a)
                                    for a in d.abilities))
        keys = g.__dict__["_immune_keys"] = (printed, granting)
    printed, granting = keys
    if granting and any(c.key in granting for _, c in face_up_in_text_zones(g.__dict__, g.state)):
        found = None
    else:
        found = (printed, frozenset(e.target for e in g.state.effects
                                    if e.stat == "keyword+" and str(e.value).startswith("immune to ")))
    table["maybe_immune"] = found
    return found


def _may_be_immune(g: Game, cid: int) -> bool:
    maybe = maybe_immune(g)
    return maybe is None or g.state.cards[cid].key in maybe[0] or cid in maybe[1]


def cards_in_play(g: Game) -> list[int]:
    """Face-up cards in play with their attachments, seat order (cached per state version)."""
    table = smemo(g.__dict__, g.state)
    found = table.get("cards_in_play")
    if found is None:
        found = table["cards_in_play"] = _cards_in_play(g)
    return found


def in_play_of_type(g: Game, want) -> list[int]:
    """``cards_in_play`` of the current type(s) ``want`` (the ``type`` filter's test), in the same
    order: an index per state version, so a filter for characters does not walk the locations."""
    key = ("in_play_of_type", want if isinstance(want, str) else tuple(want))
    table = smemo(g.__dict__, g.state)
    found = table.get(key)
    if found is None:
        types = _listed(want)
        found = table[key] = [c for c in cards_in_play(g) if g.card_type(c) in types]
    return found


def in_play_named(g: Game, name: str) -> list[int]:
    """``cards_in_play`` with this title (the ``name`` filter's test), in the same order."""
    table = smemo(g.__dict__, g.state)
    index = table.get("in_play_by_name")
    if index is None:
        index = table["in_play_by_name"] = {}
        for c in cards_in_play(g):
            index.setdefault(g.defn(c).name, []).append(c)
    return index.get(name, [])


def _cards_in_play(g: Game) -> list[int]:
    out = []
    for p in g.state.players:
        for cid in p.in_play:
            if not g.card(cid).facedown:
                out.append(cid)
                out.extend(g.card(cid).attachments)
    return out


def candidates(g: Game, f: dict, ctx: Ctx, *, any_player: bool = False) -> list[int]:
    """Cards a filter can pick: in play by default, or ``from: hand|discard|dead|deck`` of the player
    (of every player with ``any_player``, or when the filter names another ``owner`` or ``controller``
    than you: "attachments in your opponents' hands")."""
    return [c for c in _pool(g, f, ctx, any_player) if matches(g, c, f, ctx)]


def iter_candidates(g: Game, f: dict, ctx: Ctx):
    """``candidates``, one at a time (a caller that wants one stops there)."""
    return (c for c in _pool(g, f, ctx) if matches(g, c, f, ctx))


def _pool(g: Game, f: dict, ctx: Ctx, any_player: bool = False) -> list[int]:
    where = f.get("from", "in_play")
    if where == "in_play":
        name, want = f.get("name"), f.get("type")
        if isinstance(name, str):
            pool = in_play_named(g, name)
        else:
            pool = cards_in_play(g) if want is None else in_play_of_type(g, want)
    elif any_player or f.get("owner", "you") != "you" or f.get("controller", "you") != "you":
        pool = [c for p in g.state.players for c in p.pile(where)]  # ``matches`` keeps the right ones
    else:
        pool = list(g.player(ctx.player).pile(where))
    return pool


def house_and_plot_cards(g: Game, spec: dict, ctx: Ctx) -> list[int]:
    """Issue 24 (Ser Gregor's Band, Slanderous Lies): a ``for_each`` whose ``type`` names ``house`` or ``plot``
    also counts the House cards and the revealed plots, which are in play (ZON-04, C-18) but not on the table
    the filters walk."""
    want = spec.get("type")
    types = {want} if isinstance(want, str) else set(want or ())
    if spec.get("from", "in_play") != "in_play" or not types & {"house", "plot"}:
        return []
    found = [c for p in g.state.players if not p.eliminated
             for c, t in ((p.house_card, "house"), (p.revealed_plot, "plot")) if c is not None and t in types]
    return [c for c in found if matches(g, c, dict(spec), ctx)]


# --- core-b additions ---

from cards.model import CRESTS  # noqa: E402


@filter_key("crest", OneOrList(Words(*CRESTS)), "has the crest (any of a list): noble, war, learned, holy, shadow; a "
                                                "crest is not a trait",
        phrase=lambda v, r: r.post("with " + r.article(r.join([v] if isinstance(v, str) else v, "or")) + " crest"))
def _crest(g, cid, want, ctx):
    return any(w in g.crests(cid) for w in _listed(want))


from engine.abilities.registry import FilterSchema, ListOf  # noqa: E402


@filter_key("not", FilterSchema(form="FILTER"), "does not match the filter (non-Limited, non-House Stark, "
                                                "another than the host)",
        phrase=lambda v, r: r.negate(v))
def _not(g, cid, want, ctx):
    return not matches(g, cid, dict(want), ctx)


@filter_key("any_of", ListOf(FilterSchema(form="FILTER")), "matches at least one of the filters",
        phrase=lambda v, r: r.either(v))
def _any_of(g, cid, want, ctx):
    return any(matches(g, cid, dict(f), ctx) for f in want)


@filter_key("one_per_character", TrueOnly(), "(an attachment's `attach_to`) the host has no other attachment "
                                             "with this card's title (\"Limit 1 per character\")",
        phrase=lambda v, r: r.post("without another copy of this card attached"))
def _one_per_character(g, cid, want, ctx):
    title = g.name(ctx.source)
    return not any(a != ctx.source and g.name(a) == title for a in g.card(cid).attachments)


@filter_key("income_min", Int(), "printed gold (income) N or more",
        phrase=lambda v, r: r.post(f"with {v} or more gold"))
def _income_min(g, cid, want, ctx):
    return (g.defn(cid).income or 0) >= want


@filter_key("attachments_max", Int(), "has N attachments or fewer, this card not counted",
        phrase=lambda v, r: r.post(f"with {v} or fewer other attachments"))
def _attachments_max(g, cid, want, ctx):
    return sum(1 for a in g.card(cid).attachments if a != ctx.source) <= want


# --- core-c additions ---

@filter_key("attached_to", FilterSchema(form="FILTER"), "is attached to a card that matches the filter "
            "(`{self: true}`: to this card)",
        phrase=lambda v, r: r.post("attached to " + ("this card" if v.get("self") else
                                                     "it" if v == {"target": True} else r.filter(v))))
def _attached_to(g, cid, want, ctx):
    host = g.card(cid).attached_to
    return host is not None and matches(g, host, dict(want), ctx)


@filter_key("cost_max_your_gold", TrueOnly(), "printed cost no more than the gold in your pool",
        phrase=lambda v, r: r.post("with printed cost no higher than your gold"))
def _cost_max_your_gold(g, cid, want, ctx):
    return (g.defn(cid).cost or 0) <= g.spendable_gold(ctx.player)  # gold tokens he may spend count


# --- core-d additions ---

@filter_key("attacking_alone", TrueOnly(), "the only attacker of the current (or just resolved) challenge",
        phrase=lambda v, r: r.pre("lone attacking"))
def _attacking_alone(g, cid, want, ctx):
    ch = g.state.challenge
    return ch is not None and list(ch.attackers) == [cid]


@filter_key("participating_alone", TrueOnly(), "the only attacker or the only defender of the current (or just "
                                             "resolved) challenge (\"participated alone\")",
        phrase=lambda v, r: r.pre("participating alone"))
def _participating_alone(g, cid, want, ctx):
    ch = g.state.challenge
    return ch is not None and (list(ch.attackers) == [cid] or list(ch.defenders) == [cid])


@filter_key("strength_below_count", FilterSchema(form="FILTER"), "current STR lower than the number of cards you "
                                                                 "control that match the filter",
        phrase=lambda v, r: r.post("with STR lower than the number of " + r.filter(v, article_="", plural=True)
                                   + " you control"))
def _strength_below_count(g, cid, want, ctx):  # issue 24: Frozen Fighters
    return g.strength(cid) < len(candidates(g, {**want, "controller": "you"}, ctx))


def strength_changed(g: Game, cid: int) -> bool:
    """A lasting effect changed the card's STR in this phase, or its current STR is not its printed STR."""
    if g.state.counters.get(f"str_changed:{cid}") == g.state.phase_serial:
        return True
    if g.__dict__.get("_str_changed_busy"):
        return False  # read while constants settle: the lasting effects only
    g._str_changed_busy = True
    try:
        return g.card_type(cid) == "character" and g.strength(cid) != (g.defn(cid).strength or 0)
    finally:
        g._str_changed_busy = False


@filter_key("strength_changed", Bool(), "its STR was raised or lowered during this phase (a lasting effect this "
            "phase, or a current STR other than the printed one)",
        phrase=lambda v, r: r.post("with its STR changed this phase" if v else "with its STR unchanged this phase"))
def _strength_changed(g, cid, want, ctx):
    return strength_changed(g, cid) == bool(want)


@filter_key("cost_max_trigger", TrueOnly(), "printed cost no higher than the printed cost of the card of the gate "
            "that triggered the ability",
        phrase=lambda v, r: r.post("with printed cost no higher than that card's"))
def _cost_max_trigger(g, cid, want, ctx):
    other = (ctx.gate or {}).get("card")
    if other is None or other not in g.state.cards:
        return False
    mine, theirs = g.defn(cid).cost, g.defn(other).cost
    return mine is not None and theirs is not None and mine <= theirs


@filter_key("cost_max_target", TrueOnly(), "printed cost no higher than the printed cost of one of this "
            "ability's chosen targets (Cannot Be Tamed: \"with an equal or lower cost\")",
            phrase=lambda v, r: r.post("with printed cost no higher than the chosen card's"))
def _cost_max_target(g, cid, want, ctx):
    mine = g.defn(cid).cost
    return mine is not None and any(
        isinstance(t, int) and t in g.state.cards and t != cid and g.defn(t).cost is not None
        and mine <= g.defn(t).cost for t in ctx.targets)


@filter_key("named", TrueOnly(), "has the title this card named this phase (`name_card`)",
        phrase=lambda v, r: r.post("with the named title"))
def _named(g, cid, want, ctx):
    return any(e.stat == "named" and e.source == ctx.source and e.value == g.name(cid) for e in g.state.effects)


# --- issue 24 (CCG Winter Edition) additions ---

@filter_key("doomed", Bool(), "is Doomed (the black raven of the CCG, counted for elimination in a dead pile) or "
                              "not",
            phrase=lambda v, r: r.pre("Doomed" if v else "non-Doomed"))
def _doomed(g, cid, want, ctx):
    doomed = bool(g.defn(cid).doomed) or any(e.value for e in effects_on(g.__dict__, g.state, cid, "doomed"))
    return doomed == bool(want)


# --- issue 24 (CCG Five Kings Edition) additions ---

def _trigger_character(g, ctx) -> int | None:
    """The character card of the gate that triggered the ability, while it exists; else None."""
    other = (ctx.gate or {}).get("card")
    if other is None or other not in g.state.cards or g.card_type(other) != "character":
        return None
    return other


@filter_key("strength_below_trigger", TrueOnly(), "current STR lower than the current STR of the card of the gate "
            "that triggered the ability (Drogon: \"lower than the character that entered play\")",
            phrase=lambda v, r: r.post("with lower STR than that card"))
def _strength_below_trigger(g, cid, want, ctx):
    other = _trigger_character(g, ctx)
    return other is not None and g.strength(cid) < g.strength(other)


@filter_key("own_house", Bool(), "of its controller's House (true), or not (false: another House's card or a "
            "neutral one)",
            phrase=lambda v, r: r.post("of its controller's House" if v else "not of its controller's House"))
def _own_house(g, cid, want, ctx):
    houses = g.defn(cid).house or ()
    return (g.player(g.card(cid).controller).house in houses) == bool(want)


@filter_key("cost_below_you_control", FilterSchema(form="FILTER"), "printed cost lower than the number of cards "
            "you control that match the filter (Bringer of the Storm: \"lower than the number of Greyjoy "
            "characters you control\")",
            phrase=lambda v, r: r.post("with printed cost lower than the number of "
                                       + r.filter(v, article_="", plural=True) + " you control"))
def _cost_below_you_control(g, cid, want, ctx):
    count = sum(1 for c in candidates(g, dict(want), ctx) if g.card(c).controller == ctx.player)
    return g.defn(cid).cost is not None and g.defn(cid).cost < count


@filter_key("house_of", Words("you", "controller"), "of your House (you: the ability's controller's) or of its own "
            "controller's House (controller); a neutral card is of no House",
            phrase=lambda v, r: r.post("of your House" if v == "you" else "of its controller's House"))
def _house_of(g, cid, want, ctx):
    who = ctx.player if want == "you" else g.card(cid).controller
    return g.player(who).house in g.defn(cid).house


# --- issue 24 (CCG Winter Edition, w1) additions ---

@filter_key("trigger", TrueOnly(), "the card of the gate that triggered the ability (`not: {trigger: true}`: "
                                   "another card)",
            phrase=lambda v, r: r.post("that is that card"))
def _trigger(g, cid, want, ctx):
    return cid == (ctx.gate or {}).get("card")


@filter_key("strength_max_trigger", TrueOnly(), "current STR no higher than the current STR of the card of the "
                                                "gate that triggered the ability",
            phrase=lambda v, r: r.post("with STR no higher than that card's"))
def _strength_max_trigger(g, cid, want, ctx):
    other = _trigger_character(g, ctx)
    return other is not None and g.strength(cid) <= g.strength(other)


@filter_key("most_attachments", TrueOnly(), "has more attachments than every other character in play",
            phrase=lambda v, r: r.post("with more attachments than each other character"))
def _most_attachments(g, cid, want, ctx):
    mine = len(g.card(cid).attachments)
    return all(len(g.card(c).attachments) < mine for c in in_play_of_type(g, "character") if c != cid)


@filter_key("target", TrueOnly(), "one of this ability's chosen targets (`attached_to: {target: true}`: the "
                                  "attachments on them)",
            phrase=lambda v, r: r.post("that is the chosen card"))
def _target(g, cid, want, ctx):
    return cid in ctx.targets


@filter_key("cost_max_participants", TrueOnly(), "printed cost no higher than the number of characters "
                                                 "participating in the current challenge",
            phrase=lambda v, r: r.post("with printed cost no higher than the number of participating characters"))
def _cost_max_participants(g, cid, want, ctx):
    ch = g.state.challenge
    if ch is None or ch.ended or g.defn(cid).cost is None:
        return False
    return g.defn(cid).cost <= len(ch.attackers) + len(ch.defenders)


# --- issue 24 (CCG Five Kings Edition, part 6) ---

@filter_key("nearest_top", FilterSchema(form="FILTER"), "in a pile (`from:`), the card nearest the top of its "
            "owner's pile among those that match the filter (Sea God's Grotto: \"the character closest to the top of "
            "an opponent's discard pile\")",
            phrase=lambda v, r: r.post("nearest the top of its pile"))
def _nearest_top(g, cid, want, ctx):
    c = g.card(cid)
    if c.zone not in ("discard", "dead", "deck", "hand", "used_plots", "plot_deck"):
        return False
    pile = g.player(c.owner).pile(c.zone)
    order = pile if c.zone == "deck" else reversed(pile)  # the deck lists its top first, the other piles last
    return next((x for x in order if matches(g, x, dict(want), ctx)), None) == cid
from engine.abilities.registry import FROM  # noqa: E402


@filter_key("cost_max_count", FilterSchema({"from": FROM}, form="FILTER"), "printed cost no higher than the number "
            "of cards that match the filter (in play, or in your pile that `from:` names: Euron's Servant, \"X is "
            "the number of Doomed cards in your dead pile\")",
            phrase=lambda v, r: r.post("with printed cost X or lower, where X is the number of "
                                       + r.filter(v, article_="", plural=True)))
def _cost_max_count(g, cid, want, ctx):  # issue 24
    return g.defn(cid).cost is not None and g.defn(cid).cost <= len(candidates(g, dict(want), ctx))


# --- issue 24 (Five Kings Edition, fk5) ---

@filter_key("first_marshalled", TrueOnly(), "its owner has marshalled no card of its type this phase (a card in "
                                            "hand: it would be his first; duplicates do not count): Viserys "
                                            "Targaryen's agenda, \"the first attachment each player plays\"",
            phrase=lambda v, r: r.post("that would be the first of its type its owner marshals this phase"))
def _first_marshalled(g, cid, want, ctx):
    c = g.card(cid)
    return not g.state.counters.get(f"marshalled:{g.state.phase_serial}:{c.owner}:{g.card_type(cid)}")

# --- issue 24 (A Song of Night, part 2) ---

@filter_key("printed_strength_max", Int(minimum=None), "printed STR N or less (the card's own, whatever changes its "
                                                       "current STR; the Stalwart cycle)",
            phrase=lambda v, r: r.post(f"with printed STR {v} or lower"))
def _printed_strength_max(g, cid, want, ctx):
    return (g.defn(cid).strength or 0) <= want


@filter_key("printed_strength_min", Int(minimum=None), "printed STR N or more",
            phrase=lambda v, r: r.post(f"with printed STR {v} or higher"))
def _printed_strength_min(g, cid, want, ctx):
    return (g.defn(cid).strength or 0) >= want


@filter_key("strength_highest", TrueOnly(), "a character with the highest current STR in play (no character in "
                                            "play has more; ties all match)",
            phrase=lambda v, r: r.post("with the highest STR in play"))
def _strength_highest(g, cid, want, ctx):
    mine = g.strength(cid)
    return g.card_type(cid) == "character" and all(g.strength(c) <= mine for c in in_play_of_type(g, "character"))


@filter_key("strength_lowest", TrueOnly(), "a character with the lowest current STR in play (no character in play "
                                           "has less; ties all match)",
            phrase=lambda v, r: r.post("with the lowest STR in play"))
def _strength_lowest(g, cid, want, ctx):
    mine = g.strength(cid)
    return g.card_type(cid) == "character" and all(g.strength(c) >= mine for c in in_play_of_type(g, "character"))


def dead_strength(g: Game, player: str) -> int:
    """The total STR in the player's dead pile: the printed STR of the cards in it (A Song of Night's Battlefields
    and Stalwarts: "4 or more total STR in your dead pile")."""
    return sum(g.defn(c).strength or 0 for c in g.player(player).dead)


@filter_key("strength_below_dead_strength", TrueOnly(), "current STR lower than the total STR in your dead pile (the "
                                                        "printed STR of its cards: Dreadfort Captain)",
            phrase=lambda v, r: r.post("with STR lower than the total STR in your dead pile"))
def _strength_below_dead_strength(g, cid, want, ctx):
    return g.strength(cid) < dead_strength(g, ctx.player)


@filter_key("icons_max", Int(), "has N challenge icons or fewer now (\"fewer than 2 icons\" is `icons_max: 1`)",
            phrase=lambda v, r: r.post(f"with {v} or fewer challenge icons" if v != 1 else "with 1 challenge icon or "
                                                                                            "none"))
def _icons_max(g, cid, want, ctx):
    return len(g.icons(cid)) <= want


@filter_key("controller_dead_strength_min", Int(), "controlled (a card in a pile or a hand: owned) by a player with N "
                                                   "or more total STR in his dead pile",
            phrase=lambda v, r: r.post(f"whose controller has {v} or more total STR in their dead pile"))
def _controller_dead_strength_min(g, cid, want, ctx):
    return dead_strength(g, g.card(cid).controller) >= want


@filter_key("controller_dead_strength_max", Int(), "controlled (a card in a pile or a hand: owned) by a player with N "
                                                   "or less total STR in his dead pile",
            phrase=lambda v, r: r.post(f"of a player with {v} or less total STR in their dead pile"))
def _controller_dead_strength_max(g, cid, want, ctx):
    return dead_strength(g, g.card(cid).controller) <= want
# --- issue 24 (CCG A House of Talons) additions ---

@filter_key("printed_icon", Words(*ICONS), "has the challenge icon printed on it (gained icons do not count; "
                                           "Hallowed Ground: \"if it has a printed power icon\")",
            phrase=lambda v, r: r.post(f"with a printed {v} icon"))
def _printed_icon(g, cid, want, ctx):
    return want in (g.defn(cid).icons or ())


@filter_key("houses_min", Int(minimum=2), "of N Houses or more (a card with several House shields: Conflicted "
                                          "Conscience, \"a character with the crests of more than 1 House\")",
            phrase=lambda v, r: r.post(f"of {v} or more Houses"))
def _houses_min(g, cid, want, ctx):
    return len(g.defn(cid).house or ()) >= want


# --- issue 24 (A House of Thorns) ---

@filter_key("printed_trait", OneOrList(Text("TRAIT")), "has the trait (any of a list) printed on it; a gained trait "
            "does not count (Margaery Tyrell)",
            phrase=lambda v, r: r.post("with the printed trait " + " or ".join([v] if isinstance(v, str) else v)))
def _printed_trait(g, cid, want, ctx):
    return any(t in g.defn(cid).traits for t in _listed(want))


@filter_key("icons_min", Int(minimum=1), "has N or more challenge icons now (issue 24: Student of the Viper, "
            "`not: {icons_min: 2}`: fewer than two)",
            phrase=lambda v, r: r.post(f"with {v} or more challenge icons"))
def _icons_min(g, cid, want, ctx):
    return len(g.icons(cid)) >= int(want)
