"""engine/ never imports Qt or app/ (architecture: the engine is driven by any answerer)."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = re.compile(r"^\s*(from|import)\s+(PySide6|PyQt\d|app)\b", re.M)


def test_engine_imports_no_qt_and_no_app():
    offenders = [str(p.relative_to(ROOT)) for p in (ROOT / "engine").rglob("*.py")
                 if FORBIDDEN.search(p.read_text(encoding="utf-8"))]
    assert offenders == []


def test_cards_imports_no_qt():
    offenders = [str(p.relative_to(ROOT)) for p in (ROOT / "cards").rglob("*.py")
                 if FORBIDDEN.search(p.read_text(encoding="utf-8"))]
    assert offenders == []


def test_server_imports_no_qt_and_no_app():
    """The server runs headless; the Qt client wraps server/client.py, never the other way round."""
    offenders = [str(p.relative_to(ROOT)) for p in (ROOT / "server").rglob("*.py")
                 if FORBIDDEN.search(p.read_text(encoding="utf-8"))]
    assert offenders == []
