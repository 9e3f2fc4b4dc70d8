"""Checks that read the learned reference instead of the window's earlier days (core).

A room sensor creeping away from its learned hours (a CUSUM against the hour profile)
and a power meter drawing far above its learned range: fired on the shape, silent on a
normal day (the daily cycle), on a change the whole home shares (the weather), and
before enough is learned.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
import json

from custom_components.anomaly_monitor.core.baselines import BASELINE_CHECKS, HomeBaselines
from custom_components.anomaly_monitor.core.baselines.activity_rate import (
    sensor_firing_far_above_its_hour,
)
from custom_components.anomaly_monitor.core.baselines.power_learned_range import (
    power_above_its_learned_range,
)
from custom_components.anomaly_monitor.core.baselines.profile_departure import (
    reading_off_its_hours,
)
from custom_components.anomaly_monitor.core.baselines.profile_drift import (
    reading_drifting_from_its_hours,
)
from custom_components.anomaly_monitor.core.baselines.ranges import NumericRanges
from custom_components.anomaly_monitor.core.baselines.reference import usual_at, usual_range
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import (
    AnomalyType,
    EntityInfo,
    EntityState,
    Severity,
    Transition,
)

from .core_factories import environment, window

DAY0 = datetime(2026, 2, 2, tzinfo=UTC)
STUDY = "sensor.study_temperature"
BEDROOM = "sensor.bedroom_temperature"
LIVING = "sensor.living_temperature"
ROOMS = {STUDY: "Study", BEDROOM: "Bedroom", LIVING: "Living room"}
PLUG = "sensor.garage_plug_power"  # a freezer behind a plug whose name says nothing
INFOS = [
    *(
        EntityInfo(sensor, "", area=area, device_class="temperature", unit="°C")
        for sensor, area in ROOMS.items()
    ),
    EntityInfo(PLUG, "", area="Garage", device_class="power", unit="W"),
]


def usual(hour: int) -> float:
    """19 °C at night and by day, 22 °C from 17:00 to 22:00 (a daily cycle)."""
    return 22.0 if 17 <= hour < 22 else 19.0


def learned(days: int) -> HomeBaselines:
    """``days`` days of the room sensors reading their cycle every 30 minutes, with
    a little day-to-day scatter."""
    baselines = HomeBaselines(UTC)
    baselines.describe(INFOS)
    for step in range(days * 48):
        when = DAY0 + timedelta(minutes=30 * step)
        for sensor in ROOMS:
            scatter = ((step // 48) % 3 - 1) * 0.2 + (step % 2) * 0.1
            baselines.observe(when, sensor, f"{usual(when.hour) + scatter:.1f}")
    baselines.advance(DAY0 + timedelta(days=days))
    return baselines


def live(baselines: HomeBaselines, start: datetime, hours: float, readings: dict) -> None:
    """From ``start``, every 10 minutes, each room reads ``readings[sensor](minutes)`` or
    its usual."""
    for step in range(int(hours * 6) + 1):
        when = start + timedelta(minutes=10 * step)
        for sensor in ROOMS:
            value = readings[sensor](10 * step) if sensor in readings else usual(when.hour)
            baselines.observe(when, sensor, f"{value:.2f}")
    baselines.advance(start + timedelta(hours=hours))


def view(now: datetime, readings: dict[str, float], **env: float | None) -> HomeView:
    states = [
        EntityState(info, f"{readings.get(info.entity_id, usual(now.hour)):.2f}")
        for info in INFOS
        if info.device_class == "temperature"
    ]
    states.append(EntityState(EntityInfo("climate.living", "", area="Living room"), "heat"))
    return HomeView(window(states, replace(environment(now), **env)))  # type: ignore[arg-type]


def drift(minutes: int) -> float:
    """A radiator valve sticking from 09:00: a degree an hour, 19 -> 22.5 °C by 12:30."""
    return 19.0 + min(3.5, minutes / 60)


def test_a_sensor_creeping_away_from_its_hours_is_told_before_the_band_test() -> None:
    baselines = learned(10)
    day = DAY0 + timedelta(days=10)
    live(baselines, day, 9, {})
    live(baselines, day + timedelta(hours=9), 4.25, {STUDY: drift})
    now = day + timedelta(hours=13, minutes=15)
    home = view(now, {STUDY: drift(255)})
    # Hours 09-12 read ~19.4, 20.4, 21.4, 22.4 against 18.9-19.3: the CUSUM reaches its limit.
    findings = list(reading_drifting_from_its_hours(home, baselines))
    assert [f.rule for f in findings] == ["reading_drifting_from_its_hours"]
    finding = findings[0]
    assert finding.evidence == (STUDY,)
    assert finding.anomaly_type == AnomalyType.DEVICE_MALFUNCTION
    assert finding.severity is Severity.MEDIUM
    assert "reads 22.5 °C: since 10:00 its temperature has crept above" in finding.reasoning
    assert "10 other days learned" in finding.reasoning
    assert "no other temperature sensor moved that way" in finding.reasoning
    assert finding.magnitude is not None
    assert 3.0 < finding.magnitude < 3.5
    # The band test (4 hours each 2 °C beyond every day) does not tell it yet.
    assert list(reading_off_its_hours(home, baselines)) == []
    # Two hours in, not yet: one hour beyond is a warm hour, not a drift.
    early = learned(10)
    live(early, day, 9, {})
    live(early, day + timedelta(hours=9), 3.25, {STUDY: drift})
    assert list(reading_drifting_from_its_hours(view(now - ONE_H, {STUDY: 22.0}), early)) == []


ONE_H = timedelta(hours=1)


def test_a_departure_that_came_back_is_no_drift_when_the_reading_jumps_later() -> None:
    """The study crept up from 09:00 (a fault mended at 13:00) and read its usual since;
    at 16:50 it jumps to 22.5 °C. The morning's CUSUM is still high, but the drift is
    over: the last closed hour lies within its hours, so the jump is no drift (set 11: a
    flat 76 % humidity back after an incident, then the evening's usual step to 85 %)."""
    baselines = learned(10)
    day = DAY0 + timedelta(days=10)
    live(baselines, day, 9, {})
    live(baselines, day + timedelta(hours=9), 4, {STUDY: drift})
    live(baselines, day + timedelta(hours=13), 3.8, {})
    now = day + timedelta(hours=16, minutes=55)
    assert list(reading_drifting_from_its_hours(view(now, {STUDY: 22.5}), baselines)) == []
    # While the departure goes on it is told, and the words quote the hours that drove it.
    going = learned(10)
    live(going, day, 9, {})
    live(going, day + timedelta(hours=9), 4.25, {STUDY: drift})
    (told,) = reading_drifting_from_its_hours(
        view(day + timedelta(hours=13, minutes=15), {STUDY: 22.5}), going
    )
    assert "(the last hour, 12:00–13:00 averaged 22.3 °C, where those days read 18.9–19.2 °C)" in (
        told.reasoning
    )


def test_a_normal_day_with_its_daily_cycle_is_not_told() -> None:
    baselines = learned(10)
    day = DAY0 + timedelta(days=10)
    for hours in range(1, 24):
        live(baselines, day + (hours - 1) * ONE_H, 1, {})
        now = day + hours * ONE_H + timedelta(minutes=5)
        assert list(reading_drifting_from_its_hours(view(now, {}), baselines)) == []


def test_weather_moving_every_room_at_once_is_not_told() -> None:
    """A warm spell: every room climbs 3.5 °C over the afternoon, as the study alone did."""
    baselines = learned(10)
    day = DAY0 + timedelta(days=10)
    live(baselines, day, 9, {})
    live(baselines, day + timedelta(hours=9), 4.25, dict.fromkeys(ROOMS, drift))
    now = day + timedelta(hours=13, minutes=15)
    readings = dict.fromkeys(ROOMS, drift(255))
    assert list(reading_drifting_from_its_hours(view(now, readings), baselines)) == []
    # With only the study and the heated living room moving, the living room is a peer too.
    alone = learned(10)
    live(alone, day, 9, {})
    live(alone, day + timedelta(hours=9), 4.25, {STUDY: drift, LIVING: drift})
    both = {STUDY: drift(255), LIVING: drift(255)}
    assert list(reading_drifting_from_its_hours(view(now, both), alone)) == []


def test_what_explains_a_drift_is_not_told() -> None:
    baselines = learned(10)
    day = DAY0 + timedelta(days=10)
    live(baselines, day, 9, {})
    live(baselines, day + timedelta(hours=9), 4.25, {STUDY: drift, LIVING: drift})
    now = day + timedelta(hours=13, minutes=15)
    # The heated living room alone drifting: its thermostat's schedule, not judged here.
    heated = learned(10)
    live(heated, day, 9, {})
    live(heated, day + timedelta(hours=9), 4.25, {LIVING: drift})
    assert list(reading_drifting_from_its_hours(view(now, {LIVING: 22.5}), heated)) == []
    # Close to the outdoor temperature: a sensor that follows the weather.
    study = learned(10)
    live(study, day, 9, {})
    live(study, day + timedelta(hours=9), 4.25, {STUDY: drift})
    warm = view(now, {STUDY: 22.5}, outdoor_temperature=21.0)
    assert list(reading_drifting_from_its_hours(warm, study)) == []
    # Back within its hours now: no longer told.
    assert list(reading_drifting_from_its_hours(view(now, {STUDY: 19.0}), study)) == []
    # Too few days learned.
    young = learned(5)
    later = DAY0 + timedelta(days=5)
    live(young, later, 9, {})
    live(young, later + timedelta(hours=9), 4.25, {STUDY: drift})
    home = view(later + timedelta(hours=13, minutes=15), {STUDY: 22.5})
    assert list(reading_drifting_from_its_hours(home, young)) == []


def test_an_hour_of_airing_is_not_a_drift() -> None:
    """The window open half an hour: 3 °C down and back within the hour."""
    baselines = learned(10)
    day = DAY0 + timedelta(days=10)
    live(baselines, day, 11, {})

    def aired(minutes: int) -> float:
        return 16.0 if minutes < 30 else 18.0 if minutes < 60 else 19.0

    live(baselines, day + timedelta(hours=11), 4, {STUDY: aired})
    for minutes in range(15, 240, 15):
        now = day + timedelta(hours=11, minutes=minutes)
        home = view(now, {STUDY: aired(minutes)})
        assert list(reading_drifting_from_its_hours(home, baselines)) == []


def test_the_reference_of_an_hour() -> None:
    baselines = learned(10)
    own, hour = usual_at(baselines, STUDY, DAY0 + timedelta(days=9, hours=18), 7)
    assert own is not None
    assert hour is not None
    assert hour.days == 9
    assert 21.8 <= hour.lowest <= hour.centre <= hour.highest <= 22.4
    assert 0 < hour.spread < 0.5
    assert usual_at(baselines, STUDY, DAY0 + timedelta(days=9, hours=18), 10)[1] is None


# --- power -------------------------------------------------------------------------------


def freezer_days(days: int) -> HomeBaselines:
    """A freezer plug running 20 min (85 W) and resting 40 (1.5 W), day and night."""
    baselines = HomeBaselines(UTC)
    baselines.describe(INFOS)
    moment = DAY0
    while moment < DAY0 + timedelta(days=days):
        baselines.observe(moment, PLUG, f"{85 + (moment.hour % 3):.1f}")
        baselines.observe(moment + timedelta(minutes=20), PLUG, "1.5")
        moment += ONE_H
    baselines.advance(moment)
    return baselines


def meter_view(now: datetime, changes: list[tuple[datetime, str]]) -> HomeView:
    info = next(i for i in INFOS if i.entity_id == PLUG)
    transitions = [Transition(when, PLUG, state, "Garage") for when, state in changes]
    state = EntityState(info, changes[-1][1], last_changed=changes[-1][0])
    return HomeView(window([state], environment(now), transitions))


def test_a_meter_far_above_its_learned_range_for_an_hour_is_told() -> None:
    """Its defrost heater stuck on: 190 W from 10:00 (never above 87 W in 4 days)."""
    baselines = freezer_days(4)
    start = DAY0 + timedelta(days=4, hours=10)
    changes = [(start - timedelta(minutes=40), "1.5"), (start, "190.0")]
    baselines.observe(start - timedelta(minutes=40), PLUG, "1.5")
    baselines.observe(start, PLUG, "190.0")  # learned live before the analysis
    baselines.advance(start + timedelta(minutes=50))
    assert (
        list(power_above_its_learned_range(meter_view(start + 25 * MIN, changes), baselines)) == []
    )
    findings = list(power_above_its_learned_range(meter_view(start + 50 * MIN, changes), baselines))
    assert [f.rule for f in findings] == ["power_above_its_learned_range"]
    finding = findings[0]
    assert finding.evidence == (PLUG,)
    assert finding.anomaly_type == AnomalyType.ENERGY
    assert "has drawn 190 W for 50 min, since 10:00: 2.2× the most it drew" in finding.reasoning
    assert "in the 4 days learned (87 W" in finding.reasoning
    assert finding.magnitude == 103.0
    # Six hours on, still drawing: its own excursion has not taught it (it is not over).
    later = start + timedelta(hours=6, minutes=5)
    baselines.advance(later)
    assert len(list(power_above_its_learned_range(meter_view(later, changes), baselines))) == 1
    # A day on, the new highest has settled: the range now includes it.
    later = start + timedelta(hours=24, minutes=5)
    baselines.advance(later)
    assert list(power_above_its_learned_range(meter_view(later, changes), baselines)) == []


MIN = timedelta(minutes=1)


def test_a_meter_not_learned_enough_or_never_running_is_not_judged() -> None:
    start = DAY0 + timedelta(days=2, hours=10)
    changes = [(start, "190.0")]
    young = freezer_days(2)  # two days only
    assert list(power_above_its_learned_range(meter_view(start + 60 * MIN, changes), young)) == []
    standby = HomeBaselines(UTC)
    standby.describe(INFOS)
    for minute in range(0, 5 * 24 * 60, 20):  # five days of standby only
        standby.observe(DAY0 + minute * MIN, PLUG, f"{1.0 + (minute % 40) / 40:.1f}")
    at = DAY0 + timedelta(days=5, hours=10)
    standby.observe(at, PLUG, "2100.0")  # its first wash: not news
    assert (
        list(power_above_its_learned_range(meter_view(at + 60 * MIN, [(at, "2100.0")]), standby))
        == []
    )


def test_ranges_settle_and_survive_storage() -> None:
    ranges = NumericRanges()
    ranges.reading(PLUG, 80.0, DAY0)
    ranges.reading(PLUG, 90.0, DAY0 + ONE_H)
    assert ranges.usual(PLUG, DAY0 + 2 * ONE_H) == (2, 85.0, 5.0, 80.0, 80.0)
    # Still beyond (no reading came back): not learned 6 h on, learned a day on at most.
    assert ranges.usual(PLUG, DAY0 + 7 * ONE_H) == (2, 85.0, 5.0, 80.0, 80.0)
    assert ranges.usual(PLUG, DAY0 + 25 * ONE_H) == (2, 85.0, 5.0, 80.0, 90.0)
    assert ranges.usual(PLUG) == (2, 85.0, 5.0, 80.0, 90.0)  # everything learned
    ranges.reading(PLUG, 78.0, DAY0 + 2 * ONE_H)  # back within: it settles 6 h from now
    assert ranges.usual(PLUG, DAY0 + 7 * ONE_H)[4] == 80.0
    assert ranges.usual(PLUG, DAY0 + 8 * ONE_H)[4] == 90.0
    ranges.reading(PLUG, 85.0, DAY0 + 8 * ONE_H)  # a later reading folds the settled one
    assert ranges.stats[PLUG][4] == 90.0
    assert ranges.since(PLUG) == DAY0
    again = NumericRanges.from_dict(json.loads(json.dumps(ranges.as_dict())))
    assert again.as_dict() == ranges.as_dict()
    # Stored before the first-seen time was kept (five numbers): still read.
    old = NumericRanges.from_dict({PLUG: [3, 85.0, 1.0, 80.0, 90.0]})
    assert old.usual(PLUG, DAY0) == (3, 85.0, 1.0, 80.0, 90.0)
    assert old.since(PLUG) is None
    baselines = HomeBaselines(UTC)
    baselines.first_seen = DAY0
    baselines.ranges = old
    found = usual_range(baselines, PLUG, DAY0 + timedelta(days=2))
    assert found is not None
    assert found.days == 2.0
    hostile = {PLUG: [3, 85.0, 1.0, 80.0, 90.0, -1.0, 0.0, 0.0], "sensor.x": [1] * 7}
    assert NumericRanges.from_dict(hostile).stats == {}


def test_both_checks_are_registered() -> None:
    names = [check.__name__ for check in BASELINE_CHECKS]
    assert "reading_drifting_from_its_hours" in names
    assert "power_above_its_learned_range" in names
    assert "sensor_firing_far_above_its_hour" in names


# --- a sensor firing far above its area's hour ----------------------------------------------

HALL = "binary_sensor.hall_motion"
KITCHEN = "binary_sensor.kitchen_motion"
MOTIONS = [
    EntityInfo(HALL, "", area="Hallway", device_class="motion"),
    EntityInfo(KITCHEN, "", area="Kitchen", device_class="motion"),
]


def active_days(days: int, per_hour: int = 2, evening: int = 2) -> HomeBaselines:
    """``days`` days of both sensors firing ``per_hour`` an hour from 07:00 to 23:00
    (``evening`` an hour from 18:00), never at night."""
    baselines = HomeBaselines(UTC)
    baselines.describe(MOTIONS)
    for day in range(days):
        for hour in range(7, 23):
            rate = evening if hour >= 18 else per_hour
            for i in range(rate):
                for sensor in (HALL, KITCHEN):
                    at = DAY0 + timedelta(days=day, hours=hour, minutes=i * 60 // rate + 1)
                    baselines.observe(at, sensor, "on")
                    baselines.observe(at + MIN, sensor, "off")
    baselines.advance(DAY0 + timedelta(days=days))
    return baselines


def firing(
    baselines: HomeBaselines, start: datetime, onsets: dict[str, int], persons_home: int = 1
) -> HomeView:
    """In the hour from ``start``, each sensor goes on ``onsets[sensor]`` times (learned
    live too, as the keeper does before an analysis); the view at the hour's end."""
    transitions: list[Transition] = []
    for sensor, count in onsets.items():
        area = next(i.area for i in MOTIONS if i.entity_id == sensor)
        transitions.append(Transition(start - MIN, sensor, "off", area))
        for i in range(count):
            at = start + timedelta(seconds=i * 3500 // count + 5)
            transitions += [
                Transition(at, sensor, "on", area),
                Transition(at + timedelta(seconds=20), sensor, "off", area),
            ]
    transitions.sort(key=lambda t: t.when)
    for t in transitions:
        baselines.observe(t.when, t.entity_id, t.state, t.area)
    now = start + ONE_H
    states = [EntityState(info, "off") for info in MOTIONS]
    env = environment(now, persons_home=persons_home)
    return HomeView(window(states, env, transitions))


def test_a_sensor_firing_all_night_alone_is_told() -> None:
    """The hallway sensor fires 40 times between 03:00 and 04:00, an hour never active
    (15 days of routine: the first day's small hours came before the first event)."""
    baselines = active_days(15)
    home = firing(baselines, DAY0 + timedelta(days=15, hours=3), {HALL: 40})
    findings = list(sensor_firing_far_above_its_hour(home, baselines))
    assert [f.rule for f in findings] == ["sensor_firing_far_above_its_hour"]
    finding = findings[0]
    assert finding.evidence == (HALL,)
    assert finding.anomaly_type == AnomalyType.DEVICE_MALFUNCTION
    assert finding.severity is Severity.MEDIUM
    assert "went on 40 times in the last hour" in finding.reasoning
    assert "Hallway usually has about 0.0 an hour (learned over 14 days)" in finding.reasoning
    assert finding.magnitude == 40.0


def test_a_busy_home_or_an_hour_that_is_usually_busy_is_not_told() -> None:
    start = DAY0 + timedelta(days=15, hours=19)
    # People about: the kitchen is busy too (40 of 55 onsets is under 80 %).
    busy = active_days(15)
    home = firing(busy, start - timedelta(hours=16), {HALL: 40, KITCHEN: 15})
    assert list(sensor_firing_far_above_its_hour(home, busy)) == []
    # An evening when the hallway fires 6 times an hour: 40 is under ten times that.
    lively = active_days(15, evening=6)
    assert list(sensor_firing_far_above_its_hour(firing(lively, start, {HALL: 40}), lively)) == []
    # 25 onsets: too few to be worth a look.
    calm = active_days(15)
    night = DAY0 + timedelta(days=15, hours=3)
    assert list(sensor_firing_far_above_its_hour(firing(calm, night, {HALL: 25}), calm)) == []
    # One week learned only, or nobody home (activity_while_away's).
    young = active_days(7)
    early = DAY0 + timedelta(days=7, hours=3)
    assert list(sensor_firing_far_above_its_hour(firing(young, early, {HALL: 40}), young)) == []
    away = active_days(15)
    empty = firing(away, night, {HALL: 40}, persons_home=0)
    assert list(sensor_firing_far_above_its_hour(empty, away)) == []


def test_hours_that_always_read_the_same_are_quoted_as_one_figure() -> None:
    """Walk 38: a fridge thermometer flat at 5 °C on every day learned read "where those
    days read 5.0–5.0 °C"."""
    from custom_components.anomaly_monitor.core.baselines.profile_drift import (
        _Drift,
        _hours_text,
    )
    from custom_components.anomaly_monitor.core.baselines.reference import UsualHour

    start = DAY0 + timedelta(days=10, hours=11)
    flat = (start, UsualHour(5.0, 0.0, 5.0, 5.0, 13), 12.0)
    text = _hours_text(_Drift(1, start, flat, flat), " °C", UTC)
    assert text == "the last hour, 11:00–12:00 averaged 12.0 °C, where those days read 5.0 °C"
    spread = (start, UsualHour(5.0, 0.4, 4.6, 5.4, 13), 12.0)
    assert "read 4.6–5.4 °C" in _hours_text(_Drift(1, start, spread, spread), " °C", UTC)
