"""Derived values cached per state version (EFF-06: constants recalculated whenever the table
changes) must equal the values computed from scratch, at every decision of real games."""
from __future__ import annotations

import copy
from pathlib import Path

import pytest

from engine.abilities.runtime import _passive_index, available, step_abilities
from engine.abilities.sources import abilities, ability_sources
from engine.builder import new_game, practice_game
from engine.decisions import GameOver
from engine.game import Options
from engine.players import RandomPlayer
from engine.state import (TEXT_ZONES, CardInstance, Effect, GameState, Player, TList, Version, cards_on_the_table,
                          face_up_in_text_zones)

SHARED_JSON = Path(__file__).resolve().parents[3] / "shared" / "data" / "agot1-lcg-cards.json"
CACHES = ("_memo", "_constant_cache", "_view_memo", "_smemo", "_cmemo", "_abilities_now", "_text_mods_now",
          "_settle_reads", "_text_structural", "_constants_in_play", "_constants_in_play_of",
          "_constants_touch_attachments_of", "_kind_held", "_passive_held", "_step_table", "_effects_index")


def snapshot(g) -> dict:
    """Every derived value the engine caches, for every card and player."""
    out = {}
    for cid, c in g.state.cards.items():
        if c.zone in ("deck", "plot_deck"):
            continue
        out[cid] = (g.card_type(cid), g.strength(cid), frozenset(g.icons(cid)), frozenset(g.keywords(cid)),
                    frozenset(g.traits(cid)), g.is_blank(cid), tuple(a.index for a in abilities(g, cid)),
                    tuple(map(repr, g._constants(cid))), frozenset(g.immunities(cid)), g._blank_now(cid))
    marked = {cid for cid, c in g.state.cards.items() if c.moribund is not None}
    assert marked <= set(cards_on_the_table(g.__dict__, g.state)), "a moribund card step 6 would not find (MOR-07)"
    out["face up, text working"] = tuple(cid for cid, _ in face_up_in_text_zones(g.__dict__, g.state))
    assert out["face up, text working"] == tuple(
        cid for cid, c in sorted(g.state.cards.items()) if c.zone in TEXT_ZONES and not c.facedown)
    for name in g.state.player_names:
        out[name] = (tuple(ability_sources(g, name)), tuple(g.in_play_cards(name)),
                     tuple((c, a.index) for step in ("action", "response", "save_cancel")
                           for c, a in step_abilities(g, name, step)),
                     tuple((o.card, o.ability.index) for o in available(g, name, step="action")))
    out["passives"] = {event: tuple((seq, name, c, a.index) for seq, name, c, a in entries)
                       for event, entries in _passive_index(g).items()}
    return out


def fresh(g) -> dict:
    for key in CACHES:
        g.__dict__.pop(key, None)
    return snapshot(g)


class Watcher:
    """An observer told of every window step (``Options.observer``): the cache is checked there
    too, in the middle of resolving effects, not only when a decision is asked."""

    def __init__(self):
        self.steps = 0

    def __call__(self, kind, g, info) -> None:
        self.seen = getattr(self, "seen", 0) + 1
        if self.seen % 4:
            return  # every fourth step keeps the test quick
        cached = snapshot(g)
        assert cached == fresh(g), f"cached derived values went stale at a {kind} ({info})"
        self.steps += 1


def options() -> Options:
    return Options(prompt_all=False, observer=Watcher())


def check_game(g, players, decisions: int) -> int:
    checked = 0
    for _ in range(decisions):
        d = g.advance()
        if isinstance(d, GameOver):
            break
        cached = snapshot(g)
        assert cached == snapshot(g)  # a second read is served from the cache
        assert cached == fresh(g), f"cached derived values went stale at decision {checked}"
        players[d.player].play_turn(g)
        checked += 1
    return checked


@pytest.mark.parametrize("seed", [1, 2])
def test_eff06_cached_values_equal_fresh_values_practice(seed):
    names = ["alice", "bob", "carol"]
    g = practice_game(seed=seed, players=names, options=options())
    players = {n: RandomPlayer(seed=seed * 7 + i) for i, n in enumerate(names)}
    assert check_game(g, players, 120) > 50
    assert g.options.observer.steps > 30


@pytest.mark.skipif(not SHARED_JSON.is_file(), reason="../shared LCG card data absent")
@pytest.mark.parametrize("houses", [("stark", "lannister"), ("baratheon", "greyjoy"), ("targaryen", "martell")])
def test_eff06_cached_values_equal_fresh_values_core(houses):
    from bench.bench_lcg_games import core_deck, trigger_players
    from cards.pool import load_pool

    pool = load_pool(SHARED_JSON)
    decks = {n: core_deck(pool, h, 3) for n, h in zip(("alice", "bob"), houses)}
    g = new_game(decks, seed=3, options=options())
    assert check_game(g, trigger_players(["alice", "bob"], 3), 120) > 50
    assert g.options.observer.steps > 30


def test_every_kind_of_change_moves_the_state_version():
    c = CardInstance(1, "k", "a", "a", "hand")
    p = Player("a", "stark")
    st = GameState([p], {1: c})
    changes = [
        lambda: setattr(c, "kneeling", True), lambda: c.attachments.append(5), lambda: c.tokens.update(gold=2),
        lambda: c.tokens.pop("gold"), lambda: p.hand.insert(0, 1), lambda: p.hand.remove(1),
        lambda: p.deck.extend([1, 2]), lambda: p.deck.__setitem__(0, 3), lambda: p.deck.pop(),
        lambda: p.deck.sort(), lambda: p.deck.clear(), lambda: st.cards.__setitem__(2, c),
        lambda: st.effects.append(Effect(1, "strength", 1, "phase")), lambda: setattr(st.effects[0], "value", 2),
        lambda: st.counters.__setitem__("x", 1), lambda: setattr(st, "phase", "plot"),
    ]
    for change in changes:
        before = Version.n
        change()
        assert Version.n > before, change
    p.hand = [7]
    assert isinstance(p.hand, TList)  # assigned lists are tracked too
    before = Version.n
    p.hand.append(8)
    c.kneeling = True  # already kneeling: nothing changed
    assert Version.n == before + 1


def test_the_structure_version_moves_with_the_structure_only():
    """``Version.s`` (what zones, types, abilities and the index of cards in play are cached
    against) moves when a card moves or changes, and stays put when only kneeling, power, gold,
    counters or the challenge change."""
    c = CardInstance(1, "k", "a", "a", "hand")
    p = Player("a", "stark")
    st = GameState([p], {1: c})
    moves = [
        lambda: setattr(c, "zone", "in_play"), lambda: setattr(c, "controller", "b"),
        lambda: setattr(c, "facedown", True), lambda: setattr(c, "attached_to", 3), lambda: c.attachments.append(5),
        lambda: c.duplicates.append(6), lambda: p.hand.insert(0, 1), lambda: p.hand.remove(1),
        lambda: p.in_play.append(1), lambda: p.dead.append(2), lambda: p.discard.extend([3]),
        lambda: setattr(p, "revealed_plot", 4), lambda: setattr(p, "house_card", 9), lambda: st.cards.__setitem__(2, c),
        lambda: st.effects.append(Effect(1, "strength", 1, "phase")), lambda: setattr(st.effects[0], "value", 2),
        lambda: st.granted.append({"card": 1, "ability": 1, "player": "a", "until": "phase"}),
        lambda: setattr(st, "phase", "plot"),  # leaving setup: a facedown attachment turns blank (ATT-04)
    ]
    for change in moves:
        before = Version.s
        change()
        assert Version.s > before, change
    p.hand = [7]
    before = Version.s
    p.hand.append(8)
    assert Version.s == before + 1  # an assigned list of the structure is a structure list too
    stays = [
        lambda: setattr(c, "kneeling", True), lambda: setattr(c, "power", 2), lambda: setattr(p, "gold", 5),
        lambda: p.deck.append(3), lambda: st.counters.__setitem__("x", 1), lambda: setattr(st, "round", 2),
        lambda: c.tokens.update(gold=2), lambda: setattr(c, "moribund", "dead"),
        lambda: setattr(st, "phase", "draw"), lambda: setattr(st, "phase", "marshalling"),  # read as PHASE
    ]
    for change in stays:
        before_n, before_s = Version.n, Version.s
        change()
        assert Version.n > before_n and Version.s == before_s, change


def test_copies_and_saves_keep_tracking():
    g = practice_game(seed=4, players=["alice", "bob"], options=Options(prompt_all=False))
    g.advance()
    for st in (copy.deepcopy(g.state), GameState.from_dict(g.state.to_dict())):
        assert st.to_dict() == g.state.to_dict()
        before = Version.n
        st.players[0].hand.append(st.players[0].deck[0])
        assert Version.n > before
