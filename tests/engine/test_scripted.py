"""The escape hatch: every scripted ability has its own test, here or as a scenario."""
from pathlib import Path

from engine import scripted
from engine.scenario import run_path

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"


def _scenarios_using(name: str) -> list[Path]:
    return [p for p in SCENARIOS.rglob("*.yaml") if f"script: {name}" in p.read_text(encoding="utf-8")]


def test_every_script_is_played_by_a_passing_scenario():
    for name in scripted.SCRIPTS:
        using = _scenarios_using(name)
        assert using, f"script {name!r} has no scenario"
        for path in using:
            result = run_path(str(path))
            assert result.passed, f"{path}: step {result.step}: {result.reason}"


def test_an_unknown_script_is_a_data_error(tmp_path):
    path = tmp_path / "unknown-script.yaml"
    path.write_text("""
format: 1
title: an unknown script
cards:
  - name: Odd Device
    type: event
    cost: 0
    abilities: [{kind: action, phase: any, effect: [{script: no_such_script}]}]
  - {name: Plain Plot, type: plot, income: 0, initiative: 0, claim: 1}
start:
  phase: challenges
  players:
    alice: {house: stark, revealed_plot: Plain Plot, hand: [Odd Device]}
    bob: {house: lannister, revealed_plot: Plain Plot}
steps:
  - alice: {trigger: Odd Device}
  - until: {window_step: 5}
  - expect: {log: "no script named 'no_such_script'"}
""")
    result = run_path(str(path))
    # the strict parser refuses the data before the game starts, naming the file, line and scripts
    assert not result.passed
    assert "unknown-script.yaml:8: abilities.[1].effect[1].script: unknown value 'no_such_script'" in result.reason
    assert "field_sergeant" in result.reason
