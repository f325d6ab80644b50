"""Card abilities as data: parsing, selectors, conditions, costs and effects.

The format is documented in docs/abilities.md. An ability is a mapping:

    kind: action | response | passive | constant
    phase: challenges            # action label (RND-05); any = "Any Phase:"
    when: {event: killed, card: {controller: you}}   # the opportunity (TIM-08)
    if: {self: {attacking: true}}                    # play restriction (COS-13)
    limit: {times: 1, per: phase}
    cost: {gold: 1, influence: 2, kneel_self: true}  # COS-06
    choose: {type: character, controller: opponent} # a target (COS-14)
    effect: [{kill: target}]
    then: [{draw: 1}]                                # only if the effect succeeded (COS-17)

Nothing here is code from the data: every word maps to a fixed function.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cards.errors import DataError

KINDS = ("action", "response", "passive", "constant")
LABELS = ("any", "plot", "draw", "marshalling", "challenges", "dominance", "standing", "taxation")
PERIODS = ("challenge", "phase", "round", "game")
EVENTS = ("killed", "discarded", "returned", "left_play", "marshalled", "entered_play", "played",
          "challenge_declared", "defenders_declared", "challenge_won", "challenge_lost", "renown_claimed",
          "plot_revealed", "saved", "phase_begins", "phase_ends", "drawn",
          "would_be_killed", "would_be_discarded", "would_leave_play", "cancelable")
FILTER_KEYS = {"type", "trait", "house", "unique", "controller", "owner", "participating", "attacking",
               "defending", "kneeling", "standing", "not_self", "self", "cost_max", "cost_min", "strength_max",
               "strength_min", "icon", "keyword", "name", "host", "moribund", "has_attachments", "influence_min"}
COST_KEYS = {"gold", "influence", "kneel_self", "discard_self", "kill_self", "kneel_host", "power_self",
             "discard_from_hand", "kneel"}
EFFECTS = {"reduce", "set_destination", "enable", "kill", "discard", "kneel", "stand", "return_to_hand", "return_to_deck", "claim_power", "move_power",
           "discard_power", "draw", "gain_gold", "modify", "save", "cancel", "discard_at_random", "put_into_play",
           "remove_from_challenge", "take_control", "search", "script"}
EFFECT_EXTRA = {"card", "terminal", "become", "blank", "amount", "player", "bottom", "until", "strength", "add_icons", "remove_icons", "add_keywords",
                "remove_keywords", "add_traits", "remove_traits", "from", "to", "count"}
MODIFY_KEYS = {"target", "gain", "blank", "gold_penalty", "strength", "add_icons", "remove_icons", "add_keywords", "remove_keywords", "add_traits",
               "remove_traits"}
ABILITY_KEYS = {"kind", "phase", "when", "if", "limit", "cost", "choose", "effect", "then", "while", "modify",
                "text", "cannot_be_canceled", "cannot_be_saved", "from_hand", "attach_to", "granted", "prohibit",
                "control_host", "terminal"}
PROHIBITIONS = ("claim_house_power", "challenges")


@dataclass(frozen=True)
class Ability:
    """One parsed ability of a card (COS-16: each paragraph is its own ability)."""

    index: int
    kind: str
    phase: str | None = None
    when: dict | None = None
    condition: dict | None = None
    limit: tuple[int, str] | None = None
    cost: dict = field(default_factory=dict)
    choose: dict | None = None
    effect: tuple = ()
    then: tuple = ()
    modify: dict | None = None
    attach_to: dict | None = None
    """An attachment restriction ("Lord or Lady only", ATT-01/02): the host must match."""
    text: str = ""
    prohibit: dict | None = None
    """A player restriction (GEN-01, ZON-08): {what: claim_house_power | challenges, max: N,
    player: you | opponent | each}."""
    terminal: dict | None = None
    """A terminal condition on this card (MOR-09): while the card matches this filter, it is killed."""
    control_host: bool = False
    """An attachment whose controller controls the attached character while attached (CTL-02)."""
    from_hand: bool = False
    """Used while the card is in its owner's hand ("put this card into play from your hand")."""
    granted: bool = False
    """Usable only while the card's own effect has enabled it ({enable: N}): a delayed effect."""
    cannot_be_canceled: bool = False
    cannot_be_saved: bool = False

    @property
    def is_save_or_cancel(self) -> bool:
        """TIM-06: responses that save or cancel are played in step 2, not step 5."""
        return any(_effect_name(e) in ("save", "cancel") for e in self.effect)

    @property
    def scripted(self) -> bool:
        return any(_effect_name(e) == "script" for e in self.effect + self.then)


def _effect_name(e: Any) -> str:
    if isinstance(e, str):
        return e
    return next((k for k in e if k in EFFECTS), "?")


def _err(msg: str, source: str, field_name: str, hint: str | None = None) -> DataError:
    file, _, line = source.rpartition(":")
    return DataError(msg, file=file or source, line=int(line) if line.isdigit() else None,
                     field=f"abilities.{field_name}", hint=hint)


PLAYER_CHOICES = ("opponent", "any")
"""``choose: {player: opponent}``: the target is a player (an opponent, or any player)."""
WHO = ("you", "opponent", "loser")
"""Values of a filter's ``controller`` / ``owner``: ``loser`` is the player who lost the challenge."""


def _check_filter(f: Any, source: str, where: str, *, players: bool = False) -> dict:
    if f in ("self", "target", "host", "trigger"):
        return {f: True} if f != "self" else {"self": True}
    if not isinstance(f, dict):
        raise _err(f"expected a card filter mapping, got {f!r}", source, where)
    if players and "player" in f:
        if f["player"] not in PLAYER_CHOICES:
            raise _err(f"choose: player must be one of {', '.join(PLAYER_CHOICES)}, not {f['player']!r}",
                       source, where)
        extra = set(f) - {"player", "count"}
        if extra:
            raise _err(f"a player target takes only 'player' and 'count', not '{sorted(extra)[0]}'",
                       source, where)
        return dict(f)
    for k in f:
        if k not in FILTER_KEYS | {"count", "from", "all", "up_to"}:
            raise _err(f"unknown filter key '{k}'", source, where, f"use {', '.join(sorted(FILTER_KEYS))}")
    for k in ("controller", "owner"):
        if k in f and f[k] not in WHO:
            raise _err(f"{k} must be one of {', '.join(WHO)}, not {f[k]!r}", source, where)
    return dict(f)


def parse_abilities(raw: tuple, source: str = "") -> list[Ability]:
    """Parse and check a card's raw ability data; errors are DataErrors naming the field."""
    out = []
    for i, a in enumerate(raw, start=1):
        where = f"[{i}]"
        if not isinstance(a, dict):
            raise _err("each ability is a mapping", source, where)
        unknown = set(a) - ABILITY_KEYS
        if unknown:
            raise _err(f"unknown key '{sorted(unknown)[0]}'", source, where,
                       f"an ability takes {', '.join(sorted(ABILITY_KEYS))}")
        kind = a.get("kind")
        if kind not in KINDS:
            raise _err(f"kind must be one of {', '.join(KINDS)}, not {kind!r}", source, where + ".kind")
        phase = a.get("phase")
        if phase is not None and phase not in LABELS:
            raise _err(f"phase must be one of {', '.join(LABELS)}", source, where + ".phase")
        if kind == "action" and phase is None:
            raise _err("an action needs its phase label (phase: any for Any Phase)", source, where + ".phase")
        when = a.get("when")
        if kind in ("response", "passive"):
            if not isinstance(when, dict) or when.get("event") not in EVENTS:
                raise _err(f"a {kind} needs 'when: {{event: ...}}' with one of {', '.join(EVENTS)}",
                           source, where + ".when")
        limit = a.get("limit")
        if limit is not None:
            if not isinstance(limit, dict) or limit.get("per") not in PERIODS or not isinstance(
                    limit.get("times", 1), int):
                raise _err("limit is {times: N, per: challenge|phase|round|game}", source, where + ".limit")
            limit = (limit.get("times", 1), limit["per"])
        cost = a.get("cost") or {}
        if not isinstance(cost, dict) or set(cost) - COST_KEYS:
            raise _err(f"cost keys are {', '.join(sorted(COST_KEYS))}", source, where + ".cost")
        choose = a.get("choose")
        if choose is not None:
            choose = _check_filter(choose, source, where + ".choose", players=True)
        effects = []
        for key in ("effect", "then"):
            seq = a.get(key) or []
            if not isinstance(seq, list):
                seq = [seq]
            for j, e in enumerate(seq):
                name = _effect_name(e)
                if name not in EFFECTS:
                    raise _err(f"unknown effect {e!r}", source, f"{where}.{key}[{j + 1}]",
                               f"effects are {', '.join(sorted(EFFECTS))}")
                if isinstance(e, dict):
                    extra = set(e) - {name} - EFFECT_EXTRA
                    if extra:
                        raise _err(f"unknown key '{sorted(extra)[0]}' in {name}", source, f"{where}.{key}[{j + 1}]")
            effects.append(tuple(seq))
        if kind in ("action", "response", "passive") and not effects[0]:
            raise _err(f"a {kind} needs an effect", source, where + ".effect")
        modify = a.get("modify")
        attach_to = a.get("attach_to")
        if attach_to is not None:
            attach_to = _check_filter(attach_to, source, where + ".attach_to")
        if isinstance(modify, dict):
            unknown_mod = set(modify) - MODIFY_KEYS
            if unknown_mod:
                raise _err(f"unknown key '{sorted(unknown_mod)[0]}' in modify", source, where + ".modify",
                           f"modify takes {', '.join(sorted(MODIFY_KEYS))}")
            if "gain" in modify:
                if not isinstance(modify["gain"], list):
                    raise _err("gain is a list of abilities", source, where + ".modify.gain")
                parse_abilities(tuple(modify["gain"]), source)  # EFF-03: gained abilities are checked too
        prohibit = a.get("prohibit")
        if prohibit is not None:
            if not isinstance(prohibit, dict) or prohibit.get("what") not in PROHIBITIONS or \
                    prohibit.get("player", "you") not in ("you", "opponent", "each"):
                raise _err(f"prohibit is {{what: {' | '.join(PROHIBITIONS)}, max: N, player: you | opponent | each}}",
                           source, where + ".prohibit")
        control_host = bool(a.get("control_host"))
        terminal = a.get("terminal")
        if terminal is not None:
            terminal = _check_filter(terminal, source, where + ".terminal")
        if kind == "constant" and not isinstance(modify, dict) and attach_to is None and prohibit is None \
                and not control_host and terminal is None:
            raise _err("a constant ability needs 'modify: {target: ..., strength: N, ...}', 'attach_to: FILTER', "
                       "'prohibit: {...}' or 'control_host: true'", source, where)
        out.append(Ability(index=i, kind=kind, phase=phase, when=when, condition=a.get("if") or a.get("while"),
                           limit=limit, cost=dict(cost), choose=choose, effect=effects[0], then=effects[1],
                           modify=modify, attach_to=attach_to, text=str(a.get("text") or ""),
                           granted=bool(a.get("granted")), from_hand=bool(a.get("from_hand")),
                           prohibit=prohibit, control_host=control_host,
                           terminal=terminal,
                           cannot_be_canceled=bool(a.get("cannot_be_canceled")),
                           cannot_be_saved=bool(a.get("cannot_be_saved"))))
    return out
