"""Answering an anomaly by its id after its repair issue is gone: the public actions.

Set 27: a water heater element told left on, over when the family came home; the
homeowner acknowledged it 31 hours after it cleared, its repair issue gone a day after
its end, and the integration had nothing to take the answer. ``anomaly_monitor.acknowledge``
and ``anomaly_monitor.mark_false_alarm`` take it by the id at the foot of the notification
(the ``anomaly_id`` of its event), for a week, with the caller's permissions.
"""

from __future__ import annotations

from datetime import timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.auth.const import GROUP_ID_USER
from homeassistant.components.repairs import DOMAIN as REPAIRS_DOMAIN
from homeassistant.core import Context, HomeAssistant
from homeassistant.exceptions import ServiceValidationError, Unauthorized
from homeassistant.helpers import issue_registry as ir
from homeassistant.setup import async_setup_component
from homeassistant.util import dt as dt_util
import pytest
from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    MockUser,
    async_capture_events,
)

from custom_components.anomaly_monitor.anomalies.open_anomaly import DETECTOR_CLEAR_AFTER
from custom_components.anomaly_monitor.anomalies.tracker import (
    ANSWERABLE_FOR,
    AnomalyTracker,
)
from custom_components.anomaly_monitor.const import DOMAIN, EVENT_ANOMALY_DETECTED

from .helpers import ALICE, FRONT_LOCK, analyze, set_calm_home, setup_monitor
from .tracker_home import finding, state

_STEP = DETECTOR_CLEAR_AFTER / 2 + timedelta(seconds=10)


def _issues(hass: HomeAssistant) -> list[ir.IssueEntry]:
    return [i for (d, _), i in ir.async_get(hass).issues.items() if d == DOMAIN and i.active]


def _notes(hass: HomeAssistant) -> list[dict]:
    from homeassistant.components.persistent_notification import _async_get_or_create_notifications

    notes = _async_get_or_create_notifications(hass)
    return [dict(v) for k, v in notes.items() if k.startswith(f"{DOMAIN}_")]


async def _user(hass: HomeAssistant) -> MockUser:
    """A household member: no administrator, the default user's permissions."""
    group = await hass.auth.async_get_group(GROUP_ID_USER)
    assert group is not None
    return MockUser(name="Kevin", groups=[group]).add_to_hass(hass)


async def _unlocked_while_away_told(hass: HomeAssistant) -> tuple[MockConfigEntry, str]:
    """The front door unlocked while nobody is home, told: the anomaly's id, from its event."""
    assert await async_setup_component(hass, REPAIRS_DOMAIN, {})
    set_calm_home(hass)
    entry = await setup_monitor(hass)
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    hass.states.async_set(ALICE, "not_home", {"friendly_name": "Alice"})
    hass.states.async_set(FRONT_LOCK, "unlocked", {"friendly_name": "Front door"})
    await analyze(hass, entry)
    await hass.async_block_till_done()
    (event,) = detected
    return entry, event.data["anomaly_id"]


async def _unlocked_while_away_long_over(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> tuple[MockConfigEntry, str]:
    """The front door unlocked while nobody is home, told, locked again, and read two days
    later: its repair issue and notification are gone. The anomaly's id, from its event."""
    entry, anomaly_id = await _unlocked_while_away_told(hass)
    (note,) = _notes(hass)
    assert f"Anomaly id: {anomaly_id}" in note["message"]  # where the homeowner finds it
    hass.states.async_set(FRONT_LOCK, "locked", {"friendly_name": "Front door"})
    for _ in range(3):
        freezer.tick(_STEP)
        await analyze(hass, entry)
    freezer.tick(timedelta(days=2))
    await analyze(hass, entry)
    await hass.async_block_till_done()
    assert _issues(hass) == []
    assert _notes(hass) == []
    return entry, anomaly_id


async def _call(hass: HomeAssistant, action: str, anomaly_id: str, user: MockUser | None = None):
    return await hass.services.async_call(
        DOMAIN,
        action,
        {"anomaly_id": anomaly_id},
        blocking=True,
        return_response=True,
        context=Context(user_id=user.id) if user else None,
    )


async def test_a_false_alarm_given_two_days_after_the_end_teaches(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    entry, anomaly_id = await _unlocked_while_away_long_over(hass, freezer)
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    kevin = await _user(hass)
    response = await _call(hass, "mark_false_alarm", anomaly_id, kevin)
    assert response == {
        "anomaly_id": anomaly_id,
        "answer": "mark_false_alarm",
        "over": True,
        "hazard": False,
    }
    tracker = entry.runtime_data.coordinator.tracker
    assert len(tracker.false_alarms) == 1
    assert tracker.past == {}  # answered: no longer kept
    # The same pattern is not told again.
    hass.states.async_set(FRONT_LOCK, "unlocked", {"friendly_name": "Front door"})
    assert (await analyze(hass, entry))["verdict"]["label"] == "normal"
    assert detected == []
    # Answered once: the id is no longer there to answer.
    with pytest.raises(ServiceValidationError) as err:
        await _call(hass, "acknowledge", anomaly_id, kevin)
    assert err.value.translation_key == "anomaly_not_found"


async def test_acknowledge_late_needs_control_of_its_devices(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, hass_read_only_user: MockUser
) -> None:
    entry, anomaly_id = await _unlocked_while_away_long_over(hass, freezer)
    tracker = entry.runtime_data.coordinator.tracker
    with pytest.raises(Unauthorized):
        await _call(hass, "acknowledge", anomaly_id, hass_read_only_user)
    assert len(tracker.past) == 1
    with pytest.raises(ServiceValidationError) as err:
        await _call(hass, "acknowledge", "0123456789abcdef")
    assert err.value.translation_key == "anomaly_not_found"
    assert err.value.translation_placeholders == {"anomaly_id": "0123456789abcdef"}
    response = await _call(hass, "acknowledge", f" {anomaly_id.upper()} ", await _user(hass))
    assert response is not None
    assert response["answer"] == "acknowledge"
    assert tracker.past == {}
    assert tracker.false_alarms.items() == {}.items()


async def test_an_anomaly_over_for_longer_than_a_week_is_forgotten(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    entry, anomaly_id = await _unlocked_while_away_long_over(hass, freezer)
    freezer.tick(ANSWERABLE_FOR)
    await analyze(hass, entry)
    assert entry.runtime_data.coordinator.tracker.past == {}
    with pytest.raises(ServiceValidationError):
        await _call(hass, "mark_false_alarm", anomaly_id)


HEATER, HEATER_POWER = "switch.backup_element", "sensor.backup_element_power"
DRAWING_AWAY = finding(
    "appliance_active_while_away",
    (HEATER, HEATER_POWER),
    "occupancy_mismatch",
    subject="home",
    while_away=True,
)


ODD_HOUR = finding("meter_drawing_at_unusual_hours", HEATER_POWER, "energy")


async def test_acknowledged_days_after_it_ended_the_same_load_drawing_again_is_quiet(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """The element told drawing while away, over when the family came home, kept past its
    repair issue's day, acknowledged two days later: drawing again while away, its switch
    on since, is shown as acknowledged, not pushed. Switched off since, it is news."""
    on_since = dt_util.utcnow()
    for off_between, pushed in ((False, []), (True, ["appliance_active_while_away"])):
        tracker = AnomalyTracker(hass, f"element{off_between}")
        told = on_since + timedelta(hours=7)

        def home(now, switch="on", since=on_since):
            return {
                HEATER: state(HEATER, switch, "Roof slab", changed=since),
                HEATER_POWER: state(HEATER_POWER, "2990", "Roof slab", "power", "W", changed=now),
            }

        def update(findings, now, entities, someone_home, tracker=tracker):
            states = {e: s.state for e, s in entities.items()}
            return tracker.update(findings, now, someone_home, states=states, entities=entities)

        assert [a.rule for a in update([DRAWING_AWAY], told, home(told), False).opened]
        update([], told + timedelta(minutes=5), home(told), True)  # home: over
        later = told + timedelta(days=2)
        update([], later, home(later), True)
        (anomaly,) = tracker.past.values()
        freezer.move_to(later)  # the homeowner answers now
        assert tracker.acknowledge(anomaly.key) is anomaly
        switched = later + timedelta(hours=1)
        if off_between:
            update([], switched, home(switched, "off", switched), True)
            switched += timedelta(minutes=10)
        entities = home(switched, "on", switched if off_between else on_since)
        # Found with its odd hour, as the walk of session 34 found the kettle: one load.
        found = [DRAWING_AWAY, ODD_HOUR]
        again = update(found, switched + timedelta(hours=2), entities, False)
        assert [a.rule for a in again.opened] == pushed
        if not pushed:
            assert [a.acknowledged for a in again.reopened] == [True]
            assert sorted(again.reopened[0].rules) == sorted(f.rule for f in found)


async def test_acknowledged_twice_the_second_is_taken_as_done(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, hass_read_only_user: MockUser
) -> None:
    """Set 32 Leicester: a second finding told in an open notice, acknowledged at 05:40;
    the notice's own trouble acknowledged again by the same id at 06:30, after it ended
    (forgotten once acknowledged and over): taken as done, not an unknown id. With the
    caller's permissions still; a false alarm on it stays unknown (nothing left to mark)."""
    entry, anomaly_id = await _unlocked_while_away_told(hass)
    kevin = await _user(hass)
    first = await _call(hass, "acknowledge", anomaly_id, kevin)
    assert first is not None
    assert "already_answered" not in first
    hass.states.async_set(FRONT_LOCK, "locked", {"friendly_name": "Front door"})
    for _ in range(3):
        freezer.tick(_STEP)
        await analyze(hass, entry)
    tracker = entry.runtime_data.coordinator.tracker
    assert tracker.by_key(anomaly_id) is None
    assert tracker.ended_by_key(anomaly_id) is None  # acknowledged and over: forgotten
    again = await _call(hass, "acknowledge", anomaly_id, kevin)
    assert again == {"anomaly_id": anomaly_id, "answer": "acknowledge", "already_answered": True}
    with pytest.raises(Unauthorized):
        await _call(hass, "acknowledge", anomaly_id, hass_read_only_user)
    with pytest.raises(ServiceValidationError):
        await _call(hass, "mark_false_alarm", anomaly_id, kevin)
    freezer.tick(timedelta(days=8))  # remembered for a week
    with pytest.raises(ServiceValidationError):
        await _call(hass, "acknowledge", anomaly_id, kevin)
