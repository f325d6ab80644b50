"""The Qt table driven like a player: drags, clicks, double-clicks and the prompt bar's buttons."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QImage

from engine.decisions import GameOver
from engine.players import RandomPlayer

ROOT = Path(__file__).resolve().parents[2]


def own_marshalling(d, game) -> bool:
    return d.kind == "action" and game.state.phase == "marshalling" and game.state.active_player == d.player


def test_drag_from_hand_to_characters_row_marshals_the_card(table, qtbot):
    window, ui = table(seed=3)
    game = ui.game

    def can_marshal_character(d):
        return own_marshalling(d, game) and any(
            o.get("attach_to") is None and not o.get("duplicate") and game.defn(o["marshal"]).type == "character"
            for o in d.options)

    ui.advance(can_marshal_character)
    d = ui.decision
    cid = next(o["marshal"] for o in d.options if o.get("attach_to") is None and not o.get("duplicate")
               and game.defn(o["marshal"]).type == "character")
    gold = game.player(d.player).gold
    assert game.card(cid).zone == "hand"
    ui.drag(cid, ui.row_point(d.player, "characters"))
    assert game.card(cid).zone == "in_play", window.prompt.msg.text()
    assert cid in game.player(d.player).in_play
    assert game.player(d.player).gold < gold
    # Redrawn from the state: the item now sits in the characters row.
    row = window.scene.zones[(d.player, "characters")].rect
    assert row.contains(window.scene.item_rect(cid).center())


def test_double_click_kneels_and_stands_in_advise_mode(table, qtbot):
    window, ui = table(seed=3, mode="advise")
    game = ui.game
    ui.advance(lambda d: own_marshalling(d, game) and any(
        o.get("attach_to") is None and game.defn(o["marshal"]).type == "character" for o in d.options))
    d = ui.decision
    cid = next(o["marshal"] for o in d.options if o.get("attach_to") is None
               and game.defn(o["marshal"]).type == "character")
    viewport = window.view.viewport()
    qtbot.mouseDClick(viewport, Qt.MouseButton.LeftButton, pos=ui.view_pos(cid))  # from hand: marshal
    assert game.card(cid).zone == "in_play"
    assert not game.card(cid).kneeling
    ui.take_seat()  # the marshal may have ended this player's turn (hotseat)
    qtbot.mouseDClick(viewport, Qt.MouseButton.LeftButton, pos=ui.view_pos(cid))  # in play: kneel
    assert game.card(cid).kneeling
    rect = window.scene.item_rect(cid)
    assert window.scene.cards[cid].kneeling and rect.width() > rect.height()  # drawn turned sideways
    assert game.history[-1] == (window.controller.viewer, {"free": {"kneel": cid}})
    qtbot.mouseDClick(viewport, Qt.MouseButton.LeftButton, pos=ui.view_pos(cid))  # and stand again
    assert not game.card(cid).kneeling
    assert "stands outside the standing phase" in window.prompt.msg.text()  # the engine's warning


def test_double_click_kneel_is_refused_in_enforce_mode(table, qtbot):
    window, ui = table(seed=3)
    game = ui.game
    ui.advance(lambda d: game.state.phase == "plot" and d.kind == "plot")
    house = game.player(ui.ctl.viewer).house_card
    before = game.state.digest()
    window.controller.double_click(house)
    assert game.state.digest() == before
    assert "advise mode" in window.prompt.msg.text()
    assert window.prompt.msg.isVisible()


def test_a_military_challenge_through_the_ui(table, qtbot):
    """Declare attackers by clicking, defend by clicking, then the defender picks his claim victim."""
    window, ui = table(seed=5)
    game = ui.game
    chooser = RandomPlayer(7, pass_bias=0.0)

    def military_possible(d):
        if d.kind != "challenge" or "military" not in d.context.get("types", []):
            return False
        attackers = [c for c in d.choices if "military" in game.icons(c)]
        defender = d.context["opponents"][0]
        return bool(attackers) and len(game.characters(defender)) >= 1

    ui.advance(military_possible, chooser=chooser)
    d = ui.decision
    attacker, defender = d.player, d.context["opponents"][0]
    attackers = [c for c in d.choices if "military" in game.icons(c)]
    for cid in attackers:
        ui.click(cid)  # real mouse clicks on the table
    assert window.controller.selection == attackers
    ui.press("declare-military")
    assert game.state.challenge.attackers == attackers
    assert all(game.card(c).kneeling for c in attackers)

    ui.advance(lambda d: d.kind == "defend")
    ui.take_seat()
    d = ui.decision
    assert d.player == defender
    atk_str = sum(game.strength(c) for c in attackers)
    weak = [c for c in d.choices if game.strength(c) < atk_str]
    if weak:
        ui.click(weak[0])
    ui.press("defend")
    assert game.state.challenge.defenders == weak[:1]

    ui.advance(lambda d: d.kind == "choose" and "military claim" in d.prompt)
    ui.take_seat()
    d = ui.decision
    victim = d.choices[0]
    ui.click(victim)
    assert "Choose (1)" in window.prompt.buttons["choose"].text() or d.min_count > 1
    for extra in d.choices[1:d.min_count]:
        ui.click(extra)
    ui.press("choose")
    ui.advance(lambda d: game.card(victim).zone != "in_play" or d.kind == "challenge")
    assert game.card(victim).zone == "dead"
    assert game.state.challenge.winner == attacker
    assert any("is killed for military claim" in line for line in game.state.log)


def test_privacy_screen_hides_the_hands_when_the_deciding_player_changes(table, qtbot):
    window, ui = table(seed=2)
    game = ui.game
    first = ui.decision.player
    # The game opens on the privacy screen for the first person to decide: nobody's hand shows yet.
    assert window.privacy.isVisible() and window.privacy.title.text() == f"Pass to {first}"
    assert all(window.scene.cards[c].face.hidden for c in game.player(first).hand)
    ui.take_seat()
    assert not window.privacy.isVisible()
    hand = list(game.player(first).hand)
    assert all(not window.scene.cards[c].face.hidden for c in hand)  # his own hand, face up
    ui.press("pass")  # place nothing at setup
    second = ui.decision.player
    assert second != first
    assert window.privacy.isVisible()
    assert window.privacy.title.text() == f"Pass to {second}"
    # Every hand on the table is face down now, the bottom seat's included.
    shown = [c for p in game.state.players for c in p.hand if c in window.scene.cards]
    assert shown and all(window.scene.cards[c].face.hidden for c in shown)
    # Gestures wait for the next player.
    before = game.state.digest()
    window.controller.pass_()
    assert game.state.digest() == before
    ui.take_seat()
    assert not window.privacy.isVisible()
    assert window.controller.viewer == second
    assert all(not window.scene.cards[c].face.hidden for c in game.player(second).hand)
    assert all(c not in window.scene.cards for c in game.player(first).hand)  # his hand is a pile now


def test_an_illegal_marshal_is_refused_with_its_reason_and_changes_nothing(table, qtbot):
    window, ui = table(seed=3)
    game = ui.game

    def too_expensive(d):
        if not own_marshalling(d, game):
            return False
        gold = game.player(d.player).gold
        return any(game.defn(c).type == "character" and (game.defn(c).cost or 0) > gold
                   for c in game.player(d.player).hand)

    ui.advance(too_expensive)
    d = ui.decision
    gold = game.player(d.player).gold
    cid = next(c for c in game.player(d.player).hand
               if game.defn(c).type == "character" and (game.defn(c).cost or 0) > gold)
    before = game.state.digest()
    ui.drag(cid, ui.row_point(d.player, "characters"))
    assert game.state.digest() == before
    assert game.card(cid).zone == "hand"
    assert game.advance() is d
    message = window.prompt.msg.text()
    assert message.startswith(f"gold: {game.name(cid)} costs"), message
    assert window.prompt.msg.isVisible()
    assert window.controller.last_message[1] == "refused"
    # The card went back to the hand on the table.
    row = window.scene.zones[(d.player, "hand")].rect
    assert row.intersects(window.scene.item_rect(cid))


def test_a_whole_game_to_a_winner_through_the_ui(table, qtbot):
    window, ui = table(seed=11)
    game = ui.game
    choosers = {n: RandomPlayer(i + 20, pass_bias=0.2) for i, n in enumerate(game.state.player_names)}
    entered = 0
    while not isinstance(game.advance(), GameOver):
        ui.take_seat()
        d = ui.decision
        before, skipped = len(game.history), window.controller.auto_passes
        ui.enter(ui.pick_legal(choosers[d.player]))
        assert len(game.history) == before + 1 + window.controller.auto_passes - skipped, \
            f"{d.describe()}: {window.prompt.msg.text()}"
        entered += 1
        assert entered < 3000
    result = game.advance()
    assert result.winner in game.state.player_names
    assert "Game over" in window.prompt.ask.text()
    # the rest of the history: windows the players' prompting setting passed for them (only passing was legal)
    assert entered + window.controller.auto_passes == len(game.history) and entered > 50
    assert window.controller.auto_passes > entered
    assert not any("free" in answer for _, answer in game.history)  # enforce mode: only answers
    assert any("trigger" in answer for _, answer in game.history)  # card abilities, through the UI


def test_the_smoke_command_plays_and_saves_a_screenshot(tmp_path):
    shot = tmp_path / "table.png"
    run = subprocess.run([sys.executable, "-m", "app.main", "--offscreen", "--autoplay", "40", "--screenshot",
                          str(shot), "--seed", "4"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "autoplay answered 40 decisions" in run.stdout
    image = QImage(str(shot))
    assert not image.isNull()
    assert (image.width(), image.height()) == (1600, 1000)


def test_offscreen_autoplay_without_a_screenshot_exits_after_its_decisions(tmp_path):
    """``--offscreen --autoplay N`` alone used to open an invisible window that never closed."""
    env = dict(os.environ, MAESTER_HOME=str(tmp_path / "home"))
    run = subprocess.run([sys.executable, "-m", "app.main", "--offscreen", "--autoplay", "25", "--seed", "2"],
                         cwd=ROOT, capture_output=True, text=True, timeout=60, env=env)
    assert run.returncode == 0, run.stderr
    assert "autoplay answered 25 decisions" in run.stdout
    assert not (tmp_path / "home").exists() or not any((tmp_path / "home").rglob("autosave*.json"))


def test_four_players_fit_on_the_table(table, qtbot):
    window, ui = table(seed=4, names=("Alice", "Bob", "Carol", "Dave"))
    window.controller.autoplay(60)
    for name in ui.game.state.player_names:
        assert (name, "deck") in window.scene.piles
    assert window.scene.seat_order()[-1] == window.controller.viewer


def test_log_card_names_preview_on_hover(table, qtbot):
    window, ui = table(seed=3)
    ui.advance(lambda d: d.kind == "first_player" or ui.game.state.phase in ("draw", "marshalling"))
    line = next(line for line in ui.game.state.log if " reveals " in line and "setup" not in line)
    key = window.log.first_card(line)
    assert key is not None
    window.log.card_hovered.emit(key)
    assert window.preview.view.face.key == key
    assert ui.game.pool[key].name in window.preview.details.text()


def test_influence_picker_totals_and_warns_of_overpay(qtbot):
    from app.prompt import InfluencePicker

    picker = InfluencePicker([(1, "Lady Wynne", 2), (2, "Maester", 1)], needed=1)
    qtbot.addWidget(picker)
    assert not picker.pay.isEnabled()
    picker.set_checked(2)
    assert picker.pay.isEnabled() and "1 of 1 needed" in picker.total.text()
    picker.set_checked(1)
    assert picker.overpay() == 2 and "overpaying by 2" in picker.total.text()
    with qtbot.waitSignal(picker.accepted) as blocker:
        picker.pay.click()
    assert blocker.args == [[1, 2]]


def test_advise_mode_applies_a_refused_marshal_freely_and_shows_the_warning(table, qtbot):
    window, ui = table(seed=3, mode="advise")
    game = ui.game

    def too_expensive(d):
        gold = game.player(d.player).gold
        return own_marshalling(d, game) and any(
            game.defn(c).type == "character" and (game.defn(c).cost or 0) > gold for c in game.player(d.player).hand)

    ui.advance(too_expensive)
    d = ui.decision
    gold = game.player(d.player).gold
    cid = next(c for c in game.player(d.player).hand
               if game.defn(c).type == "character" and (game.defn(c).cost or 0) > gold)
    ui.drag(cid, ui.row_point(d.player, "characters"))
    assert game.card(cid).zone == "in_play"
    assert game.history[-1] == (d.player, {"free": {"move": cid, "to": "in_play", "controller": d.player}})
    assert window.controller.last_message[1] == "warning"
    assert f"gold: {game.name(cid)} costs" in window.prompt.msg.text()
    assert any("advice:" in line for line in game.state.log)  # the warning sits beside the move in the log


def test_hotkeys_draw_in_advise_mode_and_are_refused_in_enforce_mode(table, qtbot):
    window, ui = table(seed=3, mode="advise")
    game = ui.game
    ui.take_seat()
    me = window.controller.viewer
    hand = len(game.player(me).hand)
    window.hotkey_actions["draw"].trigger()
    assert len(game.player(me).hand) == hand + 1
    window.advise_action.setChecked(False)  # Game > Advise mode off
    assert window.controller.mode == "enforce"
    before = game.state.digest()
    window.hotkey_actions["draw"].trigger()
    assert game.state.digest() == before
    assert "advise mode" in window.prompt.msg.text()


def test_context_menu_offers_what_the_rules_ask(table, qtbot):
    window, ui = table(seed=3)
    game = ui.game
    ui.advance(lambda d: own_marshalling(d, game) and any(o.get("attach_to") is None for o in d.options))
    d = ui.decision
    cid = next(o["marshal"] for o in d.options if o.get("attach_to") is None and not o.get("duplicate"))
    actions = window.controller.card_actions(cid)
    labels = [label for label, _, enabled in actions if enabled]
    assert f"Marshal {game.name(cid)}" in labels
    assert not any(enabled for label, _, enabled in actions if label.startswith("Kill"))  # advise-mode moves
    dict((label, fn) for label, fn, _ in actions)[f"Marshal {game.name(cid)}"]()
    assert game.card(cid).zone == "in_play"


def test_a_computer_seat_answers_for_itself(table, qtbot):
    window, ui = table(seed=2, computer=("Bob",))
    game = ui.game
    ui.advance(lambda d: d.kind == "plot")
    assert ui.decision.player == "Alice"
    assert not window.privacy.isVisible()  # one person at the screen: nothing to hide
    assert any(name == "Bob" for name, _ in game.history)


def test_own_card_images_replace_the_drawn_frame(table, qtbot, tmp_path):
    from PySide6.QtGui import QColor, QImage

    from app.card_item import CardImages

    window, ui = table(seed=3)
    game = ui.game
    cid = game.player(window.controller.viewer).hand[0]
    name = game.name(cid)
    image = QImage(60, 84, QImage.Format.Format_RGB32)
    image.fill(QColor("red"))
    image.save(str(tmp_path / f"{name}.png"))
    images = CardImages(tmp_path)
    assert images.get("no such key", "No Such Card") is None
    images.get(game.card(cid).key, name)
    images.wait()
    found = images.get(game.card(cid).key, name)
    assert found is not None and found.pixelColor(5, 5) == QColor("red")


def test_new_game_dialog_builds_three_players(qtbot):
    from app.dialogs import GameSetup, NewGameDialog

    dialog = NewGameDialog(None, GameSetup(seed=9))
    qtbot.addWidget(dialog)
    dialog.count.setValue(3)
    dialog.rows[2].computer.setChecked(True)
    setup = dialog.setup()
    assert setup.names == ["Alice", "Bob", "Carol"] and setup.computer == ["Carol"]
    assert setup.check() is None
    game = setup.build()
    assert game.state.player_names == ["Alice", "Bob", "Carol"]


def test_log_shows_apostrophes_as_written(table, qtbot):
    window, ui = table(seed=3)
    lines = list(ui.game.state.log) + ["R1 challenges: Alice moves 1 power from Bob's House for power claim"]
    window.log.sync(lines)
    assert "Bob's House" in window.log.toPlainText()
    assert "&#x27;" not in window.log.toPlainText()


def test_a_scenario_opens_at_its_position(qtbot):
    from pathlib import Path

    from app.dialogs import GameSetup
    from app.window import TableWindow

    path = Path(__file__).resolve().parent.parent / "scenarios" / "timing" / \
        "mor-catelyn-never-surrender-price-of-failure.yaml"
    window = TableWindow(GameSetup(scenario=str(path), privacy=False), computer_delay_ms=0)
    qtbot.addWidget(window)
    game = window.controller.game
    assert game.state.player_names == ["greyjoy", "stark"]
    assert game.state.phase == "marshalling"
    assert "Catelyn Stark" in [game.name(c) for c in game.player("stark").in_play]
    assert "Moribund example" in window.log.toPlainText()


def test_a_broken_scenario_is_a_message_not_a_traceback(tmp_path):
    import subprocess
    import sys

    bad = tmp_path / "bad.yaml"
    bad.write_text("format: 1\ntitle: x\nstart: {players: {a: {house: stark}, b: {house: stark}}}\n"
                   "steps: [{a: {marshal: Nobody}}]\n")
    out = subprocess.run([sys.executable, "-m", "app.main", "--offscreen", "--scenario", str(bad),
                          "--screenshot", str(tmp_path / "x.png")], capture_output=True, text=True, timeout=120)
    assert out.returncode == 2
    assert "step 1: marshal: no card 'Nobody'" in out.stderr
    assert "Traceback" not in out.stderr


def test_new_game_dialog_restricts_to_an_era(qtbot):
    import pytest

    from app.dialogs import GameSetup, NewGameDialog
    from cards.errors import DataError

    dialog = NewGameDialog(None, GameSetup(seed=9, era="ccg"))
    qtbot.addWidget(dialog)
    assert dialog.era.currentData() == "ccg"
    assert [dialog.era.itemText(i) for i in range(dialog.era.count())][:2] == [
        "Any card", "CCG: Winter Edition to Five Kings Edition"]
    setup = dialog.setup()
    assert setup.era == "ccg"
    with pytest.raises(DataError, match="not of the era Winter Edition to Five Kings Edition"):
        setup.build()   # the practice decks are of no era


def test_hotseat_viewer_change_reuses_hand_items_and_never_shows_the_last_seat_hand(table, qtbot):
    """Items are reused across viewer changes (app/table.py), and a reused item never keeps a face the new
    viewer may not see (engine.visibility): under the privacy screen and once the next player has the seat,
    every item of the last seat's hand shows a back carrying nothing of its card, and no tooltip or preview
    names them."""
    from PySide6.QtWidgets import QApplication, QWidget

    from engine.visibility import visible_cards

    window, ui = table(seed=4, names=("Alice", "Bob", "Carol", "Dave"))
    game, scene, ctl = ui.game, window.scene, window.controller
    ui.take_seat()
    first = ctl.viewer
    hand = list(game.player(first).hand)
    items = {c: scene.cards[c] for c in hand}
    assert hand and all(not it.face.hidden and it.face.key == game.card(c).key for c, it in items.items())

    ui.press("pass")  # place nothing at setup: the next player is asked, behind the privacy screen
    second = ui.decision.player
    assert second != first and window.privacy.isVisible()
    for c in hand:  # still at the bottom of the table, but face down for nobody's seat
        face = scene.cards[c].face
        assert scene.cards[c] is items[c] and face.hidden and not face.key and not face.name and not face.text

    ui.take_seat()
    assert ctl.viewer == second
    seen = visible_cards(game, second)
    secret = {game.name(c) for c in hand} - {game.name(c) for c in seen}
    assert secret, "the two hands share every name: pick another seed"
    for c in hand:
        assert c not in scene.cards  # the last seat's hand is a pile now
        it = items[c]
        shown = it.scene() is scene and it.isVisible()
        assert not shown and (it.face is None or it.face.hidden)  # put aside blank, or gone
    for it in scene.items():
        if it.isVisible():
            assert not any(name in it.toolTip() for name in secret)
            face = getattr(it, "face", None)
            assert face is None or face.hidden or face.name not in secret
    # Asking for a preview of the last seat's hand shows nothing; hovering its pile neither.
    for c in hand:
        window.preview_card(c)
        assert window.preview.card_id is None and window.preview.view.face is None
    texts = [w.toolTip() for top in QApplication.topLevelWidgets() if top.isVisible()
             for w in [top, *top.findChildren(QWidget)] if w.isVisible()]
    texts += [window.preview.details.text()]
    assert not [t for t in texts for name in secret if name in t]

    # Back to the first seat: the same items come back, face up again.
    ctl.hide_for(first)
    ui.take_seat()
    assert ctl.viewer == first
    assert all(scene.cards[c] is items[c] and scene.cards[c].isVisible() and not scene.cards[c].face.hidden
               for c in game.player(first).hand if c in items)


def test_card_pictures_are_shared_by_what_they_show_and_bounded(table, qtbot):
    """One picture per (face shown, outlines, kneeling, size): every back of every seat is the same picture
    (a back carries nothing of its card), a change of face is a new picture, and the cache keeps to its budget."""
    from app.card_item import CardPictures

    window, ui = table(seed=2, names=("Alice", "Bob", "Carol"))
    scene = window.scene
    backs = {it.face for it in scene.cards.values() if it.face is not None and it.face.hidden}
    backs |= {p.pile.top for p in scene.piles.values() if p.pile and p.pile.top and p.pile.top.hidden}
    assert len(backs) == 1  # under the privacy screen: every hand and deck shows the one back
    pictures = CardPictures(budget=100_000)  # about three cards at this size
    back = next(iter(backs))
    assert pictures.get(back, None, False, False, False, 0.6) is pictures.get(back, None, False, False, False, 0.6)
    ui.take_seat()
    faces = [it.face for it in scene.cards.values() if not it.face.hidden]
    assert len({f.key for f in faces}) > 3
    shown = [pictures.get(f, None, False, False, False, 0.6) for f in faces]
    assert pictures.get(faces[0], None, True, False, False, 0.6) is not shown[0]  # selected: outlined
    assert pictures.renders == len(set(faces)) + 2 and pictures.bytes <= 100_000 and 0 < len(pictures) < 5


def test_an_era_implies_its_rules_unless_the_player_chooses_others(qtbot):
    """--era ccg plays CCG Winter Edition rules (no Taxation); an explicit --ruleset wins. In the New Game
    dialog, choosing the CCG era switches the rules to CCG Winter Edition, unless the player chose the rules."""
    from PySide6.QtCore import Qt

    from app.dialogs import GameSetup, NewGameDialog
    from app.main import parse_args, setup_from_args

    assert setup_from_args(parse_args(["--era", "ccg"])).ruleset == "ccg-winter"
    assert setup_from_args(parse_args(["--era", "ccg", "--goldfish", "practice:stark"])).ruleset == "ccg-winter"
    assert setup_from_args(parse_args(["--era", "ccg", "--ruleset", "lcg"])).ruleset == "lcg"
    assert setup_from_args(parse_args(["--era", "lcg"])).ruleset == "lcg"
    assert setup_from_args(parse_args([])).ruleset == "lcg"
    assert setup_from_args(parse_args(["--ruleset", "ccg-winter"])).ruleset == "ccg-winter"

    dialog = NewGameDialog(None, GameSetup(seed=9))
    qtbot.addWidget(dialog)
    assert dialog.ruleset.currentData() == "lcg"
    dialog.era.setCurrentIndex(dialog.era.findData("ccg"))
    assert dialog.setup().ruleset == "ccg-winter"
    dialog.era.setCurrentIndex(dialog.era.findData("lcg"))
    assert dialog.setup().ruleset == "lcg"

    dialog = NewGameDialog(None, GameSetup(seed=9, era="ccg"))  # a CCG setup from the command line
    qtbot.addWidget(dialog)
    assert dialog.setup().ruleset == "ccg-winter"

    dialog = NewGameDialog(None, GameSetup(seed=9))
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.ruleset.setFocus()
    qtbot.keyClick(dialog.ruleset, Qt.Key.Key_Down)  # the player picks CCG rules himself...
    qtbot.keyClick(dialog.ruleset, Qt.Key.Key_Up)  # ...then LCG again: his choice
    assert dialog.ruleset.currentData() == "lcg" and dialog.ruleset_chosen
    dialog.era.setCurrentIndex(dialog.era.findData("ccg"))
    assert dialog.setup().ruleset == "lcg"
    if os.environ.get("MAESTER_SHOTS"):
        d2 = NewGameDialog(None, GameSetup(seed=9))
        qtbot.addWidget(d2)
        d2.era.setCurrentIndex(d2.era.findData("ccg"))
        d2.show()
        d2.grab().save(str(Path(os.environ["MAESTER_SHOTS"]) / "new-game-ccg-era.png"))
    # a save's setup with rules other than its era's keeps them
    dialog = NewGameDialog(None, GameSetup(seed=9, era="ccg", ruleset="lcg"))
    qtbot.addWidget(dialog)
    assert dialog.ruleset_chosen and dialog.setup().ruleset == "lcg"


def test_the_influence_picker_asks_for_the_influence_left_after_a_reduction(qtbot):
    """issue 22: an influence cost reduced (reduce_influence, COS-12) is what the table asks the player to kneel."""
    from pathlib import Path

    from app.controller import TableController
    from engine.game import Options
    from engine.scenario import load_scenario

    path = Path(__file__).resolve().parent.parent / "scenarios" / "rules" / "cos-12-an-influence-cost-reduced.yaml"
    sc = load_scenario(path, Options(prompt_all=False))
    game = sc.game
    ctl = TableController(game, privacy=False)

    def to_alices_action():
        while game.advance().player != "alice" or game.advance().kind != "action":
            game.answer(game.advance().player, {"pass": True})

    to_alices_action()
    writ, counsel = sc.labels["writ1"], sc.labels["counsel"]
    assert ctl.influence_needed({"trigger": writ, "ability": 1}) == 2
    game.answer("alice", {"trigger": counsel, "ability": 1, "targets": [], "pay": [], "x": 0})
    to_alices_action()
    assert ctl.influence_needed({"trigger": writ, "ability": 1}) == 1
