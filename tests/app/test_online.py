"""Two tables play online against one real server on loopback (a subprocess, so it can be killed with
SIGKILL): hosting, joining with the invite code, answers sent from each table through its controller (the
path the prompt bar's buttons take), a server killed mid-game and restarted (both tables come back on
their own, nothing lost), "Bob is away" and a resume from "My online games", to game over."""
from __future__ import annotations

import socket
import time
from pathlib import Path

import pytest

pytest.importorskip("websockets")
pytest.importorskip("msgspec")

from PySide6.QtCore import QObject, Qt, Signal  # noqa: E402
from PySide6.QtWidgets import QMessageBox  # noqa: E402

from app import online_dialogs as od  # noqa: E402
from app.online import SeatBook, parse_target  # noqa: E402
from app.window import TableWindow  # noqa: E402
from tests.app.conftest import Driver  # noqa: E402
from engine.players import RandomPlayer  # noqa: E402
from server.protocol import SeatSpec  # noqa: E402
from tests.server.server_helpers import ServerProcess  # noqa: E402

WAIT = 30_000  # ms: a bound on every wait (a hang fails the test, it never blocks)


class Server(ServerProcess):
    """``python -m server`` (tests/server/server_helpers.py) on a free loopback port picked once, so a restart
    after a kill -9 comes back on the same address."""

    def __init__(self, data: Path):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        super().__init__(data, port)
        self.data = self.data_dir
        self.url = f"ws://127.0.0.1:{self.port}"


@pytest.fixture
def server(tmp_path):
    srv = Server(tmp_path / "server")
    srv.data.mkdir()
    srv.start()
    yield srv
    srv.stop()


def window(qtbot) -> TableWindow:
    w = TableWindow(computer_delay_ms=0)
    qtbot.addWidget(w)
    w.resize(1400, 900)
    w.show()
    w.ask = lambda title, question: True
    return w


class Seat:
    """Answers one table's decisions as a player would: a computer player picks the answer from what the
    table shows (its view game and decision), and the table's own controls enter it (the prompt bar's
    buttons, clicks and drops on the scene: ``tests/app/conftest.py`` ``Driver``), which send it to the
    server; an answer the controls cannot enter goes through the controller's ``submit``, the call every
    control ends in. A refused answer is followed by the next candidate."""

    def __init__(self, w: TableWindow, seed: int, qtbot=None):
        self.w, self.player, self.tried = w, RandomPlayer(seed, pass_bias=0.4), {}
        self.driver = Driver(w, qtbot) if qtbot is not None else None
        self.refusals = 0
        self.sent = 0
        self.clicked = 0

    def step(self) -> None:
        ctl = self.w.controller
        if not ctl.my_turn() or ctl._sent_at is not None:
            return
        d, at = ctl.decision, ctl.view.at
        n = self.tried.get(at, 0)
        if n:
            self.refusals += 1
        self.tried[at] = n + 1
        try:
            found = self.player.candidates(ctl.game, d)
        except Exception:  # noqa: BLE001 - a view lacks something the random player reads
            found = []
        found = found[:20] + ([{"pass": True}] if d.can_pass else []) + list(d.options)
        if d.kind == "defend":
            found.append({"defend": []})
        if d.kind == "choose":
            found.append({"choose": list(d.choices[:d.min_count])})
        assert n < len(found), f"no answer accepted for {d.kind}: {d.prompt} ({ctl.last_message})"
        ctl.selection.clear()
        self.sent += 1
        if self.driver is not None:
            try:
                self.driver.enter(found[n])
            except (AssertionError, KeyError, StopIteration, AttributeError):
                pass  # an answer these controls do not make (or a stale button): the controller's call
            if ctl._sent_at is not None:
                self.clicked += 1
                return
            ctl.selection.clear()
        assert ctl.submit(found[n])


def over(w: TableWindow) -> bool:
    return w.online is not None and w.online.view is not None and w.online.view.status in ("over", "ended")


def play(qtbot, seats, until, limit_s: float = 150.0) -> None:
    deadline = time.monotonic() + limit_s
    while not until():
        assert time.monotonic() < deadline, "the online game did not get there in time"
        for s in seats:
            s.step()
        qtbot.wait(5)


def test_two_tables_play_online_through_a_server_kill_to_game_over(qtbot, server):
    a, b = window(qtbot), window(qtbot)
    host = od.host(a, server.url, [SeatSpec(name="Alice", deck="practice:stark"),
                                   SeatSpec(name="Bob", deck="practice:lannister")],
                   {"title": "Online test", "my_seat": 0})
    qtbot.waitUntil(lambda: host.invite is not None, timeout=WAIT)
    assert a.online is None  # the table opens when every seat is taken
    assert "invite code " + host.invite in a.online_label().text()
    qtbot.waitUntil(lambda: getattr(a, "waiting_room", None) is not None and a.waiting_room.isVisible(),
                    timeout=WAIT)  # the waiting room covers the table, with the code and link to share
    assert f"{server.url}/{host.invite}" in a.waiting_room.text.text() and "Bob" in a.waiting_room.text.text()
    assert SeatBook().find(host.token).title == "Online test"  # the token is kept in the user's data folder

    guest = od.join(b, *parse_target(f"{server.url}/{host.invite}"))
    qtbot.waitUntil(lambda: a.online is host and b.online is guest, timeout=WAIT)
    assert a.controller.my_seat == "Alice" and b.controller.my_seat == "Bob"
    # each table shows its own hand face up and the other's as a pile of backs (the server's views)
    ga, gb = a.controller.game, b.controller.game
    assert all(c.key != "hidden" for c in ga.state.cards.values() if c.zone == "hand" and c.owner == "Alice")
    assert all(c.key == "hidden" for c in ga.state.cards.values() if c.zone == "hand" and c.owner == "Bob")
    assert all(c.key == "hidden" for c in gb.state.cards.values() if c.zone == "hand" and c.owner == "Alice")

    for w in (a, b):
        w.controller.set_stops("never")  # optional windows are passed by the server: fewer round trips
    seats = Seat(a, 1, qtbot), Seat(b, 2, qtbot)

    # a refused answer comes back to the prompt bar with its rule, and nothing changes
    play(qtbot, seats, lambda: any(s.w.controller.my_turn() and s.w.controller.decision.kind == "plot"
                                   for s in seats))
    qtbot.waitUntil(lambda: all(s.w.controller._sent_at is None for s in seats), timeout=WAIT)
    qtbot.wait(300)  # nothing in flight: only the refused answer below is sent
    s = next(s for s in seats if s.w.controller.my_turn() and s.w.controller.decision.kind == "plot")
    ctl, at = s.w.controller, s.w.controller.view.at
    hand = next(cid for cid, c in ctl.game.state.cards.items() if c.zone == "hand" and c.owner == ctl.my_seat)
    ctl.say("", "info")
    assert ctl.submit({"marshal": hand})  # sent; the server's engine refuses it: not a plot
    qtbot.waitUntil(lambda: ctl.last_message[1] == "refused", timeout=WAIT)
    assert ctl.view.at == at and ctl.decision.kind == "plot"
    assert s.w.prompt.msg.text() == ctl.last_message[0] and "not a way to answer" in ctl.last_message[0]

    play(qtbot, seats, lambda: a.controller.view.at >= 80)
    at = a.controller.view.at
    server.kill9()
    qtbot.waitUntil(lambda: "reconnecting" in a.online_label().text() and "reconnecting" in
                    b.online_label().text(), timeout=WAIT)
    server.start()  # the same port: both tables reconnect on their own, with their tokens
    qtbot.waitUntil(lambda: "Reconnected" in a.online_label().text() and "Reconnected" in
                    b.online_label().text(), timeout=WAIT)
    qtbot.waitUntil(lambda: a.controller.view.at >= at and b.controller.view.at >= at, timeout=WAIT)
    assert a.controller.view.at == b.controller.view.at  # nothing lost: the game went on from where it was

    play(qtbot, seats, lambda: over(a) and over(b))
    assert a.controller.result.winner == b.controller.result.winner != "nobody"
    qtbot.waitUntil(lambda: a.game_over_dialog is not None and b.game_over_dialog is not None, timeout=WAIT)
    assert a.game_over_dialog.title.text() == b.game_over_dialog.title.text()
    assert sum(s.sent for s in seats) > 50
    assert sum(s.clicked for s in seats) > sum(s.sent for s in seats) / 2  # most through the table's controls
    print("answers sent", sum(s.sent for s in seats), "entered with the controls", sum(s.clicked for s in seats))


def test_away_and_back_from_my_online_games(qtbot, server):
    a, b = window(qtbot), window(qtbot)
    host = od.host(a, server.url, [SeatSpec(name="Alice", deck="practice:stark"),
                                   SeatSpec(name="Bob", deck="practice:lannister")], {"my_seat": 0})
    qtbot.waitUntil(lambda: host.invite is not None, timeout=WAIT)
    od.join(b, server.url, host.invite)
    qtbot.waitUntil(lambda: a.online is not None and b.online is not None, timeout=WAIT)
    bob = b.online.token

    assert b.online_menu.menuAction().isVisible()
    assert b.controller.stops == "usual" and b.prompting_actions[("Bob", "usual")].isChecked()
    b.prompting_actions[("Bob", "own")].trigger()  # Game > Stop for…: only my own challenges
    assert b.controller.stops == "own" and "only my own" in b.controller.last_message[0]
    b.leave_online()  # Bob closes his table: Alice sees him away, his seat waits
    assert not b.online_menu.menuAction().isVisible() and b.statusBar().isHidden()
    qtbot.waitUntil(lambda: "Bob is away" in a.online_label().text(), timeout=WAIT)
    qtbot.waitUntil(lambda: "Bob is away" in a.controller.last_message[0], timeout=WAIT)  # the prompt bar
    alice = Seat(a, 1)
    play(qtbot, [alice], lambda: a.controller.decision.kind == "waiting", limit_s=WAIT / 1000)
    assert a.controller.decision.player == "Bob"  # Alice answered; the game waits for Bob, who is away
    assert "<b>Bob</b>: is away" in a.prompt.ask.text() and "the game waits" in a.prompt.ask.text()
    assert not a.controller.my_turn() and a.controller.submit({"pass": True}) is False

    dialog = od.my_games(b)  # Bob comes back from "My online games" with the token his table kept
    qtbot.waitUntil(lambda: bob in dialog.entries, timeout=WAIT)
    assert dialog.where(SeatBook().find(bob)).startswith(("WAITING FOR YOU", "waiting for"))
    dialog.open_row(dialog.row_tokens.index(bob))
    qtbot.waitUntil(lambda: b.online is not None and b.controller.my_seat == "Bob", timeout=WAIT)
    assert b.controller.stops == "own" and b.prompting_actions[("Bob", "own")].isChecked()  # kept for the seat
    qtbot.waitUntil(lambda: "Bob is back" in a.controller.last_message[0] and "away" not in
                    a.online_label().text(), timeout=WAIT)

    c = window(qtbot)  # a spectator: Join online game… with "Only watch"
    od.watch(c, server.url, host.invite)
    qtbot.waitUntil(lambda: c.online is not None and c.online.view.at == a.online.view.at, timeout=WAIT)
    assert c.controller.my_seat is None and c.controller.seat is None
    cards = c.controller.game.state.cards.values()
    assert all(x.key == "hidden" for x in cards if x.zone in ("hand", "deck", "plot_deck"))
    assert not any(c.controller.may_see(cid) for cid, x in c.controller.game.state.cards.items()
                   if x.zone == "hand")
    assert c.controller.submit({"pass": True}) is False and "watching" in c.controller.last_message[0]

    b.online.command("say", "back in a minute <b>")  # Online > Say…: a chat line, in every log, as text
    qtbot.waitUntil(lambda: "back in a minute &lt;b&gt;" in a.log.toHtml(), timeout=WAIT)

    # Undo online is a request: Bob answers, asks for it back (Ctrl+Z), Alice accepts
    bob_seat = Seat(b, 2)
    play(qtbot, [alice, bob_seat], lambda: b.controller.my_turn(), limit_s=WAIT / 1000)
    before = b.controller.view.at
    play(qtbot, [bob_seat], lambda: b.controller.view.at > before, limit_s=WAIT / 1000)
    assert b.undo()
    qtbot.waitUntil(lambda: getattr(a, "undo_box", None) is not None, timeout=WAIT)
    assert "Bob asks to take back" in a.undo_box.text()
    qtbot.mouseClick(a.undo_box.button(QMessageBox.StandardButton.Yes), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: a.controller.view.at == before and b.controller.view.at == before, timeout=WAIT)
    assert b.controller.my_turn()  # Bob is asked again


def test_invite_links_and_codes():
    assert parse_target("ws://example.org:8765/AbC-12_x") == ("ws://example.org:8765", "AbC-12_x")
    assert parse_target("wss://example.org/AbC-12_x/") == ("wss://example.org", "AbC-12_x")
    assert parse_target("  AbC-12_x ", "example.org:9000") == ("ws://example.org:9000", "AbC-12_x")
    for bad in ("", "ab", "http://example.org/AbC12", "ws://example.org:8765/", "not a code!"):
        with pytest.raises(ValueError):
            parse_target(bad, "ws://127.0.0.1:8765")


def test_join_on_the_command_line_says_what_is_wrong_in_one_line(capsys):
    from app.main import main

    assert main(["--join", "ws://example.org:8765/", "--offscreen"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("maester: --join: ") and "invite code" in err and "Traceback" not in err
    assert main(["--join", "AbCd1234", "--deck", "/nonexistent/deck.txt", "--offscreen"]) == 2
    assert "cannot read the deck" in capsys.readouterr().err


def test_seat_book_keeps_tokens_private_and_survives_a_damaged_file(tmp_path):
    from app.online import SeatRecord

    book = SeatBook(tmp_path / "seats.json")
    book.add(SeatRecord(server="ws://h:1", token="t" * 22, title="A game"))
    assert (tmp_path / "seats.json").stat().st_mode & 0o077 == 0  # readable by its owner only
    assert SeatBook(tmp_path / "seats.json").find("t" * 22).title == "A game"
    (tmp_path / "seats.json").write_text("{not json")
    damaged = SeatBook(tmp_path / "seats.json")
    assert damaged.seats == [] and "cannot be read" in damaged.problem


def test_host_dialog_against_a_computer_seat(qtbot, server):
    a = window(qtbot)
    dialog = od.HostDialog(a, server.url)
    qtbot.addWidget(dialog)
    dialog.rows[1][1].setCurrentIndex([k for k, _ in od.WHO].index("heuristic"))  # Bob: the computer
    dialog.title.setText("Practice online")
    url, seats, options = dialog.request()
    assert url == server.url and seats[1].computer == "heuristic" and options["my_seat"] == 0
    dialog.rows[1][1].setCurrentIndex(0)  # two seats "You": said in the dialog, nothing sent
    dialog._accept()
    assert "only one seat is yours" in dialog.error.text() and not dialog.result()

    bad = od.host(a, url, [seats[0], SeatSpec(name="Bob", deck="3x No Such Card Anywhere", computer="random")],
                  options)  # the server reads and checks every deck: one line naming the seat, nothing starts
    qtbot.waitUntil(lambda: bool(getattr(a, "last_online_error", "")), timeout=WAIT)
    assert a.last_online_error.startswith("Bob: ") and a.online is None and a.pending_online is None
    assert "Not started: Bob: " in a.online_label().text() and bad.closed

    host = od.host(a, url, seats, dict(options, mode="advise"))
    qtbot.waitUntil(lambda: a.online is host, timeout=WAIT)  # no one to wait for: the table opens at once
    alice = Seat(a, 3)
    play(qtbot, [alice], lambda: a.controller.view.state["phase"] == "marshalling" and a.controller.my_turn(),
         limit_s=WAIT / 1000)
    assert a.controller.game.state.player_names == ["Alice", "Bob"] and alice.sent >= 2
    # advise mode (the host's choice): a hotkey's free move goes to the server; its warning comes back
    gold = a.controller.game.player("Alice").gold
    a.controller.hotkey("gold+")
    qtbot.waitUntil(lambda: a.controller.game.player("Alice").gold == gold + 1, timeout=WAIT)
    # a free move that breaks a rule: its warning comes back in the view (the draw cap, DRW-03)
    for _ in range(4):
        hand = len(a.controller.game.player("Alice").hand)
        a.controller.hotkey("draw")
        qtbot.waitUntil(lambda: len(a.controller.game.player("Alice").hand) == hand + 1, timeout=WAIT)
        if a.controller.view.warnings:
            break
    assert a.controller.last_message[1] == "warning" and a.prompt.msg.text().startswith("Rules broken")
    assert "DRW-03" in a.prompt.msg.text()


def test_a_server_that_cannot_be_reached_is_said_and_never_blocks(qtbot, tmp_path):
    from app.online import SeatRecord

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        dead = f"ws://127.0.0.1:{s.getsockname()[1]}"
    SeatBook().add(SeatRecord(server=dead, token="x" * 22, title="Old game", seat="Alice"))
    a = window(qtbot)
    dialog = od.my_games(a)  # "My online games" asks the server in a worker thread
    assert dialog.isVisible()
    qtbot.waitUntil(lambda: "server unreachable" in dialog.where(SeatBook().find("x" * 22)), timeout=WAIT)
    dialog.close()

    game = od.join(a, dead, "AbCd1234")  # Join: "Connecting…", retried; the table stays usable meanwhile
    qtbot.waitUntil(lambda: "Connecting" in a.online_label().text(), timeout=WAIT)
    assert a.online is None and a.controller.decision is not None
    qtbot.waitUntil(lambda: "trying again" in a.online_label().text(), timeout=WAIT)
    a.close()  # closing the window while it connects stops the worker at once
    assert game.worker.wait(5000) and game.worker.isFinished()
    b = window(qtbot)
    early = od.join(b, dead, "AbCd1234")
    b.close()  # at once, maybe before the worker's loop runs: it still stops
    assert early.worker.wait(5000) and early.worker.isFinished()


class FakeWorker(QObject):
    """A worker without a network: the test plays the server's part by emitting its signals."""

    received = Signal(object)
    replied = Signal(str, object)
    status = Signal(str, str)

    def __init__(self, url, first):
        super().__init__()
        self.sent = []

    def start(self):
        pass

    def command(self, what, *args):
        self.sent.append((what, args))
        return True

    def stop(self, wait_ms=0):
        pass


def test_what_the_table_cannot_draw_is_one_line_and_changes_nothing(qtbot):
    """A view this table cannot draw (a damaged or hostile message) is said in one line, never a traceback;
    before the table shows it stops the connection's start, after it the table keeps the last view."""
    from app.online import OnlineGame
    from server.protocol import Attached, Event, SeatInfo, Snapshot, View

    a = window(qtbot)
    failed = []
    og = OnlineGame(a, "ws://127.0.0.1:1", ("resume", "x" * 22), worker_factory=FakeWorker)
    og.failed.connect(failed.append)
    seats = [SeatInfo(name="Alice", kind="person", connected=True), SeatInfo(name="Bob", kind="person")]
    og.worker.received.emit(Attached(game="g1", invite="abcd1234", seat="Alice"))
    og.worker.received.emit(Snapshot(game="g1", seq=1, view=View(at=0, status="playing", seats=seats,
                                                                 state={"players": "not a list"})))
    assert failed and failed[0].startswith("This table could not show what the server sent") and a.online is None

    # a good view, then a damaged one: the table keeps the good one and says so
    from engine.builder import practice_game
    from server.views import Viewer, card_def

    g = practice_game(seed=3, players=("Alice", "Bob"))
    state, keys = Viewer("Alice").build(g, g.state.to_dict())
    defs = {k: card_def(g.pool[k]) for k in keys if k != "hidden"}
    og.worker.received.emit(Snapshot(game="g1", seq=2, view=View(at=0, status="playing", seats=seats, state=state,
                                                                 defs=defs)))
    assert a.online is og and a.controller.my_seat == "Alice"
    before = a.controller.game
    og.worker.received.emit(Event(game="g1", seq=3, view=View(at=1, status="playing", seats=seats,
                                                              state={"cards": 7})))
    assert a.controller.game is before and a.controller.last_message[1] == "warning"
    assert "could not show" in a.prompt.msg.text()


def test_maester_join_opens_the_table_at_the_game(qtbot, server):
    """``maester --join ws://HOST:PORT/CODE`` (app.main): the table opens at the game once the host's seat
    and the joiner's are taken."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from app.main import main

    a = window(qtbot)
    host = od.host(a, server.url, [SeatSpec(name="Alice", deck="practice:stark"),
                                   SeatSpec(name="Bob", deck="practice:lannister")], {"my_seat": 0})
    qtbot.waitUntil(lambda: host.invite is not None, timeout=WAIT)
    seen = {}
    deadline = time.monotonic() + WAIT / 1000

    def poll():
        joined = [w for w in QApplication.topLevelWidgets() if isinstance(w, TableWindow) and w is not a
                  and w.online is not None]
        if joined or time.monotonic() > deadline:
            if joined:
                seen["seat"] = joined[0].controller.my_seat
                seen["title"] = joined[0].windowTitle()
                joined[0].close()
            QApplication.instance().exit(0)  # quit() would close every window, Alice's too
            return
        QTimer.singleShot(50, poll)

    QTimer.singleShot(50, poll)
    assert main(["--join", f"{server.url}/{host.invite}", "--no-autosave"]) == 0
    assert seen.get("seat") == "Bob" and "online" in seen["title"]
    qtbot.waitUntil(lambda: a.online is host, timeout=WAIT)  # Alice's table opened too
