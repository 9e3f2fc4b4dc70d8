"""The learned baselines (core, no Home Assistant): learning, judging, storing, hostile input."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
import json

from custom_components.anomaly_monitor.core.baselines import HomeBaselines, baseline_findings
from custom_components.anomaly_monitor.core.baselines.activity import MAX_AREAS
from custom_components.anomaly_monitor.core.baselines.detectors import (
    DEFAULT_QUIET_LIMIT,
    movement_unusual_for_the_hour,
    no_movement_while_home,
)
from custom_components.anomaly_monitor.core.baselines.durations import (
    MAX_ENTITIES as MAX_DURATION_ENTITIES,
)
from custom_components.anomaly_monitor.core.baselines.quiet_spells import DAYS_KEPT
from custom_components.anomaly_monitor.core.feedback import FalseAlarms
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import (
    HOME_SUBJECT,
    AnomalyType,
    EntityInfo,
    Severity,
)

from .core_factories import entity, environment, steps, window

KITCHEN = "binary_sensor.kitchen_motion"
LIVING = "binary_sensor.living_motion"
ROSE = "person.rose"
TEMPERATURE = "sensor.living_temperature"
DAY0 = datetime(2026, 2, 2, tzinfo=UTC)  # a Monday
INFOS = [
    EntityInfo(KITCHEN, "", area="Kitchen", device_class="motion"),
    EntityInfo(LIVING, "", area="Living room", device_class="motion"),
    EntityInfo("binary_sensor.front_door", "", area="Hallway", device_class="door"),
    EntityInfo("sensor.living_temperature", "", area="Living room", device_class="temperature"),
]


def routine(days: int, *, every: int = 20) -> HomeBaselines:
    """``days`` days of someone home, up 07:00-21:00, moving every ``every`` minutes."""
    baselines = HomeBaselines(UTC)
    baselines.describe(INFOS)
    baselines.observe(DAY0, ROSE, "home")
    for day in range(days):
        morning = DAY0 + timedelta(days=day, hours=7)
        for minute in range(0, 14 * 60, every):
            sensor = KITCHEN if minute % 40 else LIVING
            baselines.observe(morning + timedelta(minutes=minute), sensor, "on")
            baselines.observe(morning + timedelta(minutes=minute + 1), sensor, "off")
            baselines.observe(
                morning + timedelta(minutes=minute),
                "sensor.living_temperature",
                f"{20 + minute % 3}",
            )
    baselines.advance(DAY0 + timedelta(days=days))
    return baselines


def view(now: datetime, *, motion: str = "off", persons_home: int = 1) -> HomeView:
    states = [
        entity(KITCHEN, motion, area="Kitchen", device_class="motion"),
        entity(LIVING, "off", area="Living room", device_class="motion"),
        entity(ROSE, "home" if persons_home else "not_home"),
    ]
    return HomeView(window(states, environment(now, persons_home=persons_home)))


def still_since(baselines: HomeBaselines, since: datetime) -> None:
    """The last movement of the day being judged, at ``since``."""
    baselines.observe(since - timedelta(minutes=1), KITCHEN, "on")
    baselines.observe(since, KITCHEN, "off")


def test_a_learned_day_tells_stillness_the_routine_never_has() -> None:
    """Moving every 20 min all day: 3.5 h without movement at noon is told; 1.5 h is not."""
    baselines = routine(7)
    day = DAY0 + timedelta(days=7)
    still_since(baselines, day + timedelta(hours=8))
    assert baselines.quiet.learned_hours() == 24
    assert list(no_movement_while_home(view(day + timedelta(hours=9, minutes=30)), baselines)) == []
    findings = list(no_movement_while_home(view(day + timedelta(hours=11, minutes=30)), baselines))
    assert len(findings) == 1
    finding = findings[0]
    assert finding.rule == "no_movement_while_home"
    assert finding.subject == HOME_SUBJECT
    assert finding.evidence == (KITCHEN, LIVING)
    assert finding.anomaly_type == AnomalyType.SAFETY_HAZARD
    assert finding.severity is Severity.HIGH
    assert "3 h 30 min" in finding.reasoning
    assert "Kitchen" in finding.reasoning
    assert "motion" not in finding.evidence[0].partition(".")[0]  # ids are evidence, not words
    assert finding.magnitude is not None
    assert finding.magnitude > 0


def test_the_night_is_learned_as_normal_stillness() -> None:
    """Ten hours asleep every night: at 06:30 after a night's sleep nothing is told."""
    baselines = routine(7)
    day = DAY0 + timedelta(days=7)
    still_since(baselines, day - timedelta(hours=3))  # 21:00 the evening before
    assert list(no_movement_while_home(view(day + timedelta(hours=6, minutes=30)), baselines)) == []


def test_the_spell_being_judged_does_not_teach_itself() -> None:
    """The current spell writes its own hours; they are judged on the other days."""
    baselines = routine(5)
    day = DAY0 + timedelta(days=5)
    still_since(baselines, day + timedelta(hours=8))
    now = day + timedelta(hours=12)
    baselines.advance(now)  # the hourly tick accounts the spell so far
    assert list(no_movement_while_home(view(now), baselines))


def test_before_a_baseline_only_a_long_stillness_is_told() -> None:
    """No history: the conservative default (12 h), never the learned limit."""
    baselines = HomeBaselines(UTC)
    baselines.describe(INFOS)
    baselines.observe(DAY0, ROSE, "home")
    still_since(baselines, DAY0 + timedelta(hours=8))
    under = DAY0 + timedelta(hours=8) + DEFAULT_QUIET_LIMIT - timedelta(minutes=5)
    assert list(no_movement_while_home(view(under), baselines)) == []
    over = DAY0 + timedelta(hours=8) + DEFAULT_QUIET_LIMIT + timedelta(minutes=5)
    findings = list(no_movement_while_home(view(over), baselines))
    assert findings
    assert "no learned routine" in findings[0].reasoning


def test_nobody_home_or_motion_on_is_not_stillness() -> None:
    baselines = routine(7)
    day = DAY0 + timedelta(days=7)
    still_since(baselines, day + timedelta(hours=8))
    late = day + timedelta(hours=13)
    assert list(no_movement_while_home(view(late, persons_home=0), baselines)) == []
    assert list(no_movement_while_home(view(late, motion="on"), baselines)) == []


def test_an_arrival_starts_the_spell() -> None:
    """Home again after a day out: the stillness counts from the arrival, not from leaving."""
    baselines = routine(7)
    day = DAY0 + timedelta(days=7)
    still_since(baselines, day + timedelta(hours=8))
    baselines.observe(day + timedelta(hours=8, minutes=5), ROSE, "not_home")
    baselines.observe(day + timedelta(hours=14), ROSE, "home")
    assert list(no_movement_while_home(view(day + timedelta(hours=15)), baselines)) == []
    # Unknown (a phone restarting) is not away: it neither ends nor restarts the spell.
    baselines.observe(day + timedelta(hours=15), ROSE, "unknown")
    baselines.observe(day + timedelta(hours=15, minutes=10), ROSE, "home")
    assert list(no_movement_while_home(view(day + timedelta(hours=17, minutes=30)), baselines))


def test_nothing_is_learned_while_the_home_is_empty() -> None:
    baselines = HomeBaselines(UTC)
    baselines.describe(INFOS)
    baselines.observe(DAY0, ROSE, "not_home")
    baselines.observe(DAY0 + timedelta(hours=1), KITCHEN, "on")
    baselines.observe(DAY0 + timedelta(hours=1, minutes=1), KITCHEN, "off")
    baselines.advance(DAY0 + timedelta(days=3))
    assert baselines.quiet.days_seen() == 0


def test_suppression_and_sensitivity_go_through_the_usual_checks() -> None:
    baselines = routine(7)
    day = DAY0 + timedelta(days=7)
    still_since(baselines, day + timedelta(hours=8))
    home = view(day + timedelta(hours=12))
    assert baseline_findings(home, baselines, Severity.MEDIUM, FalseAlarms())
    assert baseline_findings(home, baselines, Severity.CRITICAL, FalseAlarms()) == []


def test_movement_unusual_for_the_hour_is_low_and_needs_two_weeks() -> None:
    """Motion at 03:00 where there never was any: told at low severity, after 14 days."""
    at_night = DAY0 + timedelta(days=7, hours=3)
    states = [
        entity(KITCHEN, "on", area="Kitchen", device_class="motion"),
        entity(ROSE, "home"),
    ]
    moves = steps(at_night - timedelta(minutes=5), [(0, KITCHEN, "off"), (4, KITCHEN, "on")])
    home = HomeView(window(states, environment(at_night, persons_home=1), moves))
    assert list(movement_unusual_for_the_hour(home, routine(7))) == []  # too little history
    learned = routine(15)
    at_night += timedelta(days=8)
    moves = steps(at_night - timedelta(minutes=5), [(0, KITCHEN, "off"), (4, KITCHEN, "on")])
    home = HomeView(window(states, environment(at_night, persons_home=1), moves))
    findings = list(movement_unusual_for_the_hour(home, learned))
    assert [f.severity for f in findings] == [Severity.LOW]
    assert findings[0].evidence == (KITCHEN,)
    assert baseline_findings(home, learned, Severity.MEDIUM, FalseAlarms()) == []
    # At an hour the kitchen is always busy: nothing unusual.
    at_noon = at_night + timedelta(hours=9)
    moves = steps(at_noon - timedelta(minutes=5), [(0, KITCHEN, "off"), (4, KITCHEN, "on")])
    home = HomeView(window(states, environment(at_noon, persons_home=1), moves))
    assert list(movement_unusual_for_the_hour(home, learned)) == []


def test_durations_and_ranges_are_learned() -> None:
    baselines = routine(3)
    durations = baselines.durations.usual(KITCHEN, "on", DAY0 + timedelta(hours=9))
    assert durations is not None
    count, mean, longest = durations
    assert count > 10
    assert mean == 1.0
    assert longest == 1.0
    ranges = baselines.ranges.usual(TEMPERATURE)
    assert ranges is not None
    _, mean, spread, low, high = ranges
    assert low == 20
    assert high == 22
    assert 20 < mean < 22
    assert 0 < spread < 1.5


def test_round_trip_through_json() -> None:
    baselines = routine(7)
    stored = json.loads(json.dumps(baselines.as_dict()))
    again = HomeBaselines.from_dict(stored, UTC)
    assert again.as_dict() == baselines.as_dict()
    again.describe(INFOS)  # what each entity is comes from HA, not from storage
    day = DAY0 + timedelta(days=7)
    still_since(again, day + timedelta(hours=8))
    assert list(no_movement_while_home(view(day + timedelta(hours=12)), again))


def test_hostile_or_old_stored_data_gives_a_usable_baseline() -> None:
    """Garbage, wrong types, NaN, huge lists: dropped, never raised, never unbounded."""
    for junk in (None, [], "x", {"version": 99}, {"version": 1, "quiet": "x", "activity": 3}):
        assert HomeBaselines.from_dict(junk, UTC).events == 0
    hostile = {
        "version": 1,
        "events": -5,
        "first_seen": "not a time",
        "quiet": {
            "maxima": [[[1, float("nan")], ["x", 3], [738000, 1e12], [738000, 30]]] * 30,
            "quiet_since": "2026-02-02T08:00:00",  # naive: refused
            "presence": {f"person.p{i}": True for i in range(1000)} | {"person.x": "home"},
        },
        "activity": {
            "counts": {f"area {i}": [1] * 168 for i in range(500)} | {"bad": [1] * 5},
            "observed": [float("inf")] * 168,
        },
        "durations": {"stays": {f"light.l{i}": {"on": [[1, 2, 3]] * 4} for i in range(5000)}},
        "ranges": {"sensor.a": [1, 5, 0, 9, 1], "sensor.b": [2, 1, 0.1, 0, 2]},
    }
    baselines = HomeBaselines.from_dict(hostile, UTC)
    assert baselines.events == 0
    assert baselines.first_seen is None
    assert all(len(values) <= DAYS_KEPT for values in baselines.quiet.maxima)
    assert list(baselines.quiet.maxima[0]) == [(738000, 30.0)]
    assert len(baselines.quiet.maxima) == 24
    assert baselines.quiet.quiet_since is None
    assert "person.x" not in baselines.quiet.presence
    assert len(baselines.quiet.presence) <= 64
    assert len(baselines.activity.counts) <= MAX_AREAS
    assert "bad" not in baselines.activity.counts
    assert baselines.activity.observed == [0.0] * 168
    assert len(baselines.durations.stays) <= MAX_DURATION_ENTITIES
    assert list(baselines.ranges.stats) == ["sensor.b"]  # mean outside its own range: dropped
    json.dumps(baselines.as_dict())


def test_a_flood_of_entities_stays_bounded() -> None:
    baselines = HomeBaselines(UTC)
    for i in range(3000):
        baselines.observe(DAY0 + timedelta(seconds=i), f"light.l{i}", "on")
        baselines.observe(DAY0 + timedelta(seconds=i, milliseconds=1), f"sensor.s{i}", "1.5")
        baselines.observe(DAY0 + timedelta(seconds=i), f"person.p{i}", "home")
    size = len(json.dumps(baselines.as_dict()))
    assert size < 200_000
    assert len(baselines.ranges.stats) <= 400
    assert len(baselines.durations.current) <= 400


def test_local_slots_follow_the_home_clock() -> None:
    """Hours are the home's own (DST, half-hour zones), whatever the UTC time says."""
    from zoneinfo import ZoneInfo

    from custom_components.anomaly_monitor.core.baselines.clock import slot_of

    for zone in ("Europe/Brussels", "Asia/Kolkata", "America/St_Johns", "UTC"):
        tz = ZoneInfo(zone)
        moment = datetime(2026, 3, 29, 0, 0, tzinfo=UTC)  # a DST change in Europe
        for _ in range(24 * 8):
            here = moment.astimezone(tz)
            assert slot_of(moment, tz) == (
                here.weekday() * 24 + here.hour,
                here.hour,
                here.toordinal(),
            )
            moment += timedelta(minutes=7)
