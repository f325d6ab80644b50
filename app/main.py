"""The ``maester`` command: opens the table, or plays and photographs one headless.

    maester                                   a new practice game, Alice and Bob at one screen
    maester --computer Bob                    play against the computer
    maester --prompt bob:always               stop for Bob in every window (legal, always, never)
    maester --scenario tests/scenarios/timing/mor-catelyn-never-surrender-price-of-failure.yaml
    maester --offscreen --autoplay 40 --screenshot /tmp/table.png
                                              the computer plays 40 decisions; save a PNG of the table
"""
from __future__ import annotations

import argparse
import os
import sys

from app.dialogs import DEFAULT_NAMES, PRACTICE, GameSetup


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="maester", description="A table for the first-edition A Game of Thrones "
                                                             "card game.")
    ap.add_argument("--players", type=int, default=2, choices=(2, 3, 4), help="number of players (2-4)")
    ap.add_argument("--names", nargs="+", help="player names, in seat order")
    ap.add_argument("--deck", action="append", default=[],
                    help="a deck file for the next seat (repeat per seat); practice decks otherwise")
    ap.add_argument("--computer", action="append", default=[], metavar="NAME",
                    help="a seat the computer plays (repeatable)")
    ap.add_argument("--scenario", metavar="PATH", help="open a scenario file's position (its players and cards)")
    ap.add_argument("--ruleset", choices=("lcg", "ccg-winter"), default="lcg")
    ap.add_argument("--mode", choices=("enforce", "advise"), default="enforce")
    ap.add_argument("--seed", type=int, help="random seed (a random one when absent)")
    ap.add_argument("--no-privacy", action="store_true", help="do not hide hands between hotseat players")
    ap.add_argument("--prompt", action="append", default=[], metavar="[NAME:]WHEN",
                    help="when the table stops for a player: legal (when he has a legal play, the default), "
                         "always (every window), never (never for optional windows); without NAME, for "
                         "everyone (repeatable)")
    ap.add_argument("--images", metavar="DIR", help="a folder of your own card images (by card key or name)")
    ap.add_argument("--offscreen", action="store_true", help="no window (Qt's offscreen platform)")
    ap.add_argument("--autoplay", type=int, default=0, metavar="N",
                    help="let the computer answer every seat for N decisions first")
    ap.add_argument("--stop-at", metavar="KIND", help="stop autoplay at the first decision of this kind "
                                                      "(plot, action, challenge, defend, choose...)")
    ap.add_argument("--screenshot", metavar="PATH", help="save a PNG of the table and exit")
    ap.add_argument("--size", default="1600x1000", help="window size for the screenshot, WxH")
    return ap.parse_args(argv)


def setup_from_args(args: argparse.Namespace) -> GameSetup:
    names = list(args.names or DEFAULT_NAMES[:args.players])
    if len(names) != args.players and args.names:
        args.players = len(names)
    decks = [args.deck[i] if i < len(args.deck) else PRACTICE[i % 2] for i in range(len(names))]
    return GameSetup(names=names, decks=decks, computer=list(args.computer), ruleset=args.ruleset,
                     mode=args.mode, seed=args.seed if args.seed is not None else (0 if args.screenshot else None),
                     privacy=not args.no_privacy, scenario=args.scenario,
                     prompting=parse_prompting(args.prompt, names, strict=not args.scenario))


def parse_prompting(items: list[str], names: list[str], strict: bool = True) -> dict[str, str]:
    """``--prompt alice:always --prompt never`` -> {"*": "never", "Alice": "always"}: names match whatever
    their case; a setting without a name is everyone's (``*``), a named one wins."""
    from app.controller import PROMPTING

    out: dict[str, str] = {}
    named: dict[str, str] = {}
    for item in items:
        who, _, when = item.rpartition(":")
        when = when.strip().lower()
        if when not in PROMPTING:
            raise SystemExit(f"maester: --prompt {item}: say one of {', '.join(PROMPTING)}")
        if not who:
            out["*"] = when
            continue
        match = [n for n in names if n.casefold() == who.strip().casefold()]
        if not match and not strict:  # a scenario names its own players
            match = [who.strip()]
        if not match:
            raise SystemExit(f"maester: --prompt {item}: no player named {who} ({', '.join(names)})")
        named[match[0]] = when
    out.update(named)
    return out


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.offscreen:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from PySide6.QtWidgets import QApplication

    from app.card_item import CardImages
    from app.window import TableWindow
    from cards.errors import DataError

    app = QApplication.instance() or QApplication(sys.argv[:1])
    setup = setup_from_args(args)
    try:
        game = setup.build()
    except (DataError, OSError, ValueError) as err:
        print(f"maester: cannot start the game: {err}", file=sys.stderr)
        return 2
    headless = bool(args.screenshot)
    window = TableWindow(setup, images=CardImages(args.images), game=game,
                         computer_delay_ms=0 if headless else 350)
    if args.autoplay:
        played = window.controller.autoplay(args.autoplay, stop_at=args.stop_at, seed=setup.seed or 0)
        print(f"maester: autoplay answered {played} decisions; {_where(window)}")
    if headless:
        w, _, h = args.size.partition("x")
        window.resize(int(w), int(h))
        window.show()
        app.processEvents()
        window.view.fit()
        if not window.grab_table(args.screenshot):
            print(f"maester: could not save {args.screenshot}", file=sys.stderr)
            return 1
        print(f"maester: saved {args.screenshot}")
        window.close()
        return 0
    window.show()
    return app.exec()


def _where(window) -> str:
    ctl = window.controller
    st = ctl.game.state
    d = ctl.decision
    now = f"{d.kind} of {d.player}" if d is not None else f"game over ({st.winner} wins)"
    return f"round {st.round}, {st.phase} phase, next: {now}"


if __name__ == "__main__":
    sys.exit(main())
