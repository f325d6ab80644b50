"""EFF-06: constants are recalculated whenever something they read changes. The engine settles them
again only when the structure or an aspect they read (``engine.abilities.reads``)
has changed: these tests hold that classification to the vocabulary and to play."""
from __future__ import annotations

from pathlib import Path

import pytest

import engine.abilities.constants as constants
import engine.triggers  # noqa: F401  (registers every vocabulary word)
from engine.abilities import reads
from engine.abilities.registry import REGISTRY
from engine.scenario import ScenarioSkipped, load_scenario, run_scenario

ROOT = Path(__file__).resolve().parents[2]
LCG = ROOT / "tests" / "scenarios" / "lcg"
PRACTICE = ROOT / "tests" / "scenarios" / "practice"
RULES = ROOT / "tests" / "scenarios" / "rules"


def test_eff06_every_filter_and_condition_word_is_classified():
    """A new word reads everything until it is listed; this keeps the list complete."""
    filters = set(reads.FILTER_READS) | set(reads.NESTED_FILTERS) | {"any_of", "controller", "owner"}
    assert set(REGISTRY["filter"]) <= filters
    assert set(REGISTRY["condition"]) <= set(reads.CONDITION_READS) | set(reads.FILTER_CONDITIONS)


@pytest.mark.parametrize("condition, modify, aspects", [
    (None, {"target": "host", "strength": 2}, set()),
    ({"self": {"standing": True}}, {"target": {"all": {"type": "character", "trait": "Asshai"}}}, {"kneel"}),
    ({"host": {"participating": True}}, {"target": "host"}, {"challenge"}),
    ({"phase": "dominance"}, {"target": "host"}, {"phase"}),
    (None, {"target": "self", "for_each": "your_gold"}, {"gold"}),
    (None, {"target": "self", "for_each": {"trait": "Direwolf"}}, set()),
    ({"self": {"strength_changed": True}}, {"target": "self"}, {"counters"}),
    ({"you_control": {"power_min": 1, "from": "deck"}}, {"target": "self"}, {"power", "piles"}),
    ({"self": {"not": {"kneeling": True}}}, {"target": "self"}, {"kneel"}),
    ({"self": {"any_of": [{"attacking": True}, {"trait": "Lord"}]}}, {"target": "self"}, {"challenge"}),
    (None, {"target": {"all": {"type": "character", "moribund": False}}}, {"moribund"}),
    (None, {"target": {"all": {"type": "character", "controller": "loser"}}}, reads.EVERYTHING),
    ({"a_word_nobody_knows": True}, {"target": "self"}, reads.EVERYTHING),
    (None, {"target": {"all": {"a_key_nobody_knows": 1}}}, reads.EVERYTHING),
    (None, {"target": "a_selector_nobody_knows"}, reads.EVERYTHING),
])
def test_eff06_what_a_constant_reads(condition, modify, aspects):
    assert reads.constant_reads(condition, modify) == frozenset(aspects)


def _game(path: Path, keep_steps: int | None = None):
    try:
        sc = load_scenario(path)
    except ScenarioSkipped as err:
        pytest.skip(err.reason)
    sc.steps = sc.steps[:keep_steps]
    result = run_scenario(sc)
    assert result.passed, result.reason
    return sc.game, sc.labels


def test_eff06_kneeling_the_source_ends_a_constant_that_reads_standing():
    """Melisandre gives Asshai characters +1 STR while she stands: kneel her and it ends at once."""
    g, ids = _game(LCG / "core-melisandre-opponents-character-power.yaml")
    assert g.strength(ids["acolyte"]) == 2
    g.card(ids["mel"]).kneeling = True
    assert g.strength(ids["acolyte"]) == 1 and g.strength(ids["bacolyte"]) == 1
    g.card(ids["mel"]).kneeling = False
    assert g.strength(ids["acolyte"]) == 2


def test_eff06_a_change_no_constant_reads_keeps_the_settled_constants(monkeypatch):
    """Holding the Trident counts characters: kneeling one (or spending gold) does not settle the
    constants again; a card leaving play does, and the bonus ends."""
    g, ids = _game(LCG / "core-holding-the-trident-fewer-characters.yaml", keep_steps=1)
    settles = []
    real = constants._settle_constants
    monkeypatch.setattr(constants, "_settle_constants", lambda g_, cs: settles.append(1) or real(g_, cs))
    assert g.strength(ids["sguard"]) == 4
    before = len(settles)
    g.card(ids["lguard"]).kneeling = True
    g.player("alice").gold += 3
    assert g.strength(ids["sguard"]) == 4
    assert len(settles) == before
    g.leave_play(ids["slayer"], "dead")
    assert g.strength(ids["sguard"]) == 2
    assert len(settles) == before + 1


@pytest.mark.parametrize("modify, condition, changed, targets_read, conditions_read", [
    ({"target": "host", "strength": 2}, None, {"strength"}, set(), set()),
    ({"target": {"all": {"type": "character", "trait": "Asshai"}}, "strength": 1}, {"self": {"standing": True}},
     {"strength"}, {"traits"}, set()),
    ({"target": {"all": {"type": "character", "strength_max": 2}}, "cannot": ["stand"]}, {"phase": "standing"},
     set(), {"strength"}, set()),
    ({"target": "host", "add_keywords": ["stealth"], "blank": True}, {"host": {"icon": "power"}},
     {"keywords", "blank"}, set(), {"icons"}),
    ({"target": "self", "for_each": {"trait": "Direwolf"}, "strength": 1}, None, {"strength"}, {"traits"}, set()),
    ({"target": "self", "a_modifier_nobody_knows": 1}, {"a_word_nobody_knows": 1}, reads.ALL_STATS, set(),
     reads.ALL_STATS),
])
def test_eff06_what_a_constant_changes_and_reads_of_derived_values(modify, condition, changed, targets_read,
                                                                   conditions_read):
    assert reads.modify_stats(modify) == frozenset(changed)
    assert reads.target_stats(modify) == frozenset(targets_read)
    assert reads.condition_stats(condition) == frozenset(conditions_read)


def test_eff06_every_modify_key_is_classified():
    from engine.abilities.parse import CONSTANT_MODIFY
    assert set(CONSTANT_MODIFY.keys) <= set(reads.MODIFY_STATS)


def test_eff06_rnd05_the_phase_is_read_without_moving_the_structure():
    """The phase is not structure (``engine.state.GameState``): a constant whose condition reads it is
    settled again when the phase changes, and the index of actions offered follows the phase (RND-05),
    though no card moved."""
    from engine.abilities.runtime import step_abilities
    from engine.state import Version
    g, ids = _game(RULES / "eff-06-a-constant-that-reads-the-phase.yaml")
    actions = lambda: [cid for cid, _ in step_abilities(g, "alice", "action")]  # noqa: E731
    assert g.strength(ids["drummer"]) == 1 and ids["fire"] not in actions()
    s = Version.s
    g.state.phase = "dominance"
    assert Version.s == s
    assert g.strength(ids["drummer"]) == 3 and ids["fire"] in actions()
    g.state.phase = "standing"
    assert g.strength(ids["drummer"]) == 1 and ids["fire"] not in actions()
