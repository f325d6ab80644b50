"""Every CCG card the engine plays from ability data is checked by a scenario (issue 24).

A card of AGoTDB's database (``../shared/data/agotdb``) plays from the project's ability data when
it has an ``agotdb_`` entry of its own or shares an LCG card's entry (``cards.overlay.data_key``).
Each such card must be loaded by its key (``- pool: agotdb_NNNNNN``) by at least one scenario of
``tests/scenarios/ccg/``, so that the data is seen to play on the CCG card itself (its own cost,
STR, icons and title), not only on the LCG printing. Skipped when the database is absent.
"""
from pathlib import Path

import pytest
import yaml

from cards import overlay
from cards import pool as poolmod
from cards.overlay import data_key, load_ability_data
from cards.pool import load_pool

CCG_SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios" / "ccg"


@pytest.fixture(scope="module")
def agotdb_pool():
    from engine.scenario import agotdb_mdb_path

    path = agotdb_mdb_path()
    if not path.is_file():
        pytest.skip(f"{path} is not present")
    poolmod.clear_caches()
    overlay._cache = None
    return load_pool(path)


def scenario_pool_keys(folder: Path = CCG_SCENARIOS) -> set[str]:
    """The keys the scenarios of ``folder`` load with ``- pool: KEY``."""
    keys = set()
    for path in sorted(folder.glob("*.yaml")):
        doc = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        for entry in doc.get("cards") or []:
            if isinstance(entry, dict) and isinstance(entry.get("pool"), str):
                keys.add(entry["pool"])
    return keys


def test_scenario_keys_are_read_from_the_cards_list(tmp_path):
    (tmp_path / "a.yaml").write_text("format: 1\ncards:\n  - pool: agotdb_1\n  - {name: X, type: plot}\n"
                                     "steps: []\n# - pool: agotdb_2 (a comment loads nothing)\n",
                                     encoding="utf-8")
    assert scenario_pool_keys(tmp_path) == {"agotdb_1"}


def test_every_ccg_card_with_ability_data_has_a_scenario(agotdb_pool):
    data = load_ability_data()
    played = {card.key for card in agotdb_pool if data_key(card, data) is not None}
    assert played  # the Winter Edition's cards at least
    missing = sorted(played - scenario_pool_keys())
    assert not missing, (f"{len(missing)} CCG card(s) play from ability data but no scenario of "
                         f"tests/scenarios/ccg/ loads them by key (- pool: KEY): {', '.join(missing)}")
