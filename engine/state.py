"""Game state: plain data with integer card ids, fully serialisable.

Zones are lists on the player who owns the pile (deck, hand, discard, dead,
plot deck, used plots) or controls the card (``in_play``). Attachments and
duplicates sit on their host's lists. ``CardInstance.zone`` mirrors where the
card is; the fuzz test checks the two always agree (every card in exactly one
place).

Moribund is a mark on a card, not a zone (MOR-01): ``CardInstance.moribund``
holds the pending destination while the card is still in play.
"""
from __future__ import annotations

import hashlib
import json
import random
from dataclasses import asdict, dataclass, field, fields
from typing import Any

class Version:
    """A counter bumped by every change to any game state object (``Tracked`` fields, their lists and
    dicts): derived values are cached against it (``engine.derived``) instead of rescanning the table.
    One counter for the process: a change in any game invalidates every cache, never the reverse."""

    n = 0
    s = 0
    """The structure's counter: bumped, with ``n``, only by changes to what decides where cards are and
    what they are (zones, controllers, attachments, facedown, lasting effects, grants, entering or
    leaving setup: the fields a class names in ``_structural``). Kneeling, power, gold, the challenge,
    the phase (``GameState.__setattr__``)... leave it alone."""


def memo(owner: dict) -> dict:
    """``owner``'s table of derived values for the current state version (a fresh one after any
    change): ``owner`` is a game's ``__dict__``."""
    m = owner.get("_memo")
    if m is None or m[0] != Version.n:
        m = owner["_memo"] = (Version.n, {})
    return m[1]


def smemo(owner: dict, state: Any) -> dict:
    """``owner``'s table of values that read only the structure (``Version.s``) of ``state``: kept
    while no card moves, changes type or controller, and no lasting effect or grant comes or goes."""
    m = owner.get("_smemo")
    if m is None or m[0] != Version.s or m[1] is not state:
        m = owner["_smemo"] = (Version.s, state, {})
    return m[2]


TEXT_ZONES = ("in_play", "attached", "house", "agenda", "revealed_plot")
"""Where a card's text works (its constants, its restrictions): in play, attached, a House card, an agenda,
a revealed plot."""


def face_up_in_text_zones(owner: dict, state: Any) -> list:
    """(id, card) of every face-up card in ``TEXT_ZONES``, in id order: found once per structure
    (``smemo``), so the checks that look for cards whose text works walk these, not every card.
    Cards in those zones are in play, attached to a card in play or to a House card, or a player's
    House card, agenda or revealed plot (``engine.invariants``)."""
    table = smemo(owner, state)
    found = table.get("face_up_in_text_zones")
    if found is None:  # read from the players' lists, not by walking every card of every deck
        cards = state.cards
        ids = []
        for p in state.players:
            for cid in p.in_play:
                ids.append(cid)
                ids.extend(cards[cid].attachments)
            if p.house_card is not None:
                ids.append(p.house_card)
                ids.extend(cards[p.house_card].attachments)
            ids += [c for c in (p.agenda, p.revealed_plot) if c is not None]
        found = table["face_up_in_text_zones"] = [
            (cid, cards[cid]) for cid in sorted(set(ids))
            if cards[cid].zone in TEXT_ZONES and not cards[cid].facedown]
    return found


def effects_on(owner: dict, state: Any, target: int, stat: str) -> list:
    """The lasting effects on card ``target`` for ``stat`` (``Effect.stat``), in the order they were
    created: from an index built once per structure (effects are structure), so a long game with
    many effects does not walk them all at every read."""
    effects = state.effects
    if not effects:
        return []
    held = owner.get("_effects_index")
    if held is None or held[0] != Version.s or held[1] is not state:
        index: dict = {}
        for e in effects:
            index.setdefault((e.target, e.stat), []).append(e)
        held = owner["_effects_index"] = (Version.s, state, index)
    return held[2].get((target, stat), _NO_EFFECTS)


_NO_EFFECTS: list = []  # shared, never changed: callers only read it


def cards_on_the_table(owner: dict, state: Any) -> list[int]:
    """Every card in play, with its attachments and duplicates, the House cards with theirs, and the
    events being played: the cards that can carry marks (moribund, kneeling, power, tokens). Found
    once per structure (``smemo``)."""
    table = smemo(owner, state)
    found = table.get("cards_on_the_table")
    if found is None:
        cards = state.cards
        found = []
        for p in state.players:
            for cid in list(p.in_play) + ([p.house_card] if p.house_card is not None else []):
                found.append(cid)
                found.extend(cards[cid].attachments)
                found.extend(cards[cid].duplicates)
            found.extend(p.played)
        table["cards_on_the_table"] = found
    return found


class TList(list):
    """A list that bumps ``Version`` whenever it changes."""

    __slots__ = ()

    def append(self, x):
        list.append(self, x); Version.n += 1

    def extend(self, xs):
        list.extend(self, xs); Version.n += 1

    def insert(self, i, x):
        list.insert(self, i, x); Version.n += 1

    def remove(self, x):
        list.remove(self, x); Version.n += 1

    def pop(self, *a):
        Version.n += 1
        return list.pop(self, *a)

    def clear(self):
        if self:
            list.clear(self); Version.n += 1

    def sort(self, *a, **kw):
        list.sort(self, *a, **kw); Version.n += 1

    def reverse(self):
        list.reverse(self); Version.n += 1

    def __setitem__(self, i, x):
        list.__setitem__(self, i, x); Version.n += 1

    def __delitem__(self, i):
        list.__delitem__(self, i); Version.n += 1

    def __iadd__(self, xs):
        Version.n += 1
        return list.__iadd__(self, xs)

    def __imul__(self, k):
        Version.n += 1
        return list.__imul__(self, k)


class TDict(dict):
    """A dict that bumps ``Version`` whenever it changes."""

    __slots__ = ()

    def __setitem__(self, k, v):
        dict.__setitem__(self, k, v); Version.n += 1

    def __delitem__(self, k):
        dict.__delitem__(self, k); Version.n += 1

    def pop(self, *a):
        Version.n += 1
        return dict.pop(self, *a)

    def popitem(self):
        Version.n += 1
        return dict.popitem(self)

    def clear(self):
        dict.clear(self); Version.n += 1

    def update(self, *a, **kw):
        dict.update(self, *a, **kw); Version.n += 1

    def setdefault(self, k, v=None):
        Version.n += 1
        return dict.setdefault(self, k, v)

    def __ior__(self, other):
        Version.n += 1
        return dict.__ior__(self, other)


def _bumping_structure(cls: type, base: type, names: tuple[str, ...]) -> type:
    for name in names:
        def method(self, *a, _f=getattr(base, name), **kw):
            Version.s += 1
            return _f(self, *a, **kw)
        method.__name__ = name
        setattr(cls, name, method)
    return cls


class SList(TList):
    """A ``TList`` of the structure: a change bumps ``Version.s`` too."""

    __slots__ = ()


class SDict(TDict):
    """A ``TDict`` of the structure: a change bumps ``Version.s`` too."""

    __slots__ = ()


_bumping_structure(SList, TList, ("append", "extend", "insert", "remove", "pop", "clear", "sort", "reverse",
                                  "__setitem__", "__delitem__", "__iadd__", "__imul__"))
_bumping_structure(SDict, TDict, ("__setitem__", "__delitem__", "pop", "popitem", "clear", "update",
                                  "setdefault", "__ior__"))


class Tracked:
    """Base of the state's dataclasses: setting a field bumps ``Version``; list and dict values are
    kept as ``TList``/``TDict`` so changes inside them count too. The log and the action windows are
    not tracked: no derived value reads them (``Window`` is a plain dataclass)."""

    __slots__ = ()
    _untracked: frozenset = frozenset()
    _structural: frozenset = frozenset()

    def __setattr__(self, name, value):
        t = type(value)
        if name in self._structural:
            if t is list or t is TList:
                value = SList(value)
            elif t is dict or t is TDict:
                value = SDict(value)
            old = self.__dict__.get(name, _UNSET)
            object.__setattr__(self, name, value)
            if old is not value and not (type(old) is type(value) and old == value):
                Version.n += 1
                Version.s += 1
            return
        if t is list and name not in self._untracked:
            value = TList(value)
        elif t is dict:
            value = TDict(value)
        old = self.__dict__.get(name, _UNSET)
        object.__setattr__(self, name, value)
        if old is not value and not (type(old) is type(value) and old == value):
            Version.n += 1  # setting a field to what it already holds changes nothing


_UNSET = object()


PHASES = ("setup", "plot", "draw", "marshalling", "challenges", "dominance", "standing", "taxation")
CHALLENGE_TYPES = ("military", "intrigue", "power")

# Zones a card instance can be in.
PILE_ZONES = ("deck", "hand", "discard", "dead", "plot_deck", "used_plots")
ZONES = PILE_ZONES + ("in_play", "attached", "duplicate", "revealed_plot", "house", "agenda", "played")
"""``played``: an event card being played, moribund until step 6 of its window (MOR-05)."""


@dataclass
class CardInstance(Tracked):
    """One physical card in this game. ``key`` names its definition in the game's pool."""

    id: int
    key: str
    owner: str
    controller: str
    zone: str
    kneeling: bool = False
    power: int = 0
    attached_to: int | None = None
    attachments: list[int] = field(default_factory=list)
    duplicates: list[int] = field(default_factory=list)
    facedown: bool = False
    moribund: str | None = None
    """Pending destination while moribund: dead, discard, hand, deck_top, deck_bottom, deck_shuffled."""
    x: int = 0
    """The value of X fixed when it was played (COS-09)."""
    label: str | None = None
    """A scenario ``id`` naming this very card."""
    tokens: dict[str, int] = field(default_factory=dict)
    """Named tokens put on the card by hand (card text by hand, ``engine.manual``)."""
    note: str = ""
    """A note written on the card by hand."""

    _structural = frozenset({"id", "key", "owner", "controller", "zone", "attached_to", "attachments",
                             "duplicates", "facedown"})


@dataclass
class Player(Tracked):
    name: str
    house: str
    """The House (lower case); ``neutral`` when the House card names none."""
    deck: list[int] = field(default_factory=list)        # top first
    hand: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)     # bottom first
    dead: list[int] = field(default_factory=list)        # bottom first
    plot_deck: list[int] = field(default_factory=list)
    used_plots: list[int] = field(default_factory=list)
    revealed_plot: int | None = None
    in_play: list[int] = field(default_factory=list)     # characters, locations, unattached cards
    played: list[int] = field(default_factory=list)      # events being played (moribund, MOR-05)
    house_card: int | None = None
    agenda: int | None = None
    gold: int = 0
    drawn_this_round: int = 0
    limited_played: bool = False
    extra_limited_played: bool = False
    """An additional Limited card was played this round (``allows: [extra_limited_location]``: Taxation;
    ``[extra_limited]``: Arianne's Admirer)."""
    challenges_made: list[str] = field(default_factory=list)
    challenges_won: list[str] = field(default_factory=list)
    """The types of the challenges this player has won this phase (attacking or defending)."""
    eliminated: bool = False

    _structural = frozenset({"name", "house", "hand", "discard", "dead", "in_play", "played", "revealed_plot",
                             "house_card", "agenda", "eliminated"})

    def pile(self, zone: str) -> list[int]:
        return getattr(self, zone)


@dataclass
class Challenge(Tracked):
    """The challenge in progress (or the last one)."""

    type: str
    attacker: str
    defender: str
    attackers: list[int] = field(default_factory=list)
    defenders: list[int] = field(default_factory=list)
    stealth: dict[int, int] = field(default_factory=dict)
    attacker_strength: int = 0
    defender_strength: int = 0
    winner: str | None = None
    unopposed: bool = False
    resolved: bool = False
    ended: bool = False


@dataclass
class Effect(Tracked):
    """A lasting effect: a modifier on a card until a point in time (LST-01..05)."""

    target: int
    stat: str          # strength, icon+, icon-, keyword+, keyword-, trait+, trait-
    value: Any
    until: str         # challenge, phase, round, game
    source: int | None = None

    _structural = frozenset({"target", "stat", "value", "until", "source"})


@dataclass
class Window:
    """An open action window (TIM-05): player, framework, or end-of-phase."""

    kind: str            # player | framework | end_of_phase
    name: str
    initiator: str | None
    step: int = 1
    gates: list[dict] = field(default_factory=list)
    """Response opportunities opened in this window (TIM-08)."""
    used: list[str] = field(default_factory=list)
    """Responses already resolved for a gate: once per triggering occurrence (TIM-12)."""
    scanned: int = 0
    """Gates already checked for passive abilities."""


@dataclass
class GameState(Tracked):
    players: list[Player]
    cards: dict[int, CardInstance]
    seed: int = 0
    ruleset: str = "lcg"
    round: int = 1
    phase: str = "setup"
    first_player: str | None = None
    active_player: str | None = None
    challenge: Challenge | None = None
    effects: list[Effect] = field(default_factory=list)
    windows: list[Window] = field(default_factory=list)
    winner: str | None = None
    """A player's name, ``draw``, or None while the game goes on."""
    log: list[str] = field(default_factory=list)
    rng_state: Any = None
    next_id: int = 1
    phase_serial: int = 0
    challenge_serial: int = 0
    counters: dict[str, int] = field(default_factory=dict)
    reducers: list[dict] = field(default_factory=list)
    """Cost reductions waiting for the next card: {player, amount, filter, until, source} (COS-12)."""
    shuffle: bool = True
    """Decks are shuffled where the rules shuffle (searches); a scenario with ``shuffle: false``
    keeps its decks in the listed order."""
    revealed: list[int] = field(default_factory=list)
    """Cards revealed to every seat by hand until the action window closes (``engine.manual``)."""
    looking: list[dict] = field(default_factory=list)
    """Seats looking at the top of a deck by hand until the window closes: {player, deck, count}."""
    granted: list[dict] = field(default_factory=list)
    """Abilities enabled for a while by a card's own effect: {card, ability, player, until} (EFF-04)."""
    """Uses of limited abilities (``Limit N per phase``), keyed by card, ability and period."""
    plot_swaps: list[list[str]] = field(default_factory=list)
    """Pairs of players who switched plot decks and used piles until the end of the round (Varys), in
    the order the switches happened (``plot_holder``)."""

    _untracked = frozenset({"log", "windows"})
    _structural = frozenset({"players", "cards", "effects", "granted"})
    """The phase is not structure: a value that reads it says so (``engine.abilities.reads.PHASE``),
    and the indexes kept per structure outlive the eight phases of a round. Entering or leaving setup
    moves the structure: a facedown attachment is blank outside setup only (ATT-04)."""

    def __setattr__(self, name, value):
        if name == "phase":
            old = self.__dict__.get("phase", _UNSET)
            object.__setattr__(self, name, value)
            if old != value:
                Version.n += 1
                if old is _UNSET or "setup" in (old, value):
                    Version.s += 1
            return
        Tracked.__setattr__(self, name, value)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)
        if self.rng_state is not None:
            self._rng.setstate(_tuplify(self.rng_state))

    # -- lookups -------------------------------------------------------
    @property
    def rng(self) -> random.Random:
        """The game's one random generator (shuffles, random discards, ties)."""
        return self._rng

    def player(self, name: str) -> Player:
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)

    def card(self, card_id: int) -> CardInstance:
        return self.cards[card_id]

    @property
    def player_names(self) -> list[str]:
        return [p.name for p in self.players]

    def clockwise_from(self, name: str) -> list[str]:
        """Seat order starting with ``name`` (GEN-07), skipping eliminated players."""
        players = self.players
        i = [p.name for p in players].index(name)
        return [p.name for p in players[i:] + players[:i] if not p.eliminated]

    def plot_holder(self, name: str) -> str:
        """The player whose plot deck and used pile ``name`` uses as his own now: himself, unless an
        effect switched them with another player's (``plot_swaps``, until the end of the round)."""
        holds = {p.name: p.name for p in self.players}
        for a, b in self.plot_swaps:
            holds[a], holds[b] = holds[b], holds[a]
        return holds.get(name, name)

    def plot_users(self, holder: str) -> list[str]:
        """The players who use ``holder``'s plot deck and used pile now (empty when nobody does)."""
        return [p.name for p in self.players if self.plot_holder(p.name) == holder]

    def left_of(self, name: str) -> str:
        order = self.clockwise_from(name)
        return order[1] if len(order) > 1 else order[0]

    @property
    def window(self) -> Window | None:
        return self.windows[-1] if self.windows else None

    # -- serialisation --------------------------------------------------
    def to_dict(self) -> dict:
        data = {
            "players": [asdict(p) for p in self.players],
            "cards": {str(k): _card_dict(v) for k, v in sorted(self.cards.items())},
            "seed": self.seed, "ruleset": self.ruleset, "round": self.round, "phase": self.phase,
            "first_player": self.first_player, "active_player": self.active_player,
            "challenge": asdict(self.challenge) if self.challenge else None,
            "effects": [asdict(e) for e in self.effects],
            "windows": [asdict(w) for w in self.windows],
            "winner": self.winner, "log": list(self.log),
            "rng_state": _listify(self._rng.getstate()), "next_id": self.next_id,
            "phase_serial": self.phase_serial, "challenge_serial": self.challenge_serial,
            "counters": dict(self.counters), "granted": [dict(x) for x in self.granted],
            "shuffle": self.shuffle, "reducers": [dict(r) for r in self.reducers],
        }
        if self.plot_swaps:  # absent when empty: older saves keep their digests
            data["plot_swaps"] = [list(x) for x in self.plot_swaps]
        if self.revealed or self.looking:  # absent when empty: older saves keep their digests
            data["revealed"], data["looking"] = list(self.revealed), [dict(x) for x in self.looking]
        if data["challenge"]:
            data["challenge"]["stealth"] = {str(k): v for k, v in self.challenge.stealth.items()}
        return data

    @classmethod
    def from_dict(cls, data: dict) -> "GameState":
        ch = data.get("challenge")
        challenge = None
        if ch:
            ch = dict(ch)
            ch["stealth"] = {int(k): v for k, v in ch.get("stealth", {}).items()}
            challenge = Challenge(**ch)
        return cls(
            players=[Player(**p) for p in data["players"]],
            cards={int(k): CardInstance(**v) for k, v in data["cards"].items()},
            seed=data["seed"], ruleset=data["ruleset"], round=data["round"], phase=data["phase"],
            first_player=data["first_player"], active_player=data["active_player"],
            challenge=challenge, effects=[Effect(**e) for e in data["effects"]],
            windows=[Window(**w) for w in data["windows"]], winner=data["winner"],
            log=list(data["log"]), rng_state=data["rng_state"], next_id=data["next_id"],
            phase_serial=data.get("phase_serial", 0), challenge_serial=data.get("challenge_serial", 0),
            counters=dict(data.get("counters", {})), granted=[dict(x) for x in data.get("granted", [])],
            shuffle=data.get("shuffle", True), reducers=[dict(r) for r in data.get("reducers", [])],
            revealed=list(data.get("revealed", [])),
            plot_swaps=[list(x) for x in data.get("plot_swaps", [])], looking=[dict(x) for x in data.get("looking", [])],
        )

    def digest(self) -> str:
        """A hash of the whole state: equal states, equal digests (replays are checked with it)."""
        blob = json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()


_CARD_FIELDS = tuple(f.name for f in fields(CardInstance))


def _card_dict(c: CardInstance) -> dict:
    """A card as plain data (what ``asdict`` gives, ten times faster: a card's values are plain);
    tokens and notes only when present (older saves keep their digests)."""
    d = {}
    for name in _CARD_FIELDS:
        v = getattr(c, name)
        d[name] = list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict) else v
    if not d["tokens"]:
        del d["tokens"]
    if not d["note"]:
        del d["note"]
    return d


def _listify(obj: Any) -> Any:
    if isinstance(obj, tuple):
        return [_listify(x) for x in obj]
    return obj


def _tuplify(obj: Any) -> Any:
    if isinstance(obj, list):
        return tuple(_tuplify(x) for x in obj)
    return obj
