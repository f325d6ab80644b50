"""The ability format: bad ability data is a DataError naming the field; good data parses."""
import pytest

from cards.errors import DataError
from engine.abilities import parse_abilities


def test_an_action_with_cost_target_and_effect_parses():
    [ab] = parse_abilities(({"kind": "action", "phase": "challenges", "cost": {"kneel_self": True},
                             "choose": {"type": "character", "participating": True},
                             "effect": [{"kill": "target"}], "limit": {"times": 1, "per": "phase"}},),
                           "cards/x.yaml:3")
    assert ab.kind == "action" and ab.limit == (1, "phase") and not ab.is_save_or_cancel


def test_TIM_06_a_response_that_saves_or_cancels_is_a_save_cancel_response():
    [save, cancel, normal] = parse_abilities((
        {"kind": "response", "when": {"event": "would_be_killed"}, "effect": [{"save": "trigger"}]},
        {"kind": "response", "when": {"event": "cancelable", "source": "event"}, "effect": ["cancel"]},
        {"kind": "response", "when": {"event": "killed"}, "effect": [{"draw": 1}]},
    ))
    assert save.is_save_or_cancel and cancel.is_save_or_cancel and not normal.is_save_or_cancel


@pytest.mark.parametrize("raw, field, words", [
    ({"kind": "sometimes", "effect": ["cancel"]}, "abilities.[1].kind", "kind must be one of"),
    ({"kind": "action", "effect": [{"kill": "target"}]}, "abilities.[1].phase", "phase label"),
    ({"kind": "response", "when": {"event": "teatime"}, "effect": ["cancel"]}, "abilities.[1].when.event", "unknown event 'teatime'"),
    ({"kind": "action", "phase": "any", "effect": [{"explode": "self"}]}, "abilities.[1].effect[1]",
     "unknown effect"),
    ({"kind": "action", "phase": "any", "effect": [{"kill": "target", "loudly": True}]},
     "abilities.[1].effect[1].loudly", "unknown key 'loudly'"),
    ({"kind": "action", "phase": "any", "cost": {"blood": 1}, "effect": ["cancel"]}, "abilities.[1].cost.blood",
     "cost keys"),
    ({"kind": "action", "phase": "any", "choose": {"colour": "red"}, "effect": ["cancel"]},
     "abilities.[1].choose.colour", "unknown filter key"),
    ({"kind": "constant"}, "abilities.[1]", "constant ability needs"),
    ({"kind": "passive", "when": {"event": "killed"}, "surprise": 1, "effect": ["cancel"]}, "abilities.[1].surprise",
     "unknown key 'surprise'"),
])
def test_bad_ability_data_names_file_line_and_field(raw, field, words):
    with pytest.raises(DataError) as err:
        parse_abilities((raw,), "cards/practice/stark.yaml:12")
    assert err.value.field == field
    assert words in str(err.value)
    assert str(err.value).startswith("cards/practice/stark.yaml:12: ")


def test_claim_types_needs_claim_into_play_and_known_types():
    """Issue 24 (Breaking and Entering): claim_types goes with allows: [claim_into_play] and names card types."""
    with pytest.raises(DataError) as err:
        parse_abilities(({"kind": "constant", "claim_types": ["location"]},))
    assert "claim_into_play" in str(err.value)
    with pytest.raises(DataError) as err:
        parse_abilities(({"kind": "constant", "allows": ["claim_into_play"], "claim_types": ["event"]},))
    assert "claim_types" in str(err.value) and "event" in str(err.value)
    ab = parse_abilities(({"kind": "constant", "allows": ["claim_into_play"], "claim_types": ["attachment"]},))[0]
    assert ab.claim_types == ("attachment",)
