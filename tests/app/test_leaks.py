"""The leak test: whole hotseat games played seat by seat, and nothing a seat may not see is ever on screen.

After every decision and at every hand-over (with the privacy screen up, and again once the next player
has taken the seat) the scanner walks what the window shows:

- every card item on the table, every pile's top card, every card button (plot strip, strips of choices,
  pile viewers) and the preview: a face that is not hidden must be a card the seat may see
  (``engine.visibility.may_see``), by its id; a hidden face carries no key and no name;
- every text: labels, buttons, tool buttons, tooltips, combo boxes, window titles, the preview's text,
  open menus, and at hand-overs the log (its text and its links): no name of a card the seat may not see
  and never could (a name the seat saw before, or that was public, is knowledge, not a leak; a name shared
  with a card it may see is not a leak either).

Covered widgets count: under the privacy screen the scan uses nobody's seat, so what the last player saw
must be gone, not just covered. The players hover their own cards, their plots and log names, and now and
then try an illegal marshal (its refusal names a card in hand) before answering, so a preview, a message or
a strip that outlived the seat would be caught.
"""
from __future__ import annotations

import html
import os
import random
import re
import time
from collections import defaultdict

import pytest
from PySide6.QtCore import QEvent, QTimer
from PySide6.QtWidgets import QAbstractButton, QApplication, QComboBox, QLabel, QMenu, QTextBrowser, QWidget

from app.prompt import CardButton
from engine.decisions import GameOver
from engine.players import RandomPlayer
from engine.visibility import public, visible_cards
from tests.app.conftest import Driver

NAMES = ("Alice", "Bob", "Carol", "Dave")
GAMES = [(2, 1), (2, 2), (2, 3), (2, 4), (3, 1), (3, 2), (4, 1), (4, 2)]
"""(players, seed) of the games played seat by seat."""
TOTALS: dict[str, int] = defaultdict(int)


class Scanner:
    """Walks the window for leaks; remembers what each seat (and everyone) has been allowed to see."""

    def __init__(self, window):
        self.window = window
        self.public_names: set[str] = set()
        self.known: dict[str, set[str]] = defaultdict(set)
        self.note()

    def quoted(self, name: str) -> set[str]:
        """The card names the text of card ``name`` mentions ("While you control Lord Harlen...")."""
        if not hasattr(self, "_quotes"):
            pool = self.game.pool.values()
            names = {d.name for d in pool}
            self._quotes = {d.name: {n for n in names if n != d.name and n in (d.text or "")} for d in pool}
        return self._quotes.get(name, set())

    @property
    def game(self):
        return self.window.controller.game

    def note(self) -> None:
        """What every seat may see now becomes what it knows."""
        g = self.game
        for cid in g.state.cards:
            if public(g, cid):
                self.public_names.add(g.name(cid))
        for name in g.state.player_names:
            self.known[name] |= {g.name(c) for c in visible_cards(g, name)}

    def texts(self, with_log: bool) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        widgets: list[QWidget] = []
        for top in QApplication.topLevelWidgets():  # the window, and its open dialogs and menus
            if top is self.window or top.isVisible():
                widgets.append(top)
                widgets.extend(top.findChildren(QWidget))
        for w in widgets:
            if not w.isVisible() or w is self.window.log:
                continue
            kind = type(w).__name__
            if w.isWindow() and w.windowTitle():
                out.append((f"{kind} title", w.windowTitle()))
            if w.toolTip():
                out.append((f"{kind} tooltip", w.toolTip()))
            if isinstance(w, QLabel):
                out.append((f"label {w.objectName()}", w.text()))
            elif isinstance(w, QAbstractButton):
                out.append((f"button {w.objectName()}", w.text()))
            elif isinstance(w, QComboBox):
                out.extend((f"combo {w.objectName()}", w.itemText(i)) for i in range(w.count()))
            elif isinstance(w, QMenu):
                out.extend((f"menu {w.title()}", a.text()) for a in w.actions())
            elif isinstance(w, QTextBrowser):
                out.append((f"text {kind}", w.toPlainText()))
        if with_log:
            out.append(("log", self.window.log.toPlainText()))
        return out

    def scan(self, when: str, with_log: bool = False) -> list[str]:
        ctl = self.window.controller
        g = self.game
        seat = ctl.seat
        seen = visible_cards(g, seat)
        problems: list[str] = []

        def where(cid: int) -> str:
            c = g.card(cid)
            return f"{g.name(cid)} (#{cid}, {c.zone} of {c.owner}{', facedown' if c.facedown else ''})"

        scene = self.window.scene
        for cid, item in scene.cards.items():
            f = item.face
            if f is None:
                continue
            if f.hidden:
                if f.key or f.name:
                    problems.append(f"a hidden card item carries {f.name or f.key}")
            elif cid not in seen:
                problems.append(f"the table shows {where(cid)}")
            elif f.key != g.card(cid).key:
                problems.append(f"card item #{cid} shows another card's face ({f.name})")
        for target, pile in scene.piles.items():
            top = pile.pile.top if pile.pile is not None else None
            if top is None:
                continue
            if top.hidden:
                if top.key or top.name:
                    problems.append(f"the hidden top of {target} carries {top.name or top.key}")
            elif pile.pile.top_id not in seen:
                problems.append(f"pile {target} shows {top.name}")
        buttons = [b for top in QApplication.topLevelWidgets() for b in top.findChildren(CardButton)]
        for b in buttons:
            if b.isVisible() and not b.face.hidden and b.card_id not in seen:
                problems.append(f"a card button shows {where(b.card_id)}")
        pv = self.window.preview
        if pv.view.face is not None:
            if pv.card_id is not None:
                if pv.card_id not in seen:
                    problems.append(f"the preview shows {where(pv.card_id)}")
            elif pv.view.face.key not in ctl.public_keys and \
                    not any(g.card(c).key == pv.view.face.key for c in seen):
                problems.append(f"the preview shows {pv.view.face.name}, never public")
        if with_log:
            for raw in re.findall(r"href=\"card:([^\"]+)\"", self.window.log.toHtml()):
                key = html.unescape(html.unescape(raw))  # escaped once in the link, once by toHtml
                if key not in ctl.public_keys:
                    problems.append(f"the log links {key}, never public")

        allowed = {g.name(c) for c in seen} | self.public_names | (self.known[seat] if seat else set())
        allowed |= {n for a in list(allowed) for n in self.quoted(a)}  # names a readable card's text quotes
        forbidden = {g.name(c) for c in g.state.cards} - allowed
        if forbidden:
            longest_first = sorted(allowed, key=len, reverse=True)
            for what, text in self.texts(with_log):
                rest = text
                for name in longest_first:
                    if name in rest:
                        rest = rest.replace(name, "\u2022")
                for name in forbidden:
                    if name in rest:
                        holders = [where(c) for c in g.state.cards if g.name(c) == name]
                        problems.append(f"{what} names {name}: {holders} in {text[:300]!r}")
        TOTALS["checks"] += 1
        return [f"{when} (seat {seat}): {p}" for p in problems]


def _pokes(window, ui, rng: random.Random) -> None:
    """What a curious player does before answering: hover his cards, his plots, names in the log; try an
    illegal marshal now and then (the refusal names a card in his hand)."""
    ctl, g = window.controller, ui.game
    items = [cid for cid, it in window.scene.cards.items() if it.face is not None and not it.face.hidden]
    mine = [c for c in g.player(ctl.viewer).hand if c in items]
    if mine or items:
        window.scene.hovered(rng.choice(mine or items))
    strip = [b for k, b in window.prompt.buttons.items() if isinstance(b, CardButton)]
    if strip:
        rng.choice(strip).hovered.emit(rng.choice(strip).card_id)
    if rng.random() < 0.3:
        window.log.card_hovered.emit(rng.choice(sorted(g.pool)))
    d = ctl.decision
    if rng.random() < 0.2 and d.kind == "action" and g.state.phase == "marshalling" and \
            g.state.active_player == d.player:
        gold = g.player(d.player).gold
        dear = [c for c in g.player(d.player).hand if (g.defn(c).cost or 0) > gold
                and g.defn(c).type in ("character", "location")]
        if dear:
            window.scene.drop_card(dear[0], ("zone", d.player, "characters"))
            assert ctl.last_message[1] == "refused"


def play_and_scan(table, players: int, seed: int) -> dict[str, int]:
    window, ui = table(seed=seed, names=NAMES[:players])
    ctl, game = window.controller, ui.game
    scanner = Scanner(window)
    rng = random.Random(seed * 97 + players)
    choosers = {n: RandomPlayer(seed * 31 + i, pass_bias=0.25) for i, n in enumerate(game.state.player_names)}
    problems: list[str] = []
    handovers = decisions = 0
    while not isinstance(game.advance(), GameOver):
        scanner.note()
        if window.privacy.isVisible():
            handovers += 1
            problems += scanner.scan(f"hand-over {handovers} to {ctl.waiting_for}", with_log=True)
            ui.take_seat()
            problems += scanner.scan(f"{ctl.viewer} took the seat")  # the log's lines and links are no seat's
        else:
            problems += scanner.scan(f"decision {decisions}")
        assert not problems, "\n".join(problems[:12])
        _pokes(window, ui, rng)
        d = ui.decision
        ui.enter(ui.pick_legal(choosers[d.player]))
        decisions += 1
        assert decisions < 3000
    scanner.note()
    problems += scanner.scan("game over", with_log=True)
    assert not problems, "\n".join(problems[:12])
    assert ctl.handovers == handovers  # the first seat's hand-over at the start included
    TOTALS["games"] += 1
    TOTALS["decisions"] += decisions
    TOTALS["handovers"] += handovers
    return {"decisions": decisions, "handovers": handovers}


@pytest.mark.parametrize("players,seed", GAMES)
def test_no_seat_ever_sees_what_it_may_not(table, players, seed):
    t = time.process_time()
    done = play_and_scan(table, players, seed)
    assert done["handovers"] >= players  # the game opened on the privacy screen, and every seat took it
    TOTALS["cpu_ms"] += round(1000 * (time.process_time() - t))


def test_leak_totals():
    """Run after the games (pytest keeps file order): how much was checked."""
    print(f"\nleak test: {TOTALS['games']} games, {TOTALS['decisions']} decisions, "
          f"{TOTALS['handovers']} hand-overs, {TOTALS['checks']} scans, {TOTALS['cpu_ms'] / 1000:.1f} s CPU")
    if TOTALS["games"] == len(GAMES):
        assert TOTALS["handovers"] > 200


def test_a_menu_and_a_pile_viewer_close_when_the_seat_changes(table, qtbot):
    window, ui = table(seed=3)
    ctl, game = window.controller, ui.game
    ui.take_seat()
    me = ctl.viewer
    other = next(n for n in game.state.player_names if n != me)
    scanner = Scanner(window)
    seen: dict[str, object] = {}

    def during_menu() -> None:
        menu = QApplication.activePopupWidget()
        seen["menu"] = isinstance(menu, QMenu) and menu.isVisible()
        ctl.hide_for(other)  # e.g. a computer's answer hands the screen over while the menu is open
        seen["menu_after"] = QApplication.activePopupWidget() is not None

    card = game.player(me).hand[0]
    QTimer.singleShot(50, during_menu)
    window.scene.gesture_menu(card, window.mapToGlobal(window.rect().center()))
    assert seen["menu"] and not seen["menu_after"]
    assert not scanner.scan("after the menu")
    ui.take_seat()
    assert ctl.viewer == other

    def during_dialog() -> None:
        dialog = window.pile_dialog
        seen["dialog"] = dialog is not None and dialog.isVisible()
        seen["plots"] = [b.card_id for b in dialog.findChildren(CardButton)] if dialog else []
        assert not scanner.scan("the plot deck viewer")
        ctl.hide_for(me)
        seen["dialog_after"] = window.pile_dialog is not None and window.pile_dialog.isVisible()

    QTimer.singleShot(50, during_dialog)
    ctl.click_pile((other, "plot_deck"))  # his own plot deck: he may look through it
    assert seen["dialog"] and sorted(seen["plots"]) == sorted(game.player(other).plot_deck)
    assert not seen["dialog_after"]
    assert not scanner.scan("after the viewer", with_log=True)
    assert window.preview.view.face is None or window.preview.card_id is None


def test_the_game_opens_on_the_privacy_screen_with_two_people(table):
    window, ui = table(seed=5, names=("Alice", "Bob", "Carol"), computer=("Carol",))
    ctl = window.controller
    d = ui.decision
    assert window.privacy.isVisible() and ctl.seat is None
    if d.player in ctl.humans:
        assert ctl.waiting_for == d.player
    assert all(it.face.hidden for cid, it in window.scene.cards.items() if ui.game.card(cid).zone == "hand")
    window, ui = table(seed=5, names=("Alice", "Bob"), computer=("Bob",))
    assert not window.privacy.isVisible() and window.controller.seat == "Alice"


def test_the_search_and_look_strips_show_the_deck_to_its_seat_only(table):
    """Step 3 of a use by hand (faked here: the practice cards need none): the search strip shows the seat
    its own deck, a look its top cards; when the screen goes to the next player, both are gone."""
    from engine.decisions import Decision

    window, ui = table(seed=3)
    ctl, game = window.controller, ui.game
    ui.take_seat()
    me = ctl.viewer
    other = next(n for n in game.state.player_names if n != me)
    scanner = Scanner(window)
    real = game.pending
    game.pending = Decision("by_hand_effect", me, "carry out the text by hand", can_pass=True,
                            context={"card": game.player(me).house_card, "paragraph": 1})
    try:
        window.refresh()
        ui.press("tool-search")
        deck = game.player(me).deck
        shown = [k for k in window.prompt.buttons if k.startswith("search-")]
        assert sorted(int(k.split("-")[1]) for k in shown) == sorted(deck)
        assert all(not window.prompt.buttons[k].face.hidden for k in shown)
        assert not scanner.scan("searching my deck")
        game.state.looking.append({"player": me, "deck": me, "count": 3})
        window.refresh()
        looked = [k for k in window.prompt.buttons if k.startswith("look-")]
        assert [int(k.split("-")[1]) for k in looked] == deck[:3]
        assert not scanner.scan("looking at my top 3")
        ctl.hide_for(other)
        assert not [k for k in window.prompt.buttons if k.startswith(("search-", "look-"))]
        assert not [b for b in window.findChildren(CardButton) if b.isVisible()]
        assert not scanner.scan("handed over", with_log=True)
    finally:
        game.state.looking.clear()
        game.pending = real


# ---------------------------------------------------------------------------
# Memory: the table releases each finished game
# ---------------------------------------------------------------------------

def test_each_new_game_releases_the_previous_table_controller_and_game(table):
    """New Game 20 times in one window (each game a few decisions in): every earlier game, its
    controller and its scene are collected; before the fix the window-wide image loader held every
    scene (a lambda), and with it the controller and the game."""
    import gc
    import weakref

    window, ui = table(seed=1)
    refs = []
    for i in range(20):
        ctl, game, scene = window.controller, window.controller.game, window.scene
        refs.append((weakref.ref(game), weakref.ref(ctl), weakref.ref(scene)))
        ctl.autoplay(5 + i, seed=i)  # a few decisions in: the table redrawn, the log written
        assert len(game.history) >= 5 or isinstance(game.advance(), GameOver)
        del ctl, game, scene
        window.start(window.setup)   # what Game > New game does once its dialog is accepted
    for _ in range(3):
        QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)  # the old controllers' deleteLater
        QApplication.processEvents()
        gc.collect()
    alive = [i for i, (g, c, s) in enumerate(refs) if g() is not None or c() is not None or s() is not None]
    assert len(alive) <= 1, f"games still alive: {alive} of {len(refs)}"
    assert refs[-1][0]() is not window.controller.game


def test_finished_games_leave_no_widgets_behind(table):
    """Whole games to their end (the game-over dialog shown), then New Game, three times in one window:
    the number of live widgets is the same at each new game. Before the fix every finished game left its
    game-over dialog (23 labels, its buttons and a backing store) and its "Stop for" submenus behind."""
    from app.gameover import GameOverDialog

    window, ui = table(seed=11, computer=("Bob",))

    def settled() -> int:
        for _ in range(3):
            QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
            QApplication.processEvents()
        return len(QApplication.allWidgets())

    counts = []
    for i in range(3):
        window.controller.autoplay(5000, seed=i)
        assert window.controller.result is not None and window.game_over_dialog is not None
        window.start(window.setup)  # Game > New game
        counts.append(settled())
        assert window.game_over_dialog is None
        assert not [w for w in QApplication.allWidgets() if isinstance(w, GameOverDialog)]
        assert len(window.prompting_menu.findChildren(QMenu)) == len(window.controller.humans)
    assert counts[0] == counts[1] == counts[2], f"live widgets at each new game: {counts}"


def test_a_card_search_shows_the_searcher_his_deck_and_nobody_else(qtbot, lcg_json):
    """Summoning Season at the table (hotseat): Alice's choice of the card her search finds is a strip of
    her deck's faces with their names (not "hidden card" backs); when the screen goes to Bob none of it
    is shown, and Bob's own search shows him his deck and nothing of Alice's."""
    from pathlib import Path

    from app.dialogs import GameSetup
    from app.window import TableWindow

    path = Path(__file__).resolve().parents[1] / "scenarios" / "lcg" / \
        "core-summoning-and-building-season-both-players-pick.yaml"
    window = TableWindow(GameSetup(scenario=str(path), privacy=True), computer_delay_ms=0)
    qtbot.addWidget(window)
    window.resize(1600, 1000)
    window.show()
    ui = Driver(window, qtbot)
    ctl, g = window.controller, ui.game
    scanner = Scanner(window)
    scanner.public_names.add("Building Season")  # the scenario's title, in the log, names it

    def searching(player: str) -> bool:
        d = ui.decision
        return d.kind == "choose" and d.player == player and all(isinstance(c, int) for c in d.choices)

    ui.advance(lambda d: searching("alice"), chooser=None)
    ui.take_seat()
    assert ctl.seat == "alice"
    picks = {int(k.split("-")[1]): b for k, b in window.prompt.buttons.items() if k.startswith("pick-")}
    assert sorted(picks) == sorted(ui.decision.choices)
    assert all(not b.face.hidden and b.toolTip() == g.name(cid) for cid, b in picks.items())
    assert "Ser Rodrik" in [b.toolTip() for b in picks.values()]
    if os.environ.get("MAESTER_SHOTS"):
        window.grab().save(str(Path(os.environ["MAESTER_SHOTS"]) / "summoning-search.png"))
    assert not scanner.scan("Alice searches her deck")
    ctl.hide_for("bob")
    assert not [b for b in window.findChildren(CardButton) if b.isVisible()]
    assert not scanner.scan("handed over to Bob", with_log=True)
    ui.take_seat()
    assert ctl.seat == "bob"
    assert not [b for b in window.findChildren(CardButton) if b.isVisible() and not b.face.hidden]
    ctl.hide_for("alice")
    ui.take_seat()
    rodrik = next(c for c in ui.decision.choices if g.name(c) == "Ser Rodrik")
    ui.enter({"choose": [rodrik]})
    scanner.public_names.add("Ser Rodrik")  # the card a search finds is revealed: the log names it
    ui.advance(lambda d: searching("bob"))
    ui.take_seat()
    assert ctl.seat == "bob"
    picks = {int(k.split("-")[1]): b for k, b in window.prompt.buttons.items() if k.startswith("pick-")}
    assert picks and all(not b.face.hidden and g.card(cid).owner == "bob" for cid, b in picks.items())
    assert not scanner.scan("Bob searches his deck", with_log=True)
    window.close()
