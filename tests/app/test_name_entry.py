"""Player names are checked where they are entered (--names, the New Game dialog) by the engine's one check
(``engine.decisions.names_problem``): one message, and a game is never started with a name it refuses."""
from __future__ import annotations

import pytest

from app.dialogs import GameSetup

ESC, BEL = "\x1b", "\x07"


@pytest.mark.parametrize("names", [[ESC, BEL], ["Al\u200fice", "Bob"], ["\u202eBob", "Alice"]])
def test_names_with_control_or_invisible_characters_are_refused_on_the_command_line(names, capsys, tmp_path,
                                                                                    monkeypatch):
    from app.main import main

    monkeypatch.setenv("MAESTER_HOME", str(tmp_path))
    with pytest.raises(SystemExit) as out:
        main(["--offscreen", "--no-autosave", "--names", *names, "--autoplay", "30"])
    message = str(out.value)
    assert message.startswith("maester: --names: the player's name ") and "U+" in message
    assert "control or invisible character" in message and message.isprintable()
    assert "autoplay answered" not in capsys.readouterr().out


def test_a_goldfish_players_name_is_checked_too(tmp_path, monkeypatch):
    from app.main import main

    monkeypatch.setenv("MAESTER_HOME", str(tmp_path))
    with pytest.raises(SystemExit, match="--names: the player's name '\\\\x1b' contains U\\+001B"):
        main(["--offscreen", "--no-autosave", "--goldfish", "practice:stark", "--names", ESC, "--autoplay", "3"])


def test_the_new_game_dialog_refuses_such_a_name_with_the_same_message(qtbot, monkeypatch):
    from app.dialogs import NewGameDialog
    from engine.decisions import names_problem

    dialog = NewGameDialog(None, GameSetup())
    qtbot.addWidget(dialog)
    dialog.rows[0].name.setText("Al\u200fice")
    warned = []
    monkeypatch.setattr("app.dialogs.QMessageBox.warning", lambda parent, title, text: warned.append(text))
    dialog._accept()
    problem = names_problem(["Al\u200fice", "Bob"])
    assert warned == [problem[0].upper() + problem[1:] + "."] and dialog.result() == 0
    assert GameSetup(names=["Bob", "Bob"]).check() == "Two players are named 'Bob': each player needs a " \
                                                      "different name."
    assert GameSetup(names=["Zo\u00eb", "\u674e\u767d"]).check() is None
