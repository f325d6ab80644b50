"""Reading the timing of card text played by hand (cards/textlabels.py).

Every text here is invented (our own words). The last test reads the whole LCG card data
when it is present beside the project (../shared/data/agot1-lcg-cards.json) and checks
that every text-bearing card the engine does not automate yields at least one ability.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from cards.textlabels import KINDS, TextAbility, read_text, read_when

ROOT = Path(__file__).resolve().parents[2]
LCG_JSON = ROOT.parent / "shared" / "data" / "agot1-lcg-cards.json"


def one(text: str) -> TextAbility:
    got = read_text(text)
    assert len(got) == 1, got
    return got[0]


# ---------------------------------------------------------------------------
# Labels
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("label, phase", [
    ("Marshalling", "marshalling"), ("Challenges", "challenges"), ("Dominance", "dominance"),
    ("Any Phase", "any"), ("Plot", "plot"), ("Draw", "draw"), ("Standing", "standing"),
    ("Taxation", "taxation"), ("Action", "any"),
])
def test_english_phase_labels_are_actions_of_their_phase(label, phase):
    a = one(f"{label}: Kneel this card to gain 1 gold. (our own words)")
    assert (a.kind, a.phase, a.paragraph, a.limited) == ("action", phase, 1, False)
    assert not a.flagged


def test_ccg_action_label_means_any_phase():
    a = one("Action: Pay 1 gold to give a character +1 STR until the end of the phase.")
    assert (a.kind, a.phase) == ("action", "any")


@pytest.mark.parametrize("text, phase", [
    ("Action : Agenouillez cette carte pour piocher une carte.", "any"),
    ("Défis : Agenouillez un personnage pour gagner 1 pouvoir.", "challenges"),
    ("Organisation : Gagnez 1 pièce d'or.", "marshalling"),
    ("Toute phase : Choisissez un personnage.", "any"),
])
def test_french_action_labels(text, phase):
    a = one(text)
    assert (a.kind, a.phase) == ("action", phase)


def test_response_label_reads_its_gate():
    a = one("Response: After you win a military challenge, draw 1 card. (our own words)")
    assert a.kind == "response" and not a.limited
    assert a.when == {"event": "challenge_won", "player": "you", "type": "military"}
    assert "response" in a.describe() and "challenge won" in a.describe()


def test_limited_response_is_limited():
    a = one("Limited Response: After a character is killed, gain 2 gold. (our own words)")
    assert (a.kind, a.limited) == ("response", True)
    assert a.when == {"event": "killed"}


def test_responses_that_save_or_cancel_are_step_2():
    assert one("Response: Kneel this card to save a character. (our own words)").kind == "save"
    assert one("Response: Cancel the effects of an event. (our own words)").kind == "cancel"
    lim = one("Limited Response: Cancel a response. (our own words)")
    assert (lim.kind, lim.limited) == ("cancel", True)


def test_french_responses():
    a = one("Réponse : Après que vous gagnez un défi, piochez 1 carte.")
    assert a.kind == "response"
    assert a.when == {"event": "challenge_won", "player": "you"}
    assert one("Réponse : Annulez les effets d'un événement.").kind == "cancel"
    assert one("Réponse : Sauvez un personnage.").kind == "save"


def test_french_response_reads_the_challenge_type():
    a = one("Réponse : Après que vous gagnez un défi militaire, piochez 1 carte.")
    assert a.when == {"event": "challenge_won", "player": "you", "type": "military"}


def test_response_whose_gate_is_not_read_is_flagged():
    a = one("Response: When the moon is full, gain 1 gold. (our own words)")
    assert a.kind == "response" and a.when is None and a.flagged


# ---------------------------------------------------------------------------
# Passives
# ---------------------------------------------------------------------------

def test_when_revealed_is_a_passive_on_this_plot():
    a = one("When revealed: Each player gains 2 gold. (our own words)")
    assert (a.kind, a.when) == ("passive", {"event": "plot_revealed", "card": "self"})
    assert not a.flagged


@pytest.mark.parametrize("kind", ["military", "intrigue", "power"])
def test_after_you_win_a_challenge_of_a_type(kind):
    a = one(f"After you win a {kind} challenge, your House gains 1 power. (our own words)")
    assert a.kind == "passive"
    assert a.when == {"event": "challenge_won", "player": "you", "type": kind}


def test_after_you_win_a_challenge_without_type():
    assert one("After you win a challenge, gain 1 gold. (our own words)").when == \
        {"event": "challenge_won", "player": "you"}


def test_after_you_lose_a_challenge():
    assert one("After you lose an intrigue challenge, draw 1 card. (our own words)").when == \
        {"event": "challenge_lost", "player": "you", "type": "intrigue"}




@pytest.mark.parametrize("phase", ["plot", "draw", "marshalling", "challenges",
                                   "dominance", "standing", "taxation"])
def test_beginning_of_a_phase(phase):
    a = one(f"At the beginning of the {phase} phase, gain 1 gold. (our own words)")
    assert a.kind == "passive"
    assert a.when == {"event": "phase_begins", "phase": phase}


def test_end_of_a_phase():
    assert one("At the end of the dominance phase, stand this card. (our own words)").when == \
        {"event": "phase_ends", "phase": "dominance"}


def test_end_of_the_marshalling_phase():
    assert one("At the end of the marshalling phase, gain 1 gold. (our own words)").when == \
        {"event": "phase_ends", "phase": "marshalling"}


def test_passive_with_trigger_word_mid_sentence():
    a = one("Draw 1 card when this character comes into play. (our own words)")
    assert a.kind == "passive" and a.when == {"event": "entered_play"}


@pytest.mark.parametrize("text, event", [
    ("When a character is killed, gain 1 gold.", "killed"),
    ("After a location is discarded, draw 1 card.", "discarded"),
    ("After a card leaves play, gain 1 power.", "left_play"),
    ("After a character is saved, gain 1 gold.", "saved"),
    ("After you marshal a Knight, gain 1 gold.", "marshalled"),
    ("After an event is played, draw 1 card.", "played"),
    ("After a character is declared as a defender, it gets +1 STR.", "defenders_declared"),
])
def test_passive_events_read_from_fixed_phrases(text, event):
    a = one(text + " (our own words)")
    assert a.kind == "passive" and a.when["event"] == event


def test_read_when_on_unknown_text():
    assert read_when("Gain 1 gold for every tree in the forest.") is None


# ---------------------------------------------------------------------------
# Unlabelled constants and skipped lines
# ---------------------------------------------------------------------------

def test_unlabelled_constant_is_flagged():
    a = one("Your characters get +1 STR while you have the most gold. (our own words)")
    assert (a.kind, a.when, a.phase) == ("unlabelled", None, None)
    assert a.flagged and a.describe() == "timing not read"


def test_keyword_only_lines_are_skipped_and_paragraphs_keep_their_numbers():
    text = "Deadly.\nRenown. Stealth.\nChallenges: Kneel this card to draw 1 card. (our own words)"
    got = read_text(text)
    assert [(a.paragraph, a.kind, a.phase) for a in got] == [(3, "action", "challenges")]


def test_keyword_sentence_before_an_ability_in_the_same_paragraph():
    a = one("Stealth. Marshalling: Gain 1 gold. (our own words)")
    assert (a.paragraph, a.kind, a.phase) == (1, "action", "marshalling")


def test_several_paragraphs():
    text = ("Any Phase: Kneel this card to gain 1 gold.\n"
            "Response: After a character is killed, draw 1 card.\n"
            "Your House gets +1 initiative.")
    got = read_text(text)
    assert [(a.paragraph, a.kind) for a in got] == [(1, "action"), (2, "response"), (3, "unlabelled")]


def test_empty_and_markup():
    assert read_text("") == [] and read_text(None) == []
    a = one("<b>Challenges:</b> Kneel this card to gain 1 power. (our own words)")
    assert (a.kind, a.phase) == ("action", "challenges")


# ---------------------------------------------------------------------------
# The whole LCG data set
# ---------------------------------------------------------------------------

@pytest.mark.skipif(not LCG_JSON.is_file(), reason=f"{LCG_JSON} is not present")
def test_every_by_hand_lcg_card_yields_an_ability(capsys):
    from cards.pool import load_pool
    from engine.automation import MANUAL, classify

    pool = load_pool(LCG_JSON)
    kinds: Counter = Counter()
    flagged = 0
    by_hand = 0
    empty = []
    for card in pool.values() if hasattr(pool, "values") else pool:
        if card.abilities or not card.text or classify(card)[0] != MANUAL:
            continue
        by_hand += 1
        got = read_text(card.text)
        if not got:
            empty.append(f"{card.key} {card.name}")
        for a in got:
            assert a.kind in KINDS
            kinds[a.kind] += 1
            flagged += a.flagged
    with capsys.disabled():
        print(f"\nLCG cards played by hand: {by_hand}; abilities by kind: "
              + ", ".join(f"{k} {kinds[k]}" for k in KINDS) + f"; flagged {flagged}")
    assert by_hand > 0
    assert not empty, f"{len(empty)} by-hand cards yield no ability: {empty[:20]}"
