"""The deck editor: build a deck from the card browser, see its legality live, its statistics and
charts, save it in any format Maester reads, and play it.

- Deck tab: the browser (app/browser.py) on the left; the deck in sections (House card, agenda,
  plots, characters, locations, attachments, events) in the middle — double-click, Enter or drag a
  card in, +/− change counts; the rules (tournament or casual, format, era) and the problems of
  ``cards.deck.check_deck`` below it, each naming its rule; the preview and printings on the right.
- Statistics tab: ``cards.deckstats`` drawn by app/charts.py; the setup simulation runs on demand.
- File: New, Open… (.o8d, text list, deckbuilder TXT), Save, Save as… (the same three formats).
- Play this deck: opens the New Game dialog with the deck against the computer or a goldfish.

docs/decks.md describes it for players.
"""
from __future__ import annotations

import html
import re
from collections import Counter
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QColor, QKeySequence
from PySide6.QtWidgets import (QAbstractItemView, QApplication, QCheckBox, QComboBox, QFileDialog, QGridLayout, QGroupBox,
                               QHBoxLayout, QHeaderView, QLabel, QLineEdit, QListWidget, QListWidgetItem,
                               QMainWindow, QMessageBox, QPushButton, QScrollArea, QSpinBox, QSplitter,
                               QTableWidget, QTableWidgetItem, QTabWidget, QTextBrowser,
                               QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget)

from app.browser import MIME, CardBrowser, CardInfo, card_pools
from app.charts import ICON_COLOURS, TYPE_COLOURS, Chart, empty_note
from cards.deck import MAX_QUANTITY, Deck, Problem, check_deck, format_deck, read_deck
from cards.deckstats import SEEN_STAGES, deck_stats, sample_hand, seen_rows, simulate
from cards.errors import DataError
from cards.model import HOUSE_DECK_TYPES, HOUSES, ICONS, CardDef, CardPool
from cards.sets import ERAS

SECTIONS = (("house", "House card"), ("agenda", "Agenda"), ("plots", "Plots"), ("character", "Characters"),
            ("location", "Locations"), ("attachment", "Attachments"), ("event", "Events"), ("titles", "Titles"))
FILE_FILTERS = {"o8d": "OCTGN deck (*.o8d)", "text": "Text list (*.txt)", "builder": "Deckbuilder TXT (*.txt)"}
KEY_ROLE = Qt.ItemDataRole.UserRole
SECTION_ROLE = Qt.ItemDataRole.UserRole + 1


class EditedDeck:
    """The deck being edited: a House, House card, agenda, and counts per card for plots and the
    House deck (in the order cards were added)."""

    def __init__(self, name: str = "New deck"):
        self.name = name
        self.house = ""
        self.house_card: CardDef | None = None
        self.agenda: CardDef | None = None
        self.plots: dict[CardDef, int] = {}
        self.cards: dict[CardDef, int] = {}
        self.titles: list[CardDef] = []
        """Five Kings titles the player brings (no deck rule counts them)."""
        self.octgn_game = ""

    @classmethod
    def of(cls, deck: Deck) -> "EditedDeck":
        e = cls(deck.name)
        e.house, e.house_card, e.agenda, e.octgn_game = deck.house, deck.house_card, deck.agenda, deck.octgn_game
        for c in deck.plots:
            e.plots[c] = e.plots.get(c, 0) + 1
        for c in deck.cards:
            e.cards[c] = e.cards.get(c, 0) + 1
        e.titles = list(deck.titles)
        return e

    def deck(self, source: str = "") -> Deck:
        return Deck(name=self.name or "Deck", house=self.house, house_card=self.house_card, agenda=self.agenda,
                    plots=[c for c, n in self.plots.items() for _ in range(n)],
                    cards=[c for c, n in self.cards.items() for _ in range(n)], source=source,
                    octgn_game=self.octgn_game, titles=list(self.titles))

    def add(self, card: CardDef, n: int = 1) -> str:
        """Put ``card`` where its type goes; returns the section (``house``, ``agenda``, ``plots``, type)."""
        if card.type == "house":
            self.house_card = card
            self.house = card.house[0] if card.house else "neutral"
            return "house"
        if card.type == "agenda":
            self.agenda = card
            return "agenda"
        if card.type == "title":
            if card not in self.titles:
                self.titles.append(card)
            return "titles"
        counts = self.plots if card.type == "plot" else self.cards
        counts[card] = min(MAX_QUANTITY, counts.get(card, 0) + n)
        return "plots" if card.type == "plot" else card.type

    def remove(self, card: CardDef, n: int = 1) -> None:
        if card is self.house_card:
            self.house_card = None
            return
        if card is self.agenda:
            self.agenda = None
            return
        if card in self.titles:
            self.titles.remove(card)
            return
        for counts in (self.plots, self.cards):
            if card in counts:
                counts[card] -= n
                if counts[card] <= 0:
                    del counts[card]
                return

    def count(self, card: CardDef) -> int:
        if card is self.house_card or card is self.agenda or card in self.titles:
            return 1
        return self.plots.get(card, 0) + self.cards.get(card, 0)

    @property
    def size(self) -> int:
        return sum(self.cards.values())

    @property
    def plot_count(self) -> int:
        return sum(self.plots.values())


class DeckTree(QTreeWidget):
    """The deck by section; accepts cards dragged from the browser."""

    dropped = Signal(list)

    def __init__(self):
        super().__init__()
        self.setColumnCount(4)
        self.setHeaderLabels(["#", "Card", "Cost", "Set"])
        self.setRootIsDecorated(False)
        self.setIndentation(8)
        self.setAcceptDrops(True)
        self.setDragDropMode(QAbstractItemView.DragDropMode.DropOnly)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        header = self.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.ResizeToContents)

    def mimeTypes(self):  # noqa: N802
        return [MIME]

    def dragEnterEvent(self, event) -> None:  # noqa: N802
        if event.mimeData().hasFormat(MIME):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event) -> None:  # noqa: N802
        if event.mimeData().hasFormat(MIME):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event) -> None:  # noqa: N802
        if not event.mimeData().hasFormat(MIME):
            event.ignore()
            return
        keys = bytes(event.mimeData().data(MIME)).decode("utf-8").split("\n")
        event.acceptProposedAction()
        self.dropped.emit([k for k in keys if k])


class DeckEditor(QMainWindow):
    """Decks ▸ Deck editor…. ``play`` is emitted with (deck file, opponent) where opponent is
    ``computer`` or ``goldfish``; the table window starts the game (``TableWindow.play_deck``)."""

    play = Signal(str, str)

    def __init__(self, parent: QWidget | None = None, pools: dict[str, CardPool] | None = None):
        super().__init__(parent)
        self.setWindowTitle("Maester \u2014 Deck editor")
        self.pools = pools if pools is not None else card_pools()
        self.pool: CardPool = self.pools["all"]
        self.edited = EditedDeck()
        self.path: Path | None = None
        self.fmt = "o8d"
        self.dirty = False
        self.problems: list[Problem] = []
        self.notes: list[str] = []
        self.ask = self._ask
        """``ask(title, question) -> bool`` (tests replace it)."""
        self.tell = self._tell
        """``tell(title, message)``: a warning (tests replace it)."""
        self.simulation = None
        self._build()
        self._build_menus()
        self.refresh()
        self.resize(1600, 980)

    # -- building ---------------------------------------------------------------------------
    def _build(self) -> None:
        self.tabs = QTabWidget()
        self.tabs.setObjectName("tabs")
        self.setCentralWidget(self.tabs)
        deck_tab = QSplitter()
        self.browser = CardBrowser(self.pools)
        deck_tab.addWidget(self.browser)
        deck_tab.addWidget(self._deck_panel())
        self.info = CardInfo(self.pool)
        deck_tab.addWidget(self.info)
        deck_tab.setSizes([620, 520, 420])
        self.tabs.addTab(deck_tab, "Deck")
        self.stats = StatsPanel(self)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.stats)
        self.tabs.addTab(scroll, "Statistics")
        self.tabs.currentChanged.connect(self._tab_changed)
        self.browser.activated.connect(self.add_card)
        self.browser.selected.connect(self.info.show_card)
        self.tree.dropped.connect(self._dropped)
        self.tree.currentItemChanged.connect(self._tree_current)
        self.tree.itemDoubleClicked.connect(lambda item, _col: self.change_count(+1, item))

    def _deck_panel(self) -> QWidget:
        panel = QWidget()
        box = QVBoxLayout(panel)
        box.setContentsMargins(4, 0, 4, 0)
        top = QGridLayout()
        self.name_edit = QLineEdit(self.edited.name)
        self.name_edit.setObjectName("deck-name")
        self.name_edit.textEdited.connect(self._renamed)
        top.addWidget(QLabel("Deck"), 0, 0)
        top.addWidget(self.name_edit, 0, 1, 1, 3)
        self.house_choice = QComboBox()
        self.house_choice.setObjectName("house")
        self.house_choice.addItem("(choose a House)", "")
        for h in (*HOUSES, "neutral"):
            self.house_choice.addItem(h.capitalize(), h)
        self.house_choice.activated.connect(self._house_chosen)
        top.addWidget(QLabel("House"), 1, 0)
        top.addWidget(self.house_choice, 1, 1)
        self.casual = QCheckBox("Casual")
        self.casual.setObjectName("casual")
        self.casual.setToolTip("Casual play: promotional, banned and restricted cards allowed (no DCK-05, DCK-07)")
        self.casual.toggled.connect(lambda _: self.refresh())
        top.addWidget(self.casual, 1, 2)
        self.fmt_choice = QComboBox()
        self.fmt_choice.setObjectName("format")
        for f in ("joust", "melee", "legacy"):
            self.fmt_choice.addItem(f.capitalize(), f)
        self.fmt_choice.setToolTip("The tournament format whose banned and restricted lists apply (DCK-07)")
        self.fmt_choice.currentIndexChanged.connect(lambda _: self.refresh())
        top.addWidget(self.fmt_choice, 1, 3)
        self.era_choice = QComboBox()
        self.era_choice.setObjectName("era")
        self.era_choice.addItem("Any card", None)
        for era, what in ERAS.items():
            self.era_choice.addItem(f"{era.upper()} only", era)
            self.era_choice.setItemData(self.era_choice.count() - 1, what, Qt.ItemDataRole.ToolTipRole)
        self.era_choice.currentIndexChanged.connect(lambda _: self.refresh())
        top.addWidget(QLabel("Cards"), 2, 0)
        top.addWidget(self.era_choice, 2, 1)
        box.addLayout(top)
        self.tree = DeckTree()
        self.tree.setObjectName("deck")
        box.addWidget(self.tree, 3)
        buttons = QHBoxLayout()
        self.plus = QPushButton("+")
        self.plus.setObjectName("plus")
        self.plus.setToolTip("One more copy of the selected card (+)")
        self.plus.clicked.connect(lambda: self.change_count(+1))
        self.minus = QPushButton("\u2212")
        self.minus.setObjectName("minus")
        self.minus.setToolTip("One copy fewer of the selected card (\u2212)")
        self.minus.clicked.connect(lambda: self.change_count(-1))
        self.add_button = QPushButton("Add selected card")
        self.add_button.setObjectName("add")
        self.add_button.clicked.connect(self._add_current)
        for b in (self.plus, self.minus):
            b.setFixedWidth(36)
            buttons.addWidget(b)
        buttons.addWidget(self.add_button)
        buttons.addStretch(1)
        self.play_button = QPushButton("Play this deck\u2026")
        self.play_button.setObjectName("play")
        self.play_button.clicked.connect(lambda: self.play_deck("computer"))
        self.goldfish_button = QPushButton("Goldfish\u2026")
        self.goldfish_button.setObjectName("goldfish")
        self.goldfish_button.setToolTip("Practise the deck against a seat with no cards")
        self.goldfish_button.clicked.connect(lambda: self.play_deck("goldfish"))
        buttons.addWidget(self.play_button)
        buttons.addWidget(self.goldfish_button)
        box.addLayout(buttons)
        self.verdict = QLabel()
        self.verdict.setObjectName("verdict")
        self.verdict.setWordWrap(True)
        box.addWidget(self.verdict)
        self.problem_list = QListWidget()
        self.problem_list.setObjectName("problems")
        self.problem_list.setWordWrap(True)
        self.problem_list.itemClicked.connect(self._problem_clicked)
        box.addWidget(self.problem_list, 1)
        return panel

    def _build_menus(self) -> None:
        menu = self.menuBar().addMenu("&Deck")
        menu.addAction("&New deck", QKeySequence.StandardKey.New, self.new_deck)
        menu.addAction("&Open\u2026", QKeySequence.StandardKey.Open, self.open_deck)
        self.fixed_menu = menu.addMenu("Open a &fixed deck")
        self.fixed_menu.setToolTip("The starter decks of the imported AGoTDB card data (cards.deck.fixed_decks)")
        self.fixed_menu.aboutToShow.connect(self._fill_fixed_menu)
        menu.addAction("&Save", QKeySequence.StandardKey.Save, self.save)
        menu.addAction("Save &as\u2026", QKeySequence.StandardKey.SaveAs, self.save_as)
        menu.addSeparator()
        menu.addAction("&Play this deck\u2026", lambda: self.play_deck("computer"))
        menu.addAction("&Goldfish\u2026", lambda: self.play_deck("goldfish"))
        menu.addSeparator()
        menu.addAction("&Close", QKeySequence.StandardKey.Close, self.close)
        plus = QAction(self)
        plus.setShortcuts([QKeySequence("+"), QKeySequence("=")])
        plus.triggered.connect(lambda: self.change_count(+1))
        minus = QAction(self)
        minus.setShortcuts([QKeySequence("-"), QKeySequence(Qt.Key.Key_Delete)])
        minus.triggered.connect(lambda: self.change_count(-1))
        for act in (plus, minus):
            act.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
            self.tree.addAction(act)

    # -- editing ----------------------------------------------------------------------------
    def add_card(self, card: CardDef, n: int = 1) -> None:
        """Put a card in the deck (the section its type belongs to) and re-check it."""
        section = self.edited.add(card, n)
        if section == "house":
            self.house_choice.setCurrentIndex(max(0, self.house_choice.findData(self.edited.house)))
        self._changed(select=card)

    def _add_current(self) -> None:
        card = self.browser.current_card()
        if card is not None:
            self.add_card(card)

    def _dropped(self, keys: list[str]) -> None:
        for key in keys:
            card = self.pool.get(key)
            if card is not None:
                self.add_card(card)

    def selected_card(self, item: QTreeWidgetItem | None = None) -> CardDef | None:
        item = item or self.tree.currentItem()
        key = item.data(0, KEY_ROLE) if item is not None else None
        return self.pool.get(key) if key else None

    def change_count(self, delta: int, item: QTreeWidgetItem | None = None) -> None:
        card = self.selected_card(item)
        if card is None:
            return
        if delta > 0:
            if card.type in ("house", "agenda"):
                return
            self.edited.add(card, delta)
        else:
            self.edited.remove(card, -delta)
        self._changed(select=card)

    def _house_chosen(self, _index: int) -> None:
        house = self.house_choice.currentData() or ""
        if house == self.edited.house:
            return
        self.edited.house = house
        # the pool's House card for that House, if it has one (the LCG data has none)
        cards = [c for c in self.pool if c.type == "house" and (c.house[:1] == (house,) or
                                                                 (house == "neutral" and not c.house))]
        self.edited.house_card = cards[0] if cards else None
        self._changed()

    def _renamed(self, text: str) -> None:
        self.edited.name = text.strip()
        self.dirty = True
        self._update_title()

    def _changed(self, select: CardDef | None = None) -> None:
        self.dirty = True
        self.refresh(select=select)

    # -- showing ----------------------------------------------------------------------------
    def deck(self) -> Deck:
        return self.edited.deck(str(self.path) if self.path else "")

    def refresh(self, select: CardDef | None = None) -> None:
        """Redraw the deck and its problems (and the statistics, when they are shown)."""
        deck = self.deck()
        self.problems = check_deck(deck, casual=self.casual.isChecked(), fmt=self.fmt_choice.currentData(),
                                   era=self.era_choice.currentData())
        flagged: dict[int, list[Problem]] = {}
        for p in self.problems:
            if p.card is not None:
                flagged.setdefault(id(p.card), []).append(p)
                for same in self.edited.plots | self.edited.cards:
                    if same is not p.card and same.name.casefold() == p.card.name.casefold() and \
                            p.rule in ("DCK-03", "DCK-06", "DCK-01", "DCK-07"):
                        flagged.setdefault(id(same), []).append(p)
        current = select or self.selected_card()
        self.tree.clear()
        e = self.edited
        by_type: dict[str, list[tuple[CardDef, int]]] = {t: [] for t in HOUSE_DECK_TYPES}
        for card, n in e.cards.items():
            by_type.setdefault(card.type if card.type in by_type else "character", []).append((card, n))
        chosen_item = None
        for section, label in SECTIONS:
            if section == "house":
                rows = [(e.house_card, 1)] if e.house_card else []
                title = label if e.house_card else f"{label}: none" + (
                    f" (House {e.house.capitalize()})" if e.house else "")
            elif section == "agenda":
                rows = [(e.agenda, 1)] if e.agenda else []
                title = label if e.agenda else f"{label}: none"
            elif section == "plots":
                rows = list(e.plots.items())
                title = f"{label} ({e.plot_count}/7)"
            elif section == "titles":
                if not e.titles:
                    continue
                rows = [(t, 1) for t in e.titles]
                title = label
            else:
                rows = by_type[section]
                title = f"{label} ({sum(n for _, n in rows)})"
            head = QTreeWidgetItem(["", title])
            head.setData(0, SECTION_ROLE, section)
            font = head.font(1)
            font.setBold(True)
            head.setFont(1, font)
            head.setFlags(Qt.ItemFlag.ItemIsEnabled)
            for col in range(4):
                head.setBackground(col, QColor("#efe6d2"))
            self.tree.addTopLevelItem(head)
            for card, n in sorted(rows, key=lambda r: (r[0].cost if r[0].cost is not None else -1, r[0].name)):
                cost = "X" if card.cost_x else ("" if card.cost is None else str(card.cost))
                if card.type == "plot":
                    cost = f"{card.income}/{card.initiative}/{card.claim}"
                name = ("\u25c6 " if card.unique else "") + card.name
                item = QTreeWidgetItem([f"{n}\u00d7", name, cost, card.set])
                item.setData(0, KEY_ROLE, card.key)
                item.setTextAlignment(0, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                problems = flagged.get(id(card))
                if problems:
                    for col in range(4):
                        item.setForeground(col, QColor("#b0281a"))
                    item.setToolTip(1, "\n".join(str(p) for p in problems))
                    item.setText(1, name + "  \u26a0")
                head.addChild(item)
                if current is not None and card is current:
                    chosen_item = item
        self.tree.expandAll()
        if chosen_item is not None:
            self.tree.setCurrentItem(chosen_item)
        self._show_problems(deck)
        self._update_title()
        if self.tabs.currentIndex() == 1:
            self.stats.show_deck(deck)

    def _show_problems(self, deck: Deck) -> None:
        rules = f"{self.fmt_choice.currentData()}, {'casual' if self.casual.isChecked() else 'tournament'}"
        era = self.era_choice.currentData()
        if era:
            rules += f", {era.upper()} cards only"
        shape = f"{len(deck.plots)} plots, {len(deck.cards)} House-deck cards"
        if self.problems:
            self.verdict.setText(f"<b style='color:#b0281a'>Not legal</b> ({rules}): "
                                 f"{len(self.problems)} problem{'s' if len(self.problems) != 1 else ''}; {shape}")
        else:
            self.verdict.setText(f"<b style='color:#2f6b2f'>Legal</b> ({rules}); {shape}")
        self.problem_list.clear()
        for p in self.problems:
            item = QListWidgetItem(str(p))
            item.setForeground(QColor("#8a1f12"))
            if p.card is not None:
                item.setData(KEY_ROLE, p.card.key)
            self.problem_list.addItem(item)
        for note in self.notes:
            item = QListWidgetItem("note: " + note)
            item.setForeground(QColor("#6b5a3a"))
            self.problem_list.addItem(item)

    def _problem_clicked(self, item: QListWidgetItem) -> None:
        key = item.data(KEY_ROLE)
        card = self.pool.get(key) if key else None
        if card is not None:
            self.info.show_card(card)
            for i in range(self.tree.topLevelItemCount()):
                head = self.tree.topLevelItem(i)
                for j in range(head.childCount()):
                    if head.child(j).data(0, KEY_ROLE) == key:
                        self.tree.setCurrentItem(head.child(j))

    def _tree_current(self, item, _previous) -> None:
        card = self.selected_card(item)
        if card is not None:
            self.info.show_card(card)

    def _tab_changed(self, index: int) -> None:
        if index == 1:
            self.stats.show_deck(self.deck())

    def _update_title(self) -> None:
        where = self.path.name if self.path else "not saved"
        self.setWindowTitle(f"Maester \u2014 Deck editor: {self.edited.name or 'Deck'} ({where})"
                            f"{' *' if self.dirty else ''}")

    def item_for(self, card: CardDef) -> QTreeWidgetItem | None:
        for i in range(self.tree.topLevelItemCount()):
            head = self.tree.topLevelItem(i)
            for j in range(head.childCount()):
                if head.child(j).data(0, KEY_ROLE) == card.key:
                    return head.child(j)
        return None

    # -- files ------------------------------------------------------------------------------
    def _ask(self, title: str, question: str) -> bool:
        return QMessageBox.question(self, title, question) == QMessageBox.StandardButton.Yes

    def _tell(self, title: str, message: str) -> None:
        QMessageBox.warning(self, title, message)

    def may_discard(self) -> bool:
        return not self.dirty or self.ask("Deck editor", "Discard the changes to this deck?")

    def closeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        if self.may_discard():
            event.accept()
        else:
            event.ignore()

    def new_deck(self) -> None:
        if not self.may_discard():
            return
        self.set_deck(EditedDeck(), None)

    def set_deck(self, edited: EditedDeck, path: Path | None, notes: list[str] | None = None) -> None:
        self.edited, self.path, self.notes, self.dirty = edited, path, list(notes or []), False
        self.name_edit.setText(edited.name)
        self.house_choice.setCurrentIndex(max(0, self.house_choice.findData(edited.house)))
        self.simulation = None
        self.stats.forget()
        self.refresh()

    def open_deck(self) -> None:
        if not self.may_discard():
            return
        path, _ = QFileDialog.getOpenFileName(self, "Open a deck", str(self.path.parent if self.path else ""),
                                              "Decks (*.o8d *.txt *.xml);;All files (*)")
        if path:
            self.open_path(path)

    def _fill_fixed_menu(self) -> None:
        from cards.deck import FIXED_PREFIX, fixed_decks

        self.fixed_menu.clear()
        decks = fixed_decks(self.pool)
        for fixed, _cards in decks:
            self.fixed_menu.addAction(fixed.name, lambda n=fixed.name: self.may_discard() and
                                      self.open_path(FIXED_PREFIX + n))
        if not decks:
            act = self.fixed_menu.addAction("none: import the AGoTDB card data first")
            act.setEnabled(False)

    def open_path(self, path: str | Path) -> bool:
        """Read a deck file; a bad file is one message and the current deck stays as it was."""
        try:
            deck = read_deck(str(path), self.pool)
        except DataError as err:
            self.tell("Open deck", f"This deck cannot be opened:\n{err}")
            return False
        except OSError as err:
            self.tell("Open deck", f"This deck cannot be opened:\n{path}: {err.strerror or err}")
            return False
        from cards.deck import FIXED_PREFIX

        if str(path).startswith(FIXED_PREFIX):  # a fixed deck has no file: Save asks for one
            self.set_deck(EditedDeck.of(deck), None, deck.notes)
            self.fmt = "o8d"
            return True
        self.set_deck(EditedDeck.of(deck), Path(path), deck.notes)
        self.fmt = "o8d" if Path(path).suffix.lower() in (".o8d", ".xml") else _detect_text_format(Path(path))
        return True

    def save(self) -> bool:
        if self.path is None:
            return self.save_as()
        return self.save_to(self.path, self.fmt)

    def save_as(self) -> bool:
        start = str(self.path.with_suffix("") if self.path else _slug(self.edited.name or "deck"))
        path, chosen = QFileDialog.getSaveFileName(self, "Save the deck", start, ";;".join(FILE_FILTERS.values()),
                                                   FILE_FILTERS.get(self.fmt, FILE_FILTERS["o8d"]))
        if not path:
            return False
        fmt = next((f for f, label in FILE_FILTERS.items() if label == chosen), None)
        if fmt is None:
            fmt = "o8d" if path.lower().endswith((".o8d", ".xml")) else "text"
        if not Path(path).suffix:
            path += ".o8d" if fmt == "o8d" else ".txt"
        return self.save_to(path, fmt)

    def save_to(self, path: str | Path, fmt: str = "o8d") -> bool:
        """Write the deck as ``fmt`` (``o8d``, ``text``, ``builder``); the deck's file from now on."""
        path = Path(path)
        text = format_deck(self.deck(), fmt, pool=self.pool)
        try:
            path.write_text(text, encoding="utf-8")
        except OSError as err:
            self.tell("Save deck", f"The deck was not saved:\n{path}: {err.strerror or err}\n"
                                   "Choose another folder.")
            return False
        self.path, self.fmt, self.dirty = path, fmt, False
        self._update_title()
        return True

    # -- playing ----------------------------------------------------------------------------
    def play_file(self) -> Path | None:
        """The file to start a game with: the deck's own file when saved, else a copy in the
        user's data folder (``decks/editor-<name>.o8d``)."""
        if self.path is not None and not self.dirty:
            return self.path
        from cards.pool import user_data_dir

        folder = user_data_dir() / "decks"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / f"editor-{_slug(self.edited.name or 'deck')}.o8d"
            path.write_text(format_deck(self.deck(), "o8d", pool=self.pool), encoding="utf-8")
        except OSError as err:
            self.tell("Play this deck", f"The deck could not be written for the game:\n{err}")
            return None
        return path

    def play_deck(self, opponent: str = "computer") -> None:
        if not (self.edited.plots or self.edited.cards):
            self.tell("Play this deck", "The deck is empty: add a House, plots and cards first.")
            return
        path = self.play_file()
        if path is not None:
            self.play.emit(str(path), opponent)


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-").lower() or "deck"


def _detect_text_format(path: Path) -> str:
    from cards.deck import _BUILDER_ROW

    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return "text"
    return "builder" if any(_BUILDER_ROW.match(line) for line in text.splitlines()) else "text"


class StatsPanel(QWidget):
    """The Statistics tab: charts of ``cards.deckstats.deck_stats`` and the setup simulation."""

    def __init__(self, editor: DeckEditor):
        super().__init__()
        self.editor = editor
        self.deck: Deck | None = None
        grid = QGridLayout(self)
        self.summary = QLabel()
        self.summary.setObjectName("stats-summary")
        self.summary.setWordWrap(True)
        grid.addWidget(self.summary, 0, 0, 1, 3)
        self.cost_chart = Chart("Cost curve by type")
        self.str_chart = Chart("STR per challenge icon (characters)")
        self.icon_chart = Chart("Icons and crests")
        self.trait_chart = Chart("Traits (top 12)", horizontal=True, height=260)
        self.keyword_chart = Chart("Keywords", horizontal=True, height=260)
        self.gold_chart = Chart("Gold curve: plot income vs card costs")
        grid.addWidget(self.cost_chart, 1, 0)
        grid.addWidget(self.str_chart, 1, 1)
        grid.addWidget(self.icon_chart, 1, 2)
        grid.addWidget(self.trait_chart, 2, 0)
        grid.addWidget(self.keyword_chart, 2, 1)
        grid.addWidget(self.gold_chart, 2, 2)
        plots = QGroupBox("Plot deck")
        pbox = QVBoxLayout(plots)
        self.plot_table = QTableWidget(0, 4)
        self.plot_table.setObjectName("plot-table")
        self.plot_table.setHorizontalHeaderLabels(["Plot", "Income", "Initiative", "Claim"])
        self.plot_table.verticalHeader().setVisible(False)
        self.plot_table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.plot_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.plot_table.setMinimumHeight(260)
        self.plot_table.setMaximumHeight(300)
        pbox.addWidget(self.plot_table)
        pbox.addStretch(1)
        grid.addWidget(plots, 3, 0, Qt.AlignmentFlag.AlignTop)
        sim = QGroupBox("Setup and draw simulation")
        sbox = QGridLayout(sim)
        row = QHBoxLayout()
        self.samples = QSpinBox()
        self.samples.setObjectName("samples")
        self.samples.setRange(100, 100_000)
        self.samples.setSingleStep(1000)
        self.samples.setValue(10_000)
        self.seed = QSpinBox()
        self.seed.setObjectName("seed")
        self.seed.setRange(0, 1_000_000)
        self.run_button = QPushButton("Simulate setups")
        self.run_button.setObjectName("simulate")
        self.run_button.clicked.connect(self.run_simulation)
        row.addWidget(QLabel("Samples"))
        row.addWidget(self.samples)
        row.addWidget(QLabel("Seed"))
        row.addWidget(self.seed)
        row.addWidget(self.run_button)
        row.addStretch(1)
        sbox.addLayout(row, 0, 0, 1, 2)
        self.sim_summary = QLabel("Press \u201cSimulate setups\u201d to sample setups of this deck.")
        self.sim_summary.setObjectName("sim-summary")
        self.sim_summary.setWordWrap(True)
        sbox.addWidget(self.sim_summary, 1, 0, 1, 2)
        self.setup_gold_chart = Chart("Gold spent in setup (% of games)")
        self.setup_chars_chart = Chart("Characters set up (% of games)")
        sbox.addWidget(self.setup_gold_chart, 2, 0)
        sbox.addWidget(self.setup_chars_chart, 2, 1)
        see = QHBoxLayout()
        see.addWidget(QLabel("Chance to see"))
        self.card_choice = QComboBox()
        self.card_choice.setObjectName("seen-card")
        self.card_choice.setMinimumWidth(220)
        self.card_choice.currentIndexChanged.connect(lambda _: self._show_seen())
        see.addWidget(self.card_choice, 1)
        sbox.addLayout(see, 3, 0, 1, 2)
        self.seen_chart = Chart("Chance to have seen a copy (%)", height=220)
        sbox.addWidget(self.seen_chart, 4, 0)
        self.seen_table = QTableWidget(0, 0)
        self.seen_table.setObjectName("seen-table")
        self.seen_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.seen_table.verticalHeader().setVisible(False)
        sbox.addWidget(self.seen_table, 4, 1)
        hand_row = QHBoxLayout()
        self.hand_button = QPushButton("Sample opening hand")
        self.hand_button.setObjectName("sample-hand")
        self.hand_button.clicked.connect(self.sample_opening)
        hand_row.addWidget(self.hand_button)
        hand_row.addStretch(1)
        sbox.addLayout(hand_row, 5, 0, 1, 2)
        self.hand_text = QTextBrowser()
        self.hand_text.setObjectName("hand")
        self.hand_text.setMaximumHeight(130)
        sbox.addWidget(self.hand_text, 6, 0, 1, 2)
        grid.addWidget(sim, 3, 1, 1, 2)
        self._hands = 0
        self.simulation = None

    def forget(self) -> None:
        self.simulation = None
        self._hands = 0
        self.hand_text.clear()
        self.sim_summary.setText("Press \u201cSimulate setups\u201d to sample setups of this deck.")
        for chart in (self.setup_gold_chart, self.setup_chars_chart, self.seen_chart):
            empty_note(chart, "not simulated yet")

    def show_deck(self, deck: Deck) -> None:
        if self.deck is not None and _same(self.deck, deck):
            return
        changed = self.deck is not None
        self.deck = deck
        st = deck_stats(deck)
        self.summary.setText(
            f"<b>{html.escape(deck.name)}</b>: {st.cards} House-deck cards "
            f"({', '.join(f'{n} {t}s' for t, n in st.types.items()) or 'none'}), {st.plots} plots. "
            f"Average cost {st.average_cost:.2f} (characters, locations, attachments); "
            f"{st.penalty_cards} card{'s' if st.penalty_cards != 1 else ''} of another House (+2 gold). "
            f"Plots average income {st.plot_averages['income']:.2f}, initiative "
            f"{st.plot_averages['initiative']:.2f}, claim {st.plot_averages['claim']:.2f}.")
        costs = sorted({k for c in st.cost_curve.values() for k in c if k != "X"})
        labels = [str(k) for k in range(0, (max(costs) if costs else 0) + 1)]
        if any("X" in c for c in st.cost_curve.values()):
            labels.append("X")
        if st.cards:
            self.cost_chart.bars(labels, {t + "s": [st.cost_curve[t][int(x) if x != "X" else "X"] for x in labels]
                                          for t in HOUSE_DECK_TYPES if st.cost_curve[t]},
                                 {t + "s": TYPE_COLOURS[t] for t in HOUSE_DECK_TYPES}, stacked=True)
        else:
            empty_note(self.cost_chart, "no cards yet")
        strengths = sorted({s for c in st.strength_by_icon.values() for s in c if s != "X"})
        has_x = any("X" in c for c in st.strength_by_icon.values())
        if strengths or has_x:
            s_labels = [str(s) for s in range(min(strengths), max(strengths) + 1)] if strengths else []
            s_labels += ["X"] if has_x else []
            self.str_chart.bars(s_labels, {i: [st.strength_by_icon[i][int(s) if s != "X" else "X"] for s in s_labels]
                                           for i in ICONS},
                                ICON_COLOURS)
        else:
            empty_note(self.str_chart, "no characters yet")
        icon_labels = [i.capitalize() for i in ICONS] + [c.capitalize() for c in st.crests]
        if st.icons or st.crests:
            self.icon_chart.bars(icon_labels, {"cards": [st.icons[i] for i in ICONS] + list(st.crests.values())})
        else:
            empty_note(self.icon_chart, "no icons or crests yet")
        top = st.traits.most_common(12)
        if top:
            self.trait_chart.bars([t for t, _ in top], {"cards": [n for _, n in top]})
        else:
            empty_note(self.trait_chart, "no traits yet")
        kws = st.keywords.most_common(12)
        if kws:
            self.keyword_chart.bars([k.capitalize() for k, _ in kws], {"cards": [n for _, n in kws]})
        else:
            empty_note(self.keyword_chart, "no keywords yet")
        card_costs = Counter(c.cost for c in deck.cards
                             if c.type in ("character", "location", "attachment") and not c.cost_x and c.cost is not None)
        top_gold = max([*st.gold_curve, *card_costs, 0])
        if st.gold_curve or card_costs:
            g_labels = [str(g) for g in range(0, top_gold + 1)]
            total_cards = sum(card_costs.values()) or 1
            self.gold_chart.bars(g_labels, {
                "plots (income)": [100 * st.gold_curve[g] / max(1, st.plots) for g in range(top_gold + 1)],
                "cards (cost)": [100 * card_costs[g] / total_cards for g in range(top_gold + 1)]},
                {"plots (income)": "#b58b25", "cards (cost)": "#8a5a2b"}, value_format="{:.0f}%")
            self.gold_chart.getAxis("left").setLabel("% of plots / of cards")
        else:
            empty_note(self.gold_chart, "no plots or costed cards yet")
        self.plot_table.setRowCount(len(st.plot_rows) + (1 if st.plot_rows else 0))
        for r, row in enumerate(st.plot_rows):
            for c, v in enumerate((row.name, row.income, row.initiative, row.claim)):
                self.plot_table.setItem(r, c, _cell(v))
        if st.plot_rows:
            r = len(st.plot_rows)
            avg = st.plot_averages
            for c, v in enumerate(("Average", f"{avg['income']:.2f}", f"{avg['initiative']:.2f}",
                                   f"{avg['claim']:.2f}")):
                item = _cell(v)
                font = item.font()
                font.setBold(True)
                item.setFont(font)
                self.plot_table.setItem(r, c, item)
        if changed or self.simulation is None:
            self.forget()

    def run_simulation(self) -> None:
        deck = self.deck or self.editor.deck()
        self.deck = deck
        if not deck.cards:
            self.sim_summary.setText("The House deck is empty: nothing to simulate.")
            return
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            sim = simulate(deck, n=self.samples.value(), seed=self.seed.value(), rounds=5)
        finally:
            QApplication.restoreOverrideCursor()
        self.simulation = sim
        self.sim_summary.setText(
            f"{sim.n:,} sampled setups (seed {sim.seed}): on average <b>{sim.mean_gold:.2f} gold</b> spent and "
            f"<b>{sim.mean_characters:.2f} characters</b> set up; {100 * sim.share(sim.gold, 5):.1f}% of setups "
            f"use all 5 gold, {100 * sim.share(sim.characters, 0):.1f}% set up no character. "
            "Setup: the most gold, then the most characters (SET-02..06); then draw back to 7 (SET-09) "
            "and 2 cards per draw phase (DRW-01).")
        golds = list(range(0, 6))
        self.setup_gold_chart.bars([str(g) for g in golds], {"setups": [100 * sim.share(sim.gold, g) for g in golds]},
                                   {"setups": "#b58b25"}, value_format="{:.1f}")
        most = max([*sim.characters, 0])
        chars = list(range(0, most + 1))
        self.setup_chars_chart.bars([str(c) for c in chars],
                                    {"setups": [100 * sim.share(sim.characters, c) for c in chars]},
                                    {"setups": "#8a5a2b"}, value_format="{:.1f}")
        rows = seen_rows(sim, deck)
        self.card_choice.blockSignals(True)
        self.card_choice.clear()
        for title, copies, _ in rows:
            self.card_choice.addItem(f"{title} ({copies}\u00d7)", title)
        self.card_choice.blockSignals(False)
        stages = [*SEEN_STAGES, *(f"round {r}" for r in range(1, sim.rounds + 1))]
        self.seen_table.setColumnCount(1 + len(stages))
        self.seen_table.setHorizontalHeaderLabels(["Card", *stages])
        self.seen_table.setRowCount(len(rows))
        for r, (title, copies, chances) in enumerate(rows):
            self.seen_table.setItem(r, 0, _cell(f"{title} ({copies}\u00d7)"))
            for c, p in enumerate(chances):
                self.seen_table.setItem(r, c + 1, _cell(f"{100 * p:.1f}%"))
        self.seen_table.resizeColumnsToContents()
        self._show_seen()

    def _show_seen(self) -> None:
        sim = self.simulation
        if sim is None or self.card_choice.count() == 0:
            return
        title = self.card_choice.currentData()
        stages = ["hand", "setup", *(f"R{r}" for r in range(1, sim.rounds + 1))]
        self.seen_chart.lines(stages, {title: sim.seen[title]}, percent=True)

    def sample_opening(self) -> None:
        deck = self.deck or self.editor.deck()
        if not deck.cards:
            self.hand_text.setPlainText("The House deck is empty.")
            return
        seed = self.seed.value() * 1000 + self._hands
        self._hands += 1
        o = sample_hand(deck, seed)
        e = html.escape

        def names(cards):
            return ", ".join(e(c.name) for c in cards) or "nothing"

        self.hand_text.setHtml(
            f"<b>Setup hand</b> (sample {self._hands}): {names(o.hand)}<br>"
            f"<b>Set up</b> for {o.gold} gold ({o.characters} character{'s' if o.characters != 1 else ''}): "
            f"{names(o.setup)}<br><b>Drawn back up to 7</b>: {names(o.drawn)}<br>"
            f"<b>Hand for round 1</b>: {names(o.final_hand)}")


def _cell(value) -> QTableWidgetItem:
    item = QTableWidgetItem(str(value))
    if not isinstance(value, str) or re.fullmatch(r"[\d.%]+", str(value)):
        item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
    return item


def _same(a: Deck, b: Deck) -> bool:
    return (a.name, a.house, a.agenda, [id(c) for c in a.plots], [id(c) for c in a.cards], a.titles) == \
        (b.name, b.house, b.agenda, [id(c) for c in b.plots], [id(c) for c in b.cards], b.titles)

