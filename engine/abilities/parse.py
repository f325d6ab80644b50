"""Parsing and checking a card's ability data against the vocabulary (docs/abilities.md).

Every key, value and word is checked against the registry (``engine.abilities.registry``);
an error is a ``DataError`` with the file and line of the offending value (when the data
came from YAML) and a hint naming the valid words. Nothing in the data is code.
"""
from __future__ import annotations

from typing import Any

from engine.abilities import conditions, costs, effects, events, filters, selectors  # noqa: F401 - the words
from engine.abilities.effects import MODIFIERS
from engine.abilities.model import Ability
from engine.abilities.registry import (FROM, REGISTRY, Bool, Either, FilterSchema, Int, ListOf, Mapping, Nested,
                                       Text, TrueOnly, Where, Words, card_selector)
from engine.state import CHALLENGE_TYPES
from engine.wording import article

KINDS = ("action", "response", "passive", "constant")
LABELS = ("any", "plot", "draw", "marshalling", "challenges", "dominance", "standing", "taxation")
PERIODS = ("challenge", "phase", "round", "game")
PROHIBITIONS = ("claim_house_power", "challenges", "declare_defenders")

CHOOSE = FilterSchema({"count": Either(Int(minimum=1), Words("x"), form="N | x"), "up_to": TrueOnly(), "from": FROM},
                      form="{FILTER..., count: N, up_to: true, from: hand | discard | dead | deck}")
PLAYER_CHOICES = ("opponent", "any")
"""``choose: {player: opponent}``: the target is a player (an opponent, or any player)."""
PLAYER_CHOICE = Mapping({"player": Words(*PLAYER_CHOICES), "count": Int(minimum=1)}, required=("player",),
                        what="a player target")
LIMIT = Mapping({"times": Int(minimum=1), "per": Words(*PERIODS)}, required=("per",), what="limit")
PROHIBIT = Mapping({"what": Words(*PROHIBITIONS), "max": Int(), "player": Words("you", "opponent", "each")},
                   required=("what",), what="prohibit")
FOR_EACH = Either(Words("your_gold"), FilterSchema({"from": FROM}), form="FILTER | your_gold")
"""``for_each``: a count that multiplies a constant's STR (or a cost it lowers): matching cards in play (any
player's, or a pile named by ``from``), or the gold in your pool."""
CONSTANT_MODIFY = Mapping({"target": card_selector(), "gain": Nested(), "gold_penalty": Int(minimum=None),
                           "for_each": FOR_EACH, **MODIFIERS}, what="modify")
LOWER_COST = Mapping({"by": Int(minimum=1), "for_each": FOR_EACH}, required=("by",), what="lower_cost")
NO_KNEEL = ListOf(Words("attack", "defend"))
CANNOT_BE = ListOf(Words("attacker", "defender", "stealth_target"))

ABILITY_KEYS = {
    "kind": "action | response | passive | constant",
    "phase": "an action's label: " + " | ".join(LABELS) + " (any: \"Any Phase:\")",
    "when": "a response's or passive's opportunity: {event: EVENT, ...the event's fields}",
    "if": "a play restriction (COS-13): conditions",
    "while": "a constant's condition: conditions",
    "limit": "{times: N, per: " + " | ".join(PERIODS) + "}",
    "cost": "costs, paid in step 1e",
    "choose": "the target (COS-14): a filter with count, up_to, from",
    "effect": "a list of effects",
    "then": "effects carried out only if every effect above resolved (COS-17)",
    "modify": "a constant's modifiers: {target: SEL, ...}",
    "attach_to": "an attachment restriction (ATT-01): a filter the host must match",
    "prohibit": "a player restriction (GEN-01): {what, max, player}",
    "control_host": "true: the attachment's controller controls the host (CTL-02)",
    "terminal": "a constant terminal condition (MOR-09): a filter",
    "leaves_play": "a constant: discard | removed: while its condition holds, this card is discarded from play "
                   "(removed: removed from the game)",
    "text": "our own words, for the log and the table",
    "cannot_be_canceled": "true | false",
    "cannot_be_saved": "true | false",
    "from_hand": "true: used while in its owner's hand",
    "from_pile": "discard | dead: used while in that pile of its owner's (and only there)",
    "granted": "true: usable only while enabled by the card's own {enable: N}",
    "lower_cost": "a constant read while the card is in hand: {by: N, for_each: FILTER | your_gold}: the cost to "
                  "play it is that much lower (COS-07 d)",
    "no_kneel": "a constant: [attack, defend]: the card does not kneel when declared as an attacker / defender",
    "cannot_be": "a constant declaration restriction: [attacker, defender, stealth_target]",
}
_TRIGGERED = ("action", "response", "passive")
_CONSTANT_ONLY = ("modify", "attach_to", "prohibit", "control_host", "terminal", "leaves_play", "while", "lower_cost", "no_kneel",
                  "cannot_be")
_NOT_CONSTANT = ("phase", "when", "limit", "cost", "choose", "effect", "then", "from_hand", "from_pile", "granted",
                 "cannot_be_canceled", "cannot_be_saved")


def _names(category: str) -> str:
    return ", ".join(REGISTRY[category])


def _check_when(when: Any, kind: str, where: Where) -> None:
    if not isinstance(when, dict) or "event" not in when:
        raise where.error(f"{article(kind)} needs 'when: {{event: ...}}'", f"events are {_names('event')}")
    where = where.inside(when)
    ev = when["event"]
    word = REGISTRY["event"].get(ev) if isinstance(ev, str) else None
    if word is None:
        raise where.at("event", when, "event").error(f"unknown event {ev!r}", f"events are {_names('event')}")
    for k, v in when.items():
        if k == "event":
            continue
        if k not in word.keys:
            fields = ", ".join(word.keys) or "nothing"
            raise where.at(str(k), when, k).error(f"the {ev} event has no {k!r}", f"its gates carry {fields}")
        word.keys[k].check(v, where.at(str(k), when, k))


def _check_condition(cond: Any, where: Where) -> None:
    if not isinstance(cond, dict) or not cond:
        raise where.error(f"a condition is a mapping of condition words, not {cond!r}",
                          f"conditions are {_names('condition')}")
    where = where.inside(cond)
    for k, v in cond.items():
        word = REGISTRY["condition"].get(k)
        if word is None:
            raise where.at(str(k), cond, k).error(f"unknown condition {k!r}", f"conditions are {_names('condition')}")
        word.value.check(v, where.at(str(k), cond, k))


def _check_cost(cost: Any, where: Where) -> None:
    if not isinstance(cost, dict):
        raise where.error(f"a cost is a mapping of cost words, not {cost!r}", f"costs are {_names('cost')}")
    where = where.inside(cost)
    for k, v in cost.items():
        word = REGISTRY["cost"].get(k)
        if word is None:
            raise where.at(str(k), cost, k).error(f"unknown cost {k!r}", f"cost keys are {_names('cost')}")
        word.value.check(v, where.at(str(k), cost, k))


def _check_effect(e: Any, where: Where) -> str:
    words = REGISTRY["effect"]
    hint = f"effects are {_names('effect')}"
    if isinstance(e, str):
        if e in words and words[e].extra.get("bare"):
            return e
        if e in words:
            raise where.error(f"the effect {e!r} needs a value", f"write {{{e}: ...}}")
        raise where.error(f"unknown effect {e!r}", hint)
    if not isinstance(e, dict):
        raise where.error(f"unknown effect {e!r}", hint)
    where = where.inside(e)
    found = [k for k in e if k in words]
    if not found:
        raise where.error(f"unknown effect {e!r}", hint)
    if len(found) > 1:
        raise where.error(f"one effect per entry, not {' and '.join(found)}", "write them as two list items")
    name = found[0]
    word = words[name]
    word.value.check(e[name], where.at(name, e, name))
    for k, v in e.items():
        if k == name:
            continue
        if k not in word.keys:
            takes = ", ".join(word.keys) or "no other key"
            raise where.at(str(k), e, k).error(f"unknown key {k!r} in {name}", f"{name} takes {takes}")
        word.keys[k].check(v, where.at(str(k), e, k))
    return name


def _uses_target(e: Any) -> bool:
    return isinstance(e, dict) and any(v in ("target", "targets") for k, v in e.items())


def _parse_one(a: Any, i: int, where: Where) -> Ability:
    if not isinstance(a, dict):
        raise where.error("each ability is a mapping")
    where = where.inside(a)
    for k in a:
        if k not in ABILITY_KEYS:
            raise where.at(str(k), a, k).error(f"unknown key {k!r}", f"an ability takes {', '.join(ABILITY_KEYS)}")
    kind = a.get("kind")
    if kind not in KINDS:
        raise where.at("kind", a, "kind").error(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    misplaced = [k for k in (_NOT_CONSTANT if kind == "constant" else _CONSTANT_ONLY) if k in a]
    if misplaced:
        k = misplaced[0]
        raise where.at(k, a, k).error(
            f"{article(kind)} ability takes no {k!r}",
            "constants take modify, attach_to, prohibit, control_host, terminal, if and while" if kind == "constant"
            else "modify, attach_to, prohibit, control_host, terminal and while are for constants")
    phase = a.get("phase")
    if kind == "action":
        if phase is None:
            raise where.at("phase", a, "phase").error("an action needs its phase label (phase: any for Any Phase)")
        Words(*LABELS).check(phase, where.at("phase", a, "phase"))
    elif phase is not None:
        raise where.at("phase", a, "phase").error(f"{article(kind)} takes no phase label",
                                                  "name the phase in 'when' or 'if: {phase: ...}'")
    when = a.get("when")
    if kind in ("response", "passive"):
        _check_when(when, kind, where.at("when", a, "when"))
    elif when is not None:
        raise where.at("when", a, "when").error(f"{article(kind)} takes no 'when'", "responses and passives do")
    if "if" in a and "while" in a:
        raise where.at("while", a, "while").error("give 'if' or 'while', not both")
    cond_key = "if" if "if" in a else "while"
    condition = a.get(cond_key)
    if condition is not None:
        _check_condition(condition, where.at(cond_key, a, cond_key))
    limit = a.get("limit")
    if limit is not None:
        LIMIT.check(limit, where.at("limit", a, "limit"))
        limit = (limit.get("times", 1), limit["per"]) + ((limit["shared"],) if "shared" in limit else ())
    cost = a.get("cost") or {}
    if "cost" in a:
        _check_cost(a["cost"], where.at("cost", a, "cost"))
    choose = a.get("choose")
    if isinstance(choose, dict) and "player" in choose:
        PLAYER_CHOICE.check(choose, where.at("choose", a, "choose"))
        choose = dict(choose)
    elif choose is not None:
        CHOOSE.check(choose, where.at("choose", a, "choose"))
        choose = dict(choose)
    seqs = []
    for key in ("effect", "then"):
        seq = a.get(key)
        if seq is None:
            seqs.append(())
            continue
        w = where.at(key, a, key)
        items = seq if isinstance(seq, list) else [seq]
        for j, e in enumerate(items):
            _check_effect(e, w.at(f"[{j + 1}]", seq if isinstance(seq, list) else None, j, sep=""))
            if _uses_target(e) and choose is None and not a.get("granted"):  # granted: the enabler's targets
                raise w.at(f"[{j + 1}]", seq if isinstance(seq, list) else None, j, sep="").error(
                    "the effect acts on 'target', but the ability chooses none", "add 'choose: FILTER'")
        seqs.append(tuple(items))
    if kind in _TRIGGERED and not seqs[0]:
        raise where.at("effect", a, "effect").error(f"{article(kind)} needs an effect")
    if seqs[1] and not seqs[0]:
        raise where.at("then", a, "then").error("'then' follows an effect")
    for key in ("text",):
        if key in a:
            Text().check(a[key], where.at(key, a, key))
    for key in ("cannot_be_canceled", "cannot_be_saved", "from_hand", "granted", "from_dead", "as_agenda",
                "instead_of_claim"):
        if key in a:
            Bool().check(a[key], where.at(key, a, key))
    if a.get("instead_of_claim") and (kind != "passive" or (when or {}).get("event") != "challenge_won"):
        raise where.at("instead_of_claim", a, "instead_of_claim").error(
            "only a passive on 'challenge_won' replaces the claim", "write kind: passive, when: {event: challenge_won}")
    if a.get("as_agenda") and kind not in _TRIGGERED:
        raise where.at("as_agenda", a, "as_agenda").error("only actions, responses and passives work as an agenda")
    if "from_pile" in a:
        Words("discard", "dead").check(a["from_pile"], where.at("from_pile", a, "from_pile"))
    modify = a.get("modify")
    if modify is not None:
        CONSTANT_MODIFY.check(modify, where.at("modify", a, "modify"))
    attach_to = a.get("attach_to")
    if attach_to is not None:
        FilterSchema().check(attach_to, where.at("attach_to", a, "attach_to"))
        attach_to = dict(attach_to)
    prohibit = a.get("prohibit")
    if prohibit is not None:
        PROHIBIT.check(prohibit, where.at("prohibit", a, "prohibit"))
    if "control_host" in a:
        TrueOnly().check(a["control_host"], where.at("control_host", a, "control_host"))
    control_host = bool(a.get("control_host"))
    terminal = a.get("terminal")
    if terminal is not None:
        FilterSchema().check(terminal, where.at("terminal", a, "terminal"))
        terminal = dict(terminal)
    extra = {}
    for key, schema in (("lower_cost", LOWER_COST), ("no_kneel", NO_KNEEL), ("cannot_be", CANNOT_BE)):
        if key in a:
            schema.check(a[key], where.at(key, a, key))
            extra[key] = a[key] if key == "lower_cost" else tuple(a[key])
    for key, schema in (("toll", TOLL), ("untargetable", UNTARGETABLE), ("allows", ALLOWS)):  # core-d
        if key in a:
            schema.check(a[key], where.at(key, a, key))
            extra[key] = tuple(a[key]) if key == "allows" else dict(a[key])
    if "toll" in a:  # issue 24: gold, or influence to kneel (to declare the host only)
        toll, at = a["toll"], where.at("toll", a, "toll")
        if ("gold" in toll) == ("influence" in toll):
            raise at.error("a toll needs 'gold: N' or 'influence: N' (one of them)")
        if "influence" in toll and (set(toll["for"]) - {"attack", "defend"} or "to" in toll):
            raise at.error("an influence toll is for [attack, defend] only, and takes no 'to'",
                           "the host's controller kneels the influence himself")
    if "leaves_play" in a:  # issue 24: A Song of Twilight's locations
        Words("discard", "removed").check(a["leaves_play"], where.at("leaves_play", a, "leaves_play"))
        if not (a.get("while") or a.get("if")):
            raise where.at("leaves_play", a, "leaves_play").error(
                "leaves_play needs a condition ('if' or 'while'): the card would leave play at once")
        extra["leaves_play"] = a["leaves_play"]
    if "spend_gold" in a:
        TrueOnly().check(a["spend_gold"], where.at("spend_gold", a, "spend_gold"))
        extra["spend_gold"] = True
    if "not_declared_with" in a:  # issue 24
        FilterSchema().check(a["not_declared_with"], where.at("not_declared_with", a, "not_declared_with"))
        extra["not_declared_with"] = dict(a["not_declared_with"])
    if "optional_penalty" in a:  # issue 24 (Veteran Builder, Mance Rayder)
        OPTIONAL_PENALTY.check(a["optional_penalty"], where.at("optional_penalty", a, "optional_penalty"))
        extra["optional_penalty"] = dict(a["optional_penalty"])
    if "x_is" in a:  # issue 24 (Lady of Schemes)
        FilterSchema({"from": FROM}).check(a["x_is"], where.at("x_is", a, "x_is"))
        extra["x_is"] = dict(a["x_is"])
    if "enters_kneeling" in a:  # issue 24 (Five Kings Edition)
        FilterSchema().check(a["enters_kneeling"], where.at("enters_kneeling", a, "enters_kneeling"))
        extra["enters_kneeling"] = dict(a["enters_kneeling"])
    if "claim_types" in a:  # issue 24 (Breaking and Entering)
        CLAIM_TYPES.check(a["claim_types"], where.at("claim_types", a, "claim_types"))
        if "claim_into_play" not in a.get("allows", ()):
            raise where.error("'claim_types' goes with 'allows: [claim_into_play]'",
                              "add claim_into_play to the card's allows, or remove claim_types")
        extra["claim_types"] = tuple(a["claim_types"])
    if "deck" in a:  # issue 24: an agenda's deck-building rules, checked by cards.deck.check_deck only
        DECK_RULES.check(a["deck"], where.at("deck", a, "deck"))
        extra["deck"] = dict(a["deck"])
    if kind == "constant" and modify is None and attach_to is None and prohibit is None \
            and not control_host and terminal is None and not extra:
        raise where.error("a constant ability needs 'modify: {target: ..., strength: N, ...}', 'attach_to: FILTER', "
                          "'prohibit: {...}', 'control_host: true' or 'terminal: FILTER'")
    return Ability(index=i, kind=kind, phase=phase, when=when, condition=condition or None,
                   limit=limit, cost=dict(cost), choose=choose, effect=seqs[0], then=seqs[1],
                   modify=modify, attach_to=attach_to, text=str(a.get("text") or ""),
                   granted=bool(a.get("granted")), from_hand=bool(a.get("from_hand")),
                   from_dead=bool(a.get("from_dead")),
                   prohibit=prohibit, control_host=control_host, terminal=terminal,
                   cannot_be_canceled=bool(a.get("cannot_be_canceled")),
                   cannot_be_saved=bool(a.get("cannot_be_saved")), from_pile=a.get("from_pile"), lower_cost=extra.get("lower_cost"),
                   no_kneel=extra.get("no_kneel", ()), cannot_be=extra.get("cannot_be", ()),
                   toll=extra.get("toll"), untargetable=extra.get("untargetable"), allows=extra.get("allows", ()),
                   spend_gold=bool(extra.get("spend_gold")), not_declared_with=extra.get("not_declared_with"),
                   optional_penalty=extra.get("optional_penalty"), enters_kneeling=extra.get("enters_kneeling"),
                   as_agenda=bool(a.get("as_agenda")), x_is=extra.get("x_is"), leaves_play=extra.get("leaves_play"),
                   instead_of_claim=bool(a.get("instead_of_claim")), claim_types=extra.get("claim_types", ()))


def parse_abilities(raw: tuple, source: str | Where = "") -> list[Ability]:
    """Parse and check a card's raw ability data; errors are DataErrors naming the file, line and field.

    ``source`` is the card's ``file:line``; abilities read from YAML (``cards.yamlio``) carry their own
    lines, which win."""
    base = source if isinstance(source, Where) else Where.of_source(source)
    if not isinstance(raw, (tuple, list)):
        raise base.error("abilities must be a list of abilities")
    return [_parse_one(a, i, base.at(f"[{i}]", raw, i - 1)) for i, a in enumerate(raw, start=1)]


def _parse_nested(raw: tuple, where: Where) -> list[Ability]:
    out = []
    for i, a in enumerate(raw, start=1):
        out.append(_parse_one(a, i, where.at(f"[{i}]")))
    return out


Nested.parse = staticmethod(_parse_nested)


# --- core-b additions ---

PROHIBITIONS = PROHIBITIONS + ("income_bonuses", "plot_income", "taxation_phase")
"""income_bonuses: characters, locations and attachments give no income (Rains of Autumn); plot_income:
the revealed plot's income is 0 (Blockade); taxation_phase: the taxation phase is skipped (Planning Ahead)."""
PROHIBIT = Mapping({"what": Words(*PROHIBITIONS), "max": Int(), "player": Words("you", "opponent", "each")},
                   required=("what",), what="prohibit")
CANNOT = ("be_killed", "defend", "stand")
"""A constant's ``cannot: [...]``: the targets cannot be killed, be declared as defenders, or stand."""
CONSTANT_MODIFY = Mapping({"target": card_selector(), "gain": Nested(), "gold_penalty": Int(minimum=None), "for_each": FOR_EACH,
                           **MODIFIERS, "cannot": ListOf(Words(*CANNOT)),
                           "strength_per_attachment": Int(minimum=None), "terminal": FilterSchema()},
                          what="modify")
ABILITY_KEYS["from_dead"] = "true: used while in its owner's dead pile (the card returns itself)"
_NOT_CONSTANT = _NOT_CONSTANT + ("from_dead",)

effects.EffectLists.check_effect = staticmethod(_check_effect)

# --- core-c additions ---

CANNOT = CANNOT + ("be_discarded",)
"""be_discarded: the targets cannot be discarded from play (nor chosen for an effect that discards)."""
CONSTANT_MODIFY.keys["cannot"] = ListOf(Words(*CANNOT))


# --- core-d additions ---

PROHIBITIONS = PROHIBITIONS + ("character_power", "trigger_abilities")
"""character_power: power on the player's characters does not count towards his total power (Melisandre)."""
PROHIBIT.keys["what"] = Words(*PROHIBITIONS)
PROHIBIT.keys["type"] = Words(*CHALLENGE_TYPES)
"""``prohibit: {what: challenges, type: T, max: N}``: the limit counts challenges of that type only (max
0: "you cannot declare intrigue challenges", Siege of Riverrun)."""
LIMIT.keys["shared"] = Text("NAME")
"""``limit: {times, per, shared: NAME}``: every ability of the player with the same shared name counts
against one limit ("Limit 1 Limited Response per round": ``shared: limited_response``)."""
TOLL_ON = ("attack", "defend", "trigger", "challenge", "event")
TOLL = Mapping({"gold": Int(minimum=1), "influence": Int(minimum=1), "for": ListOf(Words(*TOLL_ON)),
                "type": Words("military", "intrigue", "power"), "to": Words("you", "defender", "opponent")},
               required=("for",), what="toll")
"""A constant gold toll (GEN-01), ``for`` (not ``on``, which YAML reads as true): ``attack``/``defend``/``trigger``: the host's controller gives this card's
controller N gold to declare the host as an attacker / defender or to trigger one of its abilities (Motley);
``challenge``: the attacker gives the defender N gold to initiate a challenge (of ``type``); ``event``: a player
gives an opponent of his choice N gold to play an event. ``influence: N`` instead of ``gold`` (issue 24, for
``attack``/``defend`` only): the host's controller kneels N influence to declare it (Banished, In Chains)."""
UNTARGETABLE = Mapping({"by": Words("opponent", "any"),
                        "source": ListOf(Words("event", "character", "location", "attachment", "plot", "agenda"))},
                       required=("by",), what="untargetable")
ALLOWS = ListOf(Words("actions_before_reveal", "unopposed_by_4", "unopposed_win", "extra_limited_location",
                      "extra_limited", "saves_allowed", "no_protection"))
ABILITY_KEYS["toll"] = ("a constant gold toll: {gold: N, for: [attack, defend, trigger, challenge, event], type, to}: "
                        "gold given to another player to declare, trigger, initiate or play (GEN-01); or "
                        "{influence: N, for: [attack, defend]}: influence the host's controller kneels to declare it")
ABILITY_KEYS["untargetable"] = ("a constant targeting restriction: {by: opponent | any, source: [event, character, "
                                "...]}: those players may not choose this card as a target of those sources")
ABILITY_KEYS["allows"] = ("a constant rule: [actions_before_reveal] (for every player: an action window between choosing "
                          "and revealing plots), [unopposed_by_4] (for its controller: a challenge he wins as the "
                          "attacker by 4 STR or more counts as unopposed, CHL-19), [unopposed_win] (for its controller: "
                          "a challenge he wins as the attacker counts as unopposed, CHL-19; with `if`), [extra_limited_location] (for its controller: one "
                          "more Limited location this round, MAR-11), [extra_limited] (for its controller: one more Limited card of any "
                          "type this round, MAR-11), [saves_allowed] (for every player: an effect that kills or discards "
                          "can be saved even if its ability says it cannot be, Theon Greyjoy's agenda), [no_protection] (every character "
                          "loses its \"cannot be killed\", \"cannot be discarded\" and immunities, Catelyn Stark's agenda)")
_CONSTANT_ONLY = _CONSTANT_ONLY + ("toll", "untargetable", "allows")


# --- gold tokens (Tywin Lannister) ---

ABILITY_KEYS["spend_gold"] = ("a constant: true: its controller may spend the gold tokens on this card as if they "
                              "were in his gold pool (tokens placed with {place_gold: SEL})")
_CONSTANT_ONLY = _CONSTANT_ONLY + ("spend_gold",)


# --- issue 24 (CCG Winter Edition) additions ---

PROHIBITIONS = PROHIBITIONS + ("draw_phase", "triggered_effects", "extra_power_to_win", "extra_claim")
"""draw_phase: the player draws no cards in the draw phase ("skip your draw phase"); triggered_effects: the
player can neither trigger actions and responses of cards nor play events with them (EFF-01); extra_claim: the
claim of the player's revealed plot is ``max`` higher (Dragonstone of the Five Kings Edition, with ``if``)."""
PROHIBIT.keys["what"] = Words(*PROHIBITIONS)
CONSTANT_MODIFY.keys["printed_strength"] = Int()
"""printed_strength: N: the targets' printed STR counts as N (if lower) while the constant applies; modifiers
still add to it (Under the Guild's Sway)."""
CANNOT = CANNOT + ("be_saved",)
"""be_saved: no save (an ability's or a duplicate's) can save the targets from being killed or discarded."""
CONSTANT_MODIFY.keys["cannot"] = ListOf(Words(*CANNOT))
ABILITY_KEYS["not_declared_with"] = ("a constant declaration restriction: FILTER: the card cannot be declared as an "
                                     "attacker or defender together with a card that matches (GEN-01)")
_CONSTANT_ONLY = _CONSTANT_ONLY + ("not_declared_with",)


# --- issue 24 (CCG Five Kings Edition) additions ---

ABILITY_KEYS["enters_kneeling"] = ("a constant: FILTER: while this card is in play, the cards that match it enter play "
                                   "kneeling (`{self: true}`: this card itself; King's Landing, Muddy Way)")
_CONSTANT_ONLY = _CONSTANT_ONLY + ("enters_kneeling",)


# --- issue 24 (CCG Winter Edition, w1) additions ---

CANNOT = CANNOT + ("lose_strength",)
"""lose_strength: the targets' STR cannot be lowered: every modifier that would lower it (a negative STR
change, a lower printed STR) is ignored; raises still count (Areo Hotah)."""
CONSTANT_MODIFY.keys["cannot"] = ListOf(Words(*CANNOT))
PROHIBITIONS = PROHIBITIONS + ("extra_doomed",)
"""extra_doomed (with max: N): those players count N more Doomed cards in their dead pile for elimination (Great
Pyramid of Meereen)."""
PROHIBIT.keys["what"] = Words(*PROHIBITIONS)
OPTIONAL_PENALTY = Mapping({"gold": Int(minimum=1), "card": FilterSchema()}, required=("gold",),
                           what="optional_penalty")
ABILITY_KEYS["optional_penalty"] = ("a constant: {gold: N, card: FILTER}: its player may choose to pay a gold penalty "
                                    "of N as he marshals this card (read in his hand), or, with card, a card of his "
                                    "that matches while this one is in play (the marshal answer's penalty: true)")
_CONSTANT_ONLY = _CONSTANT_ONLY + ("optional_penalty",)

# --- issue 24: "characters you control do not kneel to attack or defend" (Clash of Kings); "cannot attack" ---

CONSTANT_MODIFY.keys["no_kneel"] = NO_KNEEL
"""no_kneel: [attack, defend]: the targets do not kneel when declared as attackers / defenders (CHL-03, CHL-07)."""
CANNOT = CANNOT + ("attack", "stealth_target")
"""attack: the targets cannot be declared as attackers (GEN-01); stealth_target: no attacker's stealth may choose
them (Unbowed, Unbent, Unbroken; CHL-06)."""
PROHIBITIONS = PROHIBITIONS + ("unopposed_power", "extra_income", "extra_strength", "only_characters")
"""unopposed_power: the player claims no power for his unopposed challenges (CHL-19; Break Their Defense);
extra_income (max: N): his total income is N higher (A Beggared Realm); extra_strength (max: N): his total STR is N
higher in each challenge he has a participating character in (Winter is Coming); only_characters: he may marshal
character cards only (Superior Numbers, with triggered_effects for events)."""
PROHIBIT.keys["what"] = Words(*PROHIBITIONS)
CONSTANT_MODIFY.keys["cannot"] = ListOf(Words(*CANNOT))

ABILITY_KEYS["as_agenda"] = ("true (an action, response or passive): the ability works only while the card lies "
                             "on its owner's House card as his agenda (a character placed there by "
                             "`place_as_agenda`); such a card's other abilities do not work there")

CONSTANT_MODIFY.keys["no_house_penalty"] = TrueOnly()
"""no_house_penalty: true: the targets (cards in hand: ``{all: {..., from: hand}}``) are played without the +2 gold
penalty for another House (MAR-07, SET-06; Maesters of the Citadel)."""

PROHIBITIONS = PROHIBITIONS + ("defenders",)
"""defenders (max: N): the player cannot declare more than N defenders in a challenge (Catch Them Unprepared)."""
PROHIBIT.keys["what"] = Words(*PROHIBITIONS)
PROHIBIT.keys["revealed_plot"] = FilterSchema()
"""revealed_plot: FILTER: the restriction binds only the players whose revealed plot matches (Foe I was Born to
Fight: "opponents who have an Others plot revealed")."""
PROHIBIT.keys["initiative_below"] = TrueOnly()
"""initiative_below: true: the restriction binds only the players whose total initiative is lower than its
controller's (Catch Them Unprepared)."""

# --- issue 24 (Five Kings Edition, Lady of Schemes) ---

ABILITY_KEYS["x_is"] = ("a constant: FILTER (`from:` a pile, `owner: you`): the card's printed X, its cost and its "
                        "STR, is the number of matching cards, read in hand and in play; the X of the card's abilities is that number "
                        "too, whatever X the player announces")
_CONSTANT_ONLY = _CONSTANT_ONLY + ("x_is",)

# --- issue 24 (CCG Five Kings Edition) additions ---

CONSTANT_MODIFY.keys["gold_penalty"] = Either(Int(minimum=None), Words("printed_cost"), form="N | printed_cost")
"""gold_penalty: printed_cost: each target costs as much more as its own printed cost (Euron Crow's Eye: "X
more, X is the printed cost")."""

# --- issue 24 (Five Kings Edition, fk3): Desert Stocks ---
CANNOT = CANNOT + ("be_removed_from_challenge",)
"""be_removed_from_challenge: an effect that removes cards from the challenge leaves the targets in it (Desert
Stocks, with a lasting ``modify``)."""
CONSTANT_MODIFY.keys["cannot"] = ListOf(Words(*CANNOT))
PROHIBITIONS = PROHIBITIONS + ("extra_initiative",)
"""extra_initiative (with max: N): those players' initiative is N higher (Mountain Bandits, with ``if``)."""
PROHIBIT.keys["what"] = Words(*PROHIBITIONS)

DECK_RULES = Mapping({"no_neutral": ListOf(Words("character", "location", "attachment", "event")),
                      "house_deck_min": Int(minimum=1), "plots": Int(minimum=1),
                      "extra_plot_copy": TrueOnly()}, what="deck")
"""An agenda's deck-building rules (a constant's ``deck``): no neutral cards of these types in the House deck, the
House deck's smallest size (instead of 60, DCK-02), the plot deck's size (instead of 7, DCK-01), an eighth plot that
is a second copy of one of the seven (``extra_plot_copy: true``, Princes of the South, DCK-01). The engine plays
nothing for them: ``cards.deck.check_deck`` reads them from the agenda's ability data."""
ABILITY_KEYS["deck"] = ("a constant's deck-building rules (an agenda's): {no_neutral: [character, location, ...], "
                        "house_deck_min: N, plots: N, extra_plot_copy: true}, checked by the deck checker (docs/decks.md), nothing in play")
_CONSTANT_ONLY = _CONSTANT_ONLY + ("deck",)

CONSTANT_MODIFY.keys["declare_without_icon"] = ListOf(Words("military", "intrigue", "power"))
"""declare_without_icon: [military, power]: the targets may be declared as attackers or defenders in challenges of
those types without the icon (they do not gain it: The Night's Watch agenda)."""

PROHIBITIONS = PROHIBITIONS + ("all_or_none",)
"""all_or_none (with type: military | intrigue | power): in challenges of that type (any type without it) the player
declares as attackers, or as defenders, either none of his characters or every one that could be declared (All Men
Must Fight, GEN-01)."""
PROHIBIT.keys["what"] = Words(*PROHIBITIONS)

# --- issue 24 (Five Kings Edition, part 6) ---
PROHIBIT.keys["for_each"] = FOR_EACH
"""for_each (with the extra_* restrictions): their ``max`` counts once for each matching card, read as it is used
(Bitterbridge Tourney Grounds: the claim is 1 higher for each Power Struggle plot in your used pile)."""
PROHIBITIONS = PROHIBITIONS + ("double_influence",)
"""double_influence (with card: FILTER): the printed influence of each card the player controls that matches
``card`` counts twice (Taxed at Swordpoint: Kingdom locations)."""
PROHIBIT.keys["what"] = Words(*PROHIBITIONS)
PROHIBIT.keys["card"] = FilterSchema()
ALLOWS = ListOf(Words(*ALLOWS.item.words, "claim_into_play"))
ABILITY_KEYS["allows"] += (", [claim_into_play] (for its controller: each character his intrigue claim takes from the "
                           "defender's hand he may put into play under his control instead of its discard, Scouting "
                           "the Pass)")
CLAIM_TYPES = ListOf(Words("character", "attachment", "location"))
ABILITY_KEYS["claim_types"] = ("with allows: [claim_into_play]: [character, attachment, location]: the types of the "
                               "cards the intrigue claim may put into play (none given: characters; Breaking and "
                               "Entering: [attachment, location])")
_CONSTANT_ONLY = _CONSTANT_ONLY + ("claim_types",)
PROHIBITIONS = PROHIBITIONS + ("hand_max",)
"""hand_max (with max: N): a player bound by it who holds more than N cards discards down to N at once, choosing
which (Tyrion Lannister's agenda of the Five Kings Edition; ``flow.hand_limit_check``)."""
PROHIBIT.keys["what"] = Words(*PROHIBITIONS)

PROHIBIT.keys["dead_strength_max"] = Int()
"""dead_strength_max: N: the restriction binds only the players with N or less total STR in their dead pile (Turncoat
Lord: "opponents with less than 4 total STR in their dead pile", ``dead_strength_max: 3``)."""

PROHIBITIONS = PROHIBITIONS + ("extra_challenges",)
"""extra_challenges (with max: N, type): those players may initiate N more challenges of that type (of any type
without ``type``) in the challenges phase, while the ``if`` holds (GEN-01; Deepwood Motte, the lasting form is the
``extra_challenge`` effect)."""
PROHIBIT.keys["what"] = Words(*PROHIBITIONS)
PROHIBIT.keys["max"] = Int(minimum=None)
"""max may be below 0 where the restriction adds to a count: ``{what: extra_doomed, max: -1, player: you}``, "you need
one more Doomed card in your dead pile to be eliminated" (Crazed Doomsayer); ``extra_power_to_win: -1``: the player
needs 1 less power to win (Willas Tyrell)."""
PROHIBIT.keys["unless_controls"] = FilterSchema()
"""unless_controls: FILTER: the restriction binds only the players who control no card in play that matches (Muster
the Realm!: no military challenges for a player without an Army character)."""
LOWER_COST.keys["by"] = Either(Int(minimum=1), Words("all"), form="N | all")
"""lower_cost by: all: the cost to play the card is 0, whatever its penalties (Vanguard Ranger: "reduce the cost to
play it to 0")."""
# --- issue 24 (Iron Throne Edition, part 3): Stannis Baratheon, Ser Jorah Mormont of the Legacy Pack ---
CONSTANT_MODIFY.keys["strength_per_power"] = Int(minimum=None)
"""strength_per_power: N: each target gets N STR (N may be negative) for each power on it ("+1 STR for each power
on him"); like ``strength_per_attachment``, read as STR is read (EFF-06)."""
# --- issue 24 (A House of Thorns): the Oaths, Banner of the Rose ---
CONSTANT_MODIFY.keys["not_counted"] = Either(TrueOnly(), Words("dominance"), form="true | dominance")
"""not_counted: true: while the constant applies, the targets' STR does not count towards their side's total in a
challenge (CHL-12), like the lasting ``not_counted`` effect (In Eddard's Name: the defenders of two Houses while its
character attacks); ``dominance``: it does not count towards their player's total for dominance (DOM-01: Left)."""
CONSTANT_MODIFY.keys["lower_penalty"] = Int(minimum=1)
"""lower_penalty: N: the targets' gold penalties (another House's, MAR-07, and those constants add) come to N
less, never below 0; the cost itself is not lowered (the Iron Throne Edition's Emissaries: "reduce your gold
penalty for playing Lannister or Targaryen cards by 1")."""

ABILITY_KEYS["instead_of_claim"] = ("true (a passive on `challenge_won`): the ability replaces the claim of the challenge "
                                    "its controller wins as the attacker: it resolves when the claim would, and the "
                                    "claim does not happen (\"instead of the normal claim\")")
PROHIBITIONS = PROHIBITIONS + ("events", "extra_unopposed_power")
"""events: the players cannot play event cards (their card abilities stay usable: Dorne's Favored Weapon);
extra_unopposed_power (max: N): the players claim N more power for each unopposed challenge they win (CHL-19;
Rise of the Kraken)."""
PROHIBIT.keys["what"] = Words(*PROHIBITIONS)
CONSTANT_MODIFY.keys["income"] = Int(minimum=None)
"""income: N: each target's gold (income) icon gives N more (N may be negative; never below 0): Burned Fields,
All the Gold in Casterly Rock of the Iron Throne Edition."""
from cards.model import CRESTS  # noqa: E402
CONSTANT_MODIFY.keys["add_crests"] = ListOf(Words(*CRESTS))
"""add_crests: [war, ...]: the targets have these crests too (the Iron Throne Edition's Lord's Battle Standard:
"the attached character gains the War crest"); the ``crest`` filter sees them."""
CANNOT = CANNOT + ("military_claim",)
"""military_claim: the targets cannot be chosen to satisfy a military claim (CHL-14; Marked for Ransom)."""
CONSTANT_MODIFY.keys["cannot"] = ListOf(Words(*CANNOT))
CONSTANT_MODIFY.keys["for_each"] = Either(Words("your_gold", "your_house_power"), FilterSchema({"from": FROM}),
                                         form="FILTER | your_gold | your_house_power")
"""A constant ``modify``'s ``for_each: your_house_power``: its ``strength`` times the power on its controller's House
card (Accepted Destiny: "+1 STR for each power on your House")."""

PROHIBITIONS = PROHIBITIONS + ("leave_discard",)
"""leave_discard (player: each): no card effect may take a card out of a discard pile: an effect's selectors and
targets never pick a card in a discard pile (issue 24: Sealed Mine)."""
PROHIBIT.keys["what"] = Words(*PROHIBITIONS)
