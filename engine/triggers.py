"""Triggered abilities at run time: the old entry point, kept as a thin facade.

The ability runtime lives in the ``engine.abilities`` package, one module per part of the
vocabulary (filters, selectors, conditions, events, costs, effects, constants) plus the
questions the steps of ``engine.flow`` ask (``engine.abilities.runtime``). This module
re-exports the same functions with the same signatures, so ``triggers.options(...)``,
``triggers.execute(...)`` and the rest keep working.
"""
from __future__ import annotations

from engine.abilities.conditions import condition_holds
from engine.abilities.constants import (_constant_keys, _constant_sources, _fingerprint, _settle_constants,
                                        attachment_restriction_problem, cannot_be, constant_modifiers,
                                        count_for_each, does_not_kneel, extra_claim, extra_initiative, extra_doomed, extra_power_to_win, host_types, lower_cost, prohibited,
                                        prohibitions,
                                        terminal_conditions, terminal_holds, terminal_victims,
                                        leaves_play_destination, leaves_play_holds, leaves_play_victims)
from engine.abilities.constants import allowed, allowed_for, pay_tolls, toll_total, tolls, trigger_tolls, untargetable  # core-d
from engine.abilities.constants import (constants_modify, enters_kneeling, extra_limited_allowed, keys_with,
                                        optional_penalty, spends_gold)
from engine.abilities.constants import defined_x  # issue 24: Lady of Schemes
from engine.abilities.constants import influence_factor  # issue 24: Taxed at Swordpoint
from engine.abilities.runtime import choose_count, may_answer, step_abilities
from engine.abilities.costs import gold_cost as _gold_cost
from engine.abilities.costs import chosen_costs, pay_chosen  # issue 24: costs paid with chosen cards
from engine.abilities.costs import (influence_cost, influence_problem, kneel_cost_problem, limit_key, pay_costs,
                                    reducers_for, reduction, restriction_problem, split_pay, use_reducer)
from engine.abilities.costs import payment as _payment
from engine.abilities.effects import (REMOVAL_WORD, _describe_modify, conflicting_removals, control_problem,
                                      execute, victims_of)
from engine.abilities.effects import effect_word, execute_one
from engine.abilities.effects import execute_one as _execute_one
from engine.abilities.effects import execute_flow, prepare_flow  # core-b: effects that ask
from engine.abilities.effects import removes as _removes
from engine.abilities.events import gate_matches
from engine.abilities.filters import (SOURCE_CLASS, candidates, cards_in_play, challenge_loser, immune_to, in_challenge,
                                      matches)
from engine.abilities.model import Ability, Ctx, _effect_name
from engine.abilities.parse import parse_abilities
from engine.abilities.runtime import (SOFT_PROBLEMS, Opportunity, _checked_costs, _entry_problem, available,
                                      check_trigger, find_opportunity, legal_targets, no_target_problem, options,
                                      passives_for, save_cancel_gates, save_gate, target_problem)
from engine.abilities.runtime import claim_replacements  # issue 24: "instead of the normal claim"
from engine.abilities.selectors import select
from engine.abilities.sources import (_from_hand_cards, _gained, abilities, ability_sources, is_granted,
                                      text_modifiers_exist, usable_here)

__all__ = [
    "Ability", "Ctx", "Opportunity", "REMOVAL_WORD", "SOFT_PROBLEMS", "SOURCE_CLASS", "abilities",
    "ability_sources", "attachment_restriction_problem", "effect_word", "execute_one", "cannot_be", "count_for_each", "does_not_kneel",
    "lower_cost", "available", "candidates", "cards_in_play",
    "challenge_loser", "check_trigger", "condition_holds", "conflicting_removals", "constant_modifiers", "control_problem",
    "execute", "find_opportunity", "gate_matches", "host_types", "immune_to", "in_challenge", "influence_cost",
    "influence_problem",
    "is_granted", "kneel_cost_problem", "legal_targets", "limit_key", "matches", "no_target_problem", "options", "parse_abilities",
    "passives_for", "claim_replacements", "pay_costs", "prohibited", "prohibitions", "extra_claim", "extra_doomed", "extra_initiative",
    "extra_power_to_win", "reducers_for", "reduction", "restriction_problem",
    "defined_x", "enters_kneeling", "influence_factor",
    "save_cancel_gates", "save_gate", "select", "split_pay", "target_problem", "terminal_conditions", "choose_count",
    "terminal_holds", "terminal_victims", "leaves_play_holds", "leaves_play_victims", "leaves_play_destination", "text_modifiers_exist", "usable_here", "step_abilities", "may_answer",
    "constants_modify", "keys_with", "use_reducer", "victims_of",
    "_checked_costs", "_constant_keys", "_entry_problem", "_constant_sources", "_describe_modify", "_effect_name",
    "_execute_one", "_fingerprint", "_from_hand_cards", "_gained", "_gold_cost", "_payment", "_removes",
    "_settle_constants", "execute_flow", "prepare_flow",
    "allowed", "allowed_for", "spends_gold", "extra_limited_allowed", "optional_penalty", "chosen_costs", "pay_chosen", "pay_tolls", "toll_total", "tolls", "trigger_tolls", "untargetable",
]


def _amount(e: dict, default: int = 1) -> int:
    return int(e.get("amount", default))


# --- core-c additions ---
from engine.abilities.constants import weapon_only_problem  # noqa: E402
from engine.abilities.effects import pay_challenge_tolls, replaced_kill  # noqa: E402
from engine.abilities.constants import extra_prohibited, influence_tolls  # noqa: E402  (issue 24)
from engine.abilities.constants import claim_into_play_types  # noqa: E402  (issue 24: Breaking and Entering)
from engine.abilities.effects import influence_givers, kneel_influence  # noqa: E402  (issue 24)

__all__ += ["pay_challenge_tolls", "replaced_kill", "weapon_only_problem"]
__all__ += ["extra_prohibited", "influence_tolls", "influence_givers", "kneel_influence"]
__all__ += ["claim_into_play_types"]
