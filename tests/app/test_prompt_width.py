"""The prompt bar never makes the window wider: many words to choose from (a card title to name) come as a
list, and answer controls that do not fit scroll sideways. (A row of one button per title once made the
window thousands of pixels wide, and its backing store with it.)"""
from __future__ import annotations

from PySide6.QtCore import QPointF
from PySide6.QtWidgets import QApplication, QComboBox, QPushButton

from app.dialogs import GameSetup
from app.prompt import AnswerRow
from app.window import TableWindow

GUARDS = [f"Lannister Guard of the Western Road {n}" for n in range(1, 31)]

SCENARIO = """\
format: 1
title: Name a card among many titles
cards:
  - name: Bluffing Call
    type: event
    cost: 0
    abilities:
      - {kind: action, phase: dominance, effect: [{name_and_discard: each_opponent}]}
  - {name: Steady Plot, type: plot, income: 4, initiative: 1, claim: 1}
""" + "".join(f"  - {{name: {g}, type: character, house: lannister, cost: 2, strength: 1, icons: [intrigue]}}\n"
              for g in GUARDS) + """\
start:
  phase: dominance
  first_player: alice
  players:
    alice:
      house: lannister
      revealed_plot: Steady Plot
      hand: [{card: Bluffing Call, id: bluff}]
    bob:
      house: lannister
      revealed_plot: Steady Plot
      hand: [{card: "%s", id: g1}, {card: "%s", id: g2}]
      deck: [%s]
steps: []
""" % (GUARDS[4], GUARDS[7], ", ".join(f'"{g}"' for g in GUARDS))


def _window(qtbot, tmp_path):
    path = tmp_path / "name.yaml"
    path.write_text(SCENARIO, encoding="utf-8")
    window = TableWindow(GameSetup(scenario=str(path), privacy=False), computer_delay_ms=0)
    qtbot.addWidget(window)
    window.resize(1600, 1000)
    window.show()
    qtbot.waitExposed(window)
    return window


def _to_the_title(qtbot, window):
    ctl = window.controller
    d = ctl.decision
    assert d.kind == "action" and d.player == "alice"
    bluff = window.controller.game.player("alice").hand[0]
    qtbot.mouseClick(window.prompt.buttons[f"trigger-{bluff}-1"], qtbot_left())
    d = ctl.decision
    assert d.kind == "choose" and len([c for c in d.choices if isinstance(c, str)]) > 30
    return d


def qtbot_left():
    from PySide6.QtCore import Qt

    return Qt.MouseButton.LeftButton


def test_many_titles_come_as_a_list_and_the_window_keeps_its_width(qtbot, tmp_path):
    window = _window(qtbot, tmp_path)
    _to_the_title(qtbot, window)
    QApplication.processEvents()
    combo = window.prompt.buttons["choose-word"]
    assert isinstance(combo, QComboBox) and combo.count() > 30
    assert not [k for k in window.prompt.buttons if k.startswith("choose-") and k != "choose-word"]
    assert window.minimumSizeHint().width() < 1200 and window.width() == 1600

    combo.setCurrentIndex(combo.findData(GUARDS[4]))
    qtbot.mouseClick(window.prompt.buttons["choose"], qtbot_left())
    g = window.controller.game
    assert any(f"{GUARDS[4]} (Bluffing Call)" in line for line in g.state.log)
    assert g.card(g.player("bob").discard[0]).zone == "discard" and len(g.player("bob").hand) == 1


def test_a_typed_name_not_in_the_list_is_refused_and_changes_nothing(qtbot, tmp_path):
    window = _window(qtbot, tmp_path)
    d = _to_the_title(qtbot, window)
    g = window.controller.game
    answers = len(g.history)
    combo = window.prompt.buttons["choose-word"]
    combo.setEditText("Nobody at all")
    qtbot.mouseClick(window.prompt.buttons["choose"], qtbot_left())
    assert window.controller.decision is d and len(g.history) == answers
    assert "not in the list" in window.prompt.msg.text()
    combo.setEditText(GUARDS[7].upper())  # typed, in any case
    qtbot.mouseClick(window.prompt.buttons["choose"], qtbot_left())
    assert g.history[answers] == ("alice", {"choose": [GUARDS[7]]})
    assert any(f"alice names {GUARDS[7]}" in line for line in g.state.log)


def test_answer_controls_that_do_not_fit_scroll_instead_of_widening_the_window(qtbot, tmp_path):
    window = _window(qtbot, tmp_path)
    bar = window.prompt
    QApplication.processEvents()
    before = window.minimumSizeHint().width()
    assert before < 1000
    for n in range(40):
        b = QPushButton(f"Trigger a very long ability name number {n}")
        bar.row.addWidget(b)
    QApplication.processEvents()
    assert bar.row_area.widget().minimumSizeHint().width() > 4000
    assert window.minimumSizeHint().width() <= before + AnswerRow.MOST and window.width() == 1600
    qtbot.waitUntil(lambda: bar.row_area.horizontalScrollBar().maximum() > 3000)  # the rest is a scroll away
    assert window.minimumSizeHint().width() < 1280 and window.width() == 1600  # a 1280 px screen holds it


def test_a_strip_of_cards_floats_over_the_table_which_keeps_its_size_and_scale(table, qtbot):
    """Plots to choose show in a strip over the bottom of the table: the table is lifted above it at the
    same scale (not shrunk, which drew it all again), and comes back down when the strip goes."""
    window, ui = table(seed=3)
    ui.take_seat()
    qtbot.wait(20)
    view, scene, bar = window.view, window.scene, window.prompt
    size, scale = view.viewport().size(), view.transform().m11()
    bottom = view.mapFromScene(QPointF(0, scene.sceneRect().bottom())).y()
    assert view.cover is None and bar.height() == bar.COMPACT
    ui.advance(lambda d: d.kind == "plot")
    ui.take_seat()
    qtbot.wait(20)
    strip = bar.strip_area
    assert strip.isVisible() and strip.parent() is view and view.cover is strip
    assert any(k.startswith("plot-") for k in bar.buttons)
    assert view.viewport().size() == size and view.transform().m11() == scale and bar.height() == bar.COMPACT
    assert strip.geometry().bottom() == view.height() - 1 and strip.width() == view.width()
    lifted = view.mapFromScene(QPointF(0, scene.sceneRect().bottom())).y()
    assert lifted == bottom - strip.height() and lifted <= strip.y()  # the viewer's seat in sight above it
    ui.enter({"plot": next(b.card_id for k, b in bar.buttons.items() if k.startswith("plot-"))})
    ui.advance(lambda d: d.kind != "plot")
    ui.take_seat()
    qtbot.wait(20)
    assert view.cover is None and strip.isHidden()
    assert view.mapFromScene(QPointF(0, scene.sceneRect().bottom())).y() == bottom
    assert view.viewport().size() == size and view.transform().m11() == scale
