"""What the parser makes of a card's ability data, and what the words refer to at run time."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.abilities.registry import REGISTRY


@dataclass(frozen=True)
class Ability:
    """One parsed ability of a card (COS-16: each paragraph is its own ability)."""

    index: int
    kind: str
    phase: str | None = None
    when: dict | None = None
    condition: dict | None = None
    limit: tuple[int, str] | None = None
    cost: dict = field(default_factory=dict)
    choose: dict | None = None
    effect: tuple = ()
    then: tuple = ()
    modify: dict | None = None
    attach_to: dict | None = None
    """An attachment restriction ("Lord or Lady only", ATT-01/02): the host must match."""
    text: str = ""
    prohibit: dict | None = None
    """A player restriction (GEN-01, ZON-08): {what: claim_house_power | challenges, max: N,
    player: you | opponent | each}."""
    terminal: dict | None = None
    """A terminal condition on this card (MOR-09): while the card matches this filter, it is killed."""
    leaves_play: str | None = None
    """``discard``: while the constant's condition holds, this card is discarded from play (the CCG's
    "discard this card from play when there are more Wildling than Night's Watch characters")."""
    control_host: bool = False
    """An attachment whose controller controls the attached character while attached (CTL-02)."""
    from_hand: bool = False
    """Used while the card is in its owner's hand ("put this card into play from your hand")."""
    from_pile: str | None = None
    """``discard`` / ``dead``: used while the card is in that pile of its owner's."""
    granted: bool = False
    from_dead: bool = False
    """core-b: used while the card is in its owner's dead pile (Forever Burning)."""
    """Usable only while the card's own effect has enabled it ({enable: N}): a delayed effect."""
    cannot_be_canceled: bool = False
    cannot_be_saved: bool = False
    lower_cost: dict | None = None
    """While the card is in hand, the cost to play it is lower: {by: N, for_each: FILTER | your_gold}."""
    no_kneel: tuple = ()
    """"attack" / "defend": the card does not kneel when declared (while the ability's condition holds)."""
    cannot_be: tuple = ()
    """Declaration restrictions: "attacker", "defender", "stealth_target"."""

    # --- core-d additions ---
    toll: dict | None = None
    """Gold a player gives another to declare, trigger or play something: {gold: N, for: [...], type, to}."""
    untargetable: dict | None = None
    """Who may not choose this card as a target: {by: opponent, source: [event, character, ...]}."""
    allows: tuple = ()
    """Rules the card opens for every player: "actions_before_reveal"."""
    spend_gold: bool = False
    """Gold tokens on this card may be spent by its controller as if they were in his gold pool."""
    optional_penalty: dict | None = None
    """Issue 24: {gold: N, card: FILTER}: a gold penalty of N its player may choose to pay as he marshals a card:
    this card (read while it is in his hand; no ``card``), or, while this card is in play, a card of his that
    matches ``card`` (Mance Rayder)."""
    not_declared_with: dict | None = None
    """Issue 24 (Andrik the Unsmiling): a filter; the card cannot be declared as an attacker or defender
    together with a card that matches it."""
    x_is: dict | None = None
    """Issue 24 (Lady of Schemes): the printed X (cost and STR) of this card is the number of cards that match
    this filter (``from:`` a pile; ``owner: you``), counted whenever it is read."""
    enters_kneeling: dict | None = None
    """Issue 24 (King's Landing, Muddy Way): a filter; while this card is in play, the cards that match it
    enter play kneeling."""
    claim_types: tuple = ()
    """Issue 24 (Breaking and Entering): with ``allows: [claim_into_play]``, the card types the claim may put into
    play (character, attachment, location); none given: characters (Scouting the Pass)."""
    as_agenda: bool = False
    """Issue 24 (the Five Kings agenda characters): works only while the card is its owner's agenda."""
    instead_of_claim: bool = False
    """Issue 24 (the Iron Throne Edition): a passive on ``challenge_won`` that replaces the winning attacker's
    claim: it resolves when the claim would, and the claim does not happen."""

    @property
    def is_save_or_cancel(self) -> bool:
        """TIM-06: responses that save or cancel are played in step 2, not step 5 (a cancel in ``then`` too: issue
        24, "cancel it unless a player kneels 1 influence", Tywin Lannister of the CCG)."""
        return any(_effect_name(e) in ("save", "cancel") for e in self.effect + self.then)

    @property
    def scripted(self) -> bool:
        return any(_effect_name(e) == "script" for e in self.effect + self.then)


def _effect_name(e: Any) -> str:
    """The effect word of one effect entry (``cancel`` or ``{kill: target}``), or ``?``."""
    if isinstance(e, str):
        return e
    effects = REGISTRY["effect"]
    return next((k for k in e if k in effects), "?")


@dataclass
class Ctx:
    """What an ability's words refer to while it is checked or resolved."""

    source: int
    player: str
    ability: Ability | None = None
    targets: list = field(default_factory=list)
    gate: dict | None = None
    event: Any = None
    destinations: dict = field(default_factory=dict)
    """MOR-06: where the first player chose to send a card removed in several ways at once."""
    answers: dict = field(default_factory=dict)
    """Choices its controller made while it resolved (``one_of``, ``search``...): id(effect) -> picks."""
    own_saves: list = field(default_factory=list)
    # --- core-b additions ---
    x: int = 0
    """The X the player chose when the ability was initiated (COS-09)."""
    paid: list = field(default_factory=list)
    """The cards knelt for a ``kneel`` cost ("have them claim power")."""
    chosen: list = field(default_factory=list)
    """Cards chosen by the players for a ``chooses`` effect (in step 1)."""
    unchosen: list = field(default_factory=list)
    """The cards the ``chooses`` effect offered and nobody chose ("all cards not chosen")."""
    """Cards this ability's own effect saved: its "then" still acts on them (Viserys Targaryen)."""
    discarded: list = field(default_factory=list)
    """Issue 24: the cards this ability's ``discard_top`` put into a discard pile (the ``discarded`` condition)."""
