"""An open incident is told once more when a joining finding changes what to do.

The front door open while nobody is home asks for someone to close it; motion in the hall
a minute later asks for the cameras or the police. Both are one incident, and somebody
inside the empty home makes it one step graver (high -> critical): that rise is why the
homeowner's phone hears of the motion, once, not at every motion, its notification (and
the companion app's push, by its tag) updated rather than a second one added.
Motion seconds after the door was told is the person who opened it (a neighbour letting
the dog out): the notification says so, the phone is not pushed twice.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.components.persistent_notification import _async_get_or_create_notifications
from homeassistant.components.repairs import DOMAIN as REPAIRS_DOMAIN
from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir
from homeassistant.setup import async_setup_component
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import (
    async_capture_events,
    async_mock_service,
)

from custom_components.anomaly_monitor.anomalies.tracker import AnomalyTracker
from custom_components.anomaly_monitor.const import CONF_NOTIFY, DOMAIN, EVENT_ANOMALY_DETECTED
from custom_components.anomaly_monitor.core.escalation import Escalation, escalation
from custom_components.anomaly_monitor.core.models import HOME_SUBJECT, Finding, Severity

from .helpers import (
    ALICE,
    FRONT_LOCK,
    SMOKE,
    analyze,
    pass_time,
    put_in_area,
    set_calm_home,
    setup_monitor,
    setup_monitor_learned,
)
from .learned_home import learned_home, observe_until

DOOR = "binary_sensor.front_door"
HALL_MOTION = "binary_sensor.hall_motion"
# Late morning in the test time zone (US/Pacific).
MORNING = datetime(2026, 3, 10, 18, 0, tzinfo=dt_util.UTC)


def _finding(rule: str, severity: Severity = Severity.HIGH, subject: str = DOOR) -> Finding:
    return Finding(rule, (DOOR,), "", "security", severity, subject=subject, while_away=True)


def _about(rule: str, entity_id: str, subject: str) -> Finding:
    """A high finding while away that shows ``entity_id``."""
    return Finding(
        rule, (entity_id,), "", "security", Severity.HIGH, subject=subject, while_away=True
    )


def test_what_makes_a_joining_finding_an_escalation() -> None:
    """Graver, or the first sign of somebody inside; nothing else, and each kind once."""
    door = _finding("entry_unsecured_while_away")
    motion = _finding("motion_while_away", subject=HOME_SUBJECT)
    activity = _finding("activity_while_away", subject=HOME_SUBJECT)
    left_open = _finding("entry_left_open", Severity.MEDIUM)
    high = Severity.HIGH.rank
    assert escalation(high, [door], [motion]) is Escalation.INTRUSION
    assert escalation(high, [door], [left_open]) is None
    # A second rule seeing the same intruder (or one seen before, now quiet) adds nothing.
    assert escalation(high, [door, motion], [activity]) is None
    # The door joining motion already told: no new reason to act.
    assert escalation(high, [motion], [door]) is None
    critical = _finding("entry_unsecured_while_away", Severity.CRITICAL)
    assert escalation(high, [door], [critical]) is Escalation.GRAVER
    appliance = _about("appliance_active_while_away", "switch.washer", HOME_SUBJECT)
    assert escalation(Severity.MEDIUM.rank, [left_open], [appliance]) is Escalation.GRAVER
    assert escalation(high, [door], [appliance]) is None  # left on is not an intruder


def test_the_same_device_seen_graver_by_another_rule_is_not_told_again() -> None:
    """The microwave door told as left open (medium); everybody leaves and the same door,
    unchanged, is now also "open while nobody is home" (high): one situation, told once.
    A device the incident did not show, or a critical finding, is still news."""
    left_open = _finding("entry_left_open", Severity.MEDIUM)
    while_away = _finding("entry_unsecured_while_away", Severity.HIGH)
    assert escalation(Severity.MEDIUM.rank, [left_open], [while_away]) is None
    other_door = _about("entry_unsecured_while_away", "binary_sensor.back_door", DOOR)
    assert escalation(Severity.MEDIUM.rank, [left_open], [other_door]) is Escalation.GRAVER
    critical = _finding("entry_unsecured_while_away", Severity.CRITICAL)
    assert escalation(Severity.MEDIUM.rank, [left_open], [critical]) is Escalation.GRAVER


def _notes(hass: HomeAssistant) -> list[dict[str, Any]]:
    return list(_async_get_or_create_notifications(hass).values())


async def _seconds(hass: HomeAssistant, freezer: FrozenDateTimeFactory, seconds: int) -> None:
    await pass_time(hass, freezer, timedelta(seconds=seconds))


# The neighbour unlocks, opens the door, walks the hall, closes and locks (seconds between).
NEIGHBOUR_VISIT = (
    (FRONT_LOCK, "unlocked", 6),
    (DOOR, "on", 3),
    (HALL_MOTION, "on", 20),
    (DOOR, "off", 4),
    (FRONT_LOCK, "locked", 30),
    (HALL_MOTION, "off", 60),
)


async def _neighbour_lets_the_dog_out(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, attrs: dict[str, dict[str, Any]]
) -> None:
    for entity_id, state, wait in NEIGHBOUR_VISIT:
        hass.states.async_set(entity_id, state, attrs[entity_id])
        await _seconds(hass, freezer, wait)


async def test_motion_joining_the_open_door_while_away_pushes_once_more(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Door open while away: one push. Motion in the hall over a minute later joins that
    incident and pushes once more, its title saying what changed; later motion pushes
    nothing."""
    freezer.move_to(MORNING)
    assert await async_setup_component(hass, REPAIRS_DOMAIN, {})
    put_in_area(hass, "Hall", DOOR, HALL_MOTION, FRONT_LOCK)
    set_calm_home(hass)
    door_attrs = {"device_class": "door", "friendly_name": "Front door"}
    motion_attrs = {"device_class": "motion", "friendly_name": "Hall motion"}
    hass.states.async_set(FRONT_LOCK, "locked", {"friendly_name": "Front door lock"})
    hass.states.async_set(DOOR, "off", door_attrs)
    hass.states.async_set(HALL_MOTION, "off", motion_attrs)
    # Alice left before the monitor started (as in the live walk): the statistic about
    # the away spell names no departure, and the motion is the open door's incident.
    hass.states.async_set(ALICE, "not_home", {"friendly_name": "Alice"})
    pushes = async_mock_service(hass, "notify", "mobile_app_phone")
    entry = await setup_monitor(
        hass,
        include_entities=[SMOKE, FRONT_LOCK, DOOR, HALL_MOTION, ALICE],
        **{CONF_NOTIFY: ["notify.mobile_app_phone"]},
    )
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)

    await _seconds(hass, freezer, 600)
    assert pushes == []
    hass.states.async_set(DOOR, "on", door_attrs)
    await analyze(hass, entry)  # as the opening door triggers (its timer runs on real time)
    await _seconds(hass, freezer, 15)
    assert [c.data["title"] for c in pushes] == ["Front door open while nobody is home"]

    await _seconds(hass, freezer, 60)
    hass.states.async_set(HALL_MOTION, "on", motion_attrs)
    await analyze(hass, entry)
    await hass.async_block_till_done()
    titles = [c.data["title"] for c in pushes]
    assert titles == [
        "Front door open while nobody is home",
        "Now motion in Hall: Front door open while nobody is home",
    ]
    assert "Motion in Hall while nobody is home" in pushes[1].data["message"]
    # One incident: the notification is the same one, updated, with the same title.
    assert len({e.data["anomaly_id"] for e in detected}) == 1
    assert [e.data["escalation"] for e in detected] == [None, "intrusion"]
    # Told again because it is graver (on 953f7ea: high twice, a second push beside the first).
    assert [e.data["severity"] for e in detected] == ["high", "critical"]
    # The companion app replaces the first push with the second: one notification there too.
    tags = [c.data["data"]["tag"] for c in pushes]
    assert tags[0] == tags[1] == f"{DOMAIN}_{entry.entry_id}_{detected[0].data['anomaly_id']}"
    (issue,) = [i for i in ir.async_get(hass).issues.values() if i.domain == DOMAIN]
    assert issue.severity is ir.IssueSeverity.CRITICAL
    assert issue.translation_key == "anomaly"  # a break-in, no safety hazard
    (note,) = _notes(hass)
    assert note["title"] == titles[1]
    # The door (the subject) first, the motion, then the lock as context it is in.
    lines = [line for line in note["message"].splitlines() if line.startswith("- ")]
    assert lines == [
        "- Front door (Hall): Open",
        "- Hall motion (Hall): Detected",
        "- also: Front door lock (Hall): Locked",
    ]

    # The intruder walks about: motion stops and starts again, analyses go on.
    for state in ("off", "on", "off", "on"):
        hass.states.async_set(HALL_MOTION, state, motion_attrs)
        await _seconds(hass, freezer, 60)
        await analyze(hass, entry)
        await hass.async_block_till_done()
    assert len(pushes) == 2
    assert len(detected) == 2
    (note,) = _notes(hass)
    assert note["title"] == titles[1]
    # Somebody may be inside: that advice comes first, and what to do if so.
    # (then the door's: it is open and its lock locked, so closing it, not locking)
    assert (
        "What to do:** Check the cameras or ask a neighbour\\. If somebody is inside, call the "
        "police rather than going in\\. Ask someone to check the door" in note["message"]
    )
    # The motion is over: the title says the motion told in the past (walk 56: the pushed
    # title gone 40 s after the push); back, "Now motion" again, without a push (the
    # homeowner has heard of it).
    hass.states.async_set(HALL_MOTION, "off", motion_attrs)
    await _seconds(hass, freezer, 60)
    await analyze(hass, entry)
    await hass.async_block_till_done()
    told_at = dt_util.as_local(detected[1].time_fired).strftime("%H:%M")
    assert [n["title"] for n in _notes(hass)] == [f"Motion in Hall at {told_at}: {titles[0]}"]
    hass.states.async_set(HALL_MOTION, "on", motion_attrs)
    await _seconds(hass, freezer, 60)
    await analyze(hass, entry)
    await hass.async_block_till_done()
    assert [n["title"] for n in _notes(hass)] == [titles[1]]
    assert len(pushes) == 2
    assert len(detected) == 2
    coordinator = entry.runtime_data.coordinator
    (anomaly,) = coordinator.tracker.open.values()
    assert anomaly.rule == "entry_unsecured_while_away"
    assert "motion_while_away" in anomaly.rules
    assert hass.states.get("sensor.home_open_anomalies").state == "1"
    # Critical as a break-in, yet no hazard: a false alarm teaches (marks), not dismisses.
    assert not anomaly.hazard
    coordinator.async_mark_false_alarm(anomaly.key)
    assert coordinator.tracker.dismissed == {}
    assert {m.rule for m in coordinator.tracker.false_alarms.values()} >= {
        "entry_unsecured_while_away",
        "motion_while_away",
    }


async def test_the_escalation_is_stored_and_an_unknown_one_reads_as_none(
    hass: HomeAssistant, hass_storage: dict[str, Any]
) -> None:
    """After a restart the title still says what changed; a kind this version does not
    know (a newer version's file) is no escalation, and the anomaly still loads."""
    tracker = AnomalyTracker(hass, "told")
    now = dt_util.utcnow()
    door = _finding("entry_unsecured_while_away")
    motion = _finding("motion_while_away", subject=HOME_SUBJECT)
    (anomaly,) = tracker.update([door], now).opened
    assert tracker.update([door, motion], now + timedelta(minutes=2)).opened == [anomaly]
    await tracker.async_flush()
    restored = AnomalyTracker(hass, "told")
    await restored.async_load()
    assert restored.open[anomaly.signature].escalation == "intrusion"
    # Later motion joins nothing new: not told again after the restart either.
    assert restored.update([door, motion], now + timedelta(minutes=3)).opened == []
    hass_storage[f"{DOMAIN}.told"]["data"]["open"][0]["escalation"] = "meteor"
    newer = AnomalyTracker(hass, "told")
    await newer.async_load()
    assert newer.open[anomaly.signature].escalation == ""


async def test_the_neighbour_letting_the_dog_out_is_told_once(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Unlock, open, motion in the hall, close, lock, seconds apart, while nobody is home:
    one push (main pushed "Now motion in Hall" 10 s after the first, by the analysis the
    motion asked for). The notification still shows the motion."""
    freezer.move_to(MORNING)
    put_in_area(hass, "Hall", DOOR, HALL_MOTION, FRONT_LOCK)
    set_calm_home(hass)
    attrs = {
        DOOR: {"device_class": "door", "friendly_name": "Front door"},
        HALL_MOTION: {"device_class": "motion", "friendly_name": "Hall motion"},
        FRONT_LOCK: {"friendly_name": "Front door lock"},
    }
    for entity_id, state in ((DOOR, "off"), (HALL_MOTION, "off"), (FRONT_LOCK, "locked")):
        hass.states.async_set(entity_id, state, attrs[entity_id])
    hass.states.async_set(ALICE, "not_home", {"friendly_name": "Alice"})
    pushes = async_mock_service(hass, "notify", "phone")
    await setup_monitor(
        hass,
        include_entities=[SMOKE, FRONT_LOCK, DOOR, HALL_MOTION, ALICE],
        **{CONF_NOTIFY: ["notify.phone"]},
    )
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    await _seconds(hass, freezer, 600)
    await _neighbour_lets_the_dog_out(hass, freezer, attrs)
    # Unlocked and opened seconds apart, judged together: one entrance, both said.
    assert [c.data["title"] for c in pushes] == [
        "Front door unlocked and open while nobody is home"
    ]
    assert [e.data["escalation"] for e in detected] == [None]


async def test_the_neighbour_beside_an_appliance_left_on_is_told_once(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """The washer runs while nobody is home (told); then the neighbour lets the dog out.
    Her motion is the entry's (one entry, one notification), not a graver sign joining
    the washer's incident: main pushed a third time, 20 s after the unlock, as "Motion in
    Hall while nobody is home" at high severity, the washer's incident escalated."""
    freezer.move_to(MORNING)
    washer = "sensor.washer_power"
    put_in_area(hass, "Hall", DOOR, HALL_MOTION, FRONT_LOCK)
    put_in_area(hass, "Laundry", washer)
    set_calm_home(hass)
    attrs: dict[str, dict[str, Any]] = {
        DOOR: {"device_class": "door", "friendly_name": "Front door"},
        HALL_MOTION: {"device_class": "motion", "friendly_name": "Hall motion"},
        FRONT_LOCK: {"friendly_name": "Front door lock"},
        washer: {"device_class": "power", "unit_of_measurement": "W", "friendly_name": "Washer"},
    }
    for entity_id, state in ((DOOR, "off"), (HALL_MOTION, "off"), (FRONT_LOCK, "locked")):
        hass.states.async_set(entity_id, state, attrs[entity_id])
    hass.states.async_set(washer, "0.0", attrs[washer])
    hass.states.async_set(ALICE, "not_home", {"friendly_name": "Alice"})
    pushes = async_mock_service(hass, "notify", "phone")
    # Watched for ten days (past the cold start, which holds a washer back); Alice left
    # 20 min ago.
    areas = {DOOR: "Hall", HALL_MOTION: "Hall", FRONT_LOCK: "Hall", washer: "Laundry"}
    classes = {e: {"device_class": a.get("device_class", "")} for e, a in attrs.items()}
    learned = learned_home("US/Pacific", classes, areas, ALICE, MORNING - timedelta(days=10))
    observe_until(
        learned, [(MORNING - timedelta(minutes=20), ALICE, "not_home")], {ALICE: ""}, MORNING
    )
    learned.advance(MORNING)
    await setup_monitor_learned(
        hass,
        learned.as_dict(),
        include_entities=[SMOKE, FRONT_LOCK, DOOR, HALL_MOTION, ALICE, washer],
        **{CONF_NOTIFY: ["notify.phone"]},
    )
    await _seconds(hass, freezer, 600)
    hass.states.async_set(washer, "1900", attrs[washer])
    await _seconds(hass, freezer, 600)
    assert len(pushes) == 1  # the washer, told
    await _neighbour_lets_the_dog_out(hass, freezer, attrs)
    titles = [c.data["title"] for c in pushes]
    assert titles[1:] == ["Front door unlocked and open while nobody is home"], titles
