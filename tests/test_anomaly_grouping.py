"""One incident, one notification, even when several rules tell it; feedback covers them all."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.components.repairs import DOMAIN as REPAIRS_DOMAIN
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    async_capture_events,
    async_fire_time_changed,
)

from custom_components.anomaly_monitor.anomalies.tracker import AnomalyTracker, anomaly_key
from custom_components.anomaly_monitor.const import (
    DOMAIN,
    EVENT_ANOMALY_CLEARED,
    EVENT_ANOMALY_DETECTED,
)
from custom_components.anomaly_monitor.core.models import (
    HOME_SUBJECT,
    AnomalyType,
    Finding,
    Severity,
)

from .helpers import ALICE, SMOKE, analyze, put_in_area, set_calm_home, setup_monitor

DOOR = "binary_sensor.front_door"
HALL_MOTION = "binary_sensor.hall_motion"
# Late morning in the test time zone (US/Pacific): nothing here is the small hours.
MORNING = datetime(2026, 3, 10, 18, 0, tzinfo=dt_util.UTC)


async def _tick(hass: HomeAssistant, freezer: FrozenDateTimeFactory, minutes: float) -> None:
    """Let time pass in steps of half a minute, firing the timers that fall due."""
    for _ in range(int(minutes * 2)):
        freezer.tick(timedelta(seconds=30))
        async_fire_time_changed(hass)
        await hass.async_block_till_done()


async def _hall_home(hass: HomeAssistant, freezer: FrozenDateTimeFactory) -> MockConfigEntry:
    """Alice at home; a hall with the front door and a motion sensor that works."""
    freezer.move_to(MORNING)
    assert await async_setup_component(hass, REPAIRS_DOMAIN, {})
    put_in_area(hass, "Hall", DOOR, HALL_MOTION)
    set_calm_home(hass)
    hass.states.async_set(DOOR, "off", {"device_class": "door", "friendly_name": "Front door"})
    hass.states.async_set(HALL_MOTION, "off", {"device_class": "motion", "friendly_name": "Hall"})
    return await setup_monitor(
        hass, learned=True, include_entities=[SMOKE, DOOR, HALL_MOTION, ALICE]
    )


def _door(hass: HomeAssistant, state: str) -> None:
    hass.states.async_set(DOOR, state, {"device_class": "door", "friendly_name": "Front door"})


async def _door_opens_unseen(hass: HomeAssistant, freezer: FrozenDateTimeFactory) -> None:
    """The hall's motion sensor shows it works, then the door opens with nobody seen."""
    _door(hass, "off")
    for _ in range(4):  # its silence means something only once it has shown it works
        hass.states.async_set(HALL_MOTION, "on", {"device_class": "motion"})
        await _tick(hass, freezer, 0.5)
        hass.states.async_set(HALL_MOTION, "off", {"device_class": "motion"})
        await _tick(hass, freezer, 0.5)
    await _tick(hass, freezer, 10)
    _door(hass, "on")
    await _tick(hass, freezer, 7)


async def test_a_door_opened_unseen_then_left_open_is_told_once(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, hass_storage: dict[str, Any]
) -> None:
    """Two rules, one door: one notification; the false alarm covers both, across a restart."""
    entry = await _hall_home(hass, freezer)
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    await _door_opens_unseen(hass, freezer)
    await analyze(hass, entry)
    await hass.async_block_till_done()
    (told,) = detected
    assert told.data["rules"] == ["unaccompanied_opening"]

    await _tick(hass, freezer, 10)  # ...and it stays open: 17 minutes
    verdict = (await analyze(hass, entry))["verdict"]
    await hass.async_block_till_done()
    # The detector now tells it as a door left open (the two findings' evidence is the
    # same, it keeps one): another rule, the same incident, told once.
    assert [f["rule"] for f in verdict["findings"]] == ["entry_left_open"]
    assert len(detected) == 1
    coordinator = entry.runtime_data.coordinator
    (anomaly,) = coordinator.tracker.open.values()
    assert anomaly.key == told.data["anomaly_id"]  # identity kept while another rule joined
    assert anomaly.rules == ["unaccompanied_opening", "entry_left_open"]
    assert anomaly.evidence == [DOOR]
    assert "stayed open for 17 min" in anomaly.reasoning
    notices = [n for n in hass.data["persistent_notification"] if anomaly.key in n]
    assert len(notices) == 1

    coordinator.async_mark_false_alarm(anomaly.key)
    await hass.async_block_till_done()
    assert sorted(coordinator.tracker.false_alarms) == [
        f"entry_left_open:{DOOR}",
        f"unaccompanied_opening:{DOOR}",
    ]
    (listed,) = (
        await hass.services.async_call(
            DOMAIN, "list_false_alarms", {}, blocking=True, return_response=True
        )
    )["false_alarms"]
    assert listed["false_alarm_id"] == anomaly.key  # one false alarm, listed once
    assert sorted(listed["rules"]) == ["entry_left_open", "unaccompanied_opening"]

    await _tick(hass, freezer, 3)
    assert (await analyze(hass, entry))["verdict"]["label"] == "normal"  # neither rule tells it
    assert await hass.config_entries.async_unload(entry.entry_id)
    await hass.async_block_till_done()
    stored = hass_storage[f"{DOMAIN}.{entry.entry_id}"]["data"]
    assert {m["incident"] for m in stored["false_alarm_marks"]} == {anomaly.signature}

    # After a restart (the window starts afresh) the same thing happens again: still quiet.
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    await _door_opens_unseen(hass, freezer)
    assert (await analyze(hass, entry))["verdict"]["label"] == "normal"
    await _tick(hass, freezer, 10)
    assert (await analyze(hass, entry))["verdict"]["label"] == "normal"
    await hass.async_block_till_done()
    assert len(detected) == 1

    # Forgetting the false alarm forgets every mark it left: the door is told again.
    await hass.services.async_call(
        DOMAIN, "remove_false_alarm", {"false_alarm_id": anomaly.key}, blocking=True
    )
    assert len(entry.runtime_data.coordinator.tracker.false_alarms) == 0
    await analyze(hass, entry)
    await hass.async_block_till_done()
    assert [e.data["rule"] for e in detected] == ["unaccompanied_opening", "entry_left_open"]


def _finding(rule: str, subject: str, **changes: Any) -> Finding:
    return Finding(
        rule=rule,
        evidence=(subject,),
        reasoning=f"{rule} on {subject}.",
        anomaly_type=changes.pop("anomaly_type", AnomalyType.DEVICE_MALFUNCTION),
        subject=subject,
        **changes,
    )


async def test_smoke_on_a_detector_whose_dropout_was_acknowledged_is_told(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Smoke on the detector whose acknowledged dropout is open is told as a fire of its own
    (walk 53: joined to the dropout it read "since" the dropout's time): the dropout stays
    acknowledged, the fire opens its own anomaly, first seen when the smoke was found."""
    freezer.move_to(MORNING)
    assert await async_setup_component(hass, REPAIRS_DOMAIN, {})
    set_calm_home(hass)
    entry = await setup_monitor(hass, learned=True)
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    cleared = async_capture_events(hass, EVENT_ANOMALY_CLEARED)
    coordinator = entry.runtime_data.coordinator
    hass.states.async_set(SMOKE, "unavailable", {"device_class": "smoke"})
    await _tick(hass, freezer, 20)  # past the safety devices' offline grace
    await analyze(hass, entry)
    await hass.async_block_till_done()
    (dropout,) = detected
    assert dropout.data["rule"] == "device_unavailable"
    coordinator.async_acknowledge(dropout.data["anomaly_id"])

    hass.states.async_set(SMOKE, "on", {"device_class": "smoke", "friendly_name": "Smoke"})
    await hass.async_block_till_done()
    await analyze(hass, entry)
    await hass.async_block_till_done()
    assert len(detected) == 2  # an acknowledged dropout never silences a fire
    fire = detected[1].data
    assert fire["anomaly_id"] != dropout.data["anomaly_id"]
    assert (fire["rule"], fire["severity"]) == ("hazard_detected", "critical")
    assert cleared == []
    by_rule = {a.rule: a for a in coordinator.tracker.open.values()}
    assert set(by_rule) == {"device_unavailable", "hazard_detected"}
    assert by_rule["device_unavailable"].acknowledged
    anomaly = by_rule["hazard_detected"]
    assert not anomaly.acknowledged
    assert anomaly.hazard

    # A false alarm on it now dismisses this occurrence only: no mark on any of its rules.
    coordinator.async_mark_false_alarm(anomaly.key)
    assert len(coordinator.tracker.false_alarms) == 0
    assert list(coordinator.tracker.dismissed) == [anomaly.signature]


async def test_a_mark_never_covers_a_hazard_and_old_anomalies_join_by_rule(
    hass: HomeAssistant,
) -> None:
    """Marks left by a false alarm stop at hazards; a file with two anomalies on one
    subject (written before anomalies had members) keeps each rule on its own anomaly."""
    tracker = AnomalyTracker(hass, "grouping")
    now = dt_util.utcnow()
    level = _finding("reading_spike", "sensor.boiler", magnitude=30.0)
    changes = tracker.update([level], now)
    (anomaly,) = changes.opened
    tracker.mark_false_alarm(anomaly.key)
    assert tracker.false_alarms.covers(level)
    critical = _finding("reading_spike", "sensor.boiler", severity=Severity.CRITICAL)
    assert not tracker.false_alarms.covers(critical)
    assert [a.rule for a in tracker.update([critical], now).opened] == ["reading_spike"]
    # The id of one rule's mark (what older versions listed) still forgets it.
    assert tracker.remove_mark(anomaly_key(level.signature)) is not None
    assert len(tracker.false_alarms) == 0

    tracker = AnomalyTracker(hass, "legacy")
    first = _finding("device_unavailable", "lock.front")
    second = _finding("toggle_storm", "lock.front")
    for finding in (first, second):  # as an older version kept them: one per rule
        opened = AnomalyTracker(hass, "scratch").update([finding], now).opened
        tracker.open[opened[0].signature] = opened[0]
    later = now + timedelta(minutes=1)
    assert tracker.update([first, second], later).opened == []
    assert sorted(a.rules[0] for a in tracker.open.values()) == [
        "device_unavailable",
        "toggle_storm",
    ]
    assert all(len(a.rules) == 1 for a in tracker.open.values())


async def test_about_the_whole_home_only_findings_of_one_kind_are_one_incident(
    hass: HomeAssistant,
) -> None:
    """Slow lights and motion while away are two problems; two signs of motion while
    away are one."""
    tracker = AnomalyTracker(hass, "home")
    now = dt_util.utcnow()
    # As severe as the motion: joining it would not even make it graver.
    lights = _finding("slow_light_response", HOME_SUBJECT, severity=Severity.HIGH)
    motion = _finding(
        "motion_while_away",
        HOME_SUBJECT,
        anomaly_type=AnomalyType.OCCUPANCY_MISMATCH,
        severity=Severity.HIGH,
    )
    activity = _finding(
        "activity_while_away", HOME_SUBJECT, anomaly_type=AnomalyType.OCCUPANCY_MISMATCH
    )
    (slow,) = tracker.update([lights], now).opened
    tracker.acknowledge(slow.key)
    later = now + timedelta(minutes=1)
    (away,) = tracker.update([motion, lights], later).opened  # told, not hidden in the first
    assert away.key != slow.key
    assert tracker.update([activity, motion, lights], later + timedelta(minutes=1)).opened == []
    assert away.rules == ["motion_while_away", "activity_while_away"]
    assert slow.rules == ["slow_light_response"]
