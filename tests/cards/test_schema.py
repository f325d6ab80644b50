"""The card-file schema (cards/schema.py): strict checks, one clear message per problem.

All cards here are invented for the tests.
"""
from pathlib import Path

import pytest

from cards.errors import DataError
from cards.model import CardDef
from cards.schema import (CORE_FIELDS, EXTENSION_FIELDS, card_from_mapping, card_to_mapping,
                          load_card_file, load_card_text)

FIXTURES = Path(__file__).parent / "fixtures"


def one_card(body: str, file: str = "cards.yaml") -> CardDef:
    """Parse a card file holding one card, given as indented YAML fields."""
    text = "format: 1\ncards:\n  - " + "\n    ".join(body.strip().splitlines()) + "\n"
    (card,) = load_card_text(text, file)
    return card


def card_error(body: str) -> DataError:
    with pytest.raises(DataError) as info:
        one_card(body)
    return info.value


# --- a valid file ---------------------------------------------------------------------------


def test_ZON_13_valid_file_reads_every_field():
    cards = load_card_file(FIXTURES / "cards_valid.yaml")
    assert [c.key for c in cards] == ["Hedge Captain Orrin", "Hedge Captain Orrin (alt)", "A Made-Up Ambush",
                                      "The Invented Harvest", "Borrowed Keep"]
    orrin = cards[0]
    assert orrin.name == "Hedge Captain Orrin" and orrin.type == "character"
    assert orrin.house == ("stark",) and orrin.unique
    assert orrin.cost == 3 and not orrin.cost_x and orrin.strength == 2
    assert orrin.icons == {"military", "intrigue", "power"} and orrin.naval_icons == {"power"}
    assert orrin.traits == ("Knight", "Ally")
    assert orrin.keywords == ("deadly", "immune to events")
    assert orrin.immunities == ("events",)
    assert orrin.doomed and orrin.influence == 1 and orrin.income == 1 and orrin.initiative == 1
    assert orrin.crest == ("war",) and orrin.number == 7 and orrin.set == "Test Set"
    assert orrin.text.startswith("Deadly.")
    assert orrin.abilities[0]["kind"] == "passive"
    assert orrin.source.endswith("cards_valid.yaml:5")


def test_key_defaults_to_name_and_set_defaults_to_file_set():
    alt = load_card_file(FIXTURES / "cards_valid.yaml")[1]
    assert alt.key == "Hedge Captain Orrin (alt)" and alt.name == "Hedge Captain Orrin"
    assert alt.set == "Other Set"
    assert one_card("name: Plain Wall\ntype: location").key == "Plain Wall"


def test_COS_08_cost_x():
    alt = load_card_file(FIXTURES / "cards_valid.yaml")[1]
    assert alt.cost == 0 and alt.cost_x


def test_ZON_09_neutral_house_is_empty_and_lists_are_allowed():
    assert one_card("name: A\ntype: location\nhouse: neutral").house == ()
    assert one_card("name: A\ntype: location").house == ()
    assert one_card("name: A\ntype: location\nhouse: [Stark, baratheon]").house == ("stark", "baratheon")


def test_ZON_09_event_with_a_house_is_an_error():
    err = card_error("name: Some Event\ntype: event\nhouse: stark")
    assert err.field == "house" and err.line == 5 and "events are always neutral" in str(err)


def test_DCK_04_house_only_and_deck_allows():
    event = load_card_file(FIXTURES / "cards_valid.yaml")[2]
    assert event.house_only == "lannister" and event.house == ()
    assert event.deck_allows("lannister") and not event.deck_allows("stark")
    both = load_card_file(FIXTURES / "cards_valid.yaml")[1]
    assert both.house_only is None and both.deck_houses == ("stark", "lannister")
    assert both.deck_allows("stark") and both.deck_allows("lannister") and not both.deck_allows("martell")
    assert one_card("name: A\ntype: location").deck_allows("martell")


def test_DCK_05_DCK_07_legality_promo_and_limits():
    cards = load_card_file(FIXTURES / "cards_valid.yaml")
    alt, event, plot = cards[1], cards[2], cards[3]
    assert alt.legal_in("joust") == "restricted" and alt.legal_in("melee") == "banned"
    assert event.legal_in("joust") == "legal"
    assert alt.deck_limit == 1 and event.deck_limit == 3
    assert event.promo
    assert plot.deck_rule == "max-2-copies"


def test_PLT_plot_values_and_negative_income_bonus():
    cards = load_card_file(FIXTURES / "cards_valid.yaml")
    plot, keep = cards[3], cards[4]
    assert (plot.income, plot.initiative, plot.claim, plot.cost) == (5, 0, 1, None)
    assert keep.income == -1 and keep.keywords == ("limited", "no attachments")


@pytest.mark.parametrize("written, stored", [
    ("Deadly", "deadly"), ("DEATHBOUND", "deathbound"), ("Renown", "renown"), ("stealth", "stealth"),
    ("Limited", "limited"), ("No Attachments", "no attachments"), ("setup", "setup"),
    ("Immune to Character Abilities", "immune to character abilities"),
])
def test_KW_01_keywords_are_case_insensitive_and_normalised(written, stored):
    assert one_card(f"name: A\ntype: character\nstrength: 1\nkeywords: [\"{written}\"]").keywords == (stored,)


def test_card_from_plain_dict_without_file():
    card = card_from_mapping({"name": "Loose", "type": "attachment", "cost": 1})
    assert card.type == "attachment" and card.source == ""


def test_round_trip_through_card_to_mapping():
    for card in load_card_file(FIXTURES / "cards_valid.yaml"):
        again = card_from_mapping(card_to_mapping(card), source=card.source)
        for field in CardDef.__dataclass_fields__:
            assert getattr(again, field) == getattr(card, field), field


def test_field_lists_follow_the_scenario_spec():
    assert set(CORE_FIELDS) == {"name", "key", "type", "house", "unique", "cost", "strength", "icons",
                                "traits", "keywords", "doomed", "influence", "income", "initiative",
                                "claim", "text", "abilities"}
    assert "crest" in EXTENSION_FIELDS and "legality" in EXTENSION_FIELDS


# --- one clear message per problem -------------------------------------------------------


@pytest.mark.parametrize("body, field, line, words", [
    ("name: A\ntype: character\nstrength: 1\nstrenght: 2", "strenght", 6, "did you mean 'strength'"),
    ("name: A\ntype: character\nstrength: three", "strength", 5, "whole number"),
    ("name: A\ntype: character\nstrength: 1\ncost: -1", "cost", 6, "cannot be negative"),
    ("name: A\ntype: character\nstrength: 1\ncost: two", "cost", 6, "whole number or X"),
    ("name: A\ntype: character\nstrength: 1\nhouse: winterfell", "house", 6, "unknown House"),
    ("name: A\ntype: character\nstrength: 1\nhouse: [neutral, stark]", "house", 6, "neutral and of a House"),
    ("name: A\ntype: character\nstrength: 1\nicons: [military, diplomacy]", "icons", 6, "unknown icon"),
    ("name: A\ntype: character\nstrength: 1\nicons: military", "icons", 6, "must be a list"),
    ("name: A\ntype: character\nstrength: 1\nkeywords: [vengeful]", "keywords", 6, "unknown keyword"),
    ("name: A\ntype: character\nstrength: 1\ntraits: Lord", "traits", 6, "must be a list"),
    ("name: A\ntype: character\nstrength: 1\nunique: maybe", "unique", 6, "true or false"),
    ("name: A\ntype: character\nstrength: 1\ncrest: [sparkly]", "crest", 6, "unknown crest"),
    ("name: A\ntype: location\nstrength: 2", "strength", 5, "cannot have 'strength'"),
    ("name: A\ntype: location\nicons: [power]", "icons", 5, "cannot have 'icons'"),
    ("name: A\ntype: character\nstrength: 1\nclaim: 1", "claim", 6, "cannot have 'claim'"),
    ("name: A\ntype: plot\ncost: 1", "cost", 5, "no gold cost"),
    ("name: A\ntype: agenda\ndoomed: true", "doomed", 5, "cannot have 'doomed'"),
    ("name: A\ntype: spaceship", "type", 4, "unknown card type"),
    ("name: 1984\ntype: location", "name", 3, "must be text"),
    ("name: A\ntype: location\nlegality: {joust: forbidden}", "legality", 5, "unknown status"),
    ("name: A\ntype: location\nlegality: {sealed: banned}", "legality", 5, "unknown format"),
    ("name: A\ntype: location\ndeck_rule: only-wednesdays", "deck_rule", 5, "unknown deck rule"),
    ("name: A\ntype: location\ndeck_limit: 0", "deck_limit", 5, "1 or more"),
    ("name: A\ntype: location\nabilities: passive", "abilities", 5, "must be a list"),
    ("name: A\ntype: location\nabilities: [passive]", "abilities", 5, "must be a mapping"),
    ("name: A\ntype: location\nhouse_only: [stark, narnia]", "house_only", 5, "unknown House"),
    ("name: A\ntype: location\ninfluence: -1", "influence", 5, "0 or more"),
])
def test_bad_field_names_file_line_and_field(body, field, line, words):
    err = card_error(body)
    assert (err.file, err.field, err.line) == ("cards.yaml", field, line)
    assert words in str(err)
    assert str(err).startswith(f"cards.yaml:{line}: {field}: ")
    assert err.hint


def test_missing_name_type_and_character_strength():
    assert "needs 'name'" in str(card_error("type: location"))
    assert "needs 'type'" in str(card_error("name: A"))
    err = card_error("name: A\ntype: character")
    assert "needs 'strength'" in str(err) and err.line == 3


def test_booleans_are_not_numbers():
    assert "whole number" in str(card_error("name: A\ntype: character\nstrength: true"))


def write(tmp_path, name: str, content) -> Path:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


@pytest.mark.parametrize("content, line, words", [
    ("format: 1\ncards:\n  - name: A\n    type: [location\n", 5, "not valid YAML"),           # truncated
    ("format: 1\ncards:\n  - name: \"A\n", 4, "not valid YAML"),                               # open quote
    (b"format: 1\ncards:\n  - name: Caf\xe9\n    type: location\n", 3, "not UTF-8"),            # latin-1 bytes
    ("", 1, "the file is empty"),
    ("- name: A\n  type: location\n", 1, "must be a mapping"),
    ("cards: []\n", 1, "no 'format'"),
    ("format: 2\ncards: []\n", 1, "unsupported card-file format"),
    ("format: 1\n", 1, "no 'cards' list"),
    ("format: 1\ncards: {name: A}\n", 2, "must be a list of cards"),
    ("format: 1\ncards:\n  - Just a name\n", 3, "must be a mapping of fields"),
    ("format: 1\nkards: []\n", 2, "did you mean 'cards'"),
    ("format: 1\ncards:\n  - name: A\n    type: location\n    name: B\n", 5, "appears twice"),
    ("format: 1\ncards:\n  - name: A\n    type: location\n  - name: A\n    type: attachment\n", 5,
     "two cards have the key 'A'"),
])
def test_malformed_files_give_one_located_message(tmp_path, content, line, words):
    path = write(tmp_path, "bad.yaml", content)
    with pytest.raises(DataError) as info:
        load_card_file(path)
    err = info.value
    assert err.file == str(path) and err.line == line, str(err)
    assert words in str(err)
    assert "\n" not in str(err)


def test_unreadable_file(tmp_path):
    with pytest.raises(DataError) as info:
        load_card_file(tmp_path / "missing.yaml")
    assert "cannot read" in str(info.value)
