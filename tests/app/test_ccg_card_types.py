"""CCG cards the importer used to skip or flatten (issue 24): STR X on the table, the browser and the
deck statistics; title cards on the table."""
from __future__ import annotations

from app.browser import CardTableModel
from app.card_item import CardFace, strength_text
from app.preview import describe
from cards.model import CardDef

SCHEMER = CardDef(key="x1", name="Invented Schemer", type="character", house=("lannister",), cost=0, cost_x=True,
                  strength=0, strength_x=True, icons=frozenset({"intrigue"}))


def test_a_printed_x_str_shows_as_x_until_something_changes_it():
    face = CardFace.of(SCHEMER, strength=0)
    assert strength_text(face) == "X" and "STR X" in describe(face)
    boosted = CardFace.of(SCHEMER, strength=2)
    assert strength_text(boosted) == "2" and "STR 2 (printed X)" in describe(boosted)


def test_the_browser_shows_and_sorts_str_x_after_every_number(qtbot):
    guard = CardDef(key="g1", name="Invented Guard", type="character", cost=2, strength=5)
    model = CardTableModel([SCHEMER, guard])
    assert model._text(SCHEMER, "STR") == "X" and model._text(guard, "STR") == "5"
    assert model._sort_key(SCHEMER, "STR") > model._sort_key(guard, "STR")


def test_the_deck_statistics_chart_str_x_apart(qtbot):
    from app.deck_editor import DeckEditor
    from cards.deck import Deck
    from cards.model import CardPool

    pool = CardPool()
    pool.add(SCHEMER)
    ed = DeckEditor(pools={"all": pool, "practice": pool})
    qtbot.addWidget(ed)
    ed.stats.show_deck(Deck(name="x", house="lannister", house_card=None, agenda=None, plots=[],
                            cards=[SCHEMER, SCHEMER]))
    assert ed.stats.deck is not None  # the STR chart has an X column, not a crash


def test_the_table_shows_a_title_in_play_and_passes_it_in_enforce_mode(qtbot, tmp_path):
    import dataclasses

    from app.controller import TableController
    from app.table import TableScene, TableView
    from engine.builder import new_game, practice_decks
    from engine.game import Options

    title = CardDef(key="t_inv", name="Invented Title", type="title", text="Invented text, played by hand.")
    stark, lannister = practice_decks()
    game = new_game({"alice": dataclasses.replace(stark, titles=[title]), "bob": lannister}, seed=3,
                    options=Options(prompt_all=False))
    ctl = TableController(game, privacy=False)
    ctl.start()
    scene = TableScene(ctl)
    view = TableView(scene)
    qtbot.addWidget(view)
    view.resize(1400, 900)
    scene.sync()
    (cid,) = [c.id for c in game.state.cards.values() if c.key == "t_inv"]
    assert ctl.mode == "enforce"
    actions = {label: fn for label, fn, *_ in ctl.card_actions(cid) if fn is not None}
    assert "Pass Invented Title to bob" in actions and "Pass Invented Title to alice" not in actions
    actions["Pass Invented Title to bob"]()
    assert game.card(cid).controller == "bob" and cid in game.player("bob").in_play
    scene.sync()
    view.grab().save(str(tmp_path / "title.png"))
    assert (tmp_path / "title.png").stat().st_size > 0
