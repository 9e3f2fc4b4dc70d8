"""False-alarm marks keep their degree in HA's Store, and older files are migrated."""

from __future__ import annotations

from typing import Any

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.anomaly_monitor.anomalies.store import STORAGE_MINOR_VERSION
from custom_components.anomaly_monitor.const import DOMAIN
from custom_components.anomaly_monitor.core.feedback import MARGIN

from .helpers import LIVING_TEMP, analyze, monitor_options, set_calm_home, setup_monitor

SIGNATURE = f"reading_outside_physical_range:{LIVING_TEMP}"


def _living_room_reads(hass: HomeAssistant, value: str) -> None:
    hass.states.async_set(
        LIVING_TEMP,
        value,
        {"device_class": "temperature", "unit_of_measurement": "°C", "friendly_name": "Living"},
    )


async def test_mark_keeps_its_degree_across_a_restart(
    hass: HomeAssistant, hass_storage: dict[str, Any]
) -> None:
    """Marked at -80 °C (20 under the -60 °C floor): -85 stays quiet, -95 is reported."""
    set_calm_home(hass)
    entry = await setup_monitor(hass, learned=True)
    _living_room_reads(hass, "-80")
    assert (await analyze(hass, entry))["verdict"]["evidence"] == [LIVING_TEMP]
    coordinator = entry.runtime_data.coordinator
    (anomaly,) = coordinator.tracker.open.values()
    assert anomaly.magnitude == -20.0

    coordinator.async_mark_false_alarm(anomaly.key)
    await hass.async_block_till_done()
    assert coordinator.tracker.open == {}
    assert coordinator.tracker.false_alarms[SIGNATURE].magnitude == -20.0

    _living_room_reads(hass, "-85")  # 25 under: within 20 x MARGIN
    assert 20 * MARGIN >= 25
    assert (await analyze(hass, entry))["verdict"]["label"] == "normal"

    assert await hass.config_entries.async_unload(entry.entry_id)
    await hass.async_block_till_done()
    stored = hass_storage[f"{DOMAIN}.{entry.entry_id}"]
    assert stored["minor_version"] == STORAGE_MINOR_VERSION
    assert stored["data"]["false_alarms"] == [SIGNATURE]  # still readable by older versions
    (mark,) = stored["data"]["false_alarm_marks"]
    assert mark["signature"] == SIGNATURE
    assert mark["magnitude"] == -20.0
    assert "-80" in mark["reasoning"]

    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    coordinator = entry.runtime_data.coordinator
    assert coordinator.tracker.false_alarms[SIGNATURE].magnitude == -20.0
    assert (await analyze(hass, entry))["verdict"]["label"] == "normal"
    _living_room_reads(hass, "-95")  # 35 under: far more extreme than what was marked
    response = await analyze(hass, entry)
    assert response["verdict"]["label"] == "anomaly"
    assert response["verdict"]["evidence"] == [LIVING_TEMP]


async def test_signatures_of_an_older_store_are_migrated(
    hass: HomeAssistant, hass_storage: dict[str, Any]
) -> None:
    """A minor-1 file (bare signatures) loads; each keeps suppressing at any degree."""
    entry = MockConfigEntry(domain=DOMAIN, title="Home", options=monitor_options())
    key = f"{DOMAIN}.{entry.entry_id}"
    hass_storage[key] = {
        "version": 1,
        "minor_version": 1,
        "key": key,
        "data": {"open": [], "false_alarms": [SIGNATURE, 42, ""]},
    }
    set_calm_home(hass)
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    marks = entry.runtime_data.coordinator.tracker.false_alarms
    assert list(marks) == [SIGNATURE]  # the damaged entries are dropped, setup goes on
    assert marks[SIGNATURE].magnitude is None

    _living_room_reads(hass, "-100")
    assert (await analyze(hass, entry))["verdict"]["label"] == "normal"

    assert await hass.config_entries.async_unload(entry.entry_id)
    await hass.async_block_till_done()
    stored = hass_storage[key]
    assert (stored["version"], stored["minor_version"]) == (1, STORAGE_MINOR_VERSION)
    assert stored["data"]["false_alarms"] == [SIGNATURE]
    assert [(m["signature"], m["magnitude"]) for m in stored["data"]["false_alarm_marks"]] == [
        (SIGNATURE, None)
    ]


async def test_damaged_marks_do_not_stop_setup(
    hass: HomeAssistant, hass_storage: dict[str, Any]
) -> None:
    entry = MockConfigEntry(domain=DOMAIN, title="Home", options=monitor_options())
    key = f"{DOMAIN}.{entry.entry_id}"
    hass_storage[key] = {
        "version": 1,
        "minor_version": 2,
        "key": key,
        "data": {
            "open": [],
            "false_alarms": "not a list",
            "false_alarm_marks": [{"magnitude": 3}, "x:y", {"signature": SIGNATURE}, None],
        },
    }
    set_calm_home(hass)
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    assert sorted(entry.runtime_data.coordinator.tracker.false_alarms) == [SIGNATURE, "x:y"]
