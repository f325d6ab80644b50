"""Computer answerers: a random player (for fuzzing and autoplay) built on the decision API.

A computer player sees only a ``Decision`` and the game; it answers through
``Game.answer`` like anyone else, so every answer it gives is checked.
"""
from __future__ import annotations

import random
from itertools import combinations

from engine.decisions import Decision, GameOver, Refused
from engine.game import Game
from engine.state import CHALLENGE_TYPES


class RandomPlayer:
    """Answers at random among legal options; may also try illegal answers (``mischief``)."""

    def __init__(self, seed: int = 0, *, mischief: float = 0.0, pass_bias: float = 0.3):
        self.rng = random.Random(seed)
        self.mischief = mischief
        self.pass_bias = pass_bias
        self.refusals = 0

    def candidates(self, game: Game, d: Decision) -> list[dict]:
        rng = self.rng
        if d.options and d.kind not in ("choose",):
            opts = list(d.options)
            if d.can_pass and rng.random() < self.pass_bias:
                return [{"pass": True}] + opts
            rng.shuffle(opts)
            return opts + ([{"pass": True}] if d.can_pass else [])
        if d.kind == "setup":
            hand = list(d.choices)
            rng.shuffle(hand)
            picks, tries = [], []
            for cid in hand:
                picks.append(cid)
                tries.append({"setup": list(picks)})
            tries.reverse()
            return tries + [{"pass": True}]
        if d.kind == "challenge":
            types = list(d.context.get("types", CHALLENGE_TYPES))
            rng.shuffle(types)
            out = []
            if rng.random() < self.pass_bias * 0.5:
                out.append({"pass": True})
            for t in types:
                able = [c for c in d.choices if t in game.icons(c) and not game.card(c).kneeling]
                if able:
                    k = rng.randint(1, len(able))
                    out.append({"challenge": t, "against": rng.choice(d.context["opponents"]),
                                "attackers": rng.sample(able, k)})
            return out + [{"pass": True}]
        if d.kind == "defend":
            k = rng.randint(0, len(d.choices))
            return [{"defend": rng.sample(list(d.choices), k)}, {"defend": []}]
        if d.kind == "stealth":
            attackers = d.context.get("attackers", [])
            targets = rng.sample(list(d.choices), min(len(attackers), len(d.choices)))
            return [{"stealth": dict(zip(attackers, targets))}, {"pass": True}]
        if d.kind == "choose":
            pool = list(d.choices)
            k = rng.randint(d.min_count, max(d.min_count, min(d.max_count, len(pool))))
            return [{"choose": rng.sample(pool, k)}] + [{"choose": list(c)} for c in
                                                          combinations(pool, d.min_count)][:5]
        if d.kind == "order":
            pool = list(d.choices)
            rng.shuffle(pool)
            return [{"order": pool}]
        return [{"pass": True}] if d.can_pass else list(d.options)

    def mischief_answer(self, game: Game, d: Decision) -> dict:
        """A probably-illegal answer: wrong command, foreign card, kneeling attacker..."""
        some_card = self.rng.choice(list(game.state.cards))
        return self.rng.choice([
            {"marshal": some_card}, {"challenge": "military", "attackers": [some_card]},
            {"defend": [some_card]}, {"choose": [some_card, some_card]}, {"plot": some_card},
            {"first_player": "nobody"}, {"setup": [some_card]}, {"duplicate_save": some_card},
            {"trigger": some_card}, {"bogus": 1},
        ])

    def play_turn(self, game: Game) -> bool:
        """Answer the pending decision. False once the game is over."""
        d = game.advance()
        if isinstance(d, GameOver) or d is None:
            return False
        if self.mischief and self.rng.random() < self.mischief:
            try:
                before = game.state.digest()
                game.answer(d.player, self.mischief_answer(game, d))
            except Refused:
                self.refusals += 1
                assert game.state.digest() == before, "a refused answer changed the state"
                assert game.advance() is d, "a refused answer closed the decision"
            else:
                return True
        for answer in self.candidates(game, d):
            try:
                game.answer(d.player, answer)
                return True
            except Refused:
                self.refusals += 1
        raise RuntimeError(f"no legal answer found for {d.describe()}")


def play_out(game: Game, players: dict[str, RandomPlayer] | RandomPlayer, max_decisions: int = 200_000) -> int:
    """Let computer players answer until the game ends; returns the number of decisions."""
    n = 0
    while n < max_decisions:
        d = game.advance()
        if isinstance(d, GameOver):
            return n
        who = players if isinstance(players, RandomPlayer) else players[d.player]
        who.play_turn(game)
        n += 1
    raise RuntimeError(f"the game did not end within {max_decisions} decisions")
