"""The facts kept per entity id and state text while learning (``change_facts.py``) are
those of the functions they stand for, whatever the cache holds; learning with a cache
that forgets after every text learns exactly the same normal."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
import json
import random

import pytest

from custom_components.anomaly_monitor.core.baselines import HomeBaselines, change_facts
from custom_components.anomaly_monitor.core.baselines.change_facts import ChangeFacts
from custom_components.anomaly_monitor.core.baselines.usual_drops import away_state
from custom_components.anomaly_monitor.core.models import EntityInfo, parse_number
from custom_components.anomaly_monitor.core.state_blips import is_no_state

TEXTS = [
    "on",
    "off",
    "OFF",
    " off ",
    "unavailable",
    "Unavailable",
    " unknown\n",
    "UNKNOWN",
    "none",
    "None",
    "",
    "   ",
    "21.3",
    " 21.3 ",
    "-4",
    "1e3",
    "nan",
    "inf",
    "-Infinity",
    "21,3",
    "home",
    "not_home",
    "\x1c5\x1f",
    "ünknown",
]
CLASSES = [None, "connectivity", "door", "power"]


@pytest.mark.parametrize("kept", [change_facts.MAX_KEPT, 1, 0])
def test_facts_are_the_functions_answers(monkeypatch: pytest.MonkeyPatch, kept: int) -> None:
    monkeypatch.setattr(change_facts, "MAX_KEPT", kept)
    facts = ChangeFacts()
    for _ in range(2):  # asked again: answered from the cache (or afresh once it forgot)
        for text in TEXTS:
            assert facts.state(text).no_state == is_no_state(text), text
            assert facts.state(text).number == parse_number(text), text
            for device_class in CLASSES:
                assert facts.away(text, device_class) == away_state(text, device_class), text
        for entity_id in ("sensor.a", "binary_sensor.door", "person.x", "nodot", "a.b.c"):
            assert facts.domain(entity_id) == entity_id.partition(".")[0]


def _stream(seed: int) -> tuple[list[EntityInfo], list[tuple[datetime, str, str]]]:
    """Four days of a small home: readings, doors, motion, a flaky plug, blips, persons."""
    infos = [
        EntityInfo("sensor.room_temperature", "", "Living", "temperature", "°C"),
        EntityInfo("sensor.fridge_power", "", "Kitchen", "power", "W"),
        EntityInfo("binary_sensor.front_door", "", "Hall", "door"),
        EntityInfo("binary_sensor.hall_motion", "", "Hall", "motion"),
        EntityInfo("light.hall", "", "Hall"),
        EntityInfo("binary_sensor.plug_link", "", "Kitchen", "connectivity"),
    ]
    rng = random.Random(seed)
    start = datetime(2026, 3, 2, tzinfo=UTC)
    rows: list[tuple[datetime, str, str]] = []
    for minute in range(4 * 24 * 60):
        when = start + timedelta(minutes=minute)
        rows.append((when, "sensor.room_temperature", f"{20 + rng.gauss(0, 1):.1f}"))
        watts = rng.uniform(60, 90) if minute % 50 < 15 else rng.uniform(0, 2)
        rows.append((when, "sensor.fridge_power", f"{watts:.1f}"))
        if rng.random() < 0.02:
            rows.append((when, rng.choice(["sensor.room_temperature", "light.hall"]), "unknown"))
        if rng.random() < 0.03:
            entity = rng.choice(["binary_sensor.front_door", "binary_sensor.hall_motion"])
            rows.append((when + timedelta(seconds=5), entity, "on"))
            rows.append((when + timedelta(seconds=50), "light.hall", "on"))
            rows.append((when + timedelta(seconds=55), entity, "off"))
        if rng.random() < 0.005:
            rows.append((when, "binary_sensor.plug_link", rng.choice(["off", "on", "unavailable"])))
        if minute % (24 * 60) in (8 * 60, 17 * 60):
            away = minute % (24 * 60) == 8 * 60
            rows.append((when, "person.a", "not_home" if away else "home"))
    rows.sort(key=lambda row: row[0])
    return infos, rows


def _learned(infos: list[EntityInfo], rows: list[tuple[datetime, str, str]]) -> str:
    baselines = HomeBaselines(UTC)
    baselines.describe(infos)
    for index, (when, entity_id, state) in enumerate(rows):
        baselines.observe(when, entity_id, state)
        if index % 500 == 0:
            baselines.advance(when)
    return json.dumps(baselines.as_dict(), sort_keys=True)


def test_learning_does_not_depend_on_what_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    infos, rows = _stream(3)
    kept = _learned(infos, rows)
    monkeypatch.setattr(change_facts, "MAX_KEPT", 0)  # forgets every text at once
    assert _learned(infos, rows) == kept
    learned = json.loads(kept)
    assert "sensor.room_temperature" in learned["ranges"]
    assert learned["durations"]["stays"]
    # the plug's drops (a connectivity sensor "off") were learned through the cached facts
    assert "binary_sensor.plug_link" in learned["usual_drops"]["drops"]
