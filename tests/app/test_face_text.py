"""A card face fits its rules text to the text box: smaller down to a legible minimum, then whole lines
ending with "…"; the preview holds the whole text, scrolling when it must (issue 24).

The texts here are our own words, not any card's printed text."""
from __future__ import annotations

from PySide6.QtGui import QFontMetricsF, QImage, QPainter
from PySide6.QtWidgets import QScrollArea

import app.card_item as card_item
from app.card_item import (BODY_PX, BODY_STEP, CARD_H, CARD_W, MIN_BODY_PX, TEXT_ZOOM, CardFace, card_font,
                           fit_text, paint_card, title_lines, wrap_words)
from app.preview import CardPreview, describe

BOX = (CARD_W - 14, 41.0)
"""A character's text box: below the STR and icons, above the "Maester's wording" mark."""
SHORT = "Kneel this card to draw 1 card."
LONG = ("Challenges: Kneel this card to choose a participating character you control. Until the end of the "
        "challenge it gets +2 STR and gains an intrigue icon.")
HUGE = " ".join([LONG] * 3)


def widths(fit, lines=None) -> list[float]:
    """Each drawn line's width in scene units."""
    fm = QFontMetricsF(fit.font)
    return [fm.horizontalAdvance(x) / TEXT_ZOOM for x in (fit.lines if lines is None else lines)]


def test_a_short_text_keeps_the_normal_size(qapp):
    fit = fit_text(SHORT, *BOX)
    assert fit.px == BODY_PX and " ".join(fit.lines) == SHORT


def test_a_long_text_is_drawn_smaller_with_every_word(qapp):
    fit = fit_text(LONG, *BOX)
    assert MIN_BODY_PX < fit.px < BODY_PX
    assert " ".join(fit.lines).split() == LONG.split()  # every word, in order, none cut
    assert max(widths(fit)) <= BOX[0]
    assert len(fit.lines) * fit.spacing / TEXT_ZOOM <= BOX[1]
    assert fit_text(LONG, *BOX) is fit  # laid out once per (text, box)
    bigger = QFontMetricsF(card_font((fit.px + BODY_STEP) * TEXT_ZOOM))  # the largest size that fits
    assert len(wrap_words(LONG, bigger, BOX[0] * TEXT_ZOOM)) * bigger.lineSpacing() > BOX[1] * TEXT_ZOOM


def test_a_text_too_long_for_the_minimum_ends_with_an_ellipsis(qapp):
    fit = fit_text(HUGE, *BOX)
    assert fit.px == MIN_BODY_PX
    assert fit.lines[-1].endswith("\u2026") and not any("\u2026" in x for x in fit.lines[:-1])
    assert max(widths(fit)) <= BOX[0]
    assert len(fit.lines) * fit.spacing / TEXT_ZOOM <= BOX[1]
    shown = " ".join(fit.lines).rstrip("\u2026").split()
    assert shown == HUGE.split()[:len(shown)]  # whole words from the start: the rest is in the preview


def test_a_word_wider_than_the_box_is_elided_not_drawn_past_it(qapp):
    fit = fit_text("x" * 200, *BOX)
    assert fit.px == MIN_BODY_PX and fit.lines[0].endswith("\u2026") and max(widths(fit)) <= BOX[0]


def test_the_face_draws_its_text_fitted_at_any_zoom(qapp, monkeypatch):
    calls = []

    def spy(text, width, height):
        calls.append((text, width, height))
        return fit_text(text, width, height)

    monkeypatch.setattr(card_item, "fit_text", spy)
    face = CardFace(key="t1", name="Test Knight", type="character", house=("stark",), cost="3", strength=3,
                    printed_strength=3, icons=frozenset({"military"}), english=HUGE)
    for scale in (1.0, 3.0):
        image = QImage(round(CARD_W * scale), round(CARD_H * scale), QImage.Format.Format_ARGB32)
        p = QPainter(image)
        p.scale(scale, scale)
        paint_card(p, face, lod=scale)
        p.end()
    assert calls == [(HUGE, *BOX)] * 2  # the same box (scene units) whatever the zoom


def test_a_title_too_long_for_its_lines_ends_with_an_ellipsis(qapp):
    title = "The Very Long Title Of A Card With Many Small Words In It"
    font, lines = title_lines(title, CARD_W - 10, 21, max_lines=2)
    assert len(lines) == 2 and lines[-1].endswith("\u2026")
    assert all(QFontMetricsF(font).horizontalAdvance(x) <= CARD_W - 10 for x in lines)


def test_the_preview_holds_the_whole_text(qtbot):
    face = CardFace(key="t1", name="Test Knight", type="character", english=HUGE + "\n" + HUGE)
    preview = CardPreview()
    qtbot.addWidget(preview)
    preview.resize(320, 560)  # the table's side panel
    preview.show()
    preview.show_card(face, describe(face, "in play"))
    qtbot.wait(20)
    label = preview.details
    assert HUGE in label.text().replace("<br>", " ") and "in play" in label.text()
    assert label.height() >= label.heightForWidth(label.width())  # laid out whole: nothing cut off
    area = next(w for w in (label.parent(), label.parent().parent()) if isinstance(w, QScrollArea))
    bar = area.verticalScrollBar()
    assert bar.maximum() > 0 and bar.maximum() >= label.height() - area.viewport().height()


def test_a_short_text_in_the_preview_does_not_scroll(qtbot):
    face = CardFace(key="t1", name="Test Knight", type="character", english=SHORT)
    preview = CardPreview()
    qtbot.addWidget(preview)
    preview.resize(320, 560)
    preview.show()
    preview.show_card(face, describe(face))
    qtbot.wait(20)
    assert preview.scroll.verticalScrollBar().maximum() == 0
    assert preview.view.height() > preview.view.minimumHeight()  # the card keeps its room
