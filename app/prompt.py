"""The prompt bar: what the engine asks, of whom, and the buttons that answer it.

It shows the round, phase and the open action window (a stepper of the six
steps, the current one lit, named after what opened the window), the question
and who must answer it, a summary of the cards picked on the table, and the
buttons for the pending decision: Pass/Done, the challenge types, Defend,
Choose, the plot strip, the first-player choice, duplicate saves and card
abilities (with the influence picker when an ability costs influence).
Refusals and advise-mode warnings appear on its message line.
"""
from __future__ import annotations

import html
from collections import OrderedDict

from PySide6.QtCore import QEvent, QSize, Qt, Signal
from PySide6.QtGui import QIcon, QPainter, QPixmap
from PySide6.QtWidgets import (QCheckBox, QComboBox, QFrame, QHBoxLayout, QLabel, QPushButton, QScrollArea,
                               QSizePolicy, QSpinBox, QToolButton, QVBoxLayout, QWidget)

from app.card_item import CARD_H, CARD_W, CardFace, paint_card
from cards.errors import printable
from engine import manual
from engine.wording import for_players

STEPS = ("Initiate", "Save/Cancel", "Execute", "Passives", "Responses", "End")
"""The six steps of an action window (TIM-05)."""

LEVEL_STYLE = {
    "info": "color: #3a3025;",
    "refused": "color: white; background: #a0261d; border-radius: 4px; padding: 3px 8px; font-weight: bold;",
    "warning": "color: #2b1d00; background: #f2c94c; border-radius: 4px; padding: 3px 8px; font-weight: bold;",
    "over": "color: white; background: #2d5b8a; border-radius: 4px; padding: 3px 8px; font-weight: bold;",
}


_BUTTON_PIXMAPS: OrderedDict[tuple[CardFace, float], QPixmap] = OrderedDict()
BUTTON_PIXMAPS_KEPT = 256


def card_pixmap(face: CardFace, scale: float = 1.0) -> QPixmap:
    """A card drawn into a pixmap (for buttons and dialogs outside the table); the last
    ``BUTTON_PIXMAPS_KEPT`` are kept, by face and scale, so a strip built again draws nothing new."""
    key = (face, scale)
    pm = _BUTTON_PIXMAPS.get(key)
    if pm is not None:
        _BUTTON_PIXMAPS.move_to_end(key)
        return pm
    pm = _BUTTON_PIXMAPS[key] = _draw_card_pixmap(face, scale)
    if len(_BUTTON_PIXMAPS) > BUTTON_PIXMAPS_KEPT:
        _BUTTON_PIXMAPS.popitem(last=False)
    return pm


def _draw_card_pixmap(face: CardFace, scale: float) -> QPixmap:
    pm = QPixmap(round(CARD_W * scale), round(CARD_H * scale))
    pm.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pm)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.scale(scale, scale)
    paint_card(painter, face)
    painter.end()
    return pm


class CardButton(QToolButton):
    """A card shown as a button (plot strip, pickers, pile viewers); hovering it previews the card.

    ``face`` comes from the table (``TableScene.face``, drawn through ``engine.visibility.may_see``): a
    hidden face shows its back and the caption "hidden card", whatever caption the caller gave."""

    hovered = Signal(object)
    HIDDEN_CAPTION = "hidden card"

    def __init__(self, card_id: int, face: CardFace, caption: str, scale: float = 0.72):
        super().__init__()
        self.card_id = card_id
        self.face = face
        if face.hidden:
            caption = ("\u2713 " if caption.startswith("\u2713") else "") + self.HIDDEN_CAPTION
        self.setIcon(QIcon(card_pixmap(face, 2 * scale)))
        self.setIconSize(QSize(round(CARD_W * scale), round(CARD_H * scale)))
        width = round(CARD_W * scale) + 24
        self.setFixedWidth(width)
        self.setText(self.fontMetrics().elidedText(caption, Qt.TextElideMode.ElideRight, width - 6))
        self.setToolTip(caption)
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextUnderIcon)
        self.setCursor(Qt.CursorShape.PointingHandCursor)

    def enterEvent(self, event) -> None:
        if not self.face.hidden:
            self.hovered.emit(self.card_id)
        super().enterEvent(event)


class ElidedLabel(QLabel):
    """One line of plain text that ends in "…" when the room is short, never cut mid-letter or
    drawn under its neighbour; the whole text is its tooltip."""

    def setText(self, text: str) -> None:  # noqa: N802 (Qt's name)
        self._full = text
        self.setToolTip(text)
        super().setText(text)
        self.update()

    def minimumSizeHint(self):  # noqa: N802
        hint = super().minimumSizeHint()
        hint.setWidth(40)
        return hint

    def paintEvent(self, event) -> None:  # noqa: N802
        p = QPainter(self)
        p.setPen(self.palette().windowText().color())
        p.setFont(self.font())
        text = self.fontMetrics().elidedText(getattr(self, "_full", ""), Qt.TextElideMode.ElideRight,
                                             self.width())
        p.drawText(self.rect(), int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), text)
        p.end()


class AnswerRow(QScrollArea):
    """The prompt bar's row of answer controls (``row``, a horizontal layout). It asks for the width of its
    controls up to ``MOST`` pixels; controls beyond that scroll sideways (a thin scroll bar, the mouse
    wheel), so the row never makes the window wider than a screen."""

    BAR = 8
    MOST = 900
    """The most width the row asks for (its controls as wide as that show whole, as before); beyond it
    they scroll."""

    def __init__(self):
        super().__init__()
        inner = QWidget()
        inner.setObjectName("answer-row")
        self.row = QHBoxLayout(inner)
        self.row.setContentsMargins(0, 0, 0, 0)
        self.row.setAlignment(Qt.AlignmentFlag.AlignTop)  # where the row was before it scrolled
        self.setWidget(inner)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.viewport().setAutoFillBackground(False)
        self.setStyleSheet(f"QScrollArea, #answer-row {{ background: transparent; }}"
                           f"QScrollBar:horizontal {{ height: {self.BAR}px; }}")
        inner.installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:  # noqa: N802
        if watched is self.widget() and event.type() == QEvent.Type.LayoutRequest:
            self.updateGeometry()  # new controls: the bar lays the row out again at their height
        return super().eventFilter(watched, event)

    def _height(self) -> int:
        return self.widget().minimumSizeHint().height() + self.BAR

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        return QSize(min(self.widget().minimumSizeHint().width(), self.MOST), self._height())

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(min(self.widget().sizeHint().width(), self.MOST), self._height())

    def wheelEvent(self, event) -> None:  # noqa: N802
        bar = self.horizontalScrollBar()
        if bar.isVisible() and event.angleDelta().y():
            bar.setValue(bar.value() - event.angleDelta().y())
            event.accept()
            return
        super().wheelEvent(event)


class WindowStepper(QWidget):
    """The open action window: its name (what opened it) and steps 1–6, the current one lit."""

    def __init__(self):
        super().__init__()
        self.names: list[str] = []
        """The players' names (a window named after a player called "You" reads "You become active")."""
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(3)
        self.name = QLabel()
        self.name.setStyleSheet("font-weight: bold; color: #3a3025;")
        self.name.setMaximumWidth(340)
        row.addWidget(self.name)
        self.steps: list[QLabel] = []
        for i, step in enumerate(STEPS, 1):
            lab = QLabel(f"{i} {step}")
            lab.setAlignment(Qt.AlignmentFlag.AlignCenter)
            row.addWidget(lab)
            self.steps.append(lab)
        self.set_window(None)

    def set_window(self, window, depth: int = 0, idle: str = "No action window open") -> None:
        """Show ``window`` (an engine ``Window`` or None); ``depth`` counts windows open under it;
        ``idle`` says what is going on when no window is shown."""
        if window is None:
            self.name.setText(idle)
            self.name.setToolTip("")
        else:
            nested = f" (+{depth} below)" if depth else ""
            text = f"{for_players(printable(window.name), self.names)}{nested}"
            self.name.setText(self.name.fontMetrics().elidedText(text, Qt.TextElideMode.ElideMiddle, 330))
            self.name.setToolTip(f"{window.kind.replace('_', ' ')} window: {text}")
        for i, lab in enumerate(self.steps, 1):
            skipped = window is not None and window.kind == "end_of_phase" and i in (2, 5)
            if window is not None and window.step == i:
                style = "background: #d4a017; color: #1c1408; font-weight: bold;"
            elif skipped or window is None:
                style = "background: #e8e1d2; color: #b0a690;"
            else:
                style = "background: #efe7d4; color: #4a3f30;"
            style += " border-radius: 3px; padding: 1px 6px;"
            if lab.styleSheet() != style:  # a style sheet set again re-polishes the label
                lab.setStyleSheet(style)
        self.current = window.step if window is not None else None


class InfluencePicker(QFrame):
    """Pick standing cards with influence to kneel as a cost: shows total vs needed, warns of overpay."""

    accepted = Signal(list)
    cancelled = Signal()

    def __init__(self, sources: list[tuple[int, str, int]], needed: int, what: str = "this ability"):
        super().__init__()
        self.needed = needed
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setStyleSheet("InfluencePicker { background: #f3ead6; border: 1px solid #b89b63; border-radius: 5px; }")
        box = QHBoxLayout(self)
        box.addWidget(QLabel(f"<b>Kneel influence for {html.escape(what)}:</b>"))
        self.boxes: list[tuple[QCheckBox, int, int]] = []
        for cid, name, infl in sources:
            check = QCheckBox(f"{name} ({infl})")
            check.toggled.connect(self._update)
            box.addWidget(check)
            self.boxes.append((check, cid, infl))
        self.total = QLabel()
        box.addWidget(self.total)
        self.pay = QPushButton("Pay")
        self.pay.setObjectName("pay-influence")
        self.pay.clicked.connect(lambda: self.accepted.emit(self.chosen()))
        box.addWidget(self.pay)
        cancel = QPushButton("Cancel")
        cancel.clicked.connect(self.cancelled.emit)
        box.addWidget(cancel)
        box.addStretch()
        self._update()

    def chosen(self) -> list[int]:
        return [cid for check, cid, _ in self.boxes if check.isChecked()]

    def paid(self) -> int:
        return sum(infl for check, _, infl in self.boxes if check.isChecked())

    def overpay(self) -> int:
        return max(0, self.paid() - self.needed)

    def set_checked(self, cid: int, on: bool = True) -> None:
        for check, c, _ in self.boxes:
            if c == cid:
                check.setChecked(on)

    def _update(self) -> None:
        paid = self.paid()
        text = f"{paid} of {self.needed} needed"
        colour = "#a0261d" if paid < self.needed else "#2d6a3e"
        if paid > self.needed:
            text += f" \u2014 overpaying by {paid - self.needed}"
            colour = "#9a6a00"
        self.total.setText(text)
        self.total.setStyleSheet(f"color: {colour}; font-weight: bold;")
        self.pay.setEnabled(paid >= self.needed)


class HandUsePanel(QFrame):
    """Start a use of card text by hand: the costs paid by hand (kneel, gold) and whether the
    effect removes the picked targets (so they can be saved in step 2). The picks are the targets."""

    accepted = Signal(dict)
    cancelled = Signal()

    REMOVES = (("", "no removal"), ("kill", "kills them"), ("discard", "discards them"),
               ("return_to_hand", "returns them to hand"), ("return_to_deck", "returns them to the deck"))

    def __init__(self, what: str, kneelable: list[tuple[int, str]], gold: int, targets: str):
        super().__init__()
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setStyleSheet("HandUsePanel { background: #fff3c4; border: 1px solid #b89b63; border-radius: 5px; }")
        box = QHBoxLayout(self)
        box.addWidget(QLabel(f"<b>{html.escape(what)}</b> \u2014 kneel to pay:"))
        self.boxes: list[tuple[QCheckBox, int]] = []
        for cid, name in kneelable:
            check = QCheckBox(name)
            check.setObjectName(f"kneel-{cid}")
            box.addWidget(check)
            self.boxes.append((check, cid))
        box.addWidget(QLabel("gold"))
        self.gold = QSpinBox()
        self.gold.setObjectName("hand-gold")
        self.gold.setRange(0, max(0, gold))
        box.addWidget(self.gold)
        box.addWidget(QLabel(f"targets: {targets}"))
        self.removes = QComboBox()
        self.removes.setObjectName("hand-removes")
        for key, label in self.REMOVES:
            self.removes.addItem(label, key)
        box.addWidget(self.removes)
        use = self.use = QPushButton("Use")
        use.setObjectName("hand-use")
        use.setProperty("primary", True)
        use.clicked.connect(lambda: self.accepted.emit(self.answer()))
        box.addWidget(use)
        cancel = QPushButton("Cancel")
        cancel.clicked.connect(self.cancelled.emit)
        box.addWidget(cancel)

    def answer(self) -> dict:
        return {"kneel": [cid for check, cid in self.boxes if check.isChecked()], "gold": self.gold.value(),
                "removes": self.removes.currentData() or None}


def stepper_state(st, d) -> tuple:
    """What the stepper shows, in agreement with the question asked: (window, depth, idle text).
    No step is lit while plots or the first player are chosen (nothing has been initiated yet),
    in a player-action segment before an action opens its window, or once the game is over."""
    if d is None:
        return None, 0, "Game over"
    if d.kind in ("plot", "setup"):
        return None, 0, "Choosing plots in secret" if d.kind == "plot" else "Setup"
    if not st.windows:
        if d.kind == "action":
            return None, 0, "Player actions: an action opens a window"
        if d.kind in ("challenge", "first_player"):
            return None, 0, "Declaring a challenge" if d.kind == "challenge" else "Choosing the first player"
        return None, 0, "No action window open"
    return st.windows[-1], max(0, len(st.windows) - 1), ""


class PromptBar(QFrame):
    """The bar under the table: the question, whose it is, the stepper and the answer buttons."""

    card_hovered = Signal(object)
    STRIP_H = round(CARD_H * 0.6) + 40
    COMPACT = 112
    """The bar's height for a question and a row of buttons; it grows by the strip's height only
    while a strip of cards is shown (plots to choose, a deck searched), then shrinks back."""
    HEIGHT = STRIP_H + 78
    WORD_BUTTONS = 6
    """Up to this many words to choose from get a button each; more get a list (``_word_list``)."""

    def __init__(self, controller, face_of, on_table=lambda cid: True):
        """``face_of(card_id)`` gives the CardFace to draw (the table's view of a card);
        ``on_table(card_id)`` says whether the table shows it (cards in piles get buttons here)."""
        super().__init__()
        self.controller = controller
        self.face_of = face_of
        self.on_table = on_table
        self.buttons: dict[str, QPushButton | QToolButton] = {}
        self._reusable: dict[str, QPushButton] = {}
        self._key: tuple | None = None
        self._untimed_at: tuple | None = None
        """Where "Use a card by hand…" was opened (``_answer_point``): open until the next answer."""
        """The content key of the bar as built (``content_key``); None: build it at the next refresh."""
        self.picker: InfluencePicker | None = None
        self.setObjectName("PromptBar")
        self.setStyleSheet(
            "#PromptBar { background: #f6efdf; border-top: 2px solid #b89b63; }"
            "QPushButton { padding: 4px 12px; font-size: 13px; }"
            "QPushButton[primary=\"true\"] { background: #7a1414; color: white; font-weight: bold;"
            " padding: 5px 14px; border: 1px solid #4a0a0a; border-radius: 3px; }"
            "QPushButton[primary=\"true\"]:disabled { background: #cfc4b0; color: #8a7f6c;"
            " border: 1px solid #b0a590; }")
        outer = QVBoxLayout(self)
        outer.setContentsMargins(10, 4, 10, 6)
        outer.setSpacing(3)
        top = QHBoxLayout()
        self.status = ElidedLabel()
        self.status.setStyleSheet("color: #3a3025; font-size: 13px;")
        top.addWidget(self.status, 1)
        self.stepper = WindowStepper()
        top.addWidget(self.stepper)
        outer.addLayout(top)
        self.ask = QLabel()
        self.ask.setStyleSheet("font-size: 18px; color: #1c1408;")
        for label in (self.status, self.ask):
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        outer.addWidget(self.ask)
        self.picks = QLabel()
        self.picks.setStyleSheet("color: #5a4a35; font-size: 13px;")
        self.picks.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        outer.addWidget(self.picks)
        # The answer row: buttons (or the plot strip) on the left, the engine's message on the right.
        answer = QHBoxLayout()
        self.strip_area = QScrollArea()
        self.strip_area.setWidgetResizable(True)
        self.strip_area.setFrameShape(QFrame.Shape.NoFrame)
        self.strip_area.setFixedHeight(self.STRIP_H)
        self.strip_area.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.strip_area.setStyleSheet("background: transparent;")
        self.strip_area.hide()
        answer.addWidget(self.strip_area, 3)
        self._answer = answer
        self._host = None
        """The table's view when strips show over it (``float_strip``); None: they show in the bar."""
        # The buttons scroll sideways when there are more than fit: the bar never makes the window wider
        # (a row as wide as its buttons did: the window, and its backing store, grew to thousands of pixels).
        self.row_area = AnswerRow()
        self.row = self.row_area.row
        answer.addWidget(self.row_area, 3)
        self.msg = QLabel()
        self.msg.setWordWrap(True)
        self.msg.setObjectName("message")
        self.msg.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.msg.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        answer.addWidget(self.msg, 2)
        outer.addLayout(answer)
        outer.addStretch()
        self.setFixedHeight(self.COMPACT)
        controller.message.connect(self.show_message)

    # -- messages ------------------------------------------------------------------
    def show_message(self, text: str, level: str) -> None:
        # a refusal may name a card (control characters escaped) and a player called "You" ("You have...")
        self.msg.setText(for_players(printable(text), self.controller.game.state.player_names))
        style = LEVEL_STYLE.get(level, LEVEL_STYLE["info"]) + " font-size: 13px;"
        if self.msg.styleSheet() != style:
            self.msg.setStyleSheet(style)
        self.msg.setVisible(bool(text))

    # -- building the answer controls -----------------------------------------------
    def _clear(self) -> None:
        """Empty the answer row. Plain buttons are kept aside by key: the next build takes back the ones
        it shows again with the same label and look (``_button``); ``_drop_unused`` deletes the rest."""
        self._close_picker()
        self._reusable = {k: b for k, b in self.buttons.items() if type(b) is QPushButton}
        while self.row.count():
            item = self.row.takeAt(0)
            w = item.widget()
            if w is not None and self._reusable.get(w.objectName()) is not w:
                w.hide()  # deleteLater waits for the event loop; hide it now
                w.deleteLater()
        self.buttons.clear()
        self.strip_area.hide()
        old = self.strip_area.takeWidget()
        if old is not None:
            old.deleteLater()

    def _button(self, key: str, label: str, slot, *, primary: bool = False, enabled: bool = True) -> QPushButton:
        b = self._reusable.pop(key, None)
        if b is not None and b.text() == label and b.property("primary") == primary:
            b.clicked.disconnect()  # the same button as before: only what it does is new
            b.setToolTip("")
        else:
            if b is not None:
                b.hide()
                b.deleteLater()
            b = QPushButton(label)
            b.setObjectName(key)
            b.setProperty("primary", primary)
        b.setEnabled(enabled)
        b.clicked.connect(lambda _=False: slot())
        self._add(b)
        self.buttons[key] = b
        return b

    def _drop_unused(self) -> None:
        """Delete the buttons of the last build that this one did not take back."""
        for b in self._reusable.values():
            b.hide()
            b.deleteLater()
        self._reusable = {}

    def _show_strip(self) -> None:
        self.strip_area.show()
        self._fit_height()

    def float_strip(self, view) -> None:
        """Show strips of cards over the bottom of ``view`` (the table's ``TableView``, which lifts the table
        above them) instead of growing the bar: the table keeps its size and scale, so a strip coming and
        going does not draw the whole table again (it did, a tenth of all decisions)."""
        self._answer.removeWidget(self.strip_area)
        self.strip_area.setParent(view)
        self.strip_area.setObjectName("strip")
        self.strip_area.setStyleSheet("#strip { background: #f6efdf; border-top: 2px solid #b89b63; }"
                                      "#strip QWidget { background: transparent; }")
        self.strip_area.setFixedHeight(self.STRIP_H + 6)
        self.strip_area.hide()
        self._host = view

    def _fit_height(self) -> None:
        """Compact, unless a strip of cards is shown in the bar (only then does the table give room); a
        strip floating over the table covers its bottom instead."""
        shown = not self.strip_area.isHidden()
        if self._host is not None:
            cover = self.strip_area if shown else None
            if self._host.cover is not cover:
                self._host.set_cover(cover)
            shown = False
        want = self.COMPACT + (self.STRIP_H - 34 if shown else 0)
        if self.height() != want:
            self.setFixedHeight(want)

    def _add(self, widget: QWidget) -> None:
        self.row.addWidget(widget)
        widget.show()  # a layout shows new children only on the next event loop turn

    def content_key(self) -> tuple:
        """Everything the bar is built from: the pending decision (the engine keeps the same object while
        it waits), the game's history and log (every answer and free move goes into them), the picks, and
        the table's settings. The same key builds the same bar."""
        ctl = self.controller
        g = ctl.game
        d = ctl.decision
        return (d, id(g.state), len(g.history), len(g.state.log), ctl.result, ctl.mode, ctl.viewer,
                ctl.hands_hidden, ctl.waiting_for, tuple(ctl.selection), tuple(ctl.setup_attach.items()),
                tuple(ctl.computers), tuple(sorted(ctl.prompting.items())), tuple(sorted(ctl.phase_pass.items())))

    def refresh(self) -> None:
        """Rebuild from the controller: called after every change, but only when what the bar shows
        changed (``content_key``) or a picker or a search replaced its buttons."""
        key = self.content_key()
        if key == self._key and self.picker is None:
            return
        self._key = key
        self._refresh()
        self._drop_unused()
        self._fit_height()
        self._settle_row()

    def _settle_row(self) -> None:
        """Lay the bar out now with the row's new controls (a click may come before the event loop turns:
        a control laid out later would not be where the row shows it)."""
        self.row_area.updateGeometry()
        self.layout().activate()

    def _refresh(self) -> None:
        ctl = self.controller
        g = ctl.game
        st = g.state
        self._clear()
        fp = f" \u00b7 first player: {st.first_player}" if st.first_player else ""
        active = f" \u00b7 active: {st.active_player}" if st.active_player else ""
        self.status.setText(f"Round {st.round} \u00b7 {st.phase.capitalize()} phase{active}{fp}"
                            f" \u00b7 {ctl.mode} mode")
        d = ctl.decision
        self.stepper.names = st.player_names
        self.stepper.set_window(*stepper_state(st, d))
        self.picks.setText("")
        if d is None:
            res = ctl.result
            who = res.winner if res else "?"
            outcome = "a draw" if who == "draw" else f"{html.escape(who)} wins"
            self.ask.setText(for_players(f"<b>Game over</b> \u2014 {outcome}. "
                                         f"{html.escape(printable(res.reason)) if res else ''}", st.player_names))
            self.row.addStretch()
            return
        name = f"<b>{html.escape(d.player)}</b>" + (" (computer)" if d.player in ctl.computers else "")
        self.ask.setText(f"{name}: {html.escape(printable(d.prompt), quote=False)}")  # names card and player
        if ctl.hands_hidden:
            self.picks.setText(f"Waiting for {ctl.waiting_for or d.player} to take the seat.")
            self.row.addStretch()
            return
        if d.player in ctl.computers:
            self.picks.setText(for_players(f"{d.player} is thinking\u2026", st.player_names))
            self.row.addStretch()
            return
        if d.player != ctl.viewer:
            self.picks.setText(f"Waiting for {d.player}.")
            self.row.addStretch()
            return
        build = getattr(self, f"_build_{d.kind}", self._build_default)
        build(d)
        self.row.addStretch()
        self._fit_height()

    def _sum_str(self, ids) -> int:
        return sum(self.controller.game.strength(c) for c in ids)

    def _names(self, ids) -> str:
        return ", ".join(self.controller.title(c) for c in ids) or "none"

    def _build_setup(self, d) -> None:
        ctl = self.controller
        g = ctl.game
        gold = sum((g.defn(c).cost or 0) + g.gold_penalty(d.player, c) for c in ctl.selection)
        attach = "; ".join(f"{ctl.title(a)} on {ctl.title(h)}" for a, h in ctl.setup_attach.items())
        over = " \u2014 over the limit!" if gold > 5 else ""
        self.picks.setText(f"Click (or drag to your rows) the cards to place: {self._names(ctl.selection)} "
                           f"\u2014 {gold} of 5 gold{over}" + (f" \u2014 {attach}" if attach else ""))
        self._button("setup", f"Place {len(ctl.selection)} card{'s' if len(ctl.selection) != 1 else ''}",
                     ctl.confirm_setup, primary=True, enabled=bool(ctl.selection))
        self._button("pass", "Place nothing", ctl.pass_)

    def _build_plot(self, d) -> None:
        strip = QWidget()
        box = QHBoxLayout(strip)
        box.setContentsMargins(0, 0, 0, 0)
        for opt in d.options:
            cid = opt["plot"]
            b = CardButton(cid, self.face_of(cid), self.controller.title(cid), scale=0.6)
            b.setObjectName(f"plot-{cid}")
            b.clicked.connect(lambda _=False, cid=cid: self.controller.choose_plot(cid))
            b.hovered.connect(self.card_hovered.emit)
            box.addWidget(b)
            b.show()
            self.buttons[f"plot-{cid}"] = b
        box.addStretch()
        self.strip_area.setWidget(strip)
        self._show_strip()
        self.picks.setText("Click the plot to reveal (hover over one to read it).")

    def _build_first_player(self, d) -> None:
        seats = self.controller.game.state.player_names
        for opt in sorted(d.options, key=lambda o: seats.index(o["first_player"])
                          if o.get("first_player") in seats else len(seats)):
            name = opt["first_player"]
            self._button(f"first-{name}", for_players(f"{name} goes first", seats),
                         lambda name=name: self.controller.choose_first_player(name), primary=True)

    def _build_action(self, d) -> None:
        ctl = self.controller
        g = ctl.game
        own_marshal = g.state.phase == "marshalling" and g.state.active_player == d.player
        if own_marshal:
            self.picks.setText("Drag a card from your hand to your rows (attachments onto a character; "
                               "a unique card onto its copy for a duplicate), or double-click it.")
        # Pass/Done first: it keeps its place whatever ability buttons come and go
        self._button("pass", "Done marshalling" if own_marshal else "Pass", ctl.pass_, primary=own_marshal)
        self._pass_phase_button()
        for opt in d.options:
            if "trigger" in opt:
                self._trigger_button(opt)
        self._by_hand_buttons()

    def _pass_phase_button(self) -> None:
        """In an optional window: pass now and in every optional window until the phase ends."""
        ctl = self.controller
        if ctl.optional_window():
            b = self._button("pass-phase", "Pass for the rest of this phase", ctl.pass_phase)
            b.setToolTip("Pass here and in every action, response and save window of yours until this "
                         "phase ends (your own marshalling turn and challenges still stop for you)")

    # -- card text by hand -------------------------------------------------------------------
    def untimed_options(self) -> list[dict]:
        """Uses by hand whose timing could not be read (``engine.manual.split_untimed``) the viewer may
        start now: legal in every window, so they sit behind "Use a card by hand…"."""
        ctl = self.controller
        d = ctl.decision
        found = d.context.get("by_hand_untimed") if d is not None and ctl.my_turn() else None
        return list(found) if isinstance(found, list) else []

    def _answer_point(self) -> tuple:
        """Which decision of which game the viewer answers now (it changes with every answer)."""
        g = self.controller.game
        return id(g.state), len(g.history), self.controller.viewer

    def show_untimed(self) -> None:
        """Open "Use a card by hand…": one button per use whose timing could not be read."""
        self._untimed_at = self._answer_point()
        self._key = None
        self.refresh()

    def _by_hand_buttons(self) -> None:
        """One button per paragraph the viewer may use by hand now (saves: one per card saved); the uses
        whose timing could not be read behind one "Use a card by hand…" entry."""
        ctl = self.controller
        g = ctl.game
        untimed = self.untimed_options()
        shown = self._untimed_at == self._answer_point()
        if untimed and not shown:
            b = self._button("hand-untimed", "Use a card by hand…", self.show_untimed)
            b.setToolTip("Cards whose timing Maester could not read from their text: use one if its text "
                         "lets you now (" + ", ".join(dict.fromkeys(ctl.title(o["by_hand"]) for o in untimed))
                         + ")")
        for opt in ctl.by_hand_options() + (untimed if shown else []):
            cid, n = opt["by_hand"], opt.get("paragraph", 1)
            title = ctl.title(cid)
            ta = ctl.text_ability(opt)
            if "save" in opt:
                key, label = f"hand-{cid}-{n}-save-{opt['save']}", f"Save {ctl.title(opt['save'])} with {title}"
            elif "cancel" in opt:
                key, label = f"hand-{cid}-{n}-cancel", f"Cancel with {title}"
            else:
                key = f"hand-{cid}-{n}"
                if key in self.buttons:
                    continue  # one button per paragraph (a response may answer several gates)
                verb = "Play" if g.defn(cid).type == "event" else "Use"
                label = f"{verb} {title}" + (f" \u00b6{n}" if len(manual.text_abilities(g, cid)) > 1 else "")
                if ta is not None and ta.flagged:
                    label += " (timing not read)"
            b = self._button(key, label + " by hand", lambda opt=opt: self.open_hand_use(opt))
            if ta is not None:
                b.setToolTip(f"{ta.describe()}: {printable(ta.text)}")

    def open_hand_use(self, option: dict) -> "HandUsePanel":
        """The cost panel of a use by hand; Use sends it with the picks as targets."""
        self._close_picker()
        ctl = self.controller
        g = ctl.game
        me = ctl.viewer
        kneelable = [(c, ctl.title(c)) for c in g.in_play_cards(me) + [g.player(me).house_card]
                     if c is not None and not g.card(c).kneeling and not g.card(c).facedown]
        what = ctl.title(option["by_hand"])
        self.picker = HandUsePanel(what, kneelable, g.player(me).gold, self._names(ctl.selection))
        self.picker.accepted.connect(lambda a: ctl.use_by_hand(option, kneel=a["kneel"], gold=a["gold"],
                                                               removes=a["removes"]))
        self.picker.cancelled.connect(self.refresh)
        for i in range(self.row.count()):
            w = self.row.itemAt(i).widget()
            if w is not None:
                w.hide()
        self.row.insertWidget(0, self.picker)
        self.picker.show()
        self._settle_row()
        return self.picker

    def _build_by_hand_effect(self, d) -> None:
        ctl = self.controller
        g = ctl.game
        me = d.player
        cid = d.context.get("card")
        ta = next((t for t in manual.text_abilities(g, cid) if t.paragraph == d.context.get("paragraph")), None) \
            if cid is not None else None
        self.picks.setText("Carry out the text with the tools: right-click a card (kill, discard, kneel, "
                           "power, STR, icons, tokens...), or use the buttons; then Done."
                           + (f"  \u2014 {ta.text}" if ta is not None else ""))
        self._button("done", "Done", ctl.pass_, primary=True)
        self._button("tool-draw", "Draw 1", lambda: ctl.tool("draw", count=1))
        self._button("tool-gold+", "Gold +1", lambda: ctl.tool("gold", amount=1))
        self._button("tool-gold-", "Gold \u22121", lambda: ctl.tool("gold", amount=-1),
                     enabled=g.player(me).gold > 0)
        self._button("tool-search", "Search my deck\u2026", self.show_search)
        self._button("tool-look", "Look at top 3", lambda: ctl.tool("look", count=3))
        self._button("tool-shuffle", "Shuffle my deck", lambda: ctl.tool("shuffle"))
        looked = [x for x in g.state.looking if x["player"] == me]
        if looked:
            top = g.player(looked[-1]["deck"]).deck[:looked[-1]["count"]]
            self._strip_of(top, lambda c: None, "look")

    def show_search(self) -> None:
        """Search the viewer's own deck: its cards in the strip; clicking one takes it (then shuffle)."""
        ctl = self.controller
        self._key = None  # the next refresh builds the bar again, without the search
        deck = ctl.game.player(ctl.viewer).deck
        self._strip_of(deck, lambda c: ctl.tool("search", pick=c), "search")
        self._button("tool-search-none", "Take nothing", lambda: ctl.tool("search", pick=None))

    def _strip_of(self, cards: list[int], on_click, prefix: str) -> None:
        strip = QWidget()
        box = QHBoxLayout(strip)
        box.setContentsMargins(0, 0, 0, 0)
        for cid in cards:
            b = CardButton(cid, self.face_of(cid), self.controller.title(cid), scale=0.6)
            b.setObjectName(f"{prefix}-{cid}")
            b.clicked.connect(lambda _=False, cid=cid: on_click(cid))
            b.hovered.connect(self.card_hovered.emit)
            box.addWidget(b)
            b.show()
            self.buttons[f"{prefix}-{cid}"] = b
        box.addStretch()
        old = self.strip_area.takeWidget()
        if old is not None:
            old.deleteLater()
        self.strip_area.setWidget(strip)
        self._show_strip()

    def _build_by_hand_passive(self, d) -> None:
        ctl = self.controller
        self._button("resolve", "Resolve by hand", lambda: ctl.submit({"resolve": True}), primary=True)
        self._button("pass", "Skip", ctl.pass_)

    def _trigger_button(self, opt: dict) -> None:
        ctl = self.controller
        g = ctl.game
        cid = opt["trigger"]
        key = f"trigger-{cid}-{opt.get('ability', 1)}"
        if key in self.buttons:
            return  # the engine lists one option per target; one button per ability is enough
        title = ctl.title(cid) if cid in g.state.cards else str(cid)
        verb = "Play" if g.defn(cid).type == "event" else "Trigger"
        n = len(g.defn(cid).abilities)
        label = f"{verb} {title}" + (f" ({opt.get('ability', 1)})" if n > 1 else "")
        needed = ctl.influence_needed(opt)
        if needed:
            label += f" \u2014 {needed} influence"
        self._button(f"trigger-{cid}-{opt.get('ability', 1)}", label,
                     lambda opt=opt, needed=needed: self.open_picker(opt, needed) if needed else ctl.trigger(opt))
        if ctl.ability(opt).get("choose") is not None:
            self.picks.setText(f"Click the target(s) first, then {verb.lower()}: {self._names(ctl.selection)}")

    def open_picker(self, option: dict, needed: int) -> InfluencePicker:
        """Show the influence picker for an ability; paying sends the trigger with ``pay``."""
        self._close_picker()
        g = self.controller.game
        what = self.controller.title(option["trigger"]) if option.get("trigger") in g.state.cards \
            else "this ability"
        self.picker = InfluencePicker(self.controller.influence_sources(), needed, what)
        self.picker.accepted.connect(lambda pay: self.controller.trigger(option, pay))
        self.picker.cancelled.connect(self.refresh)
        for i in range(self.row.count()):  # the picker takes the buttons' place until paid or cancelled
            w = self.row.itemAt(i).widget()
            if w is not None:
                w.hide()
        self.row.insertWidget(0, self.picker)
        self.picker.show()
        self._settle_row()
        return self.picker

    def _close_picker(self) -> None:
        if self.picker is not None:
            self.row.removeWidget(self.picker)
            self.picker.hide()
            self.picker.deleteLater()
            self.picker = None

    def _build_challenge(self, d) -> None:
        ctl = self.controller
        g = ctl.game
        opponents = d.context.get("opponents", [])
        self.picks.setText(f"Click your standing characters to attack: {self._names(ctl.selection)} "
                           f"(STR {self._sum_str(ctl.selection)}), then choose the challenge.")
        combo = None
        if len(opponents) > 1:
            combo = QComboBox()
            combo.setObjectName("against")
            combo.addItems(opponents)
            self._add(QLabel("against"))
            self._add(combo)
            self.buttons["against"] = combo
        for ctype in d.context.get("types", []):
            able = all(ctype in g.icons(c) for c in ctl.selection)
            self._button(f"declare-{ctype}", f"{ctype.capitalize()} challenge",
                         lambda ctype=ctype: ctl.declare(ctype, combo.currentText() if combo else None),
                         primary=True, enabled=bool(ctl.selection) and able)
        self._button("pass", "No more challenges", ctl.pass_)

    def _build_stealth(self, d) -> None:
        ctl = self.controller
        g = ctl.game
        attackers = d.context.get("attackers", [])
        pairs = [f"{ctl.title(a)} \u2192 {ctl.title(t)}" for a, t in zip(attackers, ctl.selection)]
        nxt = attackers[len(ctl.selection)] if len(ctl.selection) < len(attackers) else None
        hint = f"Click the target for {ctl.title(nxt)}." if nxt is not None else "Every Stealth attacker has a target."
        self.picks.setText(f"{hint} {'; '.join(pairs)}")
        self._button("stealth", "Confirm stealth", ctl.confirm_stealth, primary=True)
        self._button("pass", "No stealth", ctl.pass_)

    def _build_defend(self, d) -> None:
        ctl = self.controller
        self.picks.setText(f"Click your standing characters to defend: {self._names(ctl.selection)} "
                           f"(STR {self._sum_str(ctl.selection)})")
        n = len(ctl.selection)
        self._button("defend", f"Defend with {n}" if n else "Declare no defenders", ctl.confirm_defenders,
                     primary=True)

    def _offer_off_table(self, d) -> None:
        """Choices the table does not show (cards in a deck or pile) become buttons in the strip."""
        off = [c for c in d.choices if isinstance(c, int) and not self.on_table(c)]
        if not off:
            return
        strip = QWidget()
        box = QHBoxLayout(strip)
        box.setContentsMargins(0, 0, 0, 0)
        for cid in off:
            b = CardButton(cid, self.face_of(cid), ("\u2713 " if cid in self.controller.selection else "")
                           + self.controller.title(cid), scale=0.6)
            b.setObjectName(f"pick-{cid}")
            b.clicked.connect(lambda _=False, cid=cid: self.controller.toggle(cid))
            b.hovered.connect(self.card_hovered.emit)
            box.addWidget(b)
            b.show()
            self.buttons[f"pick-{cid}"] = b
        box.addStretch()
        self.strip_area.setWidget(strip)
        self._show_strip()

    def _build_choose(self, d) -> None:
        ctl = self.controller
        words = [c for c in d.choices if isinstance(c, str)]
        if words:  # not cards: e.g. where a card removed in two ways at once goes (MOR-06), a title to name
            labels = {w: {"dead": "Dead pile", "discard": "Discard pile", "hand": "Hand", "deck": "Deck"}.get(w, w)
                      for w in words}
            if len(words) <= self.WORD_BUTTONS:
                for w in words:
                    self._button(f"choose-{w}", labels[w], lambda w=w: ctl.submit({"choose": [w]}), primary=True)
            else:
                self._word_list(labels)
            return
        self._offer_off_table(d)
        need = str(d.min_count) if d.min_count == d.max_count else f"{d.min_count}\u2013{d.max_count}"
        self.picks.setText(f"Click {need} of the outlined cards: {self._names(ctl.selection)}")
        ok = d.min_count <= len(ctl.selection) <= d.max_count
        self._button("choose", f"Choose ({len(ctl.selection)})", ctl.confirm_choice, primary=True, enabled=ok)

    def _word_list(self, labels: dict[str, str]) -> None:
        """Many words to choose from (a card title to name): a list to pick from or type into, and Choose.
        A button each would make the bar, and the window with it, as wide as all of them together."""
        ctl = self.controller
        combo = QComboBox()
        combo.setObjectName("choose-word")
        combo.setEditable(True)
        combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        combo.setMinimumContentsLength(28)
        for w, label in labels.items():
            combo.addItem(label, w)
        completer = combo.completer()
        if completer is not None:  # typing part of a title finds it
            completer.setFilterMode(Qt.MatchFlag.MatchContains)
            completer.setCompletionMode(completer.CompletionMode.PopupCompletion)
        by_label = {label.casefold(): w for w, label in labels.items()}

        def choose() -> None:
            w = by_label.get(combo.currentText().strip().casefold())
            if w is None:
                ctl.say(f"{combo.currentText().strip() or 'Nothing'} is not in the list: pick one of its names.",
                        "refused")
                return
            ctl.submit({"choose": [w]})

        self._add(combo)
        self.buttons["choose-word"] = combo
        self._button("choose", "Choose", choose, primary=True)

    def _build_order(self, d) -> None:
        ctl = self.controller
        self._offer_off_table(d)
        self.picks.setText(f"Click the cards in order: {self._names(ctl.selection)}")
        self._button("order", "Confirm order", ctl.confirm_order, primary=True,
                     enabled=len(ctl.selection) == len(d.choices))

    def _build_save_cancel(self, d) -> None:
        ctl = self.controller
        g = ctl.game
        self._button("pass", "Pass", ctl.pass_)
        self._pass_phase_button()
        for opt in d.options:
            if "duplicate_save" in opt:
                cid = opt["duplicate_save"]
                self._button(f"save-{cid}", f"Save {ctl.title(cid)} (discard a duplicate)",
                             lambda cid=cid: ctl.duplicate_save(cid), primary=True)
            elif "trigger" in opt:
                self._trigger_button(opt)
        self._by_hand_buttons()

    def _build_response(self, d) -> None:
        self._button("pass", "Pass", self.controller.pass_)
        self._pass_phase_button()
        for opt in d.options:
            if "trigger" in opt:
                self._trigger_button(opt)
        self._by_hand_buttons()

    def _build_default(self, d) -> None:
        if d.can_pass:
            self._button("pass", "Pass", self.controller.pass_)
