"""The main window: the table, the prompt bar, the card preview and the log, and the menus.

Everything it shows of a card goes through the controller's ``may_see`` (``engine.visibility``): the
preview, the pile viewers, the log's links. When the seat changes (the privacy screen goes up, or the
next player takes the seat) the preview, the picks, open menus and pile viewers are cleared.
"""
from __future__ import annotations

import random
import re
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import (QApplication, QFileDialog, QLabel, QMainWindow, QMenu, QMessageBox, QPushButton, QSplitter,
                               QVBoxLayout, QWidget)

from app import session as saves

from app.card_item import CardFace, CardImages
from app.controller import PROMPTING, TableController
from app.dialogs import PRACTICE, GameSetup, NewGameDialog, PileDialog
from app.gameover import GameOverDialog
from app.preview import CardPreview, GameLog, describe
from app.privacy import PrivacyScreen
from app.prompt import CardButton, PromptBar
from app.table import PILE_LABELS, TableScene, TableView
from cards.errors import printable
from engine.ai import make_player
from engine.ai.goldfish import RoundTracker, goldfish_seats
from engine.explain import Trail, explain
from engine.wording import for_players

HOTKEYS = (
    # (action, label, shortcuts): OCTGN-style keys; card actions apply to the card under the mouse.
    ("draw", "Draw a card", ("Ctrl+D",)),
    ("kneel", "Kneel / stand the card under the mouse", ("Ctrl+K",)),
    ("stand_all", "Stand all my cards", ("Ctrl+Shift+K",)),
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
    (re.compile(r"^R\d+ \w+: (\w+) challenge: (.+? \d+ STR vs .+? \d+ STR); (.+)$"),
     lambda m: f"{m.group(3)[0].upper()}{m.group(3)[1:]} \u2014 {m.group(1)} challenge: {m.group(2)}"),
    (re.compile(r"^R\d+ \w+: (.+) declares no defenders$"), lambda m: f"{m.group(1)} declares no defenders"),
    (re.compile(r"^R\d+ \w+: (.+) claims 1 power for an unopposed challenge$"),
     lambda m: f"Unopposed: {m.group(1)} claims 1 power"),
    (re.compile(r"^R\d+ \w+: (.+ wins with \d+ power\.|.+ wins: every other player is eliminated\.)$"),
     lambda m: m.group(1)),
)


def goldfish_rounds(game) -> RoundTracker | None:
    """The round tracker of a goldfish game (one seat with no cards against one player), else None."""
    fish = goldfish_seats(game)
    players = [n for n in game.state.player_names if n not in fish]
    if not fish or len(players) != 1:
        return None
    tracker = RoundTracker(players[0])
    if game.history:
        tracker.rebuild(game)  # undo, Open, recovery: the rounds already played
    return tracker


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
                 computer_delay_ms: int = 350, game=None, autosave: str | Path | None = None,
                 info: saves.TableInfo | None = None):
        """``autosave``: the file written after every answer (``app/session.py``); None: no autosave.
        ``info``: the table's record of a game opened from a save (``game`` is then that game)."""
        super().__init__()
        self.setWindowTitle("Maester \u2014 A Game of Thrones (first edition)")
        self.images = images or CardImages()
        self.computer_delay_ms = computer_delay_ms
        self.setup = setup or GameSetup()
        self.autosave = Path(autosave) if autosave is not None else None
        self.controller: TableController | None = None
        self.scene: TableScene | None = None
        self.session: saves.Session | None = None
        self.game_over_dialog: GameOverDialog | None = None
        self.rounds = None  # a goldfish game's round summaries (engine.ai.goldfish.RoundTracker)
        self.ask = self._ask
        """``ask(title, question) -> bool``: a yes/no question (tests replace it)."""
        self._hovered = False
        self.pile_dialog: PileDialog | None = None
        self.online = None  # the online game on the table (app/online.py), or None
        self.pending_online = None  # an online game connecting, before its table shows
        self._build_menus()
        hidden = info is not None  # an opened game: the next player takes the seat first
        self.start(self.setup, game=game, info=info, viewer=info.viewer if info else None, hidden=hidden)
        self.resize(1600, 1000)

    # -- building ---------------------------------------------------------------------
    def start(self, setup: GameSetup, game=None, controller: TableController | None = None, *,
              info: saves.TableInfo | None = None, viewer: str | None = None, hidden: bool = False) -> None:
        """Start (or restart) the table with a new game; with ``info``, a game rebuilt or opened
        (undo, Open, recovery), ``viewer`` having the screen unless ``hidden``; ``controller``: a
        tutorial's (app/tutorial.py), which is never autosaved."""
        self.setup = setup
        self._log_seen = None
        game = game or setup.build()
        if self.online is not None and controller is not self.online.controller:
            self.leave_online()  # another game takes the table: the online one stays on its server
        if self.controller is not None:
            old = self.controller
            old.computers = {}  # a computer answer still timed for the old game is not given
            old.blockSignals(True)  # nor autosaved over the new one
            old.deleteLater()
        if self.scene is not None:
            self.scene.release()  # the image loader is the window's: it must not keep the old table
        if getattr(self, "banner", None) is not None:  # it lived on the old table's view, deleted with it
            self._banner_timer.stop()
            self._banner_timer.deleteLater()
            self.banner = None
        self._drop_game_over()
        if controller is None and getattr(self, "tutorial_dock", None) is not None:
            self.removeDockWidget(self.tutorial_dock)  # a new game closes the tutorial
            self.tutorial_dock.deleteLater()
            self.tutorial_dock = self.tutorial = None
        if controller is None and game.options.observer is None:
            game.options.observer = Trail()  # "Why?" says who passed in this step (reads only)
        self.session = saves.Session(info or saves.TableInfo.of(setup, game),
                                     self.autosave if controller is None else None, new_game=info is None)
        computer = self.session.info.computer
        levels = self.session.info.levels
        computers = {n: make_player(levels.get(n, "heuristic"), seed=i + 1, explain=self._explain)
                     for i, n in enumerate(game.state.player_names) if n in computer}
        self.controller = controller or TableController(game, computers=computers,
                                                        privacy=self.session.info.privacy,
                                                        computer_delay_ms=self.computer_delay_ms,
                                                        prompting=self.session.info.prompting, parent=self)
        self.controller.setParent(self)
        if controller is None:  # Pass for the rest of this phase, as the game kept it (undo, recovery)
            for name, (rnd, serial, at) in self.session.info.phase_pass.items():
                self.controller.phase_pass[name] = (rnd, serial)
                self.controller.phase_pass_at[name] = at
        self.controller.seat_for(viewer, hidden)
        self._over_seen = saves.is_over(game)  # a finished game opened: its dialog is shown once below
        self.rounds = goldfish_rounds(game)
        self.scene = TableScene(self.controller, self.images)
        self.view = TableView(self.scene)
        self.prompt = PromptBar(self.controller, self.face_of, lambda cid: cid in self.scene.cards)
        self.prompt.float_strip(self.view)
        self.preview = CardPreview()
        self.log = GameLog()
        # A name in the log links (previews) only a card every seat has seen: the log stays on the screen
        # from one seat to the next.
        self.log.set_cards({d.name: d.key for d in game.pool.values()},
                           linkable=lambda key: key in self.controller.public_keys, players=game.state.player_names)

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
        self.split = split
        central = QWidget()
        box = QVBoxLayout(central)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(split)
        self.setCentralWidget(central)  # Qt deletes the previous table
        self.privacy = PrivacyScreen(central)

        ctl = self.controller
        ctl.progressed.connect(self._autosave)
        ctl.changed.connect(self.refresh)
        ctl.privacy_needed.connect(self.hand_over)
        ctl.browse_requested.connect(self.browse)
        ctl.influence_requested.connect(self.prompt.open_picker)
        ctl.ask_gold_tokens = lambda cost, from_tokens: self.ask(
            "Pay gold", f"Pay {cost} gold: spend {from_tokens} of it from the gold on your cards first? "
                        f"(No: your gold pool pays first.)")
        ctl.ask_penalty = lambda title, gold: self.ask(
            "Gold penalty", f"Marshal {title} paying the optional gold penalty ({gold} more gold)? "
                            f"(No: pay its cost only.)")
        ctl.seat_changed.connect(self.forget_seat)
        self.privacy.taken.connect(ctl.reveal)
        self.scene.card_hovered.connect(self.preview_card)
        self.prompt.card_hovered.connect(self.preview_card)
        self.log.card_hovered.connect(self.preview_key)
        self.advise_action.setChecked(ctl.mode == "advise")
        self._build_prompting_menu()
        self.refresh()
        ctl.start()
        if self._over_seen and info is not None:
            self.show_game_over()

    def _build_menus(self) -> None:
        game_menu = self.menuBar().addMenu("&Game")
        new = game_menu.addAction("&New game\u2026")
        new.setShortcut(QKeySequence.StandardKey.New)
        new.triggered.connect(self.new_game)
        game_menu.addAction("&Open\u2026", QKeySequence.StandardKey.Open, self.open_game)
        game_menu.addAction("&Save\u2026", QKeySequence.StandardKey.Save, self.save_game)
        game_menu.addSeparator()
        game_menu.addAction("&Host online game\u2026", self.host_online)  # app/online_dialogs.py
        game_menu.addAction("&Join online game\u2026", self.join_online)
        game_menu.addAction("&My online games\u2026", self.my_online_games)
        game_menu.addSeparator()
        self.undo_action = game_menu.addAction("&Undo the last answer", QKeySequence.StandardKey.Undo, self.undo)
        game_menu.addAction("&Concede\u2026", self.concede)
        game_menu.addSeparator()
        self.advise_action = game_menu.addAction("&Advise mode (move freely)")
        self.advise_action.setCheckable(True)
        self.advise_action.toggled.connect(self._mode_toggled)
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
        deck_menu = self.menuBar().addMenu("&Decks")  # app/deck_editor.py, app/browser.py
        deck_menu.addAction("&Deck editor\u2026", self.open_deck_editor)
        deck_menu.addAction("Card &browser\u2026", self.open_card_browser)
        help_menu = self.menuBar().addMenu("&Help")
        help_menu.addAction("&Table and hotkeys", self.show_help)
        help_menu.addAction("T&utorials\u2026", self.choose_tutorial)
        why = help_menu.addAction("&Why? (explain this step)", self.show_why)
        why.setShortcut(QKeySequence("F1"))
        why_button = QPushButton("Why?")
        why_button.setToolTip("Explain the current step in words (F1)")
        why_button.clicked.connect(self.show_why)
        self.menuBar().setCornerWidget(why_button)

    def _mode_toggled(self, on: bool) -> None:
        mode = "advise" if on else "enforce"
        if self.controller and self.controller.mode != mode:
            self.controller.set_mode(mode)
            self.session.note_mode(self.controller.game)
            self._autosave()

    def _build_prompting_menu(self) -> None:
        """Game > Stop for…: per person, when the table stops for him (``PROMPTING``)."""
        menu = self.prompting_menu
        for sub in menu.findChildren(QMenu, options=Qt.FindChildOption.FindDirectChildrenOnly):
            sub.deleteLater()  # clear() drops the entries, not the submenus: one set per game otherwise
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
                act.triggered.connect(lambda _=False, n=name, k=key: self._set_prompting(n, k))
                self.prompting_actions[(name, key)] = act
        menu.setEnabled(bool(ctl.humans))

    # -- reacting to the controller ------------------------------------------------------
    def refresh(self) -> None:
        """Redraw everything from the engine state."""
        self._banner_news()
        self._round_news()
        if self.controller.result is not None and not self._over_seen:
            self._over_seen = True
            self.show_game_over()
        elif self.controller.result is None:
            self._over_seen = False
        self.scene.sync()
        self.prompt.refresh()
        self.log.sync(self.controller.game.state.log)
        self._preview_follows()
        self._preview_latest()
        # isHidden, not isVisible: before the window is shown (autoplay, then a screenshot) every child
        # reads as not visible, and a privacy screen left up would show stale once the window appears
        if self.controller.hands_hidden and self.controller.waiting_for and self.privacy.isHidden():
            self.hand_over(self.controller.waiting_for)
        elif not self.controller.hands_hidden and not self.privacy.isHidden():
            self.privacy.hide()

    def _explain(self, name: str, text: str) -> None:
        """A computer seat says why it answered as it did: one line in the log, in italics (not part of the
        game's own log, so saves and replays are unchanged). Off with ``explain_computer = False``."""
        log = getattr(self, "log", None)
        if log is None or not getattr(self, "explain_computer", True):
            return
        import html as _html
        log.append(f"<i style='color:#4a5a7a'>&#8594; {_html.escape(text, quote=False)}</i>")

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        """The card preview and log take about a fifth of the width (240 to 380 px): a small
        window gives the table the room."""
        super().resizeEvent(event)
        split = getattr(self, "split", None)
        if split is not None and split.count() == 2:
            side = max(240, min(380, round(self.width() * 0.2)))
            split.setSizes([max(200, self.width() - side), side])
        banner = getattr(self, "banner", None)
        if banner is not None and not banner.isHidden() and banner.parent() is self.view:
            QTimer.singleShot(0, self._centre_banner)  # once the view has its new size

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
            self.show_banner(found[-1])

    def _round_news(self) -> None:
        """A goldfish game: each round's summary (gold, cards played, power) gets a banner when the
        next round begins; the game-over dialog lists them all."""
        if self.rounds is None or self.controller.result is not None:
            return  # the last round is closed by show_game_over
        done = self.rounds.observe(self.controller.game)
        if done:
            self.show_banner(f"Round {done[-1].round}: {done[-1].short()}", ms=4500)

    def _centre_banner(self) -> None:
        banner = getattr(self, "banner", None)
        if banner is not None and banner.parent() is self.view:
            banner.move(max(0, (self.view.width() - banner.width()) // 2), max(0, self.view.height() // 2 - 40))

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
        banner.setText(for_players(printable(text), self.controller.game.state.player_names))
        banner.adjustSize()
        self._centre_banner()
        banner.show()
        banner.raise_()
        self._banner_timer.start(ms)

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

    def _preview_follows(self) -> None:
        """The preview follows the state: the card it shows is drawn again with its current place and
        values (returned to hand, given an icon...), or cleared once the seat may no longer see it."""
        cid = self.preview.card_id
        if cid is None:
            return
        if cid not in self.controller.game.state.cards or not self.controller.may_see(cid):
            self.preview.clear()
            return
        hovered = self._hovered
        self.preview_card(cid)
        self._hovered = hovered

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

    def new_game(self, setup: GameSetup | None = None) -> None:
        """Game ▸ New game…: the New Game dialog, filled in with ``setup`` (else the current game's)."""
        if not self.may_discard("New game"):
            return
        dialog = NewGameDialog(self, setup if isinstance(setup, GameSetup) else self.setup)
        self.new_game_dialog = dialog  # tests answer it
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

    def open_deck_editor(self):
        """Decks ▸ Deck editor…: one editor window; its "Play this deck" starts a game here."""
        from app.deck_editor import DeckEditor

        if getattr(self, "deck_editor", None) is None:
            self.deck_editor = DeckEditor(self)
            self.deck_editor.play.connect(self.play_deck)
        self.deck_editor.show()
        self.deck_editor.raise_()
        return self.deck_editor

    def open_card_browser(self):
        from app.browser import BrowserWindow

        if getattr(self, "card_browser", None) is None:
            self.card_browser = BrowserWindow(self)
        self.card_browser.show()
        self.card_browser.raise_()
        return self.card_browser

    def play_deck(self, path: str, opponent: str = "computer") -> None:
        """The deck editor's "Play this deck": the New Game dialog with the deck in seat 1 against
        the computer (the practice Lannister deck, normal level) or a goldfish (a seat with no cards)."""
        other = "Goldfish" if opponent == "goldfish" else "Computer"
        setup = GameSetup(names=["You", other], decks=[path, "goldfish" if opponent == "goldfish" else PRACTICE[1]],
                          computer=[other], levels={other: "random" if opponent == "goldfish" else "heuristic"},
                          ruleset=self.setup.ruleset, mode=self.setup.mode, era=self.setup.era)
        self.raise_()
        self.new_game(setup)

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
        if self.online is not None:
            return "Online, the server holds the game; the table shows what your seat may see."
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
        box.setText(printable(self.why_text(), keep="\n"))
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

    # -- never lose a game: undo, saves, the autosave, concede, game over (app/session.py) -------
    def _ask(self, title: str, question: str) -> bool:
        answer = QMessageBox.question(self, title, question,
                                      QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                                      QMessageBox.StandardButton.No)
        return answer == QMessageBox.StandardButton.Yes

    def _set_prompting(self, name: str, policy: str) -> None:
        self.controller.set_prompting(name, policy)
        self._autosave()  # the setting is part of the game's record (recovery keeps it)

    def _note_settings(self) -> None:
        """Copy the players' table settings (*Stop for…*, *Pass for the rest of this phase*) into the
        game's record, so undo, saves and the autosave keep them."""
        ctl = self.controller
        if self.session is None or ctl is None:
            return
        self.session.info.prompting = dict(ctl.prompting)
        self.session.info.phase_pass = {n: [*p, ctl.phase_pass_at.get(n, 0)] for n, p in ctl.phase_pass.items()}

    def _autosave(self) -> None:
        self._note_settings()
        if self.session is not None and self.session.checkpoint(self.controller.game, self.controller.viewer):
            return
        if self.session is not None and self.session.error:
            self.controller.say(self.session.error, "warning")

    def may_discard(self, what: str) -> bool:
        """Before the current game is thrown away: ask, unless it is over or has no answer yet."""
        game = self.controller.game
        if saves.is_over(game) or not game.history or self.online is not None:
            return True  # an online game is kept by its server (My online games resumes it)
        kept = " It stays in the autosave until the new game's first answer." if self.autosave else ""
        return self.ask(what, f"Throw away the current game (round {game.state.round}, "
                              f"{len(game.history)} answers)?{kept}")

    def undo(self) -> bool:
        """Undo the last answer of a person at this screen (and the computer answers after it):
        the game is rebuilt from its start and its earlier answers. Another person's answer is
        taken back only if he accepts (hotseat, ``_others_accept_undo``). Into another player's
        decision, the privacy screen asks for that player."""
        ctl = self.controller
        if self.online is not None:
            return ctl.request_undo()  # online: a request the other players accept
        game = ctl.game
        auto = set(ctl.auto_at)
        keep = saves.undo_point(game.history, ctl.humans, auto)
        if keep is None:
            ctl.say("Nothing to undo.", "info")
            return False
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        self._note_settings()
        held = ctl.phase_pass
        try:
            while True:
                info = self.session.info.cut(keep)
                again = saves.rebuild(game, info, keep)
                d = again.pending
                # back to a question the table would pass again for its player (his prompting setting;
                # a save opened since keeps no record of those passes): go further back
                ctl.phase_pass = {n: (p[0], p[1]) for n, p in info.phase_pass.items()}  # as kept by the undo
                if d is None or not ctl.skips(d, again):
                    break
                auto.add(keep)
                earlier = saves.undo_point(game.history[:keep], ctl.humans, auto)
                if earlier is None:
                    break
                keep = earlier
        except Exception as err:  # should never happen: the same answers, the same seed
            ctl.say(f"Undo failed: {err}", "refused")
            return False
        finally:
            ctl.phase_pass = held
            QApplication.restoreOverrideCursor()
        if not self._others_accept_undo(game.history, keep, auto):
            return False
        self.start(self.setup, game=again, info=info, viewer=ctl.viewer, hidden=ctl.hands_hidden)
        self.controller.auto_at = {i for i in auto if i < keep}
        d = self.controller.decision
        if d is not None:
            self.controller.say(f"Undone \u2014 back to {d.player}: {d.prompt}.", "info")
            self.prompt.refresh()
        return True

    def _others_accept_undo(self, history: list, keep: int, auto: set[int]) -> bool:
        """Hotseat with the privacy screen: an undo that takes back another person's answer asks that
        person first. The one who pressed it is the last to take the seat (while the screen is covered for
        the next player, still the one who had it). Without the privacy screen no seat is taken: the
        players share the open table and nobody is asked. True when everyone asked accepts."""
        ctl = self.controller
        if not ctl.privacy or len(ctl.humans) < 2:
            return True
        presser = ctl.viewer
        owners = []
        for i in range(keep, len(history)):
            name = history[i][0]
            if name in ctl.humans and i not in auto and name != presser and name not in owners:
                owners.append(name)
        for name in owners:
            if not self.ask("Undo", f"{presser} asks to take back {name}'s answer. {name}, do you accept?"):
                ctl.say(f"Not undone: {name} keeps the answer.", "info")
                self.prompt.refresh()
                return False
        return True

    def save_game(self) -> None:
        if self.online is not None:
            self.controller.say("An online game is kept by its server after every answer; Game \u25b8 My online "
                                "games resumes it.", "info")
            return
        path, _ = QFileDialog.getSaveFileName(self, "Save the game", str(Path.home() / "game.maester.json"),
                                              "Maester saves (*.json);;All files (*)")
        if path:
            self.save_to(path)

    def save_to(self, path: str | Path) -> bool:
        """Save the game (all its answers: a save of a finished game is its replay)."""
        self.session.info.viewer = self.controller.viewer
        self._note_settings()
        try:
            seconds = saves.write_save(path, self.controller.game, self.session.info, indent=1)
        except OSError as err:
            self.controller.say(f"{path}: could not save ({err.strerror or err}); choose another folder", "refused")
            return False
        self.controller.say(f"Saved to {path} ({seconds * 1000:.0f} ms).", "info")
        self.prompt.refresh()
        return True

    def open_game(self) -> None:
        if not self.may_discard("Open a game"):
            return
        start = str(self.autosave.parent if self.autosave else Path.home())
        path, _ = QFileDialog.getOpenFileName(self, "Open a game", start, "Maester saves (*.json);;All files (*)")
        if path:
            self.open_path(path)

    def open_path(self, path: str | Path) -> str | None:
        """Open a save; returns the one-line reason when it cannot be opened (also shown)."""
        from cards.errors import DataError

        try:
            loaded = saves.read_save(path, self._pool_for_saves())
        except DataError as err:
            self.controller.say(str(err), "refused")
            self.prompt.refresh()
            return str(err)
        self.resume(loaded)
        return None

    def _pool_for_saves(self):
        from cards.pool import default_pool

        try:
            return default_pool()
        except Exception:  # a damaged import cache: the practice cards and this game's still load
            from cards.pool import practice_pool

            return practice_pool()

    def resume(self, loaded: saves.Loaded) -> None:
        """Put an opened game on the table (the next player takes the seat first)."""
        info = loaded.info
        setup = info.setup(seed=loaded.game.state.seed)
        self.start(setup, game=loaded.game, info=info, viewer=info.viewer, hidden=True)
        if loaded.warning:
            self.controller.say(loaded.warning, "warning")
            self.prompt.refresh()

    def concede(self) -> bool:
        ctl = self.controller
        if ctl.result is not None:
            ctl.say("The game is over.", "info")
            return False
        if ctl.hands_hidden:
            ctl.say(f"Pass the screen to {ctl.waiting_for} first: the table is hidden.", "refused")
            return False
        others = [p.name for p in ctl.game.state.players if not p.eliminated and p.name != ctl.viewer]
        outcome = f"{others[0]} wins." if len(others) == 1 else \
            f"{ctl.viewer} leaves the game; {', '.join(others)} play on."
        if not self.ask("Concede", for_players(f"{ctl.viewer} concedes? {outcome}", ctl.game.state.player_names)):
            return False
        return ctl.concede()

    def closeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        """Closing the table closes its game-over dialog too (a dialog is a window of its own)."""
        self._drop_game_over()
        self.leave_online()
        if self.pending_online is not None:
            self.pending_online.close()
            self.pending_online = None
        super().closeEvent(event)

    def _drop_game_over(self) -> None:
        """Close the last game's dialog and delete it: closing only hides a dialog, and its widgets (a
        backing store while it was shown) would stay with the window, one dialog per finished game."""
        dialog, self.game_over_dialog = self.game_over_dialog, None
        if dialog is not None:
            dialog.close()
            dialog.deleteLater()

    def show_game_over(self) -> GameOverDialog:
        self._drop_game_over()
        if self.rounds is not None:
            self.rounds.finish(self.controller.game)
        dialog = GameOverDialog(self, self.controller.game,
                                rounds=self.rounds.rounds if self.rounds is not None else None)
        dialog.rematch.connect(self.rematch)
        dialog.save_replay.connect(self.save_game)
        self.game_over_dialog = dialog
        dialog.show()
        return dialog

    def rematch(self) -> None:
        """The same decks and seats, shuffled again: a new seed (a scenario starts at its position again)."""
        if self.online is not None:
            self.controller.say("Online, a rematch is a new game: Game \u25b8 Host online game\u2026", "info")
            return
        game = self.controller.game
        info = self.session.info
        fresh = saves.TableInfo(**{**info.__dict__, "modes": [[0, info.modes[0][1]]], "viewer": None,
                                   "phase_pass": {}})
        spec = dict(game.setup_spec)
        seed = None
        if "decks" in spec:
            seed = random.randrange(1 << 30)
            spec["seed"] = seed
        try:
            again = saves.fresh_game(spec, fresh, game.pool)
        except Exception as err:
            self.controller.say(f"The rematch could not start: {err}", "refused")
            return
        self.start(fresh.setup(seed=seed), game=again, info=fresh)

    # -- online play (app/online.py, app/online_dialogs.py) ----------------------------------------
    def host_online(self):
        from app.online_dialogs import host_online

        return host_online(self)

    def join_online(self, target: str | None = None, server: str | None = None):
        from app.online_dialogs import join_online

        return join_online(self, target, server)

    def my_online_games(self):
        from app.online_dialogs import my_games

        return my_games(self)

    def online_label(self):
        from app.online import status_label

        return status_label(self)

    def online_started(self, game) -> None:
        """An online game's first view is on the table (``app.online.OnlineGame``)."""
        from app.online_dialogs import online_menus

        if self.pending_online is game:
            self.pending_online = None
        self.online = game
        online_menus(self)

    def online_undo_asked(self, text: str) -> None:
        from app.online_dialogs import undo_asked

        undo_asked(self, text)

    def leave_online(self) -> None:
        online, self.online = self.online, None
        if online is not None:
            online.close()
            label = getattr(self, "_online_label", None)
            if label is not None:
                label.setText("")
            self.statusBar().hide()
            menu = getattr(self, "online_menu", None)
            if menu is not None:
                menu.menuAction().setVisible(False)
            self.advise_action.setEnabled(True)
