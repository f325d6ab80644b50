"""Maester's English card text, generated from ability data (engine/abilities/render.py, issue 24)."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cards.model import CardDef
from cards.overlay import ABILITY_DIR, read_ability_file
from cards.pool import load_pool, practice_pool
from cards.yamlio import load_yaml_file
from engine.abilities import registry
from engine.abilities.registry import REGISTRY, TrueOnly
from engine.abilities.render import card_text, compare_lines, missing_phrases, paragraph

ROOT = Path(__file__).resolve().parents[2]
LCG_JSON = ROOT.parent / "shared" / "data" / "agot1-lcg-cards.json"
PLACEHOLDER = re.compile(r"[{}\[\]_?]|\bNone\b|\bTrue\b|\bFalse\b|  |<|>|\.\.|\bit's\b")


def _ability_data_cards() -> list[CardDef]:
    """Every entry of cards/abilities/*.yaml as a card (the type read from an attach_to, else character)."""
    out = []
    for path in sorted(ABILITY_DIR.glob("*.yaml")):
        for key, abilities in read_ability_file(path).items():
            out.append(CardDef(key=key, name=key, type="character", abilities=abilities))
    return out


def _scenario_cards() -> list[CardDef]:
    out = []
    for path in sorted((ROOT / "tests" / "scenarios").rglob("*.yaml")):
        data = load_yaml_file(path)
        for m in (data.get("cards") if isinstance(data, dict) else None) or []:
            if isinstance(m, dict) and m.get("abilities"):
                out.append(CardDef(key=str(m.get("key") or m.get("name")), name=str(m.get("name")),
                                   type=str(m.get("type") or "character"), abilities=tuple(m["abilities"])))
    return out


def _check(card: CardDef) -> str:
    text = card_text(card)
    assert text, f"{card.key}: no generated text"
    for line in text.splitlines():
        assert not PLACEHOLDER.search(line), f"{card.key}: {line!r}"
        assert line[:1].isupper() or line[:1] in "(\u201c", f"{card.key}: {line!r}"
        assert line.endswith((".", ")", "\u201d")), f"{card.key}: {line!r}"
    return text


def test_every_registered_word_has_a_phrase():
    assert missing_phrases() == []


def test_a_word_registered_without_a_phrase_is_found():
    registry.filter_key("zz_test_word", TrueOnly(), "a test word")(None)
    try:
        assert missing_phrases() == ["filter zz_test_word"]
    finally:
        del REGISTRY["filter"]["zz_test_word"]


def test_every_shipped_ability_entry_renders_without_placeholders():
    cards = _ability_data_cards()
    assert len(cards) > 180
    for card in cards:
        _check(card)


def test_every_automated_practice_card_renders():
    done = 0
    for card in practice_pool():
        if card.abilities:
            _check(card)
            done += 1
    assert done > 40


def test_scenario_cards_render():
    cards = _scenario_cards()
    assert len(cards) > 100
    for card in cards:
        _check(card)


@pytest.mark.parametrize("key, expected", [
    ("Silver-Tongued Envoy", "Challenges: Kneel 1 influence to choose a participating character an opponent "
                             "controls. It gets -1 STR until the end of the challenge. (Limit once per phase.)"),
    ("Goldrock Tollhouse", "Marshalling: Kneel this card to draw 1 card. If you do, discard 1 card at random from "
                           "your hand."),
    ("Call of the Wolfswood", "House Stark only.\nChallenges: Choose a standing Stark character you control. It "
                              "gets +2 STR and gains stealth until the end of the phase."),
    ("Coldbrook Hall", "Each defending Lord or Lady character you control gets +1 STR."),
    ("Whispered Slander", "Character an opponent controls only.\nAttached character gets -1 STR and loses a "
                          "power icon."),
    ("Full Granaries", "When revealed: Each opponent draws 1 card."),
])
def test_practice_cards_read_like_card_text(key, expected):
    assert card_text(practice_pool().get(key)) == expected


@pytest.mark.parametrize("raw, expected", [
    ({"kind": "action", "phase": "challenges", "cost": {"kneel_self": True},
      "choose": {"type": "character", "participating": True},
      "effect": [{"modify": "target", "strength": 2, "until": "challenge"}]},
     "Challenges: Kneel this card to choose a participating character. It gets +2 STR until the end of the "
     "challenge."),
    ({"kind": "response", "when": {"event": "challenge_won", "player": "you", "type": "military"},
      "if": {"self": {"participating": True}}, "choose": {"type": "character", "controller": "loser"},
      "effect": [{"kill": "target"}]},
     "Response: After you win a military challenge, if this card is participating, choose a character the losing "
     "player controls. Kill it."),
    ({"kind": "response", "when": {"event": "would_be_killed", "card": "host"}, "cost": {"kneel_self": True},
      "effect": [{"save": "trigger"}]},
     "Response: When attached character would be killed, kneel this card to save attached character."),
    ({"kind": "action", "phase": "marshalling", "cost": {"kneel_self": True},
      "effect": [{"reduce": 1, "card": {"type": "character", "house": "stark"}, "until": "phase"}]},
     "Marshalling: Kneel this card to reduce the cost of the next Stark character you play this phase by 1 gold."),
    ({"kind": "constant", "while": {"you_control": {"type": "character", "trait": "Lord", "count_min": 2}},
      "modify": {"target": "self", "strength": 3, "add_keywords": ["immune to events"]}},
     "While you control 2 or more Lord characters, this card gets +3 STR and gains immunity to events."),
    ({"kind": "passive", "when": {"event": "phase_begins", "phase": "dominance"},
      "effect": [{"one_of": {"a": [{"discard_top": "you"}], "b": [{"discard": "self"}]}}]},
     "At the beginning of the dominance phase, choose one: discard the top card of your deck or discard this card "
     "from play."),
    ({"kind": "action", "phase": "any", "limit": {"times": 1, "per": "round", "shared": "limited_response"},
      "cost": {"gold": 2}, "effect": [{"draw": 1, "player": "each_opponent"}]},
     "Any Phase: Pay 2 gold to have each opponent draw 1 card. (Limit once per round, counting all your Limited "
     "Responses.)"),
    # issue 24 (the CCG Winter starters' words)
    ({"kind": "response", "when": {"event": "challenge_won", "player": "you"}, "if": {"unopposed": True},
      "cost": {"influence_x": True}, "choose": {"type": "character", "participating": True},
      "effect": [{"claim_power": "target", "amount": "x"}]},
     "Response: After you win a challenge, if you won the challenge unopposed, kneel X influence to choose a "
     "participating character. It gains X power."),
    ({"kind": "action", "phase": "any", "cost": {"influence_x": True}, "choose": {"type": "character"},
      "effect": [{"modify": "target", "strength": "minus_x", "doomed": True, "no_kneel": ["attack"],
                  "cannot": ["stand"]}]},
     "Any Phase: Kneel X influence to choose a character. It gets -X STR, cannot stand, does not kneel when "
     "declared as an attacker and is Doomed until the end of the phase."),
    ({"kind": "action", "phase": "challenges", "if": {"won_challenges": ["military", "power"]},
      "effect": [{"draw": 1}]},
     "Challenges: If you have won a military challenge and a power challenge this phase, draw 1 card."),
    ({"kind": "passive", "when": {"event": "plot_revealed", "card": "self"},
      "if": {"controls_most": {"type": "location", "player": "opponent"}},
      "effect": [{"only_challenges": "power"}]},
     "When revealed: If an opponent controls more locations than each other player, you cannot declare attackers "
     "or defenders except in power challenges until the end of the round."),
    ({"kind": "passive", "when": {"event": "entered_play", "card": "self"},
      "effect": [{"duplicate_onto": "self", "to": {"trait": "Dragon", "controller": "you"}}]},
     "After this card enters play, this card becomes a duplicate of a Dragon card you control."),
    ({"kind": "response", "when": {"event": "cancelable", "triggered": True}, "effect": ["cancel"]},
     "Response: When a triggered effect or an event would resolve, cancel that effect."),
    ({"kind": "action", "phase": "any", "choose": {"type": "attachment", "from": "discard", "owner": "any"},
      "effect": [{"take_control": "target", "until": "round"}]},
     "Any Phase: Choose an attachment in any player's discard pile. Take control of it until the end of the "
     "round."),
    ({"kind": "constant", "while": {"in_play": {"doomed": True, "from": "dead"}},
      "prohibit": {"what": "extra_power_to_win", "max": 2, "player": "opponent"}},
     "While there is a Doomed card in a dead pile, your opponent needs 2 more power to win the game."),
    ({"kind": "constant", "prohibit": {"what": "draw_phase"}, "allows": ["extra_limited_location"]},
     "You cannot draw cards in the draw phase. You may marshal 1 additional Limited location this round."),
    ({"kind": "constant", "modify": {"target": "host", "printed_strength": 0, "cannot": ["be_saved"]},
      "not_declared_with": {"type": "character", "trait": "Knight"}},
     "Attached character has a printed STR of 0 and cannot be saved. This card cannot be declared as an attacker "
     "or defender together with a Knight character."),
    ({"kind": "action", "phase": "marshalling", "cost": {"kneel_host": True},
      "effect": [{"reduce": 1, "card": {"type": "character"}, "for_each": "host_attachments"}]},
     "Marshalling: Kneel attached character to reduce the cost of the next character you play this phase by 1 "
     "gold for each attachment on attached character."),
])
def test_abilities_read_like_card_text(raw, expected):
    assert paragraph(raw) == expected


def test_a_card_whose_abilities_do_not_parse_gets_no_text():
    bad = CardDef(key="bad", name="Bad", type="character", abilities=({"kind": "action", "phase": "never"},))
    assert card_text(bad) == ""


def test_a_card_with_text_by_hand_gets_no_text_and_keywords_only_text_gets_its_keywords():
    by_hand = CardDef(key="h", name="H", type="character", text="Réponse : après ...", text_lang="fr")
    assert card_text(by_hand) == ""
    keywords = CardDef(key="k", name="K", type="character", text="Stealth.", keywords=("stealth",))
    assert card_text(keywords) == "Stealth."


def test_this_file_holds_no_rules_text():
    """The sentences asserted here are generated from data, never the publisher's: no sentence of any LCG card's
    text (ten words or more) appears in this file. (Shorter runs, such as "until the end of the phase", are the
    game's own terms, which any wording shares.)"""
    if not LCG_JSON.exists():
        pytest.skip("no ../shared/data/agot1-lcg-cards.json")

    def norm(text: str) -> str:
        return " ".join(re.findall(r"[a-z0-9']+", text.lower()))

    ours = norm(Path(__file__).read_text(encoding="utf-8"))
    for record in json.loads(LCG_JSON.read_text(encoding="utf-8")):
        for sentence in re.split(r"[.:;!?\n]", re.sub(r"<[^>]+>", " ", record.get("rules_text") or "")):
            words = norm(sentence)
            assert len(words.split()) < 10 or words not in ours, (record["id"], words)


def test_the_lcg_cards_render_and_compare():
    if not LCG_JSON.exists():
        pytest.skip("no ../shared/data/agot1-lcg-cards.json")
    pool = load_pool(LCG_JSON)
    for card in pool:
        if card.abilities:
            _check(card)
    lines = compare_lines(pool)
    assert lines[0].split()[:2] == ["set", "cards"] and lines[-2].startswith("all")


def test_cards_pool_show_prints_maesters_wording_before_the_printed_text(tmp_path):
    """``python -m cards.pool show``: its ``__main__`` block passes the wording from the layer above."""
    env = {**os.environ, "MAESTER_HOME": str(tmp_path)}  # no imported cards: the practice set
    done = subprocess.run([sys.executable, "-m", "cards.pool", "show", "Silver-Tongued Envoy"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    mine = out.index("Maester's wording (generated from the ability data, not the printed text):")
    assert out.index("It gets -1 STR until the end of the challenge.") > mine
    assert out.index("text:        printed, in English") > mine


def test_cards_pool_takes_the_wording_from_above(capsys, monkeypatch, tmp_path):
    from cards import pool as pools

    monkeypatch.setenv("MAESTER_HOME", str(tmp_path))
    assert pools.main(["show", "Silver-Tongued Envoy"]) == 0  # cards/ alone: no wording
    assert "Maester's wording" not in capsys.readouterr().out
    assert pools.main(["show", "Silver-Tongued Envoy"], wording=lambda card: "Our words.") == 0
    assert "    Our words." in capsys.readouterr().out
    french = CardDef(key="fr", name="Fr", type="character", text="Réponse : ...", text_lang="fr")
    lines = pools.describe(french)
    assert "  english:     none: the text is in French and played by hand" in lines
    assert "  text:        printed, in French" in lines


def test_compare_counts_the_official_mentions_the_wording_makes_too(tmp_path):
    from engine.abilities.render import compare

    path = tmp_path / "cards.json"
    record = {"id": "core_8", "name": "Robb Stark", "card_type": "Character", "set": "Test Pack", "number": 8,
              "house": ["Stark"], "unique": True, "erratas": [], "cost": 4, "icons": ["Military"],
              "traits": ["Lord"], "strength": 2, "rules_text": "Kneel 2 Lord characters and one location."}
    path.write_text(json.dumps([record]), encoding="utf-8")
    rows = compare(load_pool(path))  # core_8 gets the project's ability data
    assert [(name, n) for name, n, _ in rows] == [("Test Pack", 1)]
    totals = rows[0][2]
    assert totals["numbers"] == (0, 1)  # our wording of core_8 says no "2"
    assert totals["types"][1] == 2 and totals["types"][0] == 1  # "character" yes, "location" no


def test_what_the_data_does_not_play_is_said():
    raw = ({"kind": "constant", "modify": {"target": "self", "strength": 1}},)
    stalwart = CardDef(key="s", name="S", type="character", text="Stalwart.\nWhile you are first player, it gets more.", abilities=raw)
    assert card_text(stalwart) == "This card gets +1 STR.\n(Not automated: the Stalwart keyword.)"
    noted = CardDef(key="n", name="N", type="character", abilities=raw, partial="its second paragraph")
    assert card_text(noted) == "This card gets +1 STR.\n(Not automated: its second paragraph.)"
