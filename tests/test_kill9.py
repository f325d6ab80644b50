"""kill -9 during card imports and autosaves never leaves an unloadable file or an orphan (docs/files.md).

Each run forks a child (Maester already imported, so the kill lands in the work, not in the
interpreter's start) that imports card data / writes the autosave, kills it with SIGKILL at a
random moment, then checks that the cache / autosave is the old one or the new one, whole, and
that the next import / start leaves no temporary file behind.

20 runs each by default; ``MAESTER_KILL_RUNS=100`` for the full count. The numbers (kills before,
during and after the write) are printed (``pytest -s``).
"""
from __future__ import annotations

import json
import os
import random
import signal
import time
from pathlib import Path

import pytest

from app import session as saves
from cards import pool as poolmod
from cards.pool import cache_path, import_lock, load_cache, user_data_dir

RUNS = int(os.environ.get("MAESTER_KILL_RUNS", "20"))


def _lcg_records(n: int, tag: str) -> list[dict]:
    return [{"id": f"{tag}_{i}", "name": f"Corpus {tag} {i}", "card_type": "Character", "set": "Kill",
             "number": i, "house": ["Stark"], "rules_text": "Invented text " * 20, "cost": 2,
             "icons": ["Military"], "traits": ["Guard"], "strength": 2} for i in range(n)]


def _fork(work) -> int:
    pid = os.fork()
    if pid == 0:  # the child: do the work, never return into pytest
        code = 0
        try:
            work()
        except BaseException:  # noqa: BLE001
            code = 1
        os._exit(code)
    return pid


def _kill(pid: int, delay: float) -> bool:
    """SIGKILL ``pid`` after ``delay`` s; True if it was still running."""
    time.sleep(delay)
    done, _ = os.waitpid(pid, os.WNOHANG)
    if done:
        return False
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return True


def _temporaries(folder: Path, prefix: str) -> list[Path]:
    return [p for p in folder.iterdir() if p.name.startswith(prefix)] if folder.is_dir() else []


def test_kill_9_during_imports_leaves_the_old_or_the_new_cache_and_no_orphan(tmp_path):
    sources = {}
    for tag, n in (("a", 1500), ("b", 2500)):
        sources[tag] = tmp_path / tag / "cards.json"  # one source (the same name): b replaces a
        sources[tag].parent.mkdir()
        sources[tag].write_text(json.dumps(_lcg_records(n, tag)))
    counts = {"a": 1500, "b": 2500}
    poolmod.import_pool(sources["a"])  # the cache starts as a
    started = time.monotonic()
    poolmod.import_pool(sources["b"])
    whole = time.monotonic() - started
    rng = random.Random(11)
    folder = user_data_dir()
    seen = {"old": 0, "new": 0, "orphans": 0, "finished": 0}
    current = "b"
    for run in range(RUNS):
        target = "a" if current == "b" else "b"

        def work(src=sources[target]):
            poolmod.clear_caches()
            poolmod.import_pool(src)

        pid = _fork(work)
        if run % 2:  # at a random moment
            killed = _kill(pid, rng.uniform(0.0, whole * 1.1))
        else:  # while the new cache is being written: once its temporary file appears
            deadline = time.monotonic() + 10 * whole + 5
            while not _temporaries(folder, poolmod.TMP_PREFIX) and time.monotonic() < deadline:
                if os.waitpid(pid, os.WNOHANG)[0]:
                    pid = 0
                    break
                time.sleep(0.0005)
            killed = bool(pid) and _kill(pid, rng.uniform(0.0, 0.01))
        orphans = _temporaries(folder, poolmod.TMP_PREFIX)
        seen["orphans"] += len(orphans)
        pool, _report = load_cache(cache_path())  # never damaged: whole old or whole new
        keys = {card.key.split("_")[0] for card in pool}
        assert len(keys) == 1
        now = keys.pop()
        assert len(pool) == counts[now]
        assert now in (current, target)
        seen["new" if now == target else "old"] += 1
        seen["finished"] += not killed
        current = now
        with import_lock():  # what the next import does first
            pass
        assert not _temporaries(folder, poolmod.TMP_PREFIX)
    print(f"kill -9 during {RUNS} imports: {seen['old']} left the old cache, {seen['new']} the new one "
          f"({seen['finished']} had finished), {seen['orphans']} temporary files cleaned by the next import; "
          f"all loadable")
    assert seen["old"] + seen["new"] == RUNS


def test_kill_9_during_autosaves_leaves_a_whole_save_and_no_orphan(tmp_path):
    from engine.builder import practice_game
    from engine.game import Options
    from engine.players import RandomPlayer

    games = []
    for answers in (15, 60):
        game = practice_game(seed=3, players=("alice", "bob"), options=Options(prompt_all=False))
        choosers = {n: RandomPlayer(seed=i) for i, n in enumerate(game.state.player_names)}
        while len(game.history) < answers:
            choosers[game.advance().player].play_turn(game)
        games.append(game)
    digests = {g.state.digest() for g in games}
    info = saves.TableInfo(names=["alice", "bob"], modes=[[0, "enforce"]])
    folder = user_data_dir()
    path = saves.autosave_path(folder)
    saves.write_save(path, games[0], info)

    def work():
        i = 0
        while True:
            saves.write_save(path, games[i % 2], info)
            i += 1

    rng = random.Random(12)
    orphans = loaded = 0
    for _ in range(RUNS):
        pid = _fork(work)
        assert _kill(pid, rng.uniform(0.005, 0.08))
        data = saves.read_json(path)  # never half a file
        assert data["digest"] in digests
        loaded += 1
        orphans += len(saves.clean_orphans(folder))  # what the next start does
        assert not [p for p in folder.iterdir() if p.name.endswith(".tmp")]
    last = saves.read_save(path)  # and it replays
    assert last.game.state.digest() in digests
    print(f"kill -9 during {RUNS} autosave runs: {loaded} autosaves loaded whole, "
          f"{orphans} orphan temporary files cleaned by the next start")
    assert loaded == RUNS


@pytest.mark.parametrize("content", [b"\x00garbage", b"[" * 100_000, b"{}", ("sparse", 200 * 1024 * 1024)])
def test_a_damaged_cache_is_reported_once_set_aside_and_the_practice_cards_still_work(content, capsys):
    from cards.pool import DAMAGED_NAME, default_pool

    folder = user_data_dir()
    folder.mkdir(parents=True, exist_ok=True)
    if isinstance(content, tuple):
        with open(cache_path(), "wb") as f:
            f.truncate(content[1])
    else:
        cache_path().write_bytes(content)
    poolmod.clear_caches()
    pool = default_pool()
    assert pool.find("Lord Harlen Coldbrook") is not None
    default_pool()
    err = capsys.readouterr().err
    assert err.count("warning:") == 1 and "pool.json" in err and "Traceback" not in err
    assert not cache_path().exists() and (folder / DAMAGED_NAME).exists()


def test_a_broken_ability_data_file_is_reported_and_never_sets_the_cache_aside(tmp_path, monkeypatch, capsys):
    """A broken file of the project's own ability data is not a damaged cache: it is reported once, the
    imported cards wait for the fix, and the cache stays where it is (no re-import needed)."""
    from cards import overlay
    from cards.pool import DAMAGED_NAME, default_pool

    src = tmp_path / "a.json"
    src.write_text(json.dumps(_lcg_records(3, "a")))
    poolmod.import_pool(src)
    broken = tmp_path / "abilities"
    broken.mkdir()
    (broken / "mine.yaml").write_text("format: 1\ncards:\n  agotdb_1: [ {kind: action\n", encoding="utf-8")
    good = overlay.ABILITY_DIR
    monkeypatch.setattr(overlay, "ABILITY_DIR", broken)
    poolmod.clear_caches()
    pool = default_pool()
    default_pool()
    err = capsys.readouterr().err
    assert err.count("warning:") == 1 and "mine.yaml" in err and "Traceback" not in err
    assert "the card cache is kept" in err
    assert pool.get("a_0") is None
    assert cache_path().exists() and not (user_data_dir() / DAMAGED_NAME).exists()
    monkeypatch.setattr(overlay, "ABILITY_DIR", good)
    poolmod.clear_caches()
    assert default_pool().get("a_0") is not None  # fixed: the imported cards are back, no re-import


def test_a_second_import_waits_for_the_first_then_gives_up_clearly(tmp_path, monkeypatch):
    from cards.errors import DataError

    src = tmp_path / "a.json"
    src.write_text(json.dumps(_lcg_records(3, "a")))
    monkeypatch.setattr(poolmod, "LOCK_WAIT_S", 0.3)
    pid = _fork(lambda: (import_lock().__enter__(), time.sleep(30)))
    try:
        deadline = time.monotonic() + 10
        while not (user_data_dir() / poolmod.LOCK_NAME).exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.2)
        with pytest.raises(DataError, match="another import of card data is running"):
            poolmod.import_pool(src)
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    assert poolmod.import_pool(src)[0].get("a_0") is not None  # the lock died with its holder
