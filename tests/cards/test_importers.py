"""Importers: the community LCG JSON and OCTGN set XML.

The small fixtures are invented records (made-up names and text). The real
LCG data is only read through the ``lcg_json`` fixture (skipped when ../shared
is absent); no card text from it is written into the project.
"""
import json
import re
from pathlib import Path

import pytest

from cards.errors import DataError
from cards.importers.lcg_json import (EVENT_HOUSE_DROPPED, KEYWORDS_NOT_UNDERSTOOD, import_lcg_json,
                                      lcg_pool_from_records)
from cards.importers.octgn_xml import import_octgn_xml, octgn_pool_from_text
from cards.importers.textparse import deck_restriction, parse_keyword_block
from cards.model import SIMPLE_KEYWORDS

FIXTURES = Path(__file__).parent / "fixtures"


# --- the keyword line (invented text) ---------------------------------------------------------


def test_KW_01_keywords_on_the_top_line():
    block = parse_keyword_block("Deadly. Stealth. Renown.\nMarshalling: invented ability.")
    assert block.keywords == ["deadly", "stealth", "renown"]
    assert block.unknown == [] and block.deck_houses == ()


def test_KW_01_keyword_block_stops_at_the_first_ability():
    block = parse_keyword_block("Limited Response: invented. Deadly.\nStealth.")
    assert block.keywords == []
    block = parse_keyword_block("Stealth. Response: after something invented. Deadly.")
    assert block.keywords == ["stealth"]


def test_KW_keywords_without_spaces_or_final_dot_and_on_a_second_line():
    assert parse_keyword_block("House Stark only.Deadly").keywords == ["deadly"]
    assert parse_keyword_block("[+1 Income]\nNo Attachments. Setup.\nText.").keywords == ["no attachments", "setup"]
    assert parse_keyword_block("[+2 Influence]").symbols == {"influence": 2}


def test_KW_keywords_after_an_attachment_restriction():
    block = parse_keyword_block("Unique House Stark character only. Setup.\nInvented: text.")
    assert block.keywords == ["setup"] and block.deck_houses == ()


def test_IMM_immunity_keywords():
    block = parse_keyword_block("Immune to events. Immune to Opponents\u2019 character abilities.\nText.")
    assert block.keywords == ["immune to events", "immune to opponents' character abilities"]


def test_unmodelled_keywords_are_reported_not_kept():
    block = parse_keyword_block("Ambush. Prized 2. No attachments except Item. Deathbound.\nInvented: text.")
    assert block.keywords == ["deathbound"]
    assert block.unknown == ["ambush", "prized 2", "no attachments except item"]


def test_KW_08_no_attachments_except_weapon_is_modelled():
    block = parse_keyword_block("Renown. No attachments except Weapon.\nInvented: text.")
    assert block.keywords == ["renown", "no attachments except weapon"] and block.unknown == []


@pytest.mark.parametrize("sentence, houses", [
    ("House Stark only.", ("stark",)),
    ("House Martell Only", ("martell",)),
    ("House Stark or House Baratheon only.", ("stark", "baratheon")),
    ("House Baratheon or Greyjoy only.", ("baratheon", "greyjoy")),
    ("Any House except Lannister.", ("stark", "baratheon", "greyjoy", "targaryen", "martell", "neutral")),
    ("Neutral Faction House card only.", ("neutral",)),
    ("House Stark character only.", None),           # an attachment restriction, not deck building
    ("Unique House Stark character only.", None),
    ("House Dayne only.", "house dayne only"),        # not a Great House: reported
])
def test_DCK_04_house_only_forms(sentence, houses):
    assert deck_restriction(sentence) == houses


def test_DCK_04_house_only_anywhere_in_the_text():
    assert parse_keyword_block("Ambush. House Targaryen only.\nText.").deck_houses == ("targaryen",)
    assert parse_keyword_block("Invented: an ability.\nHouse Greyjoy only.").deck_houses == ("greyjoy",)
    quoted = 'Invented: you may ignore the "House X only" restriction.'
    assert parse_keyword_block(quoted).deck_houses == ()


# --- LCG JSON (invented records) ---------------------------------------------------------------


@pytest.fixture
def small():
    return import_lcg_json(FIXTURES / "lcg_small.json")


def test_lcg_small_import_counts_and_keys(small):
    pool, report = small
    assert [c.key for c in pool] == ["tst_1", "tst_2", "tst_3", "tst_4", "tst_5", "tst_6"]
    assert report.imported == 6
    assert pool.get("tst_1").source.endswith("lcg_small.json#tst_1")


def test_ZON_13_lcg_fields(small):
    pool, _ = small
    warden = pool.get("tst_1")
    assert warden.name == "Warden of the Invented Gate" and warden.type == "character"
    assert warden.house == ("stark",) and warden.unique and warden.cost == 4 and warden.strength == 3
    assert warden.icons == {"military", "power"} and warden.naval_icons == {"power"}
    assert warden.traits == ("Knight", "Ally", "Guard")
    assert warden.crest == ("war",) and warden.influence == 1
    assert warden.set == "Test Pack" and warden.number == 1
    assert warden.legality == (("melee", "restricted"),)
    plot = pool.get("tst_3")
    assert (plot.type, plot.income, plot.initiative, plot.claim, plot.house) == ("plot", 4, 2, 1, ())


def test_KW_lcg_keywords_from_the_first_line(small):
    pool, report = small
    assert pool.get("tst_1").keywords == ("deadly", "renown")
    assert pool.get("tst_5").keywords == ("stealth", "immune to plot card effects", "no attachments except weapon")
    assert pool.get("tst_4").keywords == ("limited",) and pool.get("tst_4").income == 1
    assert set(report.tallies[KEYWORDS_NOT_UNDERSTOOD]) == {"whirlwind"}


def test_DCK_04_house_only_parsed(small):
    pool, report = small
    assert pool.get("tst_1").house_only == "stark"
    event = pool.get("tst_2")
    assert event.house_only is None and event.deck_houses == ("lannister", "greyjoy")
    assert event.deck_allows("greyjoy") and not event.deck_allows("stark")
    # an attachment-style "House X character only" is not a deck restriction
    assert pool.get("tst_5").deck_houses == () and pool.get("tst_5").house_only is None


def test_ZON_09_lcg_events_are_neutral(small):
    pool, report = small
    assert pool.get("tst_2").house == ()
    assert report.cards_noted(EVENT_HOUSE_DROPPED) == ["Pretend Ambush [tst_2]"]


def test_DCK_03_DCK_07_limit_and_legality(small):
    pool, _ = small
    assert pool.get("tst_2").deck_limit == 1 and pool.get("tst_1").deck_limit == 3
    assert pool.get("tst_2").legal_in("joust") == "banned"


def test_lcg_report_lists_what_was_not_understood(small):
    _, report = small
    text = "\n".join(report.lines())
    for words in ("'Glitter'", "'Dragon'", "duplicate id", "'Spaceship'", "without an id", "whirlwind",
                  "no Doomed icons"):
        assert words in text
    assert str(report).splitlines()[0] == "6 cards imported"


@pytest.mark.parametrize("content, line, words", [
    ('[{"id": "a", "name": "B",\n  "card_type": }]', 2, "not valid JSON"),
    ('{"cards": 3}', 1, "expected a list"),
    (b'[{"id": "a", "name": "Caf\xe9"}]', 1, "not UTF-8"),
])
def test_lcg_malformed_file(tmp_path, content, line, words):
    path = tmp_path / "bad.json"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    with pytest.raises(DataError) as info:
        import_lcg_json(path)
    assert info.value.line == line and words in str(info.value) and str(path) in str(info.value)


def test_lcg_records_in_memory():
    pool, report = lcg_pool_from_records([{"id": 9, "name": "Numbered Wall", "card_type": "Location",
                                           "house": ["Neutral"], "cost": "X"}])
    assert pool.get("9").cost_x and report.imported == 1


# --- the real LCG data --------------------------------------------------------------------------

_KEYWORD_SENTENCE = re.compile(
    r"(?:^|\.)\s*(deadly|deathbound|renown|stealth|limited|setup|no attachments|immune to [^.:]+?)\s*(?=\.|$)",
    re.IGNORECASE)


def _opening_keywords(text: str) -> set[str]:
    """Independent check: keyword sentences in the part of the first line before any ability."""
    first = (text or "").split("\n", 1)[0]
    head = first.split(":", 1)[0] if ":" in first else first
    if ":" in first:  # drop the ability's opening words ("... Stealth. Response")
        head = head.rsplit(".", 1)[0] if "." in head else ""
    found = set()
    for m in _KEYWORD_SENTENCE.finditer(head):
        found.add(" ".join(m.group(1).lower().replace("\u2019", "'").split()))
    return found


def test_ZON_13_real_lcg_json_imports_every_card(lcg_json):
    pool, report = import_lcg_json(lcg_json)
    records = json.loads(lcg_json.read_text(encoding="utf-8"))
    assert len(records) == 1988
    assert len(pool) == 1988 and report.imported == 1988
    assert {c.key for c in pool} == {r["id"] for r in records}
    types = {c.type for c in pool}
    assert types == {"character", "location", "attachment", "event", "plot", "agenda", "house"}
    assert all(c.strength is not None for c in pool if c.type == "character")


def test_KW_01_real_lcg_json_every_card_opening_with_keywords_gets_them(lcg_json):
    pool, _ = import_lcg_json(lcg_json)
    records = json.loads(lcg_json.read_text(encoding="utf-8"))
    checked = 0
    missing = []
    for record in records:
        expected = _opening_keywords(record["rules_text"])
        if not expected:
            continue
        checked += 1
        got = set(pool.get(record["id"]).keywords)
        if not expected <= got:
            missing.append((record["id"], sorted(expected - got)))
    assert missing == []
    assert checked > 400  # the check is not vacuous
    for card in pool:
        for word in card.keywords:
            assert word in SIMPLE_KEYWORDS or word.startswith("immune to ")


def test_DCK_04_real_lcg_json_house_only(lcg_json):
    pool, _ = import_lcg_json(lcg_json)
    records = json.loads(lcg_json.read_text(encoding="utf-8"))
    opens = [r["id"] for r in records
             if re.match(r"House (Stark|Lannister|Baratheon|Greyjoy|Targaryen|Martell) only\.",
                         r["rules_text"] or "", re.I)]
    assert len(opens) > 300
    for key in opens:
        card = pool.get(key)
        assert card.house_only is not None and card.deck_houses == (card.house_only,), key
    with_restriction = [c for c in pool if c.deck_houses]
    assert len(with_restriction) >= len(opens)


def test_ZON_09_real_lcg_json_events_are_neutral(lcg_json):
    pool, _ = import_lcg_json(lcg_json)
    assert all(c.house == () for c in pool if c.type == "event")


# --- OCTGN XML (invented cards) ------------------------------------------------------------------


def test_octgn_fixture():
    pool, report = import_octgn_xml(FIXTURES / "octgn_small.xml")
    assert len(pool) == 5 and report.imported == 5
    ser = pool.find("Ser Imaginary of Nowhere")
    assert ser.key == "00000000-0000-0000-0000-000000000101"
    assert ser.type == "character" and ser.house == ("stark",) and ser.unique
    assert (ser.cost, ser.strength) == (4, 3)
    assert ser.icons == {"military", "power"}
    assert ser.traits == ("Knight", "Lord") and ser.keywords == ("deadly", "renown")
    assert ser.crest == ("war",) and ser.set == "Test Marches"
    assert ser.source.endswith("octgn_small.xml:4")
    hulk = pool.find("Twin Shore Hulk")
    assert hulk.house == ("greyjoy", "martell") and hulk.cost_x and not hulk.unique
    assert hulk.icons == {"military", "intrigue"} and hulk.naval_icons == {"intrigue"}
    assert hulk.keywords == ("stealth",) and hulk.house_only == "greyjoy"
    plot = pool.find("Harvest of Invented Things")
    assert (plot.income, plot.initiative, plot.claim) == (5, 2, 1)
    keep = pool.find("Quiet Fictional Keep")
    assert keep.keywords == ("limited",) and keep.income == 1 and keep.influence == 1
    assert keep.text.startswith("Limited.\n")
    event = pool.find("Sudden Invention")
    assert event.house == () and event.house_only == "baratheon"
    text = "\n".join(report.lines())
    for words in ("Spaceship", "sparkle", "whirligig", "imported neutral"):
        assert words in text


@pytest.mark.parametrize("xml, line, words", [
    ('<set name="x">\n<cards>\n<card name="A" id="1">\n<property name="Type" value="Plot">\n</card>\n</cards>\n</set>',
     5, "not well-formed XML"),
    ('<set name="x">\n<cards>\n', 3, "not well-formed XML"),
    ('<deck>\n</deck>', 1, "root element is <deck>"),
    ('<set name="x">\n</set>', 1, "no <cards>"),
    (b'<?xml version="1.0" encoding="utf-8"?>\n<set name="x"><cards>\n<card name="Caf\xe9" id="1"/>\n</cards></set>',
     3, "not well-formed XML"),
])
def test_octgn_malformed_xml_names_the_line(tmp_path, xml, line, words):
    path = tmp_path / "bad.xml"
    path.write_bytes(xml if isinstance(xml, bytes) else xml.encode())
    with pytest.raises(DataError) as info:
        import_octgn_xml(path)
    assert info.value.line == line and words in str(info.value) and str(path) in str(info.value)


def test_octgn_liberal_values():
    xml = """<?xml version="1.0" encoding="utf-8"?>
<set name="Loose"><cards>
  <card name="Made-Up Brute" id="b1">
    <property name="Type" value="Character."/>
    <property name="House" value="Targaryen."/>
    <property name="Unique" value="True"/>
    <property name="Cost" value=""/>
    <property name="Strength" value="5"/>
    <property name="Military" value="yes"/>
    <property name="Intrigue" value="Intrigue (Naval)"/>
    <property name="Power" value="maybe"/>
    <property name="Traits" value="Dothraki, Army"/>
  </card>
  <card name="Invented Plot" id="p1">
    <property name="Type" value="Plot"/>
    <property name="GoldIncome" value="3"/>
    <property name="Initiative" value="1"/>
    <property name="PlotClaim" value="2"/>
  </card>
</cards></set>"""
    pool, report = octgn_pool_from_text(xml)
    brute = pool.get("b1")
    assert brute.house == ("targaryen",) and brute.unique and brute.cost is None
    assert brute.icons == {"military", "intrigue"} and brute.naval_icons == {"intrigue"}
    assert brute.traits == ("Dothraki", "Army")
    assert "Power icon value not understood: 'maybe'" in "\n".join(report.lines())
    plot = pool.get("p1")
    assert (plot.income, plot.initiative, plot.claim) == (3, 1, 2)


def test_octgn_keywords_property_the_text_lacks_is_kept():
    from engine.automation import status

    xml = """<?xml version="1.0" encoding="utf-8"?>
<set name="Loose"><cards>
  <card name="Made-Up Scout" id="s1">
    <property name="Type" value="Character"/>
    <property name="Strength" value="1"/>
    <property name="Keywords" value="Deadly. Ambush. Vigilant."/>
    <property name="Text" value="Invented: nothing."/>
  </card>
  <card name="Made-Up Sentry" id="s2">
    <property name="Type" value="Character"/>
    <property name="Strength" value="1"/>
    <property name="Keywords" value="Ambush."/>
    <property name="Text" value="Ambush.&#xA;Invented: nothing."/>
  </card>
  <card name="Made-Up Guard" id="s3">
    <property name="Type" value="Character"/>
    <property name="Strength" value="1"/>
    <property name="Keywords" value="Vigilant."/>
  </card>
</cards></set>"""
    pool, report = octgn_pool_from_text(xml)
    assert pool.get("s1").keywords == ("deadly",)
    assert pool.get("s1").text == "Ambush. Vigilant.\nInvented: nothing."  # the text had lost them
    assert pool.get("s2").text == "Ambush.\nInvented: nothing."            # already in the text: not twice
    assert pool.get("s3").text == "Vigilant." and not status(pool.get("s3")).automated
    assert report.tallies[KEYWORDS_NOT_UNDERSTOOD] == {
        "ambush": ["Made-Up Scout (line 3)", "Made-Up Sentry (line 9)"],
        "vigilant": ["Made-Up Scout (line 3)", "Made-Up Guard (line 15)"]}
