"""Goldfish at the table: ``maester --goldfish DECK`` opens the deck against a seat with no cards; each
round ends with a summary banner (gold, cards played, power) and the game-over dialog lists every round.
Undo and reopening a game rebuild the summaries from the game's answers."""
from __future__ import annotations

from app.main import parse_args, setup_from_args
from app.window import TableWindow
from engine.ai.goldfish import RoundTracker, goldfish_seats
from engine.ai.heuristic import HeuristicPlayer
from engine.decisions import GameOver
from tests.app.conftest import Driver


def _window(qtbot, argv: list[str]) -> tuple[TableWindow, Driver, list[str]]:
    window = TableWindow(setup_from_args(parse_args(argv)), computer_delay_ms=0)
    qtbot.addWidget(window)
    window.resize(1600, 1000)
    window.show()
    qtbot.waitExposed(window)
    banners: list[str] = []
    original = window.show_banner

    def show(text: str, ms: int = 2600) -> None:
        banners.append(text)
        original(text, ms)

    window.show_banner = show  # type: ignore[method-assign]
    return window, Driver(window, qtbot), banners


def test_command_line_goldfish_seat():
    setup = setup_from_args(parse_args(["--goldfish", "practice:stark"]))
    assert setup.names == ["You", "Goldfish"] and setup.computer == ["Goldfish"]
    game = setup.build()
    assert goldfish_seats(game) == ["Goldfish"]
    fish = game.state.player("Goldfish")
    assert not fish.hand and not fish.deck and not fish.plot_deck


def test_a_goldfish_game_summarises_every_round(qtbot):
    window, ui, banners = _window(qtbot, ["--goldfish", "practice:stark", "--seed", "5"])
    game = ui.game
    me = HeuristicPlayer(2)
    powers: dict[int, int] = {}  # the player's power at his first decision of each round
    for _ in range(3000):
        if isinstance(game.advance(), GameOver):
            break
        powers.setdefault(game.state.round, game.total_power("You"))
        ui.answer_with(me)
    result = game.advance()
    assert isinstance(result, GameOver) and result.winner == "You"
    last = game.state.round
    # a banner for every round but the last (the game-over dialog ends that one)
    shown = [b for b in banners if b.startswith("Round ")]
    assert [int(b.split(":")[0].split()[1]) for b in shown] == list(range(1, last))
    dialog = window.game_over_dialog
    assert dialog is not None
    rows = dialog.round_rows
    assert [int(r[0]) for r in rows] == list(range(1, last + 1))
    final = game.total_power("You")
    assert rows[-1][4].endswith(f"({final})")
    for n, row in enumerate(rows, start=1):  # +gained (total): what the round added to the power
        gained = int(row[4].split()[0])
        end = powers.get(n + 1, final)
        assert gained == end - powers[n], (n, row)
    assert sum(int(r[4].split()[0]) for r in rows) == final
    # gold used never exceeds gold collected, and a marshalled card is named in its round's row
    assert all(int(r[2]) <= int(r[1]) for r in rows)
    marshalled = [line.split("You marshals ", 1)[1].split(" (")[0].split(" onto ")[0] for line in game.state.log
                  if "You marshals " in line]
    assert marshalled and all(any(name in r[3] for r in rows) for name in marshalled)
    assert dialog.isVisible()
    window.close()
    assert not dialog.isVisible()  # closing the table closes its game-over dialog


def test_undo_rebuilds_the_round_summaries(qtbot):
    window, ui, _ = _window(qtbot, ["--goldfish", "practice:stark", "--seed", "8"])
    game = ui.game
    me = HeuristicPlayer(4)
    while game.state.round < 3:
        ui.answer_with(me)
    before = [(r.round, r.gold, r.gold_used, list(r.played), r.power_before, r.power)
              for r in window.rounds.rounds if r.closed]
    assert [b[0] for b in before] == [1, 2]
    assert window.undo() and ui.game is not game
    now = ui.game.state.round
    after = [(r.round, r.gold, r.gold_used, list(r.played), r.power_before, r.power)
             for r in window.rounds.rounds if r.closed]
    assert [a[0] for a in after] == list(range(1, now)) and after == before[:now - 1]
    # the same summaries from a tracker that watched nothing: rebuilt from the answers
    fresh = RoundTracker("You")
    fresh.rebuild(ui.game)
    assert [(r.round, r.gold, r.played, r.power) for r in fresh.rounds if r.closed] == \
        [(r.round, r.gold, r.played, r.power) for r in window.rounds.rounds if r.closed]
    window.close()

