"""Each power meter's learned day (core, no Home Assistant): a run that does not come,
drawing at hours it never draws, and a place kept steady leaving its band. The meters'
ids and names say nothing of what they power."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
import json

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.meter_habits import (
    meter_drawing_at_unusual_hours,
    meter_run_missing,
)
from custom_components.anomaly_monitor.core.baselines.steady_places import (
    reading_beyond_its_steady_band,
)
from custom_components.anomaly_monitor.core.models import EntityInfo, EntityState

from .core_factories import entity
from .test_baselines_long_stays import since, view

DAY0 = datetime(2026, 3, 2, tzinfo=UTC)  # a Monday
RELAY = "sensor.shellyplus1pm_c049_power"  # a water heater on the night tariff
HOB = "sensor.plug_mini_7c21_power"  # a tabletop hob
COLD = "sensor.sonoff_1000d7_temperature"  # a walk-in cooler's thermometer
ROOM = "sensor.living_temperature"
PERSON = "person.a"
HALL = "binary_sensor.hall_motion"
INFOS = [
    EntityInfo(HALL, "", area="Hall", device_class="motion"),
    EntityInfo(RELAY, "", area="Cellar", device_class="power", unit="W"),
    EntityInfo(HOB, "", area="Kitchen", device_class="power", unit="W"),
    EntityInfo(COLD, "", area="Store", device_class="temperature", unit="°C"),
    EntityInfo(ROOM, "", area="Living", device_class="temperature", unit="°C"),
]
Day = Callable[[HomeBaselines, datetime], None]


def _heater_and_hob(baselines: HomeBaselines, day: datetime) -> None:
    """The relay heats 22:30-01:00; the hob cooks 12:00-12:30 and 18:00-18:40."""
    baselines.observe(day + timedelta(hours=22, minutes=30), RELAY, "2380")
    baselines.observe(day + timedelta(hours=25), RELAY, "0.0")
    baselines.observe(day + timedelta(hours=12), HOB, "1200")
    baselines.observe(day + timedelta(hours=12, minutes=30), HOB, "0.4")
    baselines.observe(day + timedelta(hours=18), HOB, "1400")
    baselines.observe(day + timedelta(hours=18, minutes=40), HOB, "0.4")


def fed(
    days: int,
    each: Day = _heater_and_hob,
    skip: frozenset[int] = frozenset(),
    until: datetime | None = None,
) -> HomeBaselines:
    """``days`` days of ``each``, in time order, with the ticks in between up to ``until``
    (the day after them by default): HA's clock goes on while nothing runs."""
    baselines = HomeBaselines(UTC)
    baselines.describe(INFOS)
    recorder = _Recorder()
    for number in range(days):
        if number not in skip:
            each(recorder, DAY0 + timedelta(days=number))  # type: ignore[arg-type]
    recorder.replay(baselines, until or DAY0 + timedelta(days=days + 1))
    return baselines


class _Recorder:
    """Collects a day's readings so they are learned in time order with the ticks."""

    def __init__(self) -> None:
        self.readings: list[tuple[datetime, str, str]] = []

    def observe(self, when: datetime, entity_id: str, state: str) -> None:
        self.readings.append((when, entity_id, state))

    def replay(self, baselines: HomeBaselines, until: datetime) -> None:
        readings = sorted(self.readings)
        moment, index = DAY0, 0
        while moment <= until:
            while index < len(readings) and readings[index][0] <= moment:
                when, entity_id, state = readings[index]
                baselines.observe(when, entity_id, state)
                index += 1
            baselines.advance(moment)
            moment += timedelta(minutes=15)


def relay(state: str, changed: datetime) -> EntityState:
    return since(entity(RELAY, state, area="Cellar", device_class="power", unit="W"), changed)


def hob(state: str, changed: datetime) -> EntityState:
    return since(entity(HOB, state, area="Kitchen", device_class="power", unit="W"), changed)


TONIGHT = DAY0 + timedelta(days=10)  # a Thursday; the relay's last run ended at 01:00


def test_a_nightly_run_that_does_not_come_is_told_after_two_hours_of_it() -> None:
    baselines = fed(10)
    cold = relay("0.0", TONIGHT + timedelta(hours=1))
    one_hour = view(TONIGHT + timedelta(hours=23, minutes=30), cold)
    assert list(meter_run_missing(one_hour, baselines)) == []  # a late start, perhaps
    [finding] = meter_run_missing(view(TONIGHT + timedelta(hours=24, minutes=5), cold), baselines)
    assert finding.rule == "meter_run_missing"
    assert finding.evidence == (RELAY,)
    assert "on 10 of the 10 days learned it drew power at 22:00 and at 23:00" in finding.reasoning
    assert "did not come" in finding.reasoning
    # The hob idle at 13:00-15:00 is no missed run: it never cooks then.
    idle_hob = hob("0.4", TONIGHT + timedelta(hours=12, minutes=30))
    assert list(meter_run_missing(view(TONIGHT + timedelta(hours=15), idle_hob), baselines)) == []


def test_no_run_is_expected_of_an_empty_home_nor_of_a_meter_switched_off() -> None:
    baselines = fed(10, until=TONIGHT + timedelta(hours=20))
    baselines.observe(TONIGHT + timedelta(hours=20), PERSON, "not_home")
    baselines.advance(TONIGHT + timedelta(hours=24, minutes=5))
    cold = relay("0.0", TONIGHT + timedelta(hours=1))
    late = view(TONIGHT + timedelta(hours=24, minutes=5), cold)
    assert list(meter_run_missing(late, baselines)) == []
    # Home, but the relay's own switch was turned off: somebody did it.
    baselines = fed(10)
    switch = entity("switch.shellyplus1pm_c049", "off", area="Cellar")
    late = view(TONIGHT + timedelta(hours=24, minutes=5), cold, switch)
    assert list(meter_run_missing(late, baselines)) == []


def test_a_weekly_closing_day_and_a_first_week_expect_nothing() -> None:
    """The relay heats Monday to Saturday only: on a Sunday its hours are not expected."""
    sundays = frozenset(n for n in range(14) if (DAY0 + timedelta(days=n)).weekday() == 6)
    sunday = DAY0 + timedelta(days=13)
    baselines = fed(13, skip=sundays, until=sunday + timedelta(hours=24, minutes=5))
    cold = relay("0.0", sunday + timedelta(hours=1))
    assert (
        list(meter_run_missing(view(sunday + timedelta(hours=24, minutes=5), cold), baselines))
        == []
    )
    # Six days learned: no week yet to say which days it runs.
    baselines = fed(6)
    day = DAY0 + timedelta(days=6)
    cold = relay("0.0", day + timedelta(hours=1))
    assert (
        list(meter_run_missing(view(day + timedelta(hours=24, minutes=5), cold), baselines)) == []
    )


def test_a_hob_drawing_for_long_at_hours_it_never_draws_is_told() -> None:
    baselines = fed(10)
    on = TONIGHT + timedelta(hours=21, minutes=30)
    baselines.observe(on + timedelta(minutes=5), HALL, "on")  # then off to bed
    baselines.observe(on + timedelta(minutes=10), HALL, "off")
    warm = hob("300", on)
    # 35 min: no longer than it ever cooked, and a usual run moved late ends in its time.
    soon = view(on + timedelta(minutes=35), warm)
    assert list(meter_drawing_at_unusual_hours(soon, baselines)) == []
    [finding] = meter_drawing_at_unusual_hours(view(on + timedelta(minutes=75), warm), baselines)
    assert finding.rule == "meter_drawing_at_unusual_hours"
    assert finding.evidence == (HOB,)
    assert "has drawn 300 W since 21:30 (1 h 15 min)" in finding.reasoning
    assert "in the 10 days learned, it never drew power, nor in the hours around" in (
        finding.reasoning
    )
    # The household still up (moving 22:00-22:31): cooking late is watched; after 3 h told.
    for minutes in (30, 35, 55, 61):
        baselines.observe(on + timedelta(minutes=minutes), HALL, "on" if minutes % 2 else "off")
    awake = view(on + timedelta(minutes=75), warm)
    assert list(meter_drawing_at_unusual_hours(awake, baselines)) == []
    late = view(on + timedelta(hours=3, minutes=5), warm)
    assert [f.rule for f in meter_drawing_at_unusual_hours(late, baselines)] == [
        "meter_drawing_at_unusual_hours"
    ]
    # Dinner cooked long, into the hour after its usual: a usual run spilling over.
    dinner = TONIGHT + timedelta(hours=18)
    late = view(dinner + timedelta(minutes=110), hob("1400", dinner))
    assert list(meter_drawing_at_unusual_hours(late, baselines)) == []
    # At its usual hour, a long cook is not this check's.
    noon = TONIGHT + timedelta(hours=12)
    assert (
        list(
            meter_drawing_at_unusual_hours(
                view(noon + timedelta(minutes=55), hob("900", noon)), baselines
            )
        )
        == []
    )


def _weekly_thursday_evening(baselines: HomeBaselines, day: datetime) -> None:
    """The usual days, and on Thursdays the hob keeps a pot warm 21:30-01:00 while the
    phones are away (as a family keeping Shabbat leaves them off)."""
    _heater_and_hob(baselines, day)
    if day.weekday() == 3:
        baselines.observe(day + timedelta(hours=21), PERSON, "not_home")
        baselines.observe(day + timedelta(hours=21, minutes=30), HOB, "300")
        baselines.observe(day + timedelta(hours=25), HOB, "0.4")
        baselines.observe(day + timedelta(hours=26), PERSON, "home")


def test_a_weekly_habit_is_not_drawing_at_unusual_hours() -> None:
    """A Shabbat urn from Friday afternoon (set 9): on 1 of the 10 days learned it drew at
    these hours, rare over the days, but on this weekday of every week learned. A hob on
    at those hours on another weekday is still told. Before: told."""
    baselines = fed(10, each=_weekly_thursday_evening)
    on = TONIGHT + timedelta(hours=21, minutes=30)  # a Thursday
    late = view(on + timedelta(hours=3, minutes=5), hob("300", on))
    assert list(meter_drawing_at_unusual_hours(late, baselines)) == []
    on = TONIGHT + timedelta(days=1, hours=21, minutes=30)  # a Friday
    friday = fed(10, each=_weekly_thursday_evening, until=on)
    late = view(on + timedelta(hours=3, minutes=5), hob("300", on))
    assert [f.rule for f in meter_drawing_at_unusual_hours(late, friday)] == [
        "meter_drawing_at_unusual_hours"
    ]


def test_meter_hours_survive_storage_and_garbage_is_dropped() -> None:
    baselines = fed(10)
    stored = json.loads(json.dumps(baselines.as_dict()))
    again = HomeBaselines.from_dict(stored, UTC)
    assert again.meters.runs == baselines.meters.runs
    assert again.meters.watched == baselines.meters.watched
    assert again.summary()["meters_with_learned_hours"] == 2
    stored["meter_hours"]["runs"][RELAY] = "1,2,x"
    stored["meter_hours"]["watched"] = "nonsense"
    broken = HomeBaselines.from_dict(stored, UTC)
    assert broken.meters.runs == {}
    stored["meter_hours"] = {
        "day": 739000,
        "watched": ",".join(["0"] * 24),
        "home": ",".join(["0"] * 24),
        "runs": {RELAY: "1,2,x", HOB: ",".join(["3"] * 24)},
    }
    assert list(HomeBaselines.from_dict(stored, UTC).meters.runs) == [HOB]


def _cooler(baselines: HomeBaselines, day: datetime) -> None:
    """The cooler reads 3.6-3.9 °C, 5.1 °C for 20 min when its door is opened at 09:00;
    the living room swings 17-23 °C."""
    for half in range(48):
        moment = day + timedelta(minutes=30 * half)
        baselines.observe(moment, COLD, f"{3.6 + (half % 4) / 10:.1f}")
        baselines.observe(moment, ROOM, f"{17 + (half % 13) / 2:.1f}")
    baselines.observe(day + timedelta(hours=9, minutes=5), COLD, "5.1")


def test_a_cooler_warming_out_of_its_band_is_told_after_an_hour() -> None:
    baselines = fed(6, _cooler)
    day = DAY0 + timedelta(days=6)
    warm = since(
        entity(COLD, "5.6", area="Store", device_class="temperature", unit="°C"),
        day + timedelta(hours=14, minutes=40),
    )
    assert (
        list(
            reading_beyond_its_steady_band(
                view(day + timedelta(hours=15, minutes=20), warm), baselines
            )
        )
        == []
    )
    [finding] = reading_beyond_its_steady_band(
        view(day + timedelta(hours=15, minutes=45), warm), baselines
    )
    assert finding.rule == "reading_beyond_its_steady_band"
    assert finding.evidence == (COLD,)
    assert "above its own band since 14:40" in finding.reasoning
    assert "always read 3.6–5.1 °C" in finding.reasoning
    # A door opened again (5.1 °C) is inside the band; a living room at 24 °C swings anyway.
    door = since(
        entity(COLD, "5.1", area="Store", device_class="temperature", unit="°C"),
        day + timedelta(hours=13),
    )
    room = since(
        entity(ROOM, "24.5", area="Living", device_class="temperature", unit="°C"),
        day + timedelta(hours=13),
    )
    assert (
        list(reading_beyond_its_steady_band(view(day + timedelta(hours=15), door, room), baselines))
        == []
    )
