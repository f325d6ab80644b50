"""Scenario files, format 1 (../shared/spec/scenario-format.md): load, build, run.

    python -m engine.scenario PATH... [--verbose]

prints ``PASS <path>`` or ``FAIL <path>: step <n>: <reason>`` per file and ends
with ``<N> passed, <M> failed``; the exit status is 0 only when none fails.
A scenario whose ``pool:`` cards need card data that is absent prints
``SKIP <path>: <reason>``; it is not a failure, and the last line then adds
``, <K> skipped``.
Problems in the file itself (unknown key, undefined or ambiguous card,
malformed value) fail it with the step and key named; ``step 0`` means the
part before the steps (``cards`` or ``start``).
"""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cards.errors import DataError, clip
from cards.files import run_command, tolerant_console
from cards.model import CardDef
from cards.yamlio import load_yaml_file
from engine import triggers
from engine.abilities import parse_abilities
from engine.builder import StateBuilder
from engine.decisions import COMMANDS_FOR_KIND, Decision, GameOver, Refused, name_problem, shown
from engine.explain import RULES
from engine.game import Game, Options
from engine.state import PHASES
from engine.wording import article

MAX_ROUNDS = 50
MAX_DECISIONS = 100_000

TOP_KEYS = {"format", "title", "description", "rules", "ruleset", "seed", "cards", "start", "steps",
            "tutorial"}
TUTORIAL_KEYS = {"learner", "order", "outro"}
"""The project's tutorial extension (docs/tutorials.md): a top-level ``tutorial`` mapping, and keys
beside a step's one key. The test runner ignores both."""
TUTORIAL_STEP_KEYS = {"ask", "hint", "rule", "at"}
START_KEYS = {"round", "phase", "first_player", "shuffle", "players"}
PLAYER_KEYS = {"house", "house_kneeling", "house_attachments", "agenda", "house_power", "gold",
               "revealed_plot", "plot_deck", "used_plots", "hand", "deck", "discard", "dead", "in_play",
               "drawn_this_round", "limited_played"}
ENTRY_KEYS = {"card", "id", "owner", "controller", "kneeling", "power", "attachments", "duplicates", "facedown",
              "gold_tokens"}
STEP_KEYS = {"until", "expect", "say"}
COMMAND_KEYS = {
    "plot": set(), "first_player": set(), "setup": {"attach", "duplicates"},
    "marshal": {"duplicate", "attach_to", "x", "gold_tokens", "penalty"}, "challenge": {"against", "attackers"}, "stealth": set(),
    "defend": set(), "choose": set(), "order": set(),
    "trigger": {"ability", "targets", "pay", "x", "gate_card", "gold_tokens"},
    "duplicate_save": set(),
    # card text by hand (engine/manual.py): an extension of the scenario format
    "by_hand": {"paragraph", "cost", "targets", "removes", "save", "cancel", "gate"},
    "tool": {"card", "amount", "player", "count", "pick", "to", "from", "bottom", "attach_to", "strength",
             "add_icons", "remove_icons", "add_keywords", "remove_keywords", "blank", "until", "name", "text"},
    "resolve": set(),
}
EXPECT_KEYS = {"round", "phase", "first_player", "active_player", "winner", "eliminated", "power", "house_power",
               "card_power", "gold", "initiative", "hand_size", "deck_size", "discard_size", "dead_size",
               "drawn_this_round", "limited_played", "zone", "kneeling", "strength", "icons", "keywords", "traits",
               "type", "owner", "controller", "attached_to", "duplicates", "challenge", "window_step", "log",
               "gold_tokens", "plot_deck_of"}
CHALLENGE_KEYS = {"type", "attacker", "defender", "attackers", "defenders", "winner", "unopposed"}
DESTINATIONS = {"dead", "discard", "hand", "deck"}
CHOICE_WORD = re.compile(r"^[a-z][a-z_]*$")
ZONE_NAMES = {"in_play", "attached", "moribund", "hand", "deck", "discard", "dead", "plot_deck", "used_plots",
              "revealed_plot", "agenda", "removed"}
"""``agenda``: the card lies on its owner's House card as his agenda (issue 24: a Five Kings agenda character);
``removed``: the card is removed from the game (issue 24: Eddard Stark of the Five Kings Edition)."""


MAX_PILE = 1000
"""The most cards a scenario may list in one pile (a hand, a deck, in play ...) of one player."""
MAX_CARDS = 5000
"""The most cards a scenario may create in all."""
MAX_DUPLICATES = 10
MAX_NUMBER = 1_000_000
"""The largest gold, power, round ... a scenario may give."""


class ScenarioError(Exception):
    """A problem in the scenario file or a failed check: ``step`` 0 is the part before the steps."""

    def __init__(self, step: int, reason: str):
        self.step = step
        self.reason = reason
        super().__init__(f"step {step}: {reason}")


class ScenarioSkipped(ScenarioError):
    """The scenario needs card data that is not here (a ``pool:`` card): it is skipped, not failed."""


LCG_JSON_ENV = "MAESTER_LCG_JSON"
"""Where the community LCG card data is (default: ``../shared/data/agot1-lcg-cards.json`` beside
the project); ``pool:`` entries of a scenario's ``cards`` are read from it."""
_lcg_pools: dict[str, tuple[tuple, Any]] = {}


def lcg_json_path() -> Path:
    import os

    env = os.environ.get(LCG_JSON_ENV)
    if env:
        return Path(env).expanduser()
    return Path(__file__).resolve().parents[1].parent / "shared" / "data" / "agot1-lcg-cards.json"


AGOTDB_MDB_ENV = "MAESTER_AGOTDB_MDB"
"""Where AGoTDB's French database is (default: ``../shared/data/agotdb/AGoT - FR.mdb`` beside the
project); ``pool:`` entries with an ``agotdb_`` key are read from it."""


def agotdb_mdb_path() -> Path:
    import os

    env = os.environ.get(AGOTDB_MDB_ENV)
    if env:
        return Path(env).expanduser()
    return Path(__file__).resolve().parents[1].parent / "shared" / "data" / "agotdb" / "AGoT - FR.mdb"


def pool_card(key: str) -> tuple[CardDef | None, str]:
    """A card of the imported card data by its pool key (``core_108``, ``agotdb_105027``), with the
    project's ability data on it: from the LCG JSON (or, for an ``agotdb_`` key, AGoTDB's French
    database), imported fresh (cached per file version), else from the user's imported pool.
    (None, why) when neither has it."""
    from cards.pool import imported_pool, load_pool

    path = agotdb_mdb_path() if key.startswith("agotdb_") else lcg_json_path()
    tried = []
    if path.is_file():
        st = path.stat()
        sig = (str(path), st.st_mtime_ns, st.st_size)
        if _lcg_pools.get(str(path), (None,))[0] != sig:  # one version kept per file
            _lcg_pools[str(path)] = (sig, load_pool(path))
        found = _lcg_pools[str(path)][1].get(key)
        if found is not None:
            return found, ""
        tried.append(f"{path} has no card '{key}'")
    else:
        tried.append(f"{path} is not present")
    try:
        cached = imported_pool()
    except DataError as err:
        cached = None
        tried.append(f"the imported card pool is unreadable ({err.message})")
    if cached is not None and cached.get(key) is not None:
        return cached.get(key), ""
    if cached is None:
        tried.append("no card data has been imported (python -m cards.pool import FILE)")
    else:
        tried.append(f"the imported card pool has no card '{key}'")
    return None, "; ".join(tried)


@dataclass
class Step:
    number: int
    kind: str                 # command | until | expect | say
    player: str | None = None
    command: Any = None       # normalised engine answer (card ids) for commands
    rejected: str | None = None
    value: Any = None         # the condition / expectations / narration
    line: int | None = None
    tutorial: dict = field(default_factory=dict)
    """Tutorial keys beside the step's key (ask, hint, rule, at): docs/tutorials.md."""
    first_ability: bool = False
    """A ``trigger`` that names no ``ability``: the card's first one that can be triggered (``step_command``)."""


@dataclass
class Scenario:
    path: str
    title: str
    description: str = ""
    rules: list[str] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    game: Game | None = None
    labels: dict[str, int] = field(default_factory=dict)
    """Card references: scenario ``id`` labels and unambiguous names, to instance ids."""
    tutorial: dict = field(default_factory=dict)
    """The top-level ``tutorial`` mapping (learner, order, outro): docs/tutorials.md."""


# ---------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------

def _where(mapping: Any, key: Any) -> str:
    line = mapping.line_of(key) if hasattr(mapping, "line_of") else None
    return f" (line {line})" if line else ""


def _check_keys(mapping: Any, allowed: set, step: int, what: str) -> None:
    if not isinstance(mapping, dict):
        raise ScenarioError(step, f"{what}: expected a mapping, got {type(mapping).__name__}")
    for key in mapping:
        if key not in allowed:
            raise ScenarioError(step, f"{what}: unknown key '{key}'{_where(mapping, key)}; "
                                      f"known keys: {', '.join(sorted(allowed))}")


class _Loader:
    def __init__(self, path: str, data: dict):
        self.path = path
        self.data = data
        self.defs: dict[str, CardDef] = {}
        self.defs_by_name: dict[str, list[CardDef]] = {}
        self.labels: dict[str, int] = {}
        self._db = None

    # -- cards -----------------------------------------------------------------
    def load_cards(self) -> None:
        from cards.schema import card_from_mapping

        cards = self.data.get("cards") or []
        if not isinstance(cards, list):
            raise ScenarioError(0, "cards: expected a list of card definitions")
        for i, m in enumerate(cards):
            if isinstance(m, dict) and "pool" in m:
                d = self._pool_entry(m, i)
                if d.key in self.defs:
                    raise ScenarioError(0, f"cards[{i + 1}]: the card '{d.key}' is listed twice")
                self.defs[d.key] = d
                self.defs_by_name.setdefault(d.name, []).append(d)
                continue
            try:
                d = card_from_mapping(m, file=self.path)
            except DataError as err:
                raise ScenarioError(0, f"cards[{i + 1}]: {err.field + ': ' if err.field else ''}{err.message}"
                                       f"{' (line ' + str(err.line) + ')' if err.line else ''}") from None
            if d.key in self.defs:
                raise ScenarioError(0, f"cards[{i + 1}]: two definitions use the key '{d.key}'; give one a "
                                       f"different 'key'")
            self._check_abilities(d, i)
            self.defs[d.key] = d
            self.defs_by_name.setdefault(d.name, []).append(d)

    @staticmethod
    def _check_abilities(d: CardDef, i: int) -> None:
        """The card's abilities are checked as the file loads, not when the card is first used in play."""
        if not d.abilities:
            return
        try:
            parse_abilities(d.abilities, d.source)
        except DataError as err:  # the parser's FILE:LINE: FIELD: MESSAGE, then which card of the list
            line = f", line {err.line}" if err.line else ""
            raise ScenarioError(0, f"{err} — in cards[{i + 1}] ({d.name}){line}") from None

    def known_title(self, title: str) -> bool:
        """A card of that title is defined in 'cards' or known to the card database."""
        if title in self.defs_by_name or title in self.defs:
            return True
        try:
            self.card_def(title, "title")
        except ScenarioError:
            return False
        return True

    def _pool_entry(self, m: dict, i: int) -> CardDef:
        """``{pool: KEY}``: a card of the imported card data, by its key (an extension of format 1)."""
        extra = [k for k in m if k != "pool"]
        if extra:
            raise ScenarioError(0, f"cards[{i + 1}]: a pool entry takes only 'pool', not '{extra[0]}'"
                                   f"{_where(m, extra[0])}")
        key = m["pool"]
        if not isinstance(key, str) or not key:
            raise ScenarioError(0, f"cards[{i + 1}].pool: a card key such as core_108, got {key!r}")
        found, why = pool_card(key)
        if found is None:
            raise ScenarioSkipped(0, f"cards[{i + 1}]: card '{key}' needs the imported card data: {why}")
        return found

    def card_def(self, ref: Any, where: str) -> CardDef:
        if not isinstance(ref, str):
            raise ScenarioError(0, f"{where}: a card is named by a string, got {ref!r}")
        if ref in self.defs:
            return self.defs[ref]
        named = self.defs_by_name.get(ref, [])
        if len(named) > 1:
            raise ScenarioError(0, f"{where}: card '{ref}' is ambiguous: {len(named)} definitions share that "
                                   f"name; use a 'key'")
        if named:
            return named[0]
        if self._db is None:
            from cards.pool import default_pool

            self._db = default_pool()
        found = self._db.find(ref)
        if found is None:
            raise ScenarioError(0, f"{where}: card '{ref}' is not defined in 'cards' and not known to the card "
                                   f"database; define it under 'cards'")
        return found

    # -- the position ------------------------------------------------------------
    def build(self, options: Options) -> tuple[Game, dict[str, int]]:
        start = self.data.get("start")
        _check_keys(start, START_KEYS, 0, "start")
        players = start.get("players")
        if not isinstance(players, dict) or not 2 <= len(players) <= 4:
            raise ScenarioError(0, "start.players: a mapping of 2 to 4 players")
        for n in players:
            problem = name_problem(n)
            if problem:
                quote = "" if isinstance(n, str) else "; put the name in quotes"  # 1, null, true...
                raise ScenarioError(0, f"start.players: {problem}{_where(players, n)}{quote}")
        names = list(players)
        phase = start.get("phase", "setup")
        if phase not in PHASES:
            raise ScenarioError(0, f"start.phase: '{phase}' is not a phase; use one of {', '.join(PHASES)}")
        ruleset = self.data.get("ruleset", "lcg")
        if ruleset not in ("lcg", "ccg-winter"):
            raise ScenarioError(0, f"ruleset: '{ruleset}' is unknown; use lcg or ccg-winter")
        seed = self.data.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ScenarioError(0, "seed: must be a whole number")
        houses = {}
        for n in names:
            _check_keys(players[n], PLAYER_KEYS, 0, f"start.players.{n}")
            houses[n] = self._house_of(players[n].get("house"), f"start.players.{n}.house")
        b = StateBuilder(names, {n: h for n, (h, _) in houses.items()}, seed=seed, ruleset=ruleset)
        self.b = b
        st = b.state
        st.round = self._int(start, "round", 1, "start")
        st.phase = phase
        fp = start.get("first_player", names[0])
        if fp not in names:
            raise ScenarioError(0, f"start.first_player: '{fp}' is not a player")
        st.first_player = fp
        for n in names:
            self._player(n, players[n], houses[n][1], names)
        for d in self.defs.values():  # a card defined but not dealt can still be named ("name a card")
            b.pool.setdefault(d.key, d)
        shuffle = start.get("shuffle", False)
        if not isinstance(shuffle, bool):
            raise ScenarioError(0, f"start.shuffle: expected true or false, got {shuffle!r}")
        st.shuffle = shuffle  # decks are shuffled where the rules shuffle, and only then
        pool = dict(b.pool)
        game = Game(st, pool, options, start_phase=phase,
                    setup_spec={"scenario": self.path})
        return game, self.labels

    def _house_of(self, value: Any, where: str) -> tuple[str, CardDef | None]:
        from cards.model import HOUSES

        if value is None:
            raise ScenarioError(0, f"{where}: each player needs a house (a House name or a House card)")
        if isinstance(value, str) and value.lower() in HOUSES + ("neutral",):
            return value.lower(), None
        d = self.card_def(value, where)
        if d.type != "house":
            raise ScenarioError(0, f"{where}: '{value}' is {article(d.type)}, not a House card")
        return (d.house[0] if d.house else "neutral"), d

    def _int(self, m: dict, key: str, default: int, where: str, most: int = MAX_NUMBER) -> int:
        v = m.get(key, default)
        if not isinstance(v, int) or isinstance(v, bool) or v < 0 or v > most:
            shown = repr(v) if not isinstance(v, int) or abs(v) < 10 ** 12 else "a huge number"
            raise ScenarioError(0, f"{where}.{key}: expected a whole number from 0 to {most:,}, got {shown}")
        return v

    def _list(self, m: dict, key: str, where: str) -> list:
        v = m.get(key, [])
        if v is None:
            return []
        if not isinstance(v, list):
            raise ScenarioError(0, f"{where}.{key}: expected a list")
        if len(v) > MAX_PILE:
            raise ScenarioError(0, f"{where}.{key}: {len(v):,} cards; a scenario lists at most {MAX_PILE:,} "
                                   f"in one place")
        self.created = getattr(self, "created", 0) + len(v)
        if self.created > MAX_CARDS:
            raise ScenarioError(0, f"{where}.{key}: more than {MAX_CARDS:,} cards in all; a scenario holds at most "
                                   f"{MAX_CARDS:,}")
        return v

    def _player(self, name: str, m: dict, house_def: CardDef | None, names: list[str]) -> None:
        b, st = self.b, self.b.state
        where = f"start.players.{name}"
        p = st.player(name)
        hid = b.add_house_card(name, house_def)
        st.cards[hid].kneeling = bool(m.get("house_kneeling", False))
        st.cards[hid].power = self._int(m, "house_power", 0, where)
        self._label(house_def, hid, f"house:{name}")
        if house_def is not None:
            self._name_ref(house_def.name, hid)  # a House card given by its card name is named by it too
        for i, e in enumerate(self._list(m, "house_attachments", where)):
            self._entry(e, name, f"{where}.house_attachments[{i + 1}]", names, host=hid)
        if m.get("agenda") is not None:
            d = self.card_def(m["agenda"], f"{where}.agenda")
            p.agenda = b.new_card(d, name, "agenda")
            self._name_ref(d.name, p.agenda)
        p.gold = self._int(m, "gold", 0, where)
        p.drawn_this_round = self._int(m, "drawn_this_round", 0, where)
        p.limited_played = bool(m.get("limited_played", False))
        if m.get("revealed_plot") is not None:
            cid = self._pile_entry(m["revealed_plot"], name, "revealed_plot", f"{where}.revealed_plot")
            p.revealed_plot = cid
        for zone in ("plot_deck", "used_plots", "hand", "deck", "discard", "dead"):
            for i, e in enumerate(self._list(m, zone, where)):
                cid = self._pile_entry(e, name, zone, f"{where}.{zone}[{i + 1}]")
                p.pile(zone).append(cid)
        for i, e in enumerate(self._list(m, "in_play", where)):
            self._entry(e, name, f"{where}.in_play[{i + 1}]", names)

    def _label(self, d: CardDef | None, cid: int, label: str) -> None:
        self.labels[label] = cid

    def _name_ref(self, title: str, cid: int) -> None:
        # A name refers to a card only while exactly one card of that name exists (None = ambiguous).
        self.labels[f"name:{title}"] = None if f"name:{title}" in self.labels else cid

    def _pile_entry(self, e: Any, listed_under: str, zone: str, where: str) -> int:
        ref, extra = (e, {}) if not isinstance(e, dict) else (e.get("card"), e)
        if isinstance(e, dict):
            _check_keys(e, ENTRY_KEYS, 0, where)
            if ref is None:
                raise ScenarioError(0, f"{where}: a card entry needs 'card'")
        d = self.card_def(ref, where)
        for key in ("kneeling", "power", "attachments", "duplicates", "controller", "gold_tokens"):
            if key in extra:
                raise ScenarioError(0, f"{where}.{key}: only cards in play take '{key}'; this card is in "
                                       f"the {zone.replace('_', ' ')}")
        owner = extra.get("owner", listed_under)
        cid = self.b.new_card(d, owner, zone, facedown=bool(extra.get("facedown", False)))
        self._register(d, cid, extra, where)
        return cid

    def _register(self, d: CardDef, cid: int, extra: dict, where: str) -> None:
        self._name_ref(d.name, cid)
        label = extra.get("id")
        if label is not None and not isinstance(label, (str, int)) or isinstance(label, bool):
            raise ScenarioError(0, f"{where}.id: an id is a short name, got {label!r}")
        if label is not None:
            if str(label) in self.labels and not str(label).startswith("name:"):
                raise ScenarioError(0, f"{where}.id: the id '{label}' is used twice")
            self.labels[str(label)] = cid
        self.b.state.cards[cid].label = None if label is None else str(label)

    def _entry(self, e: Any, listed_under: str, where: str, names: list[str], host: int | None = None) -> int:
        st = self.b.state
        if isinstance(e, dict):
            _check_keys(e, ENTRY_KEYS, 0, where)
            if e.get("card") is None:
                raise ScenarioError(0, f"{where}: a card entry needs 'card'")
            ref, extra = e["card"], e
        else:
            ref, extra = e, {}
        d = self.card_def(ref, where)
        default_owner = st.cards[host].owner if host is not None else listed_under
        owner = extra.get("owner", default_owner)
        controller = extra.get("controller", owner)
        for who, key in ((owner, "owner"), (controller, "controller")):
            if who not in names:
                raise ScenarioError(0, f"{where}.{key}: '{who}' is not a player")
        cid = self.b.new_card(d, owner, "in_play", controller=controller,
                              kneeling=bool(extra.get("kneeling", False)),
                              power=self._int(extra, "power", 0, where),
                              facedown=bool(extra.get("facedown", False)))
        self._register(d, cid, extra, where)
        gold_tokens = self._int(extra, "gold_tokens", 0, where)
        if gold_tokens:
            st.cards[cid].tokens["gold"] = gold_tokens
        if host is not None:
            st.cards[cid].zone = "attached"
            st.cards[cid].attached_to = host
            st.cards[host].attachments.append(cid)
        else:
            st.player(controller).in_play.append(cid)
        for i, a in enumerate(self._list(extra, "attachments", where)):
            self._entry(a, listed_under, f"{where}.attachments[{i + 1}]", names, host=cid)
        for _ in range(self._int(extra, "duplicates", 0, where, MAX_DUPLICATES)):
            dup = self.b.new_card(d, owner, "duplicate", controller=controller, attached_to=cid)
            st.cards[cid].duplicates.append(dup)
        return cid


# -- steps ---------------------------------------------------------------------------

NAMED_CHOICES = ("title", "challenge_type", "keyword", "label")
"""A choice named as text rather than as a card in the game (an extension of format 1): ``{title: T}`` a
card title, the card anywhere or nowhere in the game ("name a card"); ``{challenge_type: T}``;
``{keyword: K}``; ``{label: L}`` a `one_of` label, even one that is also a card's id or name."""


class _Refs:
    """Resolves card and player references in steps and expectations."""

    def __init__(self, labels: dict[str, Any], players: list[str], step: int,
                 known_title: Any = None):
        self.labels = labels
        self.players = players
        self.step = step
        self.known_title = known_title

    def card(self, ref: Any, key: str) -> int:
        if ref is None:
            raise ScenarioError(self.step, f"{key}: a card is needed")
        ref = str(ref)
        if ref in self.labels and not ref.startswith("name:"):
            return self.labels[ref]
        named = f"name:{ref}"
        if named in self.labels:
            if self.labels[named] is None:
                raise ScenarioError(self.step, f"{key}: '{ref}' is ambiguous: more than one card of that name is "
                                               f"in the game; give the card an 'id' in start and use it")
            return self.labels[named]
        raise ScenarioError(self.step, f"{key}: no card '{ref}' in this scenario (use a card's id or name)")

    def player(self, ref: Any, key: str) -> str:
        if ref not in self.players:
            raise ScenarioError(self.step, f"{key}: '{ref}' is not a player")
        return ref

    def cards(self, refs: Any, key: str) -> list[int]:
        if not isinstance(refs, list):
            raise ScenarioError(self.step, f"{key}: expected a list of cards")
        return [self.card(r, key) for r in refs]

    def named(self, ref: dict, key: str) -> str:
        """``{title: T}``, ``{challenge_type: T}``, ``{keyword: K}`` or ``{label: L}``: the text it names."""
        if len(ref) != 1 or next(iter(ref)) not in NAMED_CHOICES:
            raise ScenarioError(self.step, f"{key}: a choice named as text is a mapping with one key, one of "
                                           f"{', '.join(NAMED_CHOICES)}; got {shown(ref)}")
        kind, value = next(iter(ref.items()))
        if not isinstance(value, str) or not value.strip():
            raise ScenarioError(self.step, f"{key}.{kind}: expected text, got {shown(value)}")
        if kind == "challenge_type" and value not in ("military", "intrigue", "power"):
            raise ScenarioError(self.step, f"{key}.challenge_type: '{value}' is not a challenge type "
                                           f"(military, intrigue, power)")
        if kind == "keyword":
            from cards.schema import normalise_keyword

            norm = normalise_keyword(value)
            if norm is None:
                raise ScenarioError(self.step, f"{key}.keyword: '{value}' is not a keyword (deadly, stealth, "
                                               f"immune to events, ...)")
            return norm
        if kind == "title" and self.known_title is not None and not self.known_title(value):
            raise ScenarioError(self.step, f"{key}.title: no card is called '{value}' in 'cards' or the card "
                                           f"database")
        return value

    def card_or_player(self, ref: Any, key: str) -> Any:
        if isinstance(ref, dict):
            return self.named(ref, key)  # an extension: a title, challenge type, keyword or label as text
        if ref in DESTINATIONS and f"name:{ref}" not in self.labels and ref not in self.labels:
            return ref  # an extension: where a card goes, when the first player chooses (MOR-06)
        if ref in self.players:
            return ref
        if isinstance(ref, str) and CHOICE_WORD.match(ref) and ref not in self.labels \
                and f"name:{ref}" not in self.labels:
            return ref  # an extension: a label of a `one_of` choice (docs/abilities.md)
        return self.card(ref, key)


def parse_command(value: Any, refs: _Refs, step: int) -> tuple[dict, str | None]:
    """A scenario command to an engine answer with card ids, and its ``rejected`` text."""
    if value in ("pass", "done"):
        return {value: True}, None
    if not isinstance(value, dict):
        raise ScenarioError(step, f"a command is 'pass', 'done' or a mapping such as {{marshal: CARD}}, got {value!r}")
    rejected = value.get("rejected")
    body = {k: v for k, v in value.items() if k != "rejected"}
    if set(body) <= {"pass", "done"} and body:
        return {next(iter(body)): True}, rejected
    main = [k for k in body if k in COMMAND_KEYS]
    if len(main) != 1:
        unknown = [k for k in body if k not in COMMAND_KEYS]
        what = f"unknown key '{unknown[0]}'" if unknown else "more than one command"
        raise ScenarioError(step, f"{what}; a command is one of {', '.join(sorted(COMMAND_KEYS))}, pass, done")
    cmd = main[0]
    for k in body:
        if k != cmd and k not in COMMAND_KEYS[cmd]:
            raise ScenarioError(step, f"{cmd}: unknown key '{k}'; {cmd} takes "
                                      f"{', '.join(sorted(COMMAND_KEYS[cmd])) or 'no other keys'}")
    v = body[cmd]
    out: dict[str, Any]
    if cmd == "plot":
        out = {"plot": refs.card(v, "plot")}
    elif cmd == "first_player":
        out = {"first_player": refs.player(v, "first_player")}
    elif cmd == "setup":
        for k in ("attach", "duplicates"):
            if body.get(k) is not None and not isinstance(body[k], dict):
                raise ScenarioError(step, f"setup.{k}: expected a mapping of card to host, got {body[k]!r}")
        out = {"setup": refs.cards(v or [], "setup"),
               "attach": {refs.card(a, "attach"): refs.card(h, "attach") for a, h in (body.get("attach") or {}).items()},
               "duplicates": {refs.card(a, "duplicates"): refs.card(h, "duplicates")
                              for a, h in (body.get("duplicates") or {}).items()}}
    elif cmd == "marshal":
        if "x" in body and (not isinstance(body["x"], int) or isinstance(body["x"], bool)):
            raise ScenarioError(step, f"marshal.x: expected a whole number, got {body['x']!r}")
        out = {"marshal": refs.card(v, "marshal"), "duplicate": bool(body.get("duplicate", False)),
               "attach_to": refs.card(body["attach_to"], "attach_to") if body.get("attach_to") is not None else None,
               "x": body.get("x", 0)}
        if "penalty" in body:  # issue 24: the optional gold penalty (Veteran Builder)
            if not isinstance(body["penalty"], bool):
                raise ScenarioError(step, f"marshal.penalty: expected true or false, got {body['penalty']!r}")
            if body["penalty"]:
                out["penalty"] = True
    elif cmd == "challenge":
        if v not in ("military", "intrigue", "power"):
            raise ScenarioError(step, f"challenge: '{v}' is not a challenge type (military, intrigue, power)")
        out = {"challenge": v, "against": refs.player(body["against"], "against") if "against" in body else None,
               "attackers": refs.cards(body.get("attackers", []), "attackers")}
    elif cmd == "stealth":
        if not isinstance(v, dict):
            raise ScenarioError(step, "stealth: expected a mapping of attacker to target")
        out = {"stealth": {refs.card(a, "stealth"): refs.card(t, "stealth") for a, t in v.items()}}
    elif cmd == "defend":
        out = {"defend": refs.cards(v if v is not None else [], "defend")}
    elif cmd == "choose":
        if not isinstance(v, list):
            raise ScenarioError(step, "choose: expected a list")
        out = {"choose": [refs.card_or_player(r, "choose") for r in v]}
    elif cmd == "order":
        out = {"order": refs.cards(v, "order")}
    elif cmd == "trigger":
        for k in ("targets", "pay"):
            if body.get(k) is not None and not isinstance(body[k], list):
                raise ScenarioError(step, f"trigger.{k}: expected a list, got {body[k]!r}")
        for k in ("ability", "x"):
            if k in body and (not isinstance(body[k], int) or isinstance(body[k], bool)):
                raise ScenarioError(step, f"trigger.{k}: expected a whole number, got {body[k]!r}")
        out = {"trigger": refs.card(v, "trigger"), "ability": body.get("ability", 1),
               "targets": [refs.card_or_player(r, "targets") for r in body.get("targets") or []],
               "pay": refs.cards(body.get("pay") or [], "pay"), "x": body.get("x", 0)}
        if body.get("gate_card") is not None:  # core-b: which of several opportunities a response answers
            out["gate_card"] = refs.card(body["gate_card"], "gate_card")
    elif cmd == "by_hand":
        out = _by_hand_command(body, refs, step)
    elif cmd == "tool":
        out = _tool_command(body, refs, step)
    elif cmd == "resolve":
        out = {"resolve": True}
    else:  # duplicate_save
        out = {"duplicate_save": refs.card(v, "duplicate_save")}
    if cmd in ("marshal", "trigger") and body.get("gold_tokens") is not None:
        # how much of the gold is paid with gold tokens on cards (Tywin Lannister); else the pool first
        if not isinstance(body["gold_tokens"], int) or isinstance(body["gold_tokens"], bool):
            raise ScenarioError(step, f"{cmd}.gold_tokens: expected a whole number, got {body['gold_tokens']!r}")
        out["gold_tokens"] = body["gold_tokens"]
    return out, rejected


def _by_hand_command(body: dict, refs: "_Refs", step: int) -> dict:
    """``{by_hand: CARD, paragraph: N, cost: {kneel: [..], gold: N, ...}, targets: [..], removes: kill,
    save: CARD, cancel: true, gate: N}``: a use of card text by hand."""
    if "paragraph" in body and (not isinstance(body["paragraph"], int) or isinstance(body["paragraph"], bool)):
        raise ScenarioError(step, f"by_hand.paragraph: expected a whole number, got {body['paragraph']!r}")
    out: dict[str, Any] = {"by_hand": refs.card(body["by_hand"], "by_hand"), "paragraph": body.get("paragraph", 1)}
    cost = body.get("cost")
    if cost is not None:
        if not isinstance(cost, dict):
            raise ScenarioError(step, f"by_hand.cost: expected a mapping, got {cost!r}")
        out["cost"] = {k: (refs.cards(v, f"cost.{k}") if isinstance(v, list) else v) for k, v in cost.items()}
    if body.get("targets") is not None:
        if not isinstance(body["targets"], list):
            raise ScenarioError(step, f"by_hand.targets: expected a list, got {body['targets']!r}")
        out["targets"] = [refs.card_or_player(r, "targets") for r in body["targets"]]
    for k in ("removes", "cancel", "gate"):
        if k in body:
            out[k] = body[k]
    if "save" in body:
        out["save"] = refs.card(body["save"], "save")
    return out


_TOOL_CARD_KEYS = ("card", "pick", "attach_to")


def _tool_command(body: dict, refs: "_Refs", step: int) -> dict:
    """``{tool: NAME, card: CARD, ...}``: a manual effect tool (engine/manual.py TOOLS)."""
    out: dict[str, Any] = {"tool": body["tool"]}
    for k, v in body.items():
        if k == "tool":
            continue
        if k in _TOOL_CARD_KEYS or k in ("from", "to") and body["tool"] == "move_power":
            out[k] = refs.card(v, k) if v is not None else None
        elif k == "player":
            out[k] = refs.player(v, k)
        else:
            out[k] = v
    return out


def load_scenario(path: str | Path, options: Options | None = None) -> Scenario:
    """Read, check and build a scenario; raises ScenarioError (or DataError for unreadable files)."""
    path = str(path)
    data = load_yaml_file(path, kind="scenario")
    if not isinstance(data, dict):
        raise ScenarioError(0, "a scenario file is a mapping with format, title, start and steps")
    _check_keys(data, TOP_KEYS, 0, "scenario")
    for key in ("format", "title", "start", "steps"):
        if key not in data:
            raise ScenarioError(0, f"'{key}' is required")
    if data["format"] != 1:
        raise ScenarioError(0, f"format: this version reads format 1, not {data['format']!r}")
    loader = _Loader(path, data)
    loader.load_cards()
    game, labels = loader.build(options or Options(prompt_all=True))
    sc = Scenario(path=path, title=str(data["title"]), description=str(data.get("description") or ""),
                  rules=list(data.get("rules") or []), game=game, labels=labels,
                  tutorial=_tutorial_top(data.get("tutorial"), game.state.player_names))
    steps = data["steps"]
    if not isinstance(steps, list):
        raise ScenarioError(0, "steps: expected a list")
    names = game.state.player_names
    for i, raw in enumerate(steps, start=1):
        extra = {}
        line = raw.line if hasattr(raw, "line") else None
        if isinstance(raw, dict) and len(raw) > 1:  # tutorial keys beside the step's one key
            extra = {k: raw[k] for k in raw if k in TUTORIAL_STEP_KEYS}
            raw = {k: v for k, v in raw.items() if k not in TUTORIAL_STEP_KEYS}
        if not isinstance(raw, dict) or len(raw) != 1:
            raise ScenarioError(i, "each step is a mapping with exactly one key (a player, until, expect or say), "
                                   "and optionally the tutorial keys ask, hint, rule, at")
        key, value = next(iter(raw.items()))
        refs = _Refs(labels, names, i, loader.known_title)
        if key in names:
            command, rejected = parse_command(value, refs, i)
            sc.steps.append(Step(i, "command", player=key, command=command, rejected=rejected, line=line,
                                 first_ability="trigger" in command and "ability" not in value))
        elif key == "until":
            sc.steps.append(Step(i, "until", value=_parse_condition(value, refs), line=line))
        elif key == "expect":
            _check_keys(value, EXPECT_KEYS, i, "expect")
            _resolve_expect_refs(value, refs)
            sc.steps.append(Step(i, "expect", value=value, line=line))
        elif key == "say":
            sc.steps.append(Step(i, "say", value=str(value), line=line))
        else:
            raise ScenarioError(i, f"unknown key '{key}': a step is a player name ({', '.join(names)}), "
                                   f"until, expect or say")
        if extra:
            sc.steps[-1].tutorial = _tutorial_step(extra, sc.steps[-1], refs, game.state.round)
    return sc


def _tutorial_top(value: Any, names: list[str]) -> dict:
    if value is None:
        return {}
    _check_keys(value, TUTORIAL_KEYS, 0, "tutorial")
    if "learner" in value and value["learner"] not in names:
        raise ScenarioError(0, f"tutorial.learner: '{value['learner']}' is not a player")
    if "order" in value and (not isinstance(value["order"], int) or isinstance(value["order"], bool)):
        raise ScenarioError(0, f"tutorial.order: expected a whole number, got {value['order']!r}")
    return dict(value)


def _tutorial_step(extra: dict, step: Step, refs: "_Refs", start_round: int = 1) -> dict:
    out = {}
    for key in ("ask", "hint", "rule"):
        if key in extra:
            if not isinstance(extra[key], str) or not extra[key].strip():
                raise ScenarioError(step.number, f"{key}: expected text, got {extra[key]!r}")
            out[key] = str(extra[key])
    if ("ask" in out or "hint" in out) and step.kind != "command":
        raise ScenarioError(step.number, "ask and hint go beside a player's command (the learner's answer)")
    if "rule" in out and out["rule"] not in RULES:
        raise ScenarioError(step.number, f"rule: '{out['rule']}' is not a rule the tutorials have words for; use "
                                         f"a rule id of the checklist that engine/explain.py RULES summarises "
                                         f"(e.g. MOR-05), or add its summary there")
    if "at" in extra:
        if step.kind != "say":
            raise ScenarioError(step.number, "at goes beside a say step (when the narration is shown)")
        out["at"] = _parse_condition(extra["at"], refs)
        never = _never_holds(out["at"], start_round)
        if never:
            raise ScenarioError(step.number, f"at: this narration would never be shown: {never}")
    return out


ACTIVE_PHASES = ("marshalling", "challenges")
"""The phases with an active player (``active`` in a condition)."""

DECISION_PHASES = {"challenge": "challenges", "defend": "challenges", "stealth": "challenges", "setup": "setup"}
"""Decision kinds asked in one phase only."""


def _never_holds(cond: dict, start_round: int) -> str | None:
    """Why a tutorial ``at`` condition can never hold (what to write instead), or None."""
    if cond.get("end"):
        return "at: end never comes between decisions; put the say after an `until: end` step instead"
    step = cond.get("window_step")
    if step is not None and not 1 <= step <= 6:
        return f"window_step {step}: an action window has steps 1 to 6"
    if "round" in cond and cond["round"] < start_round:
        return (f"round {cond['round']} is before the round the scenario starts in ({start_round}); "
                f"name round {start_round} or later")
    phase = cond.get("phase")
    if "active" in cond and phase is not None and phase not in ACTIVE_PHASES:
        return (f"there is an active player only in the marshalling or challenges phase, not in {phase}; "
                f"drop active or name one of those phases")
    kind = cond.get("decision")
    if kind in DECISION_PHASES and phase is not None and phase != DECISION_PHASES[kind]:
        return (f"a {kind} decision is asked only in the {DECISION_PHASES[kind]} phase, not in {phase}; "
                f"drop phase or name that one")
    return None


def _parse_condition(value: Any, refs: _Refs) -> dict:
    if value == "end":
        return {"end": True}
    _check_keys(value, {"phase", "active", "round", "decision", "player", "window_step"}, refs.step, "until")
    if not value:
        raise ScenarioError(refs.step, "until: an empty condition")
    for k in ("round", "window_step"):
        if k in value and (not isinstance(value[k], int) or isinstance(value[k], bool)):
            raise ScenarioError(refs.step, f"until.{k}: expected a whole number, got {value[k]!r}")
    for k in ("phase", "decision", "active", "player"):
        if k in value and not isinstance(value[k], str):
            raise ScenarioError(refs.step, f"until.{k}: expected a name, got {value[k]!r}")
    if "phase" in value and value["phase"] not in PHASES:
        raise ScenarioError(refs.step, f"until.phase: '{value['phase']}' is not a phase")
    if "decision" in value and value["decision"] not in COMMANDS_FOR_KIND:
        raise ScenarioError(refs.step, f"until.decision: '{value['decision']}' is not a decision kind; use "
                                       f"{', '.join(COMMANDS_FOR_KIND)}")
    for k in ("active", "player"):
        if k in value:
            refs.player(value[k], f"until.{k}")
    return dict(value)


def _resolve_expect_refs(value: dict, refs: _Refs) -> None:
    """Check every card and player named in an expectation now, so errors name the step."""
    card_maps = ("card_power", "zone", "kneeling", "strength", "icons", "keywords", "traits", "type", "owner",
                 "controller", "attached_to", "duplicates", "gold_tokens")
    player_maps = ("power", "house_power", "gold", "initiative", "hand_size", "deck_size", "discard_size",
                   "dead_size", "drawn_this_round", "limited_played", "plot_deck_of")
    for key in card_maps:
        if key in value:
            if not isinstance(value[key], dict):
                raise ScenarioError(refs.step, f"expect.{key}: expected a mapping of card to value")
            for ref in value[key]:
                refs.card(ref, f"expect.{key}")
    for key in player_maps:
        if key in value:
            if not isinstance(value[key], dict):
                raise ScenarioError(refs.step, f"expect.{key}: expected a mapping of player to value")
            for ref in value[key]:
                refs.player(ref, f"expect.{key}")
    if "eliminated" in value and not isinstance(value["eliminated"], (list, type(None))):
        raise ScenarioError(refs.step, "expect.eliminated: expected a list of players")
    for key in ("eliminated",):
        for ref in value.get(key) or []:
            refs.player(ref, f"expect.{key}")
    for key in ("round", "window_step"):
        if key in value and value[key] is not None and (not isinstance(value[key], int)
                                                         or isinstance(value[key], bool)):
            raise ScenarioError(refs.step, f"expect.{key}: expected a whole number, got {value[key]!r}")
    for key in ("power", "house_power", "card_power", "gold", "initiative", "hand_size", "deck_size",
                "discard_size", "dead_size", "drawn_this_round", "strength", "duplicates", "gold_tokens"):
        for ref, v in (value.get(key) or {}).items():
            if not isinstance(v, int) or isinstance(v, bool):
                raise ScenarioError(refs.step, f"expect.{key}.{ref}: expected a whole number, got {v!r}")
    for key in ("kneeling", "limited_played"):
        for ref, v in (value.get(key) or {}).items():
            if not isinstance(v, bool):
                raise ScenarioError(refs.step, f"expect.{key}.{ref}: expected true or false, got {v!r}")
    for key in ("icons", "keywords", "traits"):
        for ref, v in (value.get(key) or {}).items():
            if not isinstance(v, list):
                raise ScenarioError(refs.step, f"expect.{key}.{ref}: expected a list, got {v!r}")
    if "zone" in value:
        for ref, z in value["zone"].items():
            if not isinstance(z, str) or z not in ZONE_NAMES:
                raise ScenarioError(refs.step, f"expect.zone.{ref}: '{z}' is not a zone; use "
                                               f"{', '.join(sorted(ZONE_NAMES))}")
    if "challenge" in value:
        _check_keys(value["challenge"], CHALLENGE_KEYS, refs.step, "expect.challenge")


# ---------------------------------------------------------------------------
# Checking the state
# ---------------------------------------------------------------------------

def card_zone(g: Game, cid: int) -> str:
    c = g.card(cid)
    if c.moribund is not None and c.zone in ("in_play", "attached", "played"):
        return "moribund"
    if c.zone == "duplicate":
        return "attached"
    return c.zone


def condition_holds(g: Game, d: Decision | GameOver, cond: dict) -> bool:
    st = g.state
    if cond.get("end"):
        return isinstance(d, GameOver)
    if isinstance(d, GameOver):
        return False
    if "phase" in cond and st.phase != cond["phase"]:
        return False
    if "active" in cond and st.active_player != cond["active"]:
        return False
    if "round" in cond and st.round != cond["round"]:
        return False
    if "decision" in cond and d.kind != cond["decision"]:
        return False
    if "player" in cond and d.player != cond["player"]:
        return False
    if "window_step" in cond and (st.window is None or st.window.step != cond["window_step"]):
        return False
    return True


def check_expectations(g: Game, expect: dict, refs: _Refs) -> list[str]:
    """Every listed key must hold; returns the mismatches as sentences."""
    st = g.state
    bad: list[str] = []

    def compare(what: str, want: Any, got: Any) -> None:
        if isinstance(want, list) and isinstance(got, (list, set)):
            ok = sorted(map(str, want)) == sorted(map(str, got))
        else:
            ok = want == got
        if not ok:
            bad.append(f"{what}: expected {want!r}, got {got!r}")

    def label(cid: int | None) -> Any:
        if cid is None:
            return None
        c = g.card(cid)
        return c.label or g.name(cid)

    simple = {
        "round": lambda: st.round, "phase": lambda: st.phase, "first_player": lambda: st.first_player,
        "active_player": lambda: st.active_player, "winner": lambda: st.winner,
        "window_step": lambda: st.window.step if st.window else None,
    }
    for key, get in simple.items():
        if key in expect:
            compare(key, expect[key], get())
    if "eliminated" in expect:
        compare("eliminated", list(expect["eliminated"] or []), [p.name for p in st.players if p.eliminated])
    per_player = {
        "power": g.total_power, "house_power": g.house_power, "gold": lambda n: g.player(n).gold,
        "initiative": g.initiative, "hand_size": lambda n: len(g.player(n).hand),
        "deck_size": lambda n: len(g.player(n).deck), "discard_size": lambda n: len(g.player(n).discard),
        "dead_size": lambda n: len(g.player(n).dead),
        "drawn_this_round": lambda n: g.player(n).drawn_this_round,
        "limited_played": lambda n: g.player(n).limited_played,
        "plot_deck_of": g.plot_holder,
    }
    for key, get in per_player.items():
        for name, want in (expect.get(key) or {}).items():
            compare(f"{key}.{name}", want, get(name))
    per_card = {
        "card_power": lambda c: g.card(c).power, "zone": lambda c: card_zone(g, c),
        "kneeling": lambda c: g.card(c).kneeling, "strength": g.strength,
        "icons": lambda c: sorted(g.icons(c)), "keywords": lambda c: sorted(g.keywords(c)),
        "traits": lambda c: sorted(g.traits(c)), "type": g.card_type,
        "owner": lambda c: g.card(c).owner, "controller": lambda c: g.card(c).controller,
        "attached_to": lambda c: label(g.card(c).attached_to), "duplicates": lambda c: len(g.card(c).duplicates),
        "gold_tokens": lambda c: g.card(c).tokens.get("gold", 0),
    }
    for key, get in per_card.items():
        for ref, want in (expect.get(key) or {}).items():
            cid = refs.card(ref, f"expect.{key}")
            if key == "attached_to" and want is not None:
                want_id = refs.card(want, "expect.attached_to")
                got_id = g.card(cid).attached_to
                if want_id != got_id:
                    bad.append(f"attached_to.{ref}: expected {want!r}, got {label(got_id)!r}")
                continue
            compare(f"{key}.{ref}", want, get(cid))
    if "challenge" in expect:
        ch = st.challenge
        if ch is None:
            bad.append("challenge: no challenge has been declared")
        else:
            for key, want in expect["challenge"].items():
                if key in ("attackers", "defenders"):
                    want_ids = sorted(refs.card(r, f"expect.challenge.{key}") for r in want or [])
                    got_ids = sorted(getattr(ch, key))
                    if want_ids != got_ids:
                        bad.append(f"challenge.{key}: expected {want!r}, got {[label(c) for c in got_ids]!r}")
                else:
                    compare(f"challenge.{key}", want, getattr(ch, key))
    if "log" in expect:
        wanted = expect["log"] if isinstance(expect["log"], list) else [expect["log"]]
        for text in wanted:
            if not any(str(text).lower() in line.lower() for line in st.log):
                bad.append(f"log: no line contains {text!r}")
    return bad


# ---------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------

@dataclass
class RunResult:
    passed: bool
    step: int | None = None
    reason: str = ""
    transcript: list[str] = field(default_factory=list)
    skipped: bool = False
    """The scenario needs card data that is absent (``reason`` says which): neither passed nor failed."""


def _legal_single(d: Decision) -> dict | None:
    return d.options[0] if len(d.options) == 1 and not d.can_pass else None


def run_scenario(sc: Scenario, *, verbose: bool = False) -> RunResult:
    """Play the script against the engine exactly as scenario-format.md says."""
    g = sc.game
    names = g.state.player_names
    transcript: list[str] = []
    decisions = 0
    i = 0
    last_refusal: dict[int, str] = {}

    def fail(step: int, reason: str) -> RunResult:
        return RunResult(False, step, reason, transcript)

    def answer(d: Decision, ans: dict) -> None:
        nonlocal decisions
        g.answer(d.player, ans)
        decisions += 1
        if verbose:
            transcript.append(f"  {d.kind} of {d.player} -> {ans}")

    while True:
        # expect and say steps are checked where the runner stands
        while i < len(sc.steps) and sc.steps[i].kind in ("expect", "say"):
            step = sc.steps[i]
            if step.kind == "expect":
                bad = check_expectations(g, step.value, _Refs(sc.labels, names, step.number))
                if bad:
                    return fail(step.number, "; ".join(bad))
            i += 1
        if i >= len(sc.steps):
            return RunResult(True, transcript=transcript)
        step = sc.steps[i]
        d = g.advance()
        if isinstance(d, GameOver):
            if step.kind == "until" and step.value.get("end"):
                i += 1
                continue
            why = f" (last refusal: {last_refusal[step.number]})" if step.number in last_refusal else ""
            return fail(step.number, f"the game ended ({d.winner} wins: {d.reason}) before this step was "
                                     f"reached{why}")
        if decisions >= MAX_DECISIONS or g.state.round > MAX_ROUNDS:
            return fail(step.number, f"never reached after {decisions} decisions, round {g.state.round}")
        if step.kind == "until":
            if condition_holds(g, d, step.value):
                i += 1
                continue
        elif step.kind == "command" and step.player == d.player:
            cmd = next(iter(step.command))
            command = step_command(g, d, step)
            if step.rejected is not None:
                if cmd in d.commands:
                    before = g.state.digest()
                    try:
                        g.answer(d.player, command)
                    except Refused as err:
                        if step.rejected.lower() not in str(err).lower():
                            return fail(step.number, f"refused, but the reason {str(err)!r} does not contain "
                                                     f"{step.rejected!r}")
                        if g.state.digest() != before or g.advance() is not d:
                            return fail(step.number, "the refused command changed the game state")
                        if verbose:
                            transcript.append(f"  {d.kind} of {d.player} -> {command} refused: {err}")
                        i += 1
                        continue
                    return fail(step.number, f"the engine accepted {command}, which should have been "
                                             f"rejected ({step.rejected!r})")
            elif d.accepts_command(command):
                try:
                    answer(d, command)
                    i += 1
                    continue
                except Refused as err:
                    last_refusal[step.number] = str(err)
        # auto-pass, or the single legal answer
        if d.can_pass:
            answer(d, {"pass": True})
        elif _legal_single(d) is not None:
            answer(d, _legal_single(d))
        else:
            opts = ", ".join(str(o) for o in d.options[:6]) or f"choices {d.choices}"
            why = f"; the step's command was refused: {last_refusal[step.number]}" \
                if step.number in last_refusal else ""
            return fail(step.number, f"unscripted decision: {d.kind}, of {d.player}, options {opts}{why}")


def step_command(g: Game, d: Decision, step: Step) -> Any:
    """The step's command as given to ``d``. A ``trigger`` that names no ``ability`` uses the card's first
    action or response that ``d`` accepts now, else its first action or response: never a constant (an
    attachment restriction, an immunity) or a passive ability that happens to come first."""
    cmd = step.command
    if not step.first_ability or cmd.get("trigger") not in g.state.cards:
        return cmd
    usable = [n for n, ab in enumerate(triggers.abilities(g, cmd["trigger"]), start=1)
              if ab.kind in ("action", "response")]
    for n in usable:
        try:
            d.check(dict(cmd, ability=n))
        except Refused:
            continue
        return dict(cmd, ability=n)
    return dict(cmd, ability=usable[0]) if usable else cmd


def run_path(path: str, verbose: bool = False) -> RunResult:
    try:
        sc = load_scenario(path)
    except ScenarioSkipped as err:
        return RunResult(False, err.step, err.reason, skipped=True)
    except ScenarioError as err:
        return RunResult(False, err.step, err.reason)
    except DataError as err:
        return RunResult(False, 0, str(err))
    except Exception as err:  # a bug of ours must still not print a traceback at the user
        return RunResult(False, 0, f"internal error while loading ({type(err).__name__}: {err}); "
                                   f"please report it with this file")
    try:
        result = run_scenario(sc, verbose=verbose)
    except ScenarioError as err:
        return RunResult(False, err.step, err.reason)
    except Exception as err:
        return RunResult(False, None, f"internal error while playing ({type(err).__name__}: {err}); "
                                      f"please report it with this file")
    if verbose:
        result.transcript = result.transcript + ["  log:"] + [f"    {line}" for line in sc.game.state.log]
    return result


def scenario_files(paths: list[str]) -> list[str]:
    out: list[str] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            out.extend(str(f) for f in sorted(path.rglob("*.yaml")))
        else:
            out.append(str(path))
    return out


def main(argv: list[str] | None = None) -> int:
    tolerant_console()
    args = list(sys.argv[1:] if argv is None else argv)
    verbose = "--verbose" in args
    args = [a for a in args if a != "--verbose"]
    if not args or any(a.startswith("-") for a in args):
        print("usage: python -m engine.scenario PATH... [--verbose]", file=sys.stderr)
        return 2
    passed = failed = skipped = 0
    for path in scenario_files(args):
        result = run_path(path, verbose)
        if result.skipped:
            skipped += 1
            print(f"SKIP {path}: {result.reason}")
        elif result.passed:
            passed += 1
            print(f"PASS {path}")
        else:
            failed += 1
            print(f"FAIL {path}: step {result.step}: {result.reason}")
        for line in result.transcript:
            print(line)
    print(f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(run_command(main))
