"""The card database (cards/pool.py) and its command line.

The CLI runs in a subprocess: bad input gives one message and a non-zero exit,
never a traceback. Every test has its own empty MAESTER_HOME (tests/conftest.py).
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cards import pool as poolmod
from cards.errors import DataError
from cards.model import CardDef, CardPool
from cards.pool import (default_pool, import_pool, imported_pool, load_cache, load_pool, practice_pool,
                        user_data_dir)

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(autouse=True)
def _fresh_caches():
    poolmod.clear_caches()
    yield
    poolmod.clear_caches()


def run_cli(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    return subprocess.run([sys.executable, "-m", "cards.pool", *map(str, args)], cwd=ROOT, env=env,
                          capture_output=True, text=True, encoding="utf-8", timeout=120)


# --- user data folder ------------------------------------------------------------------------------


def test_user_data_dir_precedence(monkeypatch, tmp_path):
    monkeypatch.setenv("MAESTER_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert user_data_dir() == tmp_path / "home"
    monkeypatch.delenv("MAESTER_HOME")
    assert user_data_dir() == tmp_path / "xdg" / "maester"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    assert user_data_dir() == tmp_path / "user" / ".local" / "share" / "maester"


# --- pools ------------------------------------------------------------------------------------------


def test_practice_pool_loads_and_is_cached():
    pool = practice_pool()
    assert isinstance(pool, CardPool)
    assert practice_pool() is pool
    for card in pool:
        assert card.source  # every practice card says where it came from


def test_practice_pool_is_empty_without_a_folder(monkeypatch, tmp_path):
    monkeypatch.setattr(poolmod, "PRACTICE_DIR", tmp_path / "nothing")
    assert len(practice_pool()) == 0


def test_load_pool_by_kind(tmp_path):
    assert len(load_pool(FIXTURES / "cards_valid.yaml")) == 5
    assert len(load_pool(FIXTURES / "octgn_small.xml")) == 5
    assert len(load_pool(FIXTURES / "lcg_small.json")) == 6
    folder = tmp_path / "set"
    (folder / "sub").mkdir(parents=True)
    (folder / "a.yaml").write_text("format: 1\ncards:\n  - {name: Invented Wall, type: location}\n")
    (folder / "sub" / "b.yaml").write_text("format: 1\ncards:\n  - {name: Invented Gate, type: location}\n")
    assert sorted(c.name for c in load_pool(folder)) == ["Invented Gate", "Invented Wall"]


def test_load_pool_folder_with_a_duplicate_key(tmp_path):
    (tmp_path / "a.yaml").write_text("format: 1\ncards:\n  - {name: Invented Wall, type: location}\n")
    (tmp_path / "b.yaml").write_text("format: 1\ncards:\n  - {name: Invented Wall, type: location}\n")
    with pytest.raises(DataError) as info:
        load_pool(tmp_path)
    assert "two cards have the key 'Invented Wall'" in str(info.value) and "b.yaml:3" in str(info.value)


@pytest.mark.parametrize("name, words", [("cards.txt", "unknown kind of card data"),
                                         ("missing.json", "no such file")])
def test_load_pool_bad_paths(tmp_path, name, words):
    if name.endswith(".txt"):
        (tmp_path / name).write_text("x")
    with pytest.raises(DataError) as info:
        load_pool(tmp_path / name)
    assert words in str(info.value)


def test_import_pool_caches_and_reloads():
    pool, report = import_pool(FIXTURES / "lcg_small.json")
    assert report.imported == 6
    assert (user_data_dir() / "pool.json").is_file()
    poolmod.clear_caches()
    again = imported_pool()
    assert again is not None and [c.key for c in again] == [c.key for c in pool]
    for card in pool:
        copy = again.get(card.key)
        for field in CardDef.__dataclass_fields__:
            assert getattr(copy, field) == getattr(card, field), (card.key, field)
    cached_report = load_cache()[1]
    assert cached_report.lines() == report.lines()


def test_imported_pool_is_none_before_any_import():
    assert imported_pool() is None


def test_default_pool_is_practice_then_new_imported_keys(monkeypatch, tmp_path):
    practice = tmp_path / "practice"
    practice.mkdir()
    (practice / "p.yaml").write_text(
        "format: 1\ncards:\n  - {name: Ours, key: tst_1, type: location}\n  - {name: Mine, type: location}\n")
    monkeypatch.setattr(poolmod, "PRACTICE_DIR", practice)
    import_pool(FIXTURES / "lcg_small.json")
    pool = default_pool()
    assert pool.get("tst_1").name == "Ours"         # the practice card wins on a shared key
    assert pool.get("tst_2").name == "Pretend Ambush"
    assert list(pool)[0].name == "Ours" and len(pool) == 2 + 5
    assert default_pool() is pool                   # cached while nothing changes


@pytest.mark.parametrize("content", [
    b"{not json",
    b'{"format": "something-else", "cards": []}',
    b'{"format": "maester-card-pool", "version": 1, "cards": [{"name": "X", "type": "character"}]}',
    b'{"format": "maester-card-pool", "version": 1, "cards": [{"name": "X", "type": "location", "cost": "lots"}]}',
    b'{"format": "maester-card-pool", "version": 1, "cards": 7}',
    b"\xff\xfe garbage",
])
def test_corrupt_cache_says_to_reimport(content):
    path = user_data_dir()
    path.mkdir(parents=True, exist_ok=True)
    (path / "pool.json").write_bytes(content)
    with pytest.raises(DataError) as info:
        imported_pool()
    assert "import the card data again" in str(info.value)
    assert str(path / "pool.json") in str(info.value)


def test_cache_from_another_version():
    path = user_data_dir()
    path.mkdir(parents=True, exist_ok=True)
    (path / "pool.json").write_text(json.dumps({"format": "maester-card-pool", "version": 99, "cards": []}))
    with pytest.raises(DataError) as info:
        imported_pool()
    assert "another version" in str(info.value)


# --- command line --------------------------------------------------------------------------------


def test_cli_import_octgn_first_line():
    result = run_cli("import", FIXTURES / "octgn_small.xml")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "5 cards imported"
    assert any("Spaceship" in line for line in lines[1:])
    assert (user_data_dir() / "pool.json").is_file()


def test_cli_import_real_lcg_json(lcg_json):
    result = run_cli("import", lcg_json)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "1988 cards imported"
    assert len(lines) < 15  # a short summary


def test_cli_show_after_import():
    assert run_cli("import", FIXTURES / "lcg_small.json").returncode == 0
    result = run_cli("show", "Warden of the Invented Gate")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.splitlines()[0] == "Warden of the Invented Gate  [tst_1]"
    for words in ("type:", "character", "strength:", "3", "keywords:", "deadly, renown",
                  "house_only:", "stark", "naval_icons:", "power", "text:", "Invented: nothing"):
        assert words in out
    by_key = run_cli("show", "tst_3")
    assert by_key.returncode == 0 and "Fictional Toll" in by_key.stdout and "claim:" in by_key.stdout


def test_cli_show_says_which_printing():
    folder = FIXTURES / "cards_valid.yaml"
    assert run_cli("import", folder).returncode == 0
    result = run_cli("show", "hedge captain orrin")
    assert result.returncode == 0, result.stderr
    first = result.stdout.splitlines()[0]
    assert "2 printings" in first and "showing Hedge Captain Orrin" in first


def test_cli_show_practice_card():
    pool = practice_pool()
    if not len(pool):
        pytest.skip("no practice cards yet")
    card = next(iter(pool))
    result = run_cli("show", card.key)
    assert result.returncode == 0, result.stderr
    assert card.name in result.stdout


def test_cli_show_unknown_card():
    result = run_cli("show", "Nobody Of Nowhere At All")
    assert result.returncode == 1
    assert "no card named 'Nobody Of Nowhere At All'" in result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.splitlines()) == 1


@pytest.mark.parametrize("args", [(), ("import",), ("show",), ("frobnicate", "x"), ("import", "a", "b")])
def test_cli_usage_errors_exit_2(args):
    result = run_cli(*args)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and "usage" in result.stderr


BAD_FILES = {
    "truncated.yaml": ("format: 1\ncards:\n  - name: Invented\n    type: [location\n", 5),
    "wrong_type.yaml": ("format: 1\ncards:\n  - name: Invented\n    type: character\n    strength: lots\n", 5),
    "unknown_key.yaml": ("format: 1\ncards:\n  - name: Invented\n    type: location\n    colour: red\n", 5),
    "latin1.yaml": (b"format: 1\ncards:\n  - name: Invent\xe9\n    type: location\n", 3),
    "unknown_house.yaml": ("format: 1\ncards:\n  - name: Invented\n    type: location\n    house: tully\n", 5),
    "not_a_mapping.yaml": ("just words\n", 1),
    "bad.json": ('[{"id": "x",\n "name": ]', 2),
    "bad.xml": ('<set>\n<cards>\n<card name="x">\n</set>\n', 4),
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_cli_bad_input_one_message_no_traceback(tmp_path, name):
    content, line = BAD_FILES[name]
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    result = run_cli("import", path)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert f"{path}:{line}:" in result.stderr, result.stderr
    assert result.stdout == ""
    assert not (user_data_dir() / "pool.json").exists()


def test_cli_missing_file():
    result = run_cli("import", "no/such/cards.json")
    assert result.returncode == 1 and "no such file" in result.stderr and "Traceback" not in result.stderr


def test_cli_show_with_a_corrupt_cache():
    path = user_data_dir()
    path.mkdir(parents=True, exist_ok=True)
    (path / "pool.json").write_text("{ broken")
    result = run_cli("show", "Anything")
    assert result.returncode == 1
    assert "import the card data again" in result.stderr and "Traceback" not in result.stderr


def test_cli_import_yaml_with_values_json_cannot_store(tmp_path):
    path = tmp_path / "dated.yaml"
    path.write_text("format: 1\ncards:\n  - name: Dated Wall\n    type: location\n"
                    "    abilities:\n      - when: 2020-01-01\n")
    result = run_cli("import", path)
    assert result.returncode == 1 and "cannot store" in result.stderr and "Traceback" not in result.stderr
    assert [p.name for p in user_data_dir().iterdir() if p.name != "pool.lock"] == []  # no half-written cache left behind


def test_output_cut_short_by_a_closed_pipe_is_not_a_traceback():
    import subprocess
    import sys

    from pathlib import Path

    scenarios = Path(__file__).resolve().parent.parent / "scenarios" / "rounds"
    # --verbose prints thousands of lines: far more than the pipe holds once the reader is gone
    proc = subprocess.Popen([sys.executable, "-m", "engine.scenario", str(scenarios), "--verbose"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout.readline().startswith("PASS")
    proc.stdout.close()  # like `| head -1`
    err = proc.stderr.read()
    assert proc.wait(timeout=120) == 0
    assert "Traceback" not in err and "BrokenPipe" not in err


# --- show agrees with the report ---------------------------------------------------------------------


def _line(lines: list[str], field: str) -> str:
    return next(line for line in lines if line.strip().startswith(field + ":")).split(":", 1)[1].strip()


def test_show_agrees_with_the_report_on_cards_without_abilities():
    from cards.pool import describe
    from engine.automation import status

    keyword_only = CardDef(key="t1", name="Invented Brute", type="character", strength=2,
                           keywords=("deadly",), text="Deadly. House Stark only.")
    worded = CardDef(key="t2", name="Invented Talker", type="character", strength=1,
                     text="Invented: draw a card whenever it rains.")
    assert status(keyword_only).automated and not status(worded).automated
    lines = describe(keyword_only, status)
    assert _line(lines, "abilities") == "none needed"  # was "none yet (text only)"
    assert _line(lines, "played").startswith("automated")
    lines = describe(worded, status)
    assert _line(lines, "abilities") == "none yet (text only)"
    assert _line(lines, "played").startswith("by hand")


def test_show_and_the_report_agree_on_every_practice_card():
    from cards.pool import describe
    from engine.automation import status

    for card in practice_pool():
        lines = describe(card, status)
        assert _line(lines, "played").startswith("automated") == status(card).automated, card.key
        assert (_line(lines, "abilities") == "none yet (text only)") == (
            not card.abilities and not status(card).automated), card.key


# --- sources: each import replaces only its own ------------------------------------------------------


def _yaml(path: Path, *names: str) -> Path:
    path.write_text("format: 1\ncards:\n" + "".join(f"  - {{name: {n}, type: location}}\n" for n in names))
    return path


def test_an_import_keeps_the_cards_of_other_sources():
    import_pool(FIXTURES / "lcg_small.json")
    import_pool(FIXTURES / "octgn_small.xml")  # replaced the LCG cards before
    pool = imported_pool()
    lcg, octgn = load_pool(FIXTURES / "lcg_small.json"), load_pool(FIXTURES / "octgn_small.xml")
    assert [c.key for c in pool] == [c.key for c in lcg] + [c.key for c in octgn]
    assert [(s.source, len(s.cards)) for s in poolmod.cached_sources()] == [("lcg_small.json", 6),
                                                                           ("octgn_small.xml", 5)]


def test_importing_a_source_again_replaces_only_its_cards(tmp_path):
    walls = _yaml(tmp_path / "walls.yaml", "Invented Wall", "Invented Gate")
    import_pool(walls)
    import_pool(FIXTURES / "lcg_small.json")
    _yaml(walls, "Invented Tower")  # the same source, changed: its old cards go, the others stay
    import_pool(walls)
    names = [c.name for c in imported_pool()]
    assert "Invented Tower" in names and "Invented Wall" not in names and "Invented Gate" not in names
    assert [s.source for s in poolmod.cached_sources()] == ["walls.yaml", "lcg_small.json"]  # kept its place
    assert len(imported_pool()) == 1 + 6


def test_a_key_two_sources_share_is_kept_from_the_first_and_noted(tmp_path):
    import_pool(_yaml(tmp_path / "a.yaml", "Invented Wall"))
    _, report = import_pool(_yaml(tmp_path / "b.yaml", "Invented Wall", "Invented Moat"))
    assert [c.source.split("/")[-1] for c in imported_pool()] == ["a.yaml:3", "b.yaml:4"]
    assert any("already imported" in line and "a.yaml" in line for line in report.lines())


def test_remove_a_source(tmp_path):
    import_pool(_yaml(tmp_path / "a.yaml", "Invented Wall"))
    import_pool(FIXTURES / "lcg_small.json")
    assert poolmod.remove_source("A.YAML").source == "a.yaml"  # any case
    assert [c.key for c in imported_pool()] == [c.key for c in load_pool(FIXTURES / "lcg_small.json")]
    with pytest.raises(DataError) as info:
        poolmod.remove_source("a.yaml")
    assert "no imported source named 'a.yaml'" in str(info.value) and "lcg_small.json" in str(info.value)
    poolmod.remove_source("lcg_small.json")
    assert imported_pool() is None and not (user_data_dir() / "pool.json").exists()


def test_a_version_1_cache_is_read_as_one_source_and_kept_by_the_next_import(tmp_path):
    user_data_dir().mkdir(parents=True, exist_ok=True)
    (user_data_dir() / "pool.json").write_text(json.dumps({
        "format": "maester-card-pool", "version": 1, "report": {"source": "/x/old.json", "imported": 1},
        "cards": [{"name": "Invented Keep", "type": "location", "source": "/x/old.json#1"}]}))
    assert [s.source for s in poolmod.cached_sources()] == ["old.json"]
    import_pool(FIXTURES / "octgn_small.xml")
    assert imported_pool().get("Invented Keep") is not None and len(imported_pool()) == 1 + 5


def test_an_import_sets_a_damaged_cache_aside_and_says_so():
    user_data_dir().mkdir(parents=True, exist_ok=True)
    (user_data_dir() / "pool.json").write_text("{ broken")
    _, report = import_pool(FIXTURES / "lcg_small.json")
    assert any("set aside as pool-damaged.json" in line for line in report.lines())
    assert (user_data_dir() / "pool-damaged.json").read_text() == "{ broken"
    assert len(imported_pool()) == 6


def test_cli_list_and_remove(tmp_path):
    assert run_cli("list").stdout.startswith("No card data imported yet")
    assert run_cli("import", FIXTURES / "lcg_small.json").returncode == 0
    result = run_cli("import", FIXTURES / "octgn_small.xml")
    assert "kept lcg_small.json (6)" in result.stdout.splitlines()[-1]
    result = run_cli("list")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split()[:3] == ["lcg_small.json", "6", "cards"] and "imported 2" in lines[0]
    assert lines[1].split()[:3] == ["octgn_small.xml", "5", "cards"]
    assert lines[2].startswith("2 sources, 11 cards")
    result = run_cli("remove", "lcg_small.json")
    assert result.returncode == 0 and result.stdout.strip() == "Removed 'lcg_small.json' (6 cards)"
    assert run_cli("list").stdout.splitlines()[0].startswith("octgn_small.xml")
    result = run_cli("remove", "nothing.json")
    assert result.returncode == 1 and "no imported source named 'nothing.json'" in result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1


FR_MDB = ROOT.parent / "shared" / "data" / "agotdb" / "AGoT - FR.mdb"


@pytest.mark.skipif(not FR_MDB.is_file(), reason=f"{FR_MDB} is absent (../shared not checked out)")
def test_readme_order_lcg_json_then_ccg_mdb_keeps_both(lcg_json):
    import_pool(lcg_json)
    import_pool(FR_MDB)
    pool = imported_pool()
    assert sum(c.key.startswith("agotdb_") for c in pool) == 1445
    assert len(pool) - 1445 == 1988


def test_readme_order_with_small_files_keeps_both(tmp_path):
    """The README's order: the LCG JSON, then AGoTDB's French .mdb (a small one written here)."""
    from mdb_writer import agotdb_mdb

    mdb = tmp_path / "AGoT - FR.mdb"
    mdb.write_bytes(agotdb_mdb([{"UniversalId": 100001, "OriginalName": "Invented Reaver", "Type": "Personnage",
                                 "House": "Greyjoy", "Set": "Hiver(R1)", "Text": "Texte inventé."}]))
    assert run_cli("import", FIXTURES / "lcg_small.json").returncode == 0
    result = run_cli("import", mdb)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1].endswith("as 'AGoT - FR.mdb'; kept lcg_small.json (6)")
    poolmod.clear_caches()
    assert len(imported_pool()) == 6 + 1 and imported_pool().get("agotdb_100001").name == "Invented Reaver"


@pytest.mark.parametrize("home, kind", [("/dev/null", "a device"), ("/dev/null/maester", "a path through a file")])
def test_a_data_folder_that_is_not_a_folder_is_one_clear_line(monkeypatch, home, kind):
    monkeypatch.setenv("MAESTER_HOME", home)
    result = run_cli("import", FIXTURES / "lcg_small.json")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines() == [
        f"error: {home}: Maester's data folder (from MAESTER_HOME) is not a folder: it is {kind} "
        "(set MAESTER_HOME to a folder Maester may write in)"]  # was "...lock file: File exists"


def test_ensure_data_dir_makes_the_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("MAESTER_HOME", str(tmp_path / "a" / "b"))
    assert poolmod.ensure_data_dir() == tmp_path / "a" / "b" and (tmp_path / "a" / "b").is_dir()
    (tmp_path / "file").write_text("x")
    monkeypatch.setenv("MAESTER_HOME", str(tmp_path / "file"))
    with pytest.raises(DataError) as info:
        poolmod.ensure_data_dir()
    assert "is not a folder: it is a file" in str(info.value)
