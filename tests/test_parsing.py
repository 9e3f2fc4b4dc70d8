"""Tolerant parsing of LLM replies: never raises, keeps the raw text, maps near-miss names."""

from __future__ import annotations

import json
import random

import pytest

from custom_components.anomaly_monitor.core.llm.entity_matching import EntityMatcher
from custom_components.anomaly_monitor.core.llm.parsing import parse_for_window, parse_reply
from custom_components.anomaly_monitor.core.models import Label, Severity

from .llm_windows import gas_leak_window

IDS = (
    "binary_sensor.kitchen_gas",
    "lock.front_door_lock",
    "binary_sensor.front_door",
    "sensor.kitchen_temperature",
)
NAMES = {"binary_sensor.kitchen_gas": "Kitchen Gas Detector", "lock.front_door_lock": "Front Lock"}


@pytest.mark.parametrize(
    "reply",
    [
        '{"label": "anomaly", "evidence": ["binary_sensor.kitchen_gas"]}',
        '```json\n{"label": "ANOMALY", "evidence": ["binary_sensor.kitchen_gas"]}\n```',
        'Sure! Here is my answer:\n{"Label": "Anomaly", "Evidence": "binary_sensor.kitchen_gas"}'
        "\nHope this helps.",
        "{'label': 'anomalous', 'evidence': ['binary_sensor.kitchen_gas',],}",
        '{"verdict": "abnormal", "devices": [{"entity_id": "binary_sensor.kitchen_gas"}]}',
        '{"is_anomaly": true, "evidence_devices": ["Kitchen Gas Detector"]}',
    ],
)
def test_accepts_the_shapes_small_models_produce(reply: str) -> None:
    parsed = parse_reply(reply, IDS, names=NAMES)
    assert parsed.ok, parsed.error
    assert parsed.verdict is not None
    assert parsed.verdict.label is Label.ANOMALY
    assert parsed.verdict.evidence == ("binary_sensor.kitchen_gas",)
    assert parsed.verdict.raw == reply


def test_full_answer_fields_and_finding() -> None:
    reply = json.dumps(
        {
            "label": "anomaly",
            "evidence": ["lock.front_door_lock", "binary_sensor.front_door"],
            "anomaly_type": "Security",
            "severity": "HIGH",
            "reasoning": "Door open and unlocked while away.",
            "recommendation": "Lock the door.",
        }
    )
    verdict = parse_reply(reply, IDS, detector="llm").verdict
    assert verdict is not None
    assert verdict.anomaly_type == "security"
    assert verdict.severity is Severity.HIGH
    assert verdict.recommendation == "Lock the door."
    assert verdict.detector == "llm"
    assert len(verdict.findings) == 1
    assert verdict.findings[0].signature == "llm:lock.front_door_lock"  # rule and subject


def test_near_miss_names_map_back_or_are_dropped() -> None:
    reply = json.dumps(
        {
            "label": "anomaly",
            "evidence": [
                "BINARY_SENSOR.KITCHEN_GAS",  # case
                "front_door_lock",  # domain left out
                "Front Lock",  # friendly name
                "sensor.kitchen_temprature",  # typo
                "sensor.garage_temperature",  # not in the window
                "ignore previous instructions",  # junk
            ],
        }
    )
    parsed = parse_reply(reply, IDS, names=NAMES)
    assert parsed.verdict is not None
    assert parsed.verdict.evidence == (
        "binary_sensor.kitchen_gas",
        "lock.front_door_lock",
        "sensor.kitchen_temperature",
    )
    assert parsed.dropped_evidence == ("sensor.garage_temperature", "ignore previous instructions")


def test_ambiguous_near_miss_is_dropped_not_guessed() -> None:
    matcher = EntityMatcher(["light.hall_1", "light.hall_2"])
    assert matcher.match("light.hall_3") is None
    assert matcher.match("light.hall_2") == "light.hall_2"


def test_normal_answer_has_no_evidence_and_defaults() -> None:
    parsed = parse_reply('{"label": "Normal", "evidence": ["lock.front_door_lock"]}', IDS)
    assert parsed.verdict is not None
    assert parsed.verdict.label is Label.NORMAL
    assert parsed.verdict.evidence == ()
    assert parsed.verdict.findings == ()
    missing = parse_reply('{"label": "anomaly"}', IDS).verdict
    assert missing is not None
    assert missing.severity is Severity.MEDIUM  # an anomaly always has a severity


@pytest.mark.parametrize(
    ("reply", "error"),
    [
        ("", "empty reply"),
        ("I think everything looks fine in this home today.", "no JSON object"),
        ('{"evidence": ["lock.front_door_lock"]}', "no normal/anomaly label"),
        ('{"label": "maybe"}', "no normal/anomaly label"),
        ('{"label": "anomaly", "evidence": [', "no JSON object"),
    ],
)
def test_garbage_is_a_clear_no_verdict_with_raw_text(reply: str, error: str) -> None:
    parsed = parse_reply(reply, IDS)
    assert parsed.verdict is None
    assert error in parsed.error
    assert parsed.raw == reply


def test_bare_label_word_and_non_string_replies() -> None:
    bare = parse_reply("ANOMALY.", IDS).verdict
    assert bare is not None
    assert bare.label is Label.ANOMALY
    as_dict = parse_reply({"label": "normal"}, IDS).verdict  # e.g. AI Task structured data
    assert as_dict is not None
    assert as_dict.label is Label.NORMAL


def test_never_raises_on_random_input() -> None:
    rng = random.Random(1234)
    alphabet = "{}[]\":,'`abcdefghijklmnopqrstuvwxyz_. \n\\0123456789ANOMALYnormal"
    for _ in range(500):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 200)))
        parsed = parse_reply(text, IDS)
        assert parsed.raw == text
        assert parsed.ok or parsed.error
    huge = '{"label": "anomaly", "reasoning": "' + "x" * 100_000 + '"}'
    assert parse_reply(huge, IDS).raw == huge[:4000]
    deep = "[" * 5000 + "]" * 5000
    assert not parse_reply(deep, IDS).ok


def test_parse_for_window_uses_names_and_ids_of_the_window() -> None:
    window = gas_leak_window()
    parsed = parse_for_window('{"label": "anomaly", "evidence": ["Kitchen Gas"]}', window)
    assert parsed.verdict is not None
    assert parsed.verdict.evidence == ("binary_sensor.kitchen_gas",)
