"""The malformed-input corpus: small files (and a few special ones) of every kind Maester reads.

``make_corpus(root)`` writes the files under ``root`` and returns the cases. A case is
a command (``pool``, ``deck``, ``report``, ``scenario``, ``maester`` or ``call`` for an
API function) with its arguments, and what must happen:

- ``expect="error"``: a non-zero exit with one clear line naming ``mention`` (the file
  or the option), no traceback, no raw control characters, no line over 1,000 characters;
- ``expect="ok"``: exit 0, no traceback (e.g. a practice deck checked beside a damaged
  card cache).

Files are generated (nothing large is committed); "huge" files are sparse (``truncate``),
so the corpus stays small on disk. Run it with ``tests/corpus/driver.py``.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PRACTICE_DECK = ROOT / "cards" / "practice" / "decks" / "stark-practice.txt"
FIXTURES = ROOT / "tests" / "cards" / "fixtures"
BIG_DIGITS = "9" * 5000
ESC = "\x1b[2J\x1b[31m"


@dataclass
class Case:
    name: str
    family: str
    command: str
    args: list
    expect: str = "error"
    mention: str | None = None
    """A text the clear error line must contain (default: the first file argument's name)."""
    home_files: dict = field(default_factory=dict)
    """Files to put in the case's MAESTER_HOME before it runs: {name: bytes | 'fifo' | ('sparse', size)}."""
    forbid: list = field(default_factory=list)
    """Texts that must not appear in the output (e.g. a raw escape)."""


def _write(path: Path, data) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    path.write_bytes(data)
    return path


def _sparse(path: Path, size: int) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as f:
        f.truncate(size)
    return path


def _fifo(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    return path


def _symlink(path: Path, target: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(target, path)
    return path


def _laughs_yaml(levels: int = 9) -> str:
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, levels):
        lines.append(f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 10) + "]")
    return "\n".join(lines)


def _card_yaml(cards: str) -> str:
    return f"format: 1\nset: Corpus\ncards:\n{cards}"


GOOD_CARD = "  - {name: Corpus Knight, type: character, house: stark, cost: 2, strength: 2, icons: [military]}\n"
LCG_RECORD = {"id": "cp_1", "name": "Corpus Guard", "card_type": "Character", "set": "Corpus", "number": 1,
              "house": ["Stark"], "unique": False, "rules_text": "", "cost": 2, "icons": ["Military"],
              "crest": [], "traits": ["Guard"], "strength": 2}


def _lcg(**changes) -> str:
    rec = dict(LCG_RECORD)
    for k, v in changes.items():
        if v is _DROP:
            rec.pop(k, None)
        else:
            rec[k] = v
    return json.dumps([rec])


_DROP = object()

OCTGN_HEAD = '<?xml version="1.0" encoding="utf-8"?>\n'


def _octgn(card_props: str = '<property name="Type" value="Character"/><property name="Strength" value="1"/>',
           head: str = OCTGN_HEAD) -> str:
    return (f'{head}<set name="Corpus"><cards><card name="Corpus Card" id="c1">{card_props}</card>'
            f'</cards></set>\n')


SCENARIO_OK = """format: 1
title: Corpus scenario
cards:
  - {name: Sellsword, type: character, house: neutral, cost: 2, strength: 3, icons: [military]}
  - {name: Steady Plot, type: plot, income: 4, initiative: 1, claim: 1}
start:
  phase: challenges
  first_player: alice
  players:
    alice:
      house: lannister
      revealed_plot: Steady Plot
      in_play: [{card: Sellsword, id: atk}]
    bob:
      house: stark
      revealed_plot: Steady Plot
steps:
  - expect: {zone: {atk: in_play}}
"""


def make_corpus(root: Path) -> list[Case]:
    root = Path(root)
    cases: list[Case] = []
    d = root / "files"

    def add(name, family, command, args, expect="error", mention=None, **kw):
        cases.append(Case(name, family, command, [str(a) for a in args], expect, mention, **kw))

    # ------------------------------------------------------------------ decks
    def deck(name, content, expect="error", suffix=".txt", **kw):
        p = _write(d / "decks" / f"{name}{suffix}", content)
        add(f"deck/{name}", "deck", "deck", ["check", p], expect, **kw)

    deck("empty", b"")
    deck("blank", "\n\n   \n")
    deck("binary", b"\x00\x01\x02\x03PK\x03\x04")
    deck("latin1", "House: Stark\n3x Caf\xe9 Guard\n".encode("latin-1"))
    deck("utf16-broken", b"\xff\xfe" + b"\x00\xd8A\x00")
    deck("unknown-card", "House: Stark\n3x No Such Card At All\n")
    deck("huge-quantity", f"House: Stark\n{BIG_DIGITS}x Lord Harlen Coldbrook\n")
    deck("negative-quantity", "House: Stark\n-3x Lord Harlen Coldbrook\n")
    deck("long-line", "House: Stark\n3x " + "A" * 200_000 + "\n")
    deck("long-line-no-newline", "B" * 900_000)
    deck("escape-in-name", f"House: Stark\n3x {ESC}Evil Name\n", forbid=["\x1b"])
    deck("bidi-in-name", "House: Stark\n3x \u202eEvil\n", forbid=["\u202e"])
    deck("two-houses", "House: Stark\nHouse: Lannister\n")
    deck("not-a-house", "House: Dragons\n")
    deck("doctype", '<?xml version="1.0"?>\n<!DOCTYPE deck [<!ENTITY x "Grey">]>\n<deck><section name="Characters">'
                    '<card qty="1">&x;</card></section></deck>', suffix=".o8d")
    deck("external-entity", '<?xml version="1.0"?>\n<!DOCTYPE deck SYSTEM "file:///etc/passwd">\n<deck/>',
         suffix=".o8d")
    deck("billion-laughs-xml", '<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol">'
         + "".join(f'<!ENTITY lol{i} "{("&lol" + str(i - 1) + ";") * 10 if i > 1 else "&lol;" * 10}">'
                   for i in range(1, 10))
         + ']>\n<deck>&lol9;</deck>', suffix=".o8d")
    deck("xml-malformed", "<deck><section name='Characters'><card qty='1'>X</section>", suffix=".o8d")
    deck("xml-wrong-root", "<notadeck/>", suffix=".o8d")
    deck("xml-card-outside", "<deck><card qty='1'>X</card></deck>", suffix=".o8d")
    deck("xml-bad-qty", f"<deck><section name='Characters'><card qty='{BIG_DIGITS}'>Lord Harlen Coldbrook</card>"
                        "</section></deck>", suffix=".o8d")
    deck("xml-deep", "<deck>" + "<a>" * 50_000 + "</a>" * 50_000 + "</deck>", suffix=".o8d")
    deck("builder-garbage", "a|b|c\n|||||\n" * 5)
    add("deck/too-large", "deck", "deck", ["check", _sparse(d / "decks" / "too-large.txt", 3 * 1024 * 1024)])
    add("deck/fifo", "deck", "deck", ["check", _fifo(d / "decks" / "fifo.txt")])
    add("deck/dev-zero", "deck", "deck", ["check", "/dev/zero"], mention="/dev/zero")
    add("deck/dev-zero-link", "deck", "deck", ["check", _symlink(d / "decks" / "zero.txt", "/dev/zero")])
    add("deck/folder", "deck", "deck", ["check", d], mention=str(d))
    add("deck/missing", "deck", "deck", ["check", d / "decks" / "nope.txt"])
    add("deck/pool-fifo", "deck", "deck", ["check", PRACTICE_DECK, "--pool", _fifo(d / "decks" / "poolfifo.json")],
        mention="poolfifo.json")
    add("deck/practice-ok", "deck", "deck", ["check", PRACTICE_DECK], expect="ok")

    # ------------------------------------------------------------------ card JSON (LCG)
    def lcg(name, content, expect="error", command="pool", **kw):
        p = _write(d / "json" / f"{name}.json", content)
        args = ["import", p] if command == "pool" else ["--pool", p]
        add(f"json/{name}" + ("" if command == "pool" else "-report"), "card json", command, args, expect, **kw)

    lcg("ok", _lcg(), expect="ok")
    for fld, value in (("icons", 5), ("traits", True), ("crest", 3), ("house", 5), ("house", {"a": 1}),
                       ("icons", [{"x": 1}]), ("traits", [[1]]), ("legal_in_houses", [{"a": 1}]),
                       ("cost", [1]), ("strength", {"a": 1}), ("name", 5), ("id", [1]), ("card_type", 5),
                       ("rules_text", 5), ("limit", "lots"), ("number", -1), ("income", "9" * 500),
                       ("legality_joust", [1]), ("set", 7), ("unique", "yes")):
        lcg(f"field-{fld}-{type(value).__name__}", _lcg(**{fld: value}), expect="ok")
    lcg("escape-in-name-show", _lcg(name=f"{ESC}Screen Wiper"), expect="ok", forbid=["\x1b"])
    lcg("empty", b"")
    lcg("not-json", "{not json")
    lcg("truncated", _lcg()[:40])
    lcg("not-a-list", '{"cards": 5}')
    lcg("a-number", "5")
    lcg("deep-list", "[" * 100_000 + "]" * 100_000)
    lcg("deep-object", '{"a":' * 50_000 + "1" + "}" * 50_000)
    lcg("deep-moderate", "[" * 500 + "]" * 500)
    lcg("big-int", f'[{{"id": "x", "name": "X", "card_type": "Character", "strength": {BIG_DIGITS}}}]')
    lcg("big-int-top", BIG_DIGITS)
    lcg("big-float", '[{"id": "x", "name": "X", "card_type": "Character", "strength": 1' + "0" * 5000 + '.5}]')
    lcg("nan", '[{"id": "x", "name": "X", "card_type": "Character", "strength": NaN}]')
    lcg("latin1", '[{"id": "x", "name": "Caf\xe9"}]'.encode("latin-1"))
    lcg("escape-report", _lcg(name=f"{ESC}Screen Wiper"), expect="ok", command="report", forbid=["\x1b"])
    lcg("deep-report", "[" * 100_000 + "]" * 100_000, command="report")
    add("json/fifo", "card json", "pool", ["import", _fifo(d / "json" / "fifo.json")])
    add("json/dev-zero", "card json", "pool", ["import", _symlink(d / "json" / "zero.json", "/dev/zero")])
    add("json/huge-sparse", "card json", "pool", ["import", _sparse(d / "json" / "huge.json", 100 * 1024 * 1024)])
    add("json/mdb-fifo", "card json", "pool", ["import", _fifo(d / "json" / "fifo.mdb")])
    add("json/mdb-dev-zero", "card json", "pool", ["import", _symlink(d / "json" / "zero.mdb", "/dev/zero")])
    add("json/mdb-huge-sparse", "card json", "pool", ["import", _sparse(d / "json" / "huge.mdb", 600 * 1024 * 1024)])
    add("json/mdb-garbage", "card json", "pool", ["import", _write(d / "json" / "garbage.mdb", b"\x00garbage" * 100)])
    # .mdb loops: a table definition or a memo chain that names a page already read (the reader hung)
    import sys

    sys.path.insert(0, str(FIXTURES.parent))
    from mdb_writer import agotdb_mdb

    mdb_rows = [{"UniversalId": 100001, "OriginalName": "Corpus Reaver", "Type": "Personnage", "Set": "Hiver(R1)",
                 "Text": "Texte."}]
    for damage in ("tdef-self", "tdef-cycle", "catalog-self", "memo-self", "memo-cycle"):
        add(f"json/mdb-{damage}", "card json", "pool",
            ["import", _write(d / "json" / f"{damage}.mdb", agotdb_mdb(mdb_rows, damage=damage))])
    add("json/mdb-ok", "card json", "pool", ["import", _write(d / "json" / "ok.mdb", agotdb_mdb(mdb_rows))], "ok")
    add("json/missing", "card json", "pool", ["import", d / "json" / "nope.json"])
    add("json/unknown-kind", "card json", "pool", ["import", _write(d / "json" / "cards.csv", "a,b\n")])

    # ------------------------------------------------------------------ OCTGN XML
    def xml(name, content, expect="error", **kw):
        p = _write(d / "xml" / f"{name}.xml", content)
        add(f"xml/{name}", "octgn xml", "pool", ["import", p], expect, **kw)

    xml("ok", _octgn(), expect="ok")
    xml("doctype-external-entity", _octgn('<property name="Type" value="Character"/><property name="Text">&ext;</property>',
                                          OCTGN_HEAD + '<!DOCTYPE set [<!ENTITY ext SYSTEM "file:///etc/passwd">]>\n'))
    xml("doctype-system", OCTGN_HEAD + '<!DOCTYPE set SYSTEM "http://example.invalid/set.dtd">\n<set><cards/></set>')
    xml("doctype-plain", OCTGN_HEAD + "<!DOCTYPE set>\n<set><cards/></set>")
    xml("billion-laughs", OCTGN_HEAD + '<!DOCTYPE set [<!ENTITY l0 "lol">'
        + "".join(f'<!ENTITY l{i} "{("&l" + str(i - 1) + ";") * 10}">' for i in range(1, 10))
        + ']>\n<set name="&l9;"><cards/></set>')
    xml("param-entity", OCTGN_HEAD + '<!DOCTYPE set [<!ENTITY % p SYSTEM "file:///etc/passwd"> %p;]>\n<set><cards/></set>')
    xml("malformed", "<set><cards><card name='x'></cards></set>")
    xml("wrong-root", "<deck/>")
    xml("no-cards", "<set/>")
    xml("empty", b"")
    xml("big-int-cost", _octgn(f'<property name="Type" value="Character"/><property name="Cost" value="{BIG_DIGITS}"/>'
                               f'<property name="Strength" value="{BIG_DIGITS}"/>'), expect="ok")
    xml("big-int-income", _octgn(f'<property name="Type" value="Plot"/><property name="PlotGoldIncome" value="{BIG_DIGITS}"/>'),
        expect="ok")
    xml("deep-elements", "<set><cards>" + "<x>" * 50_000 + "</x>" * 50_000 + "</cards></set>", expect="ok")
    xml("escape-name", _octgn().replace("Corpus Card", "&#x1b;[2JWiper"), expect="error")  # XML 1.0 forbids it
    xml("bad-encoding", '<?xml version="1.0" encoding="klingon"?><set><cards/></set>')
    xml("latin1-undeclared", "<set name='Caf\xe9'><cards/></set>".encode("latin-1"))
    add("xml/fifo", "octgn xml", "pool", ["import", _fifo(d / "xml" / "fifo.xml")])
    add("xml/dev-zero", "octgn xml", "pool", ["import", _symlink(d / "xml" / "zero.xml", "/dev/zero")])
    add("xml/huge-sparse", "octgn xml", "pool", ["import", _sparse(d / "xml" / "huge.xml", 80 * 1024 * 1024)])

    # ------------------------------------------------------------------ card YAML
    def yml(name, content, expect="error", command="pool", **kw):
        p = _write(d / "yaml" / f"{name}.yaml", content)
        args = {"pool": ["import", p], "report": ["--pool", p], "deck": ["check", PRACTICE_DECK, "--pool", p]}[command]
        if command == "deck":
            kw.setdefault("mention", p.name)
        add(f"yaml/{name}" + ("" if command == "pool" else f"-{command}"), "card yaml", command, args, expect, **kw)

    yml("ok", _card_yaml(GOOD_CARD), expect="ok")
    laughs = ("format: 1\ncards:\n  - name: Bomb\n    type: event\n    abilities:\n      - kind: action\n"
              "        x: " + "\n".join(["&a0 [lol,lol,lol,lol,lol,lol,lol,lol,lol,lol]"]) + "\n"
              + "".join(f"        y{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 10) + "]\n" for i in range(1, 9)))
    for command in ("pool", "report", "deck"):
        yml("billion-laughs", laughs, command=command)
    yml("billion-laughs-top", _laughs_yaml())
    yml("anchor-only", _card_yaml("  - &k {name: K, type: character, strength: 1}\n"))
    yml("alias-card", _card_yaml("  - &k {name: K, type: character, strength: 1}\n  - *k\n"))
    yml("merge-key", _card_yaml("  - &k {name: K, type: character, strength: 1}\n  - {<<: *k, name: L}\n"))
    yml("deep-flow", _card_yaml("  - {name: D, type: event, abilities: " + "[" * 5000 + "]" * 5000 + "}\n"))
    yml("deep-block", "format: 1\ncards:\n" + "".join("  " * i + "- \n" for i in range(1, 300)))
    yml("deep-mapping", "a:\n" + "".join("  " * i + f"k{i}:\n" for i in range(1, 200)))
    yml("big-int", _card_yaml(f"  - {{name: B, type: character, strength: {BIG_DIGITS}}}\n"))
    yml("big-int-hex", _card_yaml("  - {name: B, type: character, strength: 0x" + "f" * 5000 + "}\n"))
    yml("big-float", _card_yaml("  - {name: B, type: character, strength: 1" + "0" * 5000 + ".0}\n"))
    yml("bad-date", _card_yaml("  - {name: B, type: event, abilities: [{when: 2001-13-45}]}\n"))
    yml("icons-number", _card_yaml("  - {name: B, type: character, strength: 1, icons: 5}\n"))
    yml("traits-true", _card_yaml("  - {name: B, type: character, strength: 1, traits: true}\n"))
    yml("crest-number", _card_yaml("  - {name: B, type: character, strength: 1, crest: 3}\n"))
    yml("cost-list", _card_yaml("  - {name: B, type: character, strength: 1, cost: [1]}\n"))
    yml("name-list", _card_yaml("  - {name: [B], type: character, strength: 1}\n"))
    yml("abilities-string", _card_yaml("  - {name: B, type: event, abilities: lots}\n"))
    yml("legality-list-key", _card_yaml("  - {name: B, type: event, legality: {[a]: banned}}\n"))
    yml("mapping-key-list", "format: 1\n? [a, b]\n: 1\ncards: []\n")
    yml("unknown-field", _card_yaml("  - {name: B, type: character, strength: 1, strenght: 2}\n"))
    yml("duplicate-key", _card_yaml("  - {name: B, name: C, type: event}\n"))
    yml("tabs", "format: 1\ncards:\n\t- name: B\n")
    yml("two-docs", "format: 1\ncards: []\n---\nformat: 1\n")
    yml("python-tag", "format: 1\ncards: !!python/object/apply:os.system [echo hi]\n")
    yml("binary-tag", _card_yaml("  - {name: !!binary aGk=, type: event}\n"))
    yml("set-tag", _card_yaml("  - {name: B, type: event, traits: !!set {a, b}}\n"))
    yml("escape-char", _card_yaml(f"  - {{name: \"{ESC}B\", type: event}}\n"), forbid=["\x1b"])
    yml("escape-quoted", _card_yaml("  - {name: \"\\e[2JB\", type: event}\n"), expect="ok", forbid=["\x1b"])
    yml("control-in-name", _card_yaml("  - {name: \"\\x07Bell\", type: event}\n"), expect="ok", forbid=["\x07"])
    yml("long-line", "format: 1\ncards: []\n# " + "x" * 300_000 + "\n")
    yml("latin1", "format: 1\nset: Caf\xe9\ncards: []\n".encode("latin-1"))
    yml("empty", b"")
    yml("list-top", "- a\n- b\n")
    yml("format-2", "format: 2\ncards: []\n")
    yml("format-bool", "format: true\ncards: []\n")
    yml("cards-none", "format: 1\ncards:\n", expect="ok")
    yml("nul-byte", "format: 1\ncards: []\n\x00")
    yml("many-cards-ok", _card_yaml("".join(f"  - {{name: C{i}, type: event}}\n" for i in range(2000))), expect="ok")
    add("yaml/huge-sparse", "card yaml", "pool", ["import", _sparse(d / "yaml" / "huge.yaml", 50 * 1024 * 1024)])
    add("yaml/fifo", "card yaml", "pool", ["import", _fifo(d / "yaml" / "fifo.yaml")])
    add("yaml/dev-zero", "card yaml", "pool", ["import", _symlink(d / "yaml" / "zero.yaml", "/dev/zero")])
    folder = d / "yaml-folder"
    _write(folder / "a.yaml", _card_yaml(GOOD_CARD))
    _fifo(folder / "b.yaml")
    add("yaml/folder-with-fifo", "card yaml", "pool", ["import", folder], mention="b.yaml")

    # ------------------------------------------------------------------ scenarios
    def scen(name, content, expect="error", via="both", **kw):
        p = _write(d / "scenarios" / f"{name}.yaml", content)
        if via in ("both", "run"):
            add(f"scenario/{name}", "scenario", "scenario", [p], expect, **kw)
        if via == "both" and expect == "error":
            add(f"scenario/{name}-tutorial", "scenario", "tutorial", [p], expect, **kw)
        if via in ("both", "maester"):
            add(f"scenario/{name}-maester", "scenario", "maester",
                ["--offscreen", "--no-autosave", "--scenario", p, "--screenshot", root / "shot.png"], expect, **kw)

    scen("ok", SCENARIO_OK, expect="ok")
    scen("player-1", SCENARIO_OK.replace("    bob:", "    1:"))
    scen("player-null", SCENARIO_OK.replace("    bob:", "    null:"))
    scen("player-list", SCENARIO_OK.replace("    bob:", "    [a]:"), via="run")
    scen("player-true", SCENARIO_OK.replace("    bob:", "    true:"), via="run")
    scen("player-empty", SCENARIO_OK.replace("    bob:", '    "":'), via="run")
    scen("player-escape", SCENARIO_OK.replace("    bob:", '    "\\e[2Jbob":'), forbid=["\x1b"])
    scen("five-players", SCENARIO_OK.replace("    bob:", "    c: {house: stark}\n    d: {house: stark}\n"
                                             "    e: {house: stark}\n    bob:"), via="run")
    scen("duplicates-huge", SCENARIO_OK.replace("{card: Sellsword, id: atk}", "{card: Sellsword, id: atk, duplicates: 100000000}"))
    scen("duplicates-bigint", SCENARIO_OK.replace("{card: Sellsword, id: atk}", f"{{card: Sellsword, id: atk, duplicates: {BIG_DIGITS[:90]}}}"), via="run")
    scen("hand-100000", SCENARIO_OK.replace("      revealed_plot: Steady Plot\n      in_play",
                                            "      revealed_plot: Steady Plot\n      hand: [" + ", ".join(["Sellsword"] * 100_000)
                                            + "]\n      in_play", 1))
    scen("hand-1001", SCENARIO_OK.replace("      revealed_plot: Steady Plot\n      in_play",
                                          "      revealed_plot: Steady Plot\n      hand:\n" + "        - Sellsword\n" * 1001
                                          + "      in_play", 1))
    scen("hand-1000", SCENARIO_OK.replace("      revealed_plot: Steady Plot\n      in_play",
                                          "      revealed_plot: Steady Plot\n      hand:\n" + "        - Sellsword\n" * 1000
                                          + "      in_play", 1), expect="ok", via="run")
    scen("hand-5000-block", SCENARIO_OK.replace("      revealed_plot: Steady Plot\n      in_play",
                                                 "      revealed_plot: Steady Plot\n      hand:\n"
                                                 + "      - S\n" * 5000 + "      in_play", 1), via="run")
    scen("gold-huge", SCENARIO_OK.replace("      house: lannister", "      house: lannister\n      gold: 10000000000000"), via="run")
    scen("power-negative", SCENARIO_OK.replace("{card: Sellsword, id: atk}", "{card: Sellsword, id: atk, power: -1}"), via="run")
    scen("seed-bigint", SCENARIO_OK + f"seed: {BIG_DIGITS}\n", via="run")
    scen("seed-text", SCENARIO_OK + "seed: abc\n", via="run")
    scen("billion-laughs", SCENARIO_OK.replace("steps:\n", "description: &a0 [lol,lol,lol,lol,lol,lol,lol,lol,lol,lol]\n"
                                               + "".join(f"x{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 10) + "]\n"
                                                         for i in range(1, 9)) + "steps:\n"))
    scen("alias-player", SCENARIO_OK.replace("    bob:\n      house: stark\n      revealed_plot: Steady Plot\n",
                                             "    bob: *alice\n").replace("    alice:\n", "    alice: &alice\n"))
    scen("deep", SCENARIO_OK.replace("steps:\n", "description: " + "[" * 3000 + "]" * 3000 + "\nsteps:\n"), via="run")
    scen("empty", "", via="both")
    scen("list-top", "- 1\n", via="run")
    scen("no-start", "format: 1\ntitle: t\nsteps: []\n", via="run")
    scen("start-list", "format: 1\ntitle: t\nstart: [1]\nsteps: []\n", via="run")
    scen("players-list", "format: 1\ntitle: t\nstart: {players: [a, b]}\nsteps: []\n", via="run")
    scen("player-not-mapping", SCENARIO_OK.replace("    bob:\n      house: stark\n      revealed_plot: Steady Plot\n",
                                                   "    bob: 5\n"), via="run")
    scen("steps-mapping", SCENARIO_OK.replace("steps:\n  - expect: {zone: {atk: in_play}}\n", "steps: {a: 1}\n"), via="run")
    scen("step-bad-command", SCENARIO_OK.replace("  - expect: {zone: {atk: in_play}}\n", "  - alice: [1, 2]\n"), via="run")
    scen("hand-not-list", SCENARIO_OK.replace("      in_play: [{card: Sellsword, id: atk}]",
                                              "      in_play: [{card: Sellsword, id: atk}]\n      hand: 5"), via="run")
    scen("card-icons-5", SCENARIO_OK.replace("icons: [military]", "icons: 5"), via="run")
    scen("long-line", SCENARIO_OK + "# " + "x" * 200_000 + "\n", via="run")
    add("scenario/fifo", "scenario", "scenario", [_fifo(d / "scenarios" / "fifo.yaml")])
    add("scenario/fifo-maester", "scenario", "maester",
        ["--offscreen", "--no-autosave", "--scenario", d / "scenarios" / "fifo.yaml", "--screenshot", root / "s.png"],
        mention="fifo.yaml")
    add("scenario/dev-zero-maester", "scenario", "maester",
        ["--offscreen", "--no-autosave", "--scenario", "/dev/zero", "--screenshot", root / "s.png"], mention="/dev/zero")
    add("scenario/fifo-tutorial", "scenario", "tutorial", [d / "scenarios" / "fifo.yaml"], mention="fifo.yaml")
    for name, content in (("fifo", "fifo"), ("deep", b"[" * 100_000), ("lessons-list", b'{"lessons": [1]}'),
                          ("huge", ("sparse", 50 * 1024 * 1024))):
        cases.append(Case(f"scenario/tutorial-progress-{name}", "scenario", "tutorial", [], "ok",
                          home_files={"tutorials.json": content}))
    add("scenario/huge-sparse", "scenario", "scenario", [_sparse(d / "scenarios" / "huge.yaml", 20 * 1024 * 1024)])
    add("scenario/missing-maester", "scenario", "maester",
        ["--offscreen", "--no-autosave", "--scenario", d / "scenarios" / "nope.yaml", "--screenshot", root / "s.png"],
        mention="nope.yaml")

    # ------------------------------------------------------------------ saves
    good = _good_save()

    def save(name, data, expect="error", raw=False, call_expect=None, **kw):
        text = data if raw else json.dumps(data)
        p = _write(d / "saves" / f"{name}.json", text)
        add(f"save/{name}", "save", "maester", ["--offscreen", "--no-autosave", "--open", p,
                                                 "--screenshot", root / "shot.png"], expect, **kw)
        if not raw:
            cases.append(Case(f"save/{name}-load_game", "save", "call", ["load_game", str(p)],
                              call_expect or expect, "call: "))

    save("ok", good, expect="ok")
    save("missing-setup", {k: v for k, v in good.items() if k != "setup"})
    save("null-setup", {**good, "setup": None})
    save("setup-list", {**good, "setup": [1]})
    save("history-1", {**good, "history": [1]})
    save("history-map-5", {**good, "history": [["alice", {"__map__": 5}]]})
    save("history-map-bad-pairs", {**good, "history": [["alice", {"__map__": [[1]]}]]})
    save("history-map-list-key", {**good, "history": [["alice", {"__map__": [[[1], 2]]}]]})
    save("history-string", {**good, "history": "lots"})
    five = {f"p{i}": good["setup"]["decks"]["alice"] for i in range(5)}
    save("five-decks", {**good, "setup": {**good["setup"], "decks": five, "seats": list(five)}})
    save("one-deck", {**good, "setup": {**good["setup"], "decks": {"alice": good["setup"]["decks"]["alice"]},
                                        "seats": ["alice"]}})
    save("deck-not-mapping", {**good, "setup": {**good["setup"], "decks": {"alice": 5, "bob": 6}}})
    save("deck-cards-number", {**good, "setup": {**good["setup"], "decks": {
        n: {**dk, "cards": 5} for n, dk in good["setup"]["decks"].items()}}})
    save("deck-cards-huge", {**good, "setup": {**good["setup"], "decks": {
        n: {**dk, "cards": ["x"] * 100_000} for n, dk in good["setup"]["decks"].items()}}})
    save("seats-mismatch", {**good, "setup": {**good["setup"], "seats": ["x", "y"]}})
    save("seed-text", {**good, "setup": {**good["setup"], "seed": "abc"}})
    save("seed-huge", {**good, "setup": {**good["setup"], "seed": 10 ** 90}})
    save("ruleset-bad", {**good, "setup": {**good["setup"], "ruleset": "chess"}})
    save("scenario-dev-zero", {**good, "setup": {"scenario": "/dev/zero"}})
    save("scenario-absolute", {**good, "setup": {"scenario": "/etc/passwd"}})
    save("scenario-dotdot", {**good, "setup": {"scenario": "../../../../etc/passwd.yaml"}})
    save("scenario-number", {**good, "setup": {"scenario": 5}})
    _fifo(d / "saves" / "fifo.yaml")
    save("scenario-fifo-beside", {**good, "setup": {"scenario": "fifo.yaml"}}, mention="fifo.yaml")
    # the engine's load_game does not read the table's section: only the table refuses these
    save("table-names-number", {**good, "table": {"version": 1, "names": 5}}, call_expect="ok")
    save("table-scenario-number", {**good, "table": {"version": 1, "scenario": 5}}, call_expect="ok")
    save("table-not-object", {**good, "table": [1]}, call_expect="ok")
    save("table-names-not-seats", {**good, "table": {"version": 1, "names": ["carol", "dave"]}}, call_expect="ok")
    save("table-computer-not-a-seat", {**good, "table": {"version": 1, "names": ["alice", "bob"],
                                                         "computer": ["carol"]}}, call_expect="ok")
    save("options-list", {**good, "options": [1]})
    save("format-wrong", {**good, "format": "x"})
    save("version-text", {**good, "version": "1"})
    save("deep", "[" * 100_000 + "]" * 100_000, raw=True)
    save("big-int", '{"format": "maester-game", "version": 1, "setup": {"seed": ' + BIG_DIGITS + "}}", raw=True)
    save("truncated", json.dumps(good)[:100], raw=True)
    save("latin1", b'{"a": "\xe9"}', raw=True)
    save("empty", b"", raw=True)
    add("save/fifo", "save", "maester", ["--offscreen", "--no-autosave", "--open", _fifo(d / "saves" / "fifo.json"),
                                         "--screenshot", root / "shot.png"])
    add("save/dev-zero", "save", "maester", ["--offscreen", "--no-autosave", "--open", "/dev/zero",
                                             "--screenshot", root / "shot.png"], mention="/dev/zero")
    add("save/huge-sparse", "save", "maester", ["--offscreen", "--no-autosave", "--open",
                                                _sparse(d / "saves" / "huge.json", 100 * 1024 * 1024),
                                                "--screenshot", root / "shot.png"])
    add("save/folder", "save", "maester", ["--offscreen", "--no-autosave", "--open", d / "saves",
                                           "--screenshot", root / "shot.png"], mention="saves")

    # ------------------------------------------------------------------ player names with control or invisible
    # characters: refused where they are entered (engine.decisions.name_problem), never a stuck game
    def renamed(data: dict, old: str, new: str) -> dict:
        setup = data["setup"]
        decks = {new if n == old else n: dk for n, dk in setup["decks"].items()}
        return {**data, "setup": {**setup, "decks": decks, "seats": list(decks)},
                "history": [[new if p == old else p, a] for p, a in data["history"]]}

    for tag, bad in (("rlm", "Al\u200fice"), ("rtl-override", "\u202eBob"), ("escape", ESC + "Bob"),
                     ("bell", "Bob\x07"), ("zero-width", "Ca\u200brol")):
        char = next(ch for ch in bad if not ch.isprintable())
        add(f"option/names-{tag}", "options", "maester", ["--offscreen", "--no-autosave", "--names", bad, "Carol",
                                                          "--autoplay", "30"], mention="--names", forbid=[char])
        save(f"seat-name-{tag}", renamed(good, "alice", bad), forbid=[char])
        scen(f"player-name-{tag}", SCENARIO_OK.replace("    bob:", f"    {json.dumps(bad)}:"), via="run",
             forbid=[char])
    add("option/names-twice", "options", "maester", ["--offscreen", "--no-autosave", "--names", "Bob", "Bob",
                                                     "--autoplay", "30"], mention="--names")
    add("option/names-unicode-ok", "options", "maester", ["--offscreen", "--no-autosave", "--names", "Zo\u00eb",
                                                          "\u674e\u767d", "--autoplay", "30"], expect="ok")

    # ------------------------------------------------------------------ the pool cache (beside a practice deck)
    def cache(name, content, expect="ok", **kw):
        cases.append(Case(f"cache/{name}", "pool cache", "deck", ["check", str(PRACTICE_DECK)], expect,
                          home_files={"pool.json": content}, **kw))

    cache("garbage", b"\x00garbage\xff")
    cache("not-json", b"{not json")
    cache("deep", b"[" * 100_000 + b"]" * 100_000)
    cache("deep-object", b'{"a":' * 50_000 + b"1" + b"}" * 50_000)
    cache("big-int", b'{"format": "maester-card-pool", "version": 1, "cards": [], "x": ' + BIG_DIGITS.encode() + b"}")
    cache("wrong-format", b'{"format": "x"}')
    cache("newer-version", b'{"format": "maester-card-pool", "version": 99, "cards": []}')
    cache("cards-not-list", b'{"format": "maester-card-pool", "version": 1, "cards": 7}')
    cache("card-bad-types", json.dumps({"format": "maester-card-pool", "version": 1, "cards": [
        {"name": "X", "type": "character", "strength": 1, "icons": 5, "source": 3}]}).encode())
    cache("card-escape", json.dumps({"format": "maester-card-pool", "version": 1, "report": {}, "cards": [
        {"name": f"{ESC}X", "type": "event", "source": "x"}]}).encode(), forbid=["\x1b"])
    cache("report-bad", json.dumps({"format": "maester-card-pool", "version": 1, "report": [1], "cards": []}).encode())
    # version 2: one entry per source
    cache("v2-imports-not-list", b'{"format": "maester-card-pool", "version": 2, "imports": 7}')
    cache("v2-import-not-object", b'{"format": "maester-card-pool", "version": 2, "imports": [7]}')
    cache("v2-source-twice", json.dumps({"format": "maester-card-pool", "version": 2, "imports": [
        {"source": "a.json", "path": "a.json", "date": "", "cards": []}] * 2}).encode())
    cache("v2-source-not-text", json.dumps({"format": "maester-card-pool", "version": 2, "imports": [
        {"source": ["a"], "cards": []}]}).encode())
    cache("v2-bad-date", json.dumps({"format": "maester-card-pool", "version": 2, "imports": [
        {"source": "a.json", "date": "not a date", "cards": []}]}).encode())
    cases.append(Case("cache/list-bad-date", "pool cache", "pool", ["list"], "ok", home_files={
        "pool.json": json.dumps({"format": "maester-card-pool", "version": 2, "imports": [
            {"source": f"{ESC}a.json", "path": "a.json", "date": "not a date", "cards": []}]}).encode()},
        forbid=["\x1b"]))
    cases.append(Case("cache/list-damaged", "pool cache", "pool", ["list"], "error", "pool.json",
                      home_files={"pool.json": b"{ broken"}))
    cache("huge-sparse", ("sparse", 200 * 1024 * 1024))
    cache("fifo", "fifo")
    cache("folder", "folder")
    cache("empty", b"")
    escape_cache = json.dumps({"format": "maester-card-pool", "version": 1, "report": {}, "cards": [
        {"name": f"{ESC}Wiper", "type": "character", "strength": 1, "cost": 1, "house": ["stark"],
         "traits": [f"{ESC}T"], "text": f"{ESC}text", "source": "x"}]}).encode()
    cases.append(Case("cache/show-escape-name", "pool cache", "pool", ["show", f"{ESC}Wiper"], "ok",
                      home_files={"pool.json": escape_cache}, forbid=["\x1b"]))
    cases.append(Case("cache/report-escape-name", "pool cache", "report", [], "ok",
                      home_files={"pool.json": escape_cache}, forbid=["\x1b"]))
    esc_deck = _write(d / "decks" / "escape-deck.txt", f"House: Stark\n3x {ESC}Wiper\n")
    cases.append(Case("cache/deck-check-escape-name", "pool cache", "deck", ["check", str(esc_deck)], "error",
                      "escape-deck", home_files={"pool.json": escape_cache}, forbid=["\x1b"]))
    cases.append(Case("cache/show-practice-card", "pool cache", "pool", ["show", "Lord Harlen Coldbrook"], "ok",
                      home_files={"pool.json": b"[" * 100_000}))
    cases.append(Case("cache/report-default", "pool cache", "report", [], "ok",
                      home_files={"pool.json": b"\x00\x01"}))

    # ------------------------------------------------------------------ command-line options
    def opt(name, command, args, mention, expect="error"):
        add(f"option/{name}", "options", command, args, expect, mention)

    opt("size-abc", "maester", ["--offscreen", "--size", "abc", "--screenshot", root / "x.png"], "--size")
    opt("size-zero", "maester", ["--offscreen", "--size", "0x0", "--screenshot", root / "x.png"], "--size")
    opt("size-huge", "maester", ["--offscreen", "--size", "99999999x99999999", "--screenshot", root / "x.png"], "--size")
    opt("size-bigint", "maester", ["--offscreen", "--size", f"{BIG_DIGITS}x1", "--screenshot", root / "x.png"], "--size")
    opt("players-9", "maester", ["--offscreen", "--players", "9"], "argument --players")
    opt("seed-abc", "maester", ["--offscreen", "--seed", "abc"], "argument --seed")
    opt("autoplay-abc", "maester", ["--offscreen", "--autoplay", "abc"], "argument --autoplay")
    opt("ruleset-bad", "maester", ["--offscreen", "--ruleset", "chess"], "argument --ruleset")
    opt("unknown-option", "maester", ["--offscreen", "--frobnicate"], "--frobnicate")
    opt("deck-dev-zero", "maester", ["--offscreen", "--no-autosave", "--deck", "/dev/zero", "--screenshot",
                                     root / "x.png"], "/dev/zero")
    opt("deck-fifo", "maester", ["--offscreen", "--no-autosave", "--deck", _fifo(d / "opt" / "deck-fifo.txt"),
                                 "--screenshot", root / "x.png"], "deck-fifo.txt")
    opt("open-missing", "maester", ["--offscreen", "--no-autosave", "--open", d / "nope.json", "--screenshot",
                                    root / "x.png"], "nope.json")
    opt("deck-format-bad", "deck", ["check", PRACTICE_DECK, "--format", "chess"], "argument --format")
    opt("deck-no-command", "deck", [], "error: the following arguments are required")
    opt("pool-no-command", "pool", [], "command")
    opt("pool-import-no-file", "pool", ["import"], "error: the following arguments are required: file")
    opt("pool-show-missing", "pool", ["show", f"{ESC}Nothing"], "Nothing")
    opt("pool-era-bad", "pool", ["import", FIXTURES / "lcg_small.json", "--era", "bronze"], "argument --era")
    opt("scenario-no-args", "scenario", [], "usage")
    opt("report-pool-missing", "report", ["--pool", d / "nope.yaml"], "nope.yaml")
    # deep queries: the search language refuses more than cards.search.MAX_DEPTH levels of ( and -
    opt("search-deep-parens", "pool", ["search", "(" * 2000 + "x" + ")" * 2000], "deep")
    opt("search-deep-minus", "pool", ["search", "- " * 3000 + "x"], "deep")
    opt("search-deep-mixed", "pool", ["search", "t:character " + "-(" * 1500 + "x" + ")" * 1500], "deep")
    opt("search-deep-unclosed", "pool", ["search", "(" * 100_000], "deep")
    return cases


def _good_save() -> dict:
    """A small real table save: the two practice decks, 20 answers of random players."""
    from app.session import TableInfo, table_save
    from engine.builder import practice_game
    from engine.game import Options
    from engine.players import RandomPlayer

    game = practice_game(seed=2, players=("alice", "bob"), options=Options(prompt_all=False))
    choosers = {n: RandomPlayer(seed=i) for i, n in enumerate(game.state.player_names)}
    for _ in range(20):
        choosers[game.advance().player].play_turn(game)
    return json.loads(json.dumps(table_save(game, TableInfo(names=["alice", "bob"], modes=[[0, "enforce"]]))))


if __name__ == "__main__":
    import sys
    import tempfile

    out = Path(sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(prefix="maester-corpus-"))
    found = make_corpus(out)
    print(f"{len(found)} cases written under {out}")
