"""Time importing the community LCG JSON and the AGoTDB .mdb, and loading the cached pool.

    python bench/bench_import.py [PATH_TO_JSON] [--mdb PATH_TO_MDB] [--repeat N]

Prints the best and median time of N runs (default 5) for: parsing and
importing the JSON, writing the cache, and loading the cache (what every start
of Maester pays); then for the AGoTDB French .mdb (with the English one beside
it): reading the Access table, the whole CCG-era import, and the peak Python
memory of one import (tracemalloc). Works in a temporary folder; the user's
data is not touched. A missing file is skipped with a note.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cards.errors import DataError  # noqa: E402
from cards.importers.lcg_json import import_lcg_json  # noqa: E402
from cards.pool import load_cache, save_cache  # noqa: E402

DEFAULT_JSON = ROOT.parent / "shared" / "data" / "agot1-lcg-cards.json"
DEFAULT_MDB = ROOT.parent / "shared" / "data" / "agotdb" / "AGoT - FR.mdb"


def timed(fn, repeat: int) -> tuple[list[float], object]:
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return times, result


def show(label: str, times: list[float]) -> None:
    print(f"{label:<28} best {min(times) * 1000:7.1f} ms   median {statistics.median(times) * 1000:7.1f} ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("json", nargs="?", default=str(DEFAULT_JSON))
    parser.add_argument("--mdb", default=str(DEFAULT_MDB))
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    try:
        if Path(args.json).is_file():
            bench_json(args)
        else:
            print(f"skipped the JSON: {args.json} is absent")
        if Path(args.mdb).is_file():
            bench_mdb(args)
        else:
            print(f"skipped the .mdb: {args.mdb} is absent")
    except DataError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    return 0


def bench_mdb(args) -> None:
    import tracemalloc

    from cards.importers.agotdb import import_agotdb, read_mdb_rows

    times, (_, rows) = timed(lambda: read_mdb_rows(args.mdb), args.repeat)
    print(f"{len(rows)} records in {args.mdb} ({args.repeat} runs)")
    show("read .mdb table", times)
    times, (pool, report) = timed(lambda: import_agotdb(args.mdb), args.repeat)
    english = getattr(report, "english", "") or "no English file"
    print(f"{len(pool)} CCG-era cards (English text from {english})")
    show("import .mdb (FR + EN)", times)
    times, (everything, _) = timed(lambda: import_agotdb(args.mdb, era=None), args.repeat)
    show(f"import .mdb --all ({len(everything)})", times)
    tracemalloc.start()
    import_agotdb(args.mdb)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"{'peak memory of one import':<28} {peak / 2**20:7.1f} MiB")
    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(tmp) / "pool.json"
        save_cache(pool, report, cache)
        print(f"{'cache size':<28} {cache.stat().st_size / 1024:7.0f} KiB")
        times, (cached, _) = timed(lambda: load_cache(cache), args.repeat)
        show("load cached CCG pool", times)
        assert len(cached) == len(pool)


def bench_json(args) -> None:
    times, (pool, report) = timed(lambda: import_lcg_json(args.json), args.repeat)
    print(f"{len(pool)} cards from {args.json} ({args.repeat} runs)")
    show("import JSON", times)
    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(tmp) / "pool.json"
        times, _ = timed(lambda: save_cache(pool, report, cache), args.repeat)
        show("write cache", times)
        print(f"{'cache size':<28} {cache.stat().st_size / 1024:7.0f} KiB")
        times, (cached, _) = timed(lambda: load_cache(cache), args.repeat)
        show("load cached pool", times)
        assert len(cached) == len(pool)


if __name__ == "__main__":
    sys.exit(main())
