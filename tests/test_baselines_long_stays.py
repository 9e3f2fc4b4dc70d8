"""Learned durations and cycles (core, no Home Assistant): far longer than ever, stopped cycling."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
import json

from custom_components.anomaly_monitor.core.baselines import HomeBaselines, baseline_findings
from custom_components.anomaly_monitor.core.baselines.cycles import cycle_stopped
from custom_components.anomaly_monitor.core.baselines.long_stays import (
    at_most,
    learned_from,
    state_longer_than_usual,
)
from custom_components.anomaly_monitor.core.baselines.power import IDLE, RUNNING, power_state
from custom_components.anomaly_monitor.core.feedback import FalseAlarms
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.incidents import by_incident
from custom_components.anomaly_monitor.core.models import (
    AnomalyType,
    EntityInfo,
    EntityState,
    Severity,
)

from .core_factories import entity, environment, window

DAY0 = datetime(2026, 2, 2, tzinfo=UTC)
PLUG = "switch.plug_3"
GARAGE = "binary_sensor.garage_door"
LAMP = "light.desk"
METER = "sensor.garage_plug_power"  # a freezer, by a name that says nothing
WASHER = "sensor.plug_7_power"
INFOS = [
    EntityInfo(PLUG, "", area="Study"),
    EntityInfo(GARAGE, "", area="Garage", device_class="garage_door"),
    EntityInfo(LAMP, "", area="Study"),
    EntityInfo(METER, "", area="Garage", device_class="power", unit="W"),
    EntityInfo(WASHER, "", area="Utility", device_class="power", unit="W"),
]


def habits(days: int) -> HomeBaselines:
    """``days`` days: the plug and the lamp on from 07:30, until 08:30 on even days and
    08:00 on odd ones (by hand: no timer), the garage door open 10 min at 18:00, the
    freezer running 20 min and resting 40 around the clock, the washer once."""
    baselines = HomeBaselines(UTC)
    baselines.describe(INFOS)
    for day in range(days):
        start = DAY0 + timedelta(days=day)
        for entity_id in (PLUG, LAMP):
            baselines.observe(start + timedelta(hours=7, minutes=30), entity_id, "on")
            baselines.observe(
                start + timedelta(hours=8, minutes=30 * (1 - day % 2)), entity_id, "off"
            )
        baselines.observe(start + timedelta(hours=18), GARAGE, "on")
        baselines.observe(start + timedelta(hours=18, minutes=10), GARAGE, "off")
        for hour in range(24):
            baselines.observe(start + timedelta(hours=hour), METER, "85.0")
            baselines.observe(start + timedelta(hours=hour, minutes=20), METER, "1.5")
        baselines.observe(start + timedelta(hours=10), WASHER, "2000")
        baselines.observe(start + timedelta(hours=11, minutes=30), WASHER, "0.8")
    return baselines


def since(state: EntityState, when: datetime) -> EntityState:
    return replace(state, last_changed=when)


def view(now: datetime, *states: EntityState) -> HomeView:
    return HomeView(window(states, environment(now)))


def test_a_switch_on_far_longer_than_ever_is_told_with_its_habit() -> None:
    """On an hour every morning; on since 08:00 today: at 10:30 not yet, at 11:30 told."""
    baselines = habits(10)
    day = DAY0 + timedelta(days=10)
    baselines.observe(day + timedelta(hours=8), PLUG, "on")
    plug = since(entity(PLUG, "on", area="Study"), day + timedelta(hours=8))
    assert (
        list(state_longer_than_usual(view(day + timedelta(hours=10, minutes=30), plug), baselines))
        == []
    )
    findings = list(
        state_longer_than_usual(view(day + timedelta(hours=11, minutes=30), plug), baselines)
    )
    assert len(findings) == 1
    finding = findings[0]
    assert finding.rule == "state_longer_than_usual"
    assert finding.evidence == (PLUG,)
    assert finding.severity is Severity.MEDIUM
    assert finding.anomaly_type == AnomalyType.BEHAVIOURAL
    assert "on for 3 h 30 min, since 08:00" in finding.reasoning
    assert "at most 1 h 00 min" in finding.reasoning
    assert "10 stays, in the morning" in finding.reasoning
    assert finding.magnitude == 210.0


def test_lights_motion_and_unlearned_entities_are_not_judged() -> None:
    baselines = habits(10)
    late = DAY0 + timedelta(days=10, hours=16)
    morning = DAY0 + timedelta(days=10, hours=7)
    states = [
        since(entity(LAMP, "on"), morning),  # learned, but a lamp left on is not told
        since(entity("binary_sensor.hall_motion", "on", device_class="motion"), morning),
        since(entity("switch.new_plug", "on"), morning),  # nothing learned about it
        since(entity(PLUG, "off"), morning),  # off is not an active state
    ]
    assert list(state_longer_than_usual(view(late, *states), baselines)) == []


def test_a_few_stays_are_pooled_and_too_few_say_nothing() -> None:
    """The garage door opens in the evening only: judged at night on every quarter pooled
    (10 stays), and not at all after 4 days (too few)."""
    door_at = DAY0 + timedelta(days=10, hours=2)
    door = since(entity(GARAGE, "on", device_class="garage_door"), door_at)
    findings = list(state_longer_than_usual(view(door_at + timedelta(hours=2), door), habits(10)))
    assert len(findings) == 1
    assert findings[0].anomaly_type == AnomalyType.SECURITY
    assert "open for 2 h 00 min" in findings[0].reasoning
    assert "at any time of day" in findings[0].reasoning
    assert "at most 10 min" in findings[0].reasoning
    assert list(state_longer_than_usual(view(door_at + timedelta(hours=2), door), habits(4))) == []


def test_the_floor_keeps_short_habits_from_alarming() -> None:
    """Open 10 minutes at a time: three times that is 30 min, but never less than an hour."""
    door_at = DAY0 + timedelta(days=10, hours=18)
    door = since(entity(GARAGE, "on", device_class="garage_door"), door_at)
    baselines = habits(10)
    assert (
        list(state_longer_than_usual(view(door_at + timedelta(minutes=55), door), baselines)) == []
    )
    assert list(state_longer_than_usual(view(door_at + timedelta(minutes=65), door), baselines))


def test_a_restart_does_not_shorten_the_stay() -> None:
    """HA restarted at 10:00 (last_changed anew); the baselines remember the stay began at 08:00."""
    baselines = habits(10)
    day = DAY0 + timedelta(days=10)
    baselines.observe(day + timedelta(hours=8), PLUG, "on")
    plug = since(entity(PLUG, "on"), day + timedelta(hours=10))
    findings = list(
        state_longer_than_usual(view(day + timedelta(hours=11, minutes=30), plug), baselines)
    )
    assert findings
    assert "since 08:00" in findings[0].reasoning


def test_an_outlier_teaches_slowly() -> None:
    """One day the plug stayed on 10 hours: the longest grows by half, not to 10 hours."""
    baselines = habits(10)
    day = DAY0 + timedelta(days=10)
    baselines.observe(day + timedelta(hours=7), PLUG, "on")
    baselines.observe(day + timedelta(hours=17), PLUG, "off")
    learned = baselines.durations.longest(PLUG, "on", day + timedelta(days=1, hours=7))
    assert learned is not None
    count, longest, pooled = learned
    assert (count, longest, pooled) == (11, 90.0, False)


def test_power_readings_become_running_and_idle_spells() -> None:
    assert power_state(85.0, "W") == RUNNING
    assert power_state(0.085, "kW") == RUNNING
    assert power_state(3.0, "W") == IDLE
    assert power_state(3000.0, "mW") == IDLE
    assert power_state(85.0, None) == RUNNING  # a power meter without a unit reads watts
    assert power_state(85.0, "BTU/h") is None  # not judged rather than misread
    spells = habits(3).durations.stays[METER]
    assert set(spells) == {RUNNING, IDLE}
    assert sum(bucket[0] for bucket in spells[IDLE]) == 71  # 24 rests a day, the first open


def test_a_cycling_appliance_that_stops_is_told() -> None:
    """Rests 40 min at most, day and night: idle since 10:20, told after 3 x 40 = 2 h."""
    baselines = habits(5)
    day = DAY0 + timedelta(days=5)
    for hour in range(11):
        baselines.observe(day + timedelta(hours=hour), METER, "85.0")
        baselines.observe(day + timedelta(hours=hour, minutes=20), METER, "1.5")
    baselines.observe(day + timedelta(hours=10, minutes=20), METER, "0.0")
    meter = since(
        entity(METER, "0.0", device_class="power", unit="W"), day + timedelta(hours=10, minutes=20)
    )
    assert list(cycle_stopped(view(day + timedelta(hours=12, minutes=10), meter), baselines)) == []
    findings = list(cycle_stopped(view(day + timedelta(hours=12, minutes=30), meter), baselines))
    assert len(findings) == 1
    finding = findings[0]
    assert finding.rule == "cycle_stopped"
    assert finding.evidence == (METER,)
    assert finding.severity is Severity.HIGH
    assert finding.anomaly_type == AnomalyType.DEVICE_MALFUNCTION
    assert "almost no power for 2 h 10 min" in finding.reasoning
    assert "within 40 min" in finding.reasoning
    assert "stopped cycling" in finding.reasoning


def test_a_cycling_appliance_that_never_stops_is_told_at_medium() -> None:
    baselines = habits(5)
    day = DAY0 + timedelta(days=5)
    baselines.observe(day + timedelta(hours=10), METER, "85.0")
    meter = since(entity(METER, "90.0", device_class="power", unit="W"), day + timedelta(hours=10))
    assert list(cycle_stopped(view(day + timedelta(minutes=595), meter), baselines)) == []
    findings = list(cycle_stopped(view(day + timedelta(hours=11, minutes=5), meter), baselines))
    assert [f.severity for f in findings] == [Severity.MEDIUM]
    assert "without a break for 1 h 05 min" in findings[0].reasoning


def test_an_appliance_that_rests_for_hours_is_not_a_cycle() -> None:
    """The washer runs once a day and rests 22 hours: idle all day is its normal."""
    baselines = habits(10)
    day = DAY0 + timedelta(days=10)
    washer = since(entity(WASHER, "0.8", device_class="power", unit="W"), day)
    assert list(cycle_stopped(view(day + timedelta(hours=20), washer), baselines)) == []
    # ...and two days of a freezer are too few to know its cycle (3 days needed).
    short = habits(2)
    meter = since(entity(METER, "0.0", device_class="power", unit="W"), DAY0 + timedelta(days=2))
    assert list(cycle_stopped(view(DAY0 + timedelta(days=2, hours=5), meter), short)) == []


def test_the_cycle_survives_storage_and_goes_through_the_usual_checks() -> None:
    baselines = habits(5)
    day = DAY0 + timedelta(days=5)
    baselines.observe(day + timedelta(hours=10), METER, "0.0")
    stored = HomeBaselines.from_dict(json.loads(json.dumps(baselines.as_dict())), UTC)
    assert stored.durations.stays[METER] == baselines.durations.stays[METER]
    meter = since(entity(METER, "0.0", device_class="power", unit="W"), day + timedelta(hours=12))
    home = view(day + timedelta(hours=13), meter)  # HA restarted at 12:00: still since 10:00
    assert [f.rule for f in baseline_findings(home, stored, Severity.MEDIUM, FalseAlarms())] == [
        "cycle_stopped"
    ]
    assert baseline_findings(home, stored, Severity.CRITICAL, FalseAlarms()) == []


def test_a_lock_unlocked_beside_its_open_door_is_the_doors_incident() -> None:
    """The front door stands open all evening and its lock, unlocked a minute a day, has
    been unlocked for hours: one entrance, one incident (the door's). The subject stays
    the door when it closes (the door shown no more): no new incident at each opening."""
    lock, door = "lock.deadbolt", "binary_sensor.front_contact"
    baselines = HomeBaselines(UTC)
    baselines.describe(
        [
            EntityInfo(lock, "", area="Hall"),
            EntityInfo(door, "", area="Hall", device_class="door"),
        ]
    )
    for day in range(10):
        start = DAY0 + timedelta(days=day, hours=18)
        baselines.observe(start, lock, "unlocked")
        baselines.observe(start + timedelta(minutes=1), lock, "locked")
    evening = DAY0 + timedelta(days=10, hours=21)
    unlocked = since(entity(lock, "unlocked", area="Hall"), evening)
    ajar = since(entity(door, "on", area="Hall", device_class="door"), evening)
    now = evening + timedelta(hours=1, minutes=10)
    (finding,) = state_longer_than_usual(view(now, unlocked, ajar), baselines)
    assert finding.evidence == (lock, door)
    assert finding.subject == door
    left_open = replace(finding, rule="entry_left_open", evidence=(door,), subject=door)
    assert len(by_incident([left_open, finding])) == 1

    shut = since(entity(door, "off", area="Hall", device_class="door"), evening)
    (later,) = state_longer_than_usual(view(now, unlocked, shut), baselines)
    assert later.evidence == (lock,)
    assert later.signature == finding.signature
    (alone,) = state_longer_than_usual(view(now, unlocked), baselines)  # no door there
    assert alone.subject == lock


def test_a_learned_limit_is_worded_one_way() -> None:
    """Every check that tells a learned limit words it through ``at_most``."""
    assert at_most(45, 14, "stays", ", in the evening") == (
        "at most 45 min (learned from 14 stays, in the evening)"
    )
    assert at_most(95, 5, "runs") == "at most 1 h 35 min (learned from 5 runs)"
    assert learned_from(3, "cycles", "; it started 06:10") == (
        "(learned from 3 cycles; it started 06:10)"
    )


def test_a_switch_with_few_stays_is_told_only_far_past_them() -> None:
    """A heater plug on at 06:00 and at 19:30 for four days, for 40 min or an hour (by
    hand): 8 stays, no quarter of the day with 5 and fewer than 10 pooled (on main:
    nothing judged, a heater left on all day never told). Six times its longest (6 h),
    not three, while so little is known: on since 06:00, at 11:30 not yet, at 12:30 told."""
    baselines = HomeBaselines(UTC)
    baselines.describe(INFOS)
    for day in range(4):
        start = DAY0 + timedelta(days=day)
        for hour in (6.0, 19.5):
            baselines.observe(start + timedelta(hours=hour), PLUG, "on")
            baselines.observe(start + timedelta(hours=hour, minutes=(40, 60)[day % 2]), PLUG, "off")
    today = DAY0 + timedelta(days=4, hours=6)
    baselines.observe(today, PLUG, "on")
    plug = since(entity(PLUG, "on", area="Study"), today)
    early = view(today + timedelta(hours=5, minutes=30), plug)
    assert list(state_longer_than_usual(early, baselines)) == []
    [finding] = state_longer_than_usual(
        view(today + timedelta(hours=6, minutes=30), plug), baselines
    )
    assert "on for 6 h 30 min" in finding.reasoning
    assert "at most 1 h 00 min (learned from 8 stays, at any time of day)" in finding.reasoning


def test_a_lock_with_few_stays_is_not_judged_by_them() -> None:
    """A deadbolt unlocked a few minutes at a time on 8 occasions (fewer than the
    quarters' rule needs): unlocked for an hour on a Halloween evening of callers is not
    a security alarm from so small a sample; a switch with the same stays would be."""
    lock = "lock.front_door_deadbolt"
    baselines = HomeBaselines(UTC)
    baselines.describe([EntityInfo(lock, "", area="Hall")])
    for day in range(4):
        start = DAY0 + timedelta(days=day)
        for hour in (7.5, 17.75):
            baselines.observe(start + timedelta(hours=hour), lock, "unlocked")
            baselines.observe(start + timedelta(hours=hour, minutes=3), lock, "locked")
    evening = DAY0 + timedelta(days=4, hours=17, minutes=46)
    unlocked = since(entity(lock, "unlocked", area="Hall"), evening)
    home = view(evening + timedelta(hours=3), unlocked)
    assert list(state_longer_than_usual(home, baselines)) == []
