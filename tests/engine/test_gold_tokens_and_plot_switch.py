"""Gold tokens spent as if in the gold pool (Tywin Lannister, core_40) and switched plot decks (Varys, core_142):
the engine's helpers, at positions of their scenarios (tests/scenarios/lcg/core-tywin-*, core-varys-*)."""
from __future__ import annotations

from pathlib import Path

import pytest

from engine import legality, triggers
from engine.decisions import Refused
from engine.scenario import load_scenario, run_scenario
from engine.state import Effect

LCG = Path(__file__).resolve().parents[1] / "scenarios" / "lcg"


def positioned(name: str, keep_steps: int):
    sc = load_scenario(LCG / name)
    sc.steps = sc.steps[:keep_steps]
    result = run_scenario(sc)
    assert result.passed, result.reason
    return sc.game, sc.labels


def test_gold_tokens_are_spendable_only_while_his_constant_holds(lcg_json):
    g, labels = positioned("core-tywin-lannister-leaves-play-gold-returns.yaml", 1)
    tywin, informant = labels["tywin"], labels["informant"]
    assert g.player("alice").gold == 0 and g.gold_tokens("alice") == [(tywin, 3)]
    assert g.spendable_gold("alice") == 3 and g.spendable_gold("bob") == 1
    triggers.check_trigger(g, "alice", {"trigger": informant}, step="action")  # 2 gold: Tywin pays
    g.state.effects.append(Effect(tywin, "blank", True, "phase"))  # blanked: the gold stays, unspendable
    assert g.spendable_gold("alice") == 0 and g.card(tywin).tokens == {"gold": 3}
    with pytest.raises(Refused, match="alice has 0"):
        triggers.check_trigger(g, "alice", {"trigger": informant}, step="action")
    g.state.effects.pop()
    with pytest.raises(Refused, match="may spend only 3"):
        triggers.check_trigger(g, "alice", {"trigger": informant, "gold_tokens": 4}, step="action")
    with pytest.raises(Refused, match="2 from the gold pool needed"):
        triggers.check_trigger(g, "alice", {"trigger": informant, "gold_tokens": 0}, step="action")


def test_spend_gold_pays_the_pool_first_unless_told(lcg_json):
    g, labels = positioned("core-tywin-lannister-leaves-play-gold-returns.yaml", 1)
    tywin = labels["tywin"]
    g.player("alice").gold = 2
    assert g.spend_gold("alice", 3) == 3
    assert g.player("alice").gold == 0 and g.card(tywin).tokens == {"gold": 2}
    g.player("alice").gold = 2
    assert g.spend_gold("alice", 3, from_tokens=2) == 3
    assert g.player("alice").gold == 1 and "gold" not in g.card(tywin).tokens
    assert g.gold_tokens_problem("alice", 1, -1).startswith("gold_tokens: a whole number")
    assert g.gold_tokens_problem("alice", 1, True).startswith("gold_tokens: a whole number")


def test_the_table_asks_only_when_pool_first_and_tokens_first_differ(lcg_json):
    g, labels = positioned("core-tywin-lannister-gold-on-him.yaml", 2)  # pool 3, 2 on Tywin
    assert g.player("alice").gold == 3 and g.spendable_gold("alice") == 5
    assert legality.gold_split_choice(g, "alice", {"marshal": labels["sword"]}) == (2, 0, 2)
    # 5 gold: the pool's 3 and Tywin's 2 either way, so no question
    assert legality.gold_split_choice(g, "alice", {"marshal": labels["engineer"]}) is None
    assert legality.gold_split_choice(g, "bob", {"marshal": labels["sword"]}) is None


def test_varys_lists_one_answer_per_opponent_and_records_the_switch(lcg_json):
    g, labels = positioned("core-varys-switches-plot-decks-for-a-round.yaml", 1)
    options = [o for o in triggers.options(g, "alice", step="action") if o["trigger"] == labels["varys"]]
    assert sorted(o["targets"][0] for o in options) == ["bob", "carol"]
    for o in options:
        triggers.check_trigger(g, "alice", o, step="action")
    g2, _ = positioned("core-varys-switches-plot-decks-for-a-round.yaml", 3)
    assert g2.state.plot_swaps == [["alice", "carol"]]
    assert g2.plot_piles("alice").name == "carol"
