"""The tutorial player at the table: a lesson (or any scenario file) stepped through frame by frame.

``open_tutorial(window, path)`` puts a lesson on a ``TableWindow``: the table
draws the frame's position, a dock on the right holds the large action-window
panel (what opened the window, the six steps with the current one lit, who
holds priority, who passed, the open gates, the pending effect and its targets,
the moribund cards with their destinations) and the lesson panel (narration
with the rule in our own words, Restart / Back / Forward / Next narration / My
place / Show me, and the lesson's outline to jump to). The learner answers his
steps with the table's usual gestures; a wrong answer gets the hint and changes
nothing (``engine.tutorial``). Solo: never a privacy screen.
"""
from __future__ import annotations

import html
import re
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QDockWidget, QFileDialog, QFrame, QGridLayout,
                               QHBoxLayout, QLabel, QListWidget, QListWidgetItem, QPushButton, QVBoxLayout,
                               QWidget)

from app.controller import TableController
from cards.errors import printable
from engine.explain import STEP_NAMES, destination_text, gate_text, moribund_cards, rule_line
from engine.tutorial import TutorialSession, View, lessons, load_progress, save_progress

STEP_TITLES = ("Initiate", "Save / Cancel", "Execute", "Passives", "Responses", "Leave play")


class TutorialController(TableController):
    """A controller whose game is the frame on show; answers go to the lesson, which checks them."""

    verdict = Signal(bool, str)

    def __init__(self, session: TutorialSession, parent=None):
        self.session = session
        self.view: View = session.view()
        super().__init__(self.view.game, computers={}, privacy=False, parent=parent)
        self.viewer = session.learner or self.view.game.state.player_names[0]
        self._follow()

    @property
    def decision(self):
        return self.view.decision

    @property
    def result(self):
        return None

    def show_frame(self) -> None:
        self.view = self.session.view()
        self.game = self.view.game
        self._follow()
        self.selection.clear()
        self.changed.emit()

    def _follow(self) -> None:
        """The seat shown is the learner's, or whoever decides at this frame."""
        d = self.view.decision
        if self.session.waiting and self.session.at_place and d is not None:
            self.viewer = d.player
        elif self.session.learner:
            self.viewer = self.session.learner
        elif d is not None:
            self.viewer = d.player

    def my_turn(self) -> bool:
        return self.session.waiting and self.session.at_place and self.view.decision is not None

    def submit(self, answer: dict, *, free: dict | None = None) -> bool:
        s = self.session
        if not (s.waiting and s.at_place):
            self.say("In a tutorial the program plays this move: press Forward.", "refused")
            self.verdict.emit(False, "Press Forward: this move is not yours to play.")
            return False
        v = s.answer(self.viewer, answer)
        if not v.right:
            text = v.text + (f" (The rules refuse it: {v.refused})" if v.refused else "")
            self.say(text, "refused")
            self.verdict.emit(False, text)
            self.selection.clear()
            self.changed.emit()
            return False
        self.verdict.emit(True, v.text)
        self.show_frame()
        return True

    def free_move(self, move: dict, *, quiet: bool = False) -> bool:
        self.say("A tutorial follows its script: free moves are off.", "refused")
        return False

    def _after_change(self) -> None:
        self.selection.clear()
        self.setup_attach.clear()


def _linked(text: str, names: dict[str, str]) -> str:
    """Plain text with card names as links (hovering one previews the card); control characters escaped."""
    out = html.escape(printable(text, keep="\n")).replace("\n\n", "<br><br>")
    if not names:
        return out
    names = {printable(n): k for n, k in names.items()}
    pattern = re.compile("|".join(re.escape(html.escape(n)) for n in sorted(names, key=len, reverse=True)))
    return pattern.sub(lambda m: f"<a href='card:{names[html.unescape(m.group(0))]}' "
                                 f"style='color:#7a4a00; font-weight:bold; text-decoration:none'>{m.group(0)}</a>",
                       out)


class ActionWindowPanel(QFrame):
    """The open action window, drawn large: opened by what, the six steps, priority, gates, pending,
    moribund cards."""

    card_hovered = Signal(str)

    def __init__(self):
        super().__init__()
        self.setObjectName("actionWindow")
        self.setStyleSheet("#actionWindow { background: #241a0e; border: 2px solid #d4a017; border-radius: 8px; }"
                           "QLabel { color: #f3e6c4; }")
        box = QVBoxLayout(self)
        self.opened = QLabel()
        self.opened.setWordWrap(True)
        self.opened.setStyleSheet("font-size: 15px; font-weight: bold; color: #ffe9a8;")
        box.addWidget(self.opened)
        grid = QGridLayout()
        grid.setSpacing(4)
        self.steps: list[QLabel] = []
        for i, title in enumerate(STEP_TITLES):
            lab = QLabel(f"<b>{i + 1}</b><br>{title}")
            lab.setAlignment(Qt.AlignmentFlag.AlignCenter)
            lab.setMinimumHeight(46)
            grid.addWidget(lab, 0, i)
            self.steps.append(lab)
        box.addLayout(grid)
        self.details = QLabel()
        self.details.setWordWrap(True)
        self.details.setTextFormat(Qt.TextFormat.RichText)
        self.details.setStyleSheet("font-size: 13px;")
        self.details.linkHovered.connect(lambda url: url.startswith("card:") and self.card_hovered.emit(url[5:]))
        box.addWidget(self.details)

    def show_view(self, view: View, names: dict[str, str]) -> None:
        g = view.game
        st = g.state
        w = st.window
        ev = view.frame.event
        if w is None:
            self.opened.setText("No action window is open")
        else:
            kind = {"player": f"{w.initiator}'s action", "framework": "framework action",
                    "end_of_phase": "end of the phase"}.get(w.kind, w.kind)
            below = f"  (+{len(st.windows) - 1} window below)" if len(st.windows) > 1 else ""
            self.opened.setText(f"Window opened by {kind}: {w.name}{below}")
        for i, lab in enumerate(self.steps, 1):
            skipped = w is not None and w.kind == "end_of_phase" and i in (2, 5)
            if w is not None and w.step == i:
                style = "background: #d4a017; color: #1c1408; font-size: 15px;"
            elif skipped or w is None:
                style = "background: #3a3025; color: #6e624e; text-decoration: line-through;" if skipped else \
                    "background: #3a3025; color: #6e624e;"
            else:
                style = "background: #4a3b26; color: #e8dcc0;"
            lab.setStyleSheet(style + " border-radius: 5px; padding: 3px;")
        rows = []
        d = view.decision
        if d is not None:
            rows.append(f"<b>Priority:</b> {d.player} \u2014 {html.escape(d.prompt)}")
        elif w is not None:
            rows.append(f"<b>Priority:</b> nobody yet (the engine is moving to step {w.step}: "
                        f"{STEP_NAMES.get(w.step, '')})")
        if view.frame.passed:
            rows.append(f"<b>Passed:</b> {', '.join(view.frame.passed)}")
        if w is not None and w.gates:
            gates = [html.escape(gate_text(g, x)) for x in w.gates[-5:]]
            rows.append("<b>Gates open:</b> " + "; ".join(gates))
        if ev and ev.get("name") and w is not None and w.step in (1, 2, 3, 4):
            pend = _linked(ev["name"], names)
            tg = [t for t in ev.get("targets") or [] if not isinstance(t, int) or t in st.cards]
            if tg:
                pend += " \u2192 targets " + _linked(", ".join(g.name(t) if isinstance(t, int) else str(t)
                                                            for t in tg), names)
            vic = [v for v in ev.get("victims") or [] if v in st.cards]
            if vic:
                pend += " \u2192 would " + (ev.get("removal") or "remove") + " " + \
                    _linked(", ".join(g.name(v) for v in vic), names)
            if ev.get("cancelled"):
                pend += " <i>(canceled)</i>"
            rows.append(f"<b>Pending:</b> {pend}")
        dying = moribund_cards(g)
        if dying:
            marks = ", ".join(f"\u2620 {_linked(g.name(c), names)} \u2192 {destination_text(dst)}" for c, dst in dying)
            rows.append(f"<b>Moribund until step 6:</b> {marks}")
        self.details.setText("<br>".join(rows) or "&nbsp;")


class TutorialPanel(QWidget):
    """The lesson: narration, controls, verdict, outline."""

    card_hovered = Signal(str)

    def __init__(self, controller: TutorialController, names: dict[str, str]):
        super().__init__()
        self.ctl = controller
        self.session = controller.session
        self.names = names
        box = QVBoxLayout(self)
        self.title = QLabel(f"<b>Lesson:</b> {html.escape(self.session.title)}")
        self.title.setWordWrap(True)
        self.title.setStyleSheet("font-size: 15px;")
        box.addWidget(self.title)
        self.window_panel = ActionWindowPanel()
        self.window_panel.card_hovered.connect(self.card_hovered)
        box.addWidget(self.window_panel)
        self.where = QLabel()
        self.where.setStyleSheet("color: #6b5a3a;")
        box.addWidget(self.where)
        self.narration = QLabel()
        self.narration.setWordWrap(True)
        self.narration.setTextFormat(Qt.TextFormat.RichText)
        self.narration.setStyleSheet("font-size: 14px; background: #fbf4e2; border: 1px solid #c8b27a; "
                                     "border-radius: 6px; padding: 8px;")
        self.narration.linkHovered.connect(lambda url: url.startswith("card:") and self.card_hovered.emit(url[5:]))
        box.addWidget(self.narration)
        self.verdict = QLabel()
        self.verdict.setWordWrap(True)
        box.addWidget(self.verdict)
        row = QHBoxLayout()
        self.buttons = {}
        for key, label, tip, fn in (
                ("restart", "Restart", "Back to the start of the lesson (Home)", self.restart),
                ("back", "\u25c0 Back", "One step back (Left)", self.back),
                ("forward", "Forward \u25b6", "One step on (Right)", self.forward),
                ("next", "Next \u25b6\u25b6", "On to the next narration (Page Down)", self.next_narration),
                ("place", "My place", "Back to where you were (End)", self.to_place),
                ("show", "Show me", "Play your step for you", self.show_me)):
            b = QPushButton(label)
            b.setToolTip(tip)
            b.clicked.connect(fn)
            row.addWidget(b)
            self.buttons[key] = b
        box.addLayout(row)
        box.addWidget(QLabel("<b>Lesson outline</b> (click to jump):"))
        self.outline = QListWidget()
        self.outline.itemClicked.connect(lambda it: self.jump(it.data(Qt.ItemDataRole.UserRole)))
        box.addWidget(self.outline, 1)
        controller.verdict.connect(self.show_verdict)
        controller.changed.connect(self.refresh)

    # -- controls -------------------------------------------------------------------------
    def _moved(self) -> None:
        self.verdict.setText("")
        self.ctl.show_frame()

    def forward(self) -> None:
        if self.session.forward():
            self._moved()
        elif self.session.waiting and self.session.at_place:
            self.show_verdict(False, "Your move first: " + self.session.frame.text)

    def back(self) -> None:
        if self.session.back():
            self._moved()

    def next_narration(self) -> None:
        if self.session.next_narration():
            self._moved()

    def to_place(self) -> None:
        self.session.to_place()
        self._moved()

    def jump(self, index: int) -> None:
        self.session.goto(index)
        self._moved()

    def show_me(self) -> None:
        if self.session.show_me():
            self._moved()

    def restart(self) -> None:
        self.session.goto(0)
        self._moved()

    def show_verdict(self, right: bool, text: str) -> None:
        color = "#1d6b2a" if right else "#9c2a1a"
        self.verdict.setText(f"<span style='color:{color}; font-weight:bold'>{html.escape(text)}</span>")

    # -- drawing --------------------------------------------------------------------------
    def refresh(self) -> None:
        s = self.session
        view = self.ctl.view
        f = view.frame
        self.window_panel.show_view(view, self.names)
        self.where.setText(f"Step {s.index + 1} of {s.place + 1} reached"
                           + ("" if s.done else " (more to come)")
                           + ("" if s.at_place else " \u2014 you moved back; 'My place' returns"))
        head = {"intro": "Introduction", "step": "The engine moves on", "event": "A nested ability",
                "say": "Narration", "watch": "Watch", "ask": "Your move", "refused": "Refused",
                "end": "End of the lesson", "error": "Problem"}.get(f.kind, f.kind)
        body = _linked(f.text, self.names)
        if f.kind == "ask" and not (s.waiting and s.at_place):
            body += "<br><i>(answered)</i>"
        rule = f"<br><span style='color:#6b5a3a'>{html.escape(rule_line(f.rule))}</span>" if f.rule else ""
        why = f"<br><br><b>Why?</b> {_linked(view.explanation, self.names)}" if f.kind not in ("intro", "end") else ""
        self.narration.setText(f"<b>{head}</b><br>{body}{rule}{why}")
        self.buttons["back"].setEnabled(s.index > 0)
        self.buttons["forward"].setEnabled(not (s.at_place and (s.done or s.waiting)))
        self.buttons["show"].setEnabled(s.waiting)
        self.buttons["place"].setEnabled(not s.at_place)
        self._fill_outline()
        if s.done and s.at_place and s.sc.path.startswith(str(_lessons_dir())):
            asks = len(s.asks)
            save_progress(s.name, done=True, solved=len(s.solved), asked=asks)

    def _fill_outline(self) -> None:
        items = self.session.outline()
        if self.outline.count() != len(items):
            self.outline.clear()
            for i, text in items:
                kind = self.session.frames[i].kind
                mark = {"ask": "YOUR MOVE: ", "say": "\u2022 ", "watch": "\u25b8 ", "end": "\u2713 ",
                        "refused": "\u2717 "}.get(kind, "")
                it = QListWidgetItem(mark + text.splitlines()[0][:90])
                it.setData(Qt.ItemDataRole.UserRole, i)
                self.outline.addItem(it)
        for row in range(self.outline.count()):
            it = self.outline.item(row)
            on = it.data(Qt.ItemDataRole.UserRole) <= self.session.index
            it.setForeground(Qt.GlobalColor.black if on else Qt.GlobalColor.gray)


def _lessons_dir() -> Path:
    from engine.tutorial import LESSONS_DIR

    return LESSONS_DIR


def open_tutorial(window, path: str | Path, *, learner: str | None = None) -> TutorialPanel:
    """Open a lesson (or any scenario file) on ``window`` (an ``app.window.TableWindow``)."""
    from app.dialogs import GameSetup

    session = TutorialSession(path, learner=learner)
    ctl = TutorialController(session)
    setup = GameSetup(names=list(session.head.state.player_names), privacy=False, scenario=str(path))
    window.start(setup, game=ctl.game, controller=ctl)
    names = {d.name: d.key for d in session.head.pool.values()}
    panel = TutorialPanel(ctl, names)
    panel.card_hovered.connect(lambda key: window.preview_key(key))
    old = getattr(window, "tutorial_dock", None)
    if old is not None:
        window.removeDockWidget(old)
        old.deleteLater()
    dock = QDockWidget("Tutorial", window)
    dock.setObjectName("tutorialDock")
    dock.setWidget(panel)
    dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable)
    dock.setMinimumWidth(460)
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
    window.tutorial_dock, window.tutorial = dock, panel
    window.setWindowTitle(f"Maester \u2014 tutorial: {session.title}")
    ctl.changed.connect(lambda: _patch_prompt(window, ctl))
    _keys(window, panel)
    ctl.show_frame()
    return panel


def _patch_prompt(window, ctl: TutorialController) -> None:
    """Between decisions the prompt bar shows the frame, not "Game over"."""
    view = ctl.view
    if view.decision is None and view.frame.kind not in ("end",):
        st = view.game.state
        w = st.window
        window.prompt.ask.setText(f"<b>Tutorial</b> \u2014 {html.escape(view.frame.text.splitlines()[0][:120])}")
        if w is not None:
            window.prompt.stepper.set_window(w, max(0, len(st.windows) - 1))
        else:
            window.prompt.stepper.set_window(None, 0, "No action window open")


def _keys(window, panel: TutorialPanel) -> None:
    from PySide6.QtGui import QKeySequence, QShortcut

    shortcuts = getattr(window, "_tutorial_keys", [])
    for sc in shortcuts:
        sc.setEnabled(False)
        sc.deleteLater()
    window._tutorial_keys = []
    for key, fn in (("Right", panel.forward), ("Left", panel.back), ("PgDown", panel.next_narration),
                    ("End", panel.to_place), ("Home", panel.restart)):
        sc = QShortcut(QKeySequence(key), window)
        sc.activated.connect(fn)
        window._tutorial_keys.append(sc)


class LessonsDialog(QDialog):
    """Help ▸ Tutorials: the lessons in order, with the user's progress; or a scenario file."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Tutorials")
        self.resize(560, 620)
        self.chosen: str | None = None
        box = QVBoxLayout(self)
        box.addWidget(QLabel("Step-through lessons on the round, challenges and the timing rules. "
                             "Double-click one to open it."))
        self.list = QListWidget()
        done = load_progress()
        for n, les in enumerate(lessons(), 1):
            p = done.get(les.name, {})
            mark = "\u2713" if p.get("done") else "  "
            it = QListWidgetItem(f"{mark} {n:2d}. {les.title}")
            it.setData(Qt.ItemDataRole.UserRole, str(les.path))
            it.setToolTip(les.name)
            self.list.addItem(it)
        self.list.itemDoubleClicked.connect(self._pick)
        box.addWidget(self.list, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Open | QDialogButtonBox.StandardButton.Cancel)
        other = buttons.addButton("Scenario file\u2026", QDialogButtonBox.ButtonRole.ActionRole)
        other.clicked.connect(self._file)
        buttons.accepted.connect(lambda: self._pick(self.list.currentItem()))
        buttons.rejected.connect(self.reject)
        box.addWidget(buttons)

    def _pick(self, item) -> None:
        if item is None:
            return
        self.chosen = item.data(Qt.ItemDataRole.UserRole)
        self.accept()

    def _file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open a scenario as a tutorial", "", "Scenarios (*.yaml *.yml)")
        if path:
            self.chosen = path
            self.accept()
