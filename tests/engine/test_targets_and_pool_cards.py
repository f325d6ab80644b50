"""Targets that are players or the challenge's loser, targets that could not enter play, saves
that would not end a terminal condition (all as listed options), and scenario ``pool:`` cards."""
from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from cards.errors import DataError
from engine import triggers
from engine.abilities import parse_abilities
from engine.scenario import ScenarioSkipped, load_scenario, run_path, run_scenario

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "scenarios"


def positioned(path: Path, keep_steps: int):
    """A scenario played up to (not including) step ``keep_steps + 1``: its game and labels."""
    sc = load_scenario(path)
    sc.steps = sc.steps[:keep_steps]
    result = run_scenario(sc)
    assert result.passed, result.reason
    return sc.game, sc.labels


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


# ---------------------------------------------------------------------------
# The format: player targets and the loser
# ---------------------------------------------------------------------------

def test_a_player_target_parses():
    [ab] = parse_abilities(({"kind": "passive", "when": {"event": "plot_revealed", "card": "self"},
                             "choose": {"player": "opponent"}, "effect": [{"draw": 3, "player": "target"}]},))
    assert ab.choose == {"player": "opponent"}


@pytest.mark.parametrize("choose, words, field", [
    ({"player": "friend"}, "unknown value 'friend' (use opponent, any)", "player"),
    ({"player": "opponent", "type": "character"}, "unknown key 'type' in a player target", "type"),
    ({"type": "character", "controller": "victor"},
     "unknown value 'victor' (use you, opponent, loser, winner, any, gate_player, target)",
     "controller"),
    ({"type": "character", "owner": "them"},
     "unknown value 'them' (use you, opponent, loser, winner, any, gate_player)", "owner"),
])
def test_bad_player_targets_and_controllers_are_data_errors(choose, words, field):
    with pytest.raises(DataError) as err:
        parse_abilities(({"kind": "action", "phase": "any", "choose": choose, "effect": [{"draw": 1}]},),
                        "cards/x.yaml:3")
    assert words in str(err.value) and err.value.field == f"abilities.[1].choose.{field}"


def test_robb_stark_options_name_only_the_losers_characters(lcg_json):
    path = SCENARIOS / "lcg" / "core-robb-stark-kills-only-the-losers-character.yaml"
    g, labels = positioned(path, 5)  # at alice's step-5 response after winning against bob
    options = triggers.options(g, "alice", step="response")
    assert [o["targets"] for o in options if o["trigger"] == labels["robb"]] == [[labels["guard"]]]
    for o in options:  # each listed option is a complete legal answer
        triggers.check_trigger(g, "alice", o, step="response")


def test_counting_favors_offers_each_opponent(lcg_json):
    path = SCENARIOS / "lcg" / "core-counting-favors-chooses-an-opponent.yaml"
    g, _ = positioned(path, 2)
    d = g.advance()
    assert d.kind == "choose" and d.player == "alice" and list(d.choices) == ["bob", "carol"]


def test_an_action_choosing_an_opponent_lists_one_answer_per_opponent(tmp_path):
    path = write(tmp_path, "favour.yaml", """\
        format: 1
        title: choose an opponent
        cards:
          - name: Ask a Favour
            type: event
            cost: 0
            abilities:
              - {kind: action, phase: challenges, choose: {player: opponent}, effect: [{draw: 1, player: target}]}
          - {name: Filler, type: location, cost: 1}
          - {name: Quiet Plot, type: plot, income: 0, initiative: 0, claim: 0}
        start:
          phase: challenges
          players:
            alice: {house: stark, revealed_plot: Quiet Plot, hand: [{card: Ask a Favour, id: favour}]}
            bob: {house: lannister, revealed_plot: Quiet Plot, deck: [Filler]}
            carol: {house: baratheon, revealed_plot: Quiet Plot, deck: [Filler]}
        steps:
          - until: {decision: action, player: alice}
          - alice: {trigger: favour, targets: [alice], rejected: "not a legal target"}
          - alice: {trigger: favour, targets: [carol]}
          - until: {decision: action, player: alice}
          - expect: {hand_size: {alice: 0, bob: 0, carol: 1}}
        """)
    g, labels = positioned(path, 1)
    options = [o for o in triggers.options(g, "alice", step="action") if o["trigger"] == labels["favour"]]
    assert [o["targets"] for o in options] == [["bob"], ["carol"]]
    for o in options:
        triggers.check_trigger(g, "alice", o, step="action")
    assert run_path(str(path)).passed


# ---------------------------------------------------------------------------
# Options leave out what the rules forbid
# ---------------------------------------------------------------------------

def test_put_into_play_options_leave_out_blocked_unique_cards():
    path = SCENARIOS / "rules" / "cos-14-put-into-play-needs-a-card-that-can-enter.yaml"
    g, labels = positioned(path, 1)
    assert not [o for o in triggers.options(g, "alice", step="action") if o["trigger"] == labels["recall"]]
    g, labels = positioned(path, 7)  # the footman is in the discard pile now
    options = [o for o in triggers.options(g, "alice", step="action") if o["trigger"] == labels["recall"]]
    assert [o["targets"] for o in options] == [[labels["foot"]]]


def test_terminal_saves_that_would_not_end_the_condition_are_not_offered():
    path = SCENARIOS / "rules" / "mor-09-a-save-that-leaves-the-condition-is-not-legal.yaml"
    g, labels = positioned(path, 4)
    d = g.advance()
    assert d.kind == "save_cancel" and d.player == "bob"
    assert d.options == [{"trigger": labels["wind"], "ability": 1, "targets": [labels["hollow"]], "pay": [],
                          "x": 0}]


# ---------------------------------------------------------------------------
# Scenario pool: cards
# ---------------------------------------------------------------------------

POOL_SCENARIO = """\
    format: 1
    title: an imported card by its pool key
    cards:
      - pool: core_108
      - {name: Quiet Plot, type: plot, income: 0, initiative: 0, claim: 0}
    start:
      phase: challenges
      players:
        alice: {house: targaryen, revealed_plot: Quiet Plot, in_play: [{card: Viserys Targaryen, id: v}]}
        bob: {house: stark, revealed_plot: Quiet Plot}
    steps:
      - expect: {strength: {v: 1}, zone: {Viserys Targaryen: in_play}}
    """


def test_a_pool_card_loads_the_imported_card_with_the_projects_abilities(lcg_json, tmp_path, monkeypatch):
    monkeypatch.setenv("MAESTER_LCG_JSON", str(lcg_json))
    path = write(tmp_path, "pool.yaml", POOL_SCENARIO)
    sc = load_scenario(path)
    d = sc.game.pool["core_108"]
    assert d.name == "Viserys Targaryen" and d.abilities and d.abilities[0]["then"]
    assert run_path(str(path)).passed


def test_a_pool_card_without_card_data_skips_the_scenario(tmp_path, monkeypatch):
    monkeypatch.setenv("MAESTER_LCG_JSON", str(tmp_path / "absent.json"))
    path = write(tmp_path, "pool.yaml", POOL_SCENARIO)
    with pytest.raises(ScenarioSkipped):
        load_scenario(path)
    result = run_path(str(path))
    assert result.skipped and not result.passed and "core_108" in result.reason
    out = subprocess.run([sys.executable, "-m", "engine.scenario", str(path)], cwd=ROOT, capture_output=True,
                         text=True, timeout=300)
    lines = out.stdout.strip().splitlines()
    assert out.returncode == 0, out.stdout + out.stderr
    assert lines[0].startswith(f"SKIP {path}: ") and "core_108" in lines[0]
    assert lines[-1] == "0 passed, 0 failed, 1 skipped"


def test_a_pool_entry_takes_only_its_key(tmp_path):
    path = write(tmp_path, "pool.yaml", POOL_SCENARIO.replace("- pool: core_108", "- {pool: core_108, cost: 2}"))
    result = run_path(str(path))
    assert not result.passed and not result.skipped and result.step == 0
    assert "a pool entry takes only 'pool'" in result.reason
