"""An anomaly reaches the homeowner on every surface, once, and goes when it clears."""

from __future__ import annotations

from datetime import timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.components.repairs import DOMAIN as REPAIRS_DOMAIN
from homeassistant.core import Event, HomeAssistant
from homeassistant.helpers import entity_registry as er, issue_registry as ir
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import async_capture_events

from custom_components.anomaly_monitor.anomalies.open_anomaly import DETECTOR_CLEAR_AFTER
from custom_components.anomaly_monitor.const import (
    DOMAIN,
    EVENT_ANOMALY_CLEARED,
    EVENT_ANOMALY_DETECTED,
    SIGNIFICANT_DEBOUNCE,
)

from .helpers import SMOKE, analyze, pass_time, set_calm_home, setup_monitor


def _entity_id(hass: HomeAssistant, key: str, platform: str) -> str:
    registry = er.async_get(hass)
    return next(
        e.entity_id
        for e in registry.entities.values()
        if e.platform == DOMAIN and e.unique_id.endswith(f"_{key}") and e.domain == platform
    )


def _notifications(hass: HomeAssistant) -> dict[str, dict]:
    from homeassistant.components.persistent_notification import _async_get_or_create_notifications

    return dict(_async_get_or_create_notifications(hass))


async def test_smoke_reaches_every_surface_and_clears(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Smoke: notification, repair issue, bus event, event entity, sensors; then all clear."""
    assert await async_setup_component(hass, REPAIRS_DOMAIN, {})
    set_calm_home(hass)
    entry = await setup_monitor(hass)
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    cleared = async_capture_events(hass, EVENT_ANOMALY_CLEARED)

    calm = await analyze(hass, entry)
    assert calm["verdict"]["label"] == "normal"

    hass.states.async_set(SMOKE, "on", {"device_class": "smoke", "friendly_name": "Kitchen smoke"})
    response = await analyze(hass, entry)
    await hass.async_block_till_done(wait_background_tasks=True)

    verdict = response["verdict"]
    assert verdict["label"] == "anomaly"
    assert verdict["evidence"] == [SMOKE]
    assert verdict["anomaly_type"] == "safety_hazard"
    assert verdict["severity"] == "critical"

    assert len(detected) == 1
    event: Event = detected[0]
    assert event.data["evidence"] == [SMOKE]
    anomaly_id = event.data["anomaly_id"]

    notifications = _notifications(hass)
    assert f"{DOMAIN}_{entry.entry_id}_{anomaly_id}" in notifications
    issue = ir.async_get(hass).async_get_issue(DOMAIN, f"anomaly_{entry.entry_id}_{anomaly_id}")
    assert issue is not None
    assert issue.is_fixable
    assert issue.severity is ir.IssueSeverity.CRITICAL

    assert hass.states.get(_entity_id(hass, "anomaly", "binary_sensor")).state == "on"
    verdict_state = hass.states.get(_entity_id(hass, "last_verdict", "sensor"))
    assert verdict_state.state == "anomaly"
    assert verdict_state.attributes["evidence"] == [SMOKE]
    event_state = hass.states.get(_entity_id(hass, "anomaly_event", "event"))
    assert event_state.attributes["event_type"] == "detected"
    assert event_state.attributes["evidence"] == [SMOKE]

    # Still smoky: nothing is announced twice.
    await analyze(hass, entry)
    await hass.async_block_till_done(wait_background_tasks=True)
    assert len(detected) == 1

    hass.states.async_set(SMOKE, "off", {"device_class": "smoke", "friendly_name": "Kitchen smoke"})
    await pass_time(hass, freezer, timedelta(seconds=1))  # time moves on, as it does
    response = await analyze(hass, entry)
    await hass.async_block_till_done(wait_background_tasks=True)
    assert response["verdict"]["label"] == "normal"
    assert cleared == []  # hysteresis: one analysis without it does not end it
    assert hass.states.get(_entity_id(hass, "anomaly", "binary_sensor")).state == "on"

    # The monitor analyses again by itself once it may clear; no call needed.
    await pass_time(hass, freezer, DETECTOR_CLEAR_AFTER + SIGNIFICANT_DEBOUNCE)
    assert len(cleared) == 1
    assert cleared[0].data["anomaly_id"] == anomaly_id
    # Over, unanswered: the issue and the notification say so and stay a day for feedback
    # read late (tests/test_feedback_after_end.py).
    issue_id = f"anomaly_{entry.entry_id}_{anomaly_id}"
    issue = ir.async_get(hass).async_get_issue(DOMAIN, issue_id)
    assert issue is not None
    assert issue.translation_key == "hazard_anomaly_ended"
    assert issue.severity is ir.IssueSeverity.WARNING
    note = _notifications(hass)[f"{DOMAIN}_{entry.entry_id}_{anomaly_id}"]
    assert note["title"].startswith("Over: ")
    assert hass.states.get(_entity_id(hass, "anomaly", "binary_sensor")).state == "off"
    event_state = hass.states.get(_entity_id(hass, "anomaly_event", "event"))
    assert event_state.attributes["event_type"] == "cleared"
    # What automations read says it is over, not the words found while it lasted.
    assert cleared[0].data["reasoning"] == "Over: Smoke detected."
    assert event_state.attributes["reasoning"] == "Over: Smoke detected."
    assert detected[0].data["reasoning"] == "Smoke detected."


async def test_notify_targets_get_the_anomaly_once(hass: HomeAssistant) -> None:
    """A legacy notify service receives the new anomaly; a missing target is skipped."""
    from pytest_homeassistant_custom_component.common import async_mock_service

    from custom_components.anomaly_monitor.const import CONF_NOTIFY

    calls = async_mock_service(hass, "notify", "phone")
    set_calm_home(hass)
    entry = await setup_monitor(hass, **{CONF_NOTIFY: ["notify.missing", "notify.phone"]})
    hass.states.async_set(SMOKE, "on", {"device_class": "smoke", "friendly_name": "Smoke"})
    await analyze(hass, entry)
    await analyze(hass, entry)
    await hass.async_block_till_done(wait_background_tasks=True)
    assert len(calls) == 1
    assert "Smoke detected" in calls[0].data["message"]
    # Read on a phone away from home: the advice too (a live walk's push had only the
    # reasoning, "Motion in Living Room while nobody is home.", no "What to do").
    assert "What to do: Check the area for fire now" in calls[0].data["message"]
