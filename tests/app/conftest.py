"""Table tests: a window on a seeded practice game, and a driver that answers through the UI.

The driver never calls ``game.answer``: it clicks cards (the scene's gesture
functions or real mouse events), drops cards on zones, and presses the prompt
bar's buttons, exactly what a player's hand does.
"""
from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtWidgets import QApplication

from app.dialogs import GameSetup
from app.window import TableWindow
from engine.decisions import Refused, command_of


class Driver:
    """Answers decisions through the table's own controls."""

    def __init__(self, window: TableWindow, qtbot):
        self.window = window
        self.qtbot = qtbot

    @property
    def ctl(self):
        return self.window.controller

    @property
    def game(self):
        return self.window.controller.game

    @property
    def decision(self):
        return self.ctl.decision

    # -- low-level gestures -----------------------------------------------------
    def press(self, key: str) -> None:
        """Click a prompt bar button by its name (pass, defend, declare-military, plot-12...)."""
        button = self.window.prompt.buttons[key]
        assert button.isEnabled(), f"{key} is disabled"
        self.qtbot.mouseClick(button, Qt.MouseButton.LeftButton)

    def view_pos(self, cid: int) -> QPoint:
        """Where card ``cid`` is on screen (viewport coordinates), aiming at its title bar."""
        rect = self.window.scene.item_rect(cid)
        return self.window.view.mapFromScene(QPointF(rect.left() + 20, rect.top() + 14))

    def click(self, cid: int) -> None:
        self.qtbot.mouseClick(self.window.view.viewport(), Qt.MouseButton.LeftButton, pos=self.view_pos(cid))

    def drag(self, cid: int, to: QPointF) -> None:
        """Press on a card, move past the drag distance, release at scene point ``to``."""
        view = self.window.view
        viewport = view.viewport()
        start = self.view_pos(cid)
        end = view.mapFromScene(to)
        self.qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=start)
        step = QPoint(QApplication.startDragDistance() + 5, 0)
        self.qtbot.mouseMove(viewport, start + step)
        self.qtbot.mouseMove(viewport, end)
        self.qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=end)

    def row_point(self, player: str, zone: str) -> QPointF:
        """An empty spot in a row (right of its cards, below its label)."""
        rect = self.window.scene.zones[(player, zone)].rect
        return QPointF(rect.right() - 60, rect.center().y() + 20)

    def take_seat(self) -> None:
        """Click "I am <name>" on the privacy screen when it is up."""
        if self.window.privacy.isVisible():
            self.qtbot.mouseClick(self.window.privacy.button, Qt.MouseButton.LeftButton)

    # -- entering a whole answer ---------------------------------------------------
    def enter(self, answer: dict) -> None:
        """Enter ``answer`` to the pending decision with the table's controls."""
        self.take_seat()
        d = self.decision
        scene = self.window.scene
        cmd = command_of(answer)
        assert d.player == self.ctl.viewer, (d.player, self.ctl.viewer)
        if cmd == "pass":
            if d.kind == "defend":
                self.press("defend")
            else:
                self.press("pass")
        elif cmd == "setup":
            for cid in answer["setup"]:
                if cid not in (answer.get("attach") or {}):
                    scene.gesture_click(cid)
            for att, host in (answer.get("attach") or {}).items():
                self.ctl.drop(att, ("card", host))
            self.press("setup")
        elif cmd == "plot":
            self.press(f"plot-{answer['plot']}")
        elif cmd == "first_player":
            self.press(f"first-{answer['first_player']}")
        elif cmd == "marshal":
            cid, host = answer["marshal"], answer.get("attach_to")
            if answer.get("duplicate") and host is None:
                title = self.game.name(cid)
                host = next(h for h in self.game.player(d.player).in_play if self.game.name(h) == title)
            if host is not None:
                scene.drop_card(cid, ("card", host))
            else:
                scene.drop_card(cid, ("zone", d.player, "characters"))
        elif cmd == "challenge":
            for cid in answer["attackers"]:
                scene.gesture_click(cid)
            combo = self.window.prompt.buttons.get("against")
            if combo is not None:
                combo.setCurrentText(answer["against"])
            self.press(f"declare-{answer['challenge']}")
        elif cmd == "choose" and answer["choose"] and all(isinstance(w, str) for w in answer["choose"]):
            word = answer["choose"][0]
            combo = self.window.prompt.buttons.get("choose-word")
            if combo is not None:  # many words (a title to name): picked from the list, then Choose
                combo.setCurrentIndex(combo.findData(word))
                self.press("choose")
            else:
                self.press(f"choose-{word}")  # a few words or players: one button each
        elif cmd in ("defend", "choose", "order"):
            for cid in answer[cmd]:
                if cid in scene.cards:
                    scene.gesture_click(cid)
                else:
                    self.press(f"pick-{cid}")
            self.press({"defend": "defend", "choose": "choose", "order": "order"}[cmd])
        elif cmd == "stealth":
            attackers = d.context["attackers"]
            mapping = answer["stealth"]
            for a in attackers:
                if a in mapping:
                    scene.gesture_click(mapping[a])
            self.press("stealth")
        elif cmd == "duplicate_save":
            self.press(f"save-{answer['duplicate_save']}")
        elif cmd == "trigger":
            for t in answer.get("targets") or []:
                scene.gesture_click(t)
            key = f"trigger-{answer['trigger']}-{answer.get('ability', 1)}"
            self.press(key)
            picker = self.window.prompt.picker
            if picker is not None:
                for cid in answer.get("pay") or []:
                    picker.set_checked(cid)
                self.qtbot.mouseClick(picker.pay, Qt.MouseButton.LeftButton)
        else:
            raise AssertionError(f"the driver cannot enter {answer}")

    def simple_answer(self) -> dict:
        """A plain legal answer that keeps the game moving: pass where possible, else the first option."""
        d = self.decision
        if d.kind == "defend":
            return {"defend": []}
        if d.can_pass:
            return {"pass": True}
        if d.kind in ("choose", "order"):
            return {d.kind: list(d.choices[:d.min_count]) if d.kind == "choose" else list(d.choices)}
        return d.options[0]

    def advance(self, until, chooser=None, limit: int = 2000) -> None:
        """Answer through the UI until ``until(decision)`` holds (simple answers, or ``chooser``'s)."""
        for _ in range(limit):
            self.take_seat()
            d = self.decision
            assert d is not None, f"the game ended first: {self.ctl.result}"
            if until(d):
                return
            self.enter(self.pick_legal(chooser) if chooser is not None else self.simple_answer())
        raise AssertionError("the wanted decision never came")

    def answer_with(self, chooser) -> None:
        """Take the seat and answer the pending decision as ``chooser`` would, through the table's controls
        (text by hand: Done / pass); the answer must be accepted."""
        self.take_seat()
        d = self.decision
        before = len(self.game.history)
        if d.kind == "by_hand_effect":
            self.press("done")
        elif d.kind == "by_hand_passive":
            self.press("pass")
        else:
            self.enter(self.pick_legal(chooser))
        assert len(self.game.history) > before, d.describe()

    def pick_legal(self, chooser) -> dict:
        """Let a computer player choose an answer (without applying it), as the table would get it."""
        d = self.decision
        for answer in chooser.candidates(self.game, d):
            try:
                return d.check(answer)
            except Refused:
                continue
        raise AssertionError(f"no legal answer for {d.describe()}")


def no_question(title: str, question: str) -> bool:
    """A window's ``ask`` in tests: a modal question would wait for a click forever."""
    raise AssertionError(f"unexpected question: {title}: {question}")


@pytest.fixture
def table(qtbot):
    """``table(seed=..., mode=..., names=..., computer=...)`` -> a shown TableWindow and its Driver."""
    made = []

    def make(seed: int = 1, mode: str = "enforce", names=("Alice", "Bob"), computer=(), privacy: bool = True):
        decks = ["practice:stark", "practice:lannister", "practice:stark", "practice:lannister"][:len(names)]
        setup = GameSetup(names=list(names), decks=decks, computer=list(computer), mode=mode, seed=seed,
                          privacy=privacy)
        window = TableWindow(setup, computer_delay_ms=0)
        window.ask = no_question  # a test that expects a question sets its own answer
        qtbot.addWidget(window)
        window.resize(1600, 1000)
        window.show()
        qtbot.waitExposed(window)
        made.append(window)
        return window, Driver(window, qtbot)

    yield make
    for w in made:
        w.close()
