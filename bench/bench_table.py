"""How fast the table repaints with 300 cards on it.

A four-player practice game with doubled decks; free moves (advise mode) put
about 70 cards per seat on the table (characters, locations, attachments, a
big hand), some kneeling, some with power. Then it times:

- ``sync``: redrawing the scene from the engine state (what happens after every answer);
- ``repaint``: ``view.viewport().repaint()``, a full synchronous repaint of the window's table;
- ``render``: ``scene.render`` of the whole table into a 1600x1000 QImage (no view caches).

    QT_QPA_PLATFORM=offscreen python3 bench/bench_table.py [--repeat 50]
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtGui import QImage, QPainter  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from app.dialogs import GameSetup  # noqa: E402
from app.window import TableWindow  # noqa: E402
from engine.advise import free_move  # noqa: E402
from engine.builder import new_game, practice_decks  # noqa: E402
from engine.game import Options  # noqa: E402

NAMES = ("Alice", "Bob", "Carol", "Dave")


def crowded_game(per_seat: int = 90):
    """Four players, doubled practice decks, ~``per_seat`` cards of each on the table."""
    stark, lannister = practice_decks()
    decks = {n: replace(d, cards=d.cards * 2) for n, d in zip(NAMES, (stark, lannister) * 2)}
    game = new_game(decks, seed=1, options=Options(prompt_all=False, mode="advise"))
    for name in NAMES:
        placed = 0
        free_move(game, name, {"draw": name, "count": 12})
        deck = list(game.player(name).deck)
        characters: list[int] = []
        for cid in deck:
            if placed >= per_seat - len(game.player(name).hand):
                break
            kind = game.defn(cid).type
            if kind in ("character", "location"):
                free_move(game, name, {"move": cid, "to": "in_play"})
                if kind == "character":
                    characters.append(cid)
                    if placed % 3 == 0:
                        free_move(game, name, {"kneel": cid})
                    if placed % 4 == 0 and game.total_power(name) < 10:  # 15 would end the game
                        free_move(game, name, {"power": cid, "delta": 2})
                placed += 1
            elif kind == "attachment" and characters:
                host = characters[placed % len(characters)]
                free_move(game, name, {"move": cid, "to": "attached", "attach_to": host})
                placed += 1
    return game


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=50)
    args = ap.parse_args(argv)
    app = QApplication.instance() or QApplication([])
    game = crowded_game()
    window = TableWindow(GameSetup(names=list(NAMES), decks=["practice:stark"] * 4, privacy=False),
                         game=game, computer_delay_ms=0)
    window.resize(1600, 1000)
    window.show()
    app.processEvents()
    scene, view = window.scene, window.view
    items = len(scene.cards)
    on_table = sum(1 for c in game.state.cards.values() if c.zone in ("in_play", "attached", "hand"))
    print(f"table: {items} card items ({on_table} cards in play or in hands, "
          f"{len(game.state.cards)} cards in the game), {len(scene.items())} scene items")

    def timed(label: str, fn) -> float:
        fn()  # warm up (first paint fills the item caches)
        start = time.perf_counter()
        for _ in range(args.repeat):
            fn()
        ms = (time.perf_counter() - start) * 1000 / args.repeat
        print(f"{label:8s} {ms:8.2f} ms")
        return ms

    timed("sync", scene.sync)
    repaint = timed("repaint", view.viewport().repaint)

    image = QImage(1600, 1000, QImage.Format.Format_ARGB32_Premultiplied)

    def render() -> None:
        painter = QPainter(image)
        scene.render(painter)
        painter.end()

    timed("render", render)
    print(f"full repaint of a table with {items} cards: {repaint:.2f} ms per repaint")
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
