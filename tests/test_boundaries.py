"""The layers: cards/ (the bottom floor) < engine/ < app/.

engine/ never imports Qt or app/ (the engine is driven by any answerer); cards/ imports nothing from
engine/ or app/ (nor Qt), at any level, inside functions too: the automation status, which reads the
engine's ability parser, lives in engine/automation.py and is injected into the card layer's search
and ``show``. The one place a cards/ module may name the engine is the ``if __name__ == "__main__":``
block of a command (``python -m cards.report``, ``python -m cards.pool``), which never runs on import.
"""
import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = re.compile(r"^\s*(from|import)\s+(PySide6|PyQt\d|app)\b", re.M)
ABOVE_CARDS = ("engine", "app", "PySide6", "PyQt5", "PyQt6")


def test_engine_imports_no_qt_and_no_app():
    offenders = [str(p.relative_to(ROOT)) for p in (ROOT / "engine").rglob("*.py")
                 if FORBIDDEN.search(p.read_text(encoding="utf-8"))]
    assert offenders == []


def _is_main_block(node: ast.stmt) -> bool:
    """``if __name__ == "__main__":`` (at a module's top level)."""
    test = getattr(node, "test", None)
    return (isinstance(node, ast.If) and isinstance(test, ast.Compare) and isinstance(test.left, ast.Name)
            and test.left.id == "__name__" and len(test.comparators) == 1
            and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value == "__main__")


def upward_imports(source: str) -> list[str]:
    """The modules above cards/ that ``source`` imports (at any level, or by name through
    ``importlib.import_module`` / ``__import__``), outside a top-level ``__main__`` block."""
    tree = ast.parse(source)
    found = []
    for top in tree.body:
        if _is_main_block(top):
            continue
        for node in ast.walk(top):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) \
                    and isinstance(node.args[0].value, str) \
                    and getattr(node.func, "attr", getattr(node.func, "id", "")) in ("import_module", "__import__"):
                names = [node.args[0].value]
            found += [n for n in names if n.split(".")[0] in ABOVE_CARDS]
    return found


def test_the_checker_finds_imports_at_any_level():
    assert upward_imports("def f():\n    from engine.abilities import parse_abilities\n") == ["engine.abilities"]
    assert upward_imports("class A:\n    def f(self):\n        import app.table as t\n") == ["app.table"]
    assert upward_imports("import importlib\nm = importlib.import_module('engine.automation')\n") == \
        ["engine.automation"]
    assert upward_imports("if True:\n    import PySide6\n") == ["PySide6"]
    assert upward_imports("import engineering\nfrom cards.model import CardDef\n") == []
    assert upward_imports("if __name__ == '__main__':\n    from engine.automation import main\n") == []


def test_cards_imports_nothing_from_engine_or_app():
    offenders = {str(p.relative_to(ROOT)): got for p in sorted((ROOT / "cards").rglob("*.py"))
                 if (got := upward_imports(p.read_text(encoding="utf-8")))}
    assert offenders == {}


def test_importing_every_cards_module_loads_no_engine_or_app_module():
    modules = sorted(".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
                     for p in (ROOT / "cards").rglob("*.py"))
    code = ("import importlib, sys\n"
            f"for m in {modules!r}: importlib.import_module(m)\n"
            f"print(sorted(n for n in sys.modules if n.split('.')[0] in {ABOVE_CARDS!r}))\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_server_imports_no_qt_and_no_app():
    """The server runs headless; the Qt client wraps server/client.py, never the other way round."""
    offenders = [str(p.relative_to(ROOT)) for p in (ROOT / "server").rglob("*.py")
                 if FORBIDDEN.search(p.read_text(encoding="utf-8"))]
    assert offenders == []
