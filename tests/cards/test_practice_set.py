"""The practice set (cards/practice): our own original cards and two legal decks.

The composition checks use plain Python on ``yaml.safe_load`` output, so they run
whatever state the card loaders are in. When ``cards.schema.load_card_file`` (and
``cards.deck``) exist, each file is also read through them. docs/practice-set.md
lists the cards and where each rules mechanic appears. Every ability in a card's
text is automated with ``abilities`` in the engine's format (docs/abilities.md); the
checks at the end of this file parse them and compare them with the text.
"""
from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
PRACTICE = ROOT / "cards" / "practice"
CARD_FILES = [PRACTICE / f"{name}.yaml" for name in ("stark", "lannister", "neutral", "plots")]
DECK_FILES = {
    "stark": PRACTICE / "decks" / "stark-practice.txt",
    "lannister": PRACTICE / "decks" / "lannister-practice.txt",
}

FIELDS = {
    "name", "key", "type", "house", "unique", "cost", "strength", "icons", "traits", "keywords",
    "doomed", "influence", "income", "initiative", "claim", "crest", "set", "number", "house_only",
    "deck_limit", "text", "abilities",
}
TYPES = {"character", "location", "attachment", "event", "plot", "agenda", "house"}
HOUSE_DECK_TYPES = {"character", "location", "attachment", "event"}
HOUSES = {"stark", "lannister", "baratheon", "greyjoy", "targaryen", "martell"}
ICONS = {"military", "intrigue", "power"}
CRESTS = {"noble", "war", "learned", "holy", "shadow"}
SIMPLE_KEYWORDS = {"deadly", "deathbound", "renown", "stealth", "limited", "no attachments", "setup"}
SECTIONS = {"plots": "plot", "characters": "character", "locations": "location",
            "attachments": "attachment", "events": "event"}
KNEEL_INFLUENCE = re.compile(r"\bkneel (\d+) influence\b", re.I)
ENTRY = re.compile(r"^(\d+)x\s+(.+)$")


# --------------------------------------------------------------------------- loading

def _load_cards() -> list[dict]:
    cards = []
    for path in CARD_FILES:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert isinstance(data, dict), path
        assert data.get("format") == 1, path
        assert set(data) <= {"format", "set", "description", "cards"}, path
        for card in data["cards"]:
            card = dict(card)
            card["_file"] = path.name
            cards.append(card)
    return cards


CARDS = _load_cards()
BY_NAME = {c["name"]: c for c in CARDS}


def _house(card: dict) -> str:
    h = card.get("house", "neutral")
    return h if isinstance(h, str) else "/".join(h)


def _parse_deck(path: Path) -> dict:
    """The plain text deck format: ``House:``/``Agenda:`` lines, section headers, ``Nx Name``."""
    deck = {"house": None, "agenda": None, "plots": Counter(), "cards": Counter(), "entries": []}
    section = None
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        low = line.lower()
        if low.startswith("house:"):
            deck["house"] = line.split(":", 1)[1].strip().lower()
        elif low.startswith("agenda:"):
            deck["agenda"] = line.split(":", 1)[1].strip()
        elif line.endswith(":") and low[:-1] in SECTIONS:
            section = low[:-1]
        else:
            m = ENTRY.match(line)
            assert m, f"{path.name}:{number}: not a 'Nx Card Name' line: {line!r}"
            assert section, f"{path.name}:{number}: card line before any section header"
            qty, name = int(m.group(1)), m.group(2).strip()
            deck["entries"].append((number, section, qty, name))
            (deck["plots"] if section == "plots" else deck["cards"])[name] += qty
    return deck


DECKS = {house: _parse_deck(path) for house, path in DECK_FILES.items()}


def _deck_cards(deck: dict) -> list[dict]:
    """The House deck, one dict per copy."""
    return [BY_NAME[n] for n, q in deck["cards"].items() for _ in range(q)]


def _both_decks_cards() -> list[dict]:
    return [c for d in DECKS.values() for c in _deck_cards(d)]


def _used_cards() -> list[dict]:
    """Every distinct card either deck uses (plots, agenda and House deck)."""
    names = set()
    for d in DECKS.values():
        names |= set(d["plots"]) | set(d["cards"])
        if d["agenda"]:
            names.add(d["agenda"])
    return [BY_NAME[n] for n in sorted(names)]


# --------------------------------------------------------------------------- card files

def test_card_files_use_only_known_fields_and_values():
    for c in CARDS:
        where = f"{c['_file']}: {c.get('name')!r}"
        assert set(c) - {"_file"} <= FIELDS, f"{where}: unknown fields {set(c) - FIELDS - {'_file'}}"
        if "abilities" in c:  # the engine's ability format (docs/abilities.md); checked below
            assert isinstance(c["abilities"], list) and c["abilities"], where
        assert isinstance(c.get("name"), str) and c["name"].strip(), where
        assert c.get("type") in TYPES, where
        assert _house(c) in HOUSES | {"neutral"}, where
        if "house_only" in c:
            assert c["house_only"] in HOUSES, where
        assert set(c.get("icons", [])) <= ICONS, where
        assert set(c.get("crest", [])) <= CRESTS, where
        for kw in c.get("keywords", []):
            assert kw in SIMPLE_KEYWORDS or (kw.startswith("immune to ") and len(kw) > 10), f"{where}: {kw!r}"
        if c["type"] == "character":
            assert isinstance(c.get("strength"), int) and isinstance(c.get("cost"), int), where
            assert c.get("icons"), f"{where}: a practice character needs at least one icon"
        else:
            assert "strength" not in c and "icons" not in c, where
        if c["type"] in ("plot", "agenda", "house"):
            assert "cost" not in c and "doomed" not in c, where
        if c["type"] == "plot":
            for f in ("income", "initiative", "claim"):
                assert isinstance(c.get(f), int), f"{where}: {f}"
        else:
            assert "claim" not in c, where
        if c["type"] in ("location", "attachment"):
            assert isinstance(c.get("cost"), int), where
        if c["type"] == "house":
            assert not c.get("text"), f"{where}: House cards have no text"
            assert c["name"] == f"House {c['house'].title()}", where
        # Keywords sit on their own line at the top of the text (KW-01).
        for kw in c.get("keywords", []):
            assert kw.lower() in c.get("text", "").split("\n")[0].lower(), f"{where}: keyword {kw!r} not in text"


def test_keys_and_names_are_unique_and_numbers_distinct():
    keys = Counter(c.get("key", c["name"]) for c in CARDS)
    assert [k for k, n in keys.items() if n > 1] == []
    names = Counter(c["name"].casefold() for c in CARDS)
    assert [k for k, n in names.items() if n > 1] == []
    numbers = Counter(c["number"] for c in CARDS)
    assert [k for k, n in numbers.items() if n > 1] == []


def test_events_never_have_a_house():
    events = [c for c in CARDS if c["type"] == "event"]
    assert events
    for e in events:
        assert "house" not in e, e["name"]


def test_house_only_cards_say_so_in_their_text():
    for c in CARDS:
        if "house_only" in c:
            assert f"House {c['house_only'].title()} only." in c.get("text", ""), c["name"]


def test_every_card_type_is_present_and_used():
    assert {c["type"] for c in CARDS} == TYPES
    used = {c["type"] for c in _used_cards()} | {"house"}
    assert used == TYPES


def test_each_file_holds_the_cards_it_is_named_for():
    for c in CARDS:
        f = c["_file"]
        if f == "plots.yaml":
            assert c["type"] == "plot", c["name"]
        elif f == "neutral.yaml":
            assert c["type"] != "plot" and _house(c) == "neutral" and "house_only" not in c, c["name"]
        else:
            house = f.removesuffix(".yaml")
            assert _house(c) == house or c.get("house_only") == house, c["name"]


# --------------------------------------------------------------------------- deck construction

@pytest.mark.parametrize("house", sorted(DECK_FILES))
def test_deck_lines_name_defined_cards_of_their_section(house):
    deck = DECKS[house]
    assert deck["house"] == house
    for number, section, qty, name in deck["entries"]:
        assert name in BY_NAME, f"{house} deck line {number}: {name!r} is not a practice card"
        assert BY_NAME[name]["type"] == SECTIONS[section], f"line {number}: {name!r} under {section}"
        assert qty >= 1
    assert sum(1 for c in CARDS if c["type"] == "house" and c["house"] == house) == 1


@pytest.mark.parametrize("house", sorted(DECK_FILES))
def test_agenda_is_one_defined_agenda(house):
    agenda = DECKS[house]["agenda"]
    assert agenda in BY_NAME and BY_NAME[agenda]["type"] == "agenda"


@pytest.mark.parametrize("house", sorted(DECK_FILES))
def test_plot_deck_has_seven_distinct_plots(house):  # DCK-01
    plots = DECKS[house]["plots"]
    assert sum(plots.values()) == 7
    assert len(plots) == 7 and set(plots.values()) == {1}


@pytest.mark.parametrize("house", sorted(DECK_FILES))
def test_house_deck_size_and_copies(house):  # DCK-02, DCK-03
    cards = DECKS[house]["cards"]
    assert 60 <= sum(cards.values()) <= 62
    for name, qty in cards.items():
        assert qty <= min(3, BY_NAME[name].get("deck_limit", 3)), name
    assert not set(cards) & set(DECKS[house]["plots"])


@pytest.mark.parametrize("house", sorted(DECK_FILES))
def test_no_house_only_card_of_another_house(house):  # DCK-04
    deck = DECKS[house]
    names = list(deck["cards"]) + list(deck["plots"]) + [deck["agenda"]]
    for name in names:
        only = BY_NAME[name].get("house_only")
        assert only in (None, house), f"{name} is House {only} only"


@pytest.mark.parametrize("house", sorted(DECK_FILES))
def test_healthy_type_mix(house):
    by_type = Counter(c["type"] for c in _deck_cards(DECKS[house]))
    assert 24 <= by_type["character"] <= 30
    assert 10 <= by_type["location"] <= 14
    assert 6 <= by_type["attachment"] <= 8
    assert 10 <= by_type["event"] <= 12


@pytest.mark.parametrize("house", sorted(DECK_FILES))
def test_setup_is_possible_and_curve_is_low(house):  # SET-02
    cards = _deck_cards(DECKS[house])
    cheap = [c for c in cards if c["type"] in ("character", "location") and c["cost"] <= 2]
    assert len(cheap) >= 20
    chars = [c for c in cards if c["type"] == "character"]
    assert all(1 <= c["cost"] <= 6 and 1 <= c["strength"] <= 6 for c in chars)
    assert sum(c["cost"] <= 3 for c in chars) >= 0.7 * len(chars)


@pytest.mark.parametrize("house", sorted(DECK_FILES))
def test_every_challenge_type_can_be_made(house):
    chars = [c for c in _deck_cards(DECKS[house]) if c["type"] == "character"]
    for icon in ICONS:
        assert sum(icon in c["icons"] for c in chars) >= 8, icon


@pytest.mark.parametrize("house", sorted(DECK_FILES))
def test_gold_penalty_cards_are_present(house):  # MAR-07
    outsiders = [c for c in _deck_cards(DECKS[house])
                 if c["type"] != "event" and _house(c) not in ("neutral", house)]
    assert 2 <= len(outsiders) <= 5
    assert {c["type"] for c in outsiders} >= {"character"}


# --------------------------------------------------------------------------- required mechanics

def test_every_keyword_is_used_across_the_two_decks():
    used = {kw for c in _used_cards() for kw in c.get("keywords", [])}
    assert SIMPLE_KEYWORDS <= used
    assert any(kw.startswith("immune to ") for kw in used)


def test_doomed_cards_are_in_both_decks():  # KW-05, WIN-04
    for house, deck in DECKS.items():
        assert any(c.get("doomed") for c in _deck_cards(deck)), house
    assert {c["type"] for c in _used_cards() if c.get("doomed")} >= {"character", "event"}


def test_influence_providers_and_influence_costs_in_both_decks():  # COS-01..03
    for house, deck in DECKS.items():
        cards = _deck_cards(deck)
        assert sum(c.get("influence", 0) > 0 for c in cards) >= 6, house
        payers = [c for c in cards if KNEEL_INFLUENCE.search(c.get("text", ""))]
        assert {c["type"] for c in payers} >= {"character", "event"}, house
        needed = max(int(n) for c in payers for n in KNEEL_INFLUENCE.findall(c["text"]))
        provided = sum(c.get("influence", 0) for c in {c["name"]: c for c in cards}.values())
        assert provided >= needed


def test_unique_cards_with_duplicates():  # UNQ
    for house, deck in DECKS.items():
        triples = [n for n, q in deck["cards"].items() if BY_NAME[n].get("unique") and q == 3]
        assert triples, f"{house}: no unique card with 3 copies"
    assert any(c.get("unique") and c["type"] == "location" for c in _used_cards())


def test_attachments_include_a_weapon_and_a_lord_or_lady_restriction():
    attachments = [c for c in _used_cards() if c["type"] == "attachment"]
    assert any("Weapon" in c.get("traits", []) for c in attachments)
    assert any(c.get("text", "").startswith("Lord or Lady only.") for c in attachments)
    assert any(c.get("text", "").startswith("Attach to a character an opponent controls.") for c in attachments)
    for house, deck in DECKS.items():
        assert any("Weapon" in c.get("traits", []) for c in _deck_cards(deck)), house


def test_save_and_cancel_events_in_both_decks():  # TIM-06
    for house, deck in DECKS.items():
        events = [c for c in _deck_cards(deck) if c["type"] == "event"]
        assert any(re.search(r"\bsave\b", c["text"]) for c in events), house
        assert any(re.search(r"\bcancel\b", c["text"]) for c in events), house
        assert any('"When revealed:"' in c["text"] and "cancel" in c["text"] for c in events), house


def test_responses_passives_and_phase_actions():
    texts = [c.get("text", "") for c in _used_cards()]
    assert sum("Response:" in t for t in texts) >= 10
    for label in ("Challenges:", "Marshalling:", "Dominance:", "Any Phase:", "When revealed:"):
        assert any(label in t for t in texts), label
    # Passive / constant abilities: text with no trigger label at all.
    labels = re.compile(r"(Response:|Challenges:|Marshalling:|Dominance:|Any Phase:|When revealed:)")
    passives = [c for c in _used_cards()
                if c.get("text") and not labels.search(c["text"]) and c["type"] != "house"
                and c["text"].strip().rstrip(".").lower() not in {k for k in SIMPLE_KEYWORDS}]
    assert len(passives) >= 8


def test_income_and_initiative_bonus_locations():  # MAR-02, PLT-06
    for house, deck in DECKS.items():
        locations = [c for c in _deck_cards(deck) if c["type"] == "location"]
        assert any(c.get("income", 0) > 0 for c in locations), house
        assert any(c.get("initiative", 0) > 0 for c in locations), house
        assert any("limited" in c.get("keywords", []) for c in locations), house


def test_plot_values_vary():  # PLT
    plots = [c for c in _used_cards() if c["type"] == "plot"]
    assert all(3 <= p["income"] <= 6 for p in plots)
    assert all(0 <= p["initiative"] <= 10 for p in plots)
    assert all(0 <= p["claim"] <= 3 for p in plots)
    assert {p["income"] for p in plots} >= {3, 4, 5, 6}
    assert min(p["initiative"] for p in plots) == 0 and max(p["initiative"] for p in plots) >= 8
    assert {p["claim"] for p in plots} >= {0, 1, 2, 3}
    for house, deck in DECKS.items():
        mine = [BY_NAME[n] for n in deck["plots"]]
        assert any(p["claim"] >= 2 for p in mine), house
        assert any(p["text"].startswith("When revealed:") for p in mine), house  # PLT-10
        assert any(not p["text"].startswith("When revealed:") for p in mine), house


# --------------------------------------------------------------------------- originality

def test_no_practice_card_shares_a_title_or_text_with_a_published_card(lcg_json):
    published = json.loads(Path(lcg_json).read_text(encoding="utf-8"))
    titles = {str(c.get("name", "")).casefold() for c in published}
    texts = {" ".join(str(c.get("rules_text") or "").split()).casefold() for c in published}
    for c in CARDS:
        if c["type"] == "house":
            continue  # "House Stark" is a fact, not an invention
        assert c["name"].casefold() not in titles, c["name"]
        text = " ".join(c.get("text", "").split()).casefold()
        if len(text) > 20:
            assert text not in texts, c["name"]


# --------------------------------------------------------------------------- project loaders (optional)

def test_card_files_load_through_the_schema():
    schema = pytest.importorskip("cards.schema")
    if not hasattr(schema, "load_card_file"):
        pytest.skip("cards.schema has no load_card_file yet")
    total = 0
    for path in CARD_FILES:
        loaded = schema.load_card_file(path)
        if isinstance(loaded, (list, tuple)):
            total += len(loaded)
    if total:
        assert total == len(CARDS)


def test_decks_pass_the_project_deck_checker():
    schema = pytest.importorskip("cards.schema")
    deck_mod = pytest.importorskip("cards.deck")
    model = pytest.importorskip("cards.model")
    if not hasattr(schema, "load_card_file") or not all(
            hasattr(deck_mod, f) for f in ("read_deck", "check_deck")):
        pytest.skip("the project's deck reader is not there yet")
    pool = model.CardPool()
    for path in CARD_FILES:
        for card in schema.load_card_file(path):
            pool.add(card)
    for house, path in DECK_FILES.items():
        deck = deck_mod.read_deck(path, pool)
        assert deck.house == house
        assert len(deck.plots) == 7 and len(deck.cards) == sum(DECKS[house]["cards"].values())
        assert [str(p) for p in deck_mod.check_deck(deck)] == []


# --------------------------------------------------------------------------- abilities (docs/abilities.md)

KEYWORD_SENTENCE = re.compile(
    r"^(deadly|deathbound|renown|stealth|limited|no attachments|setup|immune to [a-z ]+)\.$", re.I)
HOUSE_ONLY_SENTENCE = re.compile(r"^House [A-Z][a-z]+ only\.$")
LABELS = {"Challenges:": "challenges", "Marshalling:": "marshalling", "Dominance:": "dominance",
          "Any Phase:": "any", "Plot:": "plot", "Draw:": "draw", "Standing:": "standing", "Taxation:": "taxation"}


def _ability_sentences(card: dict) -> list[str]:
    """The card's text without keyword lines and "House X only." (neither is an ability, KW-01)."""
    out = []
    for line in card.get("text", "").split("\n"):
        for sentence in re.split(r"(?<=\.)\s+", line.strip()):
            if sentence and not KEYWORD_SENTENCE.match(sentence) and not HOUSE_ONLY_SENTENCE.match(sentence):
                out.append(sentence)
    return out


def _parsed(card: dict) -> list:
    abilities = pytest.importorskip("engine.abilities")
    return abilities.parse_abilities(tuple(card.get("abilities") or ()), f"{card['_file']}:{card['name']}")


def test_every_card_with_ability_text_has_abilities_that_parse():
    for c in CARDS:
        text_has_ability = bool(_ability_sentences(c))
        assert bool(c.get("abilities")) == text_has_ability, \
            f"{c['name']}: text {'has' if text_has_ability else 'has no'} ability but abilities is " \
            f"{'missing' if text_has_ability else 'present'}"
        if c.get("abilities"):
            parsed = _parsed(c)
            assert parsed, c["name"]
            assert not any(a.scripted for a in parsed), f"{c['name']}: the practice set needs no scripts"


def test_abilities_match_the_words_of_the_text():
    for c in CARDS:
        if not c.get("abilities"):
            continue
        text, parsed, where = c["text"], _parsed(c), c["name"]
        kinds = [a.kind for a in parsed]
        assert ("Response:" in text) == ("response" in kinds), where
        if text.startswith("When revealed:"):
            assert c["type"] == "plot", where
            assert any(a.kind == "passive" and a.when == {"event": "plot_revealed", "card": "self"}
                       for a in parsed), where
        phases = {LABELS[label] for label in LABELS if label in text}
        assert phases == {a.phase for a in parsed if a.kind == "action"}, where
        influence = [int(n) for n in KNEEL_INFLUENCE.findall(text)]
        assert influence == [a.cost["influence"] for a in parsed if a.cost.get("influence")], where
        limits = re.findall(r"Limit once per (phase|round|challenge|game)", text)
        assert limits == [a.limit[1] for a in parsed if a.limit], where
        assert all(a.limit[0] == 1 for a in parsed if a.limit), where
        if re.search(r"\bsave\b", text):
            assert any(a.is_save_or_cancel and a.kind == "response" for a in parsed), where
        if re.search(r"\bcancel\b", text):
            assert any(a.is_save_or_cancel and "cancel" in a.effect for a in parsed), where
        if text.startswith("Lord or Lady only."):
            assert any(a.attach_to == {"trait": ["Lord", "Lady"]} for a in parsed), where
        if text.startswith("Attach to a character an opponent controls."):
            assert any(a.attach_to and a.attach_to.get("controller") == "opponent" for a in parsed), where
        if re.search(r"\bchoose\b", text):
            assert any(a.choose is not None for a in parsed), f"{where}: 'choose' marks a target (COS-14)"
        if "Then " in text:
            assert any(a.then for a in parsed), f"{where}: 'Then' (COS-17)"
        if c["type"] == "event":
            assert all(a.kind in ("action", "response") for a in parsed), where


def test_the_abilities_cover_every_kind_in_both_decks():
    for house, deck in DECKS.items():
        names = set(deck["cards"]) | set(deck["plots"]) | {deck["agenda"]}
        parsed = [a for n in names for a in _parsed(BY_NAME[n])]
        kinds = {a.kind for a in parsed}
        assert kinds == {"action", "response", "passive", "constant"}, house
        assert any(a.is_save_or_cancel and "cancel" in a.effect for a in parsed), house
        assert any(a.is_save_or_cancel and "cancel" not in a.effect for a in parsed), house  # a save
        assert any(a.cost.get("influence") for a in parsed), house
        assert any(a.limit for a in parsed), house
