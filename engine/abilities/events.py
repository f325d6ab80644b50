"""Events: the opportunities (gates) a ``when`` can name, the fields their gates carry, and the
modules that open them. ``tests/engine/test_vocabulary.py`` checks each event is opened where its
entry says, and that no code opens an event missing here."""
from __future__ import annotations

from typing import TYPE_CHECKING

from engine.abilities.filters import matches
from engine.abilities.model import Ctx
from engine.abilities.registry import REGISTRY, Bool, FilterSchema, Int, Words, event
from engine.state import CHALLENGE_TYPES, PHASES

if TYPE_CHECKING:
    from engine.game import Game

CARD = FilterSchema(words=("self", "host"), form="FILTER | self | host")
PLAYER = Words("you", "opponent")
TYPE = Words(*CHALLENGE_TYPES, "any")
AS = Words("attacker", "defender", "any")
PHASE = Words(*PHASES, "any")
SOURCE = Words("event", "character", "location", "attachment", "plot", "agenda", "house", "framework", "any")

FLOW = "engine/flow.py"
EFFECTS = "engine/abilities/effects.py"
RUNTIME = "engine/abilities/runtime.py"
MANUAL = "engine/manual.py"  # text played by hand (its tools open the gates the text would)

for _name, _what, _said in (("killed", "killed", "is killed"), ("discarded", "discarded", "is discarded from play"),
                            ("returned", "returned to hand or deck", "is returned to its owner's hand or deck")):
    event(_name, {"card": CARD, "player": PLAYER},
          f"a card in play becomes moribund by being {_what} (card, its controller)",
          opened_by=(EFFECTS,) + ((FLOW,) if _name in ("killed", "discarded") else ()),
          phrase=lambda w, r, said=_said: f"after {r.event_card(w)} {said}")
event("left_play", {"card": CARD, "player": PLAYER}, "a card in play becomes moribund by any removal (card, its "
      "controller)", opened_by=(EFFECTS, FLOW, MANUAL),
        phrase=lambda w, r: f"after {r.event_card(w)} leaves play")
event("marshalled", {"card": CARD, "player": PLAYER, "penalty": Bool()}, "a card is marshalled (card, player; "
      "`penalty: true`: its cost included a gold penalty, one he chose to pay or another House's, MAR-07)",
      opened_by=(FLOW,),
        phrase=lambda w, r: r.event_by(w, "marshal", "is marshalled")
        + (" with a gold penalty" if w.get("penalty") else ""))
event("entered_play", {"card": CARD, "player": PLAYER, "from": Words("hand", "deck", "discard", "dead")},
      "a card is marshalled or put into play (card, player; `from`: the pile it came from, \"from your hand\")",
      opened_by=(FLOW, EFFECTS, MANUAL),
        phrase=lambda w, r: f"after {r.event_card(w)} enters play" + (
            f" from {'your' if w.get('player') == 'you' else 'a'} "
            + {"discard": "discard pile", "dead": "dead pile"}.get(w["from"], w["from"]) if w.get("from") else ""))
event("played", {"card": CARD, "player": PLAYER}, "an event card is played (card, player)", opened_by=(FLOW, MANUAL),
        phrase=lambda w, r: r.event_by(w, "play", "is played", "an event"))
event("challenge_declared", {"type": TYPE, "player": PLAYER}, "the framework declares attackers (type, the "
      "attacker)", opened_by=(FLOW,),
        phrase=lambda w, r: f"after {r.event_player(w, 'declare')} {r.challenge(w)}")
event("defenders_declared", {"type": TYPE, "player": PLAYER}, "the framework declares defenders (type, the "
      "defender)", opened_by=(FLOW,),
        phrase=lambda w, r: f"after {r.event_player(w, 'declare')} defenders in {r.challenge(w)}")
event("challenge_won", {"player": PLAYER, "type": TYPE, "as": AS, "by_min": Int(minimum=1)}, "a challenge's winner "
      "is determined (the winner, type, as attacker or defender; `by_min: N`: won by N or more STR)",
      opened_by=(FLOW,),
        phrase=lambda w, r: f"after {r.event_player(w, 'win')} {r.challenge(w)}")
event("challenge_lost", {"player": PLAYER, "type": TYPE, "as": AS, "by_min": Int(minimum=1)}, "a challenge's loser "
      "is determined (the loser, type, as attacker or defender; `by_min: N`: lost by N or more STR)", opened_by=(FLOW,),
        phrase=lambda w, r: f"after {r.event_player(w, 'lose')} {r.challenge(w)}")
event("challenge_resolved", {"type": TYPE, "player": PLAYER}, "a challenge has been resolved, whether or not "
      "anybody won it (type, the attacker): its winner, claim, unopposed power, Renown and Deadly are done",
      opened_by=(FLOW,),
      phrase=lambda w, r: (f"after {r.challenge(w)} "
                           + (f"{'you' if w['player'] == 'you' else 'an opponent'} initiated " if w.get("player") else "")
                           + "is resolved"))
event("renown_claimed", {"card": CARD, "player": PLAYER}, "a character claims power for renown (card, player)",
      opened_by=(FLOW,),
        phrase=lambda w, r: f"after {r.event_card(w)} gains power for renown")
event("plot_revealed", {"card": CARD, "player": PLAYER}, "a plot is revealed (\"When revealed:\" is `card: "
      "self`)", opened_by=(FLOW, EFFECTS),
        phrase=lambda w, r: ("When revealed:" if w.get("card") == "self"
                             else r.event_by(w, "reveal", "is revealed", "a plot")))  # core-b: new_plot opens it too
event("saved", {"card": CARD, "player": PLAYER}, "a card was saved (card, its controller)",
      opened_by=(FLOW, EFFECTS, MANUAL),
        phrase=lambda w, r: f"after {r.event_card(w)} is saved")
event("phase_begins", {"phase": PHASE}, "a phase begins (framework; phase)", opened_by=(FLOW,),
        phrase=lambda w, r: ("at the beginning of "
                             + (f"the {w['phase']} phase" if w.get("phase", "any") != "any" else "each phase")))
event("phase_ends", {"phase": PHASE, "round_end": Bool()}, "a phase ends (framework; phase; `round_end: true`: only "
      "the last phase of the round, \"at the end of the round\")", opened_by=(FLOW,),
        phrase=lambda w, r: ("at the end of the round" if w.get("round_end") else "at the end of "
                             + (f"the {w['phase']} phase" if w.get("phase", "any") != "any" else "each phase")))
event("would_be_killed", {"card": CARD}, "step 2 only: a card the resolving effect would kill (card) — for saves",
      opened_by=(RUNTIME,), step="save_cancel",
        phrase=lambda w, r: f"when {r.event_card(w)} would be killed")
event("would_be_discarded", {"card": CARD}, "step 2 only: a card the resolving effect would discard (card) — for "
      "saves", opened_by=(RUNTIME,), step="save_cancel",
        phrase=lambda w, r: f"when {r.event_card(w)} would be discarded from play")
event("would_leave_play", {"card": CARD}, "step 2 only: a card the resolving effect would kill or discard (card) "
      "— for saves", opened_by=(RUNTIME,), step="save_cancel",
        phrase=lambda w, r: f"when {r.event_card(w)} would be killed or discarded")
event("cancelable", {"source": SOURCE, "card": CARD, "player": PLAYER, "triggered": Bool()}, "step 2 only: the "
      "effect being resolved (source: its class; card; player; `triggered: true`: only an action or a response, "
      "events included, not a passive or the framework, EFF-01) — for cancels", opened_by=(RUNTIME,),
      step="save_cancel",
        phrase=lambda w, r: "when " + r.cancelable(w) + " would resolve")

# --- core-b additions ---
event("dominance_won", {"player": PLAYER}, "a player wins dominance (the winner)", opened_by=(FLOW,),
        phrase=lambda w, r: f"after {r.event_player(w, 'win')} dominance")

# --- core-d additions ---
event("placed_in_dead_pile", {"card": CARD, "player": PLAYER}, "a card is placed in a dead pile by any route: "
      "killed, or sent there instead (MOR-02: as it becomes moribund) (card, the pile's owner)",
      opened_by=(EFFECTS, FLOW),
        phrase=lambda w, r: f"after {r.event_card(w)} is placed in a dead pile")
event("card_revealed", {"card": CARD, "player": PLAYER}, "a card found by a search is revealed (card, the player "
      "who reveals it)", opened_by=(EFFECTS,),
        phrase=lambda w, r: f"after {r.event_card(w)} is revealed from a deck")

event("card_shown", {"card": CARD, "player": PLAYER}, "a player reveals a card by any effect: one a search finds, "
      "each card of a hand he reveals, a card he reveals from the top of a deck (card, the player who reveals it)",
      opened_by=(EFFECTS,),
      phrase=lambda w, r: f"after a player reveals {r.event_card(w)}")
EVENTS = REGISTRY["event"]


def gate_matches(g: Game, when: dict, gate: dict, ctx: Ctx) -> bool:
    if when.get("event") != gate.get("event"):
        return False
    if "card" in when:
        card = gate.get("card")
        if card is None:
            return False
        spec = when["card"]
        if spec == "self":
            if card != ctx.source:
                return False
        elif spec == "host":
            if card != g.card(ctx.source).attached_to:
                return False
        elif not matches(g, card, spec, ctx):
            return False
    if "player" in when:
        who = gate.get("player")
        if when["player"] == "you" and who != ctx.player or when["player"] == "opponent" and who == ctx.player:
            return False
    if "by_min" in when and int(gate.get("margin") or 0) < int(when["by_min"]):
        return False
    if "triggered" in when and bool(gate.get("triggered")) != bool(when["triggered"]):
        return False
    if "penalty" in when and bool(gate.get("penalty")) != bool(when["penalty"]):  # issue 24
        return False
    if "round_end" in when and bool(gate.get("round_end")) != bool(when["round_end"]):  # issue 24: Beric
        return False
    for key in ("type", "as", "phase", "source", "from"):
        if key in when and when[key] not in ("any", gate.get(key)):
            return False
    return True

# --- core-c additions ---
event("stood_in_standing", {"card": CARD, "player": PLAYER}, "the standing phase stands a kneeling card (card, its "
      "controller)", opened_by=(FLOW,),
        phrase=lambda w, r: f"after {r.event_card(w)} stands in the standing phase")
event("cards_revealed", {"card": CARD, "player": PLAYER}, "an effect reveals one or more cards: a search, a hand, a "
      "new plot (card: the effect's source; player: its controller)", opened_by=(EFFECTS,),
        phrase=lambda w, r: f"after {r.event_player(w, 'reveal')} cards with a card effect")

# --- issue 22 ---
event("card_drawn", {"player": PLAYER}, "a player draws a card: opened once per card drawn (DRW-02), by the "
      "draw phase or a card effect, not by setup draws (SET-08); the gate names the player, never the card "
      "(it is hidden in his hand)", opened_by=("engine/game.py",),
      phrase=lambda w, r: f"after {r.event_player(w, 'draw')} a card")
event("house_power_claimed", {"player": PLAYER}, "a player claims power for his House (the player; moving power "
      "is not claiming, ZON-08)", opened_by=("engine/game.py",),
      phrase=lambda w, r: f"after {r.event_player(w, 'claim')} power for "
                          f"{'your' if w.get('player') == 'you' else 'their'} House")


# --- issue 24 (CCG Winter Edition, w1) additions ---
event("stealth_used", {"card": CARD, "player": PLAYER}, "an attacker uses Stealth: it has chosen a character that "
      "cannot defend this challenge (CHL-06; card: the attacker, player: the attacking player)", opened_by=(FLOW,),
      phrase=lambda w, r: f"after {r.event_card(w)} uses stealth on a character")


# --- issue 24 (A Song of Night, part 2) ---
event("strength_changed", {"card": CARD, "player": PLAYER}, "a card effect's lasting modifier raises or lowers a "
      "card's STR (card, its controller; the `modify` effect with a `strength`: a constant whose bonus starts or ends "
      "opens no gate)", opened_by=(EFFECTS,),
      phrase=lambda w, r: f"after {r.event_card(w)} has its STR raised or lowered")
# --- issue 24 (A House of Thorns) ---
def _discarded_from(w: dict, r, pile: str) -> str:
    card = w.get("card")
    what = "this card" if card == "self" else r.filter(dict(card)) if isinstance(card, dict) else "a card"
    whose = {"you": "your", "opponent": "an opponent's"}.get(w.get("player"), "a player's")
    return f"after {what} is discarded from {whose} {pile}"


event("discarded_from_hand", {"card": CARD, "player": PLAYER}, "a card is discarded from a player's hand, by any "
      "effect, cost or claim (card, the hand's owner); opened once per card", opened_by=("engine/game.py",),
      phrase=lambda w, r: _discarded_from(w, r, "hand"))
event("discarded_from_deck", {"card": CARD, "player": PLAYER}, "a card is discarded from a player's deck, by any "
      "effect (card, the deck's owner); opened once per card", opened_by=("engine/game.py",),
      phrase=lambda w, r: _discarded_from(w, r, "deck"))
# --- issue 24 (Five Kings Edition, fk5) ---
event("control_taken", {"card": CARD, "player": PLAYER}, "a player takes control of a card in play from another "
      "player, by an effect or a controlling attachment (card; player: who takes it)", opened_by=(EFFECTS, FLOW),
      phrase=lambda w, r: f"after {r.event_player(w, 'take')} control of "
                          f"{r.event_card({k: v for k, v in w.items() if k != 'player'})}")
