"""How fast the table answers after a decision, how its memory behaves over long play, and cold start.

A four-player game with real Core Set cards (``../shared/data/agot1-lcg-cards.json``, decks from
``bench_lcg_games.core_deck``; the practice decks when the data is absent) is played by computer
players (``TriggerPlayer``) at an offscreen window of 1600x1000. After every decision the table is
updated as the controller does it (``changed`` -> ``TableWindow.refresh``) and the window painted
(the posted paint events processed); the time from the answer to the painted window is one sample,
printed as wall time and as the main thread's CPU time (steadier on a busy machine), and the CPU time of the
painting alone (the posted updates and paints, after ``refresh``: no engine call in it, so engine speed-ups do not
move it).

- **fixed viewer**: Alice has the screen all game long;
- **hotseat**: the viewer changes at every decision (the next one to decide takes the seat, or the
  next seat when the same player decides again), as ``TableController.reveal`` does it.

Blocks of 500 decisions alternate between the two. A finished game is followed by a new one in the
same window (``TableWindow.start``, as New Game does; ``--new-window``: in a new window, which shows
what one table costs apart from anything New Game keeps of the last one). RSS is read at the start, after
1,000 decisions and at a few points up to the end (10,000 by default), each time once the garbage is gone (Python's
cycles collected, Qt's deferred deletes delivered: ``settled_rss``); the growth from 1,000 to the end is printed in
percent (target within +-10%). The allocator is set up as ``maester`` sets it at launch (``settle_allocator``). Cold start: a subprocess ``maester --offscreen --players 4`` from launch to
the first painted table (it saves a screenshot and exits), best and median of 3.

    QT_QPA_PLATFORM=offscreen python bench/bench_ui.py [--decisions 10000] [--json PATH]
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEvent  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from app.card_item import PICTURES  # noqa: E402
from app.dialogs import GameSetup  # noqa: E402
from app.main import settle_allocator  # noqa: E402
from app.window import TableWindow  # noqa: E402
from bench.bench_lcg_games import DEFAULT_JSON, TriggerPlayer, matchup_decks  # noqa: E402
from engine.builder import new_game, practice_game  # noqa: E402
from engine.decisions import Decision  # noqa: E402
from engine.game import Options  # noqa: E402

NAMES = ("Alice", "Bob", "Carol", "Dave")
HOUSES = ("stark", "lannister", "baratheon", "greyjoy")
BLOCK = 500


def rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


class Games:
    """Fresh four-player games, one seed after another (real Core Set cards, or practice decks)."""

    def __init__(self, json_path: Path):
        self.pool = None
        if json_path.is_file():
            from cards.pool import load_pool

            self.pool = load_pool(json_path)
        self.seed = 0

    @property
    def kind(self) -> str:
        return "Core Set decks (real cards)" if self.pool is not None else "practice decks (card data absent)"

    def next(self):
        self.seed += 1
        options = Options(prompt_all=False)
        if self.pool is None:
            return practice_game(self.seed, players=NAMES, options=options)
        return new_game(matchup_decks(self.pool, HOUSES, self.seed, names=NAMES), seed=self.seed, options=options)


def settled_rss(app: QApplication) -> float:
    """RSS once what is already garbage is gone: Python's cycles collected and Qt's deferred deletes
    delivered (as a running event loop would have done by now). Nothing the table holds is dropped."""
    import gc

    paint(app)
    gc.collect()
    app.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    return rss_mb()


def checkpoints_for(decisions: int) -> list[int]:
    """Where RSS is read: 1,000 decisions, then a few points up to the end."""
    points = {1000, 2000, 3000, 5000, 7500, 10_000, decisions}
    return sorted(p for p in points if p <= decisions)


def percentiles(samples: list[float]) -> tuple[float, float, float]:
    s = sorted(samples)
    pick = lambda q: s[min(len(s) - 1, int(q * len(s)))]  # noqa: E731
    return statistics.median(s), pick(0.90), pick(0.99)


def paint(app: QApplication) -> None:
    """Deliver the posted updates and paints (a scene change reaches the view through queued calls),
    and delete what ``deleteLater`` marked, as the running event loop does (``processEvents`` alone
    never does: without this the bench would count replaced prompt-bar buttons as a leak)."""
    for _ in range(3):
        app.processEvents()
    app.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def table_play(decisions: int, json_path: Path, new_window: bool = False) -> dict:
    settle_allocator()  # as maester does at launch (app/main.py)
    app = QApplication.instance() or QApplication([])
    games = Games(json_path)
    print(f"4 players, {games.kind}; computer players (TriggerPlayer); window 1600x1000, offscreen")
    setup = GameSetup(names=list(NAMES), decks=["practice:stark"] * 4, privacy=False)
    game = games.next()
    window = TableWindow(setup, game=game, computer_delay_ms=0)
    window.resize(1600, 1000)
    window.show()
    paint(app)
    players = {n: TriggerPlayer(seed=i + 1) for i, n in enumerate(NAMES)}
    samples: dict[str, list[float]] = {"fixed viewer": [], "hotseat": []}
    cpu: dict[str, list[float]] = {"fixed viewer": [], "hotseat": []}
    painting: dict[str, list[float]] = {"fixed viewer": [], "hotseat": []}
    rss: dict[int, float] = {0: settled_rss(app)}
    checkpoints = checkpoints_for(decisions)
    finished = 0
    for n in range(1, decisions + 1):
        ctl = window.controller
        d = game.advance()
        if not isinstance(d, Decision):  # over: a new game in the same window
            finished += 1
            game = games.next()
            if new_window:  # a window per game: what one table costs, whatever New Game keeps of the last one
                window.close()
                window.deleteLater()
                window = TableWindow(setup, game=game, computer_delay_ms=0)
                window.resize(1600, 1000)
                window.show()
                app.processEvents()
            else:
                window.start(setup, game=game)
            paint(app)
            ctl = window.controller
            d = game.advance()
        players[d.player].play_turn(game)
        mode = "fixed viewer" if (n - 1) // BLOCK % 2 == 0 else "hotseat"
        t0, c0 = time.perf_counter(), time.thread_time()
        if mode == "fixed viewer":
            if ctl.viewer != "Alice":
                ctl.viewer = "Alice"
                ctl.seat_changed.emit()
            ctl.note_public()
            ctl.changed.emit()
        else:
            nxt = game.advance()
            who = nxt.player if isinstance(nxt, Decision) else ctl.viewer
            if who == ctl.viewer:
                who = NAMES[(NAMES.index(ctl.viewer) + 1) % len(NAMES)]
            ctl.hands_hidden, ctl.waiting_for = True, who
            ctl.reveal()  # the next seat takes the screen: seat_changed, changed
        c1 = time.thread_time()
        paint(app)
        samples[mode].append((time.perf_counter() - t0) * 1000)
        cpu[mode].append((time.thread_time() - c0) * 1000)
        painting[mode].append((time.thread_time() - c1) * 1000)
        if n in checkpoints:
            rss[n] = settled_rss(app)
            print(f"  {n:6d} decisions: RSS {rss[n]:7.1f} MB ({finished} games finished; card pictures "
                  f"{PICTURES.bytes / 2**20:.1f} MB; {len(window.scene.items()) if hasattr(window, 'scene') else '?'} items)", flush=True)
    window.close()
    return {"samples": samples, "cpu": cpu, "painting": painting, "rss": rss, "finished": finished}


def cold_start(runs: int = 3) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds (user + system of the child) of each run."""
    import resource

    out, cpu = [], []
    env = dict(os.environ, PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen")
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(runs):
            shot = Path(tmp) / f"cold{i}.png"
            t0 = time.perf_counter()
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run([sys.executable, "-c", "import sys; from app.main import main; sys.exit(main())",
                            "--offscreen", "--players", "4", "--no-autosave", "--screenshot", str(shot)],
                           cwd=ROOT, env=env, check=True, capture_output=True)
            out.append(time.perf_counter() - t0)
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu.append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
            if not shot.is_file():
                raise RuntimeError("the cold start drew no table")
    return out, cpu


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decisions", type=int, default=10_000, help="decisions of table play (default 10,000)")
    ap.add_argument("--json", default=str(DEFAULT_JSON), help="the LCG card data")
    ap.add_argument("--no-cold", action="store_true", help="skip the cold start")
    ap.add_argument("--new-window", action="store_true",
                    help="a new window for each game instead of New Game in the same window")
    args = ap.parse_args(argv)
    if not args.no_cold:
        cold, cold_cpu = cold_start()
        print(f"cold start to a drawn table (maester --offscreen --players 4): best {min(cold):.2f} s, "
              f"median {statistics.median(cold):.2f} s wall; CPU best {min(cold_cpu):.2f} s, median "
              f"{statistics.median(cold_cpu):.2f} s   (target <= 1.5 s)", flush=True)
    result = table_play(args.decisions, Path(args.json), args.new_window)
    for what, key in (("wall", "samples"), ("CPU ", "cpu")):
        for mode, target in (("fixed viewer", 16), ("hotseat", 50)):
            s = result[key][mode]
            if not s:
                continue
            med, p90, p99 = percentiles(s)
            miss = sum(1 for x in s if x > 16) / len(s)
            print(f"UI update after a decision ({what}), {mode:12s}: median {med:6.1f} ms, p90 {p90:6.1f} ms, "
                  f"p99 {p99:6.1f} ms  ({len(s)} decisions, {miss:.0%} over 16 ms; target p90 <= {target} ms)")
    for mode in ("fixed viewer", "hotseat"):
        s = result["painting"][mode]
        if s:
            med, p90, p99 = percentiles(s)
            print(f"  of which painting (CPU, the posted updates and paints; no engine), {mode:12s}: median {med:6.1f} ms, "
                  f"p90 {p90:6.1f} ms, p99 {p99:6.1f} ms")
    rss = result["rss"]
    if 1000 in rss and args.decisions in rss and args.decisions != 1000:
        growth = (rss[args.decisions] - rss[1000]) / rss[1000]
        print(f"RSS: {rss[0]:.1f} MB at the start, {rss[1000]:.1f} MB after 1,000 decisions, "
              f"{rss[args.decisions]:.1f} MB after {args.decisions:,} ({growth:+.0%}; target within +-10%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
