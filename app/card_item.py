"""Cards on the table: what a card shows (``CardFace``), how it is drawn, and its item.

A card is drawn from its data — a frame coloured by type and House, the title,
cost, STR, icons, traits, keywords and text — or from the user's own scan of
it when one is found (``CardImages``). Runtime marks (kneeling, power,
duplicates, moribund, attacking, selected) are drawn over either.

Items hold no game logic. A press, a drag, a click, a double-click or a
context menu is handed to the scene (``TableScene.gesture_*``), which asks the
controller; the item moves only when the table is redrawn from the new state.
"""
from __future__ import annotations

import math
import re
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PySide6.QtCore import QObject, QPointF, QRectF, QRunnable, Qt, QThreadPool, Signal
from PySide6.QtGui import (QColor, QFont, QFontMetricsF, QImage, QImageReader, QLinearGradient,
                           QPainter, QPainterPath, QPen, QPixmap, QTransform)
from PySide6.QtWidgets import QApplication, QGraphicsItem, QStyleOptionGraphicsItem

from cards.errors import printable
from engine.abilities.render import card_text

CARD_W = 110
CARD_H = 154
"""A card's size in scene units (5:7, like the printed card)."""

HOUSE_COLOURS: dict[str, tuple[str, str]] = {
    # House: (frame, accent). Chosen to echo the printed cards' shields.
    "stark": ("#4d5d6e", "#c9d4de"),
    "lannister": ("#8e1b1b", "#e8c15a"),
    "baratheon": ("#9a7412", "#f1d36b"),
    "greyjoy": ("#1f4a4f", "#9cc3bf"),
    "targaryen": ("#2a2326", "#c0392b"),
    "martell": ("#b8561b", "#f3c16b"),
    "neutral": ("#5e5142", "#cdbb9a"),
}
TYPE_PAPER = {
    "character": "#f3ead6", "location": "#e3ecd5", "attachment": "#ebe0ee", "event": "#dfe7f2",
    "plot": "#f0e6cc", "agenda": "#e9e0cf", "house": "#ece3d0",
}
ICON_STYLE = {"military": ("#b8322a", "M"), "intrigue": ("#2d8a4a", "I"), "power": ("#5a48a8", "P")}
"""Icon colours as printed: military red, intrigue green, power purple."""

CARD_FONTS = ["DejaVu Sans Condensed", "Arial Narrow", "Liberation Sans Narrow", "Sans Serif"]


def card_font(px: float, *, bold: bool = False, italic: bool = False) -> QFont:
    """The font cards are lettered in: condensed, sized in scene pixels so it scales with the view."""
    font = QFont()
    font.setFamilies(CARD_FONTS)
    font.setPixelSize(max(1, round(px)))
    font.setBold(bold)
    font.setItalic(italic)
    return font


@dataclass(frozen=True)
class CardFace:
    """Everything a card item shows; built by the table from the engine state.

    ``hidden`` draws the back (a card this viewer may not see). Values are the
    current ones (STR with effects), so the item never asks the engine.
    """

    key: str
    name: str
    type: str
    house: tuple[str, ...] = ()
    unique: bool = False
    cost: str = ""
    strength: int | None = None
    printed_strength: int | None = None
    strength_x: bool = False
    """The printed STR is X: shown as X while the STR read is the printed one (0)."""
    icons: frozenset[str] = frozenset()
    traits: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    text: str = ""
    income: int = 0
    initiative: int = 0
    claim: int = 0
    influence: int = 0
    doomed: bool = False
    power: int = 0
    kneeling: bool = False
    facedown: bool = False
    moribund: str | None = None
    duplicates: int = 0
    hidden: bool = False
    marks: tuple[str, ...] = ()
    """Table marks such as ``attacking``, ``defending``, ``stealth``."""
    by_hand: bool = False
    """The engine does not automate this card's text: its player resolves it by hand."""
    tokens: tuple[tuple[str, int], ...] = ()
    note: str = ""
    english: str = ""
    """Maester's wording of the card, generated from its ability data (``engine.abilities.render``);
    empty when the card is not automated (its printed ``text`` is then played by hand)."""
    text_lang: str = ""
    """The language of ``text`` when it is not English (``fr``)."""

    @classmethod
    def of(cls, defn, **runtime) -> "CardFace":
        """A face from a ``cards.model.CardDef`` plus runtime facts (power, kneeling...). Every text of the
        card data is shown escaped (``cards.errors.printable``, as ``cards.pool show`` prints it): a control
        character or a bidirectional override in a name cannot reverse or hide what the table shows."""
        cost = "" if defn.cost is None else ("X" if defn.cost_x else str(defn.cost))
        fields = dict(key=defn.key, name=printable(defn.name), type=defn.type, house=tuple(defn.house),
                      unique=defn.unique, cost=cost, strength=defn.strength, printed_strength=defn.strength,
                      strength_x=defn.strength_x,
                      icons=frozenset(defn.icons), traits=tuple(printable(t) for t in defn.traits),
                      keywords=tuple(printable(k) for k in defn.keywords),
                      text=printable(defn.text, keep="\n\t") if defn.text else defn.text,
                      income=defn.income, initiative=defn.initiative, claim=defn.claim,
                      influence=defn.influence, doomed=defn.doomed,
                      english=printable(card_text(defn), keep="\n"), text_lang=defn.text_lang)
        fields.update(runtime)
        if "keywords" in runtime:
            fields["keywords"] = tuple(printable(k) for k in runtime["keywords"])
        if runtime.get("note"):
            fields["note"] = printable(runtime["note"])
        return cls(**fields)

    @property
    def main_house(self) -> str:
        return self.house[0] if self.house else "neutral"


# --------------------------------------------------------------------------- images

def strength_text(face: CardFace) -> str:
    """The STR a face shows: X for a printed X while nothing changed it (the engine counts it as 0)."""
    if face.strength is None:
        return ""
    if face.strength_x and face.strength == face.printed_strength:
        return "X"
    return str(face.strength)


def image_names(key: str, name: str) -> list[str]:
    """File stems tried for a card's image: its key, its name, and both as slugs."""
    def slug(s: str) -> str:
        return re.sub(r"[^a-z0-9]+", "-", s.casefold()).strip("-")

    stems = [key, name, slug(key), slug(name)]
    return list(dict.fromkeys(s for s in stems if s))


class _ImageJob(QRunnable):
    def __init__(self, path: Path, key: str, sink: "CardImages"):
        super().__init__()
        self.path, self.key, self.sink = path, key, sink

    def run(self) -> None:
        # QImage (unlike QPixmap) may be used off the UI thread: decode and scale here.
        reader = QImageReader(str(self.path))
        reader.setAutoTransform(True)
        image = reader.read()
        if not image.isNull():
            image = image.scaled(CARD_W * 4, CARD_H * 4, Qt.AspectRatioMode.KeepAspectRatio,
                                 Qt.TransformationMode.SmoothTransformation)
        self.sink.loaded.emit(self.key, image)


class CardImages(QObject):
    """The user's own card images, from a folder, by card key or name (png, jpg, webp).

    Images are decoded and scaled on a worker thread and cached; ``loaded``
    tells the table to redraw the cards that use one. Missing images are
    simply absent: the card is drawn from its data.
    """

    loaded = Signal(str, QImage)
    EXTENSIONS = (".png", ".jpg", ".jpeg", ".webp")

    def __init__(self, folder: str | Path | None = None, parent: QObject | None = None):
        super().__init__(parent)
        self.folder = Path(folder) if folder else None
        self._cache: dict[str, QImage | None] = {}
        self._pool = QThreadPool()
        self._pool.setMaxThreadCount(2)
        self.loaded.connect(self._store, Qt.ConnectionType.QueuedConnection)
        self._files: dict[str, Path] = {}
        if self.folder and self.folder.is_dir():
            for path in self.folder.iterdir():
                if path.suffix.lower() in self.EXTENSIONS:
                    self._files.setdefault(path.stem.casefold(), path)

    def _store(self, key: str, image: QImage) -> None:
        self._cache[key] = None if image.isNull() else image

    def get(self, key: str, name: str) -> QImage | None:
        """The image for a card, or None (not found, or still loading)."""
        if key in self._cache:
            return self._cache[key]
        path = next((self._files[s.casefold()] for s in image_names(key, name) if s.casefold() in self._files), None)
        if path is None:
            self._cache[key] = None
            return None
        self._cache[key] = None  # loading: drawn from data until the image arrives
        self._pool.start(_ImageJob(path, key, self))
        return None

    def wait(self) -> None:
        """Block until pending loads finish (for screenshots and tests)."""
        self._pool.waitForDone()
        QApplication.processEvents()


# --------------------------------------------------------------------------- drawing

def _rounded(rect: QRectF, r: float) -> QPainterPath:
    path = QPainterPath()
    path.addRoundedRect(rect, r, r)
    return path


def paint_back(p: QPainter, rect: QRectF) -> None:
    """The back of a card: what a player sees of hidden cards and piles."""
    p.setPen(QPen(QColor("#1d140c"), 1.5))
    grad = QLinearGradient(rect.topLeft(), rect.bottomRight())
    grad.setColorAt(0, QColor("#5a3a1e"))
    grad.setColorAt(1, QColor("#2e1d0e"))
    p.setBrush(grad)
    p.drawPath(_rounded(rect, 6))
    inner = rect.adjusted(7, 7, -7, -7)
    p.setPen(QPen(QColor("#c9a45c"), 1.2))
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawRoundedRect(inner, 4, 4)
    p.setPen(QPen(QColor(201, 164, 92, 90), 1))
    step = 12
    x = inner.left() - inner.height()
    while x < inner.right():  # a lattice, clipped to the inner frame
        p.save()
        p.setClipRect(inner)
        p.drawLine(QPointF(x, inner.bottom()), QPointF(x + inner.height(), inner.top()))
        p.drawLine(QPointF(x, inner.top()), QPointF(x + inner.height(), inner.bottom()))
        p.restore()
        x += step
    p.setPen(QColor("#e8cf92"))
    p.setFont(card_font(rect.width() * 0.16, bold=True))
    p.drawText(rect, Qt.AlignmentFlag.AlignCenter, "M")


def _draw_stat_box(p: QPainter, rect: QRectF, value: str, label: str, colour: str) -> None:
    p.setPen(QPen(QColor("#2a2118"), 1))
    p.setBrush(QColor(colour))
    p.drawRoundedRect(rect, 3, 3)
    p.setPen(QColor("white"))
    p.setFont(card_font(rect.height() * 0.5, bold=True))
    p.drawText(rect.adjusted(0, 0, 0, -rect.height() * 0.28), Qt.AlignmentFlag.AlignCenter, value)
    p.setFont(card_font(rect.height() * 0.22, bold=True))
    p.drawText(rect.adjusted(0, rect.height() * 0.62, 0, 0), Qt.AlignmentFlag.AlignCenter, label)


def _elided(text: str, font: QFont, width: float) -> str:
    return QFontMetricsF(font).elidedText(text, Qt.TextElideMode.ElideRight, width)


COMPACT_BELOW = 96
"""Screen width (px) under which a card is drawn compact: its whole title, large, over the face."""
MIN_TITLE_PX = 10.5
"""The smallest title size on screen, in pixels, for a compact card."""


def wrap_words(text: str, fm: QFontMetricsF, width: float, max_lines: int = 1000) -> list[str]:
    """``text`` wrapped word by word into lines no wider than ``width`` (in ``fm``'s units); a newline
    starts a new line, and a word wider than a line stays whole on its own line. Stops past ``max_lines``
    (one line more: the caller sees that the text goes on)."""
    lines = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            trial = f"{line} {word}" if line else word
            if not line or fm.horizontalAdvance(trial) <= width:
                line = trial
            else:
                lines.append(line)
                if len(lines) > max_lines:
                    return lines
                line = word
        lines.append(line)
        if len(lines) > max_lines:
            return lines
    return lines


def cut_lines(lines: list[str], fm: QFontMetricsF, width: float, max_lines: int) -> list[str]:
    """The first ``max_lines`` of ``lines``, the last ending with "…" when some were left out
    (cut at a word), and any line wider than ``width`` elided: the reader sees that more exists."""
    shown = lines[:max_lines]
    if len(lines) > max_lines and shown:
        last = shown[-1]
        while last and fm.horizontalAdvance(last.rstrip(" ,.;:") + "\u2026") > width:
            last = last.rsplit(" ", 1)[0] if " " in last else last[:-1]
        shown[-1] = last.rstrip(" ,.;:") + "\u2026"
    return [fm.elidedText(x, Qt.TextElideMode.ElideRight, width) for x in shown]


def title_lines(title: str, width: float, px: float, max_lines: int = 3) -> tuple[QFont, list[str]]:
    """The title wrapped word by word into at most ``max_lines`` lines of ``width`` (scene units),
    at the largest size from ``px`` down to 80% of it that fits; the last line elided if it must."""
    size = px
    while True:
        font = card_font(size, bold=True)
        fm = QFontMetricsF(font)
        lines = wrap_words(title, fm, width, max_lines)
        fits = len(lines) <= max_lines and all(fm.horizontalAdvance(x) <= width for x in lines)
        if fits or size <= px * 0.8:
            return font, cut_lines(lines, fm, width, max_lines)
        size -= px * 0.05


BODY_PX = 7.4
"""The rules text's size on the face (scene pixels); a longer text is drawn smaller, down to ``MIN_BODY_PX``."""
MIN_BODY_PX = 5.6
"""The smallest rules text size: legible on a card 110 px wide on screen, the view's 100%."""
BODY_STEP = 0.3
TEXT_ZOOM = 10
"""The body is laid out at ten times its size and drawn scaled down: its size can be any tenth of a pixel
(a font's pixel size is a whole number), and neither size nor line breaks depend on the view's zoom."""


@dataclass(frozen=True)
class FittedText:
    """A text laid out in its box (``fit_text``): its size in scene pixels, the lines drawn, and the font
    and line metrics in layout units (``TEXT_ZOOM`` times scene units)."""

    px: float
    lines: tuple[str, ...]
    font: QFont
    ascent: float
    spacing: float


@lru_cache(maxsize=2048)
def fit_text(text: str, width: float, height: float) -> FittedText:
    """``text`` wrapped by words into a ``width`` x ``height`` box (scene units) at the largest size from
    ``BODY_PX`` down to ``MIN_BODY_PX`` at which it all fits; at the smallest, as many whole lines as fit,
    the last ending with "…". Cached per (text, box): the table paints the same faces again and again."""
    px = BODY_PX
    while True:
        font = card_font(px * TEXT_ZOOM)
        fm = QFontMetricsF(font)
        room = width * TEXT_ZOOM
        rows = max(0, int(height * TEXT_ZOOM // fm.lineSpacing()))
        last = px - BODY_STEP < MIN_BODY_PX - 1e-6
        # measuring costs: a size at which the text on one line is longer than all the rows (and the spaces
        # where they break) cannot fit
        if not last and fm.horizontalAdvance(" ".join(text.split())) > rows * (room + fm.horizontalAdvance(" ")):
            px -= BODY_STEP
            continue
        lines = wrap_words(text.strip(), fm, room, rows)
        fits = len(lines) <= rows and all(fm.horizontalAdvance(x) <= room for x in lines)
        if fits or last:
            return FittedText(font.pixelSize() / TEXT_ZOOM, tuple(cut_lines(lines, fm, room, rows)), font,
                              fm.ascent(), fm.lineSpacing())
        px -= BODY_STEP


def paint_text(p: QPainter, rect: QRectF, text: str) -> None:
    """Draw ``text`` fitted to ``rect`` (``fit_text``)."""
    fit = fit_text(text, rect.width(), rect.height())
    p.save()
    p.translate(rect.topLeft())
    p.scale(1 / TEXT_ZOOM, 1 / TEXT_ZOOM)
    p.setFont(fit.font)
    for i, line in enumerate(fit.lines):
        p.drawText(QPointF(0, fit.ascent + i * fit.spacing), line)
    p.restore()


def paint_compact_title(p: QPainter, face: CardFace, lod: float, width: float = CARD_W) -> None:
    """A small card's title, whole and legible: wrapped in up to three lines in a band across the
    top of the face, at least ``MIN_TITLE_PX`` on screen (``lod``: screen pixels per scene unit).
    ``width``: the card's width as drawn (its height when it kneels: the title stays level)."""
    title = ("\u25c6 " if face.unique else "") + face.name
    px = MIN_TITLE_PX / max(lod, 0.05)
    font, lines = title_lines(title, width - 10, px, max_lines=3 if width == CARD_W else 2)
    line_h = QFontMetricsF(font).height()
    band = QRectF(2, 2, width - 4, line_h * len(lines) + 6)
    frame, _ = HOUSE_COLOURS.get(face.main_house, HOUSE_COLOURS["neutral"])
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor(frame).darker(135))
    p.drawRoundedRect(band, 4, 4)
    p.setFont(font)
    p.setPen(QColor("white"))
    for i, line in enumerate(lines):
        p.drawText(QRectF(5, 5 + i * line_h, width - 10, line_h), Qt.AlignmentFlag.AlignLeft
                   | Qt.AlignmentFlag.AlignVCenter, line)


def paint_face(p: QPainter, face: CardFace, image: QImage | None = None, lod: float = 1.0) -> None:
    """Draw a card face in the CARD_W x CARD_H box at the origin (scale the painter for bigger).
    ``lod`` is the view's scale: a card smaller than ``COMPACT_BELOW`` pixels wide on screen gets
    its whole title, large, over the top of the face (``lod=0`` leaves the title to the caller)."""
    _paint_full_face(p, face, image)
    if 0 < lod * CARD_W < COMPACT_BELOW and face.name:
        paint_compact_title(p, face, lod)


def _paint_full_face(p: QPainter, face: CardFace, image: QImage | None = None) -> None:
    rect = QRectF(0, 0, CARD_W, CARD_H)
    frame, accent = HOUSE_COLOURS.get(face.main_house, HOUSE_COLOURS["neutral"])
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    if image is not None:
        p.save()
        p.setClipPath(_rounded(rect, 6))
        p.drawImage(rect, image)
        p.restore()
        p.setPen(QPen(QColor("#111"), 1.2))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawPath(_rounded(rect, 6))
        return
    # Frame in the House colour, paper tinted by type.
    p.setPen(QPen(QColor("#1a1410"), 1.2))
    p.setBrush(QColor(frame))
    p.drawPath(_rounded(rect, 6))
    paper = rect.adjusted(4, 4, -4, -4)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor(TYPE_PAPER.get(face.type, "#eee")))
    p.drawRoundedRect(paper, 3, 3)

    # Title bar with the cost coin.
    bar = QRectF(4, 4, CARD_W - 8, 19)
    grad = QLinearGradient(bar.topLeft(), bar.bottomLeft())
    grad.setColorAt(0, QColor(frame).lighter(125))
    grad.setColorAt(1, QColor(frame).darker(120))
    p.setBrush(grad)
    p.drawRoundedRect(bar, 3, 3)
    left = 7.0
    if face.cost != "":
        coin = QRectF(5, 5, 17, 17)
        p.setPen(QPen(QColor("#5b4310"), 1))
        p.setBrush(QColor("#e5b93e"))
        p.drawEllipse(coin)
        p.setPen(QColor("#2b1d00"))
        p.setFont(card_font(12, bold=True))
        p.drawText(coin, Qt.AlignmentFlag.AlignCenter, face.cost)
        left = 24.0
    title = ("\u25c6 " if face.unique else "") + face.name
    room = CARD_W - 4 - left - 2
    font = _title_font(title, room)
    p.setFont(font)
    p.setPen(QColor("white"))
    p.drawText(QRectF(left, 4, room, 19), Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
               _elided(title, font, room))

    body_top = 26.0
    if face.type == "plot":
        text_x, y = _paint_plot_body(p, face, body_top)
    elif face.type in ("house", "agenda"):
        text_x, y = _paint_big_label(p, face, body_top, frame, accent)
    else:
        text_x, y = _paint_art_and_stats(p, face, body_top, frame, accent)

    # Type line with traits, keywords in bold, then the rules text.
    kind = face.type.upper()
    if face.traits:
        kind += "  \u00b7  " + ". ".join(face.traits) + "."
    f = card_font(8.5, italic=True)
    p.setFont(f)
    p.setPen(QColor("#3a2d20"))
    width = CARD_W - 6 - text_x
    p.drawText(QRectF(text_x, y, width, 11), Qt.AlignmentFlag.AlignLeft, _elided(kind, f, width))
    y += 11
    if face.keywords:
        f = card_font(9, bold=True)
        p.setFont(f)
        words = ". ".join(k.capitalize() for k in face.keywords) + "."
        p.drawText(QRectF(text_x, y, width, 12), Qt.AlignmentFlag.AlignLeft, _elided(words, f, width))
        y += 12
    y = max(y, _TEXT_TOP.get(face.type, 0))
    body = rules_text(face)
    # the text's mark: Maester's wording, or a text in another language it has no wording for (by hand)
    mark = ("Maester's wording" if face.english else
            f"{face.text_lang.upper()} \u00b7 by hand" if face.text_lang else "") if body else ""
    if body:
        p.setPen(QColor("#231a12"))
        paint_text(p, QRectF(7, y + 1, CARD_W - 14, CARD_H - y - (17 if mark else 8)), body)
    if mark:
        p.setPen(QColor("#6b5a3a" if face.english else "#7a4a00"))
        p.setFont(card_font(6.5, italic=bool(face.english), bold=not face.english))
        p.drawText(QRectF(6, CARD_H - 15, CARD_W - 12, 10), Qt.AlignmentFlag.AlignLeft, mark)
    if face.doomed:
        p.setPen(QColor("#7a0f0f"))
        p.setFont(card_font(7.5, bold=True))
        p.drawText(QRectF(6, CARD_H - 15, CARD_W - 12, 10), Qt.AlignmentFlag.AlignRight, "DOOMED")


_TEXT_TOP = {"character": 96.0, "location": 96.0, "attachment": 96.0, "event": 96.0}
"""Where the rules text starts: below the STR and icon column."""


def _title_font(title: str, room: float) -> QFont:
    """The largest title size (12.5 down to 9 px) at which the whole title fits."""
    size = 12.5
    while True:
        font = card_font(size, bold=True)
        if size <= 9 or QFontMetricsF(font).horizontalAdvance(title) <= room:
            return font
        size -= 0.5


def rules_text(face: CardFace, text: str | None = None) -> str:
    """The card's text without the keyword line the card already shows in bold: Maester's wording when the card
    has it, else the printed text (``text``: this text instead)."""
    if text is None:
        text = face.english or face.text
    lines = text.splitlines()
    if lines and face.keywords and all(w.strip(" .").lower() in face.keywords
                                       for w in lines[0].split(".") if w.strip()):
        lines = lines[1:]
    return "\n".join(lines)


def _paint_art_and_stats(p: QPainter, face: CardFace, top: float, frame: str, accent: str) -> tuple[float, float]:
    """Art box (the House letter; the user's image replaces the whole card) with STR and icons
    on its left for characters, gold/initiative/influence bonuses for the others."""
    art = QRectF(30, top + 1, CARD_W - 36, 44)
    grad = QLinearGradient(art.topLeft(), art.bottomRight())
    grad.setColorAt(0, QColor(accent).lighter(120))
    grad.setColorAt(1, QColor(frame).lighter(150))
    p.setPen(QPen(QColor(frame), 0.8))
    p.setBrush(grad)
    p.drawRoundedRect(art, 3, 3)
    p.setPen(QColor(255, 255, 255, 170))
    p.setFont(card_font(26, bold=True))
    p.drawText(art, Qt.AlignmentFlag.AlignCenter, (face.house[0][:1] if face.house else "\u2736").upper())
    if face.type == "character":
        # STR in a shield, then the three icon slots below it.
        shield = QRectF(6, top + 1, 21, 21)
        p.setPen(QPen(QColor("#1a1410"), 1))
        p.setBrush(QColor("#2d2520"))
        p.drawRoundedRect(shield, 4, 4)
        boosted = face.strength is not None and face.printed_strength is not None and \
            face.strength != face.printed_strength
        p.setPen(QColor("#ffd35c") if boosted else QColor("white"))
        p.setFont(card_font(14, bold=True))
        p.drawText(shield, Qt.AlignmentFlag.AlignCenter, strength_text(face))
        y = top + 25
        for icon in ("military", "intrigue", "power"):
            colour, letter = ICON_STYLE[icon]
            box = QRectF(7, y, 19, 13)
            if icon in face.icons:
                p.setPen(QPen(QColor("#1a1410"), 0.8))
                p.setBrush(QColor(colour))
                p.drawRoundedRect(box, 2, 2)
                p.setPen(QColor("white"))
                p.setFont(card_font(9.5, bold=True))
                p.drawText(box, Qt.AlignmentFlag.AlignCenter, letter)
            else:
                p.setPen(QPen(QColor(0, 0, 0, 50), 0.8))
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawRoundedRect(box, 2, 2)
            y += 14
        if face.influence:
            _draw_stat_box(p, QRectF(CARD_W - 27, top + 3, 20, 19), str(face.influence), "INFL", "#6a3a7a")
    else:
        extras = [(f"{face.income:+d}", "GOLD", "#b08a1a") if face.income else None,
                  (f"{face.initiative:+d}", "INIT", "#4a6a8a") if face.initiative else None,
                  (str(face.influence), "INFL", "#6a3a7a") if face.influence else None]
        y = top + 1
        for extra in filter(None, extras):
            _draw_stat_box(p, QRectF(6, y, 21, 21), *extra)
            y += 23
    return 30.0, top + 47


def _paint_plot_body(p: QPainter, face: CardFace, top: float) -> tuple[float, float]:
    w = (CARD_W - 20) / 3
    for i, (value, label, colour) in enumerate(((face.income, "GOLD", "#b08a1a"),
                                                 (face.initiative, "INIT", "#4a6a8a"),
                                                 (face.claim, "CLAIM", "#8e2b23"))):
        _draw_stat_box(p, QRectF(7 + i * (w + 3), top + 4, w, 38), str(value), label, colour)
    return 7.0, top + 46


def _paint_big_label(p: QPainter, face: CardFace, top: float, frame: str, accent: str) -> tuple[float, float]:
    area = QRectF(8, top + 2, CARD_W - 16, 50)
    grad = QLinearGradient(area.topLeft(), area.bottomLeft())
    grad.setColorAt(0, QColor(frame).lighter(130))
    grad.setColorAt(1, QColor(frame))
    p.setPen(QPen(QColor(accent), 1.5))
    p.setBrush(grad)
    p.drawRoundedRect(area, 4, 4)
    p.setPen(QColor(accent))
    p.setFont(card_font(30, bold=True))
    letter = face.house[0][:1].upper() if face.house else "\u2736"
    p.drawText(area, Qt.AlignmentFlag.AlignCenter, letter if face.type == "house" else "\u2726")
    return 7.0, top + 56


def paint_marks(p: QPainter, face: CardFace, *, selected: bool = False, eligible: bool = False) -> None:
    """Runtime marks over a face or back: selection, challenge role, moribund, power, duplicates."""
    rect = QRectF(0, 0, CARD_W, CARD_H)
    if face.facedown and not face.hidden:
        # The owner's own facedown card (setup): visible to him, dimmed and labelled.
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(30, 20, 10, 120))
        p.drawPath(_rounded(rect, 6))
        _band(p, CARD_H * 0.42, "FACEDOWN", "#3a2a18")
    if face.moribund:
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(200, 0, 0, 95))
        p.drawPath(_rounded(rect, 6))
        _band(p, CARD_H * 0.36, "\u2620 MORIBUND", "#8b0000")
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor("#8b0000"))
        below = QRectF(0, CARD_H * 0.36 + 17, CARD_W, 12)
        p.drawRect(below)
        p.setPen(QColor("#ffd9d9"))
        p.setFont(card_font(8.5, italic=True))
        p.drawText(below, Qt.AlignmentFlag.AlignCenter, "leaves play to: " + face.moribund.replace("_", " "))
    for mark, label, colour in (("attacking", "ATTACKING", "#b3261e"), ("defending", "DEFENDING", "#1f5fa8"),
                                ("stealth", "STEALTH TARGET", "#444")):
        if mark in face.marks:
            _band(p, CARD_H - 36, label, colour)
    if face.power:
        disc = QRectF(CARD_W - 30, CARD_H - 30, 26, 26)
        p.setPen(QPen(QColor("#f6d46b"), 2))
        p.setBrush(QColor("#7a1414"))
        p.drawEllipse(disc)
        p.setPen(QColor("white"))
        p.setFont(card_font(14, bold=True))
        p.drawText(disc, Qt.AlignmentFlag.AlignCenter, str(face.power))
    if face.by_hand and not face.hidden:
        # "text by hand": a small hand in the text box's corner (engine/manual.py)
        badge = QRectF(4, CARD_H - 19, 50, 15)  # bottom left: clear of stats, bands and the power disc
        p.setPen(QPen(QColor("#5a3a10"), 1))
        p.setBrush(QColor("#ffe27a"))
        p.drawRoundedRect(badge, 4, 4)
        p.setPen(QColor("#3a2400"))
        p.setFont(card_font(8.5, bold=True))
        p.drawText(badge, Qt.AlignmentFlag.AlignCenter, "BY HAND")
    gold = dict(face.tokens).get("gold", 0) if not face.hidden else 0
    if gold:
        # gold tokens on the card (Tywin Lannister): a gold coin left of the power disc, N on it
        coin = QRectF(CARD_W - 60, CARD_H - 30, 26, 26)
        p.setPen(QPen(QColor("#6b4a00"), 2))
        p.setBrush(QColor("#f2c230"))
        p.drawEllipse(coin)
        p.setPen(QPen(QColor("#b8860b"), 1))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawEllipse(coin.adjusted(3, 3, -3, -3))
        p.setPen(QColor("#3a2400"))
        p.setFont(card_font(12, bold=True))
        p.drawText(coin, Qt.AlignmentFlag.AlignCenter, str(gold))
    others = tuple((name, n) for name, n in face.tokens if name != "gold")
    if others and not face.hidden:
        label = " ".join(f"{n}\u00d7{name}" for name, n in others)
        tag = QRectF(4, CARD_H - 80, CARD_W - 8, 16)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(20, 60, 30, 210))
        p.drawRoundedRect(tag, 3, 3)
        p.setPen(QColor("#e8ffe8"))
        p.setFont(card_font(9, bold=True))
        p.drawText(tag, Qt.AlignmentFlag.AlignCenter, _elided(label, card_font(9, bold=True), CARD_W - 10))
    if face.duplicates:
        badge = QRectF(CARD_W - 34, 26, 30, 16)
        p.setPen(QPen(QColor("#1a1410"), 1))
        p.setBrush(QColor("#f0e0b0"))
        p.drawRoundedRect(badge, 4, 4)
        p.setPen(QColor("#1a1410"))
        p.setFont(card_font(10, bold=True))
        p.drawText(badge, Qt.AlignmentFlag.AlignCenter, f"\u00d7{face.duplicates + 1}")
    if selected:
        p.setPen(QPen(QColor("#ffd400"), 5))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRoundedRect(rect.adjusted(1.5, 1.5, -1.5, -1.5), 6, 6)
    elif eligible:
        p.setPen(QPen(QColor("#7fe0ff"), 2.5, Qt.PenStyle.DashLine))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRoundedRect(rect.adjusted(1, 1, -1, -1), 6, 6)


def _band(p: QPainter, y: float, text: str, colour: str) -> None:
    band = QRectF(0, y, CARD_W, 17)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor(colour))
    p.drawRect(band)
    p.setPen(QColor("white"))
    font = card_font(10, bold=True)
    p.setFont(font)
    p.drawText(band, Qt.AlignmentFlag.AlignCenter, _elided(text, font, CARD_W - 4))


def paint_card(p: QPainter, face: CardFace, image: QImage | None = None, *, selected: bool = False,
               eligible: bool = False, lod: float = 1.0) -> None:
    """A whole card: face (or back when hidden) and its marks, at the origin in card units."""
    if face.hidden:
        paint_back(p, QRectF(0, 0, CARD_W, CARD_H))
    else:
        paint_face(p, face, image, lod)
    paint_marks(p, face, selected=selected, eligible=eligible)


# --------------------------------------------------------------------------- the picture cache

def paint_card_turned(p: QPainter, face: CardFace, image: QImage | None, *, selected: bool, eligible: bool,
                      kneeling: bool, lod: float) -> None:
    """A card as the table draws it, upright or kneeling (turned 90° inside the paint, its title
    kept level when it is drawn compact), at the origin in card units."""
    compact = lod * CARD_W < COMPACT_BELOW and not face.hidden
    if kneeling:
        p.save()
        p.translate(CARD_H, 0)
        p.rotate(90)
        paint_card(p, face, image, selected=selected, eligible=eligible, lod=0 if compact else lod)
        p.restore()
        if compact:  # a kneeling card's title stays level, across its width
            paint_compact_title(p, face, lod, width=CARD_H)
        return
    paint_card(p, face, image, selected=selected, eligible=eligible, lod=lod)


PAD = 3
"""Room around a card's picture for the selection outline (the items' bounding rect has it too)."""
MAX_CACHED_SCALE = 4.0
"""Beyond this zoom cards are painted directly (a picture per card would be large and short-lived)."""
FACE_CACHE_BYTES = 16 * 1024 * 1024


class CardPictures:
    """Cards rendered once per (what the face shows, marks, kneeling, size on screen) and reused.

    Painting a card from its data costs many antialiased rounded rectangles and texts; a table
    repaints the same faces over and over (every back is the same picture), so each distinct
    picture is rendered once into a pixmap at the device's size and blitted after that. The key
    is everything the picture shows: the ``CardFace`` (a hidden card's face is a back carrying
    nothing of the card, so backs of different cards share one picture), the user's image, the
    selection and eligibility outlines, kneeling, the scale and the device pixel ratio.
    Least recently used pictures go first when the cache passes its byte budget.
    """

    def __init__(self, budget: int = FACE_CACHE_BYTES):
        self.budget = budget
        self.bytes = 0
        self.renders = 0
        self._pictures: OrderedDict[tuple, QPixmap] = OrderedDict()

    def __len__(self) -> int:
        return len(self._pictures)

    def clear(self) -> None:
        self._pictures.clear()
        self.bytes = 0

    def get(self, face: CardFace, image: QImage | None, selected: bool, eligible: bool, kneeling: bool,
            scale: float, dpr: float = 1.0) -> QPixmap:
        key = (face, image.cacheKey() if image is not None else 0, selected, eligible, kneeling, scale, dpr)
        pm = self._pictures.get(key)
        if pm is not None:
            self._pictures.move_to_end(key)
            return pm
        pm = self._render(face, image, selected, eligible, kneeling, scale, dpr)
        self.renders += 1
        self._pictures[key] = pm
        self.bytes += pm.width() * pm.height() * 4
        while self.bytes > self.budget and len(self._pictures) > 1:
            _, old = self._pictures.popitem(last=False)
            self.bytes -= old.width() * old.height() * 4
        return pm

    @staticmethod
    def _render(face: CardFace, image: QImage | None, selected: bool, eligible: bool, kneeling: bool,
                scale: float, dpr: float) -> QPixmap:
        w, h = (CARD_H, CARD_W) if kneeling else (CARD_W, CARD_H)
        pm = QPixmap(math.ceil((w + 2 * PAD) * scale * dpr), math.ceil((h + 2 * PAD) * scale * dpr))
        pm.setDevicePixelRatio(dpr)
        pm.fill(Qt.GlobalColor.transparent)
        p = QPainter(pm)
        # The hints the table's view paints with.
        p.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing
                         | QPainter.RenderHint.SmoothPixmapTransform)
        p.scale(scale, scale)
        p.translate(PAD, PAD)
        paint_card_turned(p, face, image, selected=selected, eligible=eligible, kneeling=kneeling, lod=scale)
        p.end()
        return pm


PICTURES = CardPictures()
"""The table's card pictures (shared by every card and pile item)."""


def draw_card(painter: QPainter, face: CardFace, image: QImage | None = None, *, selected: bool = False,
              eligible: bool = False, kneeling: bool = False) -> None:
    """Draw a card at the painter's origin (in card units) from its cached picture, blitted at whole
    device pixels; painted directly when the painter is rotated, sheared or zoomed far in."""
    t = painter.worldTransform()
    scale = t.m11()
    if t.type().value > QTransform.TransformationType.TxScale.value or scale != t.m22() \
            or not 0 < scale <= MAX_CACHED_SCALE:
        paint_card_turned(painter, face, image, selected=selected, eligible=eligible, kneeling=kneeling,
                          lod=QStyleOptionGraphicsItem.levelOfDetailFromTransform(t))
        return
    device = painter.device()
    dpr = device.devicePixelRatioF() if device is not None else 1.0
    pm = PICTURES.get(face, image, selected, eligible, kneeling, round(scale, 4), dpr)
    x = round((t.dx() - PAD * scale) * dpr) / dpr
    y = round((t.dy() - PAD * scale) * dpr) / dpr
    painter.save()
    painter.setWorldTransform(QTransform())
    painter.drawPixmap(QPointF(x, y), pm)
    painter.restore()


# --------------------------------------------------------------------------- items

class DragSource:
    """Press, move past the drag distance, release over a target: a drag request to the scene.

    Mixed into items; no OS-level QDrag (the drag never leaves the table and
    tests can drive it with plain mouse events).
    """

    drag_id: int | None = None
    """The card id this item stands for as a drag source (None: not draggable)."""

    def _drag_init(self) -> None:
        self._press: QPointF | None = None
        self._home: QPointF | None = None
        self._dragging = False

    def _drag_press(self, event) -> None:
        self._press = event.scenePos()
        self._home = self.pos()
        self._dragging = False

    def _drag_move(self, event) -> None:
        if self._press is None or self.drag_id is None:
            return
        if not self._dragging:
            distance = (event.scenePos() - self._press).manhattanLength()
            if distance * self._view_scale(event) < QApplication.startDragDistance():
                return
            self._dragging = True
            self.setZValue(1000)
            self.setOpacity(0.85)
            self.scene().drag_started(self)
        self.setPos(self._home + event.scenePos() - self._press)
        self.scene().drag_moved(self, event.scenePos())

    def _view_scale(self, event) -> float:
        widget = event.widget()
        view = widget.parent() if widget is not None else None
        return view.transform().m11() if hasattr(view, "transform") else 1.0

    def _drag_release(self, event) -> bool:
        """True if this release ended a drag (so it is not also a click)."""
        was = self._dragging
        self._dragging, self._press = False, None
        if was:
            self.setOpacity(1.0)
            self.setPos(self._home)  # back home until the state says otherwise
            self.scene().drag_dropped(self, event.scenePos())
        return was

    # Qt's mouse events: a press may start a drag; a release that ended none is a click.
    def mousePressEvent(self, event) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self._drag_press(event)
            event.accept()
        else:
            event.ignore()

    def mouseMoveEvent(self, event) -> None:
        self._drag_move(event)

    def mouseReleaseEvent(self, event) -> None:
        if event.button() == Qt.MouseButton.LeftButton and not self._drag_release(event):
            self.clicked()

    def mouseDoubleClickEvent(self, event) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.double_clicked()

    def clicked(self) -> None:
        """A click (not a drag) on this item: the scene decides what it means."""

    def double_clicked(self) -> None:
        """A double click on this item."""


class CardItem(DragSource, QGraphicsItem):
    """One engine card on the table (cards inside piles have no item: the pile stands for them).

    A kneeling card is drawn turned 90° inside ``paint`` rather than by rotating
    the item: Qt's DeviceCoordinateCache only works for unrotated items, and a
    table is full of kneeling cards.
    """

    def __init__(self, card_id: int):
        super().__init__()
        self.card_id = card_id
        self.drag_id = card_id
        self.face: CardFace | None = None
        self.image: QImage | None = None
        self.selected = False
        self.eligible = False
        self.kneeling = False
        self._drag_init()
        self.setAcceptHoverEvents(True)
        # No item cache: the picture comes from PICTURES, shared by every item showing the same face.

    def boundingRect(self) -> QRectF:
        w, h = (CARD_H, CARD_W) if self.kneeling else (CARD_W, CARD_H)
        return QRectF(-3, -3, w + 6, h + 6)

    def set_state(self, face: CardFace, image: QImage | None, selected: bool, eligible: bool) -> None:
        """Show ``face``; repaints (and re-caches) only when something visible changed."""
        if face.kneeling != self.kneeling:
            self.prepareGeometryChange()
            self.kneeling = face.kneeling
        if (face, image, selected, eligible) != (self.face, self.image, self.selected, self.eligible):
            self.face, self.image, self.selected, self.eligible = face, image, selected, eligible
            self.update()

    def clear_state(self) -> None:
        """Show nothing (the item is put aside, hidden, until a seat that is shown its card needs it)."""
        self.face, self.image, self.selected, self.eligible = None, None, False, False
        self.update()

    def place_center(self, cx: float, cy: float) -> None:
        """Centre the card (upright or kneeling) on a scene point, at whole pixels (crisp caches)."""
        w, h = (CARD_H, CARD_W) if self.kneeling else (CARD_W, CARD_H)
        self.setPos(round(cx - w / 2), round(cy - h / 2))

    def paint(self, painter: QPainter, option, widget=None) -> None:
        if self.face is None:
            return
        draw_card(painter, self.face, self.image, selected=self.selected, eligible=self.eligible,
                  kneeling=self.kneeling)

    # Gestures go to the scene, which asks the controller.
    def hoverEnterEvent(self, event) -> None:
        self.scene().hovered(self.card_id)

    def hoverLeaveEvent(self, event) -> None:
        self.scene().hovered(None)

    def clicked(self) -> None:
        self.scene().gesture_click(self.card_id)

    def double_clicked(self) -> None:
        self.scene().gesture_double_click(self.card_id)

    def contextMenuEvent(self, event) -> None:
        self.scene().gesture_menu(self.card_id, event.screenPos())


BACK = CardFace(key="", name="", type="back", hidden=True)
"""A card's back: what a seat sees of a card it may not see."""


@dataclass(frozen=True)
class PileFace:
    """A pile as the table shows it: its label (with the count), how many cards (the pile's
    thickness), the top face (None: empty) and the top card's id (a drag source)."""

    label: str
    count: int
    top: CardFace | None = None
    top_id: int | None = None
    note: str = ""


class PileItem(DragSource, QGraphicsItem):
    """A pile (deck, discard, dead, plots, an opponent's hand...): one item, with a count.

    Its ``target`` (player, zone) receives drops; its top card can be dragged
    away in advise mode.
    """

    LABEL_H = 16

    def __init__(self, target: tuple[str, str], scale: float = 1.0):
        super().__init__()
        self.target = target
        self.scale_factor = scale
        self.pile: PileFace | None = None
        self.image: QImage | None = None
        self.highlight = False
        self._drag_init()
        self.setAcceptHoverEvents(True)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def boundingRect(self) -> QRectF:
        s = self.scale_factor
        return QRectF(-2, -2, CARD_W * s + 8, CARD_H * s + self.LABEL_H + 6)

    def set_scale(self, scale: float) -> None:
        """Resize the pile (a seat moving between the bottom of the table and a small place above)."""
        if scale != self.scale_factor:
            self.prepareGeometryChange()
            self.scale_factor = scale
            self.update()

    def set_pile(self, pile: PileFace, image: QImage | None = None) -> None:
        if (pile, image) != (self.pile, self.image):
            self.pile, self.image = pile, image
            self.drag_id = pile.top_id
            self.update()

    def set_highlight(self, on: bool) -> None:
        if on != self.highlight:
            self.highlight = on
            self.update()

    def paint(self, painter: QPainter, option, widget=None) -> None:
        pile = self.pile
        if pile is None:
            return
        s = self.scale_factor
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        slot = QRectF(0, 0, CARD_W * s, CARD_H * s)
        if pile.count == 0 and pile.top is None:
            painter.setPen(QPen(QColor(255, 255, 255, 90), 1.5, Qt.PenStyle.DashLine))
            painter.setBrush(QColor(0, 0, 0, 40))
            painter.drawRoundedRect(slot, 6, 6)
            painter.setPen(QColor(255, 255, 255, 140))
            painter.setFont(card_font(12 * max(s, 0.8), italic=True))
            painter.drawText(slot, Qt.AlignmentFlag.AlignCenter, pile.note or "empty")
        else:
            # A few offset edges suggest the thickness of the pile.
            depth = min(4, max(0, (pile.count - 1) // 8 + (1 if pile.count > 1 else 0)))
            for i in range(depth, 0, -1):
                painter.setPen(QPen(QColor("#1a1410"), 1))
                painter.setBrush(QColor("#d9ccb0"))
                painter.drawRoundedRect(slot.translated(i * 1.6, i * 1.6), 6, 6)
            painter.save()
            painter.scale(s, s)
            # the top card (a back when there is none to show): compact (whole title) when small on screen
            draw_card(painter, pile.top or BACK, self.image if pile.top is not None else None)
            painter.restore()
        label = QRectF(0, CARD_H * s + 2, CARD_W * s + 6, self.LABEL_H)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(0, 0, 0, 150))
        painter.drawRoundedRect(label, 4, 4)
        painter.setPen(QColor("#f5ecd6"))
        font = card_font(11, bold=True)
        painter.setFont(font)
        painter.drawText(label, Qt.AlignmentFlag.AlignCenter, _elided(pile.label, font, label.width() - 4))
        if self.highlight:
            painter.setPen(QPen(QColor("#ffd400"), 3))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(slot.adjusted(-2, -2, 2, 2), 7, 7)

    def hoverEnterEvent(self, event) -> None:
        if self.pile is not None and self.pile.top_id is not None and self.pile.top is not None \
                and not self.pile.top.hidden:
            self.scene().hovered(self.pile.top_id)

    def hoverLeaveEvent(self, event) -> None:
        self.scene().hovered(None)

    def clicked(self) -> None:
        self.scene().gesture_pile_click(self.target)

    def double_clicked(self) -> None:
        self.scene().gesture_pile_double_click(self.target)

    def contextMenuEvent(self, event) -> None:
        self.scene().gesture_pile_menu(self.target, event.screenPos())

