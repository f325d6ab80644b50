"""Starting real servers on loopback for the server tests: in this process, or as a subprocess (kill -9)."""
from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
from pathlib import Path

from server.app import Server
from server.client import Client, SeatSpec, Stops

ROOT = Path(__file__).resolve().parents[2]
QUIET = Stops(actions=["marshalling"], responses=False, saves=False)
"""Stop settings that keep a bot's round trips few (every optional window but marshalling is passed)."""


def run(coro, timeout: float = 240.0):
    """Run a test's coroutine with a bound on its time (a hang fails, it never blocks CI)."""
    return asyncio.run(asyncio.wait_for(coro, timeout))


@contextlib.asynccontextmanager
async def local_server(data_dir, **kwargs):
    """A real server on 127.0.0.1 (a free port) in this event loop; yields (server, url)."""
    srv = Server(data_dir, **kwargs)
    ready = asyncio.get_running_loop().create_future()
    task = asyncio.create_task(srv.serve("127.0.0.1", 0, ready=ready.set_result))
    port = await asyncio.wait_for(ready, 30)
    try:
        yield srv, f"ws://127.0.0.1:{port}"
    finally:
        task.cancel()
        with contextlib.suppress(BaseException):
            await task
        srv.store.close()


class ServerProcess:
    """``python -m server`` in a subprocess (so it can be killed with SIGKILL)."""

    def __init__(self, data_dir, port: int = 0):
        self.data_dir, self.port, self.proc = Path(data_dir), port, None

    def start(self) -> int:
        env = dict(os.environ, PYTHONPATH=str(ROOT), MAESTER_HOME=str(self.data_dir / "home"))
        self.proc = subprocess.Popen([sys.executable, "-m", "server", "--port", str(self.port), "--data",
                                      str(self.data_dir)], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True)
        line = self.proc.stdout.readline()  # "maester-server: listening on port N"
        if "listening on port" not in line:
            self.proc.kill()
            raise RuntimeError(f"the server did not start: {line!r}")
        self.port = int(line.rsplit(" ", 1)[1])
        return self.port

    def kill9(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


async def two_seats(url: str, **options) -> tuple[Client, Client]:
    a, b = Client(url), Client(url)
    await a.connect()
    await b.connect()
    me = await a.create([SeatSpec("Alice", "practice:stark"), SeatSpec("Bob", "practice:lannister")], **options)
    await b.join(me.invite)
    return a, b


async def settle(*clients: Client) -> None:
    """Let every queued message arrive (the loopback is fast; a bounded wait)."""
    for c in clients:
        for _ in range(50):
            if c.view is not None:
                break
            await asyncio.sleep(0.02)
