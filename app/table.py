"""The table: a QGraphicsScene drawn from the engine state, and the view that shows it.

Every seat has its House card, agenda, plots (deck, revealed, used), House
deck, discard and dead piles, a characters row, a locations row, its hand and
its gold. The viewer's seat is at the bottom with its hand face up; the other
seats are above, their hands as face-down piles.

``TableScene.sync()`` redraws from ``game.state`` after every change: items
are reused by card id (so hover and caches survive), across viewer changes too
(a hand the table stops showing keeps its items hidden and blank), moved to
where the state says, and repainted only when what they show changed; card
pictures come from ``card_item.PICTURES``. Gestures on items come back here and
go to the controller.
"""
from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QPainter, QPen, QPixmapCache, QRadialGradient, QTransform
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene, QGraphicsView, QMenu, QWidget

from app.card_item import CARD_H, CARD_W, CardFace, CardImages, CardItem, PileFace, PileItem, card_font
from engine import manual
from engine.wording import for_players

SCENE_W = 1640
MARGIN = 12
SLOT = CARD_W + 10
HEADER_H = 30
ROW_H = {"characters": CARD_H + 26, "locations": CARD_H + 20, "hand": CARD_H + 20, "in_play": CARD_H + 26}
CENTER_H = 34
ATTACH_TUCK = 16
"""How far an attachment peeks out above its host (its title bar shows)."""
ATTACH_ROOM = 20
"""The room above a row's cards that all of a host's attachments share."""
PIXMAP_CACHE_KB = 96 * 1024
MINI = 0.45
MINI_SLOT = round(CARD_W * MINI) + 8

ROW_LABELS = {"characters": "Characters", "locations": "Locations", "hand": "Hand", "in_play": "In play"}
PILE_LABELS = {"house": "House", "agenda": "Agenda", "revealed_plot": "Plot", "plot_deck": "Plot deck",
               "used_plots": "Used plots", "deck": "Deck", "discard": "Discard", "dead": "Dead", "hand": "Hand"}


class ZoneItem(QGraphicsItem):
    """A row of the table (characters, locations, hand): a drop target with a label."""

    def __init__(self, target: tuple[str, str]):
        super().__init__()
        self.target = target
        self.rect = QRectF()
        self.highlight = False
        self.setZValue(-10)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def set_rect(self, rect: QRectF) -> None:
        if rect != self.rect:
            self.prepareGeometryChange()
            self.rect = rect

    def set_highlight(self, on: bool) -> None:
        if on != self.highlight:
            self.highlight = on
            self.update()

    def boundingRect(self) -> QRectF:
        return self.rect

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(QColor(255, 230, 160, 200) if self.highlight else QColor(255, 255, 255, 40),
                            3 if self.highlight else 1))
        painter.setBrush(QColor(255, 255, 255, 38 if self.highlight else 14))
        painter.drawRoundedRect(self.rect, 8, 8)
        painter.setPen(QColor(255, 255, 255, 110))
        painter.setFont(card_font(12, bold=True))
        # Top right: cards fill a row from the left, so the label stays readable longest there.
        painter.drawText(self.rect.adjusted(8, 3, -10, 0), Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop,
                         ROW_LABELS[self.target[1]].upper())


@dataclass(frozen=True)
class SeatInfo:
    """A player's counters as the seat header shows them."""

    name: str
    house: str
    power: int
    gold: int
    income: int
    initiative: int
    claim: int
    drawn: int
    hand: int
    first_player: bool
    deciding: bool
    computer: bool
    eliminated: bool
    viewer: bool
    gold_on_cards: int = 0
    """Gold tokens on cards he may spend as if in his pool (Tywin Lannister)."""


class SeatHeader(QGraphicsItem):
    """The strip above a seat: name, House, first-player marker, power, gold, income,
    initiative, claim and the draw cap counter (drawn this round / 3)."""

    def __init__(self, name: str):
        super().__init__()
        self.name = name
        self.rect = QRectF()
        self.info: SeatInfo | None = None
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def set_info(self, rect: QRectF, info: SeatInfo) -> None:
        if rect != self.rect:
            self.prepareGeometryChange()
            self.rect = rect
        if info != self.info:
            self.info = info
            self.update()

    def boundingRect(self) -> QRectF:
        return self.rect

    def paint(self, painter: QPainter, option, widget=None) -> None:
        info = self.info
        if info is None:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(255, 205, 60, 215) if info.deciding else QColor(0, 0, 0, 120))
        painter.drawRoundedRect(self.rect, 6, 6)
        ink = QColor("#1c1408") if info.deciding else QColor("#f5ecd6")
        r = self.rect.adjusted(10, 0, -10, 0)
        x = r.left()

        def put(text: str, px: float, bold: bool = False, colour: QColor | None = None, gap: float = 18) -> None:
            nonlocal x
            font = card_font(px, bold=bold)
            painter.setFont(font)
            painter.setPen(colour or ink)
            width = painter.fontMetrics().horizontalAdvance(text)
            painter.drawText(QRectF(x, r.top(), width + 2, r.height()), Qt.AlignmentFlag.AlignVCenter, text)
            x += width + gap

        if info.first_player:
            put("\u2605 FIRST PLAYER", 13, True, QColor("#7a1414") if info.deciding else QColor("#ffd35c"))
        who = info.name + (" (computer)" if info.computer else "") + (" \u2014 you" if info.viewer else "")
        put(who, 16, True, gap=10)
        put(info.house.capitalize(), 13, gap=24)
        if info.eliminated:
            put("ELIMINATED", 13, True, QColor("#b00"))
        put(f"Power {info.power}/15", 15, True)
        gold = f"Gold {info.gold}" + (f" +{info.gold_on_cards} on cards" if info.gold_on_cards else "")
        put(gold, 15, True, QColor("#7a5a00") if info.deciding else QColor("#ffd35c"))
        put(f"Income {info.income}", 13)
        put(f"Initiative {info.initiative}", 13)
        put(f"Claim {info.claim}", 13)
        put(f"Draws {info.drawn}/3", 13)
        put(f"Hand {info.hand}", 13)
        if info.deciding:
            painter.setFont(card_font(13, bold=True))
            painter.setPen(ink)
            painter.drawText(r, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight, "\u25b6 DECIDING")

    def contextMenuEvent(self, event) -> None:
        self.scene().gesture_seat_menu(self.name, event.screenPos())


class CenterStrip(QGraphicsItem):
    """Between the seats: the challenge in progress (type, sides, STR), or the round and phase."""

    def __init__(self):
        super().__init__()
        self.rect = QRectF()
        self.lines: tuple[str, str] = ("", "")
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def set_text(self, rect: QRectF, main: str, side: str) -> None:
        if rect != self.rect:
            self.prepareGeometryChange()
            self.rect = rect
        if (main, side) != self.lines:
            self.lines = (main, side)
            self.update()

    def boundingRect(self) -> QRectF:
        return self.rect

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(0, 0, 0, 90))
        painter.drawRoundedRect(self.rect, 8, 8)
        painter.setPen(QColor("#ffe7a8"))
        painter.setFont(card_font(18, bold=True))
        painter.drawText(self.rect.adjusted(14, 0, -14, 0), Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
                         self.lines[0])
        painter.setPen(QColor("#f5ecd6"))
        painter.setFont(card_font(14))
        painter.drawText(self.rect.adjusted(14, 0, -14, 0), Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight,
                         self.lines[1])


class TableScene(QGraphicsScene):
    """The whole table for one game, redrawn from the engine state by ``sync()``."""

    card_hovered = Signal(object)
    """A card id under the mouse (None when it leaves)."""

    def __init__(self, controller, images: CardImages | None = None):
        super().__init__()
        self.controller = controller
        self.images = images or CardImages()
        # A bound method, not a lambda holding the scene: the loader is the window's and outlives
        # every game; ``release`` disconnects it when the next game replaces this table.
        self.images.loaded.connect(self._image_loaded)
        self.cards: dict[int, CardItem] = {}
        """The card items on the table now, by card id."""
        self._spare: dict[int, CardItem] = {}
        """Items of cards in a hand the table does not show now (another seat's hand in hotseat): kept
        hidden and blank (no face) for when that hand is shown again, so a viewer change reuses them."""
        self.piles: dict[tuple[str, str], PileItem] = {}
        self.zones: dict[tuple[str, str], ZoneItem] = {}
        self.headers: dict[str, SeatHeader] = {}
        self.center = CenterStrip()
        self.addItem(self.center)
        self.hover_id: int | None = None
        self._drop_hint: QGraphicsItem | None = None
        self._dragging = False
        self.menu: QMenu | None = None
        """The context menu open now (closed when the seat changes)."""
        self.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.BspTreeIndex)

    # -- drawing from the state ---------------------------------------------
    def _image_loaded(self, *_) -> None:
        self.sync()

    def release(self) -> None:
        """This table is being replaced (New game, Open, undo): stop listening to the window's image
        loader, so nothing outside the old table keeps it (and its controller and game) alive."""
        try:
            self.images.loaded.disconnect(self._image_loaded)
        except (RuntimeError, TypeError):
            pass  # already disconnected

    @property
    def game(self):
        return self.controller.game

    def seat_order(self) -> list[str]:
        """Top to bottom: the other seats, then the viewer's seat at the bottom."""
        names = self.game.state.player_names
        viewer = self.controller.viewer if self.controller.viewer in names else names[0]
        i = names.index(viewer)
        after = names[i + 1:] + names[:i]  # clockwise from the viewer's left
        return list(reversed(after)) + [viewer]

    def face(self, cid: int, *, marks: tuple[str, ...] = ()) -> CardFace:
        """How card ``cid`` looks now to the seat at the screen (current STR, icons and keywords in play,
        power, kneeling...). A card the seat may not see (``engine.visibility.may_see``) is a back that
        carries nothing of the card: no key, no name, no text."""
        g = self.game
        c = g.card(cid)
        if not self.controller.may_see(cid):
            return CardFace(key="", name="", type="back", hidden=True, kneeling=c.kneeling, power=c.power,
                            facedown=c.facedown, moribund=c.moribund, duplicates=len(c.duplicates), marks=marks)
        d = g.defn(cid)
        current = {}
        if c.zone in ("in_play", "attached"):
            # Derived values cost the engine a pass over constant abilities: ask only what is drawn.
            if d.type == "character":
                current = dict(strength=g.strength(cid), icons=frozenset(g.icons(cid)))
            current["keywords"] = tuple(sorted(g.keywords(cid)))
        current["by_hand"] = manual.is_by_hand(g, cid)
        current["tokens"] = tuple(sorted(c.tokens.items()))
        current["note"] = c.note
        return CardFace.of(d, power=c.power, kneeling=c.kneeling, facedown=c.facedown, moribund=c.moribund,
                           duplicates=len(c.duplicates), marks=marks, **current)

    def _image(self, face: CardFace):
        return None if face.hidden else self.images.get(face.key, face.name)

    def sync(self) -> None:
        """Redraw the table from the engine state (called after every answer or free move)."""
        g = self.game
        st = g.state
        ctl = self.controller
        seen_cards: set[int] = set()
        seen_piles: set[tuple[str, str]] = set()
        seen_zones: set[tuple[str, str]] = set()
        order = self.seat_order()
        decision = ctl.decision
        deciding = decision.player if decision is not None else None
        eligible = set(ctl.eligible_cards())
        selected = set(ctl.selection)
        marks = self._challenge_marks()
        compact = len(order) > 2
        y = MARGIN
        for i, name in enumerate(order):
            is_viewer = i == len(order) - 1
            if is_viewer:
                y += CENTER_H + 8
                self.center.set_text(QRectF(MARGIN, y - CENTER_H - 6, SCENE_W - 2 * MARGIN, CENTER_H),
                                     *self._center_text())
            p = st.player(name)
            self._header(name, QRectF(MARGIN, y, SCENE_W - 2 * MARGIN, HEADER_H), deciding, is_viewer)
            y += HEADER_H + 4
            if is_viewer:
                layout = self._viewer_layout(y)
            elif compact:
                layout = self._single_layout(y)
            else:
                layout = self._double_layout(y)
            rows, piles, height = layout
            hide_hand = not is_viewer or ctl.hands_hidden  # others' hands are piles; faces: may_see
            for zone, rect in rows.items():
                key = (name, zone)
                seen_zones.add(key)
                item = self.zones.get(key)
                if item is None:
                    item = self.zones[key] = ZoneItem(key)
                    self.addItem(item)
                item.set_rect(rect)
                if zone == "hand":
                    cards = [(cid, []) for cid in p.hand]
                else:
                    cards = self._row_cards(name, zone)
                for cid in self._place_row(cards, rect):
                    seen_cards.add(cid)
                for cid, _ in cards:
                    c = g.card(cid)
                    face = self.face(cid, marks=marks.get(cid, ()))
                    hidden = face.hidden
                    self.cards[cid].set_state(face, self._image(face), cid in selected and not hidden,
                                              cid in eligible and not hidden)
                    for aid in c.attachments:
                        aface = self.face(aid)
                        self.cards[aid].set_state(aface, self._image(aface), aid in selected and not aface.hidden,
                                                  aid in eligible and not aface.hidden)
                        seen_cards.add(aid)
            for zone, (pos, scale) in piles.items():
                key = (name, zone)
                seen_piles.add(key)
                item = self.piles.get(key)
                if item is None:
                    item = self.piles[key] = PileItem(key, scale)
                    self.addItem(item)
                item.set_scale(scale)
                item.setPos(round(pos.x()), round(pos.y()))
                pile = self._pile(name, zone, hide_hand)
                image = self.images.get(pile.top.key, pile.top.name) if pile.top and not pile.top.hidden else None
                item.set_pile(pile, image)
            y += height + 10
        for cid in [k for k in self.cards if k not in seen_cards]:
            self._put_aside(cid)
        for cid in [k for k in self._spare if k not in st.cards or st.cards[k].zone != "hand"]:
            self.removeItem(self._spare.pop(cid))  # no longer in a hand: its item goes
        for store, seen in ((self.piles, seen_piles), (self.zones, seen_zones)):
            for key in [k for k in store if k not in seen]:
                self.removeItem(store.pop(key))
        self.setSceneRect(0, 0, SCENE_W, y + MARGIN - 10)
        if self.hover_id is not None and self.hover_id not in seen_cards:
            self.hover_id = None

    def _header(self, name: str, rect: QRectF, deciding: str | None, is_viewer: bool) -> None:
        g, ctl = self.game, self.controller
        p = g.player(name)
        item = self.headers.get(name)
        if item is None:
            item = self.headers[name] = SeatHeader(name)
            self.addItem(item)
        item.set_info(rect, SeatInfo(
            name=name, house=p.house, power=g.total_power(name), gold=p.gold, income=g.income(name),
            initiative=g.initiative(name), claim=g.claim(name), drawn=p.drawn_this_round, hand=len(p.hand),
            first_player=g.state.first_player == name, deciding=deciding == name,
            computer=name in ctl.computers, eliminated=p.eliminated, viewer=is_viewer and name == ctl.viewer,
            gold_on_cards=g.spendable_gold(name) - p.gold))

    def _center_text(self) -> tuple[str, str]:
        main, side = self._center_words()
        return for_players(main, self.game.state.player_names), side

    def _center_words(self) -> tuple[str, str]:
        g = self.game
        st = g.state
        ch = st.challenge
        phase = st.phase.capitalize()
        side = f"Round {st.round} \u00b7 {phase} phase"
        if self._challenge_live():
            atk = sum(g.strength(c) for c in ch.attackers if g.card(c).zone == "in_play")
            dfn = sum(g.strength(c) for c in ch.defenders if g.card(c).zone == "in_play")
            main = (f"\u2694 {ch.type.upper()} challenge: {ch.attacker} attacks {ch.defender} \u2014 "
                    f"STR {atk} vs {dfn}")
            if ch.resolved:
                main += f" \u2014 {ch.winner} wins" if ch.winner else " \u2014 nobody wins"
            return main, side
        if st.winner:
            return (f"{st.winner} wins the game" if st.winner != "draw" else "The game is a draw"), side
        active = f" \u2014 {st.active_player} is active" if st.active_player else ""
        return f"{phase} phase{active}", f"Round {st.round}"

    def _challenge_live(self) -> bool:
        st = self.game.state
        ch = st.challenge
        if ch is None or ch.ended or st.phase != "challenges":
            return False
        return not ch.resolved or any(w.name == "challenge resolution" for w in st.windows)

    def _challenge_marks(self) -> dict[int, tuple[str, ...]]:
        if not self._challenge_live():
            return {}
        ch = self.game.state.challenge
        marks: dict[int, tuple[str, ...]] = {}
        for cid in ch.attackers:
            marks[cid] = ("attacking",)
        for cid in ch.defenders:
            marks[cid] = ("defending",)
        for cid in ch.stealth.values():
            marks.setdefault(cid, ("stealth",))
        return marks

    def _row_cards(self, name: str, zone: str) -> list[tuple[int, list[int]]]:
        """The cards of a row with their attachments, in the order they came into play."""
        g = self.game
        out = []
        for cid in g.player(name).in_play:
            c = g.card(cid)
            is_char = g.card_type(cid) == "character" or (c.facedown and not self.controller.may_see(cid))
            if zone == "in_play" or (zone == "characters") == is_char:
                out.append((cid, list(c.attachments)))
        if zone == "in_play":  # one row: characters first, then locations
            out.sort(key=lambda t: g.card_type(t[0]) != "character")
        return out

    def _place_row(self, cards: list[tuple[int, list[int]]], rect: QRectF) -> list[int]:
        """Lay cards left to right in ``rect``, overlapping them when the row is full."""
        g = self.game
        widths = [(CARD_H if g.card(cid).kneeling else CARD_W) + 8 for cid, _ in cards]
        avail = rect.width() - 16
        total = sum(widths)
        squeeze = 1.0 if total <= avail or len(widths) < 2 else \
            max(0.15, (avail - widths[-1]) / max(1, total - widths[-1]))
        x = rect.left() + 8
        cy = rect.bottom() - 6 - CARD_H / 2
        placed = []
        for n, ((cid, atts), w) in enumerate(zip(cards, widths)):
            cx = x + w / 2
            item = self._card_item(cid)
            item.setZValue(10 + n)
            self._kneel(item, cid)
            item.place_center(cx, cy)
            placed.append(cid)
            tuck = min(ATTACH_TUCK, ATTACH_ROOM / max(1, len(atts)))
            for k, aid in enumerate(atts):
                att = self._card_item(aid)
                att.setZValue(10 + n - 0.1 * (k + 1))
                self._kneel(att, aid)
                att.place_center(cx + 4 * (k + 1), cy - tuck * (k + 1))
                placed.append(aid)
            x += w * squeeze
        return placed

    def _kneel(self, item: CardItem, cid: int) -> None:
        """Turn the item before placing it (a kneeling card is centred on its slot)."""
        kneeling = self.game.card(cid).kneeling
        if item.kneeling != kneeling:
            item.prepareGeometryChange()
            item.kneeling = kneeling

    def _card_item(self, cid: int) -> CardItem:
        item = self.cards.get(cid)
        if item is None:
            item = self._spare.pop(cid, None)
            if item is None:
                item = CardItem(cid)
                self.addItem(item)
            else:
                item.setVisible(True)  # blank until ``set_state`` gives it the face this seat may see
            self.cards[cid] = item
        return item

    def _put_aside(self, cid: int) -> None:
        """Card ``cid`` left the table's rows: a card now in a hand keeps its item, hidden and blank
        (nothing of the face it showed stays), for when its hand is shown again; others lose theirs."""
        item = self.cards.pop(cid)
        c = self.game.state.cards.get(cid)
        if c is not None and c.zone == "hand":
            item.setVisible(False)
            item.clear_state()
            self._spare[cid] = item
        else:
            self.removeItem(item)

    def _pile(self, name: str, zone: str, hide_hand: bool) -> PileFace:
        g = self.game
        p = g.player(name)
        label = PILE_LABELS[zone]
        if zone in ("house", "agenda", "revealed_plot"):
            cid = {"house": p.house_card, "agenda": p.agenda, "revealed_plot": p.revealed_plot}[zone]
            if cid is None:
                return PileFace(label, 0, note="no " + label.lower())
            face = self.face(cid)
            if zone == "house":
                label = f"House \u00b7 {face.power} power"
            return PileFace(label, 1, face, cid)
        pile = p.pile(zone)
        if zone == "hand":
            back = CardFace(key="", name="", type="back", hidden=True) if pile else None
            return PileFace(f"{label} {len(pile)}", len(pile), back, None, note="no cards")
        count_label = f"{label} {len(pile)}"
        if not pile:
            return PileFace(count_label, 0, note="empty")
        if zone in ("deck", "plot_deck"):
            # Backs only; the owner may drag his top card in advise mode.
            top_id = pile[0] if name == self.controller.seat else None
            return PileFace(count_label, len(pile), CardFace(key="", name="", type="back", hidden=True), top_id)
        top = pile[-1]  # discard, dead and used piles grow at their top
        return PileFace(count_label, len(pile), self.face(top), top)

    # -- seat layouts ----------------------------------------------------------
    def _viewer_layout(self, y: float):
        """Bottom seat: characters, locations and the hand; piles left (2 wide) and right."""
        left, right = MARGIN, SCENE_W - MARGIN - SLOT
        cx, cw = left + 2 * SLOT + 6, right - (left + 2 * SLOT + 6) - 6
        rows, piles = {}, {}
        grid = [("house", "agenda"), ("revealed_plot", "plot_deck"), ("used_plots", None)]
        right_col = ["deck", "discard", "dead"]
        for r, zone in enumerate(("characters", "locations", "hand")):
            rows[zone] = QRectF(cx, y, cw, ROW_H[zone] - 4)
            top = y + ROW_H[zone] - 4 - CARD_H - PileItem.LABEL_H - 6
            for col, pz in enumerate(grid[r]):
                if pz:
                    piles[pz] = (QPointF(left + col * SLOT, top), 1.0)
            piles[right_col[r]] = (QPointF(right + 4, top), 1.0)
            y += ROW_H[zone]
        return rows, piles, sum(ROW_H[z] for z in ("characters", "locations", "hand"))

    def _double_layout(self, y: float):
        """An opposite seat (two players): locations far, characters near; the hand as a pile."""
        left, right = MARGIN, SCENE_W - MARGIN - 2 * SLOT
        cx = left + 3 * SLOT + 6
        cw = right - cx - 6
        rows, piles = {}, {}
        grid = {"locations": (("plot_deck", "used_plots", "hand"), ("dead", None)),
                "characters": (("house", "agenda", "revealed_plot"), ("deck", "discard"))}
        for zone in ("locations", "characters"):
            h = ROW_H["characters"]
            rows[zone] = QRectF(cx, y, cw, h - 4)
            top = y + h - 4 - CARD_H - PileItem.LABEL_H - 6
            lefts, rights = grid[zone]
            for col, pz in enumerate(lefts):
                piles[pz] = (QPointF(left + col * SLOT, top), 1.0)
            for col, pz in enumerate(rights):
                if pz:
                    piles[pz] = (QPointF(right + 4 + col * SLOT, top), 1.0)
            y += h
        return rows, piles, 2 * ROW_H["characters"]

    def _single_layout(self, y: float):
        """A seat among three or four players: one row in play, small piles either side."""
        left = MARGIN
        right = SCENE_W - MARGIN - 2 * MINI_SLOT
        cx = left + 4 * MINI_SLOT + 6
        h = ROW_H["in_play"]
        rows = {"in_play": QRectF(cx, y, right - cx - 6, h - 4)}
        piles = {}
        mini_h = CARD_H * MINI + PileItem.LABEL_H + 4
        for r, names in enumerate((("house", "agenda", "revealed_plot", "hand"), ("plot_deck", "used_plots"))):
            for col, pz in enumerate(names):
                piles[pz] = (QPointF(left + col * MINI_SLOT, y + r * mini_h), MINI)
        for r, names in enumerate((("deck", "discard"), ("dead",))):
            for col, pz in enumerate(names):
                piles[pz] = (QPointF(right + 4 + col * MINI_SLOT, y + r * mini_h), MINI)
        return rows, piles, h

    # -- gestures from items --------------------------------------------------------
    def hovered(self, cid: int | None) -> None:
        if self._dragging:
            return
        self.hover_id = cid
        self.card_hovered.emit(cid)

    def gesture_click(self, cid: int) -> None:
        self.controller.click_card(cid)

    def gesture_double_click(self, cid: int) -> None:
        self.controller.double_click(cid)

    def gesture_menu(self, cid: int, screen_pos) -> None:
        self._menu(self.controller.card_actions(cid), screen_pos)

    def gesture_pile_click(self, target: tuple[str, str]) -> None:
        self.controller.click_pile(target)

    def gesture_pile_double_click(self, target: tuple[str, str]) -> None:
        self.controller.double_click_pile(target)

    def gesture_pile_menu(self, target: tuple[str, str], screen_pos) -> None:
        self._menu(self.controller.pile_actions(target), screen_pos)

    def gesture_seat_menu(self, name: str, screen_pos) -> None:
        self._menu(self.controller.seat_actions(name), screen_pos)

    def _menu(self, actions, screen_pos) -> None:
        if not actions:
            return
        menu = QMenu()
        for label, callback, enabled in actions:
            if label == "-":
                menu.addSeparator()
                continue
            act = menu.addAction(label)
            act.setEnabled(enabled)
            if callback is not None:
                act.triggered.connect(callback)
        self.menu = menu
        try:
            menu.exec(screen_pos)
        finally:
            self.menu = None

    def forget_seat(self) -> None:
        """The seat changed: close an open menu and forget the card under the mouse."""
        if self.menu is not None:
            self.menu.close()
        self.hover_id = None

    def drop_target(self, scene_pos: QPointF, dragged: QGraphicsItem):
        """What lies under a drop: ("card", id) or ("zone", player, zone); None outside the zones."""
        for item in self.items(scene_pos):
            if item is dragged:
                continue
            if isinstance(item, CardItem):
                return ("card", item.card_id)
            if isinstance(item, (PileItem, ZoneItem)):
                return ("zone", *item.target)
        return None

    def drag_started(self, item: QGraphicsItem) -> None:
        self._dragging = True

    def drag_moved(self, item: QGraphicsItem, scene_pos: QPointF) -> None:
        hint = None
        for under in self.items(scene_pos):
            if under is not item and isinstance(under, (PileItem, ZoneItem)):
                hint = under
                break
        if hint is not self._drop_hint:
            if self._drop_hint is not None:
                self._drop_hint.set_highlight(False)
            if hint is not None:
                hint.set_highlight(True)
            self._drop_hint = hint

    def drag_dropped(self, item: QGraphicsItem, scene_pos: QPointF) -> None:
        self._dragging = False
        if self._drop_hint is not None:
            self._drop_hint.set_highlight(False)
            self._drop_hint = None
        self.drop_card(item.drag_id, self.drop_target(scene_pos, item))

    def drop_card(self, cid: int | None, target) -> None:
        """A drag of card ``cid`` ended over ``target``: ask the controller (the state answers)."""
        self.controller.drop(cid, target)

    # -- looks ---------------------------------------------------------------------
    def drawBackground(self, painter: QPainter, rect: QRectF) -> None:
        r = self.sceneRect()
        grad = QRadialGradient(r.center(), max(r.width(), r.height()) * 0.7)
        grad.setColorAt(0, QColor("#2f6b45"))
        grad.setColorAt(1, QColor("#173a26"))
        painter.fillRect(rect, QBrush(grad))

    def item_rect(self, cid: int) -> QRectF:
        """Where card ``cid`` is drawn, in scene coordinates (tests aim the mouse with it)."""
        return self.cards[cid].sceneBoundingRect()


class TableView(QGraphicsView):
    """Shows the whole table, scaled to fit the window (Ctrl+wheel zooms, Ctrl+0 fits again).

    A panel may cover the bottom of the view for a while (``set_cover``: the prompt bar's strip of cards):
    the table then scrolls up by the panel's height, at the same scale, so the viewer's seat stays in sight
    above it. The view is not resized or rescaled for it: scrolling moves what is drawn and paints only the
    band it uncovers (a rescaled table is drawn again whole, every card at the new size)."""

    SLACK = 4000
    """Scene units above and below the table the view may scroll over (to centre it, and to lift it
    above a cover)."""

    def __init__(self, scene: TableScene):
        super().__init__(scene)
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing |
                            QPainter.RenderHint.SmoothPixmapTransform)
        self.setCacheMode(QGraphicsView.CacheModeFlag.CacheBackground)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setOptimizationFlag(QGraphicsView.OptimizationFlag.DontSavePainterState, False)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)  # fitted: the slack is not content
        self.setBackgroundBrush(QColor("#173a26"))
        self.zoomed = False
        self.cover: QWidget | None = None
        """The panel over the bottom of the view now (None: nothing covers the table)."""
        self._rest = 0
        """The vertical scroll position of the fitted table when nothing covers it."""
        scene.sceneRectChanged.connect(lambda _r: self.fit())
        scene.setParent(self)  # the scene lives exactly as long as its view (a replaced table goes with both)
        # Item caches live in QPixmapCache (10 MB by default): 300 cards on a large screen need
        # more, or every repaint evicts and redraws them.
        QPixmapCache.setCacheLimit(max(QPixmapCache.cacheLimit(), PIXMAP_CACHE_KB))

    def set_cover(self, panel: QWidget | None) -> None:
        """``panel`` (a child of the view) now covers the bottom of the view, or nothing does (None)."""
        self.cover = panel
        self._place_cover()
        self.fit()

    def _place_cover(self) -> None:
        panel = self.cover
        if panel is not None:
            panel.setGeometry(0, self.height() - panel.height(), self.width(), panel.height())
            panel.raise_()

    def _covered(self) -> int:
        return self.cover.height() if self.cover is not None and not self.cover.isHidden() else 0

    def fit(self) -> None:
        """Scale the table to fit the view (unless the player zoomed in), centred; lifted above a cover.
        The transform is set only when the scale changes (setting it repaints the whole view)."""
        scene = self.scene()
        if self.zoomed or scene is None:
            return
        rect = scene.sceneRect()
        room = self.viewport().rect().adjusted(2, 2, -2, -2)  # fitInView's margin
        if rect.isEmpty() or room.isEmpty():
            return
        s = min(room.width() / rect.width(), room.height() / rect.height())
        if abs(self.transform().m11() - s) > 1e-9 or self.transform().isRotating():
            self.setTransform(QTransform.fromScale(s, s))
        wide = rect.adjusted(0, -self.SLACK, 0, self.SLACK)
        if self.sceneRect() != wide:
            self.setSceneRect(wide)
        self.centerOn(rect.center())
        bar = self.verticalScrollBar()
        self._rest = bar.value()
        if self._covered():
            bar.setValue(self._rest + self._covered())

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._place_cover()
        self.fit()

    def wheelEvent(self, event) -> None:
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            factor = 1.15 if event.angleDelta().y() > 0 else 1 / 1.15
            self.zoomed = True
            self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
            self.scale(factor, factor)
        elif self.zoomed:
            super().wheelEvent(event)
        elif self._covered():  # fitted, a panel over the bottom: the wheel shows what it pushed off the top
            bar = self.verticalScrollBar()
            bar.setValue(max(self._rest, min(self._rest + self._covered(), bar.value() - event.angleDelta().y())))

    def reset_zoom(self) -> None:
        self.zoomed = False
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.fit()
