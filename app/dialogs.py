"""Starting a game: the settings (``GameSetup``) and the New game dialog that fills them in."""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFileDialog, QFormLayout,
                               QGridLayout, QGroupBox, QHBoxLayout, QLabel, QLineEdit, QMessageBox, QPushButton,
                               QSpinBox, QVBoxLayout, QWidget)

from app.controller import PROMPTING
from engine.decisions import names_problem
from engine.game import Game, Options

PRACTICE = ("practice:stark", "practice:lannister")
"""Deck choices that name the practice decks instead of a file."""
GOLDFISH = "goldfish"
"""The deck choice of a goldfish seat: no cards at all (``engine.ai.goldfish``)."""
DEFAULT_NAMES = ("Alice", "Bob", "Carol", "Dave")
ERA_RULESET = {"ccg": "ccg-winter", "lcg": "lcg"}
"""The rules an era's decks are played under unless the player chooses others."""


def ruleset_for(era: str | None, chosen: str | None = None) -> str:
    """The ruleset of a game: the one chosen, else the era's (``ERA_RULESET``), else LCG."""
    return chosen or ERA_RULESET.get(era or "", "lcg")


@dataclass
class GameSetup:
    """Everything needed to start a game at the table.

    ``decks`` has one entry per seat: ``practice:stark``, ``practice:lannister``,
    ``agotdb:NAME`` (a fixed deck of the imported AGoTDB pool, ``cards.deck.fixed_decks``)
    or the path of a deck file (OCTGN .o8d, a text list, or a deckbuilder export).
    ``era`` (``ccg``: Winter Edition to Five Kings Edition, ``lcg``; None: any card)
    restricts every deck to cards printed in that era (``cards.sets``).
    """

    names: list[str] = field(default_factory=lambda: ["Alice", "Bob"])
    decks: list[str] = field(default_factory=lambda: list(PRACTICE))
    computer: list[str] = field(default_factory=list)
    levels: dict[str, str] = field(default_factory=dict)
    """Each computer seat's level (``engine.ai.LEVELS``: random, heuristic, strong); heuristic when absent."""
    ruleset: str | None = None
    """``lcg`` or ``ccg-winter``; None: the era's (``ERA_RULESET``), else LCG."""
    mode: str = "enforce"
    seed: int | None = None
    privacy: bool = True
    era: str | None = None
    scenario: str | None = None
    """A scenario file: the table opens at its position (its players and cards), not with decks."""
    prompting: dict[str, str] = field(default_factory=dict)
    """When the table stops for each person (``app.controller.PROMPTING``; ``legal`` when absent)."""

    def __post_init__(self) -> None:
        self.ruleset = ruleset_for(self.era, self.ruleset)

    def build(self) -> Game:
        """The game, from these settings; a bad deck or scenario file raises ``cards.errors.DataError``."""
        from engine.builder import new_game, practice_decks

        if self.scenario:
            return self._scenario_game()

        stark, lannister = practice_decks()
        decks = {}
        pool = None
        for name, choice in zip(self.names, self.decks):
            if choice == "practice:stark":
                decks[name] = stark
            elif choice == "practice:lannister":
                decks[name] = lannister
            elif choice == GOLDFISH:
                from engine.ai.goldfish import empty_deck

                decks[name] = empty_deck()
            else:
                from cards.deck import read_deck
                from cards.pool import default_pool

                pool = pool or default_pool()
                decks[name] = read_deck(choice, pool)
        if self.era:
            from cards.deck import check_deck
            from cards.errors import DataError
            from cards.sets import ERAS

            for name, choice in zip(self.names, self.decks):
                outside = [p for p in check_deck(decks[name], casual=True, era=self.era) if p.rule == "ERA"]
                if outside:
                    more = f" and {len(outside) - 1} more" if len(outside) > 1 else ""
                    raise DataError(f"{name}'s deck is not of the era {ERAS[self.era]}: "
                                    f"{outside[0].message}{more}", file=choice,
                                    hint="choose a deck of that era, or allow every card")
        seed = self.seed if self.seed is not None else random.randrange(1 << 30)
        return new_game(decks, seed=seed, ruleset=self.ruleset,
                        options=Options(prompt_all=True, mode=self.mode))
        # prompt_all: the engine asks every opportunity; the controller passes the ones each player's
        # prompting setting skips, so the setting may change mid-game and replays still agree.

    def _scenario_game(self) -> Game:
        from cards.errors import DataError
        from engine.scenario import ScenarioError, load_scenario

        try:
            sc = load_scenario(self.scenario, Options(prompt_all=True, mode=self.mode))
        except ScenarioError as err:
            raise DataError(f"step {err.step}: {err.reason}", file=self.scenario) from None
        except DataError:
            raise
        except Exception as err:  # a bug of ours must still not print a traceback at the user
            raise DataError(f"internal error while loading ({type(err).__name__}: {err})", file=self.scenario,
                            hint="please report it with this file") from None
        self.names = sc.game.state.player_names
        sc.game.log(f"scenario: {sc.title}")
        return sc.game

    def deck_problems(self) -> list[str]:
        """What the deck checker says of each chosen deck file (casual rules, DCK-01..06), one line
        per problem naming the seat; the practice decks are legal. A deck that cannot be read is
        reported by ``build``."""
        if self.scenario:
            return []
        from cards.deck import check_deck, read_deck
        from cards.errors import DataError
        from cards.pool import default_pool

        out, pool = [], None
        for name, choice in zip(self.names, self.decks):
            if choice in PRACTICE or choice == GOLDFISH or str(choice).startswith("agotdb:"):
                continue  # the practice decks are legal; a fixed deck is played as the publisher made it
            pool = pool or default_pool()
            try:
                deck = read_deck(choice, pool)
            except (DataError, OSError, ValueError):
                continue  # build() says what is wrong with the file
            out += [f"{name} ({Path(choice).name}): {p}" for p in check_deck(deck, casual=True)]
        return out

    def check(self) -> str | None:
        """What is wrong with the settings (for the dialog), or None."""
        if not 2 <= len(self.names) <= 4:
            return "First edition is played by 2 to 4 players."
        problem = names_problem(self.names)  # the one check of names (engine.decisions.name_problem)
        return problem[0].upper() + problem[1:] + "." if problem else None


def fixed_deck_names() -> list[str]:
    """The fixed decks of the imported card pool (none when nothing usable was imported)."""
    from cards.deck import fixed_decks
    from cards.errors import DataError
    from cards.pool import default_pool

    try:
        return [fixed.name for fixed, _ in fixed_decks(default_pool())]
    except DataError:
        return []


COMPUTER_LEVELS = {"random": "Random", "heuristic": "Normal", "strong": "Strong"}
"""The computer levels a seat offers (``engine.ai``)."""

class SeatRow(QWidget):
    """One seat in the dialog: name, deck (a practice deck or a file), computer or person."""

    def __init__(self, index: int):
        super().__init__()
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.name = QLineEdit(DEFAULT_NAMES[index])
        self.name.setObjectName(f"name-{index}")
        self.name.setMinimumWidth(100)
        row.addWidget(self.name, 2)
        self.deck = QComboBox()
        self.deck.setObjectName(f"deck-{index}")
        self.deck.addItem("Practice: House Stark", PRACTICE[0])
        self.deck.addItem("Practice: House Lannister", PRACTICE[1])
        for name in fixed_deck_names():
            self.deck.addItem(f"Fixed: {name}", f"agotdb:{name}")
        self.deck.addItem("Goldfish (no cards)", GOLDFISH)
        self.deck.setCurrentIndex(index % 2)
        row.addWidget(self.deck, 3)
        browse = QPushButton("Deck file\u2026")
        browse.clicked.connect(self._browse)
        row.addWidget(browse)
        self.computer = QCheckBox("Computer")
        self.computer.setObjectName(f"computer-{index}")
        row.addWidget(self.computer)
        self.level = QComboBox()
        self.level.setObjectName(f"level-{index}")
        self.level.setToolTip("How well the computer plays this seat")
        for key, label in COMPUTER_LEVELS.items():
            self.level.addItem(label, key)
        self.level.setCurrentIndex(max(0, self.level.findData("heuristic")))
        self.level.setEnabled(False)
        row.addWidget(self.level)
        self.computer.toggled.connect(self.level.setEnabled)
        self.prompting = QComboBox()
        self.prompting.setObjectName(f"prompting-{index}")
        self.prompting.setToolTip("When the table stops for this player in windows he may act in")
        for key, label in PROMPTING.items():
            self.prompting.addItem("Stop: " + label, key)
        row.addWidget(self.prompting, 2)
        self.computer.toggled.connect(lambda on: self.prompting.setEnabled(not on))

    def _browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Import a deck", "",
                                              "Decks (*.o8d *.txt *.xml);;All files (*)")
        if path:
            self.deck.addItem(Path(path).name, path)
            self.deck.setCurrentIndex(self.deck.count() - 1)


class NewGameDialog(QDialog):
    """Choose players (2–4), their decks and which are computers, the ruleset and the mode."""

    def __init__(self, parent: QWidget | None = None, setup: GameSetup | None = None):
        super().__init__(parent)
        self.setWindowTitle("New game")
        box = QVBoxLayout(self)
        form = QFormLayout()
        self.count = QSpinBox()
        self.count.setObjectName("players")
        self.count.setRange(2, 4)
        self.count.valueChanged.connect(self._seats_changed)
        form.addRow("Players", self.count)
        self.ruleset = QComboBox()
        self.ruleset.addItem("LCG (with Taxation phase)", "lcg")
        self.ruleset.addItem("CCG Winter Edition", "ccg-winter")
        form.addRow("Rules", self.ruleset)
        from cards.sets import ERAS

        self.era = QComboBox()
        self.era.setObjectName("era")
        self.era.addItem("Any card", None)
        for era, what in ERAS.items():
            self.era.addItem(f"{era.upper()}: {what}", era)
        form.addRow("Cards", self.era)
        self.ruleset.setObjectName("ruleset")
        self.ruleset_chosen = False
        """True once the player picked the rules himself: choosing an era then leaves them alone."""
        self.ruleset.activated.connect(lambda _i: setattr(self, "ruleset_chosen", True))
        self.era.currentIndexChanged.connect(self._era_changed)
        self.mode = QComboBox()
        self.mode.addItem("Enforce: illegal moves are refused", "enforce")
        self.mode.addItem("Advise: move freely, the engine warns", "advise")
        form.addRow("Mode", self.mode)
        self.seed = QLineEdit()
        self.seed.setPlaceholderText("random")
        form.addRow("Seed", self.seed)
        self.privacy = QCheckBox("Hide hands between players (hotseat)")
        self.privacy.setChecked(True)
        form.addRow("", self.privacy)
        box.addLayout(form)
        seats = QGroupBox("Seats (clockwise)")
        self.grid = QGridLayout(seats)
        self.rows = [SeatRow(i) for i in range(4)]
        for i, row in enumerate(self.rows):
            self.grid.addWidget(QLabel(f"Seat {i + 1}"), i, 0)
            self.grid.addWidget(row, i, 1)
        box.addWidget(seats)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        box.addWidget(buttons)
        if setup is not None:
            self._load(setup)
        self._seats_changed(self.count.value())

    def _load(self, setup: GameSetup) -> None:
        self.count.setValue(len(setup.names))
        for row, name, deck in zip(self.rows, setup.names, setup.decks):
            row.name.setText(name)
            i = row.deck.findData(deck)
            if i < 0:
                row.deck.addItem(Path(deck).name, deck)
                i = row.deck.count() - 1
            row.deck.setCurrentIndex(i)
            row.computer.setChecked(name in setup.computer)
            row.level.setCurrentIndex(max(0, row.level.findData(setup.levels.get(name, "heuristic"))))
            row.prompting.setCurrentIndex(max(0, row.prompting.findData(
                setup.prompting.get(name, setup.prompting.get("*", "legal")))))
        self.era.setCurrentIndex(max(0, self.era.findData(setup.era)))
        self.ruleset.setCurrentIndex(max(0, self.ruleset.findData(setup.ruleset)))
        self.ruleset_chosen = setup.ruleset != ruleset_for(setup.era)  # rules other than the era's stay
        self.mode.setCurrentIndex(max(0, self.mode.findData(setup.mode)))
        self.privacy.setChecked(setup.privacy)

    def _era_changed(self, _index: int) -> None:
        """An era implies its rules (a CCG era: CCG Winter Edition), unless the player chose the rules."""
        era = self.era.currentData()
        if era and not self.ruleset_chosen:
            self.ruleset.setCurrentIndex(max(0, self.ruleset.findData(ruleset_for(era))))

    def _seats_changed(self, n: int) -> None:
        for i, row in enumerate(self.rows):
            row.setEnabled(i < n)
            row.setVisible(i < n)
            self.grid.itemAtPosition(i, 0).widget().setVisible(i < n)

    def setup(self) -> GameSetup:
        """The settings as chosen."""
        rows = self.rows[:self.count.value()]
        seed_text = self.seed.text().strip()
        return GameSetup(
            names=[r.name.text().strip() for r in rows], decks=[r.deck.currentData() for r in rows],
            computer=[r.name.text().strip() for r in rows if r.computer.isChecked()],
            levels={r.name.text().strip(): r.level.currentData() for r in rows if r.computer.isChecked()},
            ruleset=self.ruleset.currentData(), mode=self.mode.currentData(), era=self.era.currentData(),
            seed=int(seed_text) if seed_text.isdigit() else None, privacy=self.privacy.isChecked(),
            prompting={r.name.text().strip(): r.prompting.currentData() for r in rows
                       if not r.computer.isChecked() and r.prompting.currentData() != "legal"})

    def _accept(self) -> None:
        problem = self.setup().check()
        if problem:
            QMessageBox.warning(self, "New game", problem)
            return
        self.accept()


class PileDialog(QDialog):
    """Look through a pile you may see (a discard or dead pile, your used plots). Each card is drawn
    through ``engine.visibility.may_see`` by the window that fills it."""

    def __init__(self, parent: QWidget, title: str, buttons: list[QWidget]):
        super().__init__(parent)
        self.setWindowTitle(title)
        box = QHBoxLayout(self)
        for b in buttons:
            box.addWidget(b)
        if not buttons:
            box.addWidget(QLabel("The pile is empty."))
