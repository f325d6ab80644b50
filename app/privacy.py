"""Hotseat privacy: "Pass to Bob" covers the table until the next player takes the seat."""
from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget


class PrivacyScreen(QWidget):
    """An opaque cover over its parent widget; the button hands the screen to the named player."""

    taken = Signal()

    def __init__(self, parent: QWidget):
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.setStyleSheet("PrivacyScreen { background: #1b130c; }")
        box = QVBoxLayout(self)
        box.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.title = QLabel()
        self.title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.title.setStyleSheet("color: #ffd35c; font-size: 42px; font-weight: bold;")
        box.addWidget(self.title)
        self.note = QLabel("The hands are hidden. Hand the screen over; only the next player should look.")
        self.note.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.note.setStyleSheet("color: #f5ecd6; font-size: 16px;")
        box.addWidget(self.note)
        self.question = QLabel()
        self.question.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.question.setStyleSheet("color: #cdbb9a; font-size: 15px; font-style: italic; padding-bottom: 10px;")
        box.addWidget(self.question)
        self.button = QPushButton()
        self.button.setObjectName("take-seat")
        self.button.setStyleSheet("font-size: 18px; padding: 10px 24px; background: #7a1414; color: white;")
        self.button.clicked.connect(self._take)
        box.addWidget(self.button, alignment=Qt.AlignmentFlag.AlignCenter)
        self.player: str | None = None
        parent.installEventFilter(self)
        self.hide()

    def show_for(self, name: str, question: str = "") -> None:
        """Cover the table and wait for ``name`` (``question``: what the engine asks him)."""
        self.player = name
        self.title.setText(f"Pass to {name}")
        self.question.setText(question)
        self.button.setText(f"I am {name} \u2014 show my table")
        self.setGeometry(self.parentWidget().rect())
        self.raise_()
        self.show()
        self.button.setFocus()

    def _take(self) -> None:
        self.hide()
        self.taken.emit()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.parentWidget() and event.type() == QEvent.Type.Resize:
            self.setGeometry(self.parentWidget().rect())
        return False
