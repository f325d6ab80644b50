"""The project's ability data for imported cards (cards/abilities, cards/overlay.py)."""
import json
import re
from pathlib import Path

import pytest

from cards import overlay
from cards import pool as poolmod
from cards.errors import DataError
from cards.model import CardDef, CardPool
from cards.overlay import apply_ability_data, load_ability_data, read_ability_file
from cards.pool import import_pool, imported_pool, load_pool
from engine.abilities import parse_abilities

ABILITY_DIR = Path(overlay.__file__).resolve().parent / "abilities"
FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(autouse=True)
def _fresh_caches():
    poolmod.clear_caches()
    overlay._cache = None
    yield
    poolmod.clear_caches()
    overlay._cache = None


def _record(key: str, name: str, text: str = "", **extra) -> dict:
    rec = {"id": key, "name": name, "card_type": "Character", "set": "Test Pack", "number": 1,
           "house": ["Baratheon"], "unique": True, "rules_text": text, "erratas": [], "cost": 4,
           "icons": ["Military"], "traits": ["Lord"], "strength": 3}
    rec.update(extra)
    return rec


def _write_data(folder: Path, text: str, name: str = "data.yaml") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


# --- the data shipped with the project ----------------------------------------------------------------


def test_project_data_parses_with_the_engine():
    data = load_ability_data()
    assert {"core_71", "core_90", "acoa_33", "lotr_10"} <= set(data)
    for key, abilities in data.items():
        parsed = parse_abilities(abilities, f"cards/abilities:{key}")
        assert parsed, key
        for ability in abilities:
            assert "text" not in ability, f"{key}: no card text in the ability data"


def _lcg_data() -> dict:
    """The data keyed by LCG ids (the CCG cards' entries are keyed ``agotdb_<UniversalId>``)."""
    return {k: v for k, v in load_ability_data().items() if not k.startswith(AGOTDB)}


def test_project_data_keys_are_lcg_ids(lcg_json):
    records = json.loads(lcg_json.read_text(encoding="utf-8"))
    names = {r["id"]: r["name"] for r in records}
    data = _lcg_data()
    assert set(data) <= set(names), sorted(set(data) - set(names))
    assert names["core_71"] == names["core_90"] == "Robert Baratheon"
    assert names["acoa_33"] == "Toll Gate"


def _ngrams(text: str, n: int = 6) -> set:
    words = re.findall(r"[a-z0-9']+", text.lower())
    return {" ".join(words[i:i + n]) for i in range(len(words) - n + 1)}


def test_project_data_holds_no_rules_text(lcg_json):
    """Not even in comments: no run of six words of any card's rules text."""
    ours = set()
    for path in ABILITY_DIR.glob("*.yaml"):
        ours |= _ngrams(path.read_text(encoding="utf-8"))
    for record in json.loads(lcg_json.read_text(encoding="utf-8")):
        shared = ours & _ngrams(record.get("rules_text") or "")
        assert not shared, (record["id"], sorted(shared)[:3])


def test_real_json_gets_the_data(lcg_json):
    pool = load_pool(lcg_json)
    data = _lcg_data()
    for key, abilities in data.items():
        assert pool.get(key).abilities == abilities
    assert sum(1 for c in pool if c.abilities) == len(data)


AGOTDB = "agotdb_"


@pytest.fixture(scope="module")
def agotdb_pool():
    """AGoTDB's French database in ../shared (English text where AGoTDB's English file has the card),
    read once for this module; the test skips when it is absent."""
    from engine.scenario import agotdb_mdb_path

    path = agotdb_mdb_path()
    if not path.is_file():
        pytest.skip(f"{path} is not present")
    return load_pool(path)


def test_ccg_data_keys_are_agotdb_cards_and_reach_them(agotdb_pool):
    """Every ``agotdb_`` entry names a card of the CCG pool, and the imported card gets the data."""
    data = {k: v for k, v in load_ability_data().items() if k.startswith(AGOTDB)}
    assert data
    missing = sorted(k for k in data if agotdb_pool.get(k) is None)
    assert not missing, missing
    for key, abilities in data.items():
        assert agotdb_pool.get(key).abilities == abilities, key


def test_ccg_data_holds_no_rules_text(agotdb_pool):
    """Not even in comments: no run of six words of any CCG card's text (French or English)."""
    ours = set()
    for path in ABILITY_DIR.glob("*.yaml"):
        ours |= _ngrams(path.read_text(encoding="utf-8"))
    for card in agotdb_pool:
        shared = ours & _ngrams(card.text or "")
        assert not shared, (card.key, sorted(shared)[:3])


# --- applying the data ----------------------------------------------------------------------------------


def test_load_pool_json_applies_the_data(tmp_path):
    path = tmp_path / "cards.json"
    path.write_text(json.dumps([_record("core_71", "Robert Baratheon", "Renown."),
                                _record("tst_9", "Nobody In Particular")]), encoding="utf-8")
    pool = load_pool(path)
    assert pool.get("core_71").abilities == load_ability_data()["core_71"]
    assert pool.get("tst_9").abilities == ()
    assert pool.by_name("Robert Baratheon")[0] is pool.get("core_71")  # the title index follows


def test_import_and_cache_follow_the_data(monkeypatch, tmp_path):
    folder = tmp_path / "abilities"
    _write_data(folder, "format: 1\ncards:\n  tst_1:\n    abilities:\n"
                        "      - {kind: action, phase: any, effect: [{draw: 1}]}\n")
    monkeypatch.setattr(overlay, "ABILITY_DIR", folder)
    pool, _ = import_pool(FIXTURES / "lcg_small.json")
    assert pool.get("tst_1").abilities == ({"kind": "action", "phase": "any", "effect": [{"draw": 1}]},)
    # A newer data file reaches the cached import without importing again.
    _write_data(folder, "format: 1\ncards:\n  tst_1:\n    abilities:\n"
                        "      - {kind: action, phase: any, effect: [{draw: 2}]}\n")
    poolmod.clear_caches()
    assert imported_pool().get("tst_1").abilities[0]["effect"] == [{"draw": 2}]
    # An entry removed from the data leaves the imported card without abilities.
    _write_data(folder, "format: 1\ncards: {}\n")
    poolmod.clear_caches()
    assert imported_pool().get("tst_1").abilities == ()


def test_card_files_keep_their_own_abilities():
    own = ({"kind": "action", "phase": "any", "effect": [{"draw": 1}]},)
    pool = CardPool()
    pool.add(CardDef(key="core_71", name="Robert Baratheon", type="character", strength=3, abilities=own,
                     source="mine.yaml:3"))
    pool.add(CardDef(key="core_90", name="Robert Baratheon", type="character", strength=3, source="mine.yaml:9"))
    data = {"core_71": ({"kind": "action", "phase": "any", "effect": [{"draw": 3}]},),
            "core_90": ({"kind": "action", "phase": "any", "effect": [{"draw": 3}]},)}
    assert apply_ability_data(pool, data) == 1
    assert pool.get("core_71").abilities == own
    assert pool.get("core_90").abilities == data["core_90"]


@pytest.mark.parametrize("text, words", [
    ("format: 2\ncards: {}\n", "format must be 1"),
    ("format: 1\ncard: {}\n", "unknown key 'card'"),
    ("format: 1\ncards: [core_1]\n", "must map card ids"),
    ("format: 1\ncards:\n  core_1: {abilities: [], text: words}\n", "unknown key 'text'"),
    ("format: 1\ncards:\n  core_1: {abilities: {kind: action}}\n", "list of mappings"),
    ("format: 1\ncards:\n  core_1: [x]\n", "expected {abilities"),
    ("format: 1\ncards:\n  core_1: {abilities: [], partial: ''}\n", "partial must say"),
    ("format: 1\ncards:\n  core_1: {abilities: [], partial: {note: x, paragraphs: [zero]}}\n", "partial must say"),
    ("- just a list\n", "mapping with 'format'"),
])
def test_bad_data_files(tmp_path, text, words):
    path = _write_data(tmp_path, text)
    with pytest.raises(DataError) as err:
        read_ability_file(path)
    assert words in str(err.value)
    assert str(path) in str(err.value)


def test_partial_notes_reach_the_cards(monkeypatch, tmp_path):
    folder = tmp_path / "abilities"
    _write_data(folder, "format: 1\ncards:\n  tst_1:\n    abilities:\n"
                        "      - {kind: action, phase: any, effect: [{draw: 1}]}\n"
                        "    partial: {note: the second paragraph is not played, paragraphs: [2]}\n")
    monkeypatch.setattr(overlay, "ABILITY_DIR", folder)
    pool, _ = import_pool(FIXTURES / "lcg_small.json")
    card = pool.get("tst_1")
    assert (card.partial, card.partial_paragraphs) == ("the second paragraph is not played", (2,))
    _write_data(folder, "format: 1\ncards:\n  tst_1:\n    abilities:\n"
                        "      - {kind: action, phase: any, effect: [{draw: 1}]}\n")
    poolmod.clear_caches()
    assert imported_pool().get("tst_1").partial == ""


def test_project_data_errors_name_the_data_file_and_line(tmp_path):
    path = _write_data(tmp_path, "format: 1\ncards:\n  tst_1:\n    abilities:\n"
                                 "      - kind: action\n        phase: any\n        effect: [{draw: two}]\n")
    with pytest.raises(DataError) as err:
        parse_abilities(read_ability_file(path)["tst_1"], "elsewhere.json#tst_1")
    assert str(err.value).startswith(f"{path}:7: abilities.[1].effect[1].draw")


def test_an_id_given_twice_is_an_error(tmp_path):
    entry = "format: 1\ncards:\n  core_1:\n    abilities: [{kind: action, phase: any, effect: [{draw: 1}]}]\n"
    _write_data(tmp_path, entry, "a.yaml")
    _write_data(tmp_path, entry, "b.yaml")
    with pytest.raises(DataError) as err:
        load_ability_data(tmp_path)
    assert "twice" in str(err.value) and "a.yaml" in str(err.value)
