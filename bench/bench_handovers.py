"""Hand-overs and clicks at a hotseat table, per prompting setting (app.controller.PROMPTING).

Two people (Alice and Bob, practice decks) play scripted stretches of a game
through the table's controller, exactly as the window drives it:

- **marshalling turn**: the active player marshals two cards (the cheapest he
  can afford) and is done; the other passes wherever he is asked;
- **challenge**: the attacker declares a military challenge with one
  character, the defender defends with one (or none), claim is chosen, up to
  the attacker's next challenge; everyone else passes.

The position is the first of its kind, from a seed, in which the other player
has a legal play in some window of the stretch (so the settings differ). Each
setting is the other player's (the scripted one keeps ``legal``), plus
"legal + pass for the phase": he presses *Pass for the rest of this phase* the
first time he is asked. "before" is the table as it was: the engine itself
skipping the windows where passing was the only answer (``prompt_all=False``).

Clicks: one per answer (a drag, a button), plus one per card picked for a
challenge, defence or choice, plus the "I am <name>" click of each hand-over.
Hand-overs are those inside the stretch (not the one to whoever plays next).

    python bench/bench_handovers.py [--seed N]
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QCoreApplication  # noqa: E402

from app.controller import TableController  # noqa: E402
from engine.builder import practice_game  # noqa: E402
from engine.decisions import Decision  # noqa: E402
from engine.game import Options  # noqa: E402
from engine.players import RandomPlayer  # noqa: E402
from engine.replay import apply_history  # noqa: E402

NAMES = ["Alice", "Bob"]
SETTINGS = ("before", "legal", "legal + pass for the phase", "always", "never")


def _game(seed: int, prompt_all: bool):
    return practice_game(seed=seed, players=NAMES, options=Options(prompt_all=prompt_all))


def find_position(kind: str, seed: int, limit: int = 4000) -> tuple[list, list[bool]] | None:
    """Random play (prompt_all) up to the start of a stretch of ``kind``: the history and, per answer,
    whether passing was its only legal answer."""
    g = _game(seed, True)
    players = {n: RandomPlayer(seed * 7 + i, pass_bias=0.3) for i, n in enumerate(NAMES)}
    only: list[bool] = []
    seen_turns: set = set()
    for _ in range(limit):
        d = g.advance()
        if not isinstance(d, Decision):
            return None
        st = g.state
        if kind == "marshal" and d.kind == "action" and st.phase == "marshalling" and st.active_player == d.player \
                and (st.round, d.player) not in seen_turns:
            seen_turns.add((st.round, d.player))
            plain = sorted(g.defn(o["marshal"]).cost or 0 for o in d.options
                           if "marshal" in o and not o.get("attach_to") and not o.get("duplicate"))
            if len(plain) >= 2 and plain[0] + plain[1] <= g.player(d.player).gold:
                return list(g.history), list(only)
        if kind == "challenge" and d.kind == "challenge" and "military" in d.context.get("types", []) and \
                any("military" in g.icons(c) for c in d.choices) and g.characters(d.context["opponents"][0]):
            return list(g.history), list(only)
        only.append(d.only_pass)
        players[d.player].play_turn(g)
    return None


class Script:
    """The scripted people: answers for a stretch, and how many clicks each took."""

    def __init__(self, kind: str, game):
        self.kind = kind
        st = game.state
        d = game.advance()
        self.who = d.player  # the player whose turn or challenge it is
        self.round, self.phase = st.round, st.phase_serial
        self.marshalled = 0
        self.declared = False

    def over(self, game) -> bool:
        d = game.advance()
        st = game.state
        if not isinstance(d, Decision) or (st.round, st.phase_serial) != (self.round, self.phase):
            return True
        if self.kind == "marshal":
            return st.active_player != self.who
        return self.declared and d.kind == "challenge"

    def answer(self, game, d: Decision) -> tuple[dict, int]:
        if d.kind == "action" and "marshal" in str(d.options) and d.player == self.who and self.kind == "marshal":
            plain = [o for o in d.options if "marshal" in o and not o.get("attach_to") and not o.get("duplicate")]
            if self.marshalled < 2 and plain:
                self.marshalled += 1
                return min(plain, key=lambda o: game.defn(o["marshal"]).cost or 0), 1
            return {"pass": True}, 1
        if d.kind == "challenge" and not self.declared and d.player == self.who and self.kind == "challenge":
            attacker = next(c for c in d.choices if "military" in game.icons(c))
            self.declared = True
            return {"challenge": "military", "against": d.context["opponents"][0], "attackers": [attacker]}, 2
        if d.kind == "defend":
            picks = list(d.choices[:1])
            return {"defend": picks}, 1 + len(picks)
        if d.kind in ("choose", "order"):
            picks = list(d.choices[:d.min_count]) if d.kind == "choose" else list(d.choices)
            return {d.kind: picks}, 1 + len(picks)
        if d.can_pass:
            return {"pass": True}, 1
        return d.options[0], 1


def run(kind: str, setting: str, seed: int) -> dict | None:
    found = find_position(kind, seed)
    if found is None:
        return None
    history, only = found
    if setting == "before":  # the engine skips the windows where only passing is legal, as the table did
        game = _game(seed, False)
        apply_history(game, [h for h, skip in zip(history, only) if not skip])
    else:
        game = _game(seed, True)
        apply_history(game, history)
    script = Script(kind, game)
    other = next(n for n in NAMES if n != script.who)
    policy = setting.split(" ")[0] if setting != "before" else "legal"
    ctl = TableController(game, privacy=True, prompting={other: policy})
    ctl.start()
    ctl.reveal()  # the first seat is taken before the stretch starts
    handovers0 = ctl.handovers
    clicks = asked_other = asked_other_only_pass = 0
    pressed_phase = False
    for _ in range(2000):
        if script.over(game):
            break
        if ctl.hands_hidden:
            ctl.reveal()
            clicks += 1
        d = ctl.decision
        if d.player == other:
            asked_other += 1
            asked_other_only_pass += d.only_pass
        if setting.endswith("phase") and d.player == other and not pressed_phase and ctl.optional_window(d):
            pressed_phase = True
            assert ctl.pass_phase()
            clicks += 1
            continue
        answer, cost = script.answer(game, d)
        assert ctl.submit(answer), (setting, d.describe(), answer, ctl.last_message)
        clicks += cost
    handovers = ctl.handovers - handovers0 - (1 if ctl.hands_hidden else 0)  # not the one to the next turn
    return {"handovers": handovers, "clicks": clicks, "asked_other": asked_other,
            "other_only_pass": asked_other_only_pass, "position_seed": seed}


def first_interesting(kind: str, start: int = 0, tries: int = 40) -> int:
    """The first seed whose stretch asks the other player something under ``legal`` (he has a legal play)."""
    for seed in range(start, start + tries):
        r = run(kind, "legal", seed)
        if r is not None and r["asked_other"] > 0:
            return seed
    return start


def table(seed: int | None = None) -> dict[tuple[str, str], dict]:
    out = {}
    for kind in ("marshal", "challenge"):
        s = first_interesting(kind) if seed is None else seed
        for setting in SETTINGS:
            out[(kind, setting)] = run(kind, setting, s)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, help="the game's seed (default: the first one where the settings differ)")
    args = ap.parse_args()
    QCoreApplication.instance() or QCoreApplication([])
    results = table(args.seed)
    print(f"{'stretch':<12} {'setting':<28} {'hand-overs':>10} {'clicks':>7} {'other asked':>12}"
          f" {'of which only pass':>19}  seed")
    for (kind, setting), r in results.items():
        if r is None:
            print(f"{kind:<12} {setting:<28} (no such position)")
            continue
        print(f"{kind:<12} {setting:<28} {r['handovers']:>10} {r['clicks']:>7} {r['asked_other']:>12}"
              f" {r['other_only_pass']:>19}  {r['position_seed']}")


if __name__ == "__main__":
    main()
