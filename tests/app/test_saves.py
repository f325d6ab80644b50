"""Never lose a game: undo, saves, the autosave, recovery after kill -9, concede, game over (app/session.py)."""
from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence

from app import session as saves
from app.dialogs import GameSetup
from app.window import TableWindow
from cards.errors import DataError
from engine.decisions import GameOver
from engine.players import RandomPlayer

ROOT = Path(__file__).resolve().parents[2]
DRIVER = Path(__file__).resolve().parent / "_autosave_driver.py"


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    """Every test here has its own user data folder."""
    home = tmp_path / "home"
    monkeypatch.setenv("MAESTER_HOME", str(home))
    return home


def window_with_autosave(qtbot, home: Path, **setup) -> TableWindow:
    base = dict(seed=3, names=["Alice", "Bob"], decks=["practice:stark", "practice:lannister"])
    base.update(setup)
    window = TableWindow(GameSetup(**base), computer_delay_ms=0, autosave=home / saves.AUTOSAVE_NAME)
    from conftest import no_question

    window.ask = no_question
    qtbot.addWidget(window)
    window.resize(1600, 1000)
    window.show()
    qtbot.waitExposed(window)
    return window


def press_undo(window, qtbot) -> None:
    """Ctrl+Z, as a player presses it (the Game menu's Undo)."""
    assert window.undo_action.shortcut() == QKeySequence("Ctrl+Z")
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=3000)
    qtbot.keyClick(window.view.viewport(), Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)


def snapshot(game) -> tuple[int, str]:
    return len(game.history), game.state.digest()


def simple(ui, chooser=None):
    return ui.pick_legal(chooser) if chooser is not None else ui.simple_answer()


# ---------------------------------------------------------------------------
# Undo
# ---------------------------------------------------------------------------

def test_undo_one_answer_with_ctrl_z(table, qtbot):
    window, ui = table(seed=3, privacy=False)
    for _ in range(4):
        ui.enter(ui.simple_answer())
    before = snapshot(ui.game)
    asked = ui.decision
    ui.enter(ui.simple_answer())
    assert snapshot(ui.game) != before
    press_undo(window, qtbot)
    assert snapshot(ui.game) == before
    assert ui.decision.player == asked.player and ui.decision.kind == asked.kind
    assert "Undone" in window.prompt.msg.text()


def test_undo_several_answers_back_to_the_start(table, qtbot):
    window, ui = table(seed=5, privacy=False)
    choosers = {n: RandomPlayer(i + 7, pass_bias=0.2) for i, n in enumerate(ui.game.state.player_names)}
    seen = []
    for _ in range(25):
        seen.append(snapshot(ui.game))
        ui.enter(ui.pick_legal(choosers[ui.decision.player]))
    for expected in reversed(seen):
        assert window.undo()
        assert snapshot(ui.game) == expected
    assert not window.undo()  # nothing left
    assert "Nothing to undo" in window.prompt.msg.text()


def test_undo_into_another_players_decision_asks_that_player(table, qtbot):
    window, ui = table(seed=3)  # hotseat with the privacy screen
    game = ui.game
    ui.take_seat()
    first = ui.decision.player
    while True:  # answer until the other player is asked, and he takes the seat
        ui.take_seat()
        answered_by = ui.decision.player
        before = snapshot(game)
        ui.enter(ui.simple_answer())
        if ui.decision.player != answered_by:
            break
    other = ui.decision.player
    assert window.privacy.isVisible() and window.privacy.player == other
    ui.take_seat()
    assert window.controller.viewer == other and not window.controller.hands_hidden
    asked = []
    window.ask = lambda title, q: asked.append(q) or False
    press_undo(window, qtbot)  # the other player undoes the first one's answer: its owner says no
    assert asked == [f"{other} asks to take back {answered_by}'s answer. {answered_by}, do you accept?"]
    assert snapshot(window.controller.game) == snapshot(game) != before and window.controller.viewer == other
    assert f"Not undone: {answered_by} keeps the answer." in window.prompt.msg.text()
    window.ask = lambda title, q: asked.append(q) or True
    press_undo(window, qtbot)  # ... and now accepts (issue 22)
    assert len(asked) == 2
    assert snapshot(window.controller.game) == before
    ctl = window.controller
    assert ctl.decision.player == answered_by
    assert ctl.hands_hidden
    qtbot.waitUntil(window.privacy.isVisible, timeout=3000)
    assert window.privacy.player == answered_by
    assert ctl.my_turn() is False and ctl.eligible_cards() == []
    # Every hand is face down while the screen waits.
    for name in ctl.names:
        for cid in game.player(name).hand:
            item = window.scene.cards.get(cid)
            assert item is None or item.face is None or item.face.hidden
    ui.take_seat()
    assert ctl.viewer == answered_by and not ctl.hands_hidden
    assert first in ctl.names


def test_undo_while_the_screen_is_covered_keeps_it_covered(table, qtbot):
    window, ui = table(seed=3)
    while True:
        ui.take_seat()
        p = ui.decision.player
        ui.enter(ui.simple_answer())
        if ui.decision.player != p:
            break
    assert window.privacy.isVisible()  # whoever is at the screen now: it stays covered
    window.undo()
    assert window.controller.hands_hidden
    qtbot.waitUntil(window.privacy.isVisible, timeout=3000)
    assert window.privacy.player == p


def test_undo_with_a_computer_seat_goes_back_to_the_last_human_decision(table, qtbot):
    window, ui = table(seed=4, computer=("Bob",))
    game = ui.game
    for _ in range(60):
        d = ui.decision
        assert d.player == "Alice"
        before = snapshot(game)
        ui.enter(ui.simple_answer())
        if any(p == "Bob" for p, _ in game.history[before[0]:]):
            break
    assert any(p == "Bob" for p, _ in game.history[before[0]:])  # the computer answered after Alice
    window.undo()
    game = window.controller.game
    assert snapshot(game) == before
    assert window.controller.decision.player == "Alice"
    assert not window.controller.hands_hidden


def test_undo_never_deals_again_the_seeded_shuffle_comes_back(table, qtbot):
    window, ui = table(seed=6, mode="advise", privacy=False)
    for _ in range(3):
        ui.enter(ui.simple_answer())
    me = window.controller.viewer
    deck_before = list(ui.game.player(me).deck)
    window.controller.hotkey("shuffle")
    shuffled = list(ui.game.player(me).deck)
    assert shuffled != deck_before and sorted(shuffled) == sorted(deck_before)
    window.undo()
    assert window.controller.game.player(me).deck == deck_before
    window.controller.hotkey("shuffle")  # shuffling again gives the very same order: nothing to fish for
    assert window.controller.game.player(me).deck == shuffled
    # Undo from round 2 back into round 1 and play on the same way: the same cards are drawn.
    def round_two(d):
        g = window.controller.game
        return g.state.round == 2 and g.state.phase == "marshalling"

    ui.advance(round_two)
    game = window.controller.game
    drawn = {p: list(game.player(p).hand) for p in game.state.player_names}
    while window.controller.game.state.round == 2:
        assert window.undo()
    ui.advance(round_two)
    game = window.controller.game
    assert {p: list(game.player(p).hand) for p in game.state.player_names} == drawn


def test_replay_to_any_point_deals_exactly_the_same_cards():
    from engine.builder import practice_game
    from engine.game import Options
    from engine.replay import replay

    game = practice_game(seed=12, players=("Alice", "Bob"), options=Options(prompt_all=False))
    choosers = {n: RandomPlayer(seed=i) for i, n in enumerate(game.state.player_names)}
    seen = []
    while not isinstance(game.advance(), GameOver):
        seen.append(game.state.to_dict())
        choosers[game.advance().player].play_turn(game)
    for k in random.Random(1).sample(range(len(seen)), 12):
        again = replay(game, game.history[:k]).state.to_dict()
        assert again == seen[k]  # decks, hands, discards, the generator's state: all identical


# ---------------------------------------------------------------------------
# Saves and the autosave
# ---------------------------------------------------------------------------

def test_save_and_open_round_trip_with_seats_and_mode(qtbot, tmp_path, data_home):
    window = window_with_autosave(qtbot, data_home, computer=["Bob"], mode="advise", seed=8)
    ctl = window.controller
    chooser = RandomPlayer(31, pass_bias=0.2)
    for _ in range(30):
        d = ctl.decision
        if d is None:
            break
        for answer in chooser.candidates(ctl.game, d):
            if ctl.submit(answer):
                break
    ctl.hotkey("gold+")  # a free move
    path = tmp_path / "saved game.json"
    assert window.save_to(path)
    text = path.read_text()
    data = json.loads(text)
    assert data["format"] == "maester-save" and data["table"]["computer"] == ["Bob"]
    other = TableWindow(GameSetup(), computer_delay_ms=0)
    qtbot.addWidget(other)
    assert other.open_path(path) is None
    g1, g2 = ctl.game, other.controller.game
    assert snapshot(g2) == snapshot(g1)
    assert other.controller.computers.keys() == {"Bob"}
    assert other.controller.mode == "advise"
    assert other.session.info.names == ["Alice", "Bob"]


def test_a_mode_switch_is_kept_and_answers_are_given_again_in_their_mode(qtbot, data_home, monkeypatch):
    """Advise mode accepts some answers enforce refuses (gold and influence short): each answer
    is replayed in the mode it was given in."""
    window = window_with_autosave(qtbot, data_home, seed=3, privacy=False)
    ctl = window.controller
    for _ in range(3):
        ctl.submit(ctl.decision.options[0] if ctl.decision.options else {"pass": True})
    advised = len(ctl.game.history)  # passes the table gives by a player's setting are answers too
    window.advise_action.setChecked(True)
    ctl.hotkey("gold+")
    ctl.submit({"pass": True}) or ctl.submit(ctl.decision.options[0])
    enforced = len(ctl.game.history)
    window.advise_action.setChecked(False)
    ctl.submit({"pass": True}) or ctl.submit(ctl.decision.options[0])
    game = ctl.game
    n = len(game.history)
    assert advised < enforced < n
    assert window.session.info.modes == [[0, "enforce"], [advised, "advise"], [enforced, "enforce"]]
    data = json.loads((data_home / saves.AUTOSAVE_NAME).read_text())
    assert data["table"]["modes"] == [[0, "enforce"], [advised, "advise"], [enforced, "enforce"]]
    from engine.game import Game

    modes = []
    real = Game.answer
    monkeypatch.setattr(Game, "answer", lambda self, p, a: modes.append(self.options.mode) or real(self, p, a))
    loaded = saves.read_save(data_home / saves.AUTOSAVE_NAME)
    assert snapshot(loaded.game) == (n, game.state.digest())
    # the free move (the gold) is the first advise-mode answer; every later one is back in enforce
    assert modes == ["enforce"] * advised + ["advise"] * (enforced - advised - 1) + ["enforce"] * (n - enforced)
    assert loaded.game.options.mode == "enforce"
    monkeypatch.setattr(Game, "answer", real)
    window.undo()
    window.undo()
    assert window.controller.mode == "advise" and window.session.info.modes == [[0, "enforce"], [advised, "advise"]]


def test_autosave_after_every_answer_and_free_move(qtbot, data_home):
    window = window_with_autosave(qtbot, data_home, mode="advise", privacy=False, seed=9)
    ctl = window.controller
    path = data_home / saves.AUTOSAVE_NAME
    choosers = {n: RandomPlayer(i + 40, pass_bias=0.2) for i, n in enumerate(ctl.names)}
    for step in range(40):
        d = ctl.decision
        if step % 10 == 5:
            ctl.hotkey("draw")  # a free move is autosaved too
        else:
            for answer in choosers[d.player].candidates(ctl.game, d):
                if ctl.submit(answer):
                    break
        data = json.loads(path.read_text())
        assert data["decisions"] == len(ctl.game.history) == len(data["history"])
        assert data["digest"] == ctl.game.state.digest()
        assert data["table"]["viewer"] in ctl.names
    assert not [p for p in data_home.iterdir() if p.name.endswith(".tmp")]
    times = sorted(window.session.write_times)
    median = times[len(times) // 2]
    print(f"autosave: {len(times)} writes, median {median * 1000:.1f} ms, max {times[-1] * 1000:.1f} ms, "
          f"{path.stat().st_size} bytes")
    assert median < 0.25


def test_the_autosave_records_undo_too(qtbot, data_home):
    window = window_with_autosave(qtbot, data_home, privacy=False)
    for _ in range(5):
        window.controller.submit({"pass": True}) or window.controller.submit(window.controller.decision.options[0])
    n = len(window.controller.game.history)
    window.undo()
    data = json.loads((data_home / saves.AUTOSAVE_NAME).read_text())
    assert len(data["history"]) == len(window.controller.game.history) < n


def _write(path: Path, data) -> Path:
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


def _good_save(tmp_path) -> dict:
    from engine.builder import practice_game
    from engine.game import Options

    game = practice_game(seed=2, players=("Alice", "Bob"), options=Options(prompt_all=False))
    choosers = {n: RandomPlayer(seed=i) for i, n in enumerate(game.state.player_names)}
    for _ in range(20):
        choosers[game.advance().player].play_turn(game)
    return saves.table_save(game, saves.TableInfo(names=["Alice", "Bob"], modes=[[0, "enforce"]]))


@pytest.mark.parametrize("case, expected", [
    ("truncated", "damaged or cut short: not valid JSON"),
    ("empty", "the file is empty"),
    ("not json object", "not a Maester save"),
    ("wrong format", "not a Maester save"),
    ("newer version", "written by a newer Maester (save version 2"),
    ("older version", "save version 0 is not one this Maester reads"),
    ("newer table", "written by a newer Maester (table version 9"),
    ("missing setup", "damaged: it has no setup"),
    ("bad history", "damaged: its answers are not a list"),
    ("unknown card keys", "the card pool lacks 2 card(s) this game was played with: nope_1, nope_2"),
    ("refused answer", "answer 3 of 20 (Alice) cannot be given again"),
    ("outside scenario", "does not contain it"),
    ("missing file", "no such file"),
])
def test_a_bad_save_is_one_line_saying_what_and_what_to_do(tmp_path, case, expected):
    good = _good_save(tmp_path)
    full = json.dumps(good)
    path = tmp_path / "game.json"
    if case == "truncated":
        _write(path, full[:len(full) // 2])
    elif case == "empty":
        _write(path, "")
    elif case == "not json object":
        _write(path, "[1, 2]")
    elif case == "wrong format":
        _write(path, {**good, "format": "something-else"})
    elif case == "newer version":
        _write(path, {**good, "version": 2})
    elif case == "older version":
        _write(path, {**good, "version": 0})
    elif case == "newer table":
        _write(path, {**good, "table": {**good["table"], "version": 9}})
    elif case == "missing setup":
        _write(path, {k: v for k, v in good.items() if k != "setup"})
    elif case == "bad history":
        _write(path, {**good, "history": [["Alice"]]})
    elif case == "unknown card keys":
        decks = good["setup"]["decks"]
        decks["Alice"]["cards"][:2] = ["nope_1", "nope_2"]
        _write(path, good)
    elif case == "refused answer":
        good["history"][2][1] = {"marshal": 99999}
        _write(path, good)
    elif case == "outside scenario":
        _write(path, {**good, "setup": {"scenario": "/etc/passwd.yaml"}, "table": None})
    elif case == "missing file":
        path = tmp_path / "nowhere.json"
    with pytest.raises(DataError) as caught:
        saves.read_save(path)
    line = str(caught.value)
    assert expected in line, line
    assert "\n" not in line and str(path) in line and "(" in line  # file, what, (what to do)
    assert "Traceback" not in line


def test_a_save_whose_cards_changed_loads_with_a_one_line_warning(tmp_path):
    good = _good_save(tmp_path)
    good["digest"] = "0" * 64
    path = _write(tmp_path / "old.json", good)
    loaded = saves.read_save(path)
    assert "replayed differently" in loaded.warning and "\n" not in loaded.warning
    assert len(loaded.game.history) == 20


def test_a_plain_engine_save_opens_at_the_table(tmp_path, qtbot):
    from engine.replay import save_game

    good = _good_save(tmp_path)
    del good["table"]
    path = _write(tmp_path / "engine.json", good)
    window = TableWindow(GameSetup(), computer_delay_ms=0)
    qtbot.addWidget(window)
    assert window.open_path(path) is None
    assert len(window.controller.game.history) == 20
    assert window.controller.computers == {}
    assert save_game(window.controller.game)["digest"] == good["digest"]


def test_open_failure_shows_one_line_and_keeps_the_game(tmp_path, qtbot, table):
    window, ui = table(seed=3)
    ui.take_seat()
    before = snapshot(ui.game)
    bad = _write(tmp_path / "bad.json", "{\"format\": \"maester-save\", ")
    reason = window.open_path(bad)
    assert reason and "\n" not in reason
    assert snapshot(window.controller.game) == before
    assert "damaged or cut short" in window.prompt.msg.text()


def test_a_scenario_game_save_carries_its_scenario(tmp_path, qtbot, data_home):
    source = ROOT / "tests" / "scenarios" / "timing" / "mor-catelyn-never-surrender-price-of-failure.yaml"
    copy = tmp_path / "mine.yaml"
    copy.write_text(source.read_text())
    window = window_with_autosave(qtbot, data_home, scenario=str(copy), privacy=False, names=["a", "b"])
    ctl = window.controller
    for _ in range(3):
        d = ctl.decision
        ctl.submit({"pass": True}) or ctl.submit(d.options[0] if d.options else {"choose": d.choices[:d.min_count]})
    assert window.undo()  # undo rebuilds a scenario game too
    ctl = window.controller
    saved = tmp_path / "scenario-save.json"
    window.save_to(saved)
    copy.unlink()  # the file it started from is gone: the save has its text
    loaded = saves.read_save(saved)
    assert snapshot(loaded.game) == snapshot(ctl.game) and loaded.warning is None
    data = json.loads(saved.read_text())
    assert data["table"]["scenario"] == source.read_text()


def test_an_engine_save_of_a_scenario_follows_only_a_path_beside_it(tmp_path):
    from engine.game import Options
    from engine.replay import save_game
    from engine.scenario import load_scenario

    source = ROOT / "tests" / "scenarios" / "timing" / "mor-catelyn-never-surrender-price-of-failure.yaml"
    folder = tmp_path / "saves"
    folder.mkdir()
    (folder / "s.yaml").write_text(source.read_text())
    game = load_scenario(folder / "s.yaml", Options(prompt_all=False)).game
    data = save_game(game)
    data["setup"] = {"scenario": "s.yaml"}
    loaded = saves.read_save(_write(folder / "ok.json", data))
    assert loaded.game.state.digest() == game.state.digest()
    data["setup"] = {"scenario": "../s.yaml"}
    with pytest.raises(DataError, match="does not contain it"):
        saves.read_save(_write(folder / "up.json", data))


# ---------------------------------------------------------------------------
# Atomic writes, orphans, kill -9
# ---------------------------------------------------------------------------

def test_atomic_write_leaves_no_temporary_file_and_orphans_are_cleaned(tmp_path):
    target = tmp_path / "autosave.json"
    saves.atomic_write(target, "one")
    saves.atomic_write(target, "two")
    assert target.read_text() == "two"
    assert [p.name for p in tmp_path.iterdir()] == ["autosave.json"]
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True).stdout.strip()
    orphan = tmp_path / f".autosave.json.{dead}-0123abcd.tmp"
    orphan.write_text("{\"half")
    live = tmp_path / f".autosave.json.{os.getpid()}-0123abcd.tmp"
    live.write_text("mine, being written")
    other = tmp_path / ".unrelated.tmp"
    other.write_text("not ours")
    assert saves.clean_orphans(tmp_path) == [orphan]
    assert live.exists() and other.exists()
    old = time.time() + 2 * saves.ORPHAN_AGE_S
    assert saves.clean_orphans(tmp_path, now=old) == [live]


def _env(home: Path) -> dict:
    env = dict(os.environ, MAESTER_HOME=str(home), PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen")
    return env


def test_kill_9_mid_game_then_the_next_start_offers_to_resume(tmp_path, qtbot, data_home, monkeypatch):
    proc = subprocess.Popen([sys.executable, str(DRIVER), "table", "30"], cwd=ROOT, env=_env(data_home),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines = []
    try:
        for line in proc.stdout:
            if line.strip() == "DONE":
                break
            lines.append(line.split())
        else:
            raise AssertionError(proc.stderr.read())
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    answers, digest = int(lines[-1][0]), lines[-1][1]
    assert answers >= 30
    found = saves.find_recovery(data_home)
    assert isinstance(found, saves.Recovery)
    assert found.question.startswith("Resume the game from ") and found.question.endswith("?")
    assert f"{answers} answers" in found.summary
    from app import main

    loaded = main._offer_resume(without_asking=True)  # what "Yes" does
    assert (len(loaded.game.history), loaded.game.state.digest()) == (answers, digest)
    window = TableWindow(loaded.info.setup(), game=loaded.game, info=loaded.info, computer_delay_ms=0)
    qtbot.addWidget(window)
    assert snapshot(window.controller.game) == (answers, digest)


def test_declining_the_resume_keeps_the_game_aside(tmp_path, data_home):
    path = data_home / saves.AUTOSAVE_NAME
    data_home.mkdir(parents=True)
    _write(path, _good_save(tmp_path))
    assert isinstance(saves.find_recovery(data_home), saves.Recovery)
    saves.set_aside(data_home)
    assert saves.find_recovery(data_home) is None
    assert saves.read_save(data_home / saves.PREVIOUS_NAME).game


def test_kill_9_during_autosave_writes_never_leaves_a_bad_file_or_an_orphan(tmp_path, data_home):
    rng = random.Random(5)
    data_home.mkdir(parents=True)
    path = data_home / saves.AUTOSAVE_NAME
    orphans_seen = loaded = 0
    for _ in range(20):
        proc = subprocess.Popen([sys.executable, str(DRIVER), "hammer"], cwd=ROOT, env=_env(data_home),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert proc.stdout.readline().strip() == "READY", proc.stderr.read()
        time.sleep(rng.uniform(0.0, 0.1))
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        if path.exists():
            game = saves.read_save(path).game  # never half a file
            assert len(game.history) >= 1
            loaded += 1
        orphans_seen += len(saves.clean_orphans(data_home))  # what the next start does
        assert not [p for p in data_home.iterdir() if p.name.endswith(".tmp")]
    print(f"kill -9 x20: {loaded} autosaves loaded, {orphans_seen} orphan temporary files cleaned")
    assert loaded == 20


# ---------------------------------------------------------------------------
# Concede, New game, game over
# ---------------------------------------------------------------------------

def test_concede_two_players_the_other_wins_and_the_game_over_dialog_shows(table, qtbot):
    window, ui = table(seed=3)
    for _ in range(6):
        ui.enter(ui.simple_answer())
    ui.take_seat()
    quitter = window.controller.viewer
    asked = []
    window.ask = lambda title, q: asked.append(q) or True
    assert window.concede()
    other = next(n for n in ui.game.state.player_names if n != quitter)
    assert asked and f"{other} wins" in asked[0]
    result = window.controller.result
    assert result.winner == other
    dialog = window.game_over_dialog
    assert dialog is not None and dialog.isVisible()
    assert dialog.title.text() == f"{other} wins"
    assert "concedes" in dialog.how.text()
    assert set(dialog.rows) == {"Alice", "Bob"}
    assert dialog.rows[other][1] == "winner"
    assert window.undo()  # a concession is an answer: it can be undone
    assert window.controller.result is None


def test_concede_three_players_eliminates_and_the_game_goes_on(table, qtbot):
    window, ui = table(seed=3, names=("Alice", "Bob", "Carol"))
    for _ in range(5):
        ui.enter(ui.simple_answer())
    ui.take_seat()
    quitter = window.controller.viewer
    window.ask = lambda title, q: True
    assert window.concede()
    game = window.controller.game
    assert game.state.player(quitter).eliminated and window.controller.result is None
    ui.take_seat()
    assert window.controller.decision.player != quitter


def test_concede_asks_first_and_no_changes_nothing(table, qtbot):
    window, ui = table(seed=3)
    ui.take_seat()
    before = snapshot(ui.game)
    window.ask = lambda title, q: False
    assert not window.concede()
    assert snapshot(ui.game) == before


def test_new_game_asks_before_throwing_the_game_away_unless_it_is_over(table, qtbot):
    window, ui = table(seed=3)
    asked = []
    window.ask = lambda title, q: asked.append(q) or False
    assert window.may_discard("New game")  # no answer yet: nothing to lose
    ui.enter(ui.simple_answer())
    window.new_game()  # declined: the dialog never opens, the game stays
    assert asked and "Throw away the current game" in asked[0]
    assert len(window.controller.game.history) == 1
    window.ask = lambda title, q: True
    ui.take_seat()
    assert window.concede()
    asked.clear()
    window.ask = lambda title, q: asked.append(q) or False
    assert window.may_discard("New game") and not asked  # over: no question


def test_rematch_same_seats_and_decks_new_seed_and_save_replay(table, qtbot, tmp_path):
    window, ui = table(seed=3, computer=("Bob",))
    game = ui.game
    window.ask = lambda title, q: True
    ui.enter(ui.simple_answer())
    window.concede()
    dialog = window.game_over_dialog
    saved = tmp_path / "replay.json"
    window.save_game = lambda: window.save_to(saved)  # what Save replay… asks a file for
    dialog.save_replay.disconnect()
    dialog.save_replay.connect(window.save_game)
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    replay = saves.read_save(saved)
    assert snapshot(replay.game) == snapshot(game)
    old_spec = game.setup_spec
    qtbot.mouseClick(dialog.rematch_button, Qt.MouseButton.LeftButton)
    new = window.controller.game
    assert new is not game and new.history == [] or all(p == "Bob" for p, _ in new.history)
    assert new.setup_spec["decks"] == old_spec["decks"]
    assert new.setup_spec["seed"] != old_spec["seed"]
    assert window.controller.computers.keys() == {"Bob"}
    assert window.game_over_dialog is None


def test_a_whole_game_screenshot_of_the_game_over_dialog(table, qtbot, tmp_path):
    window, ui = table(seed=11, computer=("Bob",))
    window.controller.autoplay(5000)
    dialog = window.game_over_dialog
    assert dialog is not None and dialog.isVisible()
    assert dialog.title.text().endswith("wins") or dialog.title.text() == "A draw"
    if os.environ.get("MAESTER_SHOTS"):
        window.grab().save(str(Path(os.environ["MAESTER_SHOTS"]) / "table-over.png"))
        dialog.grab().save(str(Path(os.environ["MAESTER_SHOTS"]) / "game-over.png"))


def test_undo_while_a_computer_is_thinking_does_not_answer_in_the_old_game(qtbot, data_home):
    window = TableWindow(GameSetup(seed=4, computer=["Bob"]), computer_delay_ms=30,
                         autosave=data_home / saves.AUTOSAVE_NAME)
    qtbot.addWidget(window)
    ctl = window.controller
    for _ in range(40):
        d = ctl.decision
        if d.player == "Bob":
            break
        ctl.submit({"pass": True}) or ctl.submit(d.options[0] if d.options else {"defend": []})
    assert ctl.decision.player == "Bob"  # the computer's answer is timed, not given yet
    window.undo()
    new = window.controller
    qtbot.wait(120)
    assert new.decision is not None
    data = json.loads((data_home / saves.AUTOSAVE_NAME).read_text())
    assert len(data["history"]) == len(new.game.history)  # the old game never autosaved over the new one


def test_maester_open_a_save_and_a_bad_one(tmp_path):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(_good_save(tmp_path)))
    bad = tmp_path / "bad.json"
    bad.write_text("{\"format\": \"maester-save\", \"version\": 1, \"setup\": {}}")
    env = _env(tmp_path / "home")
    run = subprocess.run([sys.executable, "-m", "app.main", "--offscreen", "--open", str(good), "--screenshot",
                          str(tmp_path / "shot.png")], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    run = subprocess.run([sys.executable, "-m", "app.main", "--offscreen", "--open", str(bad), "--screenshot",
                          str(tmp_path / "shot.png")], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    assert run.stderr.strip() == f"maester: {bad}: damaged: it has no setup (how the game started) " \
                                 f"(open another save, or the autosave)"


def test_a_new_game_keeps_the_old_autosave_until_its_first_answer(qtbot, data_home):
    first = window_with_autosave(qtbot, data_home, seed=3, privacy=False)
    for _ in range(3):
        first.controller.submit({"pass": True}) or first.controller.submit(first.controller.decision.options[0])
    path = data_home / saves.AUTOSAVE_NAME
    old = path.read_text()
    second = window_with_autosave(qtbot, data_home, seed=4, privacy=False)
    assert path.read_text() == old  # nothing answered yet in the new game
    ctl = second.controller
    assert any(ctl.submit(a) for a in RandomPlayer(1).candidates(ctl.game, ctl.decision))
    assert json.loads(path.read_text())["setup"]["seed"] == 4
    while second.undo():
        pass
    assert json.loads(path.read_text())["history"] == []  # an undo to the start is autosaved too


def test_a_manual_tool_that_wins_is_autosaved_and_the_win_survives_a_restart(qtbot, data_home):
    """Issue 22: the `power` tool as a free move giving the 15th power (advise mode) ends the game like an
    answer: no open decision, the move in the history and the autosave, the win there after a restart."""
    window = window_with_autosave(qtbot, data_home, mode="advise", privacy=False)
    ctl = window.controller
    ctl.submit({"pass": True}) or ctl.submit(ctl.decision.options[0])  # a first answer: the autosave starts
    house = ctl.game.player(ctl.viewer).house_card
    assert ctl.tool("power", card=house, amount=15), ctl.last_message
    assert ctl.decision is None and ctl.result.winner == ctl.viewer
    assert ctl.last_message[1] == "over"
    data = json.loads((data_home / saves.AUTOSAVE_NAME).read_text())
    assert data["history"][-1] == [ctl.viewer, {"free": {"tool": "power", "card": house, "amount": 15}}]
    assert data["table"]["winner"] == ctl.viewer
    loaded = saves.read_save(data_home / saves.AUTOSAVE_NAME)
    assert loaded.game.state.winner == ctl.viewer and loaded.warning is None
    assert saves.is_over(loaded.game)
    assert saves.find_recovery(data_home) is None  # a finished game is not offered again


def _start_table(home: Path, answers: int, seed: int) -> tuple[subprocess.Popen, Path, int, str]:
    """A table process (tests/app/_autosave_driver.py) that gave ``answers`` answers and waits to be killed:
    (process, its autosave slot, answers, digest)."""
    proc = subprocess.Popen([sys.executable, str(DRIVER), "table", str(answers), str(seed)], cwd=ROOT,
                            env=_env(home), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    slot, last = None, None
    for line in proc.stdout:
        words = line.split()
        if words[0] == "SLOT":
            slot = Path(words[1])
        elif words[0] == "DONE":
            break
        else:
            last = words
    else:
        proc.kill()
        raise AssertionError(proc.stderr.read())
    return proc, slot, int(last[0]), last[1]


def test_two_tables_on_one_data_folder_keep_their_own_autosave_and_both_games_are_recovered(data_home, qtbot):
    """Issue 22: two tables on one MAESTER_HOME each autosave to a slot of their own (a lock each, released by
    the system when the process dies); while they run, neither game is offered; after kill -9 of both, the
    next starts offer both games, exactly as they were."""
    first = _start_table(data_home, 12, 7)
    second = _start_table(data_home, 17, 8)
    try:
        assert first[1] != second[1] and {first[1].name, second[1].name} == {"autosave.json", "autosave-2.json"}
        assert saves.find_recoveries(data_home) == []  # both tables run: nothing to recover
    finally:
        for proc, *_ in (first, second):
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=30)
    found = saves.find_recoveries(data_home)
    assert sorted(f.path for f in found) == sorted([first[1], second[1]])
    from app import main

    games = set()
    for _ in range(2):  # two starts, one after the other: each resumes one game and keeps its slot
        loaded = main._offer_resume(without_asking=True)
        assert loaded.slot in (first[1], second[1]) and saves.in_use(loaded.slot)
        games.add((loaded.slot, len(loaded.game.history), loaded.game.state.digest()))
    assert games == {first[1:], second[1:]}
    assert main._offer_resume(without_asking=True) is None  # both are at a table again
    for slot, *_ in games:
        saves.release_autosave(slot)


def test_a_new_table_takes_a_free_slot_and_never_the_unfinished_game_of_another(data_home):
    data_home.mkdir(parents=True)
    first = saves.claim_autosave(data_home)
    try:
        assert first == data_home / saves.AUTOSAVE_NAME and saves.in_use(first)
        second = saves.claim_autosave(data_home)
        assert second == data_home / "autosave-2.json"
        saves.release_autosave(second)
        _write(data_home / "autosave-2.json", _good_save(data_home))  # a game a killed table left
        third = saves.claim_autosave(data_home)
        assert third == data_home / "autosave-3.json"  # the killed table's game stays to be recovered
        saves.release_autosave(third)
    finally:
        saves.release_autosave(first)


def test_an_autosave_from_a_newer_maester_is_called_so_and_kept_and_nothing_set_aside_is_overwritten(
        tmp_path, data_home):
    data_home.mkdir(parents=True)
    earlier = _write(data_home / saves.DAMAGED_NAME, "an earlier damaged autosave")
    _write(data_home / saves.AUTOSAVE_NAME, {**_good_save(tmp_path), "version": 99})
    [err] = saves.find_recoveries(data_home)
    assert isinstance(err, DataError)
    assert "written by a newer Maester (save version 99" in str(err) and "damaged" not in str(err)
    assert f"kept as {saves.NEWER_NAME}" in str(err) and "update Maester" in str(err)
    assert json.loads((data_home / saves.NEWER_NAME).read_text())["version"] == 99
    assert earlier.read_text() == "an earlier damaged autosave"
    _write(data_home / saves.AUTOSAVE_NAME, "{not json")  # now a damaged one: set aside beside the earlier
    [err] = saves.find_recoveries(data_home)
    assert "damaged" in str(err) and "kept as autosave-damaged-2.json" in str(err)
    assert earlier.read_text() == "an earlier damaged autosave"
    assert (data_home / "autosave-damaged-2.json").read_text() == "{not json"
    assert saves.find_recoveries(data_home) == [] and not (data_home / saves.AUTOSAVE_NAME).exists()


def test_declined_games_are_each_kept_never_overwriting_an_earlier_one(tmp_path, data_home):
    data_home.mkdir(parents=True)
    for _ in range(2):
        _write(data_home / saves.AUTOSAVE_NAME, _good_save(tmp_path))
        saves.set_aside(data_home)
    assert saves.read_save(data_home / saves.PREVIOUS_NAME).game
    assert saves.read_save(data_home / "autosave-previous-2.json").game


def test_a_data_folder_that_is_a_file_is_said_clearly_at_the_start(monkeypatch, capsys, qtbot):
    from PySide6.QtWidgets import QApplication

    from app.main import main

    monkeypatch.setenv("MAESTER_HOME", "/dev/null")
    monkeypatch.setattr(QApplication, "exec", lambda *a: 0)  # the table opens, then "closes" at once
    assert main(["--offscreen", "--seed", "3"]) == 0
    err = capsys.readouterr().err
    assert ("maester: Maester's data folder (from MAESTER_HOME) is not a folder: it is a device (/dev/null), so "
            "games cannot be autosaved there: set MAESTER_HOME to a folder Maester may write in") in err
    assert "File exists" not in err
    assert "is not a folder: it is a device (/dev/null)" in saves.folder_problem(Path("/dev/null"))


def test_a_command_line_computer_seat_is_never_dropped_by_resuming_a_hotseat_game(tmp_path, data_home, capsys):
    """Issue 22: `maester --computer Bob:strong` is not offered the earlier hotseat game (Yes dropped the
    computer seat); the game stays for a plain start; a game against Bob (strong) is offered and keeps him."""
    from app import main

    data_home.mkdir(parents=True)
    hotseat = _write(data_home / saves.AUTOSAVE_NAME, _good_save(tmp_path))  # Alice vs Bob, both people
    args = main.parse_args(["--computer", "Bob:strong"])
    wanted, asked = main.setup_from_args(args), main.asked_for(args)
    assert wanted.computer == ["Bob"] and wanted.levels == {"Bob": "strong"}
    assert main._offer_resume(True, wanted, asked) is None
    err = capsys.readouterr().err
    assert "is not resumed: it is played with no computer seat, and --computer asks for Bob (strong)" in err
    assert hotseat.exists() and isinstance(saves.find_recovery(data_home), saves.Recovery)
    data = json.loads(hotseat.read_text())  # the same game, Bob played by the strong computer
    data["table"].update(computer=["Bob"], levels={"Bob": "strong"})
    _write(hotseat, data)
    loaded = main._offer_resume(True, wanted, asked)
    assert loaded.info.computer == ["Bob"] and loaded.info.levels == {"Bob": "strong"}
    saves.release_autosave(loaded.slot)
    plain = main.parse_args([])
    assert main.conflict(loaded.info, main.setup_from_args(plain), main.asked_for(plain)) is None


def test_pass_for_the_rest_of_the_phase_is_kept_by_an_undo_of_a_later_answer(table, qtbot):
    """Issue 22: a player's *Pass for the rest of this phase* outlives the undo of an answer given after it
    (the game is rebuilt; the setting is part of the table's record), and goes with the undo of its own."""
    window, ui = table(seed=5)
    ctl = window.controller
    st = ui.game.state
    found = False
    for _ in range(20):  # a phase where another answer follows the pass for the phase
        ui.advance(lambda d: ctl.optional_window(d) and not d.only_pass)
        ui.take_seat()
        me, where, at = ctl.viewer, (st.round, st.phase_serial), len(ui.game.history)
        ui.press("pass-phase")
        while (st.round, st.phase_serial) == where and not found:
            found = any(n != me and i not in ctl.auto_at
                        for i, (n, _) in enumerate(ui.game.history[at + 1:], start=at + 1))
            if not found:
                ui.take_seat()
                ui.enter(ui.simple_answer())
        if found:
            break
    assert found and (st.round, st.phase_serial) == where
    window.undo()
    ctl = window.controller
    assert len(ctl.game.history) > at and ctl.phase_pass.get(me) == where
    assert window.session.info.cut(at).phase_pass == {}  # undoing the pass itself forgets it


def test_stop_for_and_pass_for_the_phase_survive_a_crash(qtbot, data_home):
    """Issue 22: the per-player *Stop for…* setting and *Pass for the rest of this phase* are in the autosave,
    so the recovered table stops for each person as before."""
    window = window_with_autosave(qtbot, data_home, privacy=False, seed=5)
    ctl = window.controller
    ctl.submit({"pass": True}) or ctl.submit(ctl.decision.options[0])
    window.prompting_actions[("Bob", "never")].trigger()
    data = json.loads((data_home / saves.AUTOSAVE_NAME).read_text())
    assert data["table"]["prompting"] == {"Bob": "never"}  # written when changed, not only at the next answer
    for _ in range(300):  # to an optional window of a person: he passes for the rest of the phase
        d = ctl.decision
        if ctl.optional_window(d) and not d.only_pass and ctl.my_turn():
            break
        any(ctl.submit(answer) for answer in RandomPlayer(7, pass_bias=0.5).candidates(ctl.game, d))
    me, st = ctl.viewer, ctl.game.state
    assert ctl.pass_phase()
    loaded = saves.read_save(data_home / saves.AUTOSAVE_NAME)  # what recovery after kill -9 opens
    again = TableWindow(loaded.info.setup(), game=loaded.game, info=loaded.info, computer_delay_ms=0)
    qtbot.addWidget(again)
    assert again.controller.prompting_of("Bob") == "never" and again.controller.prompting_of("Alice") == "legal"
    assert again.controller.phase_pass.get(me) == (st.round, st.phase_serial)


@pytest.mark.parametrize("table, said", [
    ({"names": ["Carol", "Dave"]}, "its table section names the players Carol, Dave, but the game's seats are "
                                   "Alice, Bob"),
    ({"names": ["Bob", "Alice"]}, "names the players Bob, Alice, but the game's seats are Alice, Bob"),
    ({"computer": ["Carol"]}, "names the computer seat Carol, but the game's seats are Alice, Bob"),
])
def test_a_table_save_whose_names_are_not_its_seats_is_refused_clearly(table, said, tmp_path, capsys):
    """Issue 22: it opened silently, its computer seats naming nobody."""
    from app.main import main

    game = GameSetup(seed=3).build()
    for _ in range(3):
        d = game.advance()
        game.answer(d.player, d.options[0] if d.options else {"pass": True})
    path = tmp_path / "game.json"
    saves.write_save(path, game, saves.TableInfo(names=["Alice", "Bob"]))
    data = json.loads(path.read_text())
    data["table"].update(table)
    _write(path, data)
    with pytest.raises(DataError) as err:
        saves.read_save(path)
    assert said in str(err.value) and str(err.value).startswith(f"{path}: damaged: ")
    assert main(["--offscreen", "--no-autosave", "--open", str(path), "--screenshot", str(tmp_path / "x.png")]) == 2
    assert said in capsys.readouterr().err


def test_what_the_command_line_asks_decides_which_autosaved_games_are_offered():
    from app import main

    info = saves.TableInfo(names=["Ann", "Ben", "Cy"], decks=["practice:stark"] * 3, computer=["Cy"],
                           levels={"Cy": "strong"})

    def why(*argv):
        args = main.parse_args(list(argv))
        return main.conflict(info, main.setup_from_args(args), main.asked_for(args))

    assert why() is None and why("--players", "3") is None and why("--computer", "cy:strong", "--players", "3") is None
    assert why("--players", "4") == "it is a game of 3 players, not 4"
    assert why("--computer", "Cy", "--players", "3").startswith("it is played with Cy (strong), and --computer asks "
                                                               "for Cy (")
    assert why("--names", "Ann", "Ben", "Dee") == "its players are Ann, Ben, Cy, not Ann, Ben, Dee"
    assert why("--goldfish", "practice:stark") is not None
