"""The computer levels at the table: a whole game against the strong level, four players with three
computer seats, New Game's level per seat, ``--computer NAME:LEVEL``."""
from __future__ import annotations

from app.dialogs import GameSetup, NewGameDialog
from app.main import parse_args, setup_from_args
from app.window import TableWindow
from engine.ai.heuristic import HeuristicPlayer
from engine.ai.strong import StrongPlayer
from engine.decisions import GameOver
from tests.app.conftest import Driver


def _window(qtbot, setup: GameSetup) -> tuple[TableWindow, Driver]:
    window = TableWindow(setup, computer_delay_ms=0)
    qtbot.addWidget(window)
    window.resize(1600, 1000)
    window.show()
    qtbot.waitExposed(window)
    return window, Driver(window, qtbot)


def _play_through_ui(ui: Driver, chooser, limit: int = 3000) -> GameOver:
    game = ui.game
    for _ in range(limit):
        result = game.advance()
        if isinstance(result, GameOver):
            return result
        ui.answer_with(chooser)
    raise AssertionError("no winner")


def test_a_whole_game_against_the_strong_level(qtbot):
    setup = GameSetup(names=["Alice", "Bob"], computer=["Bob"], levels={"Bob": "strong"}, seed=4)
    window, ui = _window(qtbot, setup)
    assert isinstance(ui.ctl.computers["Bob"], StrongPlayer)
    result = _play_through_ui(ui, HeuristicPlayer(9))
    assert result.winner in ("Alice", "Bob")
    text = window.log.toPlainText()
    assert "\u2192 Bob" in text  # the computer's reasons are in the log
    window.close()


def test_four_players_three_computers(qtbot):
    setup = GameSetup(names=["Alice", "Bob", "Carol", "Dave"],
                      decks=["practice:stark", "practice:lannister"] * 2,
                      computer=["Bob", "Carol", "Dave"], levels={"Bob": "strong", "Carol": "heuristic",
                                                                "Dave": "random"}, seed=2)
    window, ui = _window(qtbot, setup)
    result = _play_through_ui(ui, HeuristicPlayer(3))
    assert result.winner in setup.names
    window.close()


def test_new_game_offers_a_level_per_computer_seat(qtbot):
    dialog = NewGameDialog(None, GameSetup(names=["Alice", "Bob"], computer=["Bob"], levels={"Bob": "strong"}))
    qtbot.addWidget(dialog)
    row = dialog.rows[1]
    assert row.computer.isChecked() and row.level.isEnabled() and row.level.currentData() == "strong"
    assert not dialog.rows[0].level.isEnabled()
    row.level.setCurrentIndex(row.level.findData("random"))
    assert dialog.setup().levels == {"Bob": "random"}


def test_command_line_levels():
    setup = setup_from_args(parse_args(["--computer", "bob:strong"]))
    assert setup.computer == ["Bob"] and setup.levels == {"Bob": "strong"}
    setup = setup_from_args(parse_args(["--computer", "Bob"]))
    assert setup.levels == {"Bob": "heuristic"}
