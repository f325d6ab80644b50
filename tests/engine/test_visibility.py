"""``engine.visibility``: what each seat may see, and the masked state a computer player may read."""
from __future__ import annotations

from engine.builder import practice_game
from engine.decisions import Decision
from engine.game import Options
from engine.players import RandomPlayer
from engine.visibility import HIDDEN_KEY, may_browse, may_see, public, visible_cards, visible_state


def _game(seed: int = 3):
    return practice_game(seed=seed, options=Options(prompt_all=False))


def _until(game, pred, limit: int = 3000):
    players = {n: RandomPlayer(i + 5, pass_bias=0.3) for i, n in enumerate(game.state.player_names)}
    for _ in range(limit):
        d = game.advance()
        if isinstance(d, Decision) and pred(d):
            return d
        players[d.player].play_turn(game)
    raise AssertionError("never came")


def test_hands_are_their_owners_and_revealed_cards_everyones():
    g = _game()
    alice, bob = g.state.player_names
    a_card = g.player(alice).hand[0]
    assert may_see(g, alice, a_card) and not may_see(g, bob, a_card) and not public(g, a_card)
    g.state.revealed.append(a_card)
    assert may_see(g, bob, a_card) and public(g, a_card)
    assert not may_see(g, alice, 10 ** 6) and not may_see(g, alice, True)  # no such card; a bool is no id


def test_setup_cards_are_facedown_to_the_others_until_revealed():
    g = _game()
    first = g.advance().player
    d = g.advance()
    pick = d.choices[:1]
    g.answer(first, {"setup": pick})
    other = g.advance().player
    assert other != first
    assert g.card(pick[0]).facedown and g.card(pick[0]).zone == "in_play"
    assert may_see(g, first, pick[0]) and not may_see(g, other, pick[0]) and not public(g, pick[0])
    g.answer(other, {"pass": True})
    assert not g.card(pick[0]).facedown  # SET-07: revealed together
    assert may_see(g, other, pick[0])


def test_a_chosen_plot_stays_hidden_until_all_are_revealed():
    g = _game()
    d = _until(g, lambda d: d.kind == "plot")
    first = d.player
    chosen = d.options[0]["plot"]
    g.answer(first, {"plot": chosen})
    d = g.advance()
    assert d.kind == "plot" and d.player != first
    assert may_see(g, first, chosen) and not may_see(g, d.player, chosen)
    assert all(not may_see(g, d.player, c) for c in g.player(first).plot_deck)
    g.answer(d.player, d.options[0])
    assert g.card(chosen).zone == "revealed_plot" and public(g, chosen)


def test_decks_only_where_a_seat_looks_or_searches_by_hand():
    g = _game()
    alice, bob = g.state.player_names
    deck = g.player(alice).deck
    assert not any(may_see(g, alice, c) for c in deck)
    g.state.looking.append({"player": alice, "deck": alice, "count": 2})
    assert [may_see(g, alice, c) for c in deck[:3]] == [True, True, False]
    assert not any(may_see(g, bob, c) for c in deck)
    g.state.looking.clear()
    g.pending = Decision("by_hand_effect", alice, "carry out the text", can_pass=True)
    assert all(may_see(g, alice, c) for c in deck)  # step 3 of her use by hand: she may search her deck
    assert not any(may_see(g, alice, c) for c in g.player(bob).deck)
    assert not any(may_see(g.state, alice, c) for c in deck)  # a bare state knows no pending decision


def test_piles_anyone_may_look_through():
    g = _game()
    alice, bob = g.state.player_names
    assert may_browse(g, alice, bob, "discard") and may_browse(g, None, bob, "dead")
    assert may_browse(g, alice, alice, "plot_deck") and not may_browse(g, bob, alice, "plot_deck")
    assert not may_browse(g, alice, alice, "deck") and not may_browse(g, None, alice, "hand")


def test_visible_state_masks_what_the_seat_may_not_see():
    g = _game()
    _until(g, lambda d: d.kind == "action" and g.state.phase == "marshalling")
    alice, bob = g.state.player_names
    view = visible_state(g, alice)
    seen = visible_cards(g, alice)
    for cid, c in view.cards.items():
        assert (c.key == HIDDEN_KEY) == (cid not in seen)
        assert c.zone == g.card(cid).zone
    assert all(view.cards[c].key == g.card(c).key for c in g.player(alice).hand)
    assert all(view.cards[c].key == HIDDEN_KEY for c in g.player(bob).hand + g.player(bob).plot_deck)
    assert view.player(alice).deck == sorted(g.player(alice).deck)  # the order of a deck is unknown
    assert sorted(view.player(bob).hand) == sorted(g.player(bob).hand)
    assert view.log == g.state.log
    assert g.state.cards[g.player(bob).hand[0]].key != HIDDEN_KEY  # the game itself is untouched


def test_a_switched_plot_deck_is_seen_by_the_player_who_uses_it():
    """Varys (switch_plots): while Alice and Carol use each other's plot decks this round, each may look at the
    plot deck she uses; its owner still may; Bob may not. The switch is plain state (``plot_swaps``)."""
    g = practice_game(seed=3, players=("alice", "bob", "carol"), options=Options(prompt_all=False))
    alice, bob, carol = g.state.player_names
    plot = g.player(carol).plot_deck[0]
    assert not may_see(g, alice, plot) and not may_browse(g, alice, carol, "plot_deck")
    g.state.plot_swaps.append([alice, carol])
    assert g.plot_holder(alice) == carol and g.plot_holder(carol) == alice and g.plot_holder(bob) == bob
    assert may_see(g, alice, plot) and may_see(g, carol, plot) and not may_see(g, bob, plot)
    assert may_browse(g, alice, carol, "plot_deck") and not may_browse(g, bob, carol, "plot_deck")
    assert may_browse(g, carol, alice, "plot_deck") and may_browse(g, carol, carol, "plot_deck")
    assert visible_state(g, alice).cards[plot].key == g.card(plot).key
    assert visible_state(g, bob).cards[plot].key == HIDDEN_KEY
    # a second switch composes: Carol (holding Alice's) and Bob switch, so Bob now uses Alice's
    g.state.plot_swaps.append([carol, bob])
    assert [g.plot_holder(n) for n in (alice, bob, carol)] == [carol, alice, bob]


def test_a_player_searching_his_own_deck_sees_it_and_nobody_else_does(lcg_json):
    """Summoning Season (search_pick): while Alice chooses the card her search finds, she sees her whole deck
    (``may_see`` and ``may_browse``); Bob sees none of it, and none of his own deck until his own search."""
    from pathlib import Path

    from engine.scenario import load_scenario

    path = Path(__file__).resolve().parents[1] / "scenarios" / "lcg" / \
        "core-summoning-and-building-season-both-players-pick.yaml"
    sc = load_scenario(path, Options(prompt_all=False))
    g, L = sc.game, sc.labels
    g.answer("alice", {"plot": L["summon"]})
    g.answer("bob", {"plot": L["q1"]})
    g.answer("alice", {"first_player": "alice"})
    d = g.advance()
    assert d.kind == "choose" and d.player == "alice"
    alice_deck, bob_deck = list(g.player("alice").deck), list(g.player("bob").deck)
    assert not any(may_see(g, "alice", c) for c in alice_deck)  # choosing the opponent is no search
    g.answer("alice", {"choose": ["bob"]})
    d = g.advance()
    assert d.kind == "choose" and d.player == "alice" and L["arodrik"] in d.choices
    assert all(may_see(g, "alice", c) for c in alice_deck)
    assert may_browse(g, "alice", "alice", "deck") and not may_browse(g, "bob", "alice", "deck")
    assert not any(may_see(g, "bob", c) for c in alice_deck + bob_deck)
    assert not any(may_see(g, "alice", c) or may_see(g, None, c) for c in bob_deck)
    assert visible_state(g, "bob").cards[L["arodrik"]].key == HIDDEN_KEY
    g.answer("alice", {"choose": [L["arodrik"]]})
    d = g.advance()
    assert d.kind == "choose" and d.player == "bob"
    assert all(may_see(g, "bob", c) for c in g.player("bob").deck)
    assert not any(may_see(g, "alice", c) for c in g.player("alice").deck + g.player("bob").deck)
