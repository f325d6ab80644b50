"""Run the malformed-input corpus (``make_corpus.py``): one driver process, one forked child per case.

    python tests/corpus/driver.py [--jobs N] [--json RESULTS.json] [--only TEXT] [ROOT]

The driver imports Maester once, then forks a child per case (fast: no interpreter start),
which runs the command's ``main`` exactly as ``python -m ...`` would (an uncaught exception
prints its traceback), with its own ``MAESTER_HOME`` and limits set by ``resource.setrlimit``:
address space (``MEM_MB`` more than the driver), CPU time, file size. A case that outlives
``WALL_S`` seconds is killed and counted as a hang.

Each case ends as one of: ``clear`` (refused with one clear line naming the file or option),
``accepted`` (correctly accepted), ``traceback``, ``hang``, ``crash`` (killed by a signal, e.g. out of
memory), ``wrong-acceptance`` (exit 0 where an error was due), ``wrong-refusal``, ``unclear``
(refused, but no line names the file, or a line is over 1,000 characters, or a raw control character
was printed). It prints the counts and exits 1 unless every case is ``clear`` or ``accepted``.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import sys
import tempfile
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from make_corpus import Case, make_corpus  # noqa: E402

WALL_S = 20.0
CPU_S = 20
MEM_MB = 1536
FILE_MB = 64
MAX_LINE = 1000
OUTCOMES = ("clear", "accepted", "traceback", "hang", "crash", "wrong-acceptance", "wrong-refusal", "unclear")


def _preload() -> None:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    import app.main  # noqa: F401
    import app.session  # noqa: F401
    import cards.deck  # noqa: F401
    import cards.pool  # noqa: F401
    import engine.automation  # noqa: F401
    import engine.replay  # noqa: F401
    import engine.scenario  # noqa: F401
    import engine.tutorial  # noqa: F401
    from PySide6 import QtWidgets  # noqa: F401

    import cards.overlay

    cards.pool.practice_pool()  # the shipped data, read once for every child (each child reads the rest)
    cards.overlay.load_ability_data()
    cards.overlay.load_partial_notes()


def _vm_bytes() -> int:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def _call(args: list[str]) -> int:
    """``call load_game FILE``: the engine's loader on a save file; only ReplayError/DataError may come out."""
    from cards.errors import DataError
    from cards.files import read_json_file
    from cards.pool import default_pool
    from engine.replay import ReplayError, load_game

    what, file = args
    assert what == "load_game"
    try:
        data = read_json_file(file, kind="save")
        load_game(data, default_pool(), verify=False)
    except (ReplayError, DataError) as err:
        print(f"call: {file}: {type(err).__name__}: {err}", file=sys.stderr)
        return 1
    return 0


def _entry(command: str):
    from cards.files import run_command

    if command == "pool":
        from cards.pool import main as pool_main
        from engine.automation import card_status, status

        def main():
            return pool_main(status=status, card_status=card_status)
    elif command == "deck":
        from cards.deck import main
    elif command == "report":
        from engine.automation import main
    elif command == "scenario":
        from engine.scenario import main
    elif command == "maester":
        from app.main import main
    elif command == "tutorial":
        from engine.tutorial import main
    else:
        raise ValueError(command)
    return lambda: run_command(main)


def _prepare_home(home: Path, files: dict) -> None:
    home.mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        path = home / name
        if content == "fifo":
            os.mkfifo(path)
        elif content == "folder":
            path.mkdir()
        elif isinstance(content, tuple) and content[0] == "sparse":
            with open(path, "wb") as f:
                f.truncate(content[1])
        else:
            path.write_bytes(content)


def _child(case: Case, home: Path, out: Path, err: Path, mem_limit: int) -> None:
    """In the forked child: limits, files, run, exit (never returns)."""
    code = 1
    try:
        os.setpgid(0, 0)
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        fd_out = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        fd_err = os.open(err, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(fd_out, 1)
        os.dup2(fd_err, 2)
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        _prepare_home(home, case.home_files)
        resource.setrlimit(resource.RLIMIT_AS, (mem_limit, mem_limit))
        resource.setrlimit(resource.RLIMIT_CPU, (CPU_S, CPU_S + 5))
        resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_MB * 1024 * 1024, FILE_MB * 1024 * 1024))
        os.environ["MAESTER_HOME"] = str(home)
        os.environ["PYTHONIOENCODING"] = "utf-8"
        import cards.pool

        cards.pool._imported = cards.pool._default = None  # the user's cache is read by each child
        cards.pool._reported.clear()
        sys.argv = [case.command] + list(case.args)
        try:
            if case.command == "call":
                code = _call(list(case.args))
            else:
                code = _entry(case.command)()
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
            if not isinstance(exit_.code, (int, type(None))):
                print(exit_.code, file=sys.stderr)
        except BaseException:  # noqa: BLE001 - what the interpreter would print
            traceback.print_exc()
            code = 1
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except BaseException:  # noqa: BLE001
            pass
    except BaseException:  # noqa: BLE001
        try:
            traceback.print_exc()
        except BaseException:  # noqa: BLE001
            pass
        code = 1
    os._exit(code if isinstance(code, int) and 0 <= code < 256 else 1)


def _mention(case: Case) -> str:
    if case.mention:
        return case.mention
    args = list(case.args)
    for flag in ("--open", "--scenario", "--deck", "--pool"):
        if flag in args and args.index(flag) + 1 < len(args):
            return Path(args[args.index(flag) + 1]).name
    for a in args:
        if "/" in a:
            return Path(a).name
    return case.command


def _read(path: Path, most: int = 2 * 1024 * 1024) -> tuple[str, int]:
    try:
        size = path.stat().st_size
        with open(path, "rb") as f:
            return f.read(most).decode("utf-8", "replace"), size
    except OSError:
        return "", 0


def classify(case: Case, status: str, code: int | None, out: str, err: str, size: int) -> tuple[str, str]:
    """The outcome of a case and the line that shows it."""
    text = err + "\n" + out
    lines = [line for line in text.splitlines() if line.strip()]
    last = lines[-1] if lines else ""
    if status == "hang":
        return "hang", f"killed after {WALL_S:.0f} s"
    if "Traceback (most recent call last)" in text:
        return "traceback", next((line for line in reversed(lines) if "Error" in line), last)[:300]
    if code is None or code < 0:
        return "crash", f"killed by signal {-(code or 0)}"
    bad_chars = [f for f in case.forbid if f in text]
    if case.expect == "ok":
        if code != 0:
            return "wrong-refusal", last[:300]
        if bad_chars:
            return "unclear", f"printed a raw {bad_chars[0]!r}"
        return "accepted", (lines[0] if lines else "")[:300]
    if code == 0:
        return "wrong-acceptance", last[:300]
    if size > 4 * MAX_LINE * 50 or any(len(line) > MAX_LINE for line in lines):
        return "unclear", f"a line over {MAX_LINE} characters ({size:,} bytes of output)"
    if bad_chars:
        return "unclear", f"printed a raw {bad_chars[0]!r}"
    mention = _mention(case)
    hit = next((line for line in lines if mention in line), None)
    if hit is None:
        return "unclear", f"no line names {mention!r}: {last[:200]}"
    return "clear", hit[:300]


def run(root: Path, jobs: int = 2, only: str | None = None, verbose: bool = False) -> list[dict]:
    _preload()
    cases = make_corpus(root)
    if only:
        cases = [c for c in cases if only in c.name]
    mem_limit = _vm_bytes() + MEM_MB * 1024 * 1024
    results: list[dict] = []
    running: dict[int, tuple[Case, int, float, Path, Path]] = {}
    queue = list(enumerate(cases))
    sys.stdout.flush()
    sys.stderr.flush()
    start_all = time.monotonic()
    while queue or running:
        while queue and len(running) < jobs:
            i, case = queue.pop(0)
            base = root / "runs" / f"{i:04d}"
            base.mkdir(parents=True, exist_ok=True)
            out, err = base / "out.txt", base / "err.txt"
            pid = os.fork()
            if pid == 0:
                _child(case, base / "home", out, err, mem_limit)
            running[pid] = (case, i, time.monotonic(), out, err)
        done_pid, status = os.waitpid(-1, os.WNOHANG)
        if done_pid == 0:
            now = time.monotonic()
            for pid, (case, i, started, out, err) in list(running.items()):
                if now - started > WALL_S:
                    try:
                        os.killpg(pid, signal.SIGKILL)
                    except OSError:
                        os.kill(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)
                    del running[pid]
                    results.append(_result(case, i, "hang", None, out, err, now - started))
            time.sleep(0.005)
            continue
        if done_pid not in running:
            continue
        case, i, started, out, err = running.pop(done_pid)
        code = os.waitstatus_to_exitcode(status)
        results.append(_result(case, i, "done", code, out, err, time.monotonic() - started))
        if verbose:
            r = results[-1]
            print(f"{r['outcome']:<16} {r['seconds']:5.1f}s {r['name']}: {r['line']}", flush=True)
    results.sort(key=lambda r: r["index"])
    total = time.monotonic() - start_all
    counts = {o: sum(1 for r in results if r["outcome"] == o) for o in OUTCOMES}
    by_family: dict[str, int] = {}
    for r in results:
        by_family[r["family"]] = by_family.get(r["family"], 0) + 1
    print(f"corpus: tried {len(results)} in {total:.1f} s: " + ", ".join(f"{o} {n}" for o, n in counts.items()))
    print("families: " + ", ".join(f"{f} {n}" for f, n in by_family.items()))
    return results


def _result(case: Case, i: int, status: str, code, out: Path, err: Path, seconds: float) -> dict:
    out_text, out_size = _read(out)
    err_text, err_size = _read(err)
    outcome, line = classify(case, status, code, out_text, err_text, out_size + err_size)
    return {"index": i, "name": case.name, "family": case.family, "expect": case.expect, "outcome": outcome,
            "code": code, "line": line.encode("unicode_escape").decode("ascii")
            if any(ord(c) < 32 for c in line) else line, "seconds": round(seconds, 2)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("root", nargs="?", help="where to write the corpus (default: a temporary folder)")
    ap.add_argument("--jobs", type=int, default=max(2, min(4, os.cpu_count() or 2)))
    ap.add_argument("--json", help="write the results here")
    ap.add_argument("--only", help="only the cases whose name contains this")
    ap.add_argument("--verbose", action="store_true", help="one line per case")
    args = ap.parse_args(argv)
    root = Path(args.root) if args.root else Path(tempfile.mkdtemp(prefix="maester-corpus-"))
    results = run(root, args.jobs, args.only, args.verbose)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    bad = [r for r in results if r["outcome"] not in ("clear", "accepted")]
    for r in bad:
        print(f"  {r['outcome']}: {r['name']}: {r['line']}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
