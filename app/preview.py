"""The side panel: a large, readable preview of the card under the mouse, and the game log.

Card names in the log are links; hovering one previews that card. An automated card's text is
Maester's wording, generated from its ability data (``engine.abilities.render``), marked as such;
its printed text (French or English) is one click away (the link beside the mark).
"""
from __future__ import annotations

import html
import re

from PySide6.QtCore import QSize, Qt, QUrl, Signal
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import (QFrame, QLabel, QScrollArea, QSizePolicy, QTextBrowser, QVBoxLayout,
                               QWidget)

from app.card_item import CARD_H, CARD_W, CardFace, paint_card, rules_text, strength_text
from cards.errors import printable
from engine.abilities.render import MARK
from engine.wording import for_players

LANGUAGES = {"": "English", "en": "English", "fr": "French"}


class CardImageView(QWidget):
    """Draws one card as large as the panel allows (the same drawing as on the table)."""

    def __init__(self):
        super().__init__()
        self.face: CardFace | None = None
        self.image: QImage | None = None
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.setMinimumHeight(round(CARD_H * 1.6))

    def sizeHint(self) -> QSize:
        return QSize(round(CARD_W * 2.5), round(CARD_H * 2.5))

    def heightForWidth(self, w: int) -> int:
        return round(w * CARD_H / CARD_W)

    def set_card(self, face: CardFace | None, image: QImage | None = None) -> None:
        if (face, image) == (self.face, self.image):
            return  # the same card as shown: nothing to repaint
        self.face, self.image = face, image
        self.update()

    def paintEvent(self, event) -> None:
        if self.face is None:
            return
        p = QPainter(self)
        scale = min(self.width() / (CARD_W + 8), self.height() / (CARD_H + 8))
        p.translate((self.width() - CARD_W * scale) / 2, 4)
        p.scale(scale, scale)
        # The preview shows the card upright, whatever its state on the table.
        paint_card(p, self.face, self.image)
        p.end()


class CardPreview(QWidget):
    """The card under the mouse, large, with its details in words below."""

    def __init__(self):
        super().__init__()
        box = QVBoxLayout(self)
        box.setContentsMargins(6, 6, 6, 6)
        self.view = CardImageView()
        box.addWidget(self.view, 3)
        self.card_id: int | None = None
        self.details = QLabel(self.HINT)
        self.details.setWordWrap(True)
        self.details.setTextFormat(Qt.TextFormat.RichText)
        self.details.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.details.setStyleSheet("font-size: 13px; color: #1c1408; background: #f6efdf; padding: 6px;"
                                   "border-radius: 4px;")
        self.details.setOpenExternalLinks(False)
        self.details.linkActivated.connect(self._link)
        # a long text scrolls: the face may end its text with "…", the preview always holds all of it
        self.scroll = QScrollArea()
        self.scroll.setWidget(self.details)
        self.scroll.setWidgetResizable(True)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        box.addWidget(self.scroll, 2)
        self.printed = False
        """Show the printed text instead of Maester's wording (the link beside either switches; it stays
        switched for the next cards)."""
        self._details = ""

    HINT = "Hover over a card to read it."

    def show_card(self, face: CardFace | None, details: str = "", image: QImage | None = None,
                  card_id: int | None = None) -> None:
        """Preview ``face`` (drawn face up: the window previews only what the seat may see).
        ``card_id``: the card on the table it shows (None: a card named in the log, by its key)."""
        self.view.set_card(face, image)
        self._details = details or ""
        self._show_details()
        self.card_id = card_id if face is not None else None

    def _show_details(self) -> None:
        hide = "mine" if self.printed else "printed"
        text = re.sub(rf"<!--{hide}-->.*?<!--/{hide}-->", "", self._details, flags=re.S)
        if self.details.text() != text:  # a rich-text label lays itself out again on every setText
            self.details.setText(text)
            self._room_for_details()

    def _room_for_details(self) -> None:
        """The details take the room their text needs, the card image giving way down to its minimum;
        past that they scroll."""
        margins = self.layout().contentsMargins()
        room = self.height() - margins.top() - margins.bottom() - self.layout().spacing() - self.view.minimumHeight()
        need = self.details.heightForWidth(self.scroll.viewport().width())
        self.scroll.setMinimumHeight(max(0, min(need, room)))

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self._room_for_details()

    def _link(self, link: str) -> None:
        if link == "text:switch":
            self.printed = not self.printed
            self._show_details()

    def clear(self) -> None:
        """Show nothing (the seat changed)."""
        self.show_card(None, self.HINT)


def describe(face: CardFace, where: str = "") -> str:
    """A card in words (rich text) for the preview panel."""
    e = html.escape
    parts = [f"<b style='font-size:15px'>{'&#9670; ' if face.unique else ''}{e(face.name)}</b>"]
    kind = face.type.capitalize()
    if face.house:
        kind += " \u00b7 " + ", ".join(h.capitalize() for h in face.house)
    elif face.type not in ("plot", "house", "title"):
        kind += " \u00b7 Neutral"
    parts.append(kind)
    stats = []
    if face.cost:
        stats.append(f"Cost {face.cost}")
    if face.type == "character":
        strength = strength_text(face)
        if face.printed_strength is not None and face.strength != face.printed_strength:
            strength += f" (printed {'X' if face.strength_x else face.printed_strength})"
        stats.append(f"STR {strength}")
        stats.append("Icons: " + (", ".join(i for i in ("military", "intrigue", "power") if i in face.icons) or "none"))
    if face.type == "plot":
        stats.append(f"Income {face.income} \u00b7 Initiative {face.initiative} \u00b7 Claim {face.claim}")
    else:
        for label, value in (("Income", face.income), ("Initiative", face.initiative), ("Influence", face.influence)):
            if value:
                stats.append(f"{label} {value:+d}" if label != "Influence" else f"{label} {value}")
    if stats:
        parts.append(" \u00b7 ".join(stats))
    if face.traits:
        parts.append("<i>" + e(". ".join(face.traits)) + ".</i>")
    if face.keywords:
        parts.append("<b>" + e(". ".join(k.capitalize() for k in face.keywords)) + ".</b>")
    parts.extend(text_parts(face))
    if face.by_hand:
        parts.append("<span style='color:#7a4a00'><b>Text by hand</b>: the engine does not automate "
                     "this text; use it from the prompt bar when it is offered, and carry it out with the "
                     "tools</span>")
    if face.tokens:
        parts.append("Tokens: " + e(", ".join(f"{n} {name}" for name, n in face.tokens)))
    if face.note:
        parts.append("Note: <i>" + e(face.note) + "</i>")
    runtime = []
    if face.kneeling:
        runtime.append("kneeling")
    if face.power:
        runtime.append(f"{face.power} power")
    if face.duplicates:
        runtime.append(f"{face.duplicates} duplicate{'s' if face.duplicates > 1 else ''}")
    if face.moribund:
        runtime.append(f"<span style='color:#a00'>&#9760; moribund (leaves play to {face.moribund})</span>")
    runtime.extend(face.marks)
    if where:
        runtime.insert(0, e(where))
    if runtime:
        parts.append("<span style='color:#5a4a35'>" + " \u00b7 ".join(runtime) + "</span>")
    return "<br>".join(parts)


def text_parts(face: CardFace) -> list[str]:
    """The card's text for ``describe``: Maester's wording (marked) with a link to the printed text, and the
    printed text with a link back, each in its own block (``CardPreview`` shows one); a card without Maester's
    wording shows its printed text, with a language mark when it is not in English."""
    e = html.escape
    printed = rules_text(face, face.text)
    language = LANGUAGES.get(face.text_lang, face.text_lang.upper())
    mark = "<span style='color:#6b5a3a; font-size:11px'>{}</span>"
    if face.english:
        mine = rules_text(face, face.english)
        out = []
        if mine:
            link = f" \u00b7 <a href='text:switch'>printed text ({language})</a>" if printed else ""
            out.append(f"<!--mine-->{mark.format('<i>' + MARK + '</i>' + link)}<br>"
                       f"{e(mine).replace(chr(10), '<br>')}<!--/mine-->")
        if printed:
            link = f" \u00b7 <a href='text:switch'>{MARK}</a>" if mine else ""
            out.append(f"<!--printed-->{mark.format(f'<i>Printed text ({language})</i>' + link)}<br>"
                       f"{e(printed).replace(chr(10), '<br>')}<!--/printed-->")
        return ["".join(out)]  # one part: the block not shown leaves no empty line
    if not printed:
        return []
    if language != "English":
        return [mark.format(f"<b>[{face.text_lang.upper()}]</b> <i>{language} text, by hand: Maester has no "
                            f"English wording for this card</i>"), e(printed).replace("\n", "<br>")]
    return [e(printed).replace("\n", "<br>")]


class GameLog(QTextBrowser):
    """The game log; card names are links that preview the card on hover."""

    card_hovered = Signal(str)
    """A card key whose name is under the mouse."""

    def __init__(self):
        super().__init__()
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.setStyleSheet("font-size: 12px; background: #fbf7ee; color: #231a12;")
        self.document().setDefaultStyleSheet("a { color: #7a1414; text-decoration: none; font-weight: bold; }"
                                             ".advice { color: #8a5a00; }")
        self._shown = 0
        self._pattern: re.Pattern | None = None
        self._keys: dict[str, str] = {}
        self._linkable = lambda key: True
        self._players: list[str] = []
        self.highlighted.connect(self._hover)

    def set_cards(self, names_to_keys: dict[str, str], linkable=lambda key: True, players=()) -> None:
        """Which card names to link (the game's pool): longest names first so none is cut short.
        ``linkable(key)`` says whether a name may link now (a line's links are fixed when it is added).
        Names and lines are shown with control characters escaped (``cards.errors.printable``), and the
        sentences of a player called "You" in the plain form ("You place", ``engine.wording.for_players``):
        the engine's log keeps one wording, which the goldfish summary and the banners read."""
        self._linkable = linkable
        self._players = list(players)
        names_to_keys = {printable(n): k for n, k in names_to_keys.items()}
        self._keys = {n.casefold(): k for n, k in names_to_keys.items()}
        names = sorted(names_to_keys, key=len, reverse=True)
        self._pattern = re.compile("|".join(re.escape(html.escape(n, quote=False)) for n in names)) if names else None
        self.clear()
        self._shown = 0

    def _link(self, line: str) -> str:
        # quote=False: Qt's rich text shows "&#x27;" literally, and quotes need no escaping here
        text = html.escape(printable(line), quote=False)
        if self._pattern is None:
            return text

        def repl(m: re.Match) -> str:
            name = html.unescape(m.group(0))
            key = self._keys.get(name.casefold(), name)
            if not self._linkable(key):
                return m.group(0)
            return f"<a href='card:{html.escape(key, quote=True)}'>{m.group(0)}</a>"

        return self._pattern.sub(repl, text)

    def first_card(self, line: str) -> str | None:
        """The key of the first card named in a log line, if any."""
        if self._pattern is None:
            return None
        for m in self._pattern.finditer(html.escape(printable(line), quote=False)):
            key = self._keys.get(html.unescape(m.group(0)).casefold())
            if key is not None and self._linkable(key):
                return key
        return None

    def sync(self, lines: list[str]) -> None:
        """Append the lines not shown yet (the log only grows)."""
        if len(lines) == self._shown:
            return  # nothing new: the log is not touched
        if len(lines) < self._shown:
            self.clear()
            self._shown = 0
        for line in lines[self._shown:]:
            body = self._link(for_players(line, self._players))
            if ": advice: " in line:
                body = f"<span class='advice'>&#9888; {body}</span>"
            self.append(body)
        self._shown = len(lines)
        bar = self.verticalScrollBar()
        bar.setValue(bar.maximum())

    def _hover(self, url: QUrl) -> None:
        text = url.toString()
        if text.startswith("card:"):
            self.card_hovered.emit(QUrl.fromPercentEncoding(text[5:].encode()))
