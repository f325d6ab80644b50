"""The deck editor and card browser (app/deck_editor.py, app/browser.py), driven through the UI.

A legal deck is built from scratch by typing searches and double-clicking cards (and with the
+/− buttons and a drop), its legality is watched as it changes, it is saved in every format
through the Save As dialog, reopened through the Open dialog, and started in a game from
"Play this deck". The practice-set test always runs; the Core Set test needs the LCG card data
(../shared/data/agot1-lcg-cards.json) and skips cleanly without it.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QFileDialog

from app import dialogs
from app.deck_editor import FILE_FILTERS, DeckEditor
from app.dialogs import GameSetup
from app.window import TableWindow
from cards import pool as poolmod
from cards.deck import read_deck

ROOT = Path(__file__).resolve().parents[2]
LCG_JSON = ROOT.parent / "shared" / "data" / "agot1-lcg-cards.json"


@pytest.fixture(autouse=True)
def _fresh_caches():
    poolmod.clear_caches()
    yield
    poolmod.clear_caches()


class EditorDriver:
    """Types searches, double-clicks browser rows, clicks deck rows and buttons."""

    def __init__(self, editor: DeckEditor, qtbot):
        self.editor, self.qtbot = editor, qtbot

    @property
    def browser(self):
        return self.editor.browser

    def search(self, query: str) -> list:
        box = self.browser.query
        box.selectAll()
        self.qtbot.keyClick(box, Qt.Key.Key_Delete)
        self.qtbot.keyClicks(box, query)
        self.qtbot.keyClick(box, Qt.Key.Key_Return)
        return self.browser.visible_cards()

    def double_click(self, card) -> None:
        table = self.browser.table
        row = self.browser.row_of(card)
        assert row >= 0, f"{card.name} is not in the browser's list"
        index = self.browser.proxy.index(row, 0)
        table.scrollTo(index)
        center = table.visualRect(index).center()
        self.qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=center)
        self.qtbot.mouseDClick(table.viewport(), Qt.MouseButton.LeftButton, pos=center)

    def select_in_deck(self, card) -> None:
        item = self.editor.item_for(card)
        assert item is not None, f"{card.name} is not in the deck"
        tree = self.editor.tree
        tree.scrollToItem(item)
        self.qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=tree.visualItemRect(item).center())
        assert self.editor.selected_card() is card

    def press(self, button) -> None:
        self.qtbot.mouseClick(button, Qt.MouseButton.LeftButton)

    def add_copies(self, card, copies: int) -> None:
        """Double-click the card in the browser, then + for the other copies."""
        self.double_click(card)
        for _ in range(copies - 1):
            self.select_in_deck(card)
            self.press(self.editor.plus)

    def rules(self) -> list[str]:
        return [p.rule for p in self.editor.problems]

    def problem_lines(self) -> list[str]:
        lst = self.editor.problem_list
        return [lst.item(i).text() for i in range(lst.count())]


def _window(qtbot, monkeypatch) -> TableWindow:
    window = TableWindow(GameSetup(seed=3), computer_delay_ms=0)
    qtbot.addWidget(window)
    window.ask = lambda *_: True
    return window


def _open_editor(window: TableWindow, qtbot) -> DeckEditor:
    action = next(a for m in window.menuBar().actions() if m.menu() and m.text() == "&Decks"
                  for a in m.menu().actions() if a.text().startswith("&Deck editor"))
    action.trigger()
    editor = window.deck_editor
    qtbot.addWidget(editor)
    editor.ask = lambda *_: True
    editor.tell = lambda title, message: pytest.fail(f"{title}: {message}")
    qtbot.waitExposed(editor)
    return editor


def _menu_action(editor: DeckEditor, prefix: str):
    menu = next(m.menu() for m in editor.menuBar().actions() if m.menu() and m.text() == "&Deck")
    return next(a for a in menu.actions() if a.text().startswith(prefix))


def build_deck(d: EditorDriver, house: str, house_deck_query: str, plot_query: str) -> None:
    """Build a legal deck of ``house`` from scratch, watching the problems change."""
    ed = d.editor
    assert ed.edited.size == 0 and not ed.edited.plots
    assert "SET-01" in d.rules() and "DCK-01" in d.rules() and "DCK-02" in d.rules()
    house_card = next(c for c in d.search(f"t:house h:{house}"))
    d.double_click(house_card)
    assert ed.edited.house_card is house_card and ed.house_choice.currentData() == house
    assert "SET-01" not in d.rules()

    plots, titles = [], set()
    for card in d.search(plot_query):
        if card.name not in titles and card.deck_allows(house) and card.legal_in("joust") == "legal" \
                and not card.promo and card.deck_rule is None:
            plots.append(card)
            titles.add(card.name)
        if len(plots) == 7:
            break
    assert len(plots) == 7
    for i, plot in enumerate(plots):
        d.double_click(plot)
        assert ed.edited.plot_count == i + 1
        assert ("DCK-01" in d.rules()) == (i < 6), d.rules()
    # a second copy of a plot breaks DCK-01 again, and − puts it right
    d.select_in_deck(plots[0])
    d.press(ed.plus)
    assert any(line.startswith("DCK-01:") and plots[0].name in line for line in d.problem_lines())
    d.press(ed.minus)
    assert "DCK-01" not in d.rules()

    chosen, names = [], set()
    for card in d.search(house_deck_query):
        if card.name.casefold() in names or not card.deck_allows(house) or card.promo \
                or card.legal_in("joust") != "legal" or card.deck_rule is not None:
            continue
        chosen.append(card)
        names.add(card.name.casefold())
    total = 0
    for card in chosen:
        copies = min(card.deck_limit, 3, 60 - total)
        if copies <= 0:
            break
        d.add_copies(card, copies)
        total += copies
        assert ed.edited.size == total
        assert ("DCK-02" in d.rules()) == (total < 60)
    assert total == 60, f"only {total} cards for the House deck"
    assert d.problem_lines() == [] or all(line.startswith("note:") for line in d.problem_lines())
    assert ed.verdict.text().startswith("<b style='color:#2f6b2f'>Legal</b>")

    # a fourth copy breaks DCK-03 and flags the row; − removes it
    first = chosen[0]
    d.select_in_deck(first)
    d.press(ed.plus)
    assert "DCK-03" in d.rules()
    assert "DCK-03" in ed.item_for(first).toolTip(1)
    d.press(ed.minus)
    assert d.rules() == []
    # one card fewer is 59: DCK-02 until it is back
    d.press(ed.minus)
    assert d.rules() == ["DCK-02"]
    d.press(ed.plus)
    assert d.rules() == []


def save_and_reopen(d: EditorDriver, tmp_path: Path, monkeypatch) -> None:
    """Save As in each format through the dialog, then Open each file: the same deck comes back."""
    ed = d.editor
    want = _contents(ed.deck())
    for fmt, name in (("o8d", "deck.o8d"), ("text", "deck.txt"), ("builder", "deck-builder.txt")):
        path = tmp_path / name
        monkeypatch.setattr(QFileDialog, "getSaveFileName",
                            staticmethod(lambda *a, p=path, f=fmt: (str(p), FILE_FILTERS[f])))
        _menu_action(ed, "Save &as").trigger()
        assert path.exists() and not ed.dirty and ed.path == path and ed.fmt == fmt
        assert _contents(read_deck(path, ed.pool)) == want
    for name in ("deck.o8d", "deck.txt", "deck-builder.txt"):
        ed.new_deck()
        assert ed.edited.size == 0
        path = tmp_path / name
        monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, p=path: (str(p), "")))
        _menu_action(ed, "&Open").trigger()
        assert ed.path == path
        assert _contents(ed.deck()) == want, name
        assert d.rules() == []


def _contents(deck) -> tuple:
    return (deck.house, deck.house_card.key if deck.house_card else None,
            deck.agenda.key if deck.agenda else None,
            Counter(c.key for c in deck.plots), Counter(c.key for c in deck.cards))


def play_it(d: EditorDriver, window: TableWindow, monkeypatch, opponent_button: str = "play") -> None:
    ed = d.editor
    deck = ed.deck()
    monkeypatch.setattr(dialogs.NewGameDialog, "exec", lambda self: 1)
    d.press(getattr(ed, "play_button" if opponent_button == "play" else "goldfish_button"))
    dialog = window.new_game_dialog
    assert dialog.rows[0].deck.currentData() == str(ed.path)
    game = window.controller.game
    you = game.state.player("You")
    assert you.house == deck.house
    in_deck = Counter(game.state.cards[c].key for c in you.deck + you.hand)
    assert in_deck == Counter(c.key for c in deck.cards)
    assert Counter(game.state.cards[c].key for c in you.plot_deck) == Counter(c.key for c in deck.plots)
    other = [n for n in game.state.player_names if n != "You"][0]
    assert other in window.setup.computer
    if opponent_button == "goldfish":
        p = game.state.player(other)
        assert other == "Goldfish" and not (p.deck or p.hand or p.plot_deck)


def test_practice_deck_built_saved_reopened_and_played(qtbot, monkeypatch, tmp_path):
    window = _window(qtbot, monkeypatch)
    ed = _open_editor(window, qtbot)
    d = EditorDriver(ed, qtbot)
    agenda = d.search('t:agenda "vow of the old roads"')[0]
    d.double_click(agenda)
    assert ed.edited.agenda is agenda
    build_deck(d, "stark", "(h:stark or h:neutral) -t:plot -t:agenda -t:house", "t:plot set:practice")
    save_and_reopen(d, tmp_path, monkeypatch)
    play_it(d, window, monkeypatch)
    play_it(d, window, monkeypatch, "goldfish")


def test_core_set_deck_built_saved_reopened_and_played(qtbot, monkeypatch, tmp_path):
    if not LCG_JSON.exists():
        pytest.skip("the LCG card data (../shared/data/agot1-lcg-cards.json) is not here")
    poolmod.import_pool(LCG_JSON)
    poolmod.clear_caches()
    window = _window(qtbot, monkeypatch)
    ed = _open_editor(window, qtbot)
    d = EditorDriver(ed, qtbot)
    d.browser.pool_choice.setCurrentIndex(d.browser.pool_choice.findData("imported"))
    ed.era_choice.setCurrentIndex(ed.era_choice.findData("lcg"))
    build_deck(d, "stark", "set:core (h:stark or h:neutral) (t:character or t:location or t:attachment "
                           "or t:event)", "t:plot set:core")
    assert all(c.set == "Core" for c in ed.deck().cards + ed.deck().plots)
    save_and_reopen(d, tmp_path, monkeypatch)
    play_it(d, window, monkeypatch)


def test_a_card_dropped_on_the_deck_is_added(qtbot, monkeypatch):
    window = _window(qtbot, monkeypatch)
    ed = _open_editor(window, qtbot)
    d = EditorDriver(ed, qtbot)
    card = d.search('"Wolfswood Outrider"')[0]
    index = d.browser.proxy.mapToSource(d.browser.proxy.index(d.browser.row_of(card), 0))
    mime = d.browser.model.mimeData([index])
    for _ in range(2):
        event = QDropEvent(ed.tree.viewport().rect().center().toPointF(), Qt.DropAction.CopyAction, mime,
                           Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
        ed.tree.dropEvent(event)
    assert ed.edited.cards == {card: 2}
    assert ed.item_for(card).text(0) == "2\u00d7"


def test_a_bad_deck_file_is_one_message_and_the_deck_stays(qtbot, monkeypatch, tmp_path):
    window = _window(qtbot, monkeypatch)
    ed = _open_editor(window, qtbot)
    d = EditorDriver(ed, qtbot)
    d.double_click(d.search('"Wolfswood Outrider"')[0])
    before = _contents(ed.deck())
    told = []
    ed.tell = lambda title, message: told.append(message)
    bad = tmp_path / "bad.txt"
    bad.write_text("House: Stark\n3x Wolfswood Outrder\n", encoding="utf-8")
    assert not ed.open_path(bad)
    assert len(told) == 1 and "bad.txt:2" in told[0] and "did you mean 'Wolfswood Outrider'" in told[0]
    assert _contents(ed.deck()) == before


def test_statistics_tab_and_simulation(qtbot, monkeypatch):
    window = _window(qtbot, monkeypatch)
    ed = _open_editor(window, qtbot)
    ed.open_path(ROOT / "cards/practice/decks/stark-practice.txt")
    ed.tabs.setCurrentIndex(1)
    st = ed.stats
    assert f"{len(ed.deck().cards)} House-deck cards" in st.summary.text()
    assert st.plot_table.rowCount() == 8 and st.plot_table.item(7, 0).text() == "Average"
    st.samples.setValue(2000)
    qtbot.mouseClick(st.run_button, Qt.MouseButton.LeftButton)
    sim = st.simulation
    assert sim is not None and sim.n == 2000 and sum(sim.gold.values()) == 2000
    assert f"{sim.mean_gold:.2f} gold" in st.sim_summary.text()
    assert st.card_choice.count() == len({c.name for c in ed.deck().cards})
    assert st.seen_table.rowCount() == st.card_choice.count()
    qtbot.mouseClick(st.hand_button, Qt.MouseButton.LeftButton)
    assert "Setup hand" in st.hand_text.toPlainText()
    # a change to the deck forgets the old simulation
    ed.tabs.setCurrentIndex(0)
    d = EditorDriver(ed, qtbot)
    d.double_click(d.search('"Wolfswood Outrider"')[0])
    ed.tabs.setCurrentIndex(1)
    assert st.simulation is None


def test_browser_window_search_and_printings(qtbot):
    from app.browser import BrowserWindow

    w = BrowserWindow()
    qtbot.addWidget(w)
    d = EditorDriver(w, qtbot)
    cards = d.search("t:character h:stark cost>=4")
    assert cards and all(c.type == "character" and "stark" in c.house and c.cost >= 4 for c in cards)
    # a click on the STR header sorts by number (not text), a second click the other way
    header = w.browser.table.horizontalHeader()
    orders = []
    for _ in range(2):
        qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton,
                         pos=QPoint(header.sectionViewportPosition(4) + 5, 5))
        orders.append([c.strength for c in w.browser.visible_cards()])
    assert len(set(orders[0])) > 2
    assert {tuple(orders[0]), tuple(orders[1])} == {tuple(sorted(orders[0])), tuple(sorted(orders[0], reverse=True))}
    shown = w.browser.visible_cards()
    w.browser.table.selectRow(0)
    assert w.info.card is shown[0]
    assert w.info.printings.count() == len(w.info.pool.by_name(shown[0].name))
    # a query that cannot be read says so and keeps the list
    d.search("cost>=lots")
    assert "needs a whole number" in w.browser.status.text()
    assert w.browser.visible_cards() == shown


def test_a_fixed_deck_opens_from_the_menu_without_a_file(qtbot):
    from cards.model import CardDef, CardPool

    pool = CardPool()
    for n in range(1, 8):
        pool.add(CardDef(key=f"p{n}", name=f"Invented Plot {n}", type="plot", income=4, printings=(f"Winter G{n}",)))
    for n in range(8, 68):
        pool.add(CardDef(key=f"c{n}", name=f"Invented Reaver {n}", type="character", house=("greyjoy",), cost=2,
                         strength=2, printings=(f"Winter G{n}",)))
    ed = DeckEditor(pools={"all": pool, "practice": pool})
    qtbot.addWidget(ed)
    ed.fixed_menu.aboutToShow.emit()
    action = next(a for a in ed.fixed_menu.actions() if a.text() == "Winter Greyjoy starter")
    action.trigger()
    deck = ed.deck()
    assert (deck.house, len(deck.plots), len(deck.cards)) == ("greyjoy", 7, 60)
    assert ed.path is None and not ed.dirty
    assert [p.rule for p in ed.problems] == []
