"""Stored anomalies: older files migrate to rule + subject, damaged ones never stop setup."""

from __future__ import annotations

import logging
from typing import Any

from homeassistant.config_entries import ConfigEntryState
from homeassistant.core import HomeAssistant
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry, async_capture_events

from custom_components.anomaly_monitor.anomalies.store import STORAGE_MINOR_VERSION
from custom_components.anomaly_monitor.const import DOMAIN, EVENT_ANOMALY_DETECTED

from .helpers import ALICE, FRONT_LOCK, LIVING_TEMP, SMOKE, analyze, monitor_options, set_calm_home

SMOKE_SIGNATURE = f"hazard_detected:{SMOKE}"
LOGGER_NAME = "custom_components.anomaly_monitor"


def _anomaly(**changes: Any) -> dict[str, Any]:
    """An open anomaly as minor version 3 stores it."""
    return {
        "signature": SMOKE_SIGNATURE,
        "rule": "hazard_detected",
        "subject": SMOKE,
        "evidence": [SMOKE],
        "context": [],
        "reasoning": "Smoke detected.",
        "anomaly_type": "safety_hazard",
        "severity": "critical",
        "recommendation": "Leave.",
        "first_seen": "2026-11-30T10:00:00+00:00",
        "last_seen": "2026-11-30T10:05:00+00:00",
        "acknowledged": False,
        "magnitude": None,
        "missed": 0,
        "missing_since": None,
    } | changes


async def _load(
    hass: HomeAssistant, hass_storage: dict[str, Any], data: Any, minor: int = 3
) -> MockConfigEntry:
    entry = MockConfigEntry(domain=DOMAIN, title="Home", options=monitor_options())
    key = f"{DOMAIN}.{entry.entry_id}"
    hass_storage[key] = {"version": 1, "minor_version": minor, "key": key, "data": data}
    set_calm_home(hass)
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    assert entry.state is ConfigEntryState.LOADED
    return entry


def _warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == LOGGER_NAME and r.levelno == logging.WARNING
    ]


@pytest.mark.parametrize(
    ("data", "kept"),
    [
        ({"open": 5}, 0),
        ("not a dict", 0),
        ([1, 2], 0),
        (None, 0),
        ({"open": ["a string where a dict belongs", None, 3]}, 0),
        ({"open": [_anomaly(anomaly_type=None)]}, 0),
        ({"open": [_anomaly(severity="apocalyptic")]}, 0),
        ({"open": [_anomaly(evidence="binary_sensor.x")]}, 0),
        ({"open": [_anomaly(first_seen="yesterday")]}, 0),
        ({"open": [_anomaly(missed=-1)]}, 0),
        ({"open": [_anomaly(acknowledged="yes")]}, 0),
        ({"open": [_anomaly(magnitude="big")]}, 0),
        ({"open": [_anomaly(rule=7)]}, 0),
        ({"open": [_anomaly(members="hazard_detected")]}, 0),
        ({"open": [_anomaly(members=[{"rule": "hazard_detected", "severity": "hot"}])]}, 0),
        ({"open": [_anomaly(), _anomaly(subject=None)]}, 1),
        ({"open": [_anomaly()], "dismissed": 7, "false_alarm_marks": {"a": 1}}, 1),
        ({"open": [_anomaly()], "false_alarms": [None, 3], "false_alarm_marks": [5, {}]}, 1),
        ({"open": [_anomaly()], "false_alarm_marks": [{"signature": "r:x", "marked_at": 5}]}, 1),
    ],
)
async def test_damaged_storage_never_stops_setup(
    hass: HomeAssistant,
    hass_storage: dict[str, Any],
    caplog: pytest.LogCaptureFixture,
    data: Any,
    kept: int,
) -> None:
    """Damaged entries are dropped with one warning; valid ones are kept; it watches on."""
    entry = await _load(hass, hass_storage, data)
    tracker = entry.runtime_data.coordinator.tracker
    assert len(tracker.open) == kept
    assert tracker.false_alarms == {} or len(tracker.false_alarms) == 0
    assert len(_warnings(caplog)) == (0 if data is None else 1)

    hass.states.async_set(SMOKE, "on", {"device_class": "smoke", "friendly_name": "Smoke"})
    assert (await analyze(hass, entry))["verdict"]["label"] == "anomaly"


async def test_an_older_file_is_migrated_to_rule_and_subject(
    hass: HomeAssistant, hass_storage: dict[str, Any]
) -> None:
    """Minor 2: the open smoke keeps its incident; hazard and ambiguous marks are dropped."""
    old_open = {
        key: value
        for key, value in _anomaly().items()
        if key not in ("subject", "context", "missed", "missing_since")
    } | {
        "signature": f"hazard_detected:{FRONT_LOCK},{SMOKE}",
        "evidence": [SMOKE, FRONT_LOCK],
    }
    temperature_mark = {
        "signature": f"reading_outside_physical_range:{LIVING_TEMP}",
        "magnitude": 20.0,
        "rule": "reading_outside_physical_range",
        "evidence": [LIVING_TEMP],
        "reasoning": "",
        "anomaly_type": "physical_violation",
        "marked_at": None,
    }
    hazard_mark = temperature_mark | {
        "signature": f"hazard_detected:{SMOKE}",
        "rule": "hazard_detected",
        "evidence": [SMOKE],
        "anomaly_type": "safety_hazard",
    }
    entry = await _load(
        hass,
        hass_storage,
        {
            "open": [old_open],
            "false_alarms": [],
            "false_alarm_marks": [temperature_mark, hazard_mark, f"some_rule:{SMOKE},{ALICE}"],
        },
        minor=2,
    )
    tracker = entry.runtime_data.coordinator.tracker
    assert list(tracker.open) == [SMOKE_SIGNATURE]
    assert list(tracker.false_alarms) == [f"reading_outside_physical_range:{LIVING_TEMP}"]
    assert tracker.marks()[0].marked_at is not None  # counts from the migration: it expires

    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    hass.states.async_set(SMOKE, "on", {"device_class": "smoke", "friendly_name": "Smoke"})
    await analyze(hass, entry)
    await hass.async_block_till_done()
    assert detected == []  # the same incident as before the update: not announced again

    assert await hass.config_entries.async_unload(entry.entry_id)
    await hass.async_block_till_done()
    stored = hass_storage[f"{DOMAIN}.{entry.entry_id}"]
    assert stored["minor_version"] == STORAGE_MINOR_VERSION
    assert [a["subject"] for a in stored["data"]["open"]] == [SMOKE]


@pytest.mark.parametrize(
    ("minor", "data"),
    [
        (1, {"open": 5, "false_alarms": 5}),
        (1, [1, 2]),
        (1, "text"),
        (2, {"open": [{"rule": None, "evidence": [5]}, "x"], "false_alarm_marks": "x"}),
        (2, {"open": [], "false_alarm_marks": [{"signature": 5}, {"signature": "r:a,b"}, 7]}),
        (2, {"open": [{"rule": "r", "evidence": ["a"], "severity": "high"}]}),
    ],
)
async def test_damaged_older_files_migrate_without_stopping_setup(
    hass: HomeAssistant,
    hass_storage: dict[str, Any],
    caplog: pytest.LogCaptureFixture,
    minor: int,
    data: Any,
) -> None:
    """Migration leaves damaged entries to validation: dropped with one warning."""
    entry = await _load(hass, hass_storage, data, minor=minor)
    tracker = entry.runtime_data.coordinator.tracker
    assert (tracker.open, len(tracker.false_alarms)) == ({}, 0)
    assert len(_warnings(caplog)) <= 1
    hass.states.async_set(SMOKE, "on", {"device_class": "smoke", "friendly_name": "Smoke"})
    assert (await analyze(hass, entry))["verdict"]["label"] == "anomaly"


async def test_a_minor_3_anomaly_becomes_an_incident_with_its_rule_as_member(
    hass: HomeAssistant, hass_storage: dict[str, Any]
) -> None:
    """Nothing rewritten: the stored anomaly is its own single member, same id, not told
    again; the next write stores the members, and they load back."""
    entry = await _load(hass, hass_storage, {"open": [_anomaly()], "false_alarms": []})
    (anomaly,) = entry.runtime_data.coordinator.tracker.open.values()
    assert (anomaly.signature, anomaly.rules, anomaly.lead_rule) == (
        SMOKE_SIGNATURE,
        ["hazard_detected"],
        "hazard_detected",
    )
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    hass.states.async_set(SMOKE, "on", {"device_class": "smoke", "friendly_name": "Smoke"})
    await analyze(hass, entry)
    assert await hass.config_entries.async_unload(entry.entry_id)
    await hass.async_block_till_done()
    assert detected == []
    stored = hass_storage[f"{DOMAIN}.{entry.entry_id}"]
    assert stored["minor_version"] == STORAGE_MINOR_VERSION
    (member,) = stored["data"]["open"][0]["members"]
    assert (member["rule"], member["severity"], member["active"]) == (
        "hazard_detected",
        "critical",
        True,
    )

    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    (anomaly,) = entry.runtime_data.coordinator.tracker.open.values()
    assert anomaly.rules == ["hazard_detected"]
    assert anomaly.members[0].evidence == [SMOKE]
