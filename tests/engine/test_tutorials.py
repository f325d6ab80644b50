"""Tutorials (docs/tutorials.md): every lesson plays to its end, the learner's steps answered right
and wrong; moving back, forward and jumping reach the frames' digests through the engine's replay;
the observer changes no outcome; the explainer's words for known positions."""
from __future__ import annotations

import random

import pytest

from engine.builder import practice_game
from engine.game import Options
from engine.players import RandomPlayer
from engine.scenario import load_scenario, run_path, run_scenario
from engine.tutorial import (LESSONS_DIR, TutorialSession, find_lesson, lessons, load_progress,
                             save_progress)

LESSONS = lessons()


def test_the_curriculum_has_its_lessons_in_order():
    names = [les.name for les in LESSONS]
    assert len(names) >= 25
    assert [les.order for les in LESSONS] == sorted(les.order for les in LESSONS)
    for topic in ("the-round", "setup", "plots", "marshalling", "military", "intrigue", "power-claim", "stealth",
                  "renown", "unopposed", "dominance", "draw-cap", "influence", "six-steps", "save-cancel",
                  "cancel-a-cancel", "passives-ordered", "responses-after-passives", "moribund-still-acts",
                  "cannot-leave-twice", "end-of-phase", "lasting-effects", "limited", "duplicates",
                  "terminal", "then"):
        assert any(topic in n for n in names), topic


def test_every_timing_worked_example_has_its_lesson():
    from pathlib import Path

    timing = Path(__file__).resolve().parents[1] / "scenarios" / "timing"
    used = " ".join(p.read_text() for p in LESSONS_DIR.glob("*.yaml"))
    for f in sorted(timing.glob("*.yaml")):
        assert f"tests/scenarios/timing/{f.name}" in used, f.name


def _wrong(d, expected: dict) -> dict:
    if "pass" not in expected and d.can_pass:
        return {"pass": True}
    if d.choices:
        picked = set(expected.get("choose") or expected.get("order") or [])
        others = [c for c in d.choices if c not in picked]
        if others:
            return {"choose": others[:1]}
        if "order" in expected:
            return {"order": list(reversed(expected["order"]))}
    return {"trigger": -1}


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda les: les.name)
def test_lesson_plays_to_its_end_answered_wrong_then_right(lesson):
    assert run_path(str(lesson.path)).passed  # a lesson is a valid scenario file too
    s = TutorialSession(lesson.path)
    assert s.frames[0].kind == "intro"
    asked = 0
    for _ in range(5000):
        if s.waiting:
            asked += 1
            d = s.head.advance()
            expected = s.expected()
            before = s.head.state.digest()
            frames = len(s.frames)
            verdict = s.answer(d.player, _wrong(d, expected))
            assert not verdict.right
            assert verdict.text  # the hint
            assert s.head.state.digest() == before and len(s.frames) == frames and s.waiting
            assert s.answer(d.player, expected).right
            continue
        if not s.forward():
            break
    assert not s.failed, s.failed
    assert not s.problems, s.problems
    assert s.done and s.frames[-1].kind == "end"
    assert asked == len(s.asks)
    assert len(s.solved) == asked
    kinds = {f.kind for f in s.frames}
    assert "step" in kinds


@pytest.mark.parametrize("name", ["16-cancel-a-cancel", "17-passives-ordered", "21-moribund-still-acts",
                                  "05-military-claim"])
def test_back_forward_and_jump_reach_the_same_digests(name):
    s = TutorialSession(find_lesson(name))
    s.play_to_end()
    digests = [f.digest for f in s.frames]
    for i in range(len(s.frames)):  # every frame rebuilt through the engine's replay
        assert s.view(i, replay=True).game.state.digest() == digests[i], (i, s.frames[i].text)
    place = s.place
    rng = random.Random(3)
    for i in rng.sample(range(len(s.frames)), min(12, len(s.frames))):
        s.goto(i)
        assert s.view().game.state.digest() == digests[i]
    s.goto(0)
    while s.forward():
        assert s.view().game.state.digest() == digests[s.index]
    assert s.index == place == s.place  # back never lost the learner's place
    while s.back():
        pass
    assert s.index == 0 and s.place == place


def test_moving_back_keeps_the_learners_place_before_a_question():
    s = TutorialSession(find_lesson("14-the-six-steps"))
    while not s.waiting:
        assert s.forward()
    place = s.place
    s.goto(3)
    d = s.head.advance()
    assert not s.answer(d.player, s.expected()).right  # not at his place: nothing is played
    assert s.place == place and s.waiting
    s.to_place()
    assert s.answer(d.player, s.expected()).right


def test_the_observer_changes_no_outcome():
    path = "tests/scenarios/timing/mor-catelyn-never-surrender-price-of-failure.yaml"
    plain = load_scenario(path)
    seen = []
    watched = load_scenario(path, Options(prompt_all=True, observer=lambda k, g, i: seen.append(k)))
    assert run_scenario(plain).passed and run_scenario(watched).passed
    assert plain.game.state.digest() == watched.game.state.digest()
    assert plain.game.history == watched.game.history
    assert "step" in seen and "event" in seen and "answer" in seen
    for observer in (None, lambda k, g, i: None):
        game = practice_game(seed=5, options=Options(prompt_all=False, observer=observer))
        player = RandomPlayer(seed=9)
        for _ in range(600):
            if not player.play_turn(game):
                break
        if observer is None:
            digest = game.state.digest()
        else:
            assert game.state.digest() == digest


def test_any_scenario_opens_as_a_tutorial_with_its_description():
    s = TutorialSession("tests/scenarios/chl-12-tie-goes-to-attacker.yaml")
    assert s.frames[0].text == s.sc.title  # no description: the title is the intro
    s.play_to_end()
    assert s.done and not s.failed and not s.asks


def _frame(s, pred):
    while not pred(s.frame):
        if not s.forward():
            if s.waiting:
                s.show_me()
            else:
                raise AssertionError("never reached")
    return s.view()


def test_explainer_words_for_known_positions():
    s = TutorialSession(find_lesson("14-the-six-steps"))
    v = _frame(s, lambda f: f.kind == "ask")
    assert v.explanation.startswith("Step 2, save/cancel: bob may cancel implement the challenge result or save "
                                    "Coldbrook Bannerman, which it would kill; alice already passed")
    assert "TIM-06" in v.explanation
    s = TutorialSession(find_lesson("17-passives-ordered"))
    v = _frame(s, lambda f: f.kind == "ask")
    assert v.explanation.startswith("Step 4, passives: several passive abilities triggered at the same moment, "
                                    "and alice, the first player, chooses the order")
    s = TutorialSession(find_lesson("21-moribund-still-acts"))
    v = _frame(s, lambda f: f.kind == "say" and f.text.startswith("Step 6"))
    assert "Step 6, moribund cards leave play" in v.explanation
    assert "Catelyn Stark to the dead pile" in v.explanation and "Never Surrender to the discard pile" in v.explanation
    s = TutorialSession(find_lesson("16-cancel-a-cancel"))
    v = _frame(s, lambda f: f.kind == "event" and "Salt in Your Eyes" in f.text)
    assert v.frame.event["name"] == "bob's Salt in Your Eyes"


def test_progress_is_remembered_in_the_user_data_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("MAESTER_HOME", str(tmp_path))
    assert load_progress() == {}
    save_progress("05-military-claim", done=True, solved=2, asked=2)
    save_progress("05-military-claim", done=False)
    assert load_progress()["05-military-claim"]["done"] is True
    assert (tmp_path / "tutorials.json").is_file()


def test_a_tutorial_key_error_names_the_step(tmp_path):
    from engine.scenario import ScenarioError

    bad = tmp_path / "bad.yaml"
    bad.write_text("format: 1\ntitle: t\nstart: {phase: marshalling, players: {a: {house: stark}, b: {house: stark}}}\n"
                   "steps:\n  - until: end\n    hint: nothing to hint\n")
    with pytest.raises(ScenarioError) as err:
        load_scenario(bad)
    assert err.value.step == 1 and "hint" in err.value.reason


TUTORIAL_BASE = ("format: 1\ntitle: t\ncards:\n  - {name: Steady Plot, type: plot, income: 4, initiative: 1, claim: 1}\n"
                 "start:\n  phase: marshalling\n  first_player: a\n  players:\n"
                 "    a: {house: stark, revealed_plot: Steady Plot}\n    b: {house: stark, revealed_plot: Steady Plot}\n"
                 "steps:\n  - say: \"Watch the round.\"\n")


@pytest.mark.parametrize("keys, words", [
    ("rule: XYZ-99", ["XYZ-99", "engine/explain.py"]),
    ("rule: mor-05", ["mor-05", "engine/explain.py"]),
    ("at: end", ["at: end", "until: end"]),
    ("at: {window_step: 9}", ["window_step", "1 to 6"]),
    ("at: {round: 0}", ["round", "1"]),
    ("at: {phase: dominance, active: a}", ["active", "marshalling or challenges"]),
    ("at: {phase: plot, decision: challenge}", ["challenge", "challenges phase"]),
    ("at: {phase: plot, decision: defend}", ["defend", "challenges phase"]),
])
def test_a_tutorial_at_that_never_holds_or_an_unknown_rule_is_refused_when_loaded(tmp_path, keys, words):
    """Issue 22: a narration that could never be shown, or that names a rule the tutorial has no words
    for, is refused as the lesson is loaded: one message with the file, the step and what to do."""
    from engine.scenario import ScenarioError

    bad = tmp_path / "bad.yaml"
    bad.write_text(TUTORIAL_BASE + f"    {keys}\n  - until: {{round: 2}}\n")
    with pytest.raises(ScenarioError) as err:
        TutorialSession(bad)
    assert err.value.step == 1
    for w in words:
        assert w in err.value.reason, err.value.reason
    result = run_path(str(bad))  # the command line names the file and the step
    assert not result.passed and result.step == 1


def test_a_tutorial_at_that_can_hold_and_a_known_rule_load(tmp_path):
    good = tmp_path / "good.yaml"
    good.write_text(TUTORIAL_BASE + "    rule: MAR-02\n    at: {phase: challenges, active: a}\n  - until: {round: 2}\n")
    session = TutorialSession(good)
    session.play_to_end()
    assert any(f.kind == "say" and f.rule == "MAR-02" for f in session.frames)


def test_every_shipped_tutorial_loads():
    assert len(LESSONS) >= 46
    for les in LESSONS:
        load_scenario(les.path)
