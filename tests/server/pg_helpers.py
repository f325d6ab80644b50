"""A real, throwaway PostgreSQL server for the storage tests: Debian's ``postgresql`` package (initdb and
pg_ctl), a temporary data folder, listening only on 127.0.0.1 on a free port. As root (CI), the server
runs as the ``postgres`` user (initdb refuses root). Every step has a bounded time."""
from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path


def find_bin() -> Path | None:
    """The folder of ``initdb``/``pg_ctl``: on PATH, else Debian's newest /usr/lib/postgresql/N/bin."""
    on_path = shutil.which("initdb")
    if on_path and shutil.which("pg_ctl"):
        return Path(on_path).parent
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4])
                   if p.split("/")[4].isdigit() else 0)
    return Path(found[-1]).parent if found else None


def why_not() -> str | None:
    """Why no PostgreSQL test can run here (None: they can)."""
    try:
        import pg8000  # noqa: F401
    except ImportError:
        return "the pg8000 driver is not installed (pip install -e '.[test]' or '.[postgres]')"
    if find_bin() is None:
        return "no PostgreSQL server programs (initdb, pg_ctl): install Debian's postgresql package"
    if os.geteuid() == 0:
        try:
            import pwd
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no 'postgres' user to run the server as"
        if shutil.which("runuser") is None:
            return "running as root and there is no runuser to run the server as 'postgres'"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PostgresServer:
    """``start()`` → a running server; ``url(db)`` a URL for a new database; ``stop()`` removes it all."""

    def __init__(self):
        self.bin = find_bin()
        self.dir = Path(tempfile.mkdtemp(prefix="maester-pg-"))
        self.data = self.dir / "data"
        self.port = _free_port()
        self.user = "postgres"
        self.running = False
        self.n = 0

    def _run(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess:
        prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        env = dict(os.environ, LC_ALL="C", LANG="C")
        return subprocess.run(prefix + [str(self.bin / args[0]), *args[1:]], cwd=self.dir, env=env,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout)

    def start(self) -> "PostgresServer":
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres")
        else:
            self.user = os.environ.get("USER") or "postgres"
        steps = [("initdb", "-D", str(self.data), "-A", "trust", "-U", self.user, "-E", "UTF8", "--locale=C",
                  "--no-sync"),
                 ("pg_ctl", "-D", str(self.data), "-l", str(self.dir / "log"), "-w", "-t", "60", "-o",
                  f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.dir} -c fsync=off", "start")]
        for step in steps:
            out = self._run(*step, timeout=90)
            if out.returncode != 0:
                log = (self.dir / "log").read_text(errors="replace")[-2000:] if (self.dir / "log").exists() else ""
                self.stop()
                raise RuntimeError(f"{step[0]} failed ({out.returncode}): {out.stdout[-1000:]} "
                                   f"{out.stderr[-1000:]} {log}")
            self.running = step[0] == "pg_ctl"
        return self

    def url(self, db: str | None = None) -> str:
        """A new empty database (or ``db``) on this server, as a ``postgresql://`` URL."""
        import pg8000.dbapi

        if db is None:
            self.n += 1
            db = f"t{self.n}"
            con = pg8000.dbapi.connect(user=self.user, host="127.0.0.1", port=self.port, database="postgres",
                                       timeout=30)
            con.autocommit = True
            con.cursor().execute(f"CREATE DATABASE {db}")
            con.close()
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{db}"

    def stop(self) -> None:
        if self.running:
            for mode in ("fast", "immediate"):
                try:
                    if self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "30", "stop",
                                 timeout=45).returncode == 0:
                        break
                except subprocess.TimeoutExpired:
                    pass
            self.running = False
        shutil.rmtree(self.dir, ignore_errors=True)
