"""An anomaly is never hidden behind a wider one about another subject.

The detector used to keep, of two overlapping findings, the one with more evidence: a
light switching on where someone moves while nobody is home made "motion while nobody is
home" cover "the front door is unlocked while nobody is home", so the door's anomaly
cleared, and was announced again once the light went off. One incident, two
notifications. The detector now drops a covered finding only within its own incident
(same subject); the tracker joins a new finding that another one of the same analysis
covers to that one's incident, where it stays a member.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.components.repairs import DOMAIN as REPAIRS_DOMAIN
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import (
    async_capture_events,
    async_fire_time_changed,
)

from custom_components.anomaly_monitor.anomalies.tracker import AnomalyTracker
from custom_components.anomaly_monitor.const import (
    DOMAIN,
    EVENT_ANOMALY_CLEARED,
    EVENT_ANOMALY_DETECTED,
)
from custom_components.anomaly_monitor.core.combined_detector import merge_findings
from custom_components.anomaly_monitor.core.models import HOME_SUBJECT, Finding, Severity

from .helpers import (
    ALICE,
    FRONT_LOCK,
    SMOKE,
    analyze,
    put_in_area,
    set_calm_home,
    setup_monitor,
)

DOOR = "binary_sensor.front_door"
HALL_MOTION = "binary_sensor.hall_motion"
HALL_LIGHT = "light.hall"
# Late morning in the test time zone (US/Pacific).
MORNING = datetime(2026, 3, 10, 18, 0, tzinfo=dt_util.UTC)


async def _minutes(hass: HomeAssistant, freezer: FrozenDateTimeFactory, minutes: int) -> None:
    """Analyse once a minute for ``minutes``, firing the timers that fall due."""
    for _ in range(minutes):
        freezer.tick(timedelta(minutes=1))
        async_fire_time_changed(hass)
        await hass.async_block_till_done()
        await analyze(hass)
        await hass.async_block_till_done()


async def test_a_light_joining_motion_while_away_never_clears_the_unlocked_door(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Door unlocked while away, then motion in the hall, then its light on and off: one
    incident (the motion follows the entry: ``core.episodes``), told once and once more
    for the motion (``core.escalation``), never cleared while a member still holds."""
    freezer.move_to(MORNING)
    assert await async_setup_component(hass, REPAIRS_DOMAIN, {})
    put_in_area(hass, "Hall", DOOR, HALL_MOTION, HALL_LIGHT, FRONT_LOCK)
    set_calm_home(hass)
    hass.states.async_set(DOOR, "off", {"device_class": "door", "friendly_name": "Front door"})
    hass.states.async_set(HALL_MOTION, "off", {"device_class": "motion", "friendly_name": "Hall"})
    hass.states.async_set(HALL_LIGHT, "off", {"friendly_name": "Hall light"})
    await setup_monitor(
        hass,
        learned=True,
        include_entities=[SMOKE, FRONT_LOCK, DOOR, HALL_MOTION, HALL_LIGHT, ALICE],
    )
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    cleared = async_capture_events(hass, EVENT_ANOMALY_CLEARED)

    hass.states.async_set(ALICE, "not_home", {"friendly_name": "Alice"})
    await _minutes(hass, freezer, 5)
    hass.states.async_set(FRONT_LOCK, "unlocked", {"friendly_name": "Front door"})
    await _minutes(hass, freezer, 2)
    assert [e.data["rule"] for e in detected] == ["entry_unsecured_while_away"]

    hass.states.async_set(HALL_MOTION, "on", {"device_class": "motion", "friendly_name": "Hall"})
    await _minutes(hass, freezer, 3)
    hass.states.async_set(HALL_LIGHT, "on", {"friendly_name": "Hall light"})
    await _minutes(hass, freezer, 5)
    hass.states.async_set(HALL_LIGHT, "off", {"friendly_name": "Hall light"})
    await _minutes(hass, freezer, 5)

    assert [e.data["escalation"] for e in detected] == [None, "intrusion"]
    assert len({e.data["anomaly_id"] for e in detected}) == 1
    assert cleared == []
    coordinator = hass.config_entries.async_entries("anomaly_monitor")[0].runtime_data.coordinator
    door = next(a for a in coordinator.tracker.open.values() if a.rule.startswith("entry"))
    assert FRONT_LOCK in door.evidence

    # Locked again: the door's member is over, the motion is not; nothing is told again
    # and the incident stays open while somebody may still be inside.
    hass.states.async_set(FRONT_LOCK, "locked", {"friendly_name": "Front door"})
    await _minutes(hass, freezer, 5)
    assert len(detected) == 2
    assert cleared == []
    assert "motion_while_away" in door.rules


def test_merge_keeps_a_covered_finding_about_another_subject() -> None:
    """Same incident: the covered finding goes; another subject: it stays."""
    motion = Finding(
        "motion_while_away",
        ("binary_sensor.hall_motion", "light.hall", DOOR, FRONT_LOCK),
        "",
        "occupancy_mismatch",
        Severity.HIGH,
        subject=HOME_SUBJECT,
    )
    door = Finding("entry_unsecured_while_away", (DOOR, FRONT_LOCK), "", "security", Severity.HIGH)
    left_open = Finding("entry_left_open", (DOOR,), "", "security", Severity.MEDIUM)
    assert merge_findings([door, left_open, motion]) == [motion, door]


def _away(rule: str, evidence: tuple[str, ...], subject: str, anomaly_type: str) -> Finding:
    return Finding(
        rule,
        evidence,
        f"{rule}.",
        anomaly_type,
        Severity.HIGH,
        subject=subject,
        while_away=True,
    )


async def test_a_covered_finding_about_another_subject_joins_the_incident(
    hass: HomeAssistant,
) -> None:
    """Motion in the hall of the door unlocked while away, with the same evidence, is the
    door's incident: told once more as it joins (somebody may be inside), and it stays a
    member as a light joins and leaves, never told again."""
    tracker = AnomalyTracker(hass, "covered")
    now = dt_util.utcnow()
    door = _away("entry_unsecured_while_away", (DOOR, FRONT_LOCK, HALL_MOTION), DOOR, "security")
    still = (HALL_MOTION, DOOR, FRONT_LOCK)
    lit = (HALL_MOTION, HALL_LIGHT, DOOR, FRONT_LOCK)
    motion = _away("motion_while_away", still, HOME_SUBJECT, "occupancy_mismatch")
    (anomaly,) = tracker.update([door], now).opened
    steps = [[door, motion], [replace(motion, evidence=lit), door], [door, motion]] * 2
    for minute, findings in enumerate(steps, start=1):
        changes = tracker.update(findings, now + timedelta(minutes=minute))
        assert (changes.opened, changes.cleared) == ([anomaly] if minute == 1 else [], [])
    assert anomaly.escalation == "intrusion"
    assert list(tracker.open.values()) == [anomaly]
    assert anomaly.rules == ["entry_unsecured_while_away", "motion_while_away"]
    assert anomaly.evidence == [DOOR, FRONT_LOCK, HALL_MOTION]
    # The door locked, the motion goes on: the incident too.
    later = now + timedelta(minutes=10)
    for minute in range(4):
        changes = tracker.update([motion], later + timedelta(minutes=minute))
        assert (changes.opened, changes.cleared) == ([], [])
    # A false alarm marks each rule on its own subject.
    tracker.mark_false_alarm(anomaly.key)
    assert sorted(tracker.false_alarms) == [
        f"entry_unsecured_while_away:{DOOR}",
        f"motion_while_away:{HOME_SUBJECT}",
    ]
    assert tracker.false_alarms.covers(motion)


async def test_a_joined_member_keeps_its_subject_across_a_restart(
    hass: HomeAssistant, hass_storage: dict[str, Any]
) -> None:
    """Stored and loaded, the joined member still brings its findings to the incident."""
    tracker = AnomalyTracker(hass, "stored")
    now = dt_util.utcnow()
    door = _away("entry_unsecured_while_away", (DOOR, FRONT_LOCK, HALL_MOTION), DOOR, "security")
    motion = _away(
        "motion_while_away", (HALL_MOTION, DOOR, FRONT_LOCK), HOME_SUBJECT, "occupancy_mismatch"
    )
    (anomaly,) = tracker.update([door, motion], now).opened
    assert anomaly.rules == ["entry_unsecured_while_away", "motion_while_away"]
    await tracker.async_flush()
    restored = AnomalyTracker(hass, "stored")
    await restored.async_load()
    wider = replace(motion, evidence=(HALL_MOTION, HALL_LIGHT, DOOR, FRONT_LOCK))
    changes = restored.update([wider], now + timedelta(minutes=1))
    assert (changes.opened, changes.cleared) == ([], [])
    assert list(restored.open) == [anomaly.signature]
    # An older file (members without a subject) loads: its members are the anomaly's.
    stored = hass_storage[f"{DOMAIN}.stored"]["data"]
    for member in stored["open"][0]["members"]:
        del member["subject"]
    older = AnomalyTracker(hass, "stored")
    await older.async_load()
    assert older.open[anomaly.signature].incidents == {DOOR}


async def test_an_arrival_ends_motion_while_away_at_once(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Motion while Alice is away, told by the statistic (whose evidence holds Alice) and
    maybe the rule, is one incident: she comes home, it is over at the next analysis,
    told over once, and the statistic, which still sees the motion of the away spell in
    its window, never tells it again."""
    freezer.move_to(MORNING)
    put_in_area(hass, "Hall", HALL_MOTION, HALL_LIGHT)
    set_calm_home(hass)
    hass.states.async_set(HALL_MOTION, "off", {"device_class": "motion", "friendly_name": "Hall"})
    hass.states.async_set(HALL_LIGHT, "off", {"friendly_name": "Hall light"})
    await setup_monitor(
        hass, learned=True, include_entities=[SMOKE, FRONT_LOCK, HALL_MOTION, HALL_LIGHT, ALICE]
    )
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    cleared = async_capture_events(hass, EVENT_ANOMALY_CLEARED)

    hass.states.async_set(ALICE, "not_home", {"friendly_name": "Alice"})
    await _minutes(hass, freezer, 20)
    hass.states.async_set(HALL_MOTION, "on", {"device_class": "motion", "friendly_name": "Hall"})
    await _minutes(hass, freezer, 3)
    coordinator = hass.config_entries.async_entries(DOMAIN)[0].runtime_data.coordinator
    (anomaly,) = coordinator.tracker.open.values()
    # The statistic leads (the rule's finding may be within its evidence, and go).
    assert anomaly.rule == "activity_while_away"
    assert [e.data["anomaly_id"] for e in detected] == [anomaly.key]

    hass.states.async_set(ALICE, "home", {"friendly_name": "Alice"})
    await _minutes(hass, freezer, 1)
    assert coordinator.tracker.open == {}
    assert [(e.data["anomaly_id"], e.data["reason"]) for e in cleared] == [
        (anomaly.key, "resolved")
    ]
    # She walks about the hall: nothing is told, nothing is over again.
    hass.states.async_set(HALL_MOTION, "off", {"device_class": "motion", "friendly_name": "Hall"})
    await _minutes(hass, freezer, 5)
    hass.states.async_set(HALL_MOTION, "on", {"device_class": "motion", "friendly_name": "Hall"})
    await _minutes(hass, freezer, 5)
    assert len(detected) == 1
    assert len(cleared) == 1
    assert coordinator.tracker.open == {}


async def test_an_arrival_ends_only_what_holds_while_away(hass: HomeAssistant) -> None:
    """Someone home: a member that holds regardless keeps its incident open (its words
    lead) and ends it as it would alone; a safety hazard found while away is never ended
    by the arrival."""
    tracker = AnomalyTracker(hass, "arrival")
    now = dt_util.utcnow()
    away = _away("motion_while_away", (HALL_MOTION,), HOME_SUBJECT, "occupancy_mismatch")
    held = replace(away, rule="motion_pattern_shift", while_away=False, reasoning="Odd.")
    rain = Finding(
        "window_open_in_wet_weather",
        ("binary_sensor.kitchen_window",),
        "Open in the rain.",
        "safety_hazard",
        Severity.MEDIUM,
        while_away=True,
    )
    motion, window = tracker.update([away, held, rain], now).opened
    home = now + timedelta(minutes=1)
    changes = tracker.update([away, held], home, someone_home=True)
    assert (changes.opened, changes.cleared) == ([], [])
    assert motion.lead_rule == "motion_pattern_shift"
    assert motion.reasoning == "Odd."
    assert window.signature in tracker.open  # missed once: hysteresis, not the arrival
    # The other member is no longer found: over once, after the hysteresis that guards
    # against its sensors flickering (found again, it would be told again).
    changes = tracker.update([away], home + timedelta(minutes=1), someone_home=True)
    assert (changes.opened, changes.cleared) == ([], [])
    changes = tracker.update([away], home + timedelta(minutes=4), someone_home=True)
    assert (changes.opened, changes.cleared) == ([], [motion, window])
    assert tracker.open == {}


async def test_a_lock_storm_while_away_is_not_the_smoke_s_incident(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Nobody home, smoke in the kitchen, then the front door lock flips 4 times in seconds.

    The smoke names the entrance as its context (who could respond while nobody is home).
    The lock's storm used to be "covered" by that context and joined the smoke's
    notification (seen in a live Home Assistant: "Smoke detected in Kitchen. Front door
    lock changed state 4 times in quick succession..."), never told on its own, and gone
    with a false alarm on the smoke. A hazard's context covers nothing.
    """
    freezer.move_to(MORNING)
    assert await async_setup_component(hass, REPAIRS_DOMAIN, {})
    put_in_area(hass, "Hall", DOOR, FRONT_LOCK)
    set_calm_home(hass)
    hass.states.async_set(DOOR, "off", {"device_class": "door", "friendly_name": "Front door"})
    hass.states.async_set(ALICE, "not_home", {"friendly_name": "Alice"})
    entry = await setup_monitor(
        hass, learned=True, include_entities=[SMOKE, FRONT_LOCK, DOOR, ALICE]
    )
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    hass.states.async_set(SMOKE, "on", {"device_class": "smoke", "friendly_name": "Kitchen smoke"})
    await _minutes(hass, freezer, 1)
    (smoke,) = detected
    assert FRONT_LOCK in smoke.data["context"]  # the entrance, while nobody is home

    for state in ("unlocked", "locked", "unlocked", "locked"):
        hass.states.async_set(FRONT_LOCK, state, {"friendly_name": "Front door lock"})
        freezer.tick(timedelta(seconds=2))
    await _minutes(hass, freezer, 1)
    assert sorted(e.data["rule"] for e in detected) == ["hazard_detected", "toggle_storm"]
    coordinator = entry.runtime_data.coordinator
    fire = coordinator.tracker.open[smoke.data["rule"] + ":" + SMOKE]
    assert fire.rules == ["hazard_detected"]
    assert "quick succession" not in fire.reasoning
