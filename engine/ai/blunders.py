"""A blunder checker for computer players, independent of how they decide (it reads the real game as an
umpire would, and its own short list of effect words).

``Blunders.check(game, decision, answer, player)`` is called with the answer a player gave (before it is
applied) and counts, per player:

- ``self_harm``: a triggered ability whose effect (not its cost) kills, discards, returns, kneels or
  weakens a card of its own player that is in play, through the targets the player chose;
- ``hopeless_challenge``: a challenge declared with less STR than the defender's standing characters of
  that icon have together, while the attacker's standing characters of that icon could have reached it;
- ``unspent_gold``: passing in one's own marshalling turn while a card in hand could still be marshalled
  (not an attachment), with more gold than the dearest event in hand costs;
- ``idle_defender``: a defence that loses although the eligible characters could have won it, or a losing
  defence with more than one character (the second changes nothing).
"""
from __future__ import annotations

from collections import Counter

from engine import legality, triggers
from engine.decisions import Decision
from engine.game import Game

KINDS = ("self_harm", "hopeless_challenge", "unspent_gold", "idle_defender")
HARMFUL = ("kill", "discard", "return_to_hand", "return_to_deck", "kneel")


class Blunders:
    def __init__(self):
        self.counts: dict[str, Counter] = {}
        self.examples: list[str] = []
        self.label: str | None = None

    def add(self, player: str, kind: str, text: str) -> None:
        label = self.label or player
        self.counts.setdefault(label, Counter())[kind] += 1
        if len(self.examples) < 50:
            self.examples.append(f"{label} ({player}) {kind}: {text}")

    def total(self, player: str) -> int:
        return sum(self.counts.get(player, Counter()).values())

    def check(self, game: Game, d: Decision, answer: dict, player: str, label: str | None = None) -> None:
        """Count the blunders of ``player``'s ``answer`` to ``d`` (under ``label``, e.g. his level)."""
        self.label = label
        if "trigger" in answer:
            self._self_harm(game, answer, player)
        elif "challenge" in answer:
            self._challenge(game, d, answer, player)
        elif d.kind == "action" and "pass" in answer:
            self._gold(game, d, player)
        elif "defend" in answer:
            self._defend(game, d, answer, player)

    def _self_harm(self, g: Game, answer: dict, me: str) -> None:
        try:
            ab = triggers.abilities(g, answer["trigger"])[int(answer.get("ability", 1)) - 1]
        except Exception:  # noqa: BLE001
            return
        targets = [t for t in answer.get("targets") or [] if isinstance(t, int) and t in g.state.cards]
        for e in tuple(ab.effect) + tuple(ab.then):
            if not isinstance(e, dict):
                continue
            words = [w for w in HARMFUL if e.get(w) in ("target", "targets")]
            if "modify" in e and e["modify"] in ("target", "targets") and (
                    int(e.get("strength") or 0) < 0 or e.get("blank")):
                words.append("modify")
            for w in words:
                for t in targets:
                    c = g.card(t)
                    if c.zone == "in_play" and c.controller == me and not (w == "kneel" and c.kneeling):
                        self.add(me, "self_harm", f"{g.name(answer['trigger'])} {w} own {g.name(t)}")
                        return

    def _challenge(self, g: Game, d: Decision, answer: dict, me: str) -> None:
        t, opp = answer["challenge"], answer.get("against")
        if opp is None:
            opps = [n for n in g.opponents(me) if not g.player(n).eliminated]
            opp = opps[0] if opps else None
        if opp is None:
            return
        defence = sum(g.strength(c) for c in g.characters(opp, standing=True)
                      if t in g.icons(c) and legality.can_defend(g, _Pseudo(t, opp), c))
        attack = sum(g.strength(c) for c in answer["attackers"])
        possible = sum(g.strength(c) for c in g.characters(me, standing=True) if legality.can_attack(g, me, c, t))
        if attack < defence <= possible:
            self.add(me, "hopeless_challenge", f"{t} with {attack} STR against {defence} (could have {possible})")

    def _gold(self, g: Game, d: Decision, me: str) -> None:
        st = g.state
        if st.phase != "marshalling" or st.active_player != me:
            return
        p = g.player(me)
        events = [g.defn(c).cost or 0 for c in p.hand if g.defn(c).type == "event"]
        if p.gold <= max(events, default=0):
            return
        playable = [o for o in d.options if "marshal" in o and o.get("attach_to") is None]
        if playable:
            self.add(me, "unspent_gold", f"{p.gold} gold left with {g.name(playable[0]['marshal'])} playable")

    def _defend(self, g: Game, d: Decision, answer: dict, me: str) -> None:
        ch = g.state.challenge
        if ch is None:
            return
        picks = answer["defend"]
        if not picks:
            return
        attack = sum(g.strength(c) for c in ch.attackers)
        got = sum(g.strength(c) for c in picks)
        could = sum(g.strength(c) for c in d.choices)
        if got <= attack and (could > attack or len(picks) > 1):
            self.add(me, "idle_defender", f"{ch.type}: {got} STR against {attack} (could have {could})")


class _Pseudo:
    """The challenge a defender would face: enough of ``Challenge`` for ``legality.can_defend``."""

    def __init__(self, ctype: str, defender: str):
        self.type = ctype
        self.defender = defender
        self.stealth: dict = {}
