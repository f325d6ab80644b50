"""The game-over dialog: who won and how, the rounds, each player's power; Rematch and Save replay."""
from __future__ import annotations

import re

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QGridLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from cards.errors import printable
from engine.game import WIN_POWER, Game
from engine.wording import for_players


class GameOverDialog(QDialog):
    """Not modal: the table stays visible behind it (the final position can be read)."""

    rematch = Signal()
    save_replay = Signal()

    def __init__(self, parent: QWidget, game: Game, rounds: list | None = None):
        """``rounds``: a goldfish game's round summaries (``engine.ai.goldfish.RoundSummary``), listed."""
        super().__init__(parent)
        self.setObjectName("game-over")
        self.setWindowTitle("Game over")
        st = game.state
        result = game.advance()
        winner = getattr(result, "winner", st.winner) or "draw"
        box = QVBoxLayout(self)
        self.title = QLabel("A draw" if winner == "draw" else for_players(f"{winner} wins", st.player_names))
        self.title.setStyleSheet("font-size: 26px; font-weight: bold; color: #7a1414;")
        self.title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        box.addWidget(self.title)
        how = re.sub(r"^R\d+ [\w ]+?: ", "", getattr(result, "reason", "") or "")  # the log line, unprefixed
        self.how = QLabel(printable(how))  # a log line: its wording is the engine's (Game.log)
        self.how.setWordWrap(True)
        self.how.setAlignment(Qt.AlignmentFlag.AlignCenter)
        box.addWidget(self.how)
        self.rounds = QLabel(f"Round {st.round}, {st.phase} phase \u2014 {len(game.history)} answers")
        self.rounds.setStyleSheet("color: #555;")
        self.rounds.setAlignment(Qt.AlignmentFlag.AlignCenter)
        box.addWidget(self.rounds)
        grid = QGridLayout()
        grid.setHorizontalSpacing(18)
        grid.setContentsMargins(12, 10, 12, 10)
        for col, head in enumerate(("Player", "House", f"Power (/{WIN_POWER})", "")):
            label = QLabel(f"<b>{head}</b>")
            grid.addWidget(label, 0, col)
        self.rows: dict[str, tuple[int, str]] = {}
        conceded = {who for who, answer in game.history if answer == {"concede": True}}
        for row, p in enumerate(sorted(st.players, key=lambda p: -game.total_power(p.name)), start=1):
            power = game.total_power(p.name)
            note = "winner" if p.name == winner else ("conceded" if p.name in conceded else
                                                     "eliminated" if p.eliminated else "")
            self.rows[p.name] = (power, note)
            for col, text in enumerate((p.name, p.house.capitalize(), str(power), note)):
                grid.addWidget(QLabel(f"<b>{text}</b>" if p.name == winner else text), row, col)
        box.addLayout(grid)
        if rounds:  # a goldfish game: what each round gave
            box.addWidget(QLabel("<b>Round by round</b>"))
            table = QGridLayout()
            table.setHorizontalSpacing(14)
            table.setContentsMargins(12, 4, 12, 10)
            for col, head in enumerate(("Round", "Gold", "Used", "Played", "Power")):
                table.addWidget(QLabel(f"<b>{head}</b>"), 0, col)
            self.round_rows: list[tuple] = []
            for row, r in enumerate(rounds, start=1):
                gained = r.power - r.power_before
                cells = (str(r.round), str(r.gold), str(r.gold_used), ", ".join(r.played) or "—",
                         f"+{gained} ({r.power})")
                self.round_rows.append(cells)
                for col, text in enumerate(cells):
                    label = QLabel(text)
                    label.setWordWrap(col == 3)
                    table.addWidget(label, row, col)
            box.addLayout(table)
        buttons = QDialogButtonBox()
        self.rematch_button = QPushButton("Rematch")
        self.rematch_button.setToolTip("The same decks and seats, shuffled again (a new seed)")
        self.save_button = QPushButton("Save replay\u2026")
        self.close_button = QPushButton("Close")
        buttons.addButton(self.rematch_button, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(self.save_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.close_button, QDialogButtonBox.ButtonRole.RejectRole)
        self.rematch_button.clicked.connect(self._rematch)
        self.save_button.clicked.connect(self.save_replay.emit)
        self.close_button.clicked.connect(self.reject)
        box.addWidget(buttons)
        self.setMinimumWidth(440)

    def _rematch(self) -> None:
        self.accept()
        self.rematch.emit()
