"""Every option a decision lists is a legal answer, and the practice decks' abilities are used
in full games under the fuzz invariants (issue: timing and card abilities)."""
from engine.builder import practice_game
from engine.decisions import GameOver
from engine.game import Options
from engine.invariants import check_invariants
from engine.players import RandomPlayer


def _play_with_abilities(seed: int, players: tuple[str, ...], prompt_all: bool) -> tuple[int, int]:
    game = practice_game(seed, players=players, options=Options(prompt_all=prompt_all))
    rp = RandomPlayer(seed, pass_bias=0.2)
    decisions = triggered = 0
    while not isinstance(game.advance(), GameOver):
        d = game.advance()
        offered = [o for o in d.options if "trigger" in o]
        for o in offered:
            assert d.check(o)["trigger"] == o["trigger"]  # listed options are legal answers
        if offered and rp.rng.random() < 0.7:
            game.answer(d.player, rp.rng.choice(offered))
            triggered += 1
        else:
            rp.play_turn(game)
        decisions += 1
        assert check_invariants(game) == [], (seed, decisions)
        assert decisions < 50_000
    assert game.state.winner is not None
    return decisions, triggered


def test_practice_abilities_are_triggered_in_full_games_under_the_invariants():
    total_triggers = 0
    for seed in range(6):
        players = ("alice", "bob") if seed % 3 else ("alice", "bob", "carol")
        _, triggered = _play_with_abilities(seed, players, prompt_all=seed % 2 == 0)
        total_triggers += triggered
    assert total_triggers > 50
