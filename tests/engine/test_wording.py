"""The grammar of what players read (issue 22): "You is chosen at random as first player", "You places…" and
"Gain a intrigue icon" with the default names. ``engine.wording``: ``article`` and ``for_players``."""
from __future__ import annotations

import re

import pytest

from engine.builder import practice_game
from engine.decisions import GameOver, Refused
from engine.explain import explain
from engine.game import Options
from engine.players import RandomPlayer
from engine.wording import article, for_players


@pytest.mark.parametrize("word, expected", [
    ("intrigue", "an intrigue"), ("military", "a military"), ("power", "a power"), ("attachment", "an attachment"),
    ("event", "an event"), ("agenda", "an agenda"), ("action", "an action"), ("unique", "a unique"),
    ("8th", "an 8th"), ("4th", "a 4th"), ("int", "an int"), ("list", "a list"), ("one-shot", "a one-shot")])
def test_article(word, expected):
    assert article(word) == expected


@pytest.mark.parametrize("text, expected", [
    ("You is chosen at random as first player", "You are chosen at random as first player"),
    ("You places 2 setup cards facedown", "You place 2 setup cards facedown"),
    ("You has already made a power challenge this phase", "You have already made a power challenge this phase"),
    ("You searches the deck and reveals Ser Rodrik (Summoning Season)",
     "You search the deck and reveal Ser Rodrik (Summoning Season)"),
    ("initiative: You 3, Bob 0; You wins it", "initiative: You 3, Bob 0; You win it"),
    ("the top card of You's deck is Keep", "the top card of Your deck is Keep"),
    ("You passes. Bob passes", "You pass. Bob passes"),
    ("Bob attacks You (intrigue)", "Bob attacks You (intrigue)"),
    ("Bob is chosen at random as first player", "Bob is chosen at random as first player"),
    ("You Win or You Die: You cannot declare", "You Win or You Die: You cannot declare"),  # a card title
])
def test_the_verb_after_a_player_called_you(text, expected):
    assert for_players(text, ["You", "Bob"]) == expected
    assert for_players(text.replace("You", "Alice"), ["Alice", "Bob"]) == text.replace("You", "Alice")


THIRD_PERSON = re.compile(r"(?<![\w'])You (is|has|was|does|(?!as\b|its\b|plus\b)[a-z]*[^s\W]s)\b|You's")


@pytest.mark.parametrize("seed", [1, 2])
def test_every_sentence_of_a_game_with_a_player_called_you_reads_right(seed):
    """The engine's log keeps one wording (the goldfish summary and the table's banners read it); what players
    read goes through ``for_players`` (the table's log, messages, banners; ``explain`` itself): every log line,
    refusal and explanation of a whole game then has no "You is", "You places" or "You's"."""
    g = practice_game(seed=seed, players=["You", "Bob"], options=Options(prompt_all=False))
    players = {n: RandomPlayer(seed + i, pass_bias=0.2) for i, n in enumerate(g.state.player_names)}
    refusals, explained = [], []
    for _ in range(1500):
        d = g.advance()
        if isinstance(d, GameOver):
            break
        explained.append(explain(g, decision=d))
        if d.player == "You":
            try:
                g.answer("You", {"challenge": "intrigue", "attackers": [], "against": "Bob"})
            except Refused as err:
                refusals.append(str(err))
        players[d.player].play_turn(g)
    shown = [for_players(line, g.state.player_names) for line in g.state.log + refusals]
    text = "\n".join(shown)
    assert "You are chosen at random as first player" in text or "Bob is chosen at random" in text
    assert "You place" in text and refusals
    bad = [line for line in shown + explained if THIRD_PERSON.search(line)]
    assert not bad, bad[:5]
