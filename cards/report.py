"""``python -m cards.report [--pool FILE]``: how many cards of a pool the engine plays by itself.

The report reads the engine's ability parser, so it lives above it, in ``engine.automation``
(``python -m engine.automation`` is the same command). This file keeps the command users
know; importing it loads nothing: ``cards/`` imports nothing from ``engine/`` except in a
command's ``__main__`` block (tests/test_boundaries.py).
"""
import sys

if __name__ == "__main__":
    from cards.files import run_command
    from engine.automation import main

    sys.exit(run_command(main))
