"""Legality with a huge hand: the same answers as asking card by card, and near-linear time.

``legality.marshal_options`` and the options of a decision are worked out inside ``engine.steady``
(what depends on the whole table, such as the constants' fingerprint or the titles in play, is read
once per question instead of once per card). These tests check that this changes no answer: with
200 cards in hand the options are exactly what asking ``marshal_problem`` for every card and every
host gives, before and after the table changes; and that a 1,000-card hand is answered (options,
refusal, a marshal and the next decision) within a generous bound. The timings are printed by
``bench/bench_legality.py``.
"""
from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path

from engine import legality
from engine.decisions import Refused
from engine.invariants import check_invariants

ROOT = Path(__file__).resolve().parents[2]


def _bench():
    name = "bench_legality"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / "bench_legality.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def card_by_card(g, name: str) -> list[dict]:
    """Every legal marshal, asked one card and one host at a time (no steady question)."""
    out = []
    hosts = [None] + [h for p in g.state.players for h in p.in_play] + \
        [p.house_card for p in g.state.players if p.house_card is not None]
    for cid in g.player(name).hand:
        if g.defn(cid).unique and legality.duplicate_host(g, name, cid) is not None:
            out.append({"marshal": cid, "duplicate": True, "attach_to": None, "x": 0})
            continue
        for host in hosts:
            if legality.marshal_problem(g, name, cid, attach_to=host) is None:
                out.append({"marshal": cid, "duplicate": False, "attach_to": host, "x": 0})
    return out


def _key(o: dict) -> tuple:
    return o["marshal"], o["duplicate"], o["attach_to"] is None, o["attach_to"] or 0


def test_MAR_04_options_of_a_200_card_hand_are_what_each_card_gives():
    g, d = _bench().big_hand_game(200, board=12)
    name = d.player
    for round_ in range(3):
        fast = legality.marshal_options(g, name)
        assert sorted(fast, key=_key) == sorted(card_by_card(g, name), key=_key), f"round {round_}"
        assert any(o["attach_to"] is not None for o in fast) and any(o["attach_to"] is None for o in fast)
        # the table changes (a card marshalled, gold spent): the next question sees it
        g.answer(name, next(o for o in fast if g.defn(o["marshal"]).type == "character"))
        d = g.advance()
        if d.player != name or d.kind != "action":
            break
    assert not check_invariants(g)


def test_MAR_05_a_1000_card_hand_is_answered_and_checked_quickly():
    start = time.perf_counter()
    g, d = _bench().big_hand_game(1000)
    name = d.player
    assert len(g.player(name).hand) >= 1000
    built = time.perf_counter()
    options = legality.marshal_options(g, name)
    d.refresh()
    assert [o for o in d.options if "marshal" in o] == options
    foreign = g.player(next(n for n in g.state.player_names if n != name)).deck[0]
    try:
        g.answer(name, {"marshal": foreign})
    except Refused as err:
        assert "is not in" in str(err)
    else:
        raise AssertionError("a card of another player's deck was marshalled")
    g.answer(name, options[0])
    assert g.advance() is not d
    answered = time.perf_counter()
    assert not check_invariants(g)
    # a generous bound (the bench prints the real times: about 0.3 s on a laptop)
    assert answered - built < 5.0, f"a 1,000-card hand took {answered - built:.1f} s (building {built - start:.1f} s)"
