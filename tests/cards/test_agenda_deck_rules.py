"""The Five Kings agendas' deck-building rules (issue 24): the agenda's ability data says them (a
constant's ``deck``, docs/abilities.md) and ``check_deck`` applies them (DCK-01, DCK-02, DCK-06).

The agendas' abilities are read from the project's data file, as the imported cards get them; the
other cards are invented."""
from __future__ import annotations

from cards.deck import Deck, agenda_deck_rules, check_deck
from cards.model import CardDef
from cards.overlay import ABILITY_DIR, read_ability_file

DATA = {**read_ability_file(ABILITY_DIR / "ccg-five-kings-4.yaml"),
        **read_ability_file(ABILITY_DIR / "ccg-five-kings-5.yaml")}


def agenda(key: str, house: str) -> CardDef:
    return CardDef(key=key, name=key, type="agenda", house=(house,), abilities=tuple(DATA[key]))


def deck(ag: CardDef | None, house: str, cards: int = 60, plots: int = 7, neutral: list[CardDef] = ()) -> Deck:
    own = [CardDef(key=f"c{i}", name=f"Sworn {i}", type="character", house=(house,), cost=2, strength=2)
           for i in range(cards // 3 + 1)]
    house_cards = [c for c in own for _ in range(3)][:cards - len(neutral)] + list(neutral)
    return Deck(name="Test", house=house, house_card=None, agenda=ag,
                plots=[CardDef(key=f"p{i}", name=f"Plot {i}", type="plot") for i in range(plots)], cards=house_cards)


def rules(d: Deck) -> list[str]:
    return [p.rule for p in check_deck(d, casual=True)]


NEUTRAL_CHAR = CardDef(key="n1", name="Hedge Knight", type="character", cost=2, strength=2)
NEUTRAL_LOC = CardDef(key="n2", name="Roadside Inn", type="location", cost=1)
NEUTRAL_ATT = CardDef(key="n3", name="Old Sword", type="attachment", cost=1)


def test_the_agendas_data_gives_their_rules():
    assert agenda_deck_rules(agenda("agotdb_171346", "greyjoy")) == {"no_neutral": ["character", "location"],
                                                                     "house_deck_min": 45}
    assert agenda_deck_rules(agenda("agotdb_171344", "lannister"))["plots"] == 8
    assert agenda_deck_rules(None) == {} and agenda_deck_rules(CardDef(key="a", name="A", type="agenda")) == {}


def test_no_neutral_characters_or_locations():
    ag = agenda("agotdb_171347", "targaryen")
    assert rules(deck(ag, "targaryen")) == []
    found = check_deck(deck(ag, "targaryen", neutral=[NEUTRAL_CHAR, NEUTRAL_LOC, NEUTRAL_ATT]), casual=True)
    assert [(p.rule, p.card.name) for p in found] == [("DCK-06", "Hedge Knight"), ("DCK-06", "Roadside Inn")]
    assert "neutral" in found[0].message and "agotdb_171347" in found[0].message
    assert rules(deck(None, "targaryen", neutral=[NEUTRAL_CHAR])) == []  # without the agenda: legal


def test_kings_of_salt_and_rock_needs_45_cards():
    ag = agenda("agotdb_171346", "greyjoy")
    assert rules(deck(ag, "greyjoy", cards=45)) == []
    assert rules(deck(ag, "greyjoy", cards=44)) == ["DCK-02"]
    assert rules(deck(None, "greyjoy", cards=45)) == ["DCK-02"]


def test_kings_of_deceit_allows_8_plots():
    ag = agenda("agotdb_171344", "lannister")
    assert rules(deck(ag, "lannister", plots=8)) == []
    assert rules(deck(ag, "lannister", plots=7)) == []
    assert rules(deck(ag, "lannister", plots=9)) == ["DCK-01"]
    assert rules(deck(None, "lannister", plots=8)) == ["DCK-01"]


def test_the_other_five_kings_agendas_forbid_neutral_characters_and_locations():
    for key, house in (("agotdb_171343", "stark"), ("agotdb_171345", "baratheon"), ("agotdb_171348", "martell")):
        assert rules(deck(agenda(key, house), house, neutral=[NEUTRAL_LOC, NEUTRAL_ATT])) == ["DCK-06"], key


def test_princes_of_the_south_allows_an_eighth_plot_that_copies_another():
    d = deck(agenda("agotdb_171348", "martell"), "martell")
    assert rules(d) == []
    d.plots.append(d.plots[3])  # an eighth plot, a second copy of one of the seven
    assert rules(d) == []
    d.plots.append(d.plots[5])  # a ninth
    assert rules(d) == ["DCK-01", "DCK-01"]
    d.plots[7:] = [CardDef(key="p9", name="Plot 9", type="plot")]  # eight titles: no copy
    assert rules(d) == ["DCK-01"]
    d.plots[6:] = [d.plots[0]]  # seven plots, one a copy: only six titles
    assert rules(d) == ["DCK-01"]
    without = deck(None, "martell")
    without.plots.append(without.plots[3])
    assert rules(without) == ["DCK-01", "DCK-01"]
