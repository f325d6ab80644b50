"""The online dialogs: Host online game…, Join online game…, My online games…, and the online menus.

Each dialog only gathers what the player wants; ``app.online.OnlineGame`` connects (in its worker thread)
and puts the game on the table when its first view arrives. Nothing here waits on the network.
"""
from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QActionGroup
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFileDialog, QFormLayout,
                               QGridLayout, QHBoxLayout, QLabel, QLineEdit, QMenu, QMessageBox, QPushButton, QSpinBox,
                               QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from app.dialogs import DEFAULT_NAMES
from app.online import (DEFAULT_SERVER, STOPS, NetWorker, OnlineGame, SeatBook, invite_link, normal_server,
                        parse_target)

WHO = (("you", "You"), ("person", "A friend (invite code)"), ("random", "Computer (random)"),
       ("heuristic", "Computer (normal)"), ("strong", "Computer (strong)"))
DECKS = (("practice:stark", "Practice: House Stark"), ("practice:lannister", "Practice: House Lannister"))
MAX_DECK = 20_000


def read_deck_text(path: str) -> str:
    """A deck file's text to send to the server (which reads and checks it); ``ValueError`` in one line."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise ValueError(f"{path}: cannot read the deck ({err})") from None
    if len(text) > MAX_DECK:
        raise ValueError(f"{path}: a deck list is at most {MAX_DECK} characters (this one has {len(text)})")
    if not text.strip():
        raise ValueError(f"{path}: the deck file is empty")
    return text


class DeckChoice(QWidget):
    """The practice decks, or a deck file (its text is sent); ``none`` adds "the host's choice"."""

    def __init__(self, index: int = 0, none: str | None = None):
        super().__init__()
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.combo = QComboBox()
        if none:
            self.combo.addItem(none, None)
        for key, label in DECKS:
            self.combo.addItem(label, key)
        self.combo.setCurrentIndex(index)
        row.addWidget(self.combo, 1)
        browse = QPushButton("Deck file\u2026")
        browse.clicked.connect(self._browse)
        row.addWidget(browse)

    def _browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Choose a deck", "", "Decks (*.o8d *.txt *.json);;All files (*)")
        if path:
            self.set_file(path)

    def set_file(self, path: str) -> None:
        self.combo.addItem(Path(path).name, f"file:{path}")
        self.combo.setCurrentIndex(self.combo.count() - 1)

    def deck(self) -> str | None:
        value = self.combo.currentData()
        if isinstance(value, str) and value.startswith("file:"):
            return read_deck_text(value[5:])
        return value


class HostDialog(QDialog):
    """Game ▸ Host online game…: the server, the seats (you, friends by invite code, computers), the rules."""

    def __init__(self, parent=None, server: str | None = None):
        super().__init__(parent)
        self.setWindowTitle("Host an online game")
        box = QVBoxLayout(self)
        form = QFormLayout()
        self.server = QLineEdit(server or DEFAULT_SERVER)
        self.server.setToolTip("The Maester server (maester-server): ws://HOST:PORT, or wss:// with TLS")
        form.addRow("Server", self.server)
        self.title = QLineEdit()
        self.title.setPlaceholderText("(the players' names)")
        self.title.setMaxLength(80)
        form.addRow("Title", self.title)
        self.count = QSpinBox()
        self.count.setRange(2, 4)
        self.count.valueChanged.connect(self._show_rows)
        form.addRow("Players", self.count)
        box.addLayout(form)
        grid = QGridLayout()
        for col, head in enumerate(("Seat", "Played by", "Deck")):
            grid.addWidget(QLabel(f"<b>{head}</b>"), 0, col)
        self.rows = []
        for i in range(4):
            name = QLineEdit(DEFAULT_NAMES[i])
            name.setMaxLength(40)
            who = QComboBox()
            for key, label in WHO:
                who.addItem(label, key)
            who.setCurrentIndex(0 if i == 0 else 1)
            deck = DeckChoice(i % 2)
            for col, w in enumerate((name, who, deck)):
                grid.addWidget(w, i + 1, col)
            self.rows.append((name, who, deck))
        box.addLayout(grid)
        rules = QFormLayout()
        self.ruleset = QComboBox()
        self.ruleset.addItem("LCG", "lcg")
        self.ruleset.addItem("CCG Winter Edition", "ccg-winter")
        rules.addRow("Rules", self.ruleset)
        self.mode = QComboBox()
        self.mode.addItem("Enforce (illegal moves are refused)", "enforce")
        self.mode.addItem("Advise (move freely, with warnings)", "advise")
        rules.addRow("Mode", self.mode)
        self.away = QSpinBox()
        self.away.setRange(1, 60 * 24 * 14)
        self.away.setValue(10)
        self.away.setSuffix(" min")
        self.away.setToolTip("How long a disconnected player's seat waits before the others may hand it to the "
                             "computer or end the game")
        rules.addRow("Away limit", self.away)
        box.addLayout(rules)
        self.error = QLabel()
        self.error.setStyleSheet("color: #9c2a1a;")
        self.error.setWordWrap(True)
        box.addWidget(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.ok = buttons.addButton("Create the game", QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        box.addWidget(buttons)
        self._show_rows(2)

    def _show_rows(self, n: int) -> None:
        for i, row in enumerate(self.rows):
            for w in row:
                w.setVisible(i < n)

    def request(self) -> tuple[str, list, dict]:
        """(server URL, seats, options) for ``Client.create``; ``ValueError`` (one line) if something is wrong."""
        from server.protocol import SeatSpec

        url = normal_server(self.server.text())
        seats, mine = [], None
        for i, (name, who, deck) in enumerate(self.rows[:self.count.value()]):
            n = name.text().strip()
            if not n:
                raise ValueError(f"seat {i + 1} needs a name")
            kind = who.currentData()
            if kind == "you":
                if mine is not None:
                    raise ValueError("only one seat is yours (the others join with the invite code)")
                mine = i
            seats.append(SeatSpec(name=n, deck=deck.deck(), computer=None if kind in ("you", "person") else kind))
        if len({s.name.casefold() for s in seats}) != len(seats):
            raise ValueError("every seat needs its own name")
        options = {"title": self.title.text().strip(), "ruleset": self.ruleset.currentData(),
                   "mode": self.mode.currentData(), "away_minutes": self.away.value(), "my_seat": mine}
        return url, seats, options

    def _accept(self) -> None:
        try:
            self.request()
        except ValueError as err:
            self.error.setText(str(err))
            return
        self.accept()


class JoinDialog(QDialog):
    """Game ▸ Join online game…: an invite code (or link), the server, a seat and a deck."""

    def __init__(self, parent=None, target: str = "", server: str | None = None):
        super().__init__(parent)
        self.setWindowTitle("Join an online game")
        box = QVBoxLayout(self)
        form = QFormLayout()
        self.target = QLineEdit(target)
        self.target.setPlaceholderText("CODE, or the link ws://HOST:PORT/CODE")
        form.addRow("Invite code or link", self.target)
        self.server = QLineEdit(server or DEFAULT_SERVER)
        form.addRow("Server (for a bare code)", self.server)
        self.seat = QLineEdit()
        self.seat.setPlaceholderText("(the first free seat)")
        form.addRow("Seat", self.seat)
        self.deck = DeckChoice(0, none="The deck the host chose for the seat")
        form.addRow("Deck", self.deck)
        self.watch = QCheckBox("Only watch (a spectator sees what every player sees, no hand)")
        form.addRow("", self.watch)
        box.addLayout(form)
        self.error = QLabel()
        self.error.setStyleSheet("color: #9c2a1a;")
        self.error.setWordWrap(True)
        box.addWidget(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        buttons.addButton("Join", QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        box.addWidget(buttons)

    def request(self) -> tuple[str, str, str | None, str | None]:
        url, code = parse_target(self.target.text(), self.server.text())
        return url, code, self.seat.text().strip() or None, self.deck.deck()

    def _accept(self) -> None:
        try:
            self.request()
        except ValueError as err:
            self.error.setText(str(err))
            return
        self.accept()


# -- starting a connection ------------------------------------------------------------------------
def seat_book(window) -> SeatBook:
    book = getattr(window, "seat_book", None)
    if book is None:
        book = window.seat_book = SeatBook()
    return book


def connect(window, url: str, first: tuple, *, mode: str = "enforce", title: str = "") -> OnlineGame:
    """Open a connection for ``window``; the table switches to the game when its first view arrives."""
    old = window.pending_online
    if old is not None:
        old.close()
    game = OnlineGame(window, url, first, book=seat_book(window), mode=mode, title=title)
    window.pending_online = game
    game.failed.connect(lambda text: _failed(window, game, text))
    game.attached.connect(lambda msg: _attached(window, game, msg))
    game._show_status()
    return game


def _failed(window, game: OnlineGame, text: str) -> None:
    window.last_online_error = text
    game._show_status(f"Not started: {text}")
    if window.pending_online is game:
        window.pending_online = None
        game.close()
    _note(window, "Online game", text, QMessageBox.Icon.Warning)


def _attached(window, game: OnlineGame, msg) -> None:
    pass  # the waiting room (below) shows the invite once the first view says who is still to come


class WaitingRoom(QWidget):
    """Covers the table while an online game waits for its players: the invite code and link to share."""

    def __init__(self, parent: QWidget):
        super().__init__(parent)
        self.setObjectName("waiting-room")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.setStyleSheet("#waiting-room { background: #1b130c; } QLabel { color: #f5ecd6; font-size: 16px; }")
        box = QVBoxLayout(self)
        box.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.title = QLabel()
        self.title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.title.setStyleSheet("color: #ffd35c; font-size: 34px; font-weight: bold;")
        box.addWidget(self.title)
        self.text = QLabel()
        self.text.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        box.addWidget(self.text)
        row = QHBoxLayout()
        self.copy = QPushButton("Copy the invite link")
        self.leave = QPushButton("Leave (the game stays on the server)")
        for b in (self.copy, self.leave):
            b.setStyleSheet("font-size: 15px; padding: 8px 18px;")
            row.addWidget(b)
        box.addLayout(row)
        parent.installEventFilter(self)

    def show_game(self, game: OnlineGame) -> None:
        v = game.view
        missing = [s.name for s in v.seats if s.kind == "open"] if v is not None else []
        link = invite_link(game.url, game.invite or "")
        self.title.setText(game.title or "Online game")
        self.text.setText(
            f"<p>Waiting for {html.escape(', '.join(missing) or 'the players')} to join.</p>"
            f"<p>Share the invite code <b style='color:#ffd35c'>{html.escape(game.invite or '')}</b><br>"
            f"or the link <b>{html.escape(link)}</b></p>"
            f"<p style='color:#cdbb9a'>Friends join with Game \u25b8 Join online game\u2026 or "
            f"<code>maester --join {html.escape(link)}</code>.<br>The table opens when every seat is taken; "
            f"your seat is in Game \u25b8 My online games\u2026</p>")
        self.setGeometry(self.parentWidget().rect())
        self.raise_()
        self.show()

    def eventFilter(self, watched, event) -> bool:
        from PySide6.QtCore import QEvent

        if watched is self.parentWidget() and event.type() == QEvent.Type.Resize:
            self.setGeometry(self.parentWidget().rect())
        return False


def waiting_room(window, game: OnlineGame) -> WaitingRoom:
    """Show (or update) the waiting room over the table; the table's next game replaces it."""
    room = getattr(window, "waiting_room", None)
    central = window.centralWidget()
    try:
        current = room is not None and room.parentWidget() is central
    except RuntimeError:  # deleted with the table it covered
        current = False
    if not current:
        room = window.waiting_room = WaitingRoom(central)
        room.copy.clicked.connect(lambda: _copy(window, game))
        room.leave.clicked.connect(lambda: _leave_waiting(window, game))
    room.show_game(game)
    return room


def _copy(window, game: OnlineGame) -> None:
    from PySide6.QtWidgets import QApplication

    QApplication.clipboard().setText(invite_link(game.url, game.invite or ""))


def _leave_waiting(window, game: OnlineGame) -> None:
    if window.pending_online is game:
        window.pending_online = None
    game.close()
    room = getattr(window, "waiting_room", None)
    try:
        if room is not None:
            room.hide()
    except RuntimeError:
        pass
    window.online_label().setText("")
    window.statusBar().hide()


def _note(window, title: str, text: str, icon=QMessageBox.Icon.Information) -> QMessageBox:
    """A message that does not block the table (the network keeps running)."""
    box = QMessageBox(icon, title, text, QMessageBox.StandardButton.Ok, window)
    box.setModal(False)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.show()
    window.online_note = box
    return box


def host_online(window) -> OnlineGame | None:
    dialog = HostDialog(window, seat_book(window).server)
    window.host_dialog = dialog  # tests fill it in
    if not dialog.exec():
        return None
    url, seats, options = dialog.request()
    return host(window, url, seats, options)


def host(window, url: str, seats: list, options: dict) -> OnlineGame:
    title = options.get("title") or " vs ".join(s.name for s in seats)
    game = connect(window, url, ("create", seats, options), mode=options.get("mode", "enforce"), title=title)
    game.hosting = True
    return game


def join_online(window, target: str | None = None, server: str | None = None) -> OnlineGame | None:
    dialog = JoinDialog(window, target or "", server or seat_book(window).server)
    window.join_dialog = dialog
    if not dialog.exec():
        return None
    url, code, seat, deck = dialog.request()
    if dialog.watch.isChecked():
        return watch(window, url, code)
    return join(window, url, code, seat, deck)


def join(window, url: str, code: str, seat: str | None = None, deck: str | None = None) -> OnlineGame:
    return connect(window, url, ("join", code, seat, deck))


def watch(window, url: str, code: str) -> OnlineGame:
    return connect(window, url, ("watch", code))


def resume(window, url: str, token: str) -> OnlineGame:
    rec = seat_book(window).find(token)
    return connect(window, url, ("resume", token), mode=rec.mode if rec else "enforce",
                   title=rec.title if rec else "")


# -- My online games ----------------------------------------------------------------------------
class MyGamesDialog(QDialog):
    """Every seat this user holds, asked of each server: games waiting for you first."""

    COLUMNS = ("Game", "You", "Where it waits", "Round", "Server")

    def __init__(self, window):
        super().__init__(window)
        self.window_ = window
        self.setWindowTitle("My online games")
        self.resize(820, 420)
        self.book = seat_book(window)
        self.book.load()
        box = QVBoxLayout(self)
        self.note = QLabel()
        self.note.setWordWrap(True)
        box.addWidget(self.note)
        self.table = QTableWidget(0, len(self.COLUMNS))
        self.table.setHorizontalHeaderLabels(self.COLUMNS)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.cellDoubleClicked.connect(lambda row, _c: self.open_row(row))
        box.addWidget(self.table, 1)
        buttons = QDialogButtonBox()
        self.open_button = buttons.addButton("Open", QDialogButtonBox.ButtonRole.AcceptRole)
        refresh = buttons.addButton("Refresh", QDialogButtonBox.ButtonRole.ActionRole)
        forget = buttons.addButton("Forget this seat", QDialogButtonBox.ButtonRole.DestructiveRole)
        buttons.addButton(QDialogButtonBox.StandardButton.Close)
        self.open_button.clicked.connect(lambda: self.open_row(self.table.currentRow()))
        refresh.clicked.connect(self.refresh)
        forget.clicked.connect(self.forget)
        buttons.rejected.connect(self.reject)
        box.addWidget(buttons)
        self.entries: dict[str, dict] = {}  # token -> what the server said
        self.unreachable: dict[str, str] = {}
        self.workers: list[NetWorker] = []
        self.refresh()

    def refresh(self) -> None:
        self.entries.clear()
        self.unreachable.clear()
        for server in self.book.servers():
            tokens = [s.token for s in self.book.seats if s.server == server][:200]
            w = NetWorker(server, ("my_games", tokens), keep=False, timeout=10.0)
            w.replied.connect(lambda what, reply, server=server: self._games(server, reply))
            w.status.connect(lambda state, text, server=server: state == "failed" and self._down(server, text))
            self.workers.append(w)
            w.start()
        self.fill()

    def _games(self, server: str, reply) -> None:
        if isinstance(reply, Exception):
            self._down(server, getattr(reply, "message", None) or str(reply))
            return
        for e in reply.games:
            self.entries[e.token] = {"title": e.title, "seat": e.seat, "status": e.status,
                                     "waiting_for_you": e.waiting_for_you, "waiting_for": list(e.waiting_for),
                                     "round": e.round, "phase": e.phase, "updated": e.updated}
        self.fill()

    def _down(self, server: str, text: str) -> None:
        self.unreachable[server] = text
        self.fill()

    def rows(self) -> list:
        """The seats in order: waiting for you, playing, waiting for players, finished, unknown."""
        order = {"playing": 1, "waiting": 2}

        def key(s):
            e = self.entries.get(s.token)
            if e is None:
                return (1, 9, 0)
            return (not e["waiting_for_you"], order.get(e["status"], 3), -e["updated"])
        return sorted(self.book.seats, key=key)

    def where(self, s) -> str:
        e = self.entries.get(s.token)
        if e is None:
            if s.server in self.unreachable:
                return f"server unreachable ({self.unreachable[s.server]})"
            return "asking the server\u2026"
        if e["status"] == "playing":
            if e["waiting_for_you"]:
                return f"WAITING FOR YOU ({e['phase']} phase)"
            return f"waiting for {', '.join(e['waiting_for']) or 'the server'} ({e['phase']} phase)"
        return {"waiting": "waiting for players to join", "over": "finished", "ended": "ended without a winner",
                "broken": "broken (the server reports it)"}.get(e["status"], e["status"])

    def fill(self) -> None:
        rows = self.rows()
        self.table.setRowCount(len(rows))
        self.row_tokens = [s.token for s in rows]
        for r, s in enumerate(rows):
            e = self.entries.get(s.token) or {}
            cells = (e.get("title") or s.title or s.game, e.get("seat") or s.seat, self.where(s),
                     str(e.get("round") or ""), s.server)
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if e.get("waiting_for_you"):
                    font = item.font()
                    font.setBold(True)
                    item.setFont(font)
                self.table.setItem(r, c, item)
        self.table.resizeColumnsToContents()
        if rows and self.table.currentRow() < 0:
            self.table.selectRow(0)
        self.note.setText(self.book.problem or ("No online games yet: Game \u25b8 Host online game\u2026 or "
                                                "Join online game\u2026" if not rows else
                                                "Double-click a game to open it."))

    def open_row(self, row: int) -> OnlineGame | None:
        if not 0 <= row < len(self.row_tokens):
            return None
        rec = self.book.find(self.row_tokens[row])
        if rec is None:
            return None
        self.accept()
        return resume(self.window_, rec.server, rec.token)

    def forget(self) -> None:
        row = self.table.currentRow()
        if 0 <= row < len(self.row_tokens):
            self.book.forget(self.row_tokens[row])
            self.fill()

    def done(self, result: int) -> None:  # noqa: D401 - Qt's name
        for w in self.workers:
            w.stop(2000)
        super().done(result)


def my_games(window) -> MyGamesDialog:
    dialog = MyGamesDialog(window)
    window.my_games_dialog = dialog
    dialog.open()
    return dialog


# -- the online menus -------------------------------------------------------------------------------
def online_menus(window) -> None:
    """Game ▸ Stop for… becomes the server's stop settings for this seat; an Online menu for the game."""
    ctl = window.controller
    menu = window.prompting_menu
    for sub in menu.findChildren(QMenu, options=Qt.FindChildOption.FindDirectChildrenOnly):
        sub.deleteLater()
    menu.clear()
    window.prompting_actions = {}
    group = QActionGroup(menu)
    for key, label in STOPS.items():
        act = menu.addAction(label)
        act.setCheckable(True)
        act.setChecked(ctl.stops == key)
        act.setActionGroup(group)
        act.triggered.connect(lambda _=False, k=key: window.controller.set_stops(k))
        window.prompting_actions[(ctl.my_seat, key)] = act
    menu.setEnabled(ctl.my_seat is not None)
    window.advise_action.setEnabled(False)  # online, the mode is the host's choice
    online = getattr(window, "online_menu", None)
    if online is None:
        online = window.online_menu = window.menuBar().addMenu("&Online")
    online.clear()
    online.menuAction().setVisible(True)
    online.addAction("&Say\u2026 (chat)", lambda: say(window))
    online.addAction("Copy the &invite link", lambda: copy_invite(window))
    online.addSeparator()
    online.addAction("Hand an away player's seat to the &computer\u2026", lambda: away_action(window, "computer"))
    online.addAction("&End the game without a winner (a player is away)\u2026", lambda: away_action(window, "end"))
    online.addSeparator()
    online.addAction("&Leave this table (the game stays on the server)", lambda: leave(window))


def say(window) -> None:
    from PySide6.QtWidgets import QInputDialog

    text, ok = QInputDialog.getText(window, "Say", "A line to the other players:")
    if ok and text.strip() and window.online is not None:
        window.online.command("say", text.strip()[:500])


def copy_invite(window) -> None:
    from PySide6.QtWidgets import QApplication

    og = window.online
    if og is not None and og.invite:
        QApplication.clipboard().setText(invite_link(og.url, og.invite))
        window.controller.say(f"Copied {invite_link(og.url, og.invite)}", "info")


def away_action(window, action: str) -> None:
    og = window.online
    if og is None or og.view is None:
        return
    away = [s.name for s in og.view.seats if s.kind == "person" and not s.connected and s.name != og.seat]
    if not away:
        window.controller.say("Nobody is away.", "info")
        return
    what = "hand to the computer" if action == "computer" else "end the game for"
    if window.ask("Away player", f"{away[0]} is away: {what} ({away[0]}'s seat)?"):
        og.command("away", away[0], action)


def leave(window) -> None:
    window.leave_online()
    window.start(window.setup.__class__())  # a local practice game at the table


def undo_asked(window, text: str) -> None:
    """Another player asks to take back his last answer: accept or refuse (non-blocking)."""
    og = window.online
    if og is None:
        return
    box = QMessageBox(QMessageBox.Icon.Question, "Undo", f"{text}. Accept?",
                      QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, window)
    box.setModal(False)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.finished.connect(lambda _r: og.command("undo_reply", box.clickedButton() is
                                               box.button(QMessageBox.StandardButton.Yes)))
    box.show()
    window.undo_box = box
