"""Gold tokens on a card (Tywin Lannister, core_40) at the table: drawn as a gold coin on the card, counted in the
seat header, and the table asks whether they or the gold pool pay first."""
from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtGui import QColor, QImage, QPainter

from app.card_item import CARD_H, CARD_W, paint_card
from app.dialogs import GameSetup
from app.window import TableWindow

SCENARIO = """\
format: 1
title: Tywin at the table
cards:
  - pool: core_40
  - {name: Hired Sword, type: character, house: lannister, cost: 2, strength: 2, icons: [military]}
  - {name: Quiet Plot, type: plot, income: 0, initiative: 0, claim: 1}
start:
  phase: marshalling
  first_player: alice
  players:
    alice:
      house: lannister
      gold: 2
      revealed_plot: Quiet Plot
      hand: [{card: Hired Sword, id: sword}]
      in_play: [{card: Tywin Lannister, id: tywin, gold_tokens: 1}]
    bob:
      house: stark
      revealed_plot: Quiet Plot
steps: []
"""


def _coin_pixel(face) -> QColor:
    image = QImage(CARD_W, CARD_H, QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    p = QPainter(image)
    paint_card(p, face)
    p.end()
    return image.pixelColor(CARD_W - 60 + 5, CARD_H - 30 + 13)  # inside the coin, left of its number


def test_gold_on_tywin_is_drawn_and_the_table_asks_which_gold_pays_first(qtbot, tmp_path, lcg_json):
    path = tmp_path / "tywin.yaml"
    path.write_text(SCENARIO, encoding="utf-8")
    window = TableWindow(GameSetup(scenario=str(path), privacy=False), computer_delay_ms=0)
    qtbot.addWidget(window)
    ctl = window.controller
    g = ctl.game
    tywin = next(c for c in g.player("alice").in_play if g.name(c) == "Tywin Lannister")
    sword = g.player("alice").hand[0]
    assert g.state.phase == "marshalling" and ctl.decision.player == "alice"
    assert g.card(tywin).tokens == {"gold": 3}  # 1 + 2 as the phase began

    face = window.scene.face(tywin)
    assert dict(face.tokens) == {"gold": 3}
    coin = _coin_pixel(face)
    assert coin.red() > 200 and coin.green() > 150 and coin.blue() < 120, coin.name()
    assert _coin_pixel(face.__class__(**{**face.__dict__, "tokens": ()})).name() != coin.name()
    header = window.scene.headers["alice"]
    assert header.info.gold_on_cards == 3

    if os.environ.get("MAESTER_SHOTS"):
        window.grab().save(str(Path(os.environ["MAESTER_SHOTS"]) / "tywin-gold.png"))

    asked = []
    ctl.ask_gold_tokens = lambda cost, from_tokens: asked.append((cost, from_tokens)) or True
    ctl.play_from_hand(sword)
    assert asked == [(2, 2)]
    assert g.card(sword).zone == "in_play"
    assert g.player("alice").gold == 2 and g.card(tywin).tokens == {"gold": 1}
