"""Winter Edition cards of issue 24 (their scenarios: tests/scenarios/ccg/winter3-*.yaml and
winter-starters-unless-influence*.yaml): influence knelt to stop an effect or to declare a character
(Standard of the Kraken, Banished), which the computer players answer, and what a scenario cannot
see (no stealth question at all under Unbowed, Unbent, Unbroken)."""
from pathlib import Path

import pytest

from engine import legality
from engine.ai.heuristic import HeuristicPlayer
from engine.decisions import Refused
from engine.players import RandomPlayer
from engine.scenario import ScenarioSkipped, load_scenario, run_scenario

CCG = Path(__file__).resolve().parents[1] / "scenarios" / "ccg"


def positioned(name: str, keep_steps: int):
    try:
        sc = load_scenario(CCG / name)
    except ScenarioSkipped as e:
        pytest.skip(str(e))
    sc.steps = sc.steps[:keep_steps]
    result = run_scenario(sc)
    assert result.passed, result.reason
    return sc.game, sc.labels


def to_bobs_question(g):
    """Pass the save/cancel steps until Bob is asked whether he kneels the influence."""
    d = g.advance()
    while not (d.kind == "choose" and d.player == "bob"):
        g.answer(d.player, {"pass": True})
        d = g.advance()
    return d


@pytest.mark.parametrize("player", [HeuristicPlayer(0), RandomPlayer(3), RandomPlayer(4)])
def test_computer_players_answer_the_influence_question(player):
    g, labels = positioned("winter-starters-unless-influence.yaml", 2)  # Alice has triggered the Standard
    d = to_bobs_question(g)
    assert d.choices == ["kneel_influence", "allow"]
    while True:  # the computer answers every question of Bob's about it, each answer taken
        player.play_turn(g)
        d = g.advance()
        if not (d.kind == "choose" and d.player == "bob"):
            break
    knelt = [c for c in ("envoy", "scribe", "steward") if g.card(labels[c]).kneeling]
    harbor = g.card(labels["harbor"]).controller
    if knelt:  # he paid: 2 influence or more, and the Harbor stays his
        assert sum(g.bonus(labels[c], "influence") for c in knelt) >= 2 and harbor == "bob"
    else:
        assert harbor == "alice"
    if isinstance(player, HeuristicPlayer):
        assert harbor == "bob"  # the heuristic player pays when he can


def test_a_refused_banished_declaration_leaves_the_game_as_it_was():
    g, labels = positioned("winter-starters-unless-influence.yaml", 5)  # Bob has paid with Envoy and Scribe
    g.card(labels["steward"]).kneeling = True
    d = g.advance()
    while not (d.kind == "challenge" and d.player == "bob"):
        g.answer(d.player, {"pass": True})
        d = g.advance()
    before = g.state.digest()
    with pytest.raises(Refused, match=r"kneel 1 influence.*GEN-01"):
        g.answer("bob", {"challenge": "military", "against": "alice", "attackers": [labels["knight"]]})
    assert g.state.digest() == before


def test_unbowed_leaves_stealth_nothing_to_choose():
    g, labels = positioned("winter3-unopposed-stealth-claim.yaml", 4)  # Alice has declared raider and sneak
    ch = g.state.challenge
    assert labels["sneak"] in ch.attackers and g.has_keyword(labels["sneak"], "stealth")
    assert legality.stealth_decision(g, ch) is None
    g.player("bob").revealed_plot = None  # without Unbowed, the sneak's stealth may choose Bob's characters
    d = legality.stealth_decision(g, ch)
    assert d is not None and labels["knight"] in d.choices
