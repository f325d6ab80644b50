"""The preview, the card browser and the deck editor's card view show Maester's wording of automated cards,
marked, with the printed text one click away; a card in another language without it says so (issue 24)."""
from __future__ import annotations

from PySide6.QtGui import QImage, QPainter

from app.browser import CardInfo
from app.card_item import CARD_H, CARD_W, CardFace, paint_card, rules_text
from app.preview import CardPreview, describe
from cards.model import CardDef
from cards.pool import practice_pool
from engine.abilities.render import MARK, card_text

ENVOY = "Silver-Tongued Envoy"
FRENCH = CardDef(key="fr_1", name="Eddard", type="character", cost=4, strength=4,
                 text="Réponse : quand un personnage est tué, redressez ce personnage.", text_lang="fr")


def test_a_face_carries_maesters_wording_and_the_face_draws_it():
    card = practice_pool().get(ENVOY)
    face = CardFace.of(card)
    assert face.english == card_text(card) and face.english.startswith("Challenges: Kneel 1 influence")
    assert rules_text(face) == face.english  # the card face draws Maester's wording
    assert rules_text(face, face.text) == card.text


def test_the_preview_shows_the_wording_marked_and_the_printed_text_one_click_away(qtbot):
    card = practice_pool().get(ENVOY)
    face = CardFace.of(card)
    preview = CardPreview()
    qtbot.addWidget(preview)
    preview.show_card(face, describe(face))
    shown = preview.details.text()
    assert MARK in shown and "printed text (English)" in shown and "text:switch" in shown
    assert "<!--mine-->" in shown and "<!--printed-->" not in shown
    assert "It gets -1 STR until the end of the challenge. (Limit once per phase.)" in shown
    preview.details.linkActivated.emit("text:switch")  # the link beside the mark
    printed = preview.details.text()
    assert "Printed text (English)" in printed and MARK in printed  # the link back
    assert "<!--printed-->" in printed and "<!--mine-->" not in printed
    assert "(Limit once per phase.)" not in printed and card.text.splitlines()[-1] in printed
    preview.details.linkActivated.emit("text:switch")
    assert preview.details.text() == shown


def test_a_french_card_without_wording_says_so():
    face = CardFace.of(FRENCH)
    assert face.english == ""
    text = describe(face)
    assert "[FR]" in text and "French text, by hand" in text and "redressez" in text
    image = QImage(CARD_W, CARD_H, QImage.Format.Format_ARGB32)
    p = QPainter(image)
    paint_card(p, face)  # draws "FR · by hand" on the face; must not fail
    p.end()


def test_the_browser_and_deck_editor_card_view_show_the_wording(qtbot):
    pool = practice_pool()
    info = CardInfo(pool)  # the browser's and the deck editor's card view
    qtbot.addWidget(info)
    info.show_card(pool.get(ENVOY))
    assert MARK in info.preview.details.text()
    info.show_card(FRENCH)
    assert "[FR]" in info.preview.details.text()
