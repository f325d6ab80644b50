"""How long the table takes to draw each view an online game sends it (the UI thread's time).

A real server (``python -m server`` on a free loopback port), two tables (Alice hosts, Bob joins with the
invite code), a whole game answered through each table's controls (``tests/app/test_online.py`` ``Seat``),
with the server's stop settings at "never for optional windows". Each view's time is from its arrival in
the UI thread to the table redrawn (rebuilding the read-only game from the view, the scene, the prompt bar,
the log). Prints the views drawn, the answers, and the median, p90 and largest time per view.

    QT_QPA_PLATFORM=offscreen python3 bench/bench_online_table.py
"""
from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    data = Path(tempfile.mkdtemp(prefix="maester-bench-online-"))
    (data / "server").mkdir()
    os.environ["MAESTER_HOME"] = str(data / "home")
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])
    import app.online as online
    from app import online_dialogs as od
    from app.window import TableWindow
    from server.protocol import SeatSpec
    from tests.app.test_online import Seat, Server

    times: list[float] = []
    take = online.OnlineGame._take

    def timed(self, *args, **kw):
        t = time.perf_counter()
        take(self, *args, **kw)
        times.append(time.perf_counter() - t)

    online.OnlineGame._take = timed
    srv = Server(data / "server")
    srv.start()

    def spin(cond, limit: float = 600.0) -> None:
        t0 = time.monotonic()
        while not cond():
            if time.monotonic() - t0 > limit:
                raise SystemExit("bench_online_table: the game did not finish in time")
            app.processEvents()
            time.sleep(0.002)

    try:
        a, b = TableWindow(computer_delay_ms=0), TableWindow(computer_delay_ms=0)
        for w in (a, b):
            w.resize(1600, 1000)
            w.show()
        host = od.host(a, srv.url, [SeatSpec(name="Alice", deck="practice:stark"),
                                    SeatSpec(name="Bob", deck="practice:lannister")], {"my_seat": 0})
        spin(lambda: host.invite is not None)
        guest = od.join(b, srv.url, host.invite)
        spin(lambda: a.online is host and b.online is guest)
        for w in (a, b):
            w.controller.set_stops("never")
        seats = Seat(a, 1), Seat(b, 2)
        t0 = time.monotonic()
        spin(lambda: (seats[0].step(), seats[1].step(),
                      a.controller.result is not None and b.controller.result is not None)[-1])
        wall = time.monotonic() - t0
        times.sort()
        print(f"views drawn: {len(times)} (two tables); answers from the tables: {sum(s.sent for s in seats)}; "
              f"answers in the game: {a.controller.view.at}; {wall:.1f} s")
        print(f"UI time per view: median {1000 * statistics.median(times):.1f} ms, "
              f"p90 {1000 * times[int(len(times) * 0.9)]:.1f} ms, largest {1000 * times[-1]:.1f} ms")
        a.close()
        b.close()
    finally:
        srv.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
