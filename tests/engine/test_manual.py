"""Card text by hand (engine/manual.py) answered through engine.game directly.

- every tool's refusal leaves ``state.digest()`` unchanged and the decision open;
- ill-typed answers (strings for ids, negative counts, unknown keys, bools) are refused
  with ``Refused``, never another exception;
- games with by-hand answers are saved, loaded and replayed to the same digest;
- ``Decision.only_pass`` is False when by-hand uses are offered (``context["by_hand"]``);
- ``options()`` lists only legal uses: each listed option, answered, is accepted.

The position is a scenario file written to a temporary folder (our own card texts).
"""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from engine import manual
from engine.decisions import Decision, GameOver, Refused
from engine.game import Game
from engine.replay import load_game, replay, save_game
from engine.scenario import load_scenario, run_scenario

ROOT = Path(__file__).resolve().parents[2]
BY_HAND = sorted((ROOT / "tests" / "scenarios" / "by_hand").glob("*.yaml"))

TABLE = textwrap.dedent("""
    format: 1
    title: "by-hand test table (our own words)"
    cards:
      - {name: Headsman, type: character, cost: 3, strength: 2, icons: [military],
         text: "Any Phase: Kneel Headsman to pick a character and kill it. (our own words)"}
      - {name: Shieldbearer, type: character, cost: 2, strength: 1, icons: [military],
         text: "Response: Kneel Shieldbearer to save a character from being killed. (our own words)"}
      - {name: Steward, type: character, cost: 2, strength: 1, icons: [power],
         text: "Marshalling: Kneel Steward to gain 1 gold. (our own words)"}
      - {name: Grave Robber, type: character, cost: 2, strength: 1, icons: [intrigue],
         text: "Limited Response: After a character is killed, gain 2 gold. (our own words)"}
      - {name: Grave Watcher, type: character, cost: 2, strength: 1, icons: [intrigue],
         text: "Response: After a character is killed, gain 1 gold. (our own words)"}
      - {name: Loose Coin, type: event, cost: 0, text: "Any Phase: Gain 1 gold. (our own words)"}
      - {name: Costly Favor, type: event, cost: 1, text: "Any Phase: Draw 1 card. (our own words)"}
      - {name: Lord Marcher, type: character, unique: true, cost: 4, strength: 4, icons: [military, power]}
      - {name: Ser Ghost, type: character, unique: true, cost: 3, strength: 3, icons: [intrigue]}
      - {name: Squire, type: character, cost: 2, strength: 2, icons: [power]}
      - {name: Page, type: character, cost: 1, strength: 1, icons: [power]}
      - {name: Keep, type: location, cost: 2, influence: 2}
      - {name: Sword, type: attachment, cost: 2}
      - {name: Filler, type: character, cost: 1, strength: 1, icons: [power]}
      - {name: Quiet Plot, type: plot, income: 0, initiative: 0, claim: 1}
    start:
      phase: challenges
      first_player: alice
      players:
        alice:
          house: lannister
          revealed_plot: Quiet Plot
          drawn_this_round: 3
          limited_played: true
          hand: [{card: Lord Marcher, id: am2}, {card: Ser Ghost, id: ghost2}, {card: Loose Coin, id: coin},
                 {card: Costly Favor, id: costly}, {card: Sword, id: sword}, {card: Filler, id: af}]
          dead: [{card: Ser Ghost, id: ghost1}]
          deck: [Filler, Filler, Filler, Filler]
          in_play: [{card: Headsman, id: h}, {card: Lord Marcher, id: am}, {card: Keep, id: keep},
                    {card: Steward, id: steward}, {card: Grave Robber, id: arobber}]
        bob:
          house: stark
          house_power: 1
          gold: 1
          revealed_plot: Quiet Plot
          hand: [{card: Filler, id: bf}]
          deck: [{card: Filler, id: bdeck}, Filler]
          in_play: [{card: Squire, id: s}, {card: Page, id: p, kneeling: true}, {card: Lord Marcher, id: bm},
                    {card: Shieldbearer, id: shield}, {card: Grave Watcher, id: watcher}]
    steps: []
""")


@pytest.fixture
def table(tmp_path):
    path = tmp_path / "by-hand-table.yaml"
    path.write_text(TABLE, encoding="utf-8")
    sc = load_scenario(path)
    return sc.game, sc.labels


def drive(g: Game, kind: str, player: str) -> Decision:
    """Pass every decision until ``player`` is asked for ``kind``."""
    for _ in range(500):
        d = g.advance()
        assert not isinstance(d, GameOver), "the game ended"
        if d.kind == kind and d.player == player:
            return d
        if d.can_pass:
            g.answer(d.player, {"pass": True})
        else:
            assert len(d.options) == 1, f"unexpected decision {d.describe()}"
            g.answer(d.player, d.options[0])
    raise AssertionError(f"never reached {kind} of {player}")


def at_headsman_step3(g: Game, L: dict, target: str = "s") -> Decision:
    drive(g, "action", "alice")
    g.answer("alice", {"by_hand": L["h"], "paragraph": 1, "cost": {"kneel": [L["h"]]},
                       "targets": [L[target]], "removes": "kill"})
    return drive(g, "by_hand_effect", "alice")


def assert_refused(g: Game, player: str, answer, match: str | None = None) -> None:
    d = g.advance()
    before = g.state.digest()
    n = len(g.history)
    with pytest.raises(Refused) as err:
        g.answer(player, answer)
    if match is not None:
        assert match.lower() in str(err.value).lower(), str(err.value)
    assert g.state.digest() == before, f"{answer} changed the state"
    assert g.advance() is d and len(g.history) == n


# ---------------------------------------------------------------------------
# Refusals leave the state unchanged, for every tool
# ---------------------------------------------------------------------------

def bad_tool_answers(g: Game, L: dict) -> list[tuple[dict, str]]:
    bob = g.player("bob")
    return [
        ({"tool": "kill", "card": bob.house_card}, "not in play"),
        ({"tool": "discard", "card": L["bdeck"]}, "not in play"),
        ({"tool": "return_to_hand", "card": bob.house_card}, "not in play"),
        ({"tool": "return_to_deck", "card": L["s"], "bottom": "yes"}, "bottom: true or false"),
        ({"tool": "kneel", "card": L["p"]}, "already kneeling"),
        ({"tool": "stand", "card": L["s"]}, "already standing"),
        ({"tool": "power", "card": bob.house_card, "amount": -5}, "cannot lose 5"),
        ({"tool": "move_power", "from": L["s"], "to": L["am"], "amount": 1}, "cannot give 1"),
        ({"tool": "gold", "player": "bob", "amount": -5}, "cannot lose 5"),
        ({"tool": "draw", "count": 1}, "DRW-03"),
        ({"tool": "search", "pick": L["bdeck"]}, "not in alice's deck"),
        ({"tool": "shuffle", "player": "carol"}, "not a player"),
        ({"tool": "look", "player": "bob", "count": 0}, "from 1 to 20"),
        ({"tool": "reveal", "card": L["bf"]}, "must be in your hand"),
        ({"tool": "put_into_play", "card": L["am2"]}, "already has a copy in play (UNQ-02)"),
        ({"tool": "put_into_play", "card": L["ghost2"]}, "UNQ-02"),
        ({"tool": "put_into_play", "card": L["coin"]}, "ZON-01"),
        ({"tool": "put_into_play", "card": L["sword"]}, "attach_to"),
        ({"tool": "take_control", "card": L["bm"]}, "UNQ-02"),
        ({"tool": "take_control", "card": L["am"]}, "already controls"),
        ({"tool": "modify", "card": L["s"], "strength": 1, "until": "forever"}, "until: one of"),
        ({"tool": "modify", "card": L["s"]}, "say what changes"),
        ({"tool": "token", "card": L["s"], "name": "grain", "amount": -1}, "has 0 grain tokens"),
        ({"tool": "note", "card": L["s"], "text": "x" * 201}, "up to 200"),
    ]


def test_every_tool_refusal_leaves_the_state_unchanged(table):
    g, L = table
    at_headsman_step3(g, L)
    answers = bad_tool_answers(g, L)
    assert {a["tool"] for a, _ in answers} == set(manual.TOOLS), "a tool without a refusal case"
    for answer, why in answers:
        assert_refused(g, "alice", answer, why)
    # the decision is still open and a good answer still works afterwards
    g.answer("alice", {"tool": "kill", "card": L["s"]})
    assert g.card(L["s"]).moribund == "dead"


def test_saved_card_cannot_be_removed_by_the_same_effect(table):
    g, L = table
    drive(g, "action", "alice")
    g.answer("alice", {"by_hand": L["h"], "paragraph": 1, "targets": [L["s"]], "removes": "kill"})
    drive(g, "save_cancel", "bob")
    g.answer("bob", {"by_hand": L["shield"], "save": L["s"], "cost": {"kneel": [L["shield"]]}})
    drive(g, "by_hand_effect", "bob")
    g.answer("bob", {"pass": True})
    drive(g, "by_hand_effect", "alice")
    for tool in ("kill", "discard", "return_to_hand", "return_to_deck"):
        assert_refused(g, "alice", {"tool": tool, "card": L["s"]}, "TIM-07")


def test_put_into_play_of_a_unique_in_play_cites_unq_02(table):
    g, L = table
    at_headsman_step3(g, L)
    assert_refused(g, "alice", {"tool": "put_into_play", "card": L["am2"]}, "UNQ-02")


# ---------------------------------------------------------------------------
# Ill-typed answers: Refused, never another exception
# ---------------------------------------------------------------------------

def ill_typed_tools(g: Game, L: dict) -> list[dict]:
    s = L["s"]
    return [
        {"tool": "kill", "card": str(s)}, {"tool": "kill", "card": True}, {"tool": "kill", "card": [s]},
        {"tool": "kill", "card": {"id": s}}, {"tool": "kill", "card": None}, {"tool": "kill", "card": float(s)},
        {"tool": "kill", "card": s, "extra": 1}, {"tool": "kill"}, {"tool": 5}, {"tool": ["kill"]}, {"tool": None},
        {"tool": "draw", "count": -1}, {"tool": "draw", "count": True}, {"tool": "draw", "count": "2"},
        {"tool": "draw", "player": ["bob"]}, {"tool": "draw", "player": {"bob": 1}},
        {"tool": "gold", "amount": True}, {"tool": "gold", "amount": 10 ** 9}, {"tool": "gold", "amount": 1.5},
        {"tool": "power", "card": s, "amount": "1"}, {"tool": "move_power", "from": "s", "to": s},
        {"tool": "move_power", "from": s, "to": L["am"], "amount": -1},
        {"tool": "search", "pick": "x"}, {"tool": "search", "to": ["hand"]}, {"tool": "search", "pick": True},
        {"tool": "look", "count": 1.5}, {"tool": "look", "count": -3}, {"tool": "shuffle", "player": 7},
        {"tool": "reveal", "card": "af"}, {"tool": "put_into_play", "card": L["sword"], "attach_to": "s"},
        {"tool": "put_into_play", "card": L["sword"], "attach_to": True},
        {"tool": "take_control", "card": False},
        {"tool": "modify", "card": s, "strength": "2"}, {"tool": "modify", "card": s, "strength": True},
        {"tool": "modify", "card": s, "add_icons": "military"}, {"tool": "modify", "card": s, "add_keywords": [1]},
        {"tool": "modify", "card": s, "blank": 1}, {"tool": "modify", "card": s, "strength": 1, "until": ["phase"]},
        {"tool": "modify", "card": s, "strength": 1, "until": {"x": 1}},
        {"tool": "token", "card": s, "name": ["a"]}, {"tool": "token", "card": s, "amount": -1},
        {"tool": "token", "card": s, "name": ""}, {"tool": "note", "card": s, "text": 5},
        {"tool": "note", "card": s, "text": "bad\x00char"}, {"tool": "return_to_deck", "card": s, "bottom": 1},
        {"card": s}, {"resolve": True},
    ]


def test_ill_typed_tool_answers_are_refused(table):
    g, L = table
    at_headsman_step3(g, L)
    for answer in ill_typed_tools(g, L):
        assert_refused(g, "alice", answer)
    assert_refused(g, "alice", "kill")
    assert_refused(g, "alice", [])
    assert_refused(g, "alice", {})


def ill_typed_by_hand(L: dict) -> list[dict]:
    h = L["h"]
    return [
        {"by_hand": str(h)}, {"by_hand": True}, {"by_hand": [h]}, {"by_hand": None}, {"by_hand": {"a": 1}},
        {"by_hand": h, "paragraph": "1"}, {"by_hand": h, "paragraph": -1}, {"by_hand": h, "paragraph": [1]},
        {"by_hand": h, "paragraph": 1.0 + 0.5}, {"by_hand": h, "unknown": 1},
        {"by_hand": h, "cost": "kneel"}, {"by_hand": h, "cost": {"kneel": str(h)}},
        {"by_hand": h, "cost": {"kneel": [True]}}, {"by_hand": h, "cost": {"kneel": [[h]]}},
        {"by_hand": h, "cost": {"gold": -1}}, {"by_hand": h, "cost": {"gold": "1"}},
        {"by_hand": h, "cost": {"gold": True}}, {"by_hand": h, "cost": {"influence": -2, "pay": [L["keep"]]}},
        {"by_hand": h, "cost": {"influence": 1.5}}, {"by_hand": h, "cost": {"pay": "keep", "influence": 2}},
        {"by_hand": h, "cost": {"bribe": 1}}, {"by_hand": h, "cost": {1: 2}},
        {"by_hand": h, "cost": {"power": [L["am"]]}}, {"by_hand": h, "cost": {"discard": [L["bf"]]}},
        {"by_hand": h, "cost": {"kill": [L["s"]]}}, {"by_hand": h, "cost": {"kneel": [h, h]}},
        {"by_hand": h, "targets": "s"}, {"by_hand": h, "targets": [True]}, {"by_hand": h, "targets": [[L["s"]]]},
        {"by_hand": h, "targets": ["carol"]}, {"by_hand": h, "targets": [L["bf"]], "removes": "kill"},
        {"by_hand": h, "targets": [L["s"]], "removes": "maim"}, {"by_hand": h, "removes": ["kill"]},
        {"by_hand": L["steward"]}, {"by_hand": L["costly"]}, {"by_hand": L["s"]},
        {"by_hand": L["shield"]}, {"by_hand": L["arobber"]},
    ]


def test_ill_typed_by_hand_answers_are_refused(table):
    g, L = table
    drive(g, "action", "alice")
    for answer in ill_typed_by_hand(L):
        assert_refused(g, "alice", answer)


def test_bool_paragraph_is_refused(table):
    g, L = table
    drive(g, "action", "alice")
    assert_refused(g, "alice", {"by_hand": L["h"], "paragraph": True})


def at_watcher_response(g: Game, L: dict) -> Decision:
    d = at_headsman_step3(g, L)
    g.answer("alice", {"tool": "kill", "card": L["s"]})
    g.answer("alice", {"pass": True})
    return drive(g, "response", "bob")


def test_bool_gate_is_refused(table):
    g, L = table
    d = at_watcher_response(g, L)
    assert {"by_hand": L["watcher"], "paragraph": 1, "gate": 0} in d.context["by_hand"]
    assert_refused(g, "bob", {"by_hand": L["watcher"], "gate": False})


def test_ill_typed_response_and_save_answers_are_refused(table):
    g, L = table
    d = at_watcher_response(g, L)
    w = L["watcher"]
    for answer in ({"by_hand": w, "gate": "0"}, {"by_hand": w, "gate": -1}, {"by_hand": w, "gate": [0]},
                   {"by_hand": w, "gate": 99}, {"by_hand": w, "gate": None, "x": 1}):
        assert_refused(g, "bob", answer)
    g2, L2 = replay(g, []), L  # the same table from its start: a fresh save/cancel step
    drive(g2, "action", "alice")
    g2.answer("alice", {"by_hand": L2["h"], "paragraph": 1, "targets": [L2["s"]], "removes": "kill"})
    drive(g2, "save_cancel", "bob")
    sh = L2["shield"]
    for answer in ({"by_hand": sh, "save": str(L2["s"])}, {"by_hand": sh, "save": True}, {"by_hand": sh, "save": [L2["s"]]},
                   {"by_hand": sh, "save": L2["p"]}, {"by_hand": sh}, {"by_hand": w, "cancel": True},
                   {"by_hand": sh, "save": L2["s"], "cost": {"kneel": [L2["h"]]}}):
        assert_refused(g2, "bob", answer)


# ---------------------------------------------------------------------------
# options() lists only legal uses; only_pass
# ---------------------------------------------------------------------------

def check_every_option_is_accepted(g: Game) -> list[dict]:
    d = g.advance()
    offered = list(d.context.get("by_hand") or [])
    for option in offered:
        copy = replay(g)
        assert copy.state.digest() == g.state.digest()
        copy.answer(d.player, dict(option))  # raises Refused if the option is not legal
    return offered


def test_action_options_are_legal_and_exclude_illegal_uses(table):
    g, L = table
    d = drive(g, "action", "alice")
    offered = check_every_option_is_accepted(g)
    cards = {o["by_hand"] for o in offered}
    assert L["h"] in cards and L["coin"] in cards
    assert L["steward"] not in cards      # Marshalling: in the challenges phase (RND-05)
    assert L["costly"] not in cards       # gold-cost event outside the marshalling turn (C-14)
    assert L["arobber"] not in cards      # a response is not an action
    assert not d.only_pass


def test_save_and_response_options_are_legal(table):
    g, L = table
    drive(g, "action", "alice")
    g.answer("alice", {"by_hand": L["h"], "paragraph": 1, "targets": [L["s"]], "removes": "kill"})
    d = drive(g, "save_cancel", "bob")
    offered = check_every_option_is_accepted(g)
    assert offered == [{"by_hand": L["shield"], "paragraph": 1, "save": L["s"]}]
    assert not d.only_pass
    g.answer("bob", {"pass": True})
    d = drive(g, "by_hand_effect", "alice")
    g.answer("alice", {"tool": "kill", "card": L["s"]})
    g.answer("alice", {"pass": True})
    d = drive(g, "response", "bob")
    offered = check_every_option_is_accepted(g)
    assert {o["by_hand"] for o in offered} == {L["watcher"]}
    assert not d.only_pass
    d = drive(g, "response", "alice")
    assert d.context["by_hand"] == []    # her Limited Response is out: Limited already played (MAR-11)
    assert d.only_pass
    assert_refused(g, "alice", {"by_hand": L["arobber"]}, "MAR-11")


def test_only_pass_is_true_without_by_hand_uses(table):
    g, L = table
    drive(g, "action", "alice")
    g.answer("alice", {"pass": True})
    d = drive(g, "action", "bob")
    assert d.context["by_hand"] == [] and d.options == []
    assert d.only_pass


UNTIMED = textwrap.dedent("""
    format: 1
    title: "a card whose timing cannot be read (our own words)"
    cards:
      - {name: Banner Bearer, type: character, cost: 2, strength: 1, icons: [power],
         text: "While the banner stands, your characters are proud. (our own words)"}
      - {name: Moon Watcher, type: character, cost: 2, strength: 1, icons: [power],
         text: "Response: Whenever the moon is full, gain 1 power. (our own words)"}
      - {name: Filler, type: character, cost: 1, strength: 1, icons: [power]}
      - {name: Quiet Plot, type: plot, income: 0, initiative: 0, claim: 1}
    start:
      phase: challenges
      first_player: alice
      players:
        alice:
          house: lannister
          revealed_plot: Quiet Plot
          in_play: [{card: Filler, id: af}]
        bob:
          house: stark
          revealed_plot: Quiet Plot
          in_play: [{card: Banner Bearer, id: banner}, {card: Moon Watcher, id: moon}]
    steps: []
""")


def test_uses_whose_timing_was_not_read_are_legal_but_apart(tmp_path):
    """A paragraph whose timing could not be read (a constant, a response whose event is not read) is offered
    in every window of its controller, apart (``by_hand_untimed``): the decision is not "only pass" for the
    engine, but is for the table's prompting (``only_pass_or_untimed``); the use is still accepted."""
    path = tmp_path / "untimed.yaml"
    path.write_text(UNTIMED, encoding="utf-8")
    sc = load_scenario(path)
    g, L = sc.game, sc.labels
    d = drive(g, "action", "bob")
    assert d.options == [] and d.context["by_hand"] == []
    assert d.context["by_hand_untimed"] == [{"by_hand": L["banner"], "paragraph": 1}]
    assert not d.only_pass and d.only_pass_or_untimed
    copy = replay(g)
    copy.answer("bob", {"by_hand": L["banner"], "paragraph": 1})  # still a legal use
    assert len(copy.history) == len(g.history) + 1  # accepted: step 2 (save/cancel) follows
    g.answer("bob", {"pass": True})
    d = drive(g, "action", "alice")
    assert d.only_pass and d.only_pass_or_untimed
    d = drive(g, "response", "bob")
    assert d.context["by_hand"] == [] and d.context["by_hand_untimed"] == [
        {"by_hand": L["moon"], "paragraph": 1, "gate": None}]
    assert not d.only_pass and d.only_pass_or_untimed


# ---------------------------------------------------------------------------
# Saves and replays
# ---------------------------------------------------------------------------

def test_a_game_with_by_hand_answers_saves_loads_and_replays(table):
    g, L = table
    at_headsman_step3(g, L)
    g.answer("alice", {"tool": "kill", "card": L["s"]})
    g.answer("alice", {"tool": "modify", "card": L["am"], "strength": 2, "until": "round"})
    g.answer("alice", {"tool": "token", "card": L["keep"], "name": "grain", "amount": 2})
    g.answer("alice", {"pass": True})
    drive(g, "response", "bob")
    g.answer("bob", {"by_hand": L["watcher"]})
    drive(g, "by_hand_effect", "bob")
    g.answer("bob", {"tool": "gold", "amount": 1})
    g.answer("bob", {"pass": True})
    drive(g, "action", "bob")
    kinds = [next(iter(a)) for _, a in g.history]
    assert "by_hand" in kinds and "tool" in kinds
    data = json.loads(json.dumps(save_game(g), sort_keys=True))
    loaded = load_game(data, g.pool)
    assert loaded.state.digest() == g.state.digest()
    assert replay(g).state.digest() == g.state.digest()
    assert loaded.strength(L["am"]) == 6 and loaded.card(L["keep"]).tokens == {"grain": 2}


@pytest.mark.parametrize("path", BY_HAND, ids=lambda p: p.name)
def test_by_hand_scenarios_save_and_load_to_the_same_digest(path):
    sc = load_scenario(path)
    result = run_scenario(sc)
    assert result.passed, result.reason
    g = sc.game
    assert any("by_hand" in a or "tool" in a or "resolve" in a for _, a in g.history)
    loaded = load_game(json.loads(json.dumps(save_game(g))), g.pool)
    assert loaded.state.digest() == g.state.digest()
