"""The card browser: every card Maester knows (the practice set and the imported pools), a search
box in the search language of ``cards/search.py``, sortable columns, the card preview and every
printing of the selected card. The deck editor (app/deck_editor.py) embeds it; Decks ▸ Card
browser… opens it on its own.
"""
from __future__ import annotations

from PySide6.QtCore import (QAbstractTableModel, QMimeData, QModelIndex, QSortFilterProxyModel, Qt, QTimer,
                            Signal)
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (QAbstractItemView, QComboBox, QHBoxLayout, QHeaderView, QLabel, QLineEdit,
                               QListWidget, QListWidgetItem, QMainWindow, QSplitter, QTableView, QVBoxLayout,
                               QWidget)

from app.card_item import CardFace
from app.preview import CardPreview, describe
from cards.model import ICONS, CardDef, CardPool
from cards.search import QueryError, compile_query
from engine.automation import card_status

MIME = "application/x-maester-card"
"""Drag payload: the card's key (utf-8)."""

COLUMNS = ("Name", "Type", "House", "Cost", "STR", "Icons", "Plot", "Status", "Traits", "Set")
"""``Plot``: a plot's income/initiative/claim."""
STATUS_LABELS = {"automated": "automated", "partial": "partial", "manual": "by hand"}
STATUS_COLOURS = {"automated": "#2f6b2f", "partial": "#8a6100", "manual": "#9a2a1e"}

POOLS = {"all": "All cards", "practice": "Practice set", "imported": "Imported cards"}


def card_pools() -> dict[str, CardPool]:
    """The pools the browser offers: all, the practice set, the imported cards (if any)."""
    from cards.errors import DataError
    from cards.pool import default_pool, imported_pool, practice_pool

    pools = {"practice": practice_pool()}
    try:
        imported = imported_pool()
    except DataError:
        imported = None
    if imported is not None and len(imported):
        pools["imported"] = imported
    try:
        pools["all"] = default_pool()
    except DataError:
        pools["all"] = pools["practice"]
    return {k: pools[k] for k in POOLS if k in pools}


def _icons(card: CardDef) -> str:
    return "".join(i[0].upper() for i in ICONS if i in card.icons)


def _cost(card: CardDef):
    return "X" if card.cost_x else card.cost


class CardTableModel(QAbstractTableModel):
    """Cards as rows; ``Qt.UserRole`` is the sort key, ``Qt.UserRole + 1`` the CardDef."""

    CARD_ROLE = Qt.ItemDataRole.UserRole + 1

    def __init__(self, cards: list[CardDef] | None = None):
        super().__init__()
        self.cards: list[CardDef] = list(cards or [])

    def set_cards(self, cards: list[CardDef]) -> None:
        self.beginResetModel()
        self.cards = list(cards)
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: N802 (Qt's name)
        return 0 if parent.isValid() else len(self.cards)

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: N802
        return len(COLUMNS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        return None

    def flags(self, index):
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsDragEnabled

    def mimeTypes(self):  # noqa: N802
        return [MIME]

    def mimeData(self, indexes):  # noqa: N802
        data = QMimeData()
        keys = list(dict.fromkeys(self.cards[i.row()].key for i in indexes if i.isValid()))
        data.setData(MIME, "\n".join(keys).encode("utf-8"))
        data.setText("\n".join(self.cards[i.row()].name for i in indexes[:1]))
        return data

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        card = self.cards[index.row()]
        col = COLUMNS[index.column()]
        if role == self.CARD_ROLE:
            return card
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(card, col)
        if role == Qt.ItemDataRole.UserRole:
            return self._sort_key(card, col)
        if role == Qt.ItemDataRole.ForegroundRole and col == "Status":
            return QColor(STATUS_COLOURS[card_status(card)])
        if role == Qt.ItemDataRole.ToolTipRole and col == "Name":
            return card.key
        if role == Qt.ItemDataRole.TextAlignmentRole and col in ("Cost", "STR", "Plot"):
            return int(Qt.AlignmentFlag.AlignCenter)
        return None

    @staticmethod
    def _text(card: CardDef, col: str) -> str:
        if col == "Name":
            return ("\u25c6 " if card.unique else "") + card.name
        if col == "Type":
            return card.type
        if col == "House":
            return "/".join(h.capitalize() for h in card.house) or ("Neutral" if card.type not in ("plot", "agenda")
                                                                    else "")
        if col == "Cost":
            cost = _cost(card)
            return "" if cost is None else str(cost)
        if col == "Plot":
            return f"{card.income}/{card.initiative}/{card.claim}" if card.type == "plot" else ""
        if col == "STR":
            if card.type != "character" or card.strength is None:
                return ""
            return "X" if card.strength_x else str(card.strength)
        if col == "Icons":
            return _icons(card)
        if col == "Traits":
            return ". ".join(card.traits)
        if col == "Set":
            return card.set + (f" #{card.number}" if card.number is not None else "")
        return STATUS_LABELS[card_status(card)]

    @staticmethod
    def _sort_key(card: CardDef, col: str):
        if col == "Plot":
            return card.income * 10000 + card.initiative * 100 + card.claim if card.type == "plot" else -1
        if col == "Cost":
            return -1 if card.cost is None else (99 if card.cost_x else card.cost)
        if col == "STR":
            if card.strength is None or card.type != "character":
                return -1
            return 99 if card.strength_x else card.strength
        if col == "Set":
            return f"{card.set}\x00{card.number or 0:05d}"
        return CardTableModel._text(card, col).removeprefix("\u25c6 ").casefold()


class _SortProxy(QSortFilterProxyModel):
    def lessThan(self, left, right) -> bool:  # noqa: N802
        a, b = left.data(Qt.ItemDataRole.UserRole), right.data(Qt.ItemDataRole.UserRole)
        if type(a) is not type(b):
            return str(a) < str(b)
        return a < b


class CardBrowser(QWidget):
    """Search box, pool choice and the sortable card table. ``selected`` fires with the current
    card; ``activated`` on a double-click or Enter (the editor adds the card)."""

    selected = Signal(object)
    activated = Signal(object)

    def __init__(self, pools: dict[str, CardPool] | None = None):
        super().__init__()
        self.pools = pools if pools is not None else card_pools()
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        self.query = QLineEdit()
        self.query.setObjectName("search")
        self.query.setPlaceholderText('Search: t:character h:stark cost>=3 k:deadly tr:knight i:military '
                                      '"exact name" text:kill is:unique auto:yes')
        self.query.setClearButtonEnabled(True)
        row.addWidget(self.query, 1)
        self.pool_choice = QComboBox()
        self.pool_choice.setObjectName("pool")
        for key in self.pools:
            self.pool_choice.addItem(POOLS[key], key)
        self.pool_choice.setCurrentIndex(max(0, self.pool_choice.findData("all")))
        row.addWidget(self.pool_choice)
        box.addLayout(row)
        self.status = QLabel()
        self.status.setObjectName("search-status")
        box.addWidget(self.status)
        self.model = CardTableModel()
        self.proxy = _SortProxy()
        self.proxy.setSourceModel(self.model)
        self.table = QTableView()
        self.table.setObjectName("cards")
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(-1, Qt.SortOrder.AscendingOrder)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setDragEnabled(True)
        self.table.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.setAlternatingRowColors(True)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(False)
        for col, width in zip(range(len(COLUMNS)), (190, 70, 80, 40, 36, 40, 50, 74, 120, 130)):
            self.table.setColumnWidth(col, width)
        box.addWidget(self.table, 1)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(150)
        self._timer.timeout.connect(self.refresh)
        self.query.textChanged.connect(lambda _: self._timer.start())
        self.query.returnPressed.connect(self.refresh)
        self.pool_choice.currentIndexChanged.connect(lambda _: self.refresh())
        self.table.selectionModel().currentRowChanged.connect(self._current_changed)
        self.table.doubleClicked.connect(self._double_clicked)
        self.refresh()

    @property
    def pool(self) -> CardPool:
        return self.pools[self.pool_choice.currentData() or "all"]

    def set_query(self, text: str) -> None:
        """Type ``text`` as the search and apply it now."""
        self.query.setText(text)
        self.refresh()

    def refresh(self) -> None:
        self._timer.stop()
        text = self.query.text()
        try:
            pred = compile_query(text, card_status)
        except QueryError as err:
            self.status.setText(f"<span style='color:#9a2a1e'>{_esc(err.message)} (at character "
                                f"{err.position + 1}){' — ' + _esc(err.hint) if err.hint else ''}</span>")
            self.status.setToolTip(err.hint)
            self.query.setStyleSheet("QLineEdit { background: #fbe3df; }")
            return  # the list stays as it was: a half-typed query loses nothing
        self.query.setStyleSheet("")
        cards = [c for c in self.pool if pred(c)]
        self.model.set_cards(cards)
        self.status.setText(f"{len(cards)} of {len(self.pool)} cards")
        self.status.setToolTip("")

    def visible_cards(self) -> list[CardDef]:
        """The cards in the table, in the order shown."""
        return [self.proxy.index(r, 0).data(CardTableModel.CARD_ROLE) for r in range(self.proxy.rowCount())]

    def row_of(self, card: CardDef) -> int:
        for r in range(self.proxy.rowCount()):
            if self.proxy.index(r, 0).data(CardTableModel.CARD_ROLE) is card:
                return r
        return -1

    def current_card(self) -> CardDef | None:
        index = self.table.currentIndex()
        return index.data(CardTableModel.CARD_ROLE) if index.isValid() else None

    def _current_changed(self, current, _previous) -> None:
        card = current.data(CardTableModel.CARD_ROLE) if current.isValid() else None
        if card is not None:
            self.selected.emit(card)

    def _double_clicked(self, index) -> None:
        card = index.data(CardTableModel.CARD_ROLE)
        if card is not None:
            self.activated.emit(card)

    def keyPressEvent(self, event) -> None:  # noqa: N802
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.table.hasFocus():
            card = self.current_card()
            if card is not None:
                self.activated.emit(card)
                return
        super().keyPressEvent(event)


def _esc(text: str) -> str:
    import html

    return html.escape(text or "")


class CardInfo(QWidget):
    """The preview of a card and a list of every printing of its title in the pool."""

    chosen = Signal(object)

    def __init__(self, pool: CardPool):
        super().__init__()
        self.pool = pool
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        self.preview = CardPreview()
        box.addWidget(self.preview, 4)
        box.addWidget(QLabel("<b>Printings</b> (click one to see it)"))
        self.printings = QListWidget()
        self.printings.setObjectName("printings")
        self.printings.setMaximumHeight(110)
        self.printings.itemClicked.connect(self._clicked)
        box.addWidget(self.printings, 1)
        self.card: CardDef | None = None

    def show_card(self, card: CardDef | None) -> None:
        self.card = card
        if card is None:
            self.preview.clear()
            self.printings.clear()
            return
        face = CardFace.of(card)
        text = describe(face)
        status = card_status(card)
        text += (f"<br><span style='color:{STATUS_COLOURS[status]}'>Engine: "
                 f"{ {'automated': 'plays this card by itself', 'partial': 'plays part of this card', 'manual': 'this text is played by hand'}[status]}</span>")
        self.preview.show_card(face, text)
        self.printings.blockSignals(True)
        self.printings.clear()
        for other in self.pool.by_name(card.name) or [card]:
            where = other.set or "no set"
            if other.number is not None:
                where += f" #{other.number}"
            extra = f" — also {', '.join(other.printings)}" if other.printings else ""
            item = QListWidgetItem(f"{where} ({other.key}, {other.type}){extra}")
            item.setData(Qt.ItemDataRole.UserRole, other.key)
            self.printings.addItem(item)
            if other is card:
                item.setSelected(True)
        self.printings.blockSignals(False)

    def _clicked(self, item: QListWidgetItem) -> None:
        card = self.pool.get(item.data(Qt.ItemDataRole.UserRole))
        if card is not None:
            self.show_card(card)
            self.chosen.emit(card)


class BrowserWindow(QMainWindow):
    """Decks ▸ Card browser…: the browser and the card preview side by side."""

    def __init__(self, parent: QWidget | None = None, pools: dict[str, CardPool] | None = None):
        super().__init__(parent)
        self.setWindowTitle("Maester \u2014 Card browser")
        self.browser = CardBrowser(pools)
        self.info = CardInfo(self.browser.pools["all"])
        split = QSplitter()
        split.addWidget(self.browser)
        split.addWidget(self.info)
        split.setSizes([880, 420])
        self.setCentralWidget(split)
        self.browser.selected.connect(self.info.show_card)
        self.resize(1300, 800)
