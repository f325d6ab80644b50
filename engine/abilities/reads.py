"""What an ability's condition, target or filter reads of the table beyond its structure.

The engine keeps values that read only the structure (zones, controllers, attachments, lasting
effects: ``engine.state.Version.s``) until the structure changes. A constant (EFF-06) or an
attachment restriction (ATT-02) may also read things that change without moving a card: kneeling,
power, moribund marks, the challenge, gold, the phase and its counters, the size of a deck (the
phase is not structure: most values do not read it, and it changes eight times a round). The
lenses below name which,
from the words of the vocabulary (``engine.abilities.registry``) the data uses; a word this table
does not know reads everything, so a new word is never missed, only slower until it is listed here.

The constants are settled again (``constants.constant_map``) only when the structure or one of the
aspects the constants in play read has changed (``constants._fingerprint``).
"""
from __future__ import annotations

from typing import Any

KNEEL, POWER, CHALLENGE, GOLD, COUNTERS, PILES, MORIBUND, PHASE = \
    "kneel", "power", "challenge", "gold", "counters", "piles", "moribund", "phase"
EVERYTHING = frozenset({KNEEL, POWER, CHALLENGE, GOLD, COUNTERS, PILES, MORIBUND, PHASE})
"""Every aspect a condition or filter can read besides the structure."""

_NONE: frozenset = frozenset()

FILTER_READS: dict[str, frozenset] = {
    **{k: _NONE for k in (
        "type", "trait", "house", "unique", "not_self", "self", "host", "cost_max", "cost_min",
        "strength_max", "strength_min", "icon", "keyword", "name", "has_attachments",
        "influence_min", "crest", "one_per_character", "income_min", "attachments_max", "named",
        "count_min", "count_max", "cost_max_trigger", "cost_max_target", "doomed", "trigger", "strength_max_trigger", "target",
        "most_attachments", "strength_below_trigger", "own_house", "house_of", "printed_strength_max",
        "printed_strength_min", "strength_highest", "strength_lowest", "strength_below_dead_strength", "icons_max",
        "controller_dead_strength_min", "controller_dead_strength_max", "printed_icon", "houses_min", "printed_trait",
        "icons_min")},
    # STR, icons, keywords and traits read lasting effects (structure) and constants (settled together)
    **{k: frozenset({CHALLENGE}) for k in ("participating", "attacking", "defending", "attacking_alone",
                                           "participating_alone", "cost_max_participants")},
    **{k: frozenset({KNEEL}) for k in ("kneeling", "standing")},
    **{k: frozenset({POWER}) for k in ("power_min", "controller_power")},
    "moribund": frozenset({MORIBUND}),
    "cost_max_your_gold": EVERYTHING,  # gold tokens a card lets you spend, under its own condition
    "strength_below_count": EVERYTHING,  # a count of cards under a filter of its own
    "strength_changed": frozenset({COUNTERS}),
    "first_marshalled": frozenset({COUNTERS, PHASE}),  # the marshalled counters of the phase
    "from": frozenset({PILES}),
}
"""Filter keys (``engine.abilities.filters``) and the aspects they read; nested filters are walked."""

NESTED_FILTERS = ("has_attachment", "attached_to", "not", "cost_below_you_control", "more_than", "nearest_top",
                  "cost_max_count")  # more_than: the in_play condition's
WHO_STRUCTURAL = ("you", "opponent", "any")
"""``controller`` / ``owner`` values that read the structure alone (``loser`` reads the challenge)."""

CONDITION_READS: dict[str, frozenset] = {
    **{k: _NONE for k in ("opponents_min", "fewer_characters", "plot_income_below_yours", "gate_plot_above",
                          "dead_strength")},
    "phase": frozenset({PHASE}),
    **{k: frozenset({CHALLENGE}) for k in ("challenge_type", "you_are", "you_won", "won_by_min",
                                           "challenge_of", "unopposed", "won_challenges", "your_strength_min")},
    "plots_chosen": frozenset({COUNTERS, PHASE}),
    "lost_challenge": frozenset({COUNTERS, PHASE}),
    "initiative_above": EVERYTHING,  # plots and the initiative bonuses of the cards in play
    "house_power": frozenset({POWER, CHALLENGE}),  # the power on House cards; `defender`: the challenge
    "initiative_max": EVERYTHING,  # the same (issue 24: Host of the Bear)
}
"""Condition words (``engine.abilities.conditions``) that take no filter, and what they read."""

FILTER_CONDITIONS = {"would_discard": EVERYTHING,  # step 2: the effect being resolved
                     "self": _NONE, "host": _NONE, "you_control": _NONE, "in_play": _NONE, "controls_most": _NONE,
                     "defender_controls": frozenset({CHALLENGE}), "revealed_plot": _NONE,
                     "discarded": EVERYTHING}  # the cards the resolving ability discarded (never a constant's)
"""Condition words whose value is a filter: what the word reads, plus its filter's reads."""


class _Lens:
    """One way of reading the vocabulary: a word's own reads (``word``: a filter key and its value,
    or None when the word is unknown), what a condition word that takes no filter reads, what the
    filter-taking condition words add, and what reading "everything" means. The walk over filters,
    conditions, selectors and counts is the same for every lens."""

    def __init__(self, word, condition_words: dict, filter_conditions: dict, gold: frozenset,
                 everything: frozenset):
        self.word, self.condition_words, self.filter_conditions = word, condition_words, filter_conditions
        self.gold, self.everything = gold, everything

    def filter(self, f: Any) -> frozenset:
        if not isinstance(f, dict):
            return self.everything
        out: set = set()
        for key, want in f.items():
            if key in NESTED_FILTERS:
                out |= self.filter(want)
            elif key == "any_of":
                if not isinstance(want, list):
                    return self.everything
                for sub in want:
                    out |= self.filter(sub)
            else:
                found = self.word(key, want)
                if found is None:
                    return self.everything
                out |= found
        return frozenset(out)

    def condition(self, cond: Any) -> frozenset:
        if not cond:
            return _NONE
        if not isinstance(cond, dict):
            return self.everything
        out: set = set()
        for key, want in cond.items():
            if key in self.condition_words:
                out |= self.condition_words[key]
            elif key in self.filter_conditions:
                out |= self.filter_conditions[key] | self.filter(want)
            else:
                return self.everything
        return frozenset(out)

    def selector(self, sel: Any) -> frozenset:
        if sel is None or sel in ("self", "host"):
            return _NONE
        if isinstance(sel, dict) and "all" in sel:
            return self.filter(sel["all"]) if isinstance(sel["all"], dict) else _NONE
        if isinstance(sel, dict):
            return self.filter(sel)
        return self.everything

    def for_each(self, spec: Any) -> frozenset:
        if spec is None:
            return _NONE
        if spec == "your_gold":
            return self.gold
        if spec == "your_house_power":  # the power on your House card (Accepted Destiny)
            return frozenset({POWER}) & self.everything
        return self.filter(spec)


def _aspect_of(key: str, want: Any) -> frozenset | None:
    if key in ("controller", "owner"):
        return _NONE if want in WHO_STRUCTURAL else None
    return FILTER_READS.get(key)


ASPECTS = _Lens(_aspect_of, CONDITION_READS, FILTER_CONDITIONS, frozenset({GOLD}), EVERYTHING)
"""What filters, conditions, selectors and counts read beyond the structure."""


def filter_reads(f: Any) -> frozenset:
    """What a filter (a dict of filter keys) reads."""
    return ASPECTS.filter(f)


def condition_reads(cond: Any) -> frozenset:
    """What a condition (``while`` / ``if``) reads."""
    return ASPECTS.condition(cond)


def constant_reads(condition: Any, modify: dict) -> frozenset:
    """What a constant with this condition and ``modify`` reads to know what it does now."""
    if not isinstance(modify, dict):
        return EVERYTHING
    return ASPECTS.condition(condition) | ASPECTS.selector(modify.get("target", "self")) | \
        ASPECTS.for_each(modify.get("for_each")) | (frozenset({POWER}) if "strength_per_power" in modify else _NONE)


# ---------------------------------------------------------------------------
# Derived values: which of a card's values that constants change a filter reads
# ---------------------------------------------------------------------------

STRENGTH, ICONS, KEYWORDS, TRAITS, BLANK = "strength", "icons", "keywords", "traits", "blank"
ALL_STATS = frozenset({STRENGTH, ICONS, KEYWORDS, TRAITS, BLANK})
"""The values of a card a constant can change (``Game.strength``, ``icons``, ``keywords``, ``traits``,
``is_blank``)."""

FILTER_STATS: dict[str, frozenset] = {
    "trait": frozenset({TRAITS}), "icon": frozenset({ICONS}), "icons_min": frozenset({ICONS}), "icons_max": frozenset({ICONS}),
    "keyword": frozenset({KEYWORDS}),
    "crest": frozenset({TRAITS}),  # issue 24: crests that constants add (add_crests) count as traits here
    **{k: frozenset({STRENGTH}) for k in ("strength_max", "strength_min", "strength_changed",
                                          "strength_max_trigger", "strength_below_trigger", "strength_highest",
                                          "strength_lowest", "strength_below_dead_strength")},
}
"""Filter keys that read a value constants change; every other key of ``FILTER_READS`` reads none."""

MODIFY_STATS: dict[str, frozenset] = {
    "strength": frozenset({STRENGTH}), "for_each": frozenset({STRENGTH}),
    "strength_per_attachment": frozenset({STRENGTH}), "printed_strength": frozenset({STRENGTH}),
    "strength_per_power": frozenset({STRENGTH}),
    "add_icons": frozenset({ICONS}), "remove_icons": frozenset({ICONS}),
    "add_keywords": frozenset({KEYWORDS}), "remove_keywords": frozenset({KEYWORDS}),
    "blank": frozenset({BLANK, KEYWORDS}),  # a blank text box has no printed keywords
    "add_traits": frozenset({TRAITS}), "remove_traits": frozenset({TRAITS}),
    "add_crests": frozenset({TRAITS}),
    **{k: _NONE for k in ("target", "gain", "gold_penalty", "cannot", "terminal", "no_kneel",
                          "no_house_penalty", "declare_without_icon", "not_counted",
                          "lower_penalty", "income")},
}
"""A constant's ``modify`` keys and the values they change."""


def _stat_of(key: str, want: Any) -> frozenset | None:
    if key in FILTER_STATS:
        return FILTER_STATS[key]
    return _NONE if key in FILTER_READS or key in ("controller", "owner") else None


STATS = _Lens(_stat_of, {k: _NONE for k in CONDITION_READS}, {k: _NONE for k in FILTER_CONDITIONS}, _NONE,
              ALL_STATS)
"""Which of a card's values that constants change filters, conditions, selectors and counts read."""


def filter_stats(f: Any) -> frozenset:
    """Which values constants change a filter reads."""
    return STATS.filter(f)


def condition_stats(cond: Any) -> frozenset:
    """Which values constants change a condition reads."""
    return STATS.condition(cond)


def target_stats(modify: Any) -> frozenset:
    """Which values constants change a constant's target and count read."""
    if not isinstance(modify, dict):
        return ALL_STATS
    return STATS.selector(modify.get("target", "self")) | STATS.for_each(modify.get("for_each"))


def modify_stats(modify: Any) -> frozenset:
    """Which values a constant's ``modify`` changes."""
    if not isinstance(modify, dict):
        return ALL_STATS
    out: set = set()
    for key in modify:
        if key not in MODIFY_STATS:
            return ALL_STATS
        out |= MODIFY_STATS[key]
    if "lose_strength" in (modify.get("cannot") or ()):  # "its STR cannot be lowered" changes its STR
        out.add(STRENGTH)
    return frozenset(out)
