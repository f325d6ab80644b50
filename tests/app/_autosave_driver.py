"""A Maester process to kill: plays answers with the autosave on (tests/app/test_saves.py).

    python tests/app/_autosave_driver.py table N [SEED]
                                                     the table (offscreen) with its own autosave slot
                                                     (as maester takes one: app.session.claim_autosave),
                                                     N answers through the controller, then waits to be
                                                     killed; prints ``SLOT <path>`` first
    python tests/app/_autosave_driver.py hammer      answers and autosaves as fast as it can, new
                                                     games one after another, until killed

Each autosaved answer prints ``<answers> <digest>``; the autosave lives in $MAESTER_HOME.
"""
from __future__ import annotations

import os
import sys
import time

from engine.decisions import Refused


def legal(chooser, game, d):
    for answer in chooser.candidates(game, d):
        try:
            return d.check(answer)
        except Refused:
            continue
    raise SystemExit(f"no legal answer for {d.describe()}")


def table(count: int, seed: int = 7) -> None:
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from PySide6.QtWidgets import QApplication

    from app import session as saves
    from app.dialogs import GameSetup
    from app.window import TableWindow
    from engine.players import RandomPlayer

    app = QApplication([])
    slot = saves.claim_autosave()
    print("SLOT", slot, flush=True)
    window = TableWindow(GameSetup(seed=seed, privacy=False), computer_delay_ms=0, autosave=slot)
    ctl = window.controller
    choosers = {n: RandomPlayer(seed=i + 3, pass_bias=0.2) for i, n in enumerate(ctl.names)}
    for _ in range(count):
        d = ctl.decision
        if d is None:
            break
        assert ctl.viewer == d.player
        assert ctl.submit(legal(choosers[d.player], ctl.game, d)), ctl.last_message
        print(len(ctl.game.history), ctl.game.state.digest(), flush=True)
    print("DONE", flush=True)
    app.processEvents()
    time.sleep(600)


def hammer() -> None:
    from app import session as saves
    from engine.builder import practice_game
    from engine.decisions import GameOver
    from engine.game import Options
    from engine.players import RandomPlayer

    seed = int(time.time() * 1000) % 100_000
    ready = False
    while True:
        game = practice_game(seed=seed, players=("Alice", "Bob"), options=Options(prompt_all=False))
        info = saves.TableInfo(names=["Alice", "Bob"], modes=[[0, "enforce"]])
        sess = saves.Session(info, saves.autosave_path())
        choosers = {n: RandomPlayer(seed=seed + i) for i, n in enumerate(game.state.player_names)}
        while not isinstance(game.advance(), GameOver):
            d = game.advance()
            game.answer(d.player, legal(choosers[d.player], game, d))
            sess.checkpoint(game, d.player)
            if not ready:
                print("READY", flush=True)  # the first autosave is written: kill me any time now
                ready = True
        seed += 1


if __name__ == "__main__":
    if sys.argv[1] == "table":
        table(int(sys.argv[2]), *(int(a) for a in sys.argv[3:4]))
    else:
        hammer()
