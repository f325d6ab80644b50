"""The ``maester`` command: opens the table, or plays and photographs one headless.

    maester                                   a new practice game, Alice and Bob at one screen
    maester --computer Bob                    play against the computer
    maester --computer Bob:strong             ... at the strong level (random, normal, strong)
    maester --prompt bob:always               stop for Bob in every window (legal, always, never)
    maester --scenario tests/scenarios/timing/mor-catelyn-never-surrender-price-of-failure.yaml
    maester --offscreen --autoplay 40 --screenshot /tmp/table.png
                                              the computer plays 40 decisions; save a PNG of the table
    maester --join ws://host:8765/CODE        join an online game (docs/table.md "Play online")
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
    ap.add_argument("--computer", action="append", default=[], metavar="NAME[:LEVEL]",
                    help="a seat the computer plays (repeatable); LEVEL is random, normal (the default) "
                         "or strong, e.g. --computer Bob:strong")
    ap.add_argument("--goldfish", metavar="DECK",
                    help="practise DECK (a deck file, practice:stark or practice:lannister) against a goldfish: "
                         "a seat with no cards; each round's gold, cards played and power are summarised")
    ap.add_argument("--scenario", metavar="PATH", help="open a scenario file's position (its players and cards)")
    ap.add_argument("--tutorial", metavar="NAME", help="open a lesson (its name or number; python -m engine.tutorial "
                                                       "lists them) or any scenario file as a tutorial")
    ap.add_argument("--ruleset", choices=("lcg", "ccg-winter"),
                    help="the rules: lcg (with Taxation) or ccg-winter; by default the era's (--era ccg: "
                         "ccg-winter), else lcg")
    ap.add_argument("--mode", choices=("enforce", "advise"), default="enforce")
    ap.add_argument("--era", choices=("ccg", "lcg"),
                    help="only decks of this era: ccg (Winter Edition to Five Kings Edition) or lcg")
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
    ap.add_argument("--open", metavar="SAVE", help="open a saved game (Game \u25b8 Save\u2026 writes them)")
    ap.add_argument("--resume", action="store_true", help="resume the autosaved game without asking")
    ap.add_argument("--no-resume", action="store_true", help="do not offer to resume the autosaved game")
    ap.add_argument("--no-autosave", action="store_true", help="do not autosave after every answer")
    ap.add_argument("--join", metavar="LINK-OR-CODE",
                    help="join an online game: its invite link ws://HOST:PORT/CODE, or the CODE with --server "
                         "(--deck: bring your own deck)")
    ap.add_argument("--server", metavar="URL", help="the Maester server for --join CODE (ws://HOST:PORT; "
                                                    "default: the last one used, else ws://127.0.0.1:8765)")
    return ap.parse_args(argv)


def setup_from_args(args: argparse.Namespace) -> GameSetup:
    if args.goldfish:
        from app.dialogs import GOLDFISH

        you = (args.names or ["You"])[0]
        _check_names([you])
        other = "Goldfish" if you.casefold() != "goldfish" else "Fish"
        return GameSetup(names=[you, other], decks=[args.goldfish, GOLDFISH], computer=[other],
                         levels={other: "random"}, ruleset=args.ruleset, mode=args.mode, era=args.era,
                         seed=args.seed if args.seed is not None else (0 if args.screenshot else None),
                         privacy=False, prompting=parse_prompting(args.prompt, [you, other]))
    names = list(args.names or DEFAULT_NAMES[:args.players])
    if len(names) != args.players and args.names:
        args.players = len(names)
    _check_names(names)
    decks = [args.deck[i] if i < len(args.deck) else PRACTICE[i % 2] for i in range(len(names))]
    computer, levels = parse_computers(args.computer, names)
    return GameSetup(names=names, decks=decks, computer=computer, levels=levels, ruleset=args.ruleset,
                     mode=args.mode, era=args.era,
                     seed=args.seed if args.seed is not None else (0 if args.screenshot else None),
                     privacy=not args.no_privacy, scenario=args.scenario,
                     prompting=parse_prompting(args.prompt, names, strict=not args.scenario))


def _check_names(names: list[str]) -> None:
    """``--names``: the one check of player names (``engine.decisions.names_problem``), or exit saying why."""
    from engine.decisions import names_problem

    problem = names_problem(names)
    if problem:
        raise SystemExit(f"maester: --names: {problem}")


def parse_computers(items: list[str], names: list[str]) -> tuple[list[str], dict[str, str]]:
    """``["Bob:strong", "carol"]`` -> (["Bob", "Carol"], {"Bob": "strong", "Carol": "heuristic"}): a name
    matches a seat whatever its case; the level is ``engine.ai``'s (``normal`` is ``heuristic``)."""
    from engine.ai import level_name

    computer, levels = [], {}
    for item in items:
        name, _, level = item.partition(":")
        seat = next((n for n in names if n.casefold() == name.strip().casefold()), name.strip())
        try:
            levels[seat] = level_name(level or None)
        except ValueError as err:
            raise SystemExit(f"maester: --computer {item}: {err}") from None
        if seat not in computer:
            computer.append(seat)
    return computer, levels


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


QT_LIBS_HINT = ("Qt needs a few system libraries on a bare Linux: on Debian or Ubuntu, "
                "sudo apt install libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-shape0 "
                "libxkbcommon-x11-0 libegl1 (or run with --offscreen)")


def platform_problem(env: dict | None = None, find=None) -> str | None:
    """Why Qt's window platform cannot start here, said before Qt aborts the process with its own
    message (a missing X11 library, or no display at all); None when it looks fine."""
    import ctypes.util

    env = os.environ if env is None else env
    find = find or ctypes.util.find_library
    platform = env.get("QT_QPA_PLATFORM", "")
    if platform in ("offscreen", "minimal") or not sys.platform.startswith("linux"):
        return None
    if not platform and not env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY"):
        return "no display to open a window on (DISPLAY and WAYLAND_DISPLAY are unset); " + QT_LIBS_HINT
    if platform in ("", "xcb") and not env.get("WAYLAND_DISPLAY"):
        missing = [lib for lib in ("xcb-cursor", "xcb-icccm", "xkbcommon-x11") if find(lib) is None]
        if missing:
            return f"the X11 libraries {', '.join('lib' + m for m in missing)} are missing; " + QT_LIBS_HINT
    return None


MMAP_THRESHOLD = 128 * 1024
"""Allocations from this size up get their own pages, given back to the system when freed."""


def settle_allocator() -> bool:
    """Keep large short-lived buffers out of the C heap (glibc only; elsewhere nothing happens).

    Painting allocates large transient buffers (layers, scaled images, backing stores). glibc raises its
    mmap threshold each time such a buffer is freed, so the next ones land in the heap, where a few small
    blocks allocated after them pin the pages: the process grew by 60-80 MB over some games of play while
    what it used stayed flat. A fixed threshold (glibc's default, made fixed) keeps them in pages of
    their own. Returns whether it was set."""
    import ctypes
    import ctypes.util

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    M_MMAP_THRESHOLD = -3
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD))


def main(argv: list[str] | None = None) -> int:
    from cards.files import tolerant_console

    tolerant_console()  # names printed with control characters escaped
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.offscreen:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    size = args.size.partition("x")
    if not (size[0].isdigit() and size[2].isdigit() and len(size[0]) <= 6 and len(size[2]) <= 6 and 200 <= int(size[0]) <= 10000
            and 200 <= int(size[2]) <= 10000):
        from cards.errors import clip

        print(f"maester: --size {clip(repr(args.size), 60)}: expected WIDTHxHEIGHT in pixels, e.g. 1600x1000", file=sys.stderr)
        return 2
    problem = platform_problem()
    if problem:
        print(f"maester: cannot open a window: {problem}", file=sys.stderr)
        return 2
    join = None
    if args.join:
        from app.online import SeatBook, parse_target

        try:
            join = parse_target(args.join, args.server or SeatBook().server)
            deck = None
            if args.deck:
                from app.online_dialogs import read_deck_text

                deck = read_deck_text(args.deck[0])
        except ValueError as err:
            print(f"maester: --join: {err}", file=sys.stderr)
            return 2
        args.deck, args.no_resume = [], True
    from PySide6.QtWidgets import QApplication

    from app import session as saves
    from app.card_item import CardImages
    from app.window import TableWindow
    from cards.errors import DataError

    settle_allocator()
    app = QApplication.instance() or QApplication(sys.argv[:1])
    if args.tutorial:
        return _tutorial(app, args)
    headless = bool(args.screenshot)
    # --autoplay N with no window to look at (offscreen) and no screenshot: play N decisions, then exit
    batch = bool(args.autoplay) and not headless and os.environ.get("QT_QPA_PLATFORM") == "offscreen"
    autosaving = not (headless or batch or args.no_autosave)
    folder = saves.data_dir()
    no_autosave = saves.folder_problem(folder) if autosaving else None
    if no_autosave:
        print(f"maester: {no_autosave}", file=sys.stderr)
        autosaving = False
    if autosaving:
        saves.clean_orphans(folder)  # temporary files a killed Maester left behind
    loaded = None
    try:
        if args.open:
            loaded = saves.read_save(args.open)
        elif autosaving and not args.no_resume and not args.scenario:
            loaded = _offer_resume(args.resume, setup_from_args(args), asked_for(args))
    except DataError as err:
        print(f"maester: {err}", file=sys.stderr)
        if args.open:
            return 2
    autosave = None
    if autosaving:  # this table's own autosave: no other running table writes it (app/session.py)
        autosave = loaded.slot if loaded is not None and loaded.slot else saves.claim_autosave(folder)
        if autosave is None:
            no_autosave = (f"{saves.SLOTS} other tables are autosaving in {folder}; this game is not autosaved "
                           f"(close one of them, or set MAESTER_HOME to another folder)")
            print(f"maester: {no_autosave}", file=sys.stderr)
    if loaded is not None:
        if args.prompt:  # asked on the command line: it replaces the settings the game was saved with
            loaded.info.prompting = parse_prompting(args.prompt, loaded.info.names, strict=False)
        setup, game, info = loaded.info.setup(seed=loaded.game.state.seed), loaded.game, loaded.info
    else:
        setup, info = setup_from_args(args), None
        problems = setup.deck_problems()
        if problems:
            for p in problems:
                print(f"maester: illegal deck: {p}", file=sys.stderr)
            if setup.mode != "advise":
                print("maester: fix the deck, or start with --mode advise to play it anyway (casual)",
                      file=sys.stderr)
                return 2
            print("maester: advise mode: playing it anyway (casual)", file=sys.stderr)
        try:
            game = setup.build()
        except (DataError, OSError, ValueError) as err:
            print(f"maester: cannot start the game: {err}", file=sys.stderr)
            return 2
    window = TableWindow(setup, images=CardImages(args.images), game=game, info=info, autosave=autosave,
                         computer_delay_ms=0 if headless or batch else 350)
    if loaded is not None and loaded.warning:
        print(f"maester: {loaded.warning}", file=sys.stderr)
        window.controller.say(loaded.warning, "warning")
    if no_autosave:
        window.controller.say(no_autosave[0].upper() + no_autosave[1:] + ".", "warning")
    if args.autoplay:
        played = window.controller.autoplay(args.autoplay, stop_at=args.stop_at, seed=setup.seed or 0)
        print(f"maester: autoplay answered {played} decisions; {_where(window)}")
    if batch:
        window.close()
        return 0
    if join is not None:
        from app.online_dialogs import join as join_game

        join_game(window, join[0], join[1], None, deck)  # the table switches once the game's view arrives
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


def asked_for(args: argparse.Namespace) -> set[str]:
    """What the command line asks of the game's seats: ``computer``, ``names``, ``players`` (how many),
    ``decks``."""
    asked = set()
    if args.computer or args.goldfish:
        asked.add("computer")
    if args.names or args.goldfish:
        asked.add("names")
    if args.players != 2:
        asked.add("players")
    if args.deck or args.goldfish:
        asked.add("decks")
    return asked


def conflict(info, setup: GameSetup, asked: set[str]) -> str | None:
    """How an autosaved game (its ``TableInfo``) differs from what the command line asked for (``setup``,
    ``asked``: ``asked_for``), or None: such a game is not offered, so *Yes* never drops a computer seat,
    a name or a deck the player asked for."""
    if info is None:
        return None

    def seats(computer, levels) -> str:
        from engine.ai import level_name

        return ", ".join(f"{n} ({level_name(levels.get(n))})" for n in computer) or "no computer seat"

    if "computer" in asked:
        theirs = {n.casefold(): info.levels.get(n, "heuristic") for n in info.computer}
        mine = {n.casefold(): setup.levels.get(n, "heuristic") for n in setup.computer}
        if theirs != mine:
            return (f"it is played with {seats(info.computer, info.levels)}, and --computer asks "
                    f"for {seats(setup.computer, setup.levels)}")
    if "names" in asked and [n.casefold() for n in info.names] != [n.casefold() for n in setup.names]:
        return f"its players are {', '.join(info.names)}, not {', '.join(setup.names)}"
    if "players" in asked and len(info.names) != len(setup.names):
        return f"it is a game of {len(info.names)} players, not {len(setup.names)}"
    if "decks" in asked and info.decks and list(info.decks) != list(setup.decks):
        return "it is played with other decks than --deck asks for"
    return None


def _offer_resume(without_asking: bool, wanted: GameSetup | None = None, asked: set[str] = frozenset()):
    """The autosaved game the player wants back, its autosave slot taken for this table, or None.
    Every unfinished game no running table holds is offered, the latest first ("Resume the game from
    <time>?"), except one that conflicts with what the command line asked for (``conflict``): that one
    is said and kept for a later start. A declined game is kept as ``autosave-previous.json``."""
    from PySide6.QtWidgets import QMessageBox

    from app import session as saves
    from cards.errors import DataError

    interactive = not without_asking and os.environ.get("QT_QPA_PLATFORM") != "offscreen"
    for found in saves.find_recoveries():
        if isinstance(found, DataError):
            print(f"maester: {found}", file=sys.stderr)
            if interactive:
                QMessageBox.warning(None, "Maester", f"An autosave could not be read:\n{found}")
            continue
        why = conflict(found.info, wanted, asked) if wanted is not None else None
        if why:
            print(f"maester: the game from {found.when} ({found.summary}) is not resumed: {why}; it stays in "
                  f"{found.path} for a start that does not ask otherwise", file=sys.stderr)
            continue
        if not without_asking:
            box = QMessageBox(QMessageBox.Icon.Question, "Maester", found.question)
            box.setInformativeText(f"{found.summary}.\nNo: it is kept as {saves.PREVIOUS_NAME} "
                                   f"(Game \u25b8 Open\u2026).")
            box.setStandardButtons(QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
            box.setDefaultButton(QMessageBox.StandardButton.Yes)
            if box.exec() != QMessageBox.StandardButton.Yes:
                saves.set_aside(path=found.path)
                continue
        if saves.claim_autosave(found.path.parent, found.path) is None:
            continue  # another table has just taken it up
        try:
            loaded = saves.read_save(found.path)
        except DataError:
            saves.release_autosave(found.path)
            saves.set_aside(path=found.path, name=saves.DAMAGED_NAME)  # kept, never overwriting another
            raise
        loaded.slot = found.path
        return loaded
    return None


def _tutorial(app, args: argparse.Namespace) -> int:
    """``--tutorial NAME``: the lesson (or scenario file) in the tutorial player."""
    from app.card_item import CardImages
    from app.tutorial import open_tutorial
    from app.window import TableWindow
    from cards.errors import DataError
    from engine.scenario import ScenarioError
    from engine.tutorial import find_lesson

    try:
        path = find_lesson(args.tutorial)
    except FileNotFoundError as err:
        print(f"maester: {err}", file=sys.stderr)
        return 2
    window = TableWindow(images=CardImages(args.images), computer_delay_ms=0)
    try:
        panel = open_tutorial(window, path)
    except (ScenarioError, DataError, OSError, ValueError) as err:
        print(f"maester: cannot open the tutorial {path}: {err}", file=sys.stderr)
        return 2
    if args.screenshot:
        for _ in range(args.autoplay):  # --autoplay N: N steps forward first
            panel.forward()
        w, _, h = args.size.partition("x")
        window.resize(int(w), int(h))
        window.show()
        app.processEvents()
        window.view.fit()
        ok = window.grab_table(args.screenshot)
        window.close()
        print(f"maester: saved {args.screenshot}" if ok else f"maester: could not save {args.screenshot}")
        return 0 if ok else 1
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
