"""The main window: the table, the prompt bar, the card preview and the log, and the menus.

Everything it shows of a card goes through the controller's ``may_see`` (``engine.visibility``): the
preview, the pile viewers, the log's links. When the seat changes (the privacy screen goes up, or the
next player takes the seat) the preview, the picks, open menus and pile viewers are cleared.
"""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QApplication, QMainWindow, QMessageBox, QSplitter, QVBoxLayout, QWidget

from app.card_item import CardFace, CardImages
from app.controller import PROMPTING, TableController
from app.dialogs import GameSetup, NewGameDialog, PileDialog
from app.preview import CardPreview, GameLog, describe
from app.privacy import PrivacyScreen
from app.prompt import CardButton, PromptBar
from app.table import PILE_LABELS, TableScene, TableView
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
        self.pile_dialog: PileDialog | None = None
        self._build_menus()
        self.start(self.setup, game=game)
        self.resize(1600, 1000)

    # -- building ---------------------------------------------------------------------
    def start(self, setup: GameSetup, game=None) -> None:
        """Start (or restart) the table with a new game."""
        self.setup = setup
        game = game or setup.build()
        if self.controller is not None:
            self.controller.deleteLater()
        computers = {n: RandomPlayer(seed=i + 1, pass_bias=0.2) for i, n in enumerate(setup.names)
                     if n in setup.computer and n in game.state.player_names}
        self.controller = TableController(game, computers=computers, privacy=setup.privacy,
                                          computer_delay_ms=self.computer_delay_ms, prompting=setup.prompting,
                                          parent=self)
        self.scene = TableScene(self.controller, self.images)
        self.view = TableView(self.scene)
        self.prompt = PromptBar(self.controller, self.face_of, lambda cid: cid in self.scene.cards)
        self.preview = CardPreview()
        self.log = GameLog()
        # A name in the log links (previews) only a card every seat has seen: the log stays on the screen
        # from one seat to the next.
        self.log.set_cards({d.name: d.key for d in game.pool.values()},
                           linkable=lambda key: key in self.controller.public_keys)

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
        ctl.seat_changed.connect(self.forget_seat)
        self.privacy.taken.connect(ctl.reveal)
        self.scene.card_hovered.connect(self.preview_card)
        self.prompt.card_hovered.connect(self.preview_card)
        self.log.card_hovered.connect(self.preview_key)
        self.advise_action.setChecked(ctl.mode == "advise")
        self._build_prompting_menu()
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
        self.prompting_menu = game_menu.addMenu("&Stop for\u2026")
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

    def _build_prompting_menu(self) -> None:
        """Game > Stop for…: per person, when the table stops for him (``PROMPTING``)."""
        menu = self.prompting_menu
        menu.clear()
        self.prompting_actions: dict[tuple[str, str], QAction] = {}
        ctl = self.controller
        for name in ctl.humans:
            sub = menu.addMenu(name)
            group = QActionGroup(sub)
            for key, label in PROMPTING.items():
                act = sub.addAction(label)
                act.setCheckable(True)
                act.setChecked(ctl.prompting_of(name) == key)
                act.setActionGroup(group)
                act.triggered.connect(lambda _=False, n=name, k=key: self.controller.set_prompting(n, k))
                self.prompting_actions[(name, key)] = act
        menu.setEnabled(bool(ctl.humans))

    # -- reacting to the controller ------------------------------------------------------
    def refresh(self) -> None:
        """Redraw everything from the engine state."""
        self.scene.sync()
        self.prompt.refresh()
        self.log.sync(self.controller.game.state.log)
        self._preview_latest()
        if self.controller.hands_hidden and self.controller.waiting_for and not self.privacy.isVisible():
            self.hand_over(self.controller.waiting_for)
        elif not self.controller.hands_hidden and self.privacy.isVisible():
            self.privacy.hide()

    def forget_seat(self) -> None:
        """The seat changed: nothing the last seat saw stays on the screen (preview, menus, pile viewers;
        the controller clears the picks and the message, the prompt bar is rebuilt on ``changed``)."""
        self._hovered = False
        self.preview.clear()
        self.scene.forget_seat()
        if self.pile_dialog is not None:
            self.pile_dialog.reject()
        popup = QApplication.activePopupWidget()
        if popup is not None:
            popup.close()

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
        if cid is None or not self.controller.may_see(cid):
            return  # a hidden card stays hidden in the preview too
        item = self.scene.cards.get(cid)
        face = item.face if item is not None and item.face is not None else self.scene.face(cid)
        if face.hidden:
            return
        self._hovered = True
        c = self.controller.game.card(cid)
        where = f"{c.zone.replace('_', ' ')} of {c.controller}"
        if c.owner != c.controller:
            where += f" (owner {c.owner})"
        self.preview.show_card(face, describe(face, where), self.images.get(face.key, face.name), card_id=cid)

    def preview_key(self, key: str, by_hover: bool = True) -> None:
        defn = self.controller.game.pool.get(key)
        if defn is None or not self.controller.key_visible(key):
            return
        self._hovered = self._hovered or by_hover
        face = CardFace.of(defn)
        self.preview.show_card(face, describe(face), self.images.get(face.key, face.name))

    def browse(self, player: str, zone: str) -> None:
        g = self.controller.game
        p = g.player(player)
        buttons = []
        if not self.controller.may_look(player, zone):
            return
        for cid in p.pile(zone):
            b = CardButton(cid, self.face_of(cid), self.controller.title(cid), scale=0.9)
            b.hovered.connect(self.preview_card)
            buttons.append(b)
        self.pile_dialog = PileDialog(self, f"{player}: {PILE_LABELS.get(zone, zone)}", buttons)
        try:
            self.pile_dialog.exec()
        finally:
            self.pile_dialog = None

    def new_game(self) -> None:
        dialog = NewGameDialog(self, self.setup)
        if dialog.exec():
            setup = dialog.setup()
            try:
                game = setup.build()
            except Exception as err:  # a bad deck file: say which and why, keep the current game
                QMessageBox.warning(self, "New game", f"The game could not start:\n{err}")
                return
            self.start(setup, game=game)

    def show_help(self) -> None:
        keys = "".join(f"<tr><td><b>{', '.join(k)}</b></td><td>{label}</td></tr>" for _, label, k in HOTKEYS)
        QMessageBox.information(self, "The table", (
            "<p><b>Drag</b> a card from your hand onto your rows to marshal it, onto a character to attach it "
            "(or onto its copy for a duplicate). <b>Click</b> cards to pick attackers, defenders and choices, "
            "then use the buttons under the table. <b>Double-click</b> a card in hand to marshal it, "
            "a card in play to kneel or stand it (advise mode). <b>Right-click</b> for more.</p>"
            f"<table>{keys}</table><p>docs/table.md has the whole guide.</p>"))

    def grab_table(self, path: str) -> bool:
        """Save a PNG of the window as a player sees it."""
        self.images.wait()
        QApplication.processEvents()
        return self.grab().save(path)
