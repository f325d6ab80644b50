"""The ability vocabulary is one registry: the doc, the parser and the engine agree with it."""
import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cards.errors import DataError
from cards.yamlio import load_yaml_file, load_yaml_text
from engine.abilities import REGISTRY, parse_abilities
from engine.abilities.doc import DOC, blocks, render, tables

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"
GATE = re.compile(r'\{"event": "(\w+)"')
KNOWN_NESTED = {("engine.manual", "engine.flow")}
"""The one import left inside functions: the by-hand tools (engine/manual.py) and the rules (engine/flow.py)
call each other; flow imports manual at the top, manual imports flow when a tool runs."""


def _engine_modules() -> list[str]:
    return sorted(".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
                  for p in ENGINE.rglob("*.py"))


# --- docs/abilities.md ----------------------------------------------------------------------------------

def test_doc_tables_match_the_registry():
    text = DOC.read_text(encoding="utf-8")
    assert set(blocks(text)) == set(tables()), "docs/abilities.md lacks or has extra vocabulary tables"
    assert render(text) == text, "docs/abilities.md is out of date: run python -m engine.abilities.doc --write"


def test_every_word_has_a_doc_line_and_an_implementation():
    for category, words in REGISTRY.items():
        assert words, category
        for w in words.values():
            assert w.doc.strip(), (category, w.name)
            if category != "event":
                assert callable(w.impl), (category, w.name)
            else:
                assert w.extra["opened_by"], w.name


# --- events the engine opens ----------------------------------------------------------------------------

def test_each_event_is_opened_where_its_entry_says():
    for name, w in REGISTRY["event"].items():
        for module in w.extra["opened_by"]:
            source = (ROOT / module).read_text(encoding="utf-8")
            assert f'{{"event": "{name}"' in source, f"{name}: not opened in {module}"


def test_no_code_opens_an_event_missing_from_the_registry():
    opened = {}
    for path in ENGINE.rglob("*.py"):
        for name in GATE.findall(path.read_text(encoding="utf-8")):
            opened.setdefault(name, set()).add(path.relative_to(ROOT).as_posix())
    assert set(opened) == set(REGISTRY["event"]), set(opened) ^ set(REGISTRY["event"])
    for name, files in opened.items():
        assert files == set(REGISTRY["event"][name].extra["opened_by"]), (name, files)


# --- the strict format ----------------------------------------------------------------------------------

@pytest.mark.parametrize("text, field, words", [
    ("if: {slef: {kneeling: true}}\n  effect: [{draw: 1}]", "abilities.[1].if.slef", "unknown condition 'slef'"),
    ("if: {self: {kneling: true}}\n  effect: [{draw: 1}]", "abilities.[1].if.self.kneling", "kneeling"),
    ("choose: {type: charcter}\n  effect: [{kill: target}]", "abilities.[1].choose.type", "character"),
    ("effect: [{draw: two}]", "abilities.[1].effect[1].draw", "whole number"),
    ("effect: [{draw: 1, player: everybody}]", "abilities.[1].effect[1].player", "each_opponent"),
    ("effect: [{kill: target}]", "abilities.[1].effect[1]", "chooses none"),
    ("effect: [{kill: self, draw: 1}]", "abilities.[1].effect[1]", "one effect per entry"),
    ("effect: [{modify: self, strength: 1, until: forever}]", "abilities.[1].effect[1].until", "round"),
    ("effect: [{modify: self, add_keywords: [sneaky]}]", "abilities.[1].effect[1].add_keywords[1]",
     "unknown keyword"),
    ("limit: {times: 1, per: week}\n  effect: [{draw: 1}]", "abilities.[1].limit.per", "unknown value 'week'"),
    ("cost: {kneel_self: yes please}\n  effect: [{draw: 1}]", "abilities.[1].cost.kneel_self", "true"),
])
def test_strict_action_data_names_file_line_and_valid_words(text, field, words):
    data = load_yaml_text(f"- kind: action\n  phase: any\n  {text}\n", "cards/x.yaml")
    with pytest.raises(DataError) as err:
        parse_abilities(tuple(data), "cards/x.yaml:1")
    assert err.value.field == field
    assert words in str(err.value)
    assert err.value.file == "cards/x.yaml" and err.value.line is not None and err.value.line > 1


@pytest.mark.parametrize("when, words", [
    ("{event: drawn}", "unknown event 'drawn'"),
    ("{event: killed, type: military}", "the killed event has no 'type'"),
    ("{event: challenge_won, player: me}", "unknown value 'me'"),
    ("{event: phase_begins, phase: lunch}", "unknown value 'lunch'"),
])
def test_strict_when(when, words):
    data = load_yaml_text(f"- kind: passive\n  when: {when}\n  effect: [{{draw: 1}}]\n", "x.yaml")
    with pytest.raises(DataError) as err:
        parse_abilities(tuple(data), "x.yaml:1")
    assert words in str(err.value)
    assert str(err.value).startswith("x.yaml:2: abilities.[1].when")


def test_kind_specific_keys():
    for raw, words in [({"kind": "passive", "phase": "any", "when": {"event": "killed"}, "effect": [{"draw": 1}]},
                        "takes no phase"),
                       ({"kind": "action", "phase": "any", "when": {"event": "killed"}, "effect": [{"draw": 1}]},
                        "takes no 'when'"),
                       ({"kind": "constant", "modify": {"target": "self", "strength": 1}, "effect": [{"draw": 1}]},
                        "takes no 'effect'"),
                       ({"kind": "action", "phase": "any", "modify": {"target": "self"}, "effect": [{"draw": 1}]},
                        "takes no 'modify'")]:
        with pytest.raises(DataError) as err:
            parse_abilities((raw,))
        assert words in str(err.value)


def _scenario_and_card_files() -> list[Path]:
    return sorted((ROOT / "cards" / "practice").glob("*.yaml")) + sorted((ROOT / "tests" / "scenarios").rglob("*.yaml"))


def test_all_project_ability_data_passes_the_strict_parser():
    from cards.overlay import ABILITY_DIR, read_ability_file

    checked = 0
    for path in sorted(ABILITY_DIR.glob("*.yaml")):
        for key, abilities in read_ability_file(path).items():
            parse_abilities(abilities, f"{path}:{key}")
            checked += 1
    for path in _scenario_and_card_files():
        data = load_yaml_file(path)
        for m in (data.get("cards") if isinstance(data, dict) else None) or []:
            if isinstance(m, dict) and m.get("abilities"):
                parse_abilities(tuple(m["abilities"]), f"{path}:{m.line}")
                checked += 1
    assert checked > 300


# --- the engine's modules -------------------------------------------------------------------------------

@pytest.mark.parametrize("module", _engine_modules())
def test_each_engine_module_imports_alone_without_qt(module):
    code = (f"import sys, {module}\n"
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'PyQt5', 'PyQt6', 'app'))\n"
            "assert not bad, bad\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]


def _engine_imports(tree: ast.AST) -> tuple[set[str], list[int]]:
    """Engine modules imported at module level (not under TYPE_CHECKING), and (line, module) of imports of
    engine modules inside functions."""
    top: set[str] = set()
    nested: list[tuple[int, str]] = []

    def names(node) -> list[str]:
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "engine":
                return [f"engine.{a.name}" for a in node.names]
            return [node.module]
        if isinstance(node, ast.Import):
            return [a.name for a in node.names]
        return []

    for node in tree.body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            continue
        for n in names(node):
            if n.startswith("engine"):
                top.add(n)
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for inner in ast.walk(node):
                for n in names(inner):
                    if n.startswith("engine"):
                        nested.append((inner.lineno, n))
    return top, nested


def test_engine_modules_import_each_other_without_a_cycle():
    graph: dict[str, set[str]] = {}
    known = set(_engine_modules())
    for path in ENGINE.rglob("*.py"):
        mod = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        top, nested = _engine_imports(ast.parse(path.read_text(encoding="utf-8")))
        nested = [n for n in nested if (mod, n[1]) not in KNOWN_NESTED]
        assert not nested, f"{mod}: engine imported inside a function (lines {nested}): import at the top"
        graph[mod] = {m for m in top if m in known and m != mod}
        if mod != "engine.abilities" and mod.startswith("engine.abilities."):
            graph[mod].discard("engine.abilities")  # a package's __init__ runs first; its own imports are edges
    state: dict[str, int] = {}

    def visit(m: str, path: list[str]) -> None:
        if state.get(m) == 2:
            return
        assert state.get(m) != 1, "import cycle: " + " -> ".join(path + [m])
        state[m] = 1
        for n in sorted(graph.get(m, ())):
            visit(n, path + [m])
        state[m] = 2

    for m in sorted(graph):
        visit(m, [])
