"""Card names and texts with control characters at the table (issue 22): a bidirectional override (U+202E)
reversed the preview's whole text and the log line, a terminal escape or a bell reached the widgets raw.
The table shows them escaped as ``python -m cards.pool show`` prints them (``cards.errors.printable``):
card faces, the preview, the log, the prompt bar (buttons, tooltips, messages), dialogs."""
from __future__ import annotations

import os
import re
from pathlib import Path

from PySide6.QtWidgets import QAbstractButton, QApplication, QLabel, QTextBrowser, QWidget

from app.dialogs import GameSetup
from app.window import TableWindow

RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")

SCENARIO = """
format: 1
title: "control characters in card data (our own words)"
cards:
  - {name: "Evil\\u202eKing", type: character, cost: 1, strength: 2, icons: [military], traits: ["Lord\\u202e"],
     text: "Marshalling: Kneel Evil\\u202eKing to gain 1 gold.\\x1b[2J\\x07 (our own words)"}
  - {name: "Bell\\x07Ringer", type: character, cost: 1, strength: 1, icons: [power]}
  - {name: Quiet Plot, type: plot, income: 5, initiative: 0, claim: 1}
start:
  phase: marshalling
  first_player: alice
  players:
    alice:
      house: stark
      revealed_plot: Quiet Plot
      gold: 5
      hand: [{card: "Evil\\u202eKing", id: king}, {card: "Bell\\x07Ringer", id: bell}]
    bob:
      house: lannister
      revealed_plot: Quiet Plot
steps: []
"""


def _texts(window) -> list[tuple[str, str]]:
    out = []
    for top in QApplication.topLevelWidgets():
        if top is not window and not top.isVisible():
            continue
        for w in [top, *top.findChildren(QWidget)]:
            if w.toolTip():
                out.append((f"{type(w).__name__} tooltip", w.toolTip()))
            if isinstance(w, (QLabel, QAbstractButton)):
                out.append((f"{type(w).__name__} {w.objectName()}", w.text()))
            elif isinstance(w, QTextBrowser):
                out.append((f"{type(w).__name__}", w.toPlainText()))
    return out


def _raw(window) -> list[str]:
    return [f"{where}: {text!r}" for where, text in _texts(window) if RAW.search(text)]


def test_card_names_with_control_characters_are_shown_escaped(qtbot, tmp_path):
    path = tmp_path / "control.yaml"
    path.write_text(SCENARIO, encoding="utf-8")
    window = TableWindow(GameSetup(scenario=str(path), privacy=False), computer_delay_ms=0)
    qtbot.addWidget(window)
    window.resize(1600, 1000)
    window.show()
    ctl, g = window.controller, window.controller.game
    king = next(c for c in g.player("alice").hand if "King" in g.name(c))
    bell = next(c for c in g.player("alice").hand if "Ringer" in g.name(c))
    assert "\u202e" in g.name(king)  # the engine keeps the card's data as it is

    face = window.scene.face(king)
    assert face.name == "Evil\\u202eKing" and face.traits == ("Lord\\u202e",)
    assert "\\e[2J\\x07" in face.text and not RAW.search(face.text)
    window.preview_card(king)
    assert "Evil\\u202eKing" in window.preview.details.text()
    assert ctl.title(king) == "Evil\\u202eKing"

    window.scene.drop_card(king, ("zone", "alice", "characters"))
    window.scene.drop_card(bell, ("zone", "alice", "characters"))
    assert g.card(king).zone == "in_play" and g.card(bell).zone == "in_play"
    log = window.log.toPlainText()
    assert "Evil\\u202eKing" in log and "Bell\\x07Ringer" in log
    ctl.say(f"a refusal naming {g.name(king)}", "refused")
    window.refresh()
    window.preview_card(king)
    assert "Evil\\u202eKing" in window.prompt.buttons[f"hand-{king}-1"].text()  # its text is used by hand
    assert not _raw(window), _raw(window)[:5]
    if os.environ.get("MAESTER_SHOTS"):
        window.grab().save(str(Path(os.environ["MAESTER_SHOTS"]) / "control-characters.png"))
    window.close()


def test_a_player_called_you_reads_right_at_the_table(table):
    """The goldfish and "Play this deck" seat is called "You": the table says "You go first", "You are chosen at
    random", "You place…", its refusals "You have…"; the card tools say "Gain an intrigue icon"."""
    window, ui = table(seed=3, names=("You", "Bob"), mode="advise", privacy=False)
    ctl, g = window.controller, ui.game
    log = window.log.toPlainText()
    assert "is chosen at random" not in log.replace("Bob is chosen", "")
    d = ui.decision
    assert d.kind == "setup"
    while d.kind == "setup":
        if d.player == "You":
            pick = next(c for c in d.choices if g.card_type(c) == "character" and "intrigue" not in g.icons(c))
            ui.enter({"setup": [pick]})
        else:
            ui.enter({"pass": True})
        d = ui.decision
    ui.advance(lambda d: d.kind == "first_player")
    if ui.decision.player == "You":
        assert window.prompt.buttons["first-You"].text() == "You go first"
    log = window.log.toPlainText()
    assert "You place" in log and "You places" not in log
    ctl.viewer = "You"
    ctl.say(f"{'You'} is asked: choose the first player. You has no such card", "refused")
    assert window.prompt.msg.text() == "You are asked: choose the first player. You have no such card"
    mine = next(c for c in g.state.cards if g.card(c).zone == "in_play" and g.card(c).controller == "You"
                and g.card_type(c) == "character" and "intrigue" not in g.icons(c))
    labels = [label for label, *_ in ctl.card_actions(mine)]
    assert "Gain an intrigue icon until the end of the phase" in labels, labels
