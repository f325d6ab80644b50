"""``maester-server`` (or ``python -m server``): run the Maester server (docs/server.md)."""
from __future__ import annotations

import argparse
import asyncio
import logging
import os
import ssl
import sys
from pathlib import Path


def default_data_dir() -> Path:
    from cards.pool import user_data_dir

    return user_data_dir() / "server"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="maester-server", description="Host Maester games online.")
    ap.add_argument("--host", default="127.0.0.1", help="address to listen on (0.0.0.0: every interface)")
    ap.add_argument("--port", type=int, default=8765, help="port (0: any free one; the chosen one is printed)")
    ap.add_argument("--data", type=Path, default=None, help="data folder (games.sqlite3); default: the user data "
                                                            "folder's server/")
    ap.add_argument("--cert", type=Path, help="TLS certificate (PEM); with --key the server speaks wss://")
    ap.add_argument("--key", type=Path, help="TLS private key (PEM)")
    ap.add_argument("--sync", choices=("normal", "full"), default="normal",
                    help="SQLite synchronous mode: normal survives a killed process, full also a power cut")
    ap.add_argument("--store", metavar="URL", help="postgresql://user@host:port/database: a PostgreSQL database "
                                                   "shared by several server processes (default: SQLite in --data)")
    ap.add_argument("--drain", action="store_true", help="take no new games (upgrades: docs/server.md)")
    ap.add_argument("--check", action="store_true", help="replay every stored game, report, and exit")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s", stream=sys.stderr)

    from server.app import Server, print_ready

    data = args.data or default_data_dir()
    ctx = None
    if args.cert or args.key:
        if not (args.cert and args.key):
            print("maester-server: --cert and --key go together", file=sys.stderr)
            return 2
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        try:
            ctx.load_cert_chain(args.cert, args.key)
        except (OSError, ssl.SSLError) as err:
            print(f"maester-server: cannot load the certificate/key: {err}", file=sys.stderr)
            return 2
    from server.store import StoreError, open_store

    try:
        store = open_store(args.store, data, sync=args.sync) if args.store else None
    except StoreError as err:
        print(f"maester-server: {err}", file=sys.stderr)
        return 2
    try:
        server = Server(data, store=store, sync=args.sync, draining=args.drain)
    except Exception as err:  # noqa: BLE001 - one line, no traceback
        print(f"maester-server: cannot open the data folder {data}: {err}", file=sys.stderr)
        return 2
    if args.check:
        server.load_all(("waiting", "playing", "over", "ended"))
        for text in server.problems:
            print(text)
        print(f"{len(server.rooms)} games loaded, {len(server.problems)} problem(s)")
        return 1 if server.problems else 0
    try:
        asyncio.run(server.serve(args.host, args.port, ssl=ctx, ready=print_ready))
    except KeyboardInterrupt:
        return 0
    except OSError as err:
        print(f"maester-server: cannot listen on {args.host}:{args.port}: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(os.sys.argv[1:]))
