"""Decks: reading the three formats, writing them back, and the construction rules (DCK-01..07).

Every card here is invented for these tests.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cards.deck import (
    FORMATS, Deck, Problem, check_deck, format_deck, parse_deck_text, read_deck, write_deck,
)
from cards.errors import DataError
from cards.model import CardDef, CardPool

ROOT = Path(__file__).resolve().parents[2]
PRACTICE_DECKS = sorted((ROOT / "cards" / "practice" / "decks").glob("*"))

PLOTS = ["Grey Dawn", "Long Night", "Salt and Ash", "River Toll", "Bitter Harvest",
         "Iron Muster", "Quiet Council", "Lantern Vigil"]
CHARACTERS = [f"{a} {b}" for a in ("Fenwick", "Marrow", "Tallow", "Quarry", "Gullcrest", "Hobb", "Ostry")
              for b in ("Spearman", "Crier", "Warden", "Drover", "Reeve")]


def make_pool() -> CardPool:
    pool = CardPool()
    cards = [
        CardDef(key="h_stark", name="House Stark", type="house", house=("stark",)),
        CardDef(key="h_lannister", name="House Lannister", type="house", house=("lannister",)),
        CardDef(key="ag_frost", name="Pact of Frost", type="agenda"),
        CardDef(key="ag_scarce", name="Oath of Scarcity", type="agenda", deck_rule="max-2-copies"),
        *[CardDef(key=f"pl_{i}", name=n, type="plot", set="Alpha", number=i) for i, n in enumerate(PLOTS)],
        *[CardDef(key=f"ch_{i}", name=n, type="character", house=("stark",), cost=2, strength=2,
                  set="Alpha", number=20 + i) for i, n in enumerate(CHARACTERS)],
        CardDef(key="loc", name="Moss Tower", type="location", cost=1, set="Alpha"),
        CardDef(key="evt", name="Quick Ruse", type="event", cost=0, set="Alpha"),
        CardDef(key="att", name="Tin Helm", type="attachment", cost=1, set="Alpha"),
        CardDef(key="stark_only", name="Wintervale Sworn", type="character", house=("stark",),
                house_only="stark", cost=3, strength=3, set="Alpha"),
        CardDef(key="stark_only_plot", name="Wolf Moon", type="plot", house_only="stark", set="Alpha"),
        CardDef(key="promo", name="Gilded Herald", type="character", cost=2, strength=1, promo=True),
        CardDef(key="banned", name="Forbidden Blade", type="attachment", cost=1,
                legality=(("joust", "banned"),)),
        CardDef(key="melee_banned", name="Crowded Feast", type="event", cost=1,
                legality=(("melee", "banned"),)),
        CardDef(key="r_tome", name="Rare Tome", type="attachment", cost=1, legality=(("joust", "restricted"),)),
        CardDef(key="r_map", name="Rare Map", type="location", cost=1, legality=(("joust", "restricted"),)),
        CardDef(key="single", name="Single Crown", type="attachment", cost=2, deck_limit=1),
        CardDef(key="ferry_a", name="Old Ferryman", type="character", cost=1, strength=1, set="Alpha", number=5),
        CardDef(key="ferry_b", name="Old Ferryman", type="character", cost=1, strength=1, set="Beta", number=9),
        CardDef(key="ferry_c", name="Old Ferryman", type="character", cost=1, strength=1, set="Beta", number=10),
        CardDef(key="salt_char", name="Salt and Ash", type="character", cost=1, strength=1),
    ]
    for card in cards:
        pool.add(card)
    return pool


@pytest.fixture
def pool() -> CardPool:
    return make_pool()


def legal_deck(pool: CardPool, **changes) -> Deck:
    """House Stark, an agenda, 7 plots and 20 characters x3 = 60 cards."""
    deck = Deck(name="Test", house="stark", house_card=pool.get("h_stark"), agenda=pool.get("ag_frost"),
                plots=[pool.find(n) for n in PLOTS[:7]],
                cards=[pool.find(n) for n in CHARACTERS[:20] for _ in range(3)])
    for key, value in changes.items():
        setattr(deck, key, value)
    return deck


def rules(problems: list[Problem]) -> list[str]:
    return [p.rule for p in problems]


# --------------------------------------------------------------------------- validation

def test_legal_deck_passes(pool):
    assert check_deck(legal_deck(pool)) == []


def test_DCK_01_six_plots_rejected(pool):
    deck = legal_deck(pool)
    deck.plots.pop()
    problems = check_deck(deck)
    assert rules(problems) == ["DCK-01"]
    assert "6 cards" in problems[0].message and "exactly 7" in problems[0].message


def test_DCK_01_eight_plots_rejected(pool):
    deck = legal_deck(pool)
    deck.plots.append(pool.find(PLOTS[7]))
    assert rules(check_deck(deck)) == ["DCK-01"]


def test_DCK_01_two_plots_with_one_title_rejected(pool):
    deck = legal_deck(pool)
    deck.plots[-1] = deck.plots[0]
    problems = check_deck(deck)
    assert rules(problems) == ["DCK-01"]
    assert "Grey Dawn" in problems[0].message and problems[0].card is deck.plots[0]


def test_DCK_02_59_cards_rejected(pool):
    deck = legal_deck(pool)
    deck.cards.pop()
    problems = check_deck(deck)
    assert rules(problems) == ["DCK-02"]
    assert "59" in problems[0].message


def test_DCK_02_has_no_maximum(pool):
    deck = legal_deck(pool)
    deck.cards += [pool.find(n) for n in CHARACTERS[20:] for _ in range(3)]
    assert check_deck(deck) == []


def test_DCK_03_four_copies_rejected(pool):
    deck = legal_deck(pool)
    deck.cards.append(deck.cards[0])
    problems = check_deck(deck)
    assert rules(problems) == ["DCK-03"]
    assert "4 copies" in problems[0].message


def test_DCK_03_counts_a_title_across_printings(pool):
    deck = legal_deck(pool)
    deck.cards += [pool.get("ferry_a"), pool.get("ferry_a"), pool.get("ferry_b"), pool.get("ferry_c")]
    assert rules(check_deck(deck)) == ["DCK-03"]


def test_DCK_03_a_card_may_lower_its_limit(pool):
    deck = legal_deck(pool)
    deck.cards += [pool.get("single")] * 2
    problems = check_deck(deck)
    assert rules(problems) == ["DCK-03"] and "at most 1" in problems[0].message


def test_DCK_03_plots_are_counted_apart(pool):
    deck = legal_deck(pool)        # "Salt and Ash" is one of the plots
    deck.cards += [pool.get("salt_char")] * 3
    assert check_deck(deck) == []


def test_DCK_04_house_only_card_rejected_in_another_house(pool):
    deck = legal_deck(pool, house="lannister", house_card=pool.get("h_lannister"))
    deck.cards.append(pool.get("stark_only"))
    problems = check_deck(deck)
    assert rules(problems) == ["DCK-04"]
    assert "House Stark only" in problems[0].message and "Lannister" in problems[0].message


def test_DCK_04_house_only_plot_rejected_in_another_house(pool):
    deck = legal_deck(pool, house="lannister", house_card=pool.get("h_lannister"))
    deck.plots[-1] = pool.get("stark_only_plot")
    assert rules(check_deck(deck)) == ["DCK-04"]


def test_DCK_04_house_only_card_allowed_in_its_house(pool):
    deck = legal_deck(pool)
    deck.cards.append(pool.get("stark_only"))
    deck.plots[-1] = pool.get("stark_only_plot")
    assert check_deck(deck) == []


def test_DCK_04_card_for_several_houses():
    card = CardDef(key="x", name="Two Banners", type="event", deck_houses=("baratheon", "greyjoy"))
    pool = make_pool()
    deck = legal_deck(pool)
    deck.cards.append(card)
    problems = check_deck(deck)
    assert rules(problems) == ["DCK-04"] and "Baratheon or Greyjoy" in problems[0].message
    deck.house, deck.house_card = "greyjoy", None
    assert check_deck(deck) == []


def test_DCK_05_promo_rejected_in_tournament(pool):
    deck = legal_deck(pool)
    deck.cards.append(pool.get("promo"))
    problems = check_deck(deck)
    assert rules(problems) == ["DCK-05"] and "promotional" in problems[0].message


def test_DCK_05_promo_allowed_in_casual_play(pool):
    deck = legal_deck(pool)
    deck.cards.append(pool.get("promo"))
    assert check_deck(deck, casual=True) == []


def test_DCK_06_three_copies_rejected_with_a_max_two_card(pool):
    deck = legal_deck(pool, agenda=pool.get("ag_scarce"))
    problems = check_deck(deck)
    assert set(rules(problems)) == {"DCK-06"} and len(problems) == 20
    assert "Oath of Scarcity" in problems[0].message
    assert rules(check_deck(deck, casual=True)) == ["DCK-06"] * 20     # a card's rule, not a tournament rule


def test_DCK_06_two_copies_pass_with_a_max_two_card(pool):
    deck = legal_deck(pool, agenda=pool.get("ag_scarce"),
                      cards=[pool.find(n) for n in CHARACTERS[:30] for _ in range(2)])
    assert len(deck.cards) >= 60
    assert check_deck(deck) == []


def test_DCK_06_counts_the_plot_deck_too(pool):
    # A plot and two House-deck cards with its title are three copies of "any card in your deck".
    deck = legal_deck(pool, agenda=pool.get("ag_scarce"),
                      cards=[pool.find(n) for n in CHARACTERS for _ in range(2)] + [pool.get("salt_char")] * 2)
    problems = check_deck(deck)
    assert rules(problems) == ["DCK-06"] and "Salt and Ash" in problems[0].message


def test_DCK_07_banned_card_rejected(pool):
    deck = legal_deck(pool)
    deck.cards.append(pool.get("banned"))
    problems = check_deck(deck)
    assert rules(problems) == ["DCK-07"] and "banned in joust" in problems[0].message


def test_DCK_07_bans_depend_on_the_format(pool):
    deck = legal_deck(pool)
    deck.cards.append(pool.get("melee_banned"))
    assert check_deck(deck, fmt="joust") == []
    assert rules(check_deck(deck, fmt="melee")) == ["DCK-07"]


def test_DCK_07_two_restricted_cards_rejected(pool):
    deck = legal_deck(pool)
    deck.cards += [pool.get("r_tome"), pool.get("r_map")]
    problems = check_deck(deck)
    assert rules(problems) == ["DCK-07"]
    assert "Rare Tome" in problems[0].message and "Rare Map" in problems[0].message


def test_DCK_07_one_restricted_card_in_any_number_of_copies_passes(pool):
    deck = legal_deck(pool)
    deck.cards += [pool.get("r_tome")] * 3
    assert check_deck(deck) == []


def test_DCK_07_casual_play_ignores_bans_and_the_restricted_list(pool):
    deck = legal_deck(pool)
    deck.cards += [pool.get("banned"), pool.get("r_tome"), pool.get("r_map")]
    assert check_deck(deck, casual=True) == []


def test_SET_01_a_deck_needs_a_house(pool):
    assert rules(check_deck(legal_deck(pool, house="", house_card=None))) == ["SET-01"]


def test_ZON_01_plot_in_the_house_deck_reported(pool):
    deck = legal_deck(pool)
    deck.cards[0] = pool.find(PLOTS[7])
    problems = check_deck(deck)
    assert "ZON-01" in rules(problems) and "Lantern Vigil" in problems[0].message


def test_ZON_01_agenda_and_house_card_in_the_house_deck_reported(pool):
    deck = legal_deck(pool)
    deck.cards += [pool.get("ag_scarce"), pool.get("h_lannister")]
    assert rules(check_deck(deck)).count("ZON-01") == 2


def test_ZON_01_character_in_the_plot_deck_reported(pool):
    deck = legal_deck(pool)
    deck.plots[-1] = pool.find(CHARACTERS[0])
    assert rules(check_deck(deck)) == ["ZON-01"]


def test_ZON_01_house_card_that_is_not_a_house_card(pool):
    assert rules(check_deck(legal_deck(pool, house_card=pool.find(CHARACTERS[0])))) == ["ZON-01"]


def test_ZON_01_house_card_of_another_house(pool):
    assert rules(check_deck(legal_deck(pool, house_card=pool.get("h_lannister")))) == ["ZON-01"]


def test_ZON_05_agenda_that_is_not_an_agenda(pool):
    problems = check_deck(legal_deck(pool, agenda=pool.find(PLOTS[7])))
    assert rules(problems) == ["ZON-05"] and "not an agenda" in problems[0].message


def test_deck_without_an_agenda_is_legal(pool):
    assert check_deck(legal_deck(pool, agenda=None)) == []


def test_problem_prints_as_rule_and_message():
    assert str(Problem("DCK-02", "too few")) == "DCK-02: too few"


# --------------------------------------------------------------------------- the plain text list

TEXT = """\
// pasted from a forum post
Deck: Wolves
House: Stark
Agenda: Pact of Frost

# Plots
1x Grey Dawn
Long Night
Salt and Ash x1
1 River Toll
1 x Bitter Harvest
1X Iron Muster
Quiet Council

Characters (60):
""" + "".join(f"3x {n}\n" for n in CHARACTERS[:19]) + "2x Old Ferryman (Beta #10)\n1 Old Ferryman (Alpha)\n"


def test_text_list_reads_every_line_form(pool):
    deck = parse_deck_text(TEXT, pool, "wolves.txt")
    assert deck.name == "Wolves" and deck.house == "stark"
    assert deck.house_card is pool.get("h_stark") and deck.agenda is pool.get("ag_frost")
    assert [c.name for c in deck.plots] == PLOTS[:7]
    assert len(deck.cards) == 60
    assert deck.cards[-3:] == [pool.get("ferry_c")] * 2 + [pool.get("ferry_a")]
    assert deck.notes == [] and check_deck(deck) == []


def test_text_other_header_and_line_forms(pool):
    text = ("Name: Odd One\nAgenda: None\nPlots: 7\nGrey Dawn\n== Events ==\n2xQuick Ruse\n"
            "Total: 60\nTotal cards: 61\nCharacters\n1 Old Ferryman (ferry_b)\n")
    deck = parse_deck_text(text, pool)
    assert deck.name == "Odd One" and deck.agenda is None and deck.house == ""
    assert deck.plots == [pool.get("pl_0")]
    assert deck.cards == [pool.get("evt")] * 2 + [pool.get("ferry_b")]
    assert deck.notes == []


def test_text_house_line_forms(pool):
    for line in ("House: Stark", "House Stark", "house: stark", "HOUSE: House Stark"):
        deck = parse_deck_text(f"{line}\n1x Grey Dawn\n", pool)
        assert deck.house == "stark" and deck.house_card is pool.get("h_stark"), line


def test_text_house_line_takes_the_first_house_card_without_a_note():
    pool = CardPool()
    for key, card_set in (("hs1", "Alpha"), ("hs2", "Beta")):
        pool.add(CardDef(key=key, name="House Stark", type="house", house=("stark",), set=card_set))
    pool.add(CardDef(key="p", name="Grey Dawn", type="plot"))
    for line in ("House Stark", "House: Stark"):
        deck = parse_deck_text(f"{line}\n1x Grey Dawn\n", pool)
        assert deck.house_card is pool.get("hs1") and deck.notes == [], line
    deck = parse_deck_text("1x House Stark (Beta)\n1x Grey Dawn\n", pool)
    assert deck.house_card is pool.get("hs2")


def test_text_house_without_a_house_card_in_the_pool():
    pool = CardPool()
    pool.add(CardDef(key="p", name="Grey Dawn", type="plot"))
    deck = parse_deck_text("House: Greyjoy\n1x Grey Dawn\n", pool)
    assert deck.house == "greyjoy" and deck.house_card is None
    deck = parse_deck_text("House: Neutral\n1x Grey Dawn\n", pool)
    assert deck.house == "neutral"
    deck = parse_deck_text("1x House Martell\n1x Grey Dawn\n", pool)
    assert deck.house == "martell" and deck.house_card is None


def test_text_without_sections_places_cards_by_type(pool):
    deck = parse_deck_text("1x House Lannister\n1x Pact of Frost\n1x Grey Dawn\n2x Moss Tower\n", pool)
    assert deck.house == "lannister" and deck.house_card is pool.get("h_lannister")
    assert deck.agenda is pool.get("ag_frost")
    assert deck.plots == [pool.find("Grey Dawn")] and deck.cards == [pool.get("loc")] * 2


def test_text_bare_title_with_several_printings_takes_the_first_and_notes_it(pool):
    deck = parse_deck_text("House: Stark\n3x Old Ferryman\n", pool, "d.txt")
    assert deck.cards == [pool.get("ferry_a")] * 3
    assert len(deck.notes) == 1
    assert "d.txt:2" in deck.notes[0] and "3 printings" in deck.notes[0] and "(Beta)" in deck.notes[0]


def test_text_set_with_several_printings_in_it_notes_too(pool):
    deck = parse_deck_text("2x Old Ferryman (Beta)\n", pool)
    assert deck.cards == [pool.get("ferry_b")] * 2 and len(deck.notes) == 1


def test_text_unknown_card_suggests_close_titles(pool):
    with pytest.raises(DataError) as err:
        parse_deck_text("House: Stark\n\n3x Fenwik Spearman\n", pool, "d.txt")
    assert err.value.line == 3 and err.value.file == "d.txt"
    assert "unknown card 'Fenwik Spearman'" in str(err.value)
    assert "did you mean 'Fenwick Spearman'" in str(err.value)


def test_text_unknown_set_lists_the_printings(pool):
    with pytest.raises(DataError, match=r"no printing in set 'Gamma' \(known printings: Alpha, Beta\)"):
        parse_deck_text("1x Old Ferryman (Gamma)\n", pool)


@pytest.mark.parametrize("line", ["0x Grey Dawn", "-1x Grey Dawn", "2.5x Grey Dawn", "Grey Dawn x0",
                                  "100x Grey Dawn", "3,0 Grey Dawn"])
def test_text_bad_quantity(pool, line):
    with pytest.raises(DataError, match="bad quantity") as err:
        parse_deck_text(f"House: Stark\n{line}\n", pool, "d.txt")
    assert err.value.line == 2


def test_text_plot_in_the_house_deck_section_rejected(pool):
    with pytest.raises(DataError) as err:
        parse_deck_text("Characters:\n3x Fenwick Spearman\n1x Grey Dawn\n", pool, "d.txt")
    assert err.value.line == 3
    assert "'Grey Dawn' is a plot and cannot go in the House deck" in str(err.value)
    assert "Plots section" in str(err.value)


def test_text_character_in_the_plot_section_rejected(pool):
    with pytest.raises(DataError, match="is a character and cannot go in the plot deck"):
        parse_deck_text("Plots:\n1x Fenwick Spearman\n", pool)


def test_text_non_agenda_as_agenda_rejected(pool):
    with pytest.raises(DataError, match="'Grey Dawn' is a plot and cannot go in the agenda"):
        parse_deck_text("Agenda: Grey Dawn\n", pool)


def test_text_two_agendas_rejected(pool):
    with pytest.raises(DataError, match="at most one agenda") as err:
        parse_deck_text("Agenda: Pact of Frost\n1x Grey Dawn\n1x Oath of Scarcity\n", pool)
    assert err.value.line == 3


def test_text_two_houses_rejected(pool):
    with pytest.raises(DataError, match="two Houses: Stark and Lannister"):
        parse_deck_text("House: Stark\n1x House Lannister\n1x Grey Dawn\n", pool)


def test_text_unknown_house_rejected(pool):
    with pytest.raises(DataError, match="'Strak' is not a House.*did you mean 'Stark'"):
        parse_deck_text("House: Strak\n1x Grey Dawn\n", pool)


@pytest.mark.parametrize("text", ["", "   \n\n", "\ufeff"])
def test_text_empty_rejected(pool, text):
    with pytest.raises(DataError, match="the deck file is empty"):
        parse_deck_text(text, pool, "d.txt")


def test_text_without_cards_rejected(pool):
    with pytest.raises(DataError, match="no cards found"):
        parse_deck_text("# only a comment\nHouse: Stark\nPlots:\n", pool, "d.txt")


# --------------------------------------------------------------------------- OCTGN .o8d

O8D = """<?xml version="1.0" encoding="utf-8" standalone="yes"?>
<deck game="0000">
  <section name="House" shared="False"><card qty="1" id="some-octgn-guid">House Stark</card></section>
  <section name="Agenda" shared="False"><card qty="1" id="ag_frost">Pact of Frost</card></section>
  <section name="Characters" shared="False">
    <card qty="3" id="ch_0">Fenwick Spearman</card>
    <card qty="2" id="ffff-unknown-guid">Marrow Crier</card>
    <card qty="1" id="ch_2">A Wrong Name</card>
  </section>
  <section name="Plots" shared="False"><card qty="1" id="pl_0">Grey Dawn</card></section>
  <notes><![CDATA[Deck: Test Wolves]]></notes>
</deck>
"""


def test_o8d_matches_by_id_then_by_name(pool):
    deck = parse_deck_text(O8D, pool, "d.o8d")
    assert deck.name == "Test Wolves" and deck.octgn_game == "0000"
    assert 'game="0000"' in format_deck(deck, "o8d")
    assert deck.house == "stark" and deck.house_card is pool.get("h_stark")
    assert deck.agenda is pool.get("ag_frost") and deck.plots == [pool.get("pl_0")]
    assert deck.cards == [pool.get("ch_0")] * 3 + [pool.find("Marrow Crier")] * 2 + [pool.get("ch_2")]
    assert len(deck.notes) == 1 and "d.o8d:8" in deck.notes[0] and "'A Wrong Name'" in deck.notes[0]


def test_o8d_house_without_a_house_card_in_the_pool():
    pool = CardPool()
    pool.add(CardDef(key="p", name="Grey Dawn", type="plot"))
    text = '<deck><section name="House"><card qty="1" id="x">House Martell</card></section>' \
           '<section name="Plots"><card qty="1" id="p">Grey Dawn</card></section></deck>'
    deck = parse_deck_text(text, pool)
    assert deck.house == "martell" and deck.house_card is None


def test_o8d_truncated_rejected(pool):
    with pytest.raises(DataError) as err:
        parse_deck_text(O8D[: O8D.index("<card qty=\"2\"") + 10], pool, "d.o8d")
    assert err.value.file == "d.o8d" and err.value.line == 7
    assert "not well-formed XML" in str(err.value) and "truncated" in str(err.value)


@pytest.mark.parametrize("qty", ["abc", "0", "-2", "1.5", ""])
def test_o8d_bad_quantity_rejected(pool, qty):
    with pytest.raises(DataError, match="qty: bad quantity") as err:
        parse_deck_text(O8D.replace('qty="2"', f'qty="{qty}"'), pool, "d.o8d")
    assert err.value.line == 7


def test_o8d_unknown_card_rejected(pool):
    with pytest.raises(DataError, match="unknown card 'Marow Crier'.*did you mean 'Marrow Crier'"):
        parse_deck_text(O8D.replace(">Marrow Crier<", ">Marow Crier<"), pool, "d.o8d")


def test_o8d_plot_in_the_characters_section_rejected(pool):
    with pytest.raises(DataError, match="'Long Night' is a plot and cannot go in the House deck") as err:
        parse_deck_text(O8D.replace('id="ch_2">A Wrong Name', 'id="pl_1">Long Night'), pool, "d.o8d")
    assert err.value.line == 8


def test_o8d_unknown_section_rejected(pool):
    with pytest.raises(DataError, match="unknown section 'Sideboard'"):
        parse_deck_text(O8D.replace('name="Plots"', 'name="Sideboard"'), pool, "d.o8d")


def test_o8d_wrong_root_rejected(pool):
    with pytest.raises(DataError, match="root element is <cards>, not <deck>"):
        parse_deck_text("<cards><card>Grey Dawn</card></cards>", pool, "d.o8d")


def test_o8d_doctype_refused(pool):
    text = '<?xml version="1.0"?>\n<!DOCTYPE deck [<!ENTITY x "Grey Dawn">]>\n<deck></deck>'
    with pytest.raises(DataError, match="DOCTYPE"):
        parse_deck_text(text, pool, "d.o8d")


def test_o8d_extension_insists_on_xml(pool, tmp_path):
    path = tmp_path / "d.o8d"
    path.write_text("3x Fenwick Spearman\n", encoding="utf-8")
    with pytest.raises(DataError, match="not well-formed XML"):
        read_deck(path, pool)


# --------------------------------------------------------------------------- deckbuilder TXT

BUILDER = """\
HOUSE: Stark
AGENDA: Pact of Frost
pl_0 | 1 | Grey Dawn
pl_1 | 1 | Long Night
ch_0 | 3 | Fenwick Spearman
not-an-id | 2 | Marrow Crier
ch_2 | 1 | Something Else
"""


def test_builder_rows_match_by_id_then_name(pool):
    deck = parse_deck_text(BUILDER, pool, "b.txt")
    assert deck.house == "stark" and deck.agenda is pool.get("ag_frost")
    assert deck.plots == [pool.get("pl_0"), pool.get("pl_1")]
    assert deck.cards == [pool.get("ch_0")] * 3 + [pool.find("Marrow Crier")] * 2 + [pool.get("ch_2")]
    assert len(deck.notes) == 1 and "b.txt:7" in deck.notes[0]


def test_builder_agenda_row_and_header_are_one_agenda(pool):
    deck = parse_deck_text("AGENDA: Pact of Frost\nag_frost | 1 | Pact of Frost\npl_0 | 1 | Grey Dawn\n", pool)
    assert deck.agenda is pool.get("ag_frost")


@pytest.mark.parametrize("row, message", [
    ("ch_0 | three | Fenwick Spearman", "qty: bad quantity 'three'"),
    ("ch_0 | 3 | Fenwick Spearman | extra", "expected 'id | qty | name', found 4 columns"),
    ("nope | 3 | Fenwik Spearman", "unknown card 'Fenwik Spearman'"),
    ("nope | 3 |", "id: card id 'nope' is not in the pool"),
    ("3x Fenwick Spearman", "not an 'id | qty | name' row"),
    ("COLOUR: red", "unknown header 'COLOUR'"),
])
def test_builder_bad_rows_rejected(pool, row, message):
    with pytest.raises(DataError, match=message.replace("|", r"\|")) as err:
        parse_deck_text(f"HOUSE: Stark\npl_0 | 1 | Grey Dawn\n{row}\n", pool, "b.txt")
    assert err.value.line == 3


# --------------------------------------------------------------------------- files and encodings

def test_read_deck_rejects_non_utf8(pool, tmp_path):
    path = tmp_path / "d.txt"
    path.write_bytes("House: Stark\n3x Fenwick Spearman\n1x Caf\xe9 Guard\n".encode("latin-1"))
    with pytest.raises(DataError, match="not UTF-8 text") as err:
        read_deck(path, pool)
    assert err.value.line == 3 and "save the deck as UTF-8" in str(err.value)


def test_read_deck_accepts_utf8_bom_and_utf16(pool, tmp_path):
    for i, data in enumerate([b"\xef\xbb\xbf" + TEXT.encode(), TEXT.encode("utf-16")]):
        path = tmp_path / f"d{i}.txt"
        path.write_bytes(data)
        assert len(read_deck(path, pool).cards) == 60


def test_read_deck_rejects_binary_files(pool, tmp_path):
    path = tmp_path / "d.txt"
    path.write_bytes(b"PK\x03\x04\x00\x00binary")
    with pytest.raises(DataError, match="binary file"):
        read_deck(path, pool)


def test_read_deck_missing_file(pool, tmp_path):
    with pytest.raises(DataError, match="cannot read the deck file"):
        read_deck(tmp_path / "nope.txt", pool)


# --------------------------------------------------------------------------- round trips

def deck_signature(deck: Deck) -> tuple:
    return (deck.name, deck.house, deck.house_card and deck.house_card.key, deck.agenda and deck.agenda.key,
            sorted(c.key for c in deck.plots), sorted(c.key for c in deck.cards))


@pytest.mark.parametrize("fmt, suffix", [("o8d", ".o8d"), ("text", ".txt"), ("builder", ".txt")])
def test_round_trip(pool, tmp_path, fmt, suffix):
    deck = legal_deck(pool)
    deck.cards += [pool.get("ferry_c"), pool.get("ferry_b"), pool.get("loc"), pool.get("evt"), pool.get("att")]
    path = tmp_path / f"deck{suffix}"
    write_deck(deck, path, fmt, pool=pool)
    again = read_deck(path, pool)
    assert deck_signature(again) == deck_signature(deck)
    assert again.notes == []


def test_round_trip_text_without_a_pool_names_sets(pool, tmp_path):
    deck = legal_deck(pool, cards=[pool.get("ferry_b")] * 2)
    text = format_deck(deck, "text")
    assert "2x Old Ferryman (Beta)" in text
    assert deck_signature(parse_deck_text(text, pool, "<t>")) == deck_signature(deck)


def test_round_trip_house_without_a_house_card(tmp_path):
    pool = make_pool()
    deck = legal_deck(pool, house="greyjoy", house_card=None)
    for fmt in FORMATS:
        again = parse_deck_text(format_deck(deck, fmt, pool=pool), pool, "<t>")
        assert (again.house, again.house_card) == ("greyjoy", None), fmt


def test_write_deck_picks_the_format_from_the_extension(pool, tmp_path):
    write_deck(legal_deck(pool), tmp_path / "d.o8d")
    write_deck(legal_deck(pool), tmp_path / "d.txt")
    assert (tmp_path / "d.o8d").read_text(encoding="utf-8").startswith("<?xml")
    assert (tmp_path / "d.txt").read_text(encoding="utf-8").startswith("Deck: Test")


def test_unknown_write_format(pool):
    with pytest.raises(ValueError, match="unknown deck format"):
        format_deck(legal_deck(pool), "yaml")


def test_names_with_xml_characters_survive_o8d():
    pool = CardPool()
    pool.add(CardDef(key='a&"b', name="Salt & <Ash>", type="plot"))
    deck = Deck(name="A <b> & ]]> c", house="stark", house_card=None, agenda=None, plots=[pool.get('a&"b')], cards=[])
    again = parse_deck_text(format_deck(deck, "o8d"), pool, "<t>")
    assert again.plots == deck.plots and again.name == "A <b> &  c"


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_round_trip_property(data):
    pool = make_pool()
    house_deck = [c for c in pool if c.is_house_deck_card]
    plots = [c for c in pool if c.type == "plot"]
    deck = Deck(
        name=data.draw(st.sampled_from(["Deck", "My Deck", "Wolves of the North"])),
        house=data.draw(st.sampled_from(["stark", "lannister", "martell", "neutral"])),
        house_card=None,
        agenda=data.draw(st.sampled_from([None, pool.get("ag_frost"), pool.get("ag_scarce")])),
        plots=data.draw(st.lists(st.sampled_from(plots), min_size=1, max_size=9)),
        cards=data.draw(st.lists(st.sampled_from(house_deck), max_size=70)),
    )
    deck.house_card = {"stark": pool.get("h_stark"), "lannister": pool.get("h_lannister")}.get(deck.house)
    fmt = data.draw(st.sampled_from(FORMATS))
    again = parse_deck_text(format_deck(deck, fmt, pool=pool), pool, "<t>")
    assert deck_signature(again) == deck_signature(deck)


# --------------------------------------------------------------------------- the practice decks

@pytest.mark.skipif(not PRACTICE_DECKS, reason="the practice decks are not in this tree")
@pytest.mark.parametrize("path", PRACTICE_DECKS, ids=lambda p: p.name)
def test_practice_decks_are_legal(path):
    pool_module = pytest.importorskip("cards.pool")
    deck = read_deck(path, pool_module.default_pool())
    assert deck.notes == []
    assert check_deck(deck) == []
    assert check_deck(deck, casual=True) == []


def test_text_names_a_house_card_that_is_not_the_pools_first():
    """A House card of another printing than the pool's first for that House reads back (House card: section)."""
    pool = CardPool()
    first = CardDef(key="hs1", name="House Stark", type="house", house=("stark",), set="Practice")
    second = CardDef(key="hs2", name="House Stark", type="house", house=("stark",), set="Core")
    plot = CardDef(key="p1", name="Grey Dawn", type="plot")
    for card in (first, second, plot):
        pool.add(card)
    for house_card in (first, second):
        deck = Deck(name="W", house="stark", house_card=house_card, agenda=None, plots=[plot], cards=[])
        text = format_deck(deck, "text", pool=pool)
        assert ("House card:" in text) == (house_card is second)
        assert parse_deck_text(text, pool).house_card is house_card
