"""engine.automation and python -m cards.report: automated cards per set (invented cards, and the real LCG JSON)."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cards import pool as poolmod
from cards.model import CardDef, CardPool
from cards.importers.textparse import needs_no_abilities, unmodelled_keywords
from engine.automation import DECLARATIVE, MANUAL, NONE_NEEDED, PARTIAL, SCRIPTED, build_report, classify, main, status

ROOT = Path(__file__).resolve().parents[2]
LAST_LINE = re.compile(r"^automated: (\d+) of (\d+) cards; partial: (\d+); not automated: (\d+)$")

KILL = {"kind": "action", "phase": "any", "choose": {"type": "character"}, "effect": [{"kill": "target"}]}
SCRIPT = {"kind": "passive", "when": {"event": "killed", "card": "self"}, "effect": [{"script": "field_sergeant"}]}
BROKEN = {"kind": "action", "effect": [{"kill": "target"}]}  # an action without its phase label


@pytest.fixture(autouse=True)
def _fresh_caches():
    poolmod.clear_caches()
    yield
    poolmod.clear_caches()


def card(key: str, text: str = "", abilities=(), set_name: str = "Pack A", **kw) -> CardDef:
    kw.setdefault("type", "character")
    if kw["type"] == "character":
        kw.setdefault("strength", 1)
    return CardDef(key=key, name=key.title(), text=text, abilities=tuple(abilities), set=set_name, **kw)


INVENTED = [
    card("vanilla"),
    card("keywords", "Deadly. Renown.\nStealth."),
    card("house only", "House Stark only. Immune to events."),
    card("armor", "Lord or Lady character only.", type="attachment"),
    card("mill", "[+1 Income] [+1 Influence]", type="location"),
    card("per deck", "Limit 1 per deck.\nRenown.", type="location"),
    card("declared", "Any Phase: kill a character.", [KILL]),
    card("scripted", "When killed, shuffle things.", [SCRIPT], set_name="Pack B"),
    card("words only", "Any Phase: kill a character.", set_name="Pack B"),
    card("ambush", "Ambush.", set_name="Pack B"),
    card("ambush with abilities", "Ambush.\nAny Phase: kill a character.", [KILL], set_name="Pack B"),
    card("broken", "Any Phase: kill a character.", [BROKEN], set_name="Pack B"),
    card("plot", "", type="plot", set_name=""),
    card("half done", "Any Phase: kill a character.\nAfter you win, draw a card.", [KILL], set_name="Pack B",
         partial="the draw after a win is not played", partial_paragraphs=(2,)),
]


def test_classification_rules():
    got = {c.key: classify(c)[0] for c in INVENTED}
    assert got == {
        "vanilla": NONE_NEEDED, "keywords": NONE_NEEDED, "house only": NONE_NEEDED, "armor": NONE_NEEDED,
        "mill": NONE_NEEDED, "per deck": NONE_NEEDED, "declared": DECLARATIVE, "scripted": SCRIPTED,
        "words only": MANUAL, "ambush": MANUAL, "ambush with abilities": PARTIAL, "broken": MANUAL,
        "plot": NONE_NEEDED, "half done": PARTIAL,
    }
    assert "phase" in classify(INVENTED[11])[1]
    assert "ambush" in classify(INVENTED[9])[1]


def test_needs_no_abilities_reads_every_sentence():
    assert needs_no_abilities("")
    assert needs_no_abilities("House Stark or Lannister only. Renown.")
    assert not needs_no_abilities("Renown.\nThis card gets +1 STR while attacking.")


def test_report_counts_per_set():
    pool = CardPool()
    for c in INVENTED:
        pool.add(c)
    report = build_report(pool)
    rows = {s.name: s for s in report.sets}
    assert [s.name for s in report.sets] == ["Pack A", "Pack B", "(no set)"]
    a, b = rows["Pack A"], rows["Pack B"]
    assert (a.cards, a.automated, a.counts[DECLARATIVE], a.counts[SCRIPTED], a.counts[NONE_NEEDED]) == (7, 7, 1, 0, 6)
    assert (b.cards, b.automated, b.counts[DECLARATIVE], b.counts[SCRIPTED], b.counts[NONE_NEEDED]) == (6, 1, 0, 1, 0)
    assert (b.partial, b.manual) == (2, 3)
    lines = report.lines()
    assert lines[-1] == "automated: 9 of 14 cards; partial: 2; not automated: 3"
    assert any(line.split()[:5] == ["total", "14", "9", "2", "3"] for line in lines)
    assert any(line.startswith("not automated: Broken [broken]") for line in lines)
    header = lines[0].split()
    assert header[:4] == ["set", "cards", "automated", "partial"]


def test_report_era_row_fixed_decks_and_keywords_played_by_hand():
    """The CCG era's row (every agotdb_ card), the share automated, the fixed decks the pool holds,
    and each keyword the engine does not model with the cards that keep it."""
    pool = CardPool()
    ccg = [card("agotdb_1", "Any Phase: kill a character.", [KILL], set_name="Winter Edition",
                printings=("Winter G1",)),
           card("agotdb_2", "Ambush.", set_name="Winter Edition", printings=("Winter G2",)),
           card("agotdb_3", "Ambush.\nAny Phase: kill a character.", [KILL], set_name="Five Kings Edition"),
           card("agotdb_4", "Any Phase: kill a character.", set_name="Five Kings Edition")]
    for c in ccg + [card("declared", "Any Phase: kill a character.", [KILL])]:
        pool.add(c)
    report = build_report(pool)
    assert report.era is not None
    assert (report.era.cards, report.era.automated, report.era.partial, report.era.manual) == (4, 1, 1, 2)
    assert report.era.keyword_blocked == 2
    lines = report.lines()
    assert "share" in lines[0].split() and lines[0].endswith("keyword by hand")
    era = next(line for line in lines if line.startswith("CCG era"))
    assert era.split()[2:] == ["4", "1", "1", "2", "1", "0", "0", "25.0%", "2"]
    winter = next(line for line in lines if line.startswith("Winter Edition"))
    assert winter.split()[-2:] == ["50.0%", "1"]
    assert "fixed deck Winter Greyjoy starter: 1 of 2 cards automated; not: Agotdb_2 (keywords not modelled: ambush)" \
        in lines
    assert "keyword not modelled, played by hand: ambush (2 cards: Agotdb_2, Agotdb_3)" in lines
    # without imported CCG cards there is no era row and no fixed deck
    pool2 = CardPool()
    for c in INVENTED:
        pool2.add(c)
    lines2 = build_report(pool2).lines()
    assert not any(line.startswith(("CCG era", "fixed deck")) for line in lines2)


def test_status_for_the_table():
    by_key = {c.key: c for c in INVENTED}
    assert status(by_key["declared"]).status == "automated" and status(by_key["declared"]).automated
    assert status(by_key["vanilla"]).status == "none_needed" and status(by_key["vanilla"]).automated
    half = status(by_key["half done"])
    assert (half.status, half.note, half.paragraphs) == ("partial", "the draw after a win is not played", (2,))
    assert not half.automated
    words = status(by_key["words only"])
    assert (words.status, words.paragraphs) == ("by_hand", (1,))
    ambush = status(by_key["ambush with abilities"])
    assert ambush.status == "partial" and ambush.paragraphs == (1,) and "ambush" in ambush.note
    assert status(by_key["broken"]).status == "by_hand"
    unknown = status(card("vague", "Any Phase: kill a character.", [KILL], partial="some of it"))
    assert unknown.status == "partial" and unknown.paragraphs is None


def test_cli_with_a_pool_file(tmp_path, capsys):
    path = tmp_path / "cards.yaml"
    path.write_text("format: 1\ncards:\n"
                    "  - {name: Plain Guard, type: character, strength: 2, text: 'Renown.'}\n"
                    "  - {name: Talker, type: character, strength: 1, text: 'Any Phase: talk.'}\n"
                    "  - name: Killer\n    type: character\n    strength: 1\n    abilities:\n"
                    "      - {kind: action, phase: any, choose: {type: character}, effect: [{kill: target}]}\n",
                    encoding="utf-8")
    assert main(["--pool", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "automated: 2 of 3 cards; partial: 0; not automated: 1"


def test_cli_bad_pool_file(tmp_path, capsys):
    assert main(["--pool", str(tmp_path / "missing.json")]) == 1
    assert "no such file" in capsys.readouterr().err


def test_cli_default_pool_is_the_practice_set(capsys):
    assert main([]) == 0
    out = capsys.readouterr().out.splitlines()
    m = LAST_LINE.match(out[-1])
    assert m and int(m.group(2)) == len(poolmod.default_pool())


def test_real_lcg_json(lcg_json):
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    done = subprocess.run([sys.executable, "-m", "cards.report", "--pool", str(lcg_json)], cwd=ROOT, env=env,
                          capture_output=True, text=True, encoding="utf-8", timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    m = LAST_LINE.match(lines[-1])
    assert m, lines[-1]
    automated, total = int(m.group(1)), int(m.group(2))
    assert total == len(poolmod.load_pool(lcg_json)) and 0 < automated < total
    assert any(line.startswith("Core ") for line in lines)
    assert not any(line.startswith("not automated:") for line in lines)  # the project's data all parses
    assert int(m.group(3)) > 0  # the entries marked partial (Captain Groleo, Khal Drogo, ...)
    assert automated + int(m.group(3)) + int(m.group(4)) == total


def test_real_lcg_json_marks_known_gaps_partial(lcg_json):
    pool = poolmod.load_pool(lcg_json)
    for key in ("core_5", "core_68"):  # Stalwart, Vigilant: keywords the engine does not model
        assert status(pool.get(key)).status == "partial"
    for key in ("core_71", "core_8", "core_203", "core_105", "core_107"):  # all of their text (Groleo, Drogo: core-d)
        assert status(pool.get(key)).status == "automated", key
    for key in ("core_40", "core_142"):  # Tywin Lannister (gold tokens), Varys (switched plot decks)
        assert status(pool.get(key)).status == "automated", key


def test_real_lcg_json_core_set_has_no_card_by_hand(lcg_json):
    """Issue 9: every Core Set card is automated, except the four whose keywords the rules documents do
    not define (Stalwart, Infamy, Vigilant, Ambush), which stay partial."""
    pool = poolmod.load_pool(lcg_json)
    core = [c for c in pool if c.key.startswith("core_")]
    by_status: dict[str, list[str]] = {}
    for c in core:
        by_status.setdefault(status(c).status, []).append(c.key)
    assert not by_status.get("by_hand"), by_status.get("by_hand")
    partial = {k: unmodelled_keywords(pool.get(k).text) for k in by_status.get("partial", [])}
    assert len(partial) == 4 and all(partial.values()), partial
