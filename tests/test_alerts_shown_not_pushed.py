"""A generic alert told low is shown, not pushed; lowering the sensitivity withdraws it.

Walk of session 26 (real hass, 127.0.0.1): at sensitivity high a web service's air-raid
alert and a boiler's daily ``problem`` flag, told low, each fired ``anomaly_detected``
(a notify target or an automation would have rung) although they are this home's routine;
setting the sensitivity back to medium ended the boiler's open anomaly two minutes later
as "Over since 20:21" (``anomaly_cleared``, ``resolved``) while it still read "Problem".
Now such an alert is shown (notification, repair issue) without an event or a push, and
an options change that no longer shows a low anomaly withdraws it: no "Over", and
``anomaly_cleared`` says ``withdrawn`` where an event had been fired. What the rules found
at a severity the new sensitivity still shows stays open.
"""

from __future__ import annotations

from homeassistant.components.repairs import DOMAIN as REPAIRS_DOMAIN
from homeassistant.core import HomeAssistant
from homeassistant.helpers import device_registry as dr, entity_registry as er, issue_registry as ir
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry, async_capture_events

from custom_components.anomaly_monitor.const import (
    CONF_INCLUDE_ENTITIES,
    CONF_SENSITIVITY,
    DOMAIN,
    EVENT_ANOMALY_CLEARED,
    EVENT_ANOMALY_DETECTED,
)

from .helpers import analyze, set_calm_home, setup_monitor

ALERT = "binary_sensor.kyiv_air_raid_alert"
PUMP = "binary_sensor.septic_pump_alarm"


def _register(hass: HomeAssistant, entity_id: str, entry_type: dr.DeviceEntryType | None) -> None:
    source = MockConfigEntry(domain="demo")
    source.add_to_hass(hass)
    device = dr.async_get(hass).async_get_or_create(
        config_entry_id=source.entry_id, identifiers={("demo", entity_id)}, entry_type=entry_type
    )
    object_id = entity_id.partition(".")[2]
    er.async_get(hass).async_get_or_create(
        "binary_sensor", "demo", object_id, suggested_object_id=object_id, device_id=device.id
    )


def _shown(hass: HomeAssistant, entry: MockConfigEntry, key: str) -> tuple[bool, bool]:
    """Whether its notification and its repair issue are there."""
    from homeassistant.components.persistent_notification import _async_get_or_create_notifications

    note = f"{DOMAIN}_{entry.entry_id}_{key}" in _async_get_or_create_notifications(hass)
    issue = ir.async_get(hass).async_get_issue(DOMAIN, f"anomaly_{entry.entry_id}_{key}")
    return note, issue is not None


async def _alert_and_alarm_at_high(hass: HomeAssistant) -> MockConfigEntry:
    assert await async_setup_component(hass, REPAIRS_DOMAIN, {})
    set_calm_home(hass)
    _register(hass, ALERT, dr.DeviceEntryType.SERVICE)
    _register(hass, PUMP, None)
    hass.states.async_set(ALERT, "off", {"device_class": "safety"})
    hass.states.async_set(PUMP, "off", {"device_class": "problem"})
    entry = await setup_monitor(
        hass, learned=True, **{CONF_INCLUDE_ENTITIES: [ALERT, PUMP], CONF_SENSITIVITY: "high"}
    )
    hass.states.async_set(ALERT, "on", {"device_class": "safety"})
    hass.states.async_set(PUMP, "on", {"device_class": "problem"})
    await hass.async_block_till_done()
    return entry


def _keys(entry: MockConfigEntry) -> dict[str, str]:
    """Open anomaly key by subject."""
    tracker = entry.runtime_data.coordinator.tracker
    return {a.subject: a.key for a in tracker.open.values()}


async def _lower_sensitivity(hass: HomeAssistant, entry: MockConfigEntry) -> None:
    """As the options flow does: new options, then a reload."""
    hass.config_entries.async_update_entry(
        entry, options={**entry.options, CONF_SENSITIVITY: "medium"}
    )
    assert await hass.config_entries.async_reload(entry.entry_id)
    await hass.async_block_till_done(wait_background_tasks=True)


async def test_a_low_alert_is_shown_without_an_event_and_a_home_alarm_pushed(
    hass: HomeAssistant,
) -> None:
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    entry = await _alert_and_alarm_at_high(hass)
    await analyze(hass, entry)
    await hass.async_block_till_done(wait_background_tasks=True)
    keys = _keys(entry)
    assert set(keys) == {ALERT, PUMP}
    assert _shown(hass, entry, keys[ALERT]) == (True, True)  # in front of the homeowner
    assert _shown(hass, entry, keys[PUMP]) == (True, True)
    # Only the septic pump's first alarm (high) went on the bus (a push, an automation).
    assert [e.data["evidence"] for e in detected] == [[PUMP]]


async def test_lowering_the_sensitivity_withdraws_the_low_alert_not_over(
    hass: HomeAssistant,
) -> None:
    cleared = async_capture_events(hass, EVENT_ANOMALY_CLEARED)
    entry = await _alert_and_alarm_at_high(hass)
    await analyze(hass, entry)
    await hass.async_block_till_done(wait_background_tasks=True)
    keys = _keys(entry)
    await _lower_sensitivity(hass, entry)
    tracker = entry.runtime_data.coordinator.tracker
    assert [a.subject for a in tracker.open.values()] == [PUMP]  # high: still told
    assert not tracker.ended  # no "Over: ... reports it is unsafe" kept for feedback
    assert _shown(hass, entry, keys[ALERT]) == (False, False)
    assert _shown(hass, entry, keys[PUMP]) == (True, True)
    assert cleared == []  # never on the bus: nor is its withdrawal
    # Still on and still found by the next analysis: not told again at medium.
    await analyze(hass, entry)
    await hass.async_block_till_done(wait_background_tasks=True)
    assert [a.subject for a in tracker.open.values()] == [PUMP]
    assert not tracker.ended


async def test_a_withdrawn_anomaly_told_on_the_bus_is_cleared_as_withdrawn(
    hass: HomeAssistant,
) -> None:
    cleared = async_capture_events(hass, EVENT_ANOMALY_CLEARED)
    entry = await _alert_and_alarm_at_high(hass)
    await analyze(hass, entry)
    await hass.async_block_till_done(wait_background_tasks=True)
    tracker = entry.runtime_data.coordinator.tracker
    # A low anomaly an older version told on the bus (or any low finding at high).
    (alert,) = (a for a in tracker.open.values() if a.subject == ALERT)
    alert.on_the_bus = True
    await tracker.async_flush()
    await _lower_sensitivity(hass, entry)
    assert [e.data["reason"] for e in cleared] == ["withdrawn"]
    assert cleared[0].data["evidence"] == [ALERT]
    assert not cleared[0].data["reasoning"].startswith("Over")  # nothing is over
    assert not entry.runtime_data.coordinator.tracker.ended
