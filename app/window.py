"""The main window: the table, the prompt bar, the card preview and the log, and the menus."""
from __future__ import annotations

import re

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (QApplication, QLabel, QMainWindow, QMessageBox, QPushButton, QSplitter, QVBoxLayout,
                               QWidget)

from app.card_item import CardFace, CardImages
from app.controller import TableController
from app.dialogs import GameSetup, NewGameDialog, PileDialog
from app.preview import CardPreview, GameLog, describe
from app.privacy import PrivacyScreen
from app.prompt import CardButton, PromptBar
from app.table import PILE_LABELS, TableScene, TableView
from engine.explain import Trail, explain
from engine.players import RandomPlayer

HOTKEYS = (
    # (action, label, shortcuts): OCTGN-style keys; card actions apply to the card under the mouse.
    ("draw", "Draw a card", ("Ctrl+D",)),
    ("kneel", "Kneel / stand the card under the mouse", ("Ctrl+K",)),
    ("stand_all", "Stand all my cards", ("Ctrl+S",)),
    ("power+", "Power +1 on the card under the mouse", ("+", "=")),
    ("power-", "Power \u22121 on the card under the mouse", ("-",)),
    ("kill", "Kill the card under the mouse (dead pile)", ("Shift+Del",)),
    ("discard", "Discard the card under the mouse", ("Del",)),
    ("shuffle", "Shuffle my deck", ("Ctrl+Shift+S",)),
    ("gold+", "Gold +1", ("G",)),
    ("gold-", "Gold \u22121", ("Shift+G",)),
    ("pass", "Pass / Done", ("Ctrl+Return",)),
)


_BANNERS = (
    (re.compile(r"^R\d+ \w+: (\w+) challenge: (.+?) (\d+) STR vs (.+?) (\d+) STR; (.+)$"),
     lambda m: f"{m.group(6)[0].upper()}{m.group(6)[1:]} \u2014 {m.group(1)} challenge, "
               f"{m.group(3)} STR to {m.group(5)}"),
    (re.compile(r"^R\d+ \w+: (.+) declares no defenders$"), lambda m: f"{m.group(1)} declares no defenders"),
    (re.compile(r"^R\d+ \w+: (.+) claims 1 power for an unopposed challenge$"),
     lambda m: f"Unopposed: {m.group(1)} claims 1 power"),
    (re.compile(r"^R\d+ \w+: (.+ wins with \d+ power\.|.+ wins: every other player is eliminated\.)$"),
     lambda m: m.group(1)),
)


def banner_text(line: str) -> str | None:
    """The banner a log line deserves, or None."""
    for pattern, say in _BANNERS:
        m = pattern.match(line)
        if m:
            return say(m)
    return None


class TableWindow(QMainWindow):
    """One game at the table. ``new_game`` replaces it with another."""

    def __init__(self, setup: GameSetup | None = None, *, images: CardImages | None = None,
                 computer_delay_ms: int = 350, game=None):
        super().__init__()
        self.setWindowTitle("Maester \u2014 A Game of Thrones (first edition)")
        self.images = images or CardImages()
        self.computer_delay_ms = computer_delay_ms
        self.setup = setup or GameSetup()
        self.controller: TableController | None = None
        self.scene: TableScene | None = None
        self._hovered = False
        self._build_menus()
        self.start(self.setup, game=game)
        self.resize(1600, 1000)

    # -- building ---------------------------------------------------------------------
    def start(self, setup: GameSetup, game=None, controller: TableController | None = None) -> None:
        """Start (or restart) the table with a new game (``controller``: a tutorial's, app/tutorial.py)."""
        self.setup = setup
        self._log_seen = None
        game = game or setup.build()
        if self.controller is not None:
            self.controller.deleteLater()
        if controller is None and getattr(self, "tutorial_dock", None) is not None:
            self.removeDockWidget(self.tutorial_dock)  # a new game closes the tutorial
            self.tutorial_dock.deleteLater()
            self.tutorial_dock = self.tutorial = None
        if controller is None and game.options.observer is None:
            game.options.observer = Trail()  # "Why?" says who passed in this step (reads only)
        computers = {n: RandomPlayer(seed=i + 1, pass_bias=0.2) for i, n in enumerate(setup.names)
                     if n in setup.computer and n in game.state.player_names}
        self.controller = controller or TableController(game, computers=computers, privacy=setup.privacy,
                                                        computer_delay_ms=self.computer_delay_ms)
        self.controller.setParent(self)
        self.scene = TableScene(self.controller, self.images)
        self.view = TableView(self.scene)
        self.prompt = PromptBar(self.controller, self.face_of, lambda cid: cid in self.scene.cards)
        self.preview = CardPreview()
        self.log = GameLog()
        self.log.set_cards({d.name: d.key for d in game.pool.values()})

        left = QWidget()
        col = QVBoxLayout(left)
        col.setContentsMargins(0, 0, 0, 0)
        col.setSpacing(0)
        col.addWidget(self.view, 1)
        col.addWidget(self.prompt)
        side = QSplitter(Qt.Orientation.Vertical)
        side.addWidget(self.preview)
        side.addWidget(self.log)
        side.setSizes([560, 340])
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(side)
        split.setStretchFactor(0, 1)
        split.setSizes([1280, 320])
        central = QWidget()
        box = QVBoxLayout(central)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(split)
        self.setCentralWidget(central)  # Qt deletes the previous table
        self.privacy = PrivacyScreen(central)

        ctl = self.controller
        ctl.changed.connect(self.refresh)
        ctl.privacy_needed.connect(self.hand_over)
        ctl.browse_requested.connect(self.browse)
        ctl.influence_requested.connect(self.prompt.open_picker)
        self.privacy.taken.connect(ctl.reveal)
        self.scene.card_hovered.connect(self.preview_card)
        self.prompt.card_hovered.connect(self.preview_card)
        self.log.card_hovered.connect(self.preview_key)
        self.advise_action.setChecked(ctl.mode == "advise")
        self.refresh()
        ctl.start()

    def _build_menus(self) -> None:
        game_menu = self.menuBar().addMenu("&Game")
        new = game_menu.addAction("&New game\u2026")
        new.setShortcut(QKeySequence.StandardKey.New)
        new.triggered.connect(self.new_game)
        self.advise_action = game_menu.addAction("&Advise mode (move freely)")
        self.advise_action.setCheckable(True)
        self.advise_action.toggled.connect(
            lambda on: self.controller.set_mode("advise" if on else "enforce")
            if self.controller and self.controller.mode != ("advise" if on else "enforce") else None)
        fit = game_menu.addAction("&Fit table to window")
        fit.setShortcut(QKeySequence("Ctrl+0"))
        fit.triggered.connect(lambda: self.view.reset_zoom())
        game_menu.addSeparator()
        game_menu.addAction("&Quit", QKeySequence.StandardKey.Quit, self.close)
        card_menu = self.menuBar().addMenu("&Cards")
        self.hotkey_actions: dict[str, QAction] = {}
        for action, label, keys in HOTKEYS:
            act = card_menu.addAction(label)
            act.setShortcuts([QKeySequence(k) for k in keys])
            act.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            act.triggered.connect(lambda _=False, a=action: self.controller.hotkey(a, self.scene.hover_id))
            self.hotkey_actions[action] = act
        help_menu = self.menuBar().addMenu("&Help")
        help_menu.addAction("&Table and hotkeys", self.show_help)
        help_menu.addAction("T&utorials\u2026", self.choose_tutorial)
        why = help_menu.addAction("&Why? (explain this step)", self.show_why)
        why.setShortcut(QKeySequence("F1"))
        why_button = QPushButton("Why?")
        why_button.setToolTip("Explain the current step in words (F1)")
        why_button.clicked.connect(self.show_why)
        self.menuBar().setCornerWidget(why_button)

    # -- reacting to the controller ------------------------------------------------------
    def refresh(self) -> None:
        """Redraw everything from the engine state."""
        self._banner_news()
        self.scene.sync()
        self.prompt.refresh()
        self.log.sync(self.controller.game.state.log)
        self._preview_latest()
        if self.controller.hands_hidden and self.controller.waiting_for and not self.privacy.isVisible():
            self.hand_over(self.controller.waiting_for)
        elif not self.controller.hands_hidden and self.privacy.isVisible():
            self.privacy.hide()

    def _banner_news(self) -> None:
        """Challenge results, automatic decisions and the win get a banner over the table, not only
        a log line (the log keeps them all)."""
        log = self.controller.game.state.log
        seen = getattr(self, "_log_seen", None)
        self._log_seen = len(log)
        if seen is None or seen >= len(log):
            return
        found = [text for line in log[seen:] for text in [banner_text(line)] if text]
        if found:
            self.show_banner(" \u2014 ".join(found[-2:]))

    def show_banner(self, text: str, ms: int = 2600) -> None:
        banner = getattr(self, "banner", None)
        if banner is None or banner.parent() is not self.view:
            banner = self.banner = QLabel(self.view)
            banner.setObjectName("banner")
            banner.setAlignment(Qt.AlignmentFlag.AlignCenter)
            banner.setStyleSheet("background: rgba(20, 14, 6, 215); color: #ffe9a8; font-size: 20px; "
                                 "font-weight: bold; padding: 10px 24px; border: 2px solid #d4a017; "
                                 "border-radius: 8px;")
            self._banner_timer = QTimer(self)
            self._banner_timer.setSingleShot(True)
            self._banner_timer.timeout.connect(banner.hide)
        banner.setText(text)
        banner.adjustSize()
        banner.move(max(0, (self.view.width() - banner.width()) // 2), max(0, self.view.height() // 2 - 40))
        banner.show()
        banner.raise_()
        self._banner_timer.start(ms)

    def hand_over(self, name: str) -> None:
        """Hotseat: cover the table until ``name`` takes the seat."""
        d = self.controller.decision
        self.privacy.show_for(name, f"Next: {d.prompt}" if d is not None else "")

    def _preview_latest(self) -> None:
        """Until the player hovers a card, the preview shows the card the log named last."""
        if self._hovered:
            return
        for line in reversed(self.controller.game.state.log[-12:]):
            key = self.log.first_card(line)
            if key is not None:
                self.preview_key(key, by_hover=False)
                return

    def face_of(self, cid: int) -> CardFace:
        return self.scene.face(cid)

    def preview_card(self, cid) -> None:
        if cid is None:
            return
        self._hovered = True
        item = self.scene.cards.get(cid)
        face = item.face if item is not None and item.face is not None else self.scene.face(cid)
        if face.hidden:
            return  # a hidden card stays hidden in the preview too
        c = self.controller.game.card(cid)
        where = f"{c.zone.replace('_', ' ')} of {c.controller}"
        if c.owner != c.controller:
            where += f" (owner {c.owner})"
        self.preview.show_card(face, describe(face, where), self.images.get(face.key, face.name))

    def preview_key(self, key: str, by_hover: bool = True) -> None:
        defn = self.controller.game.pool.get(key)
        if defn is None:
            return
        self._hovered = self._hovered or by_hover
        face = CardFace.of(defn)
        self.preview.show_card(face, describe(face), self.images.get(face.key, face.name))

    def browse(self, player: str, zone: str) -> None:
        g = self.controller.game
        p = g.player(player)
        buttons = []
        for cid in p.pile(zone):
            b = CardButton(cid, self.face_of(cid), g.name(cid), scale=0.9)
            b.hovered.connect(self.preview_card)
            buttons.append(b)
        PileDialog(self, f"{player}: {PILE_LABELS.get(zone, zone)}", buttons).exec()

    def new_game(self) -> None:
        dialog = NewGameDialog(self, self.setup)
        if dialog.exec():
            setup = dialog.setup()
            if not self.accept_decks(setup):
                return
            try:
                game = setup.build()
            except Exception as err:  # a bad deck file: say which and why, keep the current game
                QMessageBox.warning(self, "New game", f"The game could not start:\n{err}")
                return
            self.start(setup, game=game)

    def accept_decks(self, setup: GameSetup) -> bool:
        """An illegal deck: its problems are shown before the game starts. Enforce mode will not
        start it; advise mode offers "Play anyway (casual)"."""
        problems = setup.deck_problems()
        if not problems:
            return True
        text = "These decks break deck-building rules:\n\n" + "\n".join(problems[:20]) + \
            (f"\n… and {len(problems) - 20} more" if len(problems) > 20 else "")
        box = QMessageBox(self)
        box.setWindowTitle("Illegal deck")
        box.setIcon(QMessageBox.Icon.Warning)
        if setup.mode != "advise":
            box.setText(text + "\n\nFix the deck, or choose advise mode to play it anyway.")
            box.addButton(QMessageBox.StandardButton.Ok)
            box.exec()
            return False
        box.setText(text)
        anyway = box.addButton("Play anyway (casual)", QMessageBox.ButtonRole.AcceptRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.exec()
        return box.clickedButton() is anyway

    def show_help(self) -> None:
        keys = "".join(f"<tr><td><b>{', '.join(k)}</b></td><td>{label}</td></tr>" for _, label, k in HOTKEYS)
        QMessageBox.information(self, "The table", (
            "<p><b>Drag</b> a card from your hand onto your rows to marshal it, onto a character to attach it "
            "(or onto its copy for a duplicate). <b>Click</b> cards to pick attackers, defenders and choices, "
            "then use the buttons under the table. <b>Double-click</b> a card in hand to marshal it, "
            "a card in play to kneel or stand it (advise mode). <b>Right-click</b> for more.</p>"
            f"<table>{keys}</table><p>docs/table.md has the whole guide.</p>"))

    def why_text(self) -> str:
        """The explainer's words for the current moment (engine/explain.py)."""
        ctl = self.controller
        if getattr(ctl, "view", None) is not None:  # a tutorial: the frame on show
            return ctl.view.explanation
        trail = ctl.game.options.observer if isinstance(ctl.game.options.observer, Trail) else None
        return explain(ctl.game, decision=ctl.decision, event=trail.event if trail else None,
                       passed=trail.passed if trail else ())

    def show_why(self) -> None:
        box = getattr(self, "_why_box", None)
        if box is None:
            box = self._why_box = QMessageBox(self)
            box.setWindowTitle("Why?")
            box.setModal(False)
        box.setText(self.why_text())
        box.show()

    def choose_tutorial(self) -> None:
        from app.tutorial import LessonsDialog, open_tutorial

        dialog = LessonsDialog(self)
        if dialog.exec() and dialog.chosen:
            try:
                open_tutorial(self, dialog.chosen)
            except Exception as err:  # a broken scenario file: say why, keep the table
                QMessageBox.warning(self, "Tutorial", f"The tutorial could not open:\n{err}")

    def grab_table(self, path: str) -> bool:
        """Save a PNG of the window as a player sees it."""
        self.images.wait()
        QApplication.processEvents()
        return self.grab().save(path)
