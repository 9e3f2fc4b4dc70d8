"""Room sensors' hour-of-day profiles (core, no Home Assistant): learning, judging, storing."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
import json
import math

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.hour_profiles import (
    DAYS_KEPT,
    MAX_ENTITIES,
    HourProfiles,
)
from custom_components.anomaly_monitor.core.baselines.profile_departure import (
    reading_off_its_hours,
)
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import AnomalyType, EntityInfo, Severity

from .core_factories import entity, environment, window

DAY0 = datetime(2026, 2, 2, tzinfo=UTC)
STUDY = "sensor.study_temperature"
BEDROOM = "sensor.bedroom_temperature"
LIVING = "sensor.living_temperature"
INFOS = [
    EntityInfo(STUDY, "", area="Study", device_class="temperature", unit="°C"),
    EntityInfo(BEDROOM, "", area="Bedroom", device_class="temperature", unit="°C"),
    EntityInfo(LIVING, "", area="Living room", device_class="temperature", unit="°C"),
]


def usual(hour: int) -> float:
    """19 °C at night, 22 °C from 17:00 to 22:00 (a daily cycle)."""
    return 22.0 if 17 <= hour < 22 else 19.0


def learned(days: int) -> HomeBaselines:
    """``days`` days of the three sensors reading their cycle every 30 minutes."""
    baselines = HomeBaselines(UTC)
    baselines.describe(INFOS)
    for step in range(days * 48):
        when = DAY0 + timedelta(minutes=30 * step)
        for sensor in (STUDY, BEDROOM, LIVING):
            baselines.observe(when, sensor, f"{usual(when.hour) + (step % 3) * 0.1:.1f}")
    baselines.advance(DAY0 + timedelta(days=days))
    return baselines


def live(
    baselines: HomeBaselines, start: datetime, hours: float, readings: dict[str, float]
) -> None:
    """From ``start``, ``hours`` of the given sensors reading fixed values (others usual)."""
    for step in range(int(hours * 2) + 1):
        when = start + timedelta(minutes=30 * step)
        for sensor in (STUDY, BEDROOM, LIVING):
            baselines.observe(when, sensor, f"{readings.get(sensor, usual(when.hour)):.1f}")
    baselines.advance(start + timedelta(hours=hours))


def view(now: datetime, study: float, *, outdoor: float = 5.0, climate: bool = False) -> HomeView:
    states = [
        entity(STUDY, f"{study}", area="Study", device_class="temperature", unit="°C"),
        entity(BEDROOM, "19.0", area="Bedroom", device_class="temperature", unit="°C"),
    ]
    if climate:
        states.append(entity("climate.study", "heat", area="Study"))
    env = replace(environment(now), outdoor_temperature=outdoor)
    return HomeView(window(states, env))


def test_each_hour_is_learned_day_by_day() -> None:
    baselines = learned(10)
    profile = baselines.profiles.hours[STUDY]
    assert len(profile[3]) == 10
    assert all(math.isclose(v, 19.1, abs_tol=0.06) for _, v in profile[3])
    assert all(math.isclose(v, 22.1, abs_tol=0.06) for _, v in profile[18])
    value, others = baselines.profiles.same_hour(STUDY, DAY0 + timedelta(days=9, hours=18))
    assert value is not None
    assert len(others) == 9
    assert baselines.summary()["entities_with_hour_profiles"] == 3


def test_a_room_warm_for_hours_beyond_every_day_is_told() -> None:
    """25 °C from 09:00 on day 10: told once four closed hours are beyond every day's."""
    baselines = learned(10)
    day = DAY0 + timedelta(days=10)
    live(baselines, day, 9, {})
    live(baselines, day + timedelta(hours=9), 4.5, {STUDY: 25.0})
    findings = list(
        reading_off_its_hours(view(day + timedelta(hours=13, minutes=20), 25.0), baselines)
    )
    assert len(findings) == 1
    finding = findings[0]
    assert finding.rule == "reading_off_its_hours"
    assert finding.evidence == (STUDY,)
    assert finding.severity is Severity.MEDIUM
    assert finding.anomaly_type == AnomalyType.DEVICE_MALFUNCTION
    assert "reads 25 °C: for 4 hours its temperature has been above" in finding.reasoning
    assert "10 other days learned" in finding.reasoning
    assert finding.magnitude is not None
    assert finding.magnitude > 2.8


def test_three_hours_or_a_reading_back_to_normal_is_not_told() -> None:
    baselines = learned(10)
    day = DAY0 + timedelta(days=10)
    live(baselines, day, 9, {})
    live(baselines, day + timedelta(hours=9), 3, {STUDY: 25.0})
    assert (
        list(reading_off_its_hours(view(day + timedelta(hours=12, minutes=5), 25.0), baselines))
        == []
    )
    live(baselines, day + timedelta(hours=12), 2, {STUDY: 25.0})
    assert (
        list(reading_off_its_hours(view(day + timedelta(hours=14, minutes=5), 19.0), baselines))
        == []
    )


def test_the_daily_cycle_is_normal_and_judged_hour_by_hour() -> None:
    """22 °C through the evening is usual there (not told); 23.5 °C all morning, 4.3 °C
    above every morning learned, is told."""
    baselines = learned(10)
    day = DAY0 + timedelta(days=10)
    live(baselines, day, 22, {})
    assert (
        list(reading_off_its_hours(view(day + timedelta(hours=21, minutes=30), 22.0), baselines))
        == []
    )
    morning = learned(10)
    live(morning, day, 6, {})
    live(morning, day + timedelta(hours=6), 6, {STUDY: 23.5})
    assert list(reading_off_its_hours(view(day + timedelta(hours=12, minutes=5), 23.5), morning))


def test_what_explains_a_departure_is_not_told() -> None:
    baselines = learned(10)
    day = DAY0 + timedelta(days=10)
    live(baselines, day, 9, {})
    live(baselines, day + timedelta(hours=9), 5, {STUDY: 25.0})
    now = day + timedelta(hours=14, minutes=5)
    assert list(reading_off_its_hours(view(now, 25.0), baselines))
    # A thermostat in the room: the heating's checks judge it.
    assert list(reading_off_its_hours(view(now, 25.0, climate=True), baselines)) == []
    # Close to the outdoor temperature: a sensor that follows the weather.
    assert list(reading_off_its_hours(view(now, 25.0, outdoor=24.0), baselines)) == []
    # Another temperature sensor moved the same way: the whole home did.
    both = learned(10)
    live(both, day, 9, {})
    live(both, day + timedelta(hours=9), 5, {STUDY: 25.0, BEDROOM: 26.0})
    states = [
        entity(STUDY, "25.0", area="Study", device_class="temperature", unit="°C"),
        entity(BEDROOM, "26.0", area="Bedroom", device_class="temperature", unit="°C"),
    ]
    assert list(reading_off_its_hours(HomeView(window(states, environment(now))), both)) == []


def test_a_week_is_needed() -> None:
    baselines = learned(5)
    day = DAY0 + timedelta(days=5)
    live(baselines, day, 9, {})
    live(baselines, day + timedelta(hours=9), 5, {STUDY: 25.0})
    assert (
        list(reading_off_its_hours(view(day + timedelta(hours=14, minutes=5), 25.0), baselines))
        == []
    )


def test_unreadable_time_and_gaps_are_not_learned() -> None:
    profiles = HourProfiles(UTC)
    profiles.reading(STUDY, 20.0, DAY0)
    profiles.reading(STUDY, None, DAY0 + timedelta(minutes=20))  # unavailable for 40 min
    profiles.reading(STUDY, 21.0, DAY0 + timedelta(hours=1))
    profiles.advance(DAY0 + timedelta(hours=2))
    assert [v for _, v in profiles.hours[STUDY][0]] == []  # 20 min readable: not kept
    assert [v for _, v in profiles.hours[STUDY][1]] == [21.0]
    profiles.advance(DAY0 + timedelta(days=3))  # HA stopped for 3 days: nothing accounted
    assert sum(len(values) for values in profiles.hours[STUDY]) == 1


def test_profiles_survive_storage_and_hostile_data_is_dropped() -> None:
    baselines = learned(3)
    stored = HomeBaselines.from_dict(json.loads(json.dumps(baselines.as_dict())), UTC)
    assert stored.profiles.hours[STUDY] == baselines.profiles.hours[STUDY]
    hostile = {
        "hours": {
            **{f"sensor.t{i}": [[[1, 20.0]]] * 24 for i in range(MAX_ENTITIES + 50)},
            "sensor.bad": [[[1, float("nan")], [True, 2.0], "x", [2]]] * 24,
            "sensor.short": [[]] * 3,
        },
        "open": {"sensor.x": [float("inf"), "2026-01-01T00:00:00+00:00"], "sensor.y": "z"},
    }
    profiles = HourProfiles.from_dict(hostile, UTC)
    assert len(profiles.hours) <= MAX_ENTITIES
    assert "sensor.short" not in profiles.hours
    assert profiles.as_dict()["open"] == {}
    assert HourProfiles.from_dict("garbage", UTC).hours == {}


def test_the_stored_form_is_compact_and_reads_back_the_same() -> None:
    """Per sensor a first day and one line of text (tenths, each the difference from the
    day before): the same profile back, a fraction of the (day, mean) pairs' size in HA's
    indented file (every list element on its own line)."""
    baselines = learned(14)
    stored = baselines.as_dict()["profiles"]
    first, text = stored["days"][STUDY]
    assert isinstance(first, int)
    assert isinstance(text, str)
    assert text.count(";") == 23
    assert text.split(";")[17] == "0:221" + ",0" * 13  # 22.1 °C, then the same each day
    again = HourProfiles.from_dict(json.loads(json.dumps(stored)), UTC)
    assert again.hours == baselines.profiles.hours
    pairs = {"hours": {STUDY: [[list(p) for p in v] for v in baselines.profiles.hours[STUDY]]}}
    indented = json.dumps(stored, indent=2)
    assert len(indented) < 3 * len(json.dumps(pairs, indent=2)) / 8  # three sensors vs one


def test_the_older_stored_form_is_migrated() -> None:
    """Version 1 stored (day, mean) pairs per hour: read, judged as before, saved compact."""
    baselines = learned(9)
    old = baselines.as_dict()
    old["version"] = 1
    old["profiles"] = {
        "hours": {
            entity: [[[day, mean] for day, mean in values] for values in hours]
            for entity, hours in baselines.profiles.hours.items()
        },
        "open": old["profiles"]["open"],
    }
    migrated = HomeBaselines.from_dict(json.loads(json.dumps(old)), UTC)
    assert migrated.profiles.hours == baselines.profiles.hours
    assert migrated.events == baselines.events
    migrated.describe(INFOS)  # what each entity is comes from HA, not from storage
    now = DAY0 + timedelta(days=9, hours=14)
    live(migrated, DAY0 + timedelta(days=9), 14, {STUDY: 25.5})
    assert [f.rule for f in reading_off_its_hours(view(now, 25.5), migrated)] == [
        "reading_off_its_hours"
    ]
    assert "days" in migrated.as_dict()["profiles"]
    assert HomeBaselines.from_dict({**old, "version": [1]}, UTC).events == 0  # unhashable


def test_hostile_compact_profiles_are_dropped() -> None:
    """Wrong shapes, floats, booleans, other digits, huge offsets, values and spans: the
    sensor is dropped; a flood of sensors is capped; an hour keeps at most DAYS_KEPT days."""
    good = [739000, ";".join(["0:195" + ",1" * 39] * 24)]
    hostile = {
        "days": {
            **{f"sensor.t{i}": good for i in range(MAX_ENTITIES + 50)},
            "sensor.short": [739000, "0:195"],
            "sensor.float": [739000, ";".join(["0:19.5"] * 24)],
            "sensor.bool": [True, good[1]],
            "sensor.digits": [739000, ";".join(["0:1\u00b2"] * 24)],
            "sensor.offset": [739000, ";".join(["99999:195"] * 24)],
            "sensor.huge": [739000, ";".join(["0:" + "9" * 15] * 24)],
            "sensor.span": [739000, ";".join(["0:195" + ",0" * 500] * 24)],
            "sensor.list": [739000, [[0, 195]] * 24],
        },
    }
    profiles = HourProfiles.from_dict(hostile, UTC)
    assert len(profiles.hours) == MAX_ENTITIES
    kept = profiles.hours["sensor.t0"][0]
    assert len(kept) == DAYS_KEPT
    assert kept[-1] == (739039, 23.4)
    bad = HourProfiles.from_dict({"days": dict(list(hostile["days"].items())[-8:])}, UTC)
    assert bad.hours == {}


def test_the_weather_is_learned_in_a_home_with_every_room_sensor_place_taken() -> None:
    """64 room sensors fill the profiles; the outdoor temperature keeps its own place, and
    keeps it through storage."""
    from custom_components.anomaly_monitor.core.baselines.home_baselines import OUTDOOR
    from custom_components.anomaly_monitor.core.baselines.hour_profiles import MAX_ENTITIES

    start = datetime(2026, 1, 5, tzinfo=UTC)
    baselines = HomeBaselines(UTC)
    ids = [f"sensor.t{i}" for i in range(MAX_ENTITIES + 1)]
    baselines.describe(EntityInfo(e, "", device_class="temperature", unit="°C") for e in ids)
    for hour in range(3):
        when = start + timedelta(hours=hour)
        for entity_id in ids:
            baselines.observe(when, entity_id, "19.0")
        baselines.outdoor(4.0, when)
    baselines.advance(start + timedelta(hours=3))
    assert len(baselines.profiles.hours) == MAX_ENTITIES + 1  # 64 rooms and the weather
    assert OUTDOOR in baselines.profiles.hours
    again = HomeBaselines.from_dict(json.loads(json.dumps(baselines.as_dict())), UTC)
    assert OUTDOOR in again.profiles.hours
