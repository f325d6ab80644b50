"""N concurrent bot games on one server process: answers per second, answer latency, memory per game.

    python bench/bench_server.py --games 50 [--seconds 60] [--players 2]

The server runs as its own process (``python -m server`` on a free loopback port, a fresh data folder);
this process runs 2 bot clients per game (``server.bot.NetBot`` picking from the decision message, with
stop settings that pass every optional window but marshalling). Printed: games, answers acknowledged,
answers per second, the latency of an answer (sent -> ``ack``, which comes after the answer is applied,
the computer answers and passes after it run, and everything is stored) at p50/p99, and the server's
resident memory per game (after the games started, less before). The clients share this process's CPU
with nothing else, but on a 2-core machine they compete with the server for the cores: the server's
own numbers are better than what is printed. Games that end are started again.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from server.bot import NetBot  # noqa: E402
from server.client import Client, SeatSpec, Stops  # noqa: E402

QUIET = Stops(actions=["marshalling"], responses=False, saves=False)
NAMES = ("Alice", "Bob", "Carol", "Dave")


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def one_game(url: str, players: int, seed: int, stop: float, all_bots: list) -> None:
    """Games one after the other (a game that ends is followed by a new one) until ``stop``."""
    while time.monotonic() < stop:
        clients = [Client(url, timeout=120) for _ in range(players)]
        for c in clients:
            await c.connect()
        decks = ("practice:stark", "practice:lannister")
        me = await clients[0].create([SeatSpec(NAMES[i], decks[i % 2]) for i in range(players)])
        for c in clients[1:]:
            await c.join(me.invite)
        for c in clients:
            await c.set_stops(QUIET)
        bots = [NetBot(c, seed * 10 + i, rebuild=False) for i, c in enumerate(clients)]
        all_bots.extend(bots)
        try:
            await asyncio.wait_for(asyncio.gather(*(b.play(timeout=120) for b in bots)),
                                   max(0.1, stop - time.monotonic()))
        except asyncio.TimeoutError:
            pass
        for c in clients:
            c._closing = True
            asyncio.ensure_future(c.close())
        seed += 1000


async def bench(games: int, seconds: float, players: int) -> None:
    asyncio.get_running_loop().set_exception_handler(lambda loop, ctx: None)  # bots cut off at the end
    data = Path(tempfile.mkdtemp(prefix="maester-bench-"))
    env = dict(os.environ, PYTHONPATH=str(ROOT), MAESTER_HOME=str(data / "home"))
    proc = subprocess.Popen([sys.executable, "-m", "server", "--port", "0", "--data", str(data)], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        port = int(proc.stdout.readline().rsplit(" ", 1)[1])
        url = f"ws://127.0.0.1:{port}"
        base = rss_kib(proc.pid)
        all_bots: list[NetBot] = []
        start = time.monotonic()
        stop = start + seconds
        tasks = [asyncio.create_task(one_game(url, players, i, stop, all_bots)) for i in range(games)]
        await asyncio.sleep(min(seconds / 2, 30))
        mid = rss_kib(proc.pid)
        await asyncio.sleep(max(0.0, stop - time.monotonic()))
        wall = time.monotonic() - start
        cpu = sum(float(x) for x in Path(f"/proc/{proc.pid}/stat").read_text().split()[13:15]) / os.sysconf("SC_CLK_TCK")
        done, pending = await asyncio.wait(tasks, timeout=5)  # the last answers' bookkeeping
        for t in pending:
            t.cancel()
        lat = sorted(x for b in all_bots for x in b.latencies)
        answers = sum(b.answered for b in all_bots)
        print(f"games {games} x {players} players, {wall:.0f} s: {answers} answers acknowledged, "
              f"{answers / wall:.1f} answers/s ({answers / max(cpu, 1e-9):.1f} per server CPU second)")
        if lat:
            p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))]
            print(f"answer latency p50 {statistics.median(lat) * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms")
        print(f"server memory: {base / 1024:.0f} MiB at start, {mid / 1024:.0f} MiB with the games running: "
              f"{(mid - base) / games / 1024:.2f} MiB per game")
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    args = ap.parse_args()
    asyncio.run(bench(args.games, args.seconds, args.players))
    sys.stdout.flush()
    os._exit(0)  # the cut-off bots' tasks need no orderly end


if __name__ == "__main__":
    main()
