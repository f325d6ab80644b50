"""The optional gold penalty (issue 24: Veteran Builder of the CCG) at the table: marshalling a card that offers
one asks the player whether to pay it, and the answer decides the cost and the card's response."""
from __future__ import annotations

from app.dialogs import GameSetup
from app.window import TableWindow

SCENARIO = """\
format: 1
title: An optional gold penalty at the table
cards:
  - name: Builder
    type: character
    cost: 2
    strength: 2
    icons: [military]
    abilities:
      - {kind: constant, optional_penalty: {gold: 1}}
      - {kind: passive, when: {event: marshalled, card: self, penalty: true}, effect: [{claim_power: self, amount: 2}]}
  - {name: Sentry, type: character, cost: 1, strength: 1, icons: [military]}
  - {name: Quiet Plot, type: plot, income: 0, initiative: 0, claim: 1}
start:
  phase: marshalling
  first_player: alice
  players:
    alice:
      house: stark
      gold: 6
      revealed_plot: Quiet Plot
      hand: [Builder, Builder, Sentry]
    bob:
      house: lannister
      revealed_plot: Quiet Plot
steps: []
"""


def test_the_table_asks_whether_to_pay_the_optional_gold_penalty(qtbot, tmp_path):
    path = tmp_path / "penalty.yaml"
    path.write_text(SCENARIO, encoding="utf-8")
    window = TableWindow(GameSetup(scenario=str(path), privacy=False), computer_delay_ms=0)
    qtbot.addWidget(window)
    ctl = window.controller
    g = ctl.game
    first, second, sentry = g.player("alice").hand
    asked = []
    ctl.ask_penalty = lambda title, gold: asked.append((title, gold)) or True
    ctl.play_from_hand(first)
    assert asked == [("Builder", 1)]
    assert g.card(first).zone == "in_play" and g.player("alice").gold == 3 and g.card(first).power == 2

    ctl.ask_penalty = lambda title, gold: asked.append((title, gold)) and False
    ctl.play_from_hand(second)
    assert asked[-1] == ("Builder", 1)
    assert g.card(second).zone == "in_play" and g.player("alice").gold == 1 and g.card(second).power == 0

    ctl.play_from_hand(sentry)  # a card with no optional penalty: nothing is asked
    assert len(asked) == 2 and g.card(sentry).zone == "in_play" and g.player("alice").gold == 0
