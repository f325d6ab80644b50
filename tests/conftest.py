"""Test setup: headless Qt, and the shared rules folder when it is present."""
import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
LCG_JSON = SHARED / "data" / "agot1-lcg-cards.json"


@pytest.fixture
def lcg_json() -> Path:
    """The community LCG card data in ../shared; the test skips when it is absent."""
    if not LCG_JSON.is_file():
        pytest.skip("../shared/data/agot1-lcg-cards.json is not present")
    return LCG_JSON


@pytest.fixture(autouse=True)
def _user_data_home(tmp_path_factory, monkeypatch):
    """Every test gets its own empty user data folder (imported pools, caches)."""
    monkeypatch.setenv("MAESTER_HOME", str(tmp_path_factory.mktemp("maester-home")))
