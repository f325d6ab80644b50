"""The scenario suite and the scenario runner's contract (../shared/spec/scenario-format.md).

* Every ``tests/scenarios/**/*.yaml`` must pass (``engine.scenario.run_path``).
  A scenario that shows an engine gap waits in ``tests/scenarios_pending/`` (not collected;
  empty today).
* ``python -m engine.scenario PATH...`` prints ``PASS <path>`` or
  ``FAIL <path>: step <n>: <reason>`` per file, then ``<N> passed, <M> failed``,
  and exits 0 only when every file passes.
* A scenario that breaks the format (unknown key, undefined or ambiguous card,
  malformed value, unknown player) fails with a message naming the step and the
  key - never a Python traceback.
"""
from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from engine.scenario import run_path

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "scenarios"
SCENARIO_FILES = sorted(SCENARIOS.rglob("*.yaml"))


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


# ---------------------------------------------------------------------------
# The suite
# ---------------------------------------------------------------------------

def test_the_suite_is_not_empty():
    assert len(SCENARIO_FILES) >= 1
    assert any(p.parent.name == "rounds" for p in SCENARIO_FILES)


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=[_rel(p) for p in SCENARIO_FILES])
def test_scenario(path: Path):
    result = run_path(str(path))
    if result.skipped:
        pytest.skip(result.reason)  # a pool: card whose card data is absent
    if not result.passed:
        print(f"FAIL {_rel(path)}: step {result.step}: {result.reason}")
        verbose = run_path(str(path), verbose=True)
        print("\n".join(verbose.transcript[-80:]))
    assert result.passed, f"{_rel(path)}: step {result.step}: {result.reason}"


# ---------------------------------------------------------------------------
# Scenarios written on the fly
# ---------------------------------------------------------------------------

BASE = """\
format: 1
title: A small marshalling position
cards:
  - {name: Stable Boy, type: character, house: neutral, cost: 1, strength: 1, icons: [military]}
  - {name: Quiet Year, type: plot, income: 3, initiative: 1, claim: 1}
start:
  phase: marshalling
  first_player: alice
  players:
    alice:
      house: stark
      revealed_plot: {card: Quiet Year, id: a-plot}
      hand: [{card: Stable Boy, id: boy1}, {card: Stable Boy, id: boy2}]
    bob:
      house: lannister
      revealed_plot: {card: Quiet Year, id: b-plot}
steps:
  - alice: {marshal: boy1}
  - until: {decision: action}
  - expect: {zone: {boy1: in_play}, gold: {alice: 2}}
"""


def variant(old: str, new: str) -> str:
    assert old in BASE, old
    return BASE.replace(old, new, 1)


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def cli(*args: str) -> subprocess.CompletedProcess:
    result = subprocess.run([sys.executable, "-m", "engine.scenario", *map(str, args)], cwd=ROOT,
                            capture_output=True, text=True, timeout=300)
    assert "Traceback" not in result.stdout, result.stdout
    assert "Traceback" not in result.stderr, result.stderr
    return result


def lines(result: subprocess.CompletedProcess) -> list[str]:
    return [line for line in result.stdout.splitlines() if line.strip()]


def test_base_scenario_passes(tmp_path):
    path = write(tmp_path, "base.yaml", BASE)
    result = run_path(str(path))
    assert result.passed, result.reason


# ---------------------------------------------------------------------------
# The command line
# ---------------------------------------------------------------------------

def test_cli_all_pass_exits_0(tmp_path):
    a = write(tmp_path, "a.yaml", BASE)
    b = write(tmp_path, "b.yaml", variant("gold: {alice: 2}", "gold: {alice: 2, bob: 0}"))
    result = cli(a, b)
    assert result.returncode == 0, result.stdout
    assert lines(result) == [f"PASS {a}", f"PASS {b}", "2 passed, 0 failed"]


def test_cli_a_failure_exits_1_and_names_path_and_step(tmp_path):
    good = write(tmp_path, "good.yaml", BASE)
    bad = write(tmp_path, "bad.yaml", variant("gold: {alice: 2}", "gold: {alice: 99}"))
    result = cli(good, bad)
    assert result.returncode == 1, result.stdout
    out = lines(result)
    assert out[0] == f"PASS {good}"
    assert out[1].startswith(f"FAIL {bad}: step 3: ")
    assert "gold.alice" in out[1] and "99" in out[1]
    assert out[-1] == "1 passed, 1 failed"
    assert len(out) == 3


def test_cli_searches_folders_recursively_in_sorted_order(tmp_path):
    write(tmp_path, "b.yaml", BASE)
    (tmp_path / "sub").mkdir()
    write(tmp_path / "sub", "a.yaml", variant("gold: {alice: 2}", "gold: {alice: 7}"))
    write(tmp_path, "notes.txt", "not a scenario")
    result = cli(tmp_path)
    assert result.returncode == 1
    out = lines(result)
    assert len(out) == 3
    assert out[0] == f"PASS {tmp_path / 'b.yaml'}"
    assert out[1].startswith(f"FAIL {tmp_path / 'sub' / 'a.yaml'}: step 3: ")
    assert out[2] == "1 passed, 1 failed"


def test_cli_every_failing_file_counts(tmp_path):
    one = write(tmp_path, "one.yaml", variant("title: A small", "author: someone\ntitle: A small"))
    two = write(tmp_path, "two.yaml", variant("gold: {alice: 2}", "gold: {alice: 5}"))
    result = cli(one, two)
    assert result.returncode == 1
    out = lines(result)
    assert re.match(rf"FAIL {re.escape(str(one))}: step \d+: .*author", out[0]), out[0]
    assert out[1].startswith(f"FAIL {two}: step 3: ")
    assert out[-1] == "0 passed, 2 failed"


def test_cli_verbose_prints_the_log_and_the_decisions(tmp_path):
    path = write(tmp_path, "base.yaml", BASE)
    result = cli(path, "--verbose")
    assert result.returncode == 0
    out = result.stdout
    assert f"PASS {path}" in out
    assert "alice marshals Stable Boy (1 gold)" in out          # the game log
    assert re.search(r"action of alice .*marshal", out)        # a decision and its answer
    assert out.strip().splitlines()[-1] == "1 passed, 0 failed"


def test_cli_runs_the_project_suite():
    rounds = SCENARIOS / "rounds"
    result = cli(rounds.relative_to(ROOT))
    out = lines(result)
    files = sorted(rounds.rglob("*.yaml"))
    assert out[-1] == f"{len(files)} passed, 0 failed", "\n".join(out)
    assert result.returncode == 0
    assert out[:-1] == [f"PASS {_rel(f)}" for f in files]


# ---------------------------------------------------------------------------
# Scenarios that break the format: a message naming the step and the key
# ---------------------------------------------------------------------------

BROKEN = {
    # name: (scenario text, step named, fragments the reason must contain)
    "unknown-top-level-key": (variant("title: A small", "author: someone\ntitle: A small"), 0, ["author"]),
    "unknown-start-key": (variant("  phase: marshalling", "  phase: marshalling\n  weather: cold"), 0, ["weather"]),
    "unknown-player-key": (variant("      house: stark", "      house: stark\n      golds: 3"), 0, ["golds"]),
    "unknown-card-entry-key": (variant("{card: Stable Boy, id: boy2}", "{card: Stable Boy, id: boy2, tapped: true}"),
                               0, ["tapped"]),
    "unknown-card-field": (variant("cost: 1, strength: 1,", "cost: 1, strenght: 1,"), 0, ["strenght"]),
    "unknown-key-in-command": (variant("{marshal: boy1}", "{marshal: boy1, attach: boy2}"), 1, ["attach"]),
    "unknown-step-key": (variant("  - until: {decision: action}", "  - wait: {decision: action}"), 2, ["wait"]),
    "unknown-key-in-until": (variant("until: {decision: action}", "until: {decisoin: action}"), 2, ["decisoin"]),
    "unknown-key-in-expect": (variant("expect: {zone:", "expect: {zones:"), 3, ["zones"]),
    "unknown-key-in-expect-challenge": (variant("expect: {zone: {boy1: in_play},",
                                                "expect: {challenge: {victor: alice}, zone: {boy1: in_play},"),
                                        3, ["victor"]),
    "undefined-card-in-start": (variant("hand: [", "hand: [Zzyzx Phantom Card, "), 0, ["Zzyzx Phantom Card", "hand"]),
    "undefined-card-in-step": (variant("{marshal: boy1}", "{marshal: Zzyzx Phantom Card}"), 1,
                               ["Zzyzx Phantom Card", "marshal"]),
    "undefined-card-in-expect": (variant("zone: {boy1: in_play}", "zone: {boy9: in_play}"), 3, ["boy9", "zone"]),
    "ambiguous-card-in-step": (variant("{marshal: boy1}", "{marshal: Stable Boy}"), 1,
                               ["Stable Boy", "ambiguous", "marshal"]),
    "ambiguous-card-in-expect": (variant("zone: {boy1: in_play}", "zone: {Stable Boy: in_play}"), 3,
                                 ["Stable Boy", "ambiguous", "zone"]),
    "malformed-round": (variant("  phase: marshalling", "  phase: marshalling\n  round: many"), 0, ["round", "many"]),
    "malformed-gold": (variant("      house: stark", "      house: stark\n      gold: lots"), 0, ["gold", "lots"]),
    "malformed-phase": (variant("  phase: marshalling", "  phase: lunch"), 0, ["phase", "lunch"]),
    "malformed-format": (variant("format: 1", "format: 2"), 0, ["format"]),
    "malformed-seed": (variant("format: 1", "format: 1\nseed: abc"), 0, ["seed"]),
    "malformed-ruleset": (variant("format: 1", "format: 1\nruleset: modern"), 0, ["ruleset", "modern"]),
    "malformed-duplicates": (variant("revealed_plot: {card: Quiet Year, id: b-plot}",
                                     "revealed_plot: {card: Quiet Year, id: b-plot}\n"
                                     "      in_play: [{card: Stable Boy, duplicates: two}]"), 0,
                             ["duplicates", "two"]),
    "malformed-until-phase": (variant("until: {decision: action}", "until: {phase: lunch}"), 2, ["phase", "lunch"]),
    "malformed-until-decision": (variant("until: {decision: action}", "until: {decision: nap}"), 2,
                                 ["decision", "nap"]),
    "malformed-expect-zone": (variant("zone: {boy1: in_play}", "zone: {boy1: nowhere}"), 3, ["zone", "nowhere"]),
    "malformed-expect-mapping": (variant("gold: {alice: 2}", "gold: 2"), 3, ["gold"]),
    "malformed-challenge-type": (variant("{marshal: boy1}", "{challenge: naval, attackers: [boy1]}"), 1,
                                 ["challenge", "naval"]),
    "malformed-command": (variant("{marshal: boy1}", "marshal"), 1, ["command"]),
    "malformed-defend": (variant("{marshal: boy1}", "{defend: boy1}"), 1, ["defend"]),
    "unknown-player-step": (variant("  - until: {decision: action}", "  - carol: pass\n  - until: {decision: action}"),
                            2, ["carol"]),
    "unknown-player-first-player": (variant("first_player: alice", "first_player: zed"), 0,
                                    ["first_player", "zed"]),
    "unknown-player-owner": (variant("revealed_plot: {card: Quiet Year, id: b-plot}",
                                     "revealed_plot: {card: Quiet Year, id: b-plot}\n"
                                     "      in_play: [{card: Stable Boy, owner: zed}]"), 0, ["owner", "zed"]),
    "unknown-player-in-expect": (variant("gold: {alice: 2}", "gold: {carol: 2}"), 3, ["gold", "carol"]),
    "unknown-player-in-until": (variant("until: {decision: action}", "until: {decision: action, player: carol}"), 2,
                                ["player", "carol"]),
    "unknown-player-against": (variant("{marshal: boy1}", "{challenge: military, against: carol, attackers: [boy1]}"),
                               1, ["against", "carol"]),
    "missing-title": (variant("title: A small marshalling position\n", ""), 0, ["title"]),
    # a choice named as text (issue 22): checked as the file loads
    "named-choice-bad-challenge-type": (variant("{marshal: boy1}", "{choose: [{challenge_type: naval}]}"), 1,
                                        ["choose.challenge_type", "naval"]),
    "named-choice-unknown-title": (variant("{marshal: boy1}", "{choose: [{title: Zzyzx Phantom Card}]}"), 1,
                                   ["choose.title", "Zzyzx Phantom Card"]),
    "named-choice-not-a-keyword": (variant("{marshal: boy1}", "{choose: [{keyword: sneaky}]}"), 1,
                                   ["choose.keyword", "sneaky"]),
    "named-choice-unknown-kind": (variant("{marshal: boy1}", "{choose: [{colour: red}]}"), 1,
                                  ["choose", "title, challenge_type, keyword, label"]),
    # a malformed ability on a card of the list: reported as the file loads, with its line, not when the
    # card is first played (issue 22: "step None: internal error while playing")
    "malformed-ability-in-cards": (variant("icons: [military]}", "icons: [military],\n"
                                           "     abilities: [{kind: action, phase: any, effect: [{kil: self}]}]}"),
                                   0, ["cards[1] (Stable Boy)", "line 5", "unknown effect", "kil"]),
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_broken_scenario_fails_naming_step_and_key(tmp_path, name):
    text, step, fragments = BROKEN[name]
    path = write(tmp_path, f"{name}.yaml", text)
    result = run_path(str(path))               # never raises
    assert not result.passed
    assert result.step == step, f"step {result.step}: {result.reason}"
    for fragment in fragments:
        assert fragment.lower() in result.reason.lower(), result.reason
    assert "Traceback" not in result.reason


@pytest.mark.parametrize("name", ["unknown-top-level-key", "unknown-key-in-command", "undefined-card-in-step",
                                  "ambiguous-card-in-expect", "malformed-round", "unknown-player-step"])
def test_broken_scenario_on_the_command_line(tmp_path, name):
    text, step, fragments = BROKEN[name]
    path = write(tmp_path, f"{name}.yaml", text)
    result = cli(path)
    assert result.returncode == 1
    out = lines(result)
    assert len(out) == 2, out
    assert out[0].startswith(f"FAIL {path}: step {step}: "), out[0]
    for fragment in fragments:
        assert fragment.lower() in out[0].lower()
    assert out[1] == "0 passed, 1 failed"


def test_not_yaml_fails_without_traceback(tmp_path):
    path = write(tmp_path, "garbled.yaml", "format: 1\ntitle: [unclosed\n")
    result = run_path(str(path))
    assert not result.passed and result.step == 0
    out = lines(cli(path))
    assert out[0].startswith(f"FAIL {path}: step 0: ")
    assert out[-1] == "0 passed, 1 failed"


def test_a_rejected_command_that_is_accepted_fails_the_scenario(tmp_path):
    path = write(tmp_path, "accepted.yaml", variant("{marshal: boy1}", "{marshal: boy1, rejected: gold}"))
    result = run_path(str(path))
    assert not result.passed and result.step == 1
    assert "rejected" in result.reason


def test_a_refusal_with_another_reason_fails_the_scenario(tmp_path):
    text = variant("  - alice: {marshal: boy1}\n",
                   "  - bob: {marshal: boy1, rejected: no such reason}\n  - alice: {marshal: boy1}\n")
    path = write(tmp_path, "reason.yaml", text)
    result = run_path(str(path))
    assert not result.passed and result.step == 1
    assert "no such reason" in result.reason


# Malformed values the runner does not catch yet (engine/scenario.py): each raised a
# Python exception or failed without naming the key when this test was written.
RUNNER_GAPS = {
    "expect-zone-list": variant("zone: {boy1: in_play}", "zone: {boy1: [in_play]}"),
    "expect-eliminated-number": variant("gold: {alice: 2}", "gold: {alice: 2}, eliminated: 5"),
    "until-decision-list": variant("until: {decision: action}", "until: {decision: [action]}"),
    "trigger-targets-number": variant("{marshal: boy1}", "{trigger: boy1, targets: 5}"),
    "setup-attach-string": variant("{marshal: boy1}", "{setup: [boy1], attach: boy2}"),
    "until-window-step-word": variant("until: {decision: action}", "until: {window_step: seven}"),
}


@pytest.mark.parametrize("name", sorted(RUNNER_GAPS))
def test_runner_gaps_malformed_values(tmp_path, name):
    key = {"expect-zone-list": "zone", "expect-eliminated-number": "eliminated", "until-decision-list": "decision",
           "trigger-targets-number": "targets", "setup-attach-string": "attach",
           "until-window-step-word": "window_step"}[name]
    path = write(tmp_path, f"{name}.yaml", RUNNER_GAPS[name])
    result = run_path(str(path))
    assert not result.passed
    assert key in result.reason
    assert "unscripted decision" not in result.reason
