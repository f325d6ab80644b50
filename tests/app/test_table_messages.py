"""What the table says: banners, the stepper in agreement with the question, messages in words,
the window platform's hint, and buttons that keep their places."""
from __future__ import annotations

from app.main import platform_problem
from app.prompt import stepper_state
from app.window import banner_text
from engine.decisions import Decision, Refused
from engine.state import Window


def test_banners_for_challenge_results_automatic_decisions_and_the_win():
    assert banner_text("R8 challenges: military challenge: Bob 9 STR vs Alice 6 STR; Bob wins") == \
        "Bob wins \u2014 military challenge: Bob 9 STR vs Alice 6 STR"
    assert banner_text("R2 challenges: Alice declares no defenders") == "Alice declares no defenders"
    assert banner_text("R7 dominance: Bob wins with 15 power.") == "Bob wins with 15 power."
    assert banner_text("R1 plot: Alice reveals A Plot") is None


class _State:
    def __init__(self, windows):
        self.windows = windows


def test_the_stepper_agrees_with_the_question():
    plot = Decision("plot", "alice", "choose a plot")
    lit = Window(kind="framework", name="plots revealed", initiator=None, step=1)
    assert stepper_state(_State([lit]), plot) == (None, 0, "Choosing plots in secret")  # nothing lit yet
    action = Decision("action", "alice", "challenges: take an action or pass")
    assert stepper_state(_State([]), action)[2] == "Player actions: an action opens a window"
    assert stepper_state(_State([lit]), None) == (None, 0, "Game over")
    response = Decision("response", "alice", "play a response")
    assert stepper_state(_State([lit]), response)[0] is lit


def test_a_wrong_command_is_refused_in_words():
    d = Decision("first_player", "alice", "choose the first player", options=[{"first_player": "alice"}])
    try:
        d.check({"marshal": 3})
    except Refused as err:
        text = str(err)
    assert "'" not in text and "first_player" not in text
    assert text == "alice is asked: choose the first player. That is not a way to answer it; " \
                   "alice can choose the first player"


def test_the_platform_hint_names_the_missing_libraries():
    assert platform_problem({"QT_QPA_PLATFORM": "offscreen"}) is None
    no_display = platform_problem({}, find=lambda lib: "x")
    if no_display is not None:  # only on Linux
        assert "no display" in no_display and "libxcb-cursor0" in no_display
        missing = platform_problem({"DISPLAY": ":0"}, find=lambda lib: None if lib == "xcb-cursor" else "x")
        assert "libxcb-cursor" in missing and "apt install" in missing
        assert platform_problem({"DISPLAY": ":0"}, find=lambda lib: "x") is None


def test_size_is_checked_before_anything_starts(capsys):
    from app.main import main

    assert main(["--offscreen", "--size", "abc"]) == 2
    assert "--size 'abc': expected WIDTHxHEIGHT" in capsys.readouterr().err


def test_pass_keeps_its_place_first_in_the_row(table):
    window, ui = table(seed=3)
    ui.advance(lambda d: d.kind == "action")
    row = window.prompt.row
    first = row.itemAt(0).widget()
    assert first is window.prompt.buttons["pass"]


def test_first_player_buttons_keep_seat_order(table):
    window, ui = table(seed=5, names=("Alice", "Bob", "Carol"))
    ui.advance(lambda d: d.kind == "first_player")
    keys = [k for k in window.prompt.buttons if k.startswith("first-")]
    assert keys == [f"first-{n}" for n in ui.game.state.player_names]


def test_a_challenge_result_shows_a_banner(table, qtbot):
    window, ui = table(seed=11)
    from engine.players import RandomPlayer

    ui.advance(lambda d: any("challenge:" in line and "STR vs" in line for line in ui.game.state.log),
               chooser=RandomPlayer(3, pass_bias=0.1))
    assert window.banner.isVisible() and "STR vs" in window.banner.text()


def _short_deck(tmp_path):
    from pathlib import Path

    practice = Path(__file__).resolve().parents[2] / "cards" / "practice" / "decks" / "stark-practice.txt"
    lines = practice.read_text().splitlines()
    path = tmp_path / "short.txt"
    path.write_text("\n".join(lines[:12]) + "\n")  # far fewer than 60 cards
    return path


def test_an_illegal_deck_on_the_command_line_is_refused_in_enforce_mode(tmp_path, capsys):
    from app.main import main

    deck = _short_deck(tmp_path)
    code = main(["--offscreen", "--deck", str(deck), "--screenshot", str(tmp_path / "t.png")])
    err = capsys.readouterr().err
    assert code == 2 and "illegal deck: Alice (short.txt): DCK-" in err and "--mode advise" in err
    assert not (tmp_path / "t.png").exists()


def test_an_illegal_deck_plays_anyway_in_advise_mode(tmp_path, capsys):
    from app.main import main

    deck = _short_deck(tmp_path)
    code = main(["--offscreen", "--mode", "advise", "--deck", str(deck), "--screenshot", str(tmp_path / "t.png")])
    err = capsys.readouterr().err
    assert code == 0 and "playing it anyway (casual)" in err and (tmp_path / "t.png").exists()


def test_small_cards_show_their_whole_title(qtbot):
    """Level of detail: a card under ~96 px on screen draws its whole title, wrapped, at 10.5 px or
    more on screen; at full size it keeps the printed layout."""
    from app.card_item import CARD_W, MIN_TITLE_PX, title_lines
    from PySide6.QtGui import QFontMetricsF

    lod = 0.5  # the 2-player table at 1280x720
    font, lines = title_lines("Lord Harlen Crakehall", CARD_W - 10, MIN_TITLE_PX / lod)
    assert " ".join(lines) == "Lord Harlen Crakehall" and not any("\u2026" in x for x in lines)
    assert font.pixelSize() * lod >= MIN_TITLE_PX * 0.8
    assert all(QFontMetricsF(font).horizontalAdvance(x) <= CARD_W - 10 for x in lines)


def test_the_table_at_1280x720_gives_the_cards_room(table, qtbot):
    window, ui = table(seed=4)
    window.resize(1280, 720)
    qtbot.wait(50)
    assert window.prompt.height() == window.prompt.COMPACT  # no strip: a compact bar
    side = window.split.sizes()[1]
    assert 240 <= side <= 300
    lod = window.view.transform().m11()
    assert lod * 110 >= 50  # cards at least 50 px wide, drawn compact with whole titles


def test_the_preview_follows_the_state(table, qtbot):
    """A previewed card shows its current place and values after the state changes."""
    window, ui = table(seed=3, mode="advise", privacy=False)
    ui.advance(lambda d: d.kind == "action" and ui.game.state.phase == "marshalling")
    game = ui.game
    me = ui.ctl.viewer
    card = game.player(me).hand[0]
    window.preview_card(card)
    assert "hand of" in window.preview.details.text()
    assert ui.ctl.free_move({"move": card, "to": "discard"})
    assert window.preview.card_id == card and "discard of" in window.preview.details.text()
