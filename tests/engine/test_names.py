"""Player names are checked once, where they are entered (``engine.decisions.name_problem``): a name it
accepts is one every answer naming the player fits, so no game is stuck on its first-player decision."""
from __future__ import annotations

import pytest

from engine.builder import practice_game
from engine.decisions import GameOver, Refused, name_problem, names_problem
from engine.players import RandomPlayer

BAD = {"rlm": "Al\u200fice", "rtl-override": "\u202eBob", "escape": "Bob\x1b[31m", "bell": "Bob\x07",
       "zero-width": "Ca\u200brol", "newline": "Da\nve", "blank": "   ", "empty": "", "long": "x" * 101}
GOOD = ["Alice", "Zo\u00eb", "\u674e\u767d", "Anne-Marie O'Neil", "Dave \U0001f409", "x" * 100]


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_name_with_an_invisible_or_control_character_is_refused_with_one_message(case):
    problem = name_problem(BAD[case])
    assert problem and "\n" not in problem
    if case not in ("blank", "empty", "long"):
        assert "U+" in problem and "control or invisible character" in problem
        assert all(ch.isprintable() for ch in problem)  # the message never carries the character itself
    with pytest.raises(ValueError) as err:  # the engine is given only accepted names
        practice_game(seed=1, players=(BAD[case], "Other"))
    assert str(err.value) == problem


@pytest.mark.parametrize("name", GOOD)
def test_a_game_with_any_accepted_name_plays_and_every_option_naming_a_player_is_accepted(name):
    """Every option offered (the first-player choice names each player) fits its decision: before names
    were checked, U+200F made the first-player option naming that player a refused answer (both players
    so named: no legal answer at all, the game stuck)."""
    assert name_problem(name) is None
    game = practice_game(seed=2, players=(name, "Other"))
    chooser = RandomPlayer(seed=4)
    kinds = set()
    for _ in range(150):
        d = game.advance()
        if isinstance(d, GameOver):
            break
        kinds.add(d.kind)
        for option in d.options:
            d.check(option)  # raises Refused if an offered option names the player in a way answers refuse
        for answer in chooser.candidates(game, d):
            try:
                game.answer(d.player, answer)
                break
            except Refused:
                continue
        else:
            pytest.fail(f"no legal answer for {d.kind} of {d.player!r}")
    assert "first_player" in kinds


def test_two_players_of_one_name_are_refused():
    assert "different name" in names_problem(["Bob", "Bob"])
