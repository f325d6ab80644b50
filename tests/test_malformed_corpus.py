"""The malformed-input corpus (tests/corpus): every kind of file Maester reads, broken in every way we
know of, ends in one clear line naming the file (or the option) or is correctly accepted: no traceback,
no hang, no runaway memory, no wrong acceptance (docs/files.md).

One driver subprocess (tests/corpus/driver.py) forks a child per case with limits on memory, CPU time
and file size (``resource.setrlimit``); the test asserts the outcome of every case. The counts are
printed (``pytest -s`` or ``-rP`` shows them).
"""
from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DRIVER = ROOT / "tests" / "corpus" / "driver.py"
FAMILIES = {"deck", "card json", "octgn xml", "card yaml", "scenario", "save", "pool cache", "options"}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> list[dict]:
    root = tmp_path_factory.mktemp("corpus")
    out = root / "results.json"
    run = subprocess.run([sys.executable, str(DRIVER), str(root / "c"), "--json", str(out), "--jobs", "3"],
                         cwd=ROOT, capture_output=True, text=True, timeout=600,
                         env={**__import__("os").environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"})
    print(run.stdout)
    assert out.is_file(), run.stdout + run.stderr
    return json.loads(out.read_text())


def test_the_corpus_covers_every_family(corpus):
    families = Counter(r["family"] for r in corpus)
    assert len(corpus) >= 150
    assert set(families) == FAMILIES
    assert all(n >= 15 for n in families.values()), families
    assert sum(r["expect"] == "ok" for r in corpus) >= 20  # correct acceptances are checked too


@pytest.mark.parametrize("outcome", ["traceback", "hang", "crash", "wrong-acceptance", "wrong-refusal", "unclear"])
def test_no_case_ends_badly(corpus, outcome):
    bad = [f"{r['name']}: {r['line']}" for r in corpus if r["outcome"] == outcome]
    assert not bad, f"{len(bad)} {outcome}:\n" + "\n".join(bad)


def test_every_case_is_clear_or_accepted(corpus):
    counts = Counter(r["outcome"] for r in corpus)
    print(f"tried {len(corpus)}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    assert set(counts) <= {"clear", "accepted"}
    for r in corpus:
        assert (r["outcome"] == "accepted") == (r["expect"] == "ok"), r
