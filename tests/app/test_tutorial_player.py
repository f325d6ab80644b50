"""The tutorial player at the table (app/tutorial.py): a lesson on the window, answered through the
prompt bar; a wrong answer gets the hint and changes nothing; Help ▸ Tutorials; "Why?" (F1) in any
game; ``maester --tutorial``."""
from __future__ import annotations

from app.dialogs import GameSetup
from app.main import main
from app.tutorial import LessonsDialog, open_tutorial
from app.window import TableWindow
from engine.tutorial import find_lesson


def _window(qtbot):
    w = TableWindow(GameSetup(decks=["practice:stark", "practice:lannister"], seed=1), computer_delay_ms=0)
    qtbot.addWidget(w)
    w.show()
    return w


def test_a_lesson_answered_wrong_then_right_through_the_prompt_bar(qtbot):
    w = _window(qtbot)
    panel = open_tutorial(w, find_lesson("14-the-six-steps"))
    s = panel.session
    assert w.controller.session is s and not w.privacy.isVisible()
    while not s.waiting:
        panel.forward()
        assert not w.privacy.isVisible()  # solo: never a privacy screen
    assert w.controller.my_turn() and w.controller.viewer == "bob"
    assert "2" in panel.window_panel.steps[1].text() and "d4a017" in panel.window_panel.steps[1].styleSheet()
    assert "Coldbrook Bannerman" in panel.window_panel.details.text()  # pending: the claim's victim
    before = s.head.state.digest()
    w.prompt.buttons["pass"].click()  # the wrong answer
    assert s.head.state.digest() == before and s.waiting
    assert "save" in panel.verdict.text().lower()
    options = w.controller.trigger_options()
    assert options
    assert w.controller.trigger(options[0])  # the save event: right
    assert not s.waiting
    assert "Right" in panel.verdict.text()
    panel.next_narration()
    while panel.session.forward():
        pass
    w.controller.show_frame()
    assert s.done and s.frames[-1].kind == "end"


def test_back_and_forward_show_the_frames_state(qtbot):
    w = _window(qtbot)
    panel = open_tutorial(w, find_lesson("17-passives-ordered"))
    s = panel.session
    s.play_to_end()
    panel.to_place()
    end_digest = w.controller.game.state.digest()
    for _ in range(5):
        panel.back()
    i = s.index
    assert w.controller.game.state.digest() == s.frames[i].digest
    assert "moved back" in panel.where.text()
    panel.to_place()
    assert w.controller.game.state.digest() == end_digest
    panel.jump(s.outline()[1][0])
    assert s.index == s.outline()[1][0]


def test_why_explains_any_game(qtbot):
    w = _window(qtbot)
    text = w.why_text()
    assert text.startswith("Round 1") or text.startswith("Setup") or text.startswith("Step")
    w.show_why()
    assert w._why_box.text() == text


def test_help_tutorials_lists_the_lessons_with_progress(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("MAESTER_HOME", str(tmp_path))
    from engine.tutorial import save_progress

    save_progress("01-the-round", done=True)
    dialog = LessonsDialog()
    qtbot.addWidget(dialog)
    assert dialog.list.count() >= 25
    assert dialog.list.item(0).text().startswith("\u2713")
    assert not dialog.list.item(1).text().startswith("\u2713")


def test_maester_tutorial_opens_a_lesson_or_a_scenario_file(tmp_path, capsys):
    out = tmp_path / "t.png"
    assert main(["--offscreen", "--tutorial", "cancel-a-cancel", "--autoplay", "20", "--screenshot", str(out)]) == 0
    assert out.is_file()
    out2 = tmp_path / "s.png"
    assert main(["--offscreen", "--tutorial", "tests/scenarios/chl-12-tie-goes-to-attacker.yaml",
                 "--screenshot", str(out2)]) == 0
    assert main(["--offscreen", "--tutorial", "no-such-lesson-xyz"]) == 2
    assert "no lesson" in capsys.readouterr().err
