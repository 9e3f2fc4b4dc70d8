"""Replies small models really write that the tolerant parser must still read right."""

from __future__ import annotations

from custom_components.anomaly_monitor.core.llm.entity_matching import EntityMatcher
from custom_components.anomaly_monitor.core.llm.parsing import parse_reply
from custom_components.anomaly_monitor.core.models import Label, Severity

IDS = (
    "binary_sensor.kitchen_gas",
    "lock.front_door_lock",
    "light.kitchen_ceiling",
    "light.kitchen_island",
)


def test_bare_normal_word_is_a_normal_verdict() -> None:
    verdict = parse_reply("Normal", IDS).verdict
    assert verdict is not None
    assert verdict.label is Label.NORMAL
    assert verdict.evidence == ()


def test_reasoning_as_a_list_of_sentences_is_joined() -> None:
    reply = (
        '{"label": "anomaly", "evidence": ["binary_sensor.kitchen_gas"], '
        '"reasoning": ["Gas is detected.", "Nobody is cooking."], "severity": "severe"}'
    )
    verdict = parse_reply(reply, IDS).verdict
    assert verdict is not None
    assert verdict.reasoning == "Gas is detected. Nobody is cooking."
    assert verdict.severity is Severity.HIGH  # "severe" is a synonym of high


def test_evidence_as_a_name_to_id_mapping_uses_the_ids() -> None:
    reply = (
        '{"label": "anomaly", "evidence": {"gas": "binary_sensor.kitchen_gas", '
        '"door": "lock.front_door_lock"}}'
    )
    verdict = parse_reply(reply, IDS).verdict
    assert verdict is not None
    assert verdict.evidence == ("binary_sensor.kitchen_gas", "lock.front_door_lock")


def test_evidence_that_is_not_a_list_is_dropped_not_trusted() -> None:
    parsed = parse_reply('{"label": "anomaly", "evidence": 42}', IDS)
    assert parsed.verdict is not None
    assert parsed.verdict.evidence == ()
    assert parsed.dropped_evidence == ("42",)


def test_two_lights_with_the_same_name_are_never_guessed() -> None:
    """Both kitchen lights are called "Kitchen light": citing that name picks neither."""
    names = {"light.kitchen_ceiling": "Kitchen light", "light.kitchen_island": "Kitchen light"}
    matcher = EntityMatcher(IDS, names)
    assert matcher.match("Kitchen light") is None
    assert matcher.match("kitchen island") == "light.kitchen_island"
    assert matcher.match("!!!") is None
    parsed = parse_reply('{"label": "anomaly", "evidence": ["Kitchen light"]}', IDS, names=names)
    assert parsed.verdict is not None
    assert parsed.verdict.evidence == ()
    assert parsed.dropped_evidence == ("Kitchen light",)


def test_structured_reply_that_json_cannot_encode_is_read_as_text() -> None:
    """A backend handing back a dict with a tuple key still yields its verdict."""
    reply = {
        "label": "anomaly",
        ("binary_sensor.kitchen_gas",): "cited",
        "evidence": ["binary_sensor.kitchen_gas"],
    }
    parsed = parse_reply(reply, IDS)
    assert parsed.verdict is not None
    assert parsed.verdict.label is Label.ANOMALY
    assert parsed.verdict.evidence == ("binary_sensor.kitchen_gas",)
    assert parsed.raw == str(reply)


def test_python_dict_with_a_list_key_fails_cleanly() -> None:
    """An unhashable key breaks the repair step: no object, a clear error, the raw text kept."""
    reply = '{"label": "anomaly", ["binary_sensor.kitchen_gas"]: "evidence"}'
    parsed = parse_reply(reply, IDS)
    assert parsed.verdict is None
    assert parsed.error == "no JSON object in reply"
    assert parsed.raw == reply
