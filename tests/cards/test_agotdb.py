"""The AGoTDB .mdb importer: our Access text decoder, the row mapping on invented rows,
the command line, and (when ../shared is present) the real French and English files.

Invented rows use made-up names and text; the real files are only counted, never copied.
"""
from __future__ import annotations

import collections
import re
from pathlib import Path

import pytest

from cards.errors import DataError
from cards.importers import agotdb
from cards.importers.agotdb import (KEYWORDS_NOT_TRANSLATED, TRAITS_NOT_TRANSLATED, TYPES_NOT_MODELLED,
                                    agotdb_pool_from_rows, decode_access_text, headline,
                                    translate_keyword_fr)
from cards.importers.textparse import parse_keyword_block
from cards.sets import SETS, canonical_code, card_eras, find_set

SHARED = Path(__file__).resolve().parents[3] / "shared" / "data" / "agotdb"
FR_MDB = SHARED / "AGoT - FR.mdb"
EN_MDB = SHARED / "AGoT - EN.mdb"


# --- Access "Unicode compression" (bytes built here) -------------------------------------------


def compressed(*runs: str) -> bytes:
    """FF FE, then runs alternating 1-byte (Latin-1) and UTF-16LE, separated by 00."""
    out = bytearray(b"\xff\xfe")
    for i, run in enumerate(runs):
        if i:
            out.append(0)
        out += run.encode("latin-1") if i % 2 == 0 else run.encode("utf-16-le")
    return bytes(out)


@pytest.mark.parametrize("runs, text", [
    (("Le c", "\u0153", "ur"), "Le c\u0153ur"),
    (("L", "\u2019", "\xc9treinte"), "L\u2019\xc9treinte"),
    (("Et puis", "\u2026"), "Et puis\u2026"),
    (("d\xe9j\xe0 vu",), "d\xe9j\xe0 vu"),
    (("", "\u2019\u2026", "a"), "\u2019\u2026a"),
])
def test_compressed_text_with_characters_outside_latin1(runs, text):
    assert decode_access_text(compressed(*runs)) == text


def test_plain_utf16_and_odd_trailing_byte():
    assert decode_access_text("c\u0153ur".encode("utf-16-le")) == "c\u0153ur"
    assert decode_access_text(b"\xff\xfeab\x00\x53") == "ab"  # an odd byte in a UTF-16 run is dropped
    assert decode_access_text(b"\xff\xfe") == ""


def test_access_parser_upstream_bug_is_what_we_fix():
    from access_parser.utils import TYPE_TEXT, parse_type

    raw = compressed("L", "\u2019", "arme")
    assert parse_type(TYPE_TEXT, raw, len(raw), version=4) != "L\u2019arme"
    assert decode_access_text(raw) == "L\u2019arme"


def test_decoder_is_used_only_while_reading():
    from access_parser import access_parser as ap

    before = ap.parse_type
    with agotdb._fixed_text_decoding():
        assert ap.parse_type is not before
        assert ap.parse_type(10, compressed("a", "\u2019"), 4, 4) == "a\u2019"
    assert ap.parse_type is before


# --- sets and eras ------------------------------------------------------------------------------


def test_set_codes_both_languages():
    assert find_set("Hiver") is find_set("Winter") is find_set("winter edition")
    assert find_set("Anarchie").name == "Five Kings Edition" and find_set("5KE").era == "ccg"
    assert canonical_code("PR-6") == "KL-6" and canonical_code("RdlM") == "KotSe"
    assert canonical_code("aHoTa") == "AHoTa" and canonical_code("Nowhere") is None
    assert [s.set_id for s in SETS if s.era == "ccg"] == list(range(10, 18))


# --- invented rows --------------------------------------------------------------------------------


def row(uid, name, type_="Personnage", **extra):
    base = {"Id": uid, "UniversalId": uid, "OriginalName": name, "Name": "Nom " + name, "Type": type_,
            "House": "Stark", "Unique": "No", "Cost": 2, "Strength": 2, "Traits": None, "Keywords": None,
            "Text": "Texte inventé.", "Doomed": "No", "Endless": "No", "Military": "Yes", "Intrigue": "No",
            "Power": "No", "Set": "Hiver(R1)"}
    if type_ != "Personnage":
        base.update(Strength=None, Military=None, Intrigue=None, Power=None)
    base.update(extra)
    return base


def test_mapping_of_an_invented_character():
    pool, report = agotdb_pool_from_rows([row(
        100066, "Invented Reaver", House="Greyjoy", Unique="{Yes}", Cost=-1, Strength=4, Intrigue="Yes",
        PowerCE="Naval", Traits="Fer-né. Chevalier.", Keywords="Tueur. Condamné. Imprévisible. "
        "Maison Greyjoy uniquement. Immunisé aux événements et aux capacités de personnages adverses.",
        War="Yes", Shadow="Yes", Doomed="Yes", Endless="Yes", Influence=1,
        Set="Hiver(R66, G1) / RdlM(F4)")])
    card = pool.get("agotdb_100066")
    assert (card.name, card.type, card.house, card.unique) == ("Invented Reaver", "character", ("greyjoy",), True)
    assert card.cost_x and card.cost == 0 and card.strength == 4
    assert card.icons == {"military", "intrigue", "power"} and card.naval_icons == {"power"}
    assert card.traits == ("Ironborn", "Knight") and card.crest == ("war", "shadow")
    assert card.keywords == ("deadly", "deathbound", "immune to events",
                             "immune to opponents' character abilities")
    assert card.house_only == "greyjoy" and card.doomed and card.endless and card.influence == 1
    assert card.printings == ("Winter R66", "Winter G1", "KotSe F4")
    assert (card.set, card.number, card.promo) == ("Winter Edition", 66, False)
    assert card.text == "Ambush.\nTexte inventé." and card.text_lang == "fr"  # Ambush was lost
    assert report.tallies[agotdb.KEYWORDS_NOT_UNDERSTOOD] == {"ambush": ["Invented Reaver [agotdb_100066]"]}
    assert card_eras(card) == {"ccg", "lcg"}


def test_era_filter_titles_promos_and_plots():
    rows = [row(100001, "Winter Thing"), row(190001, "Lcg Thing", Set="CS(S1)"),
            row(131014, "Promo Thing", Set="Royale(P14)", House="Neutre"),
            row(131349, "Some Title", type_="Titre", Set="Royale(F249) / Anarchie(F249)", House="Neutre"),
            row(170241, "Invented Plot", type_="Complot", Set="Anarchie(F241)", House="Neutre", Cost=None,
                Income=5, Initiative=2, Claim=1, Doomed="Yes")]
    pool, report = agotdb_pool_from_rows(rows, file="x.mdb")
    assert sorted(c.key for c in pool) == ["agotdb_100001", "agotdb_131014", "agotdb_131349", "agotdb_170241"]
    assert pool.get("agotdb_131014").promo
    plot = pool.get("agotdb_170241")
    assert (plot.income, plot.initiative, plot.claim, plot.doomed) == (5, 2, 1, False)
    title = pool.get("agotdb_131349")  # a Five Kings title: its own card type (issue 24)
    assert (title.type, title.house, title.cost, title.printings) == ("title", (), None, ("ITE F249", "5KE F249"))
    assert TYPES_NOT_MODELLED not in report.tallies
    assert headline(pool, report) == ("4 cards imported (CCG era: Winter Edition to Five Kings Edition; "
                                      "1 LCG records skipped — import the LCG JSON for those)")
    everything, report = agotdb_pool_from_rows(rows, era=None)
    assert len(everything) == 5 and headline(everything, report) == "5 cards imported (every era)"


def test_english_text_by_id_never_by_name():
    rows = [row(100002, "Shared Name", Text="Texte A."), row(100003, "Other", Text="Texte B.")]
    english = [{"UniversalId": 100002, "Name": "Shared Name", "Text": "Invented English text."},
               {"UniversalId": 190009, "Name": "Other", "Text": "A different card's text."}]
    pool, _ = agotdb_pool_from_rows(rows, english=english)
    a, b = pool.get("agotdb_100002"), pool.get("agotdb_100003")
    assert (a.text, a.text_lang) == ("Invented English text.", "")
    assert (b.text, b.text_lang) == ("Texte B.", "fr")


def test_events_neutral_and_missing_optional_columns():
    minimal = {"UniversalId": 110005, "Name": "Invented Event", "Type": "Event", "House": "Stark/Lannister",
               "Set": "ASoT(C5)"}
    pool, report = agotdb_pool_from_rows([minimal])   # the English layout, few columns
    card = pool.get("agotdb_110005")
    assert card.type == "event" and card.house == () and card.set == "A Song of Twilight"
    assert report.cards_noted(agotdb.EVENT_HOUSE_DROPPED) == ["Invented Event [agotdb_110005]"]


def test_untranslated_french_is_reported():
    pool, report = agotdb_pool_from_rows([row(100004, "Odd One", Traits="Inventé. Lord.",
                                              Keywords="Mot inventé. Renom.")])
    card = pool.get("agotdb_100004")
    assert card.traits == ("Lord",) and card.keywords == ("renown",)
    assert report.tallies[TRAITS_NOT_TRANSLATED] == {"Inventé": ["Odd One [agotdb_100004]"]}
    assert report.tallies[KEYWORDS_NOT_TRANSLATED] == {"mot inventé": ["Odd One [agotdb_100004]"]}


@pytest.mark.parametrize("french, english", [
    ("Pas d'attachement sauf les ~Armes~ et les ~Avantages~", ["No attachments except Weapon or Boon"]),
    ("Maison Stark ou {Maison} Baratheon uniquement", None),   # braces are removed before this
    ("Maison Stark ou Maison Baratheon uniquement", ["House Stark or House Baratheon only"]),
    ("Personnages [Stark] uniquement", []),
    ("Immunisé à vos effets déclenchés", ["Immune to your triggered effects"]),
    ("Prisé 2", ["Prized 2"]),
])
def test_french_keyword_table(french, english):
    if english is None:
        return
    assert translate_keyword_fr(french) == english


def test_import_through_the_file_reader(monkeypatch, tmp_path, capsys):
    fr = tmp_path / "AGoT - FR.mdb"
    en = tmp_path / "AGoT - EN.mdb"
    fr.write_bytes(b"invented")
    en.write_bytes(b"invented")
    tables = {fr: [row(100002, "Invented Knight")],
              en: [{"UniversalId": 100002, "Name": "Invented Knight", "Type": "Character", "Set": "Winter(R2)",
                    "Text": "Invented text."}]}
    monkeypatch.setattr(agotdb, "read_mdb_rows", lambda path: ("AGoT-db", tables[Path(path)]))
    monkeypatch.setenv("MAESTER_HOME", str(tmp_path / "home"))
    from cards import pool as pool_module

    pool_module.clear_caches()
    assert pool_module.main(["import", str(fr)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("1 cards imported (CCG era: Winter Edition to Five Kings Edition; 0 LCG")
    assert "English text from" in out[1]
    cached = pool_module.imported_pool().get("agotdb_100002")
    assert cached.text == "Invented text." and cached.printings == ("Winter R1",)  # printings from the French row
    pool_module.clear_caches()


def test_a_file_that_is_not_a_database(tmp_path, capsys, monkeypatch):
    bad = tmp_path / "cards.mdb"
    bad.write_bytes(b"not an access file" * 100)
    with pytest.raises(DataError) as err:
        agotdb.read_mdb_rows(bad)
    assert str(err.value).startswith(str(bad)) and "\n" not in str(err.value)
    monkeypatch.setenv("MAESTER_HOME", str(tmp_path / "home"))
    from cards import pool as pool_module

    assert pool_module.main(["import", str(bad)]) == 1
    err_text = capsys.readouterr().err
    assert err_text.count("\n") == 1 and "Traceback" not in err_text


# --- the real files (skipped without ../shared) ---------------------------------------------------

needs_fr = pytest.mark.skipif(not FR_MDB.is_file(), reason=f"{FR_MDB} is absent (../shared not checked out)")
needs_en = pytest.mark.skipif(not EN_MDB.is_file(), reason=f"{EN_MDB} is absent (../shared not checked out)")

README_COUNTS = {"Winter": 314, "ASoT": 145, "ASoN": 145, "ITE": 268, "AHoTh": 140, "Legacy": 55,
                 "AHoTa": 140, "5KE": 254}


@pytest.fixture(scope="module")
def fr_import():
    return agotdb.import_agotdb(FR_MDB)


@needs_fr
def test_real_french_counts_per_set(fr_import):
    pool, report = fr_import
    assert TYPES_NOT_MODELLED not in report.tallies
    titles = sorted(c.name for c in pool if c.type == "title")
    assert titles == ["Crown Regent", "Hand of the King", "Lord Commander of the Kingsguard", "Master of Coin",
                      "Master of Laws", "Master of Whispers"]
    assert all(any(p.startswith("5KE ") for p in c.printings) for c in pool if c.type == "title")
    per_set = collections.Counter()
    for card in pool:
        for code in {p.split(" ")[0] for p in card.printings}:
            per_set[code] += 1
    assert {code: per_set[code] for code in README_COUNTS} == README_COUNTS  # the six titles included
    assert sum(1 for c in pool if c.type == "agenda" and "5KE" in {p.split()[0] for p in c.printings}) == 6
    assert report.skipped_other_era == 3014 - 1445 and len(pool) == 1445


def _only_unmodelled_keywords(text: str) -> bool:
    """A text that is only the line of keywords the importer keeps (no French or English text)."""
    unknown = parse_keyword_block(text).unknown
    return "\n" not in text and all(" ".join(s.split()).lower() in unknown for s in text.rstrip(".").split("."))


@needs_fr
@needs_en
def test_real_english_text_only_for_reprinted_cards(fr_import):
    pool, _ = fr_import
    english = [c for c in pool if c.text and not c.text_lang]
    reprinted = [c for c in pool if card_eras(c) == {"ccg", "lcg"}]
    # 153 CCG cards were reprinted in the LCG; the English file (LCG to early 2013) has 136 of
    # them, 123 with a text (the others are vanilla cards): only those get English text. The
    # others without text_lang have only the line of keywords the engine does not model.
    assert len(reprinted) == 153
    others = [c for c in english if c not in reprinted]
    assert len(english) - len(others) == 123 and all(_only_unmodelled_keywords(c.text) for c in others)


@needs_fr
def test_real_french_compressed_cell_is_decoded():
    _, rows = agotdb.read_mdb_rows(FR_MDB)
    control = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")
    assert not [r["UniversalId"] for r in rows for v in r.values() if isinstance(v, str) and control.search(v)]
    assert any("\u2019" in (r["Keywords"] or "") for r in rows if r["UniversalId"] == 180034)


@needs_en
def test_real_english_file_imports_its_ccg_reprints():
    pool, report = agotdb.import_agotdb(EN_MDB)
    assert len(pool) + report.skipped_other_era == 1070
    assert all(not c.text_lang for c in pool)


# --- eras and fixed decks (invented cards) ---------------------------------------------------------


def starter_rows():
    """An invented 'Winter G' fixed deck: 7 plots and 60 characters numbered G1-G67 (G5 missing)."""
    rows = [row(100000 + n, f"Invented Plot {n}", type_="Complot", House="Neutre", Cost=None, Income=5,
                Set=f"Hiver(C{n}, G{n})") for n in range(1, 5)]
    rows += [row(100000 + n, f"Invented Plot {n}", type_="Complot", House="Neutre", Cost=None, Income=5,
                 Set=f"Hiver(C{n}, G{n})") for n in range(6, 9)]
    rows += [row(100000 + n, f"Invented Reaver {n}", House="Greyjoy", Set=f"Hiver(C{n}, G{n})")
             for n in range(9, 69)]
    rows.append(row(190040, "Invented Lcg Card", Set="CS(S40)"))
    return rows


def test_fixed_deck_by_name_and_its_gaps():
    from cards.deck import check_deck, fixed_decks, read_deck

    pool, _ = agotdb_pool_from_rows(starter_rows(), era=None)
    names = [fixed.name for fixed, _ in fixed_decks(pool)]
    assert names == ["Winter Greyjoy starter"]   # one Core Set card is not a Core Set deck
    deck = read_deck("agotdb:winter greyjoy starter", pool)
    assert (deck.house, len(deck.plots), len(deck.cards)) == ("greyjoy", 7, 60)
    assert any("no card numbered G5" in note for note in deck.notes)
    assert check_deck(deck, era="ccg") == []
    with pytest.raises(DataError, match="no fixed deck named 'Nope'.*Winter Greyjoy starter"):
        read_deck("agotdb:Nope", pool)


def test_era_rule_and_lcg_lists_not_applied_to_ccg_decks():
    from cards.deck import check_deck, read_deck

    rows = starter_rows()
    rows[10]["RestrictedJoust"] = "Yes"
    rows[11]["RestrictedJoust"] = "Yes"
    pool, _ = agotdb_pool_from_rows(rows, era=None)
    deck = read_deck("agotdb:Winter Greyjoy starter", pool)
    assert [p.rule for p in check_deck(deck)] == ["DCK-07"]
    assert check_deck(deck, era="ccg") == []
    deck.cards.append(pool.get("agotdb_190040"))
    problems = check_deck(deck, era="ccg")
    assert [p.rule for p in problems] == ["ERA"]
    assert "'Invented Lcg Card' was not printed in Winter Edition to Five Kings Edition (CS S40)" in str(problems[0])


def test_deck_cli_fixed_and_era(monkeypatch, capsys):
    from cards import deck as deck_module

    pool, _ = agotdb_pool_from_rows(starter_rows(), era=None)
    monkeypatch.setattr("cards.pool.default_pool", lambda: pool)
    assert deck_module.main(["fixed"]) == 0
    assert capsys.readouterr().out.startswith("agotdb:Winter Greyjoy starter  (House Greyjoy; 7 plots, 60")
    assert deck_module.main(["check", "agotdb:Winter Greyjoy starter", "--era", "ccg"]) == 0
    out = capsys.readouterr().out
    assert "legal (joust, tournament, ccg era: Winter Edition to Five Kings Edition)" in out
    assert deck_module.main(["check", "agotdb:Winter Greyjoy starter", "--era", "lcg"]) == 1
    assert "ERA: " in capsys.readouterr().out
    assert deck_module.main(["sets"]) == 0
    assert "  5KE     Five Kings Edition" in capsys.readouterr().out


@needs_fr
def test_real_winter_starters_say_why_they_are_not_legal(fr_import):
    from cards.deck import check_deck, fixed_deck

    pool, _ = fr_import
    greyjoy = fixed_deck("Winter Greyjoy starter", pool)
    targaryen = fixed_deck("Winter Targaryen starter", pool)
    assert [str(p) for p in check_deck(greyjoy, casual=True, era="ccg")] == [
        "DCK-02: the House deck has 46 cards; it needs at least 60"]
    assert [p.rule for p in check_deck(targaryen, casual=True, era="ccg")] == ["DCK-01", "DCK-02"]


# --- keywords the engine does not model stay on the card ------------------------------------------


@pytest.mark.parametrize("french, english", [
    ("Loyal", "Stalwart"), ("Vigilant", "Vigilant"), ("Intimidant", "Intimidate"), ("Vindicatif", "Vengeful"),
    ("Infâme", "Infamy"), ("Imprévisible", "Ambush"),
    ("Pas d'attachement sauf les ~Objets~", "No attachments except Item"),
])
def test_an_unmodelled_keyword_is_kept_and_played_by_hand(french, english):
    from engine.automation import status

    # no other text: the card counted as automated with nothing left to play (e.g. Hired Swords)
    pool, report = agotdb_pool_from_rows([row(100007, "Invented Sellsword", Keywords=f"Tueur. {french}.",
                                              Text=None)])
    card = pool.get("agotdb_100007")
    assert card.keywords == ("deadly",)
    assert card.text == f"{english}."          # was "" (the keyword was dropped)
    played = status(card)
    assert not played.automated and played.paragraphs == (1,) and english.lower() in played.note
    assert list(report.tallies[agotdb.KEYWORDS_NOT_UNDERSTOOD]) == [english.lower()]
    # with a text: the keyword line comes first, the text after it
    pool, _ = agotdb_pool_from_rows([row(100008, "Invented Guard", Keywords=f"{french}.")])
    assert pool.get("agotdb_100008").text == f"{english}.\nTexte inventé."


@pytest.mark.parametrize("french, keyword", [
    ("Pas d'attachement sauf les ~Avantages~", "no attachments except boon"),
    ("Pas d'attachement sauf les ~Armes~ et les ~Avantages~", "no attachments except weapon or boon"),
    ("Pas d'attachement sauf les ~Armes~ et les ~Armures~", "no attachments except weapon or armor"),
])
def test_KW_08_the_ccg_no_attachments_except_keywords_are_modelled(french, keyword):
    """issue 24: Aeron Damphair, Hired Swords, Gendry: the keyword is the card's, not text by hand."""
    from engine.automation import status

    pool, report = agotdb_pool_from_rows([row(100007, "Invented Sellsword", Keywords=f"Tueur. {french}.",
                                              Text=None)])
    card = pool.get("agotdb_100007")
    assert card.keywords == ("deadly", keyword) and card.text == ""
    assert status(card).automated
    assert agotdb.KEYWORDS_NOT_UNDERSTOOD not in report.tallies


def test_an_unmodelled_keyword_is_found_by_the_keyword_search():
    from cards.search import search

    pool, _ = agotdb_pool_from_rows([row(100007, "Invented Sellsword", Keywords="Loyal. Tueur."),
                                     row(100008, "Invented Guard", Keywords="Tueur.")])
    assert [c.name for c in search(pool, "k:stalwart")] == ["Invented Sellsword"]
    assert [c.name for c in search(pool, "k:deadly")] == ["Invented Sellsword", "Invented Guard"]


@needs_fr
def test_real_unmodelled_keywords_are_all_kept_and_none_counts_as_automated(fr_import):
    from engine.automation import status

    pool, report = fr_import
    kept = {ref: word for word, refs in report.tallies[agotdb.KEYWORDS_NOT_UNDERSTOOD].items() for ref in refs}
    assert len(kept) == 24  # issue 24: the ten "No attachments except Boon ..." cards are modelled
    alone = 0
    for ref, word in kept.items():
        card = pool.get(ref.rsplit("[", 1)[1].rstrip("]"))
        assert word in parse_keyword_block(card.text).unknown, ref   # in the text, as the report says
        assert not status(card).automated, ref
        alone += "\n" not in card.text
    assert alone == 6  # Mace's Bannermen, Ironborn Enforcers... with no other text (Hired Swords is modelled)


# --- files written by tests/cards/mdb_writer.py: the real reader, good and damaged ------------------

INVENTED_ROWS = [
    {"UniversalId": 100001, "OriginalName": "Invented Reaver", "Name": "Pillard inventé", "Type": "Personnage",
     "House": "Greyjoy", "Set": "Hiver(R1)", "Keywords": "Tueur. Loyal.", "Text": "Texte inventé."},
    {"UniversalId": 100002, "OriginalName": "Invented Wall", "Name": "Mur inventé", "Type": "Lieu",
     "House": None, "Set": "Hiver(R2)", "Keywords": None, "Text": None},
]


def test_a_written_database_reads_through_access_parser(tmp_path):
    from mdb_writer import agotdb_mdb

    path = tmp_path / "AGoT - FR.mdb"
    path.write_bytes(agotdb_mdb(INVENTED_ROWS))
    table, rows = agotdb.read_mdb_rows(path)
    assert table == "AGoT-db" and rows == INVENTED_ROWS
    pool, _ = agotdb.import_agotdb(path)
    reaver = pool.get("agotdb_100001")
    assert reaver.keywords == ("deadly",) and reaver.text == "Stalwart.\nTexte inventé."


DAMAGES = {"tdef-self": "a table definition continues on page 4, which it has already read (a loop)",
           "tdef-cycle": "a table definition continues on page 4, which it has already read (a loop)",
           "catalog-self": "a table definition continues on page 2, which it has already read (a loop)",
           "memo-self": "a memo's chain of records comes back to page 6, record 0 (a loop)",
           "memo-cycle": "a memo's chain of records comes back to page 6, record 0 (a loop)"}


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_a_database_with_a_loop_is_refused_in_one_line(tmp_path, damage):
    """These files made the reader loop forever (the import hung): now one line, exit 1."""
    import os
    import subprocess
    import sys

    from mdb_writer import agotdb_mdb

    path = tmp_path / f"{damage}.mdb"
    path.write_bytes(agotdb_mdb(INVENTED_ROWS, damage=damage))
    result = subprocess.run([sys.executable, "-m", "cards.pool", "import", str(path)],
                            cwd=Path(__file__).resolve().parents[2], capture_output=True, text=True,
                            env=dict(os.environ, PYTHONIOENCODING="utf-8"), timeout=120)
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        f"error: {path}: cannot read this Access database: {DAMAGES[damage]} ({agotdb.DAMAGED_HINT})"]


# --- STR X (issue 24) --------------------------------------------------------------------------------


def test_str_x_is_kept_as_x_through_the_model_the_cache_show_search_and_deck_statistics():
    from types import SimpleNamespace

    from cards.deckstats import deck_stats
    from cards.pool import describe
    from cards.schema import card_from_mapping, card_to_mapping
    from cards.search import card_line, search

    pool, report = agotdb_pool_from_rows([row(170064, "Invented Schemer", Cost=-1, Strength=-1, Intrigue="Yes"),
                                          row(170065, "Invented Guard", Strength=3)])
    schemer = pool.get("agotdb_170064")
    assert schemer.strength_x and schemer.strength == 0 and schemer.cost_x
    assert not any("STR" in line for line in report.lines())  # kept, not reported as flattened
    assert not pool.get("agotdb_170065").strength_x
    again = card_from_mapping(card_to_mapping(schemer))  # the pool cache's round trip
    assert card_to_mapping(schemer)["strength"] == "X" and again.strength_x and again.strength == 0
    assert "  strength:    X" in describe(schemer)
    assert "STR X" in card_line(schemer)
    assert [c.name for c in search(pool, "str:x")] == ["Invented Schemer"]
    assert [c.name for c in search(pool, "str>=0")] == ["Invented Guard"]  # X is no number
    st = deck_stats(SimpleNamespace(house="stark", plots=[], cards=[schemer, pool.get("agotdb_170065")]))
    assert st.strength_by_icon["intrigue"] == {"X": 1} and st.strength_by_icon["military"] == {"X": 1, 3: 1}


def test_a_card_file_may_write_strength_x():
    from cards.schema import card_from_mapping

    card = card_from_mapping({"name": "Invented Schemer", "type": "character", "cost": 1, "strength": "x"})
    assert card.strength_x and card.strength == 0
    with pytest.raises(DataError, match="strength"):
        card_from_mapping({"name": "Invented Schemer", "type": "character", "cost": 1, "strength": "Y"})


@needs_fr
def test_real_str_x_characters_keep_x(fr_import):
    pool, _ = fr_import
    for uid, name in ((140015, "Sister of Fire"), (170064, "Lady of Schemes")):
        card = pool.get(f"agotdb_{uid}")
        assert card.name == name and card.strength_x and card.strength == 0


# --- Five Kings Edition titles (issue 24) -----------------------------------------------------------


def test_a_written_database_with_a_title_imports_it_as_a_title_and_a_deck_brings_it(tmp_path):
    from mdb_writer import agotdb_mdb

    from cards.deck import check_deck, format_deck, parse_deck_text

    rows = INVENTED_ROWS + [{"UniversalId": 131354, "OriginalName": "Invented Title", "Name": "Titre inventé",
                             "Type": "Titre", "House": "Neutre", "Set": "Royale(F254) / Anarchie(F254)",
                             "Keywords": None, "Text": "Texte inventé."}]
    path = tmp_path / "AGoT - FR.mdb"
    path.write_bytes(agotdb_mdb(rows))
    pool, report = agotdb.import_agotdb(path)
    title = pool.get("agotdb_131354")
    assert (title.type, title.house, title.cost, title.text, title.abilities) == \
        ("title", (), None, "Texte inventé.", ())
    assert not report.tallies.get(TYPES_NOT_MODELLED)
    text = "Deck: x\nHouse: Greyjoy\nCharacters:\n3x Invented Reaver\nTitles:\n1x Invented Title\n"
    deck = parse_deck_text(text, pool)
    assert deck.titles == [title] and title not in deck.cards
    assert not [p for p in check_deck(deck, casual=True) if p.card is title]  # no deck rule counts a title
    for fmt in ("text", "o8d", "builder"):
        assert parse_deck_text(format_deck(deck, fmt), pool).titles == [title], fmt
    with pytest.raises(DataError, match="cannot go in the House deck"):
        parse_deck_text("House: Greyjoy\nCharacters:\n1x Invented Title\n", pool)
    with pytest.raises(DataError, match="a title is brought once"):
        parse_deck_text("House: Greyjoy\nTitles:\n2x Invented Title\n", pool)


# --- a CCG card with an LCG printing shares the LCG card's ability data (issue 24) -----------------

SHARED_ROWS = [
    # printed in Winter Edition and reprinted in Kings of the Sea as F4 (French code RdlM): the LCG card kotse_4
    {"UniversalId": 100066, "OriginalName": "Invented Reaver Lord", "Name": "Seigneur inventé", "Type": "Personnage",
     "House": "Greyjoy", "Set": "Hiver(R66, G1) / RdlM(F4)", "Keywords": None, "Text": "Texte inventé."},
    # the same NAME as the LCG card core_5 below, but no LCG printing: a different card
    {"UniversalId": 100067, "OriginalName": "Invented Namesake", "Name": "Homonyme inventé", "Type": "Personnage",
     "House": "Stark", "Set": "Hiver(R67)", "Keywords": None, "Text": "Texte inventé."},
    # reprinted in the Core Set (S11), with an agotdb_ entry of its own
    {"UniversalId": 100068, "OriginalName": "Invented Wolf", "Name": "Loup inventé", "Type": "Personnage",
     "House": "Stark", "Set": "Hiver(R68) / CS(S11)", "Keywords": None, "Text": "Texte inventé."},
]


def _shared_pool(tmp_path):
    from mdb_writer import agotdb_mdb

    from cards.model import CardDef

    path = tmp_path / "AGoT - FR.mdb"
    path.write_bytes(agotdb_mdb(SHARED_ROWS))
    pool, _ = agotdb.import_agotdb(path)
    pool.add(CardDef(key="core_5", name="Invented Namesake", type="character", strength=1,
                     source="cards.json#core_5"))
    return pool


def _ability(word):
    return ({"trigger": "action", "effect": word},)


def test_a_ccg_card_with_an_lcg_printing_shares_that_cards_data_never_by_name(tmp_path):
    from cards.overlay import apply_ability_data

    pool = _shared_pool(tmp_path)
    assert pool.get("agotdb_100066").printings == ("Winter R66", "Winter G1", "KotSe F4")
    data = {"kotse_4": _ability("kotse"), "core_5": _ability("namesake"), "core_11": _ability("core"),
            "agotdb_100068": _ability("own")}
    notes = {"kotse_4": ("the second paragraph is played by hand", (2,))}
    assert apply_ability_data(pool, data, notes) == 3  # the reaver lord, the wolf, and core_5 itself
    lord = pool.get("agotdb_100066")
    assert lord.abilities == data["kotse_4"]
    assert (lord.partial, lord.partial_paragraphs) == ("the second paragraph is played by hand", (2,))
    assert pool.get("agotdb_100067").abilities == ()  # same name as core_5, not the same card
    assert pool.get("core_5").abilities == data["core_5"]
    assert pool.get("agotdb_100068").abilities == data["agotdb_100068"]  # its own entry wins over core_11


@needs_fr
def test_real_ccg_cards_sharing_lcg_data(fr_import):
    from cards.overlay import apply_ability_data, data_key, load_ability_data

    pool, _ = agotdb.import_agotdb(FR_MDB)  # a fresh pool: apply_ability_data changes it
    data = load_ability_data()
    shared = {card.key: data_key(card, data) for card in pool if data_key(card, data) not in (None, card.key)}
    assert len(shared) >= 54  # measured with the LCG data of cards/abilities (issue 24)
    assert shared["agotdb_100009"] == "core_11"  # Shaggydog: Winter R9 / CS S11
    assert shared["agotdb_100020"] == "core_26"  # Northern Fiefdoms: Winter C20 / CS S26 / LoW F31
    apply_ability_data(pool)
    assert pool.get("agotdb_100009").abilities == data["core_11"]
    assert all(pool.get(key).abilities for key in shared)


@pytest.mark.parametrize("printing, key", [("KotSe F4", "kotse_4"), ("CS S11", "core_11"), ("ToC-2 F33", "atoc_33"),
                                           ("ACoA-6 F101", "acoa_101"), ("Winter R66", None), ("Winter G1", None),
                                           ("CS P", None), ("Nowhere F4", None)])
def test_lcg_json_key_of_a_printing(printing, key):
    from cards.sets import lcg_json_key

    assert lcg_json_key(printing) == key


def test_income_or_initiative_x_is_imported_as_0_and_noted():
    """Issue 24: the database writes a printed X income or initiative as -1 (Yronwood Spies, Castamere); it is
    imported as 0 (the card's text and its ability data say what X is), never as a real -1."""
    pool, report = agotdb_pool_from_rows([row(100070, "Invented Spies", Initiative=-1),
                                          row(100071, "Invented Inn", type_="Lieu", Income=-1),
                                          row(100072, "Invented Keep", type_="Lieu", Initiative=2)])
    assert pool.get("agotdb_100070").initiative == 0
    assert pool.get("agotdb_100071").income == 0
    assert pool.get("agotdb_100072").initiative == 2
    assert report.cards_noted("initiative X (imported as 0; the card's text says what X is)") == \
        ["Invented Spies [agotdb_100070]"]
    assert report.cards_noted("income X (imported as 0; the card's text says what X is)") == \
        ["Invented Inn [agotdb_100071]"]
