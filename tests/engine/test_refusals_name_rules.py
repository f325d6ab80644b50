"""Every refusal of an answer the rules forbid names the rule by its id, e.g. ``(MAR-05)``
(../shared/spec/scenario-format.md: a scenario writes ``rejected: MAR-05``).

What is not an answer at all is told apart: a malformed answer (``check_shape``: the field and what it
should be), a command that does not answer the decision, an answer from the wrong seat. Everything
else a checker refuses names its rule; the scenarios ``tests/scenarios/rules/cos-14-*``, ``kw-03-*``,
``chl-07-*`` and ``plt-02-*`` check the cases the issue named one by one.
"""
from __future__ import annotations

import re

import pytest

from engine.builder import practice_game
from engine.decisions import GameOver, Refused, check_shape, command_of
from engine.game import Options
from engine.players import RandomPlayer

RULE_ID = re.compile(r"\b(?:[A-Z]{2,4}-\d{2}|C-\d{2})\b")


def _is_an_answer(d, answer) -> bool:
    """A well-formed command that answers this kind of decision (what a rule may refuse)."""
    try:
        check_shape(answer)
        return command_of(answer) in d.commands
    except (Refused, TypeError):
        return False


def _refusals(seed: int, players: tuple[str, ...], decisions: int = 700) -> list[tuple[str, dict, str]]:
    game = practice_game(seed, players=players, options=Options(prompt_all=bool(seed % 2)))
    answerers = {p: RandomPlayer(seed * 7 + i, mischief=0.3) for i, p in enumerate(players)}
    seen: list[tuple[str, dict, str]] = []
    real = game.answer

    def answer(player, given):
        d = game.advance()
        try:
            return real(player, given)
        except Refused as e:
            if _is_an_answer(d, given):
                seen.append((d.describe(), given, str(e)))
            raise

    game.answer = answer
    for _ in range(decisions):
        d = game.advance()
        if isinstance(d, GameOver):
            break
        answerers[d.player].play_turn(game)
    return seen


@pytest.mark.parametrize("seed,players", [(0, ("alice", "bob")), (1, ("alice", "bob", "carol")),
                                          (2, ("alice", "bob")), (3, ("alice", "bob", "carol", "dave"))])
def test_refusals_in_random_games_name_their_rule(seed, players):
    seen = _refusals(seed, players)
    assert len(seen) > 10  # the random players do try illegal answers
    missing = sorted({msg for _, _, msg in seen if not RULE_ID.search(msg)})
    assert not missing, "refusals without a rule id:\n" + "\n".join(missing[:40])


def test_plot_and_first_player_refusals_name_their_rule():
    game = practice_game(0, options=Options(prompt_all=True))
    d = game.advance()
    while d.kind != "plot":
        RandomPlayer(1).play_turn(game)
        d = game.advance()
    with pytest.raises(Refused, match=r"\(PLT-01\)"):
        game.answer(d.player, {"plot": game.player(d.player).hand[0]})
    game.answer(d.player, d.options[0])
    while d.kind != "first_player":
        RandomPlayer(2).play_turn(game)
        d = game.advance()
    with pytest.raises(Refused, match=r"\(PLT-08\)"):
        game.answer(d.player, {"first_player": "nobody"})
