"""The learned daily rhythm (core, no Home Assistant): wake times, running hours, storage."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
import json

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.daily_rhythm import (
    DAYS_KEPT,
    DailyRhythm,
    is_weekend,
)
from custom_components.anomaly_monitor.core.baselines.getting_up import not_up_by
from custom_components.anomaly_monitor.core.models import EntityInfo

DAY0 = datetime(2026, 2, 2, tzinfo=UTC)  # a Monday
BED = "binary_sensor.bedroom_motion"
HOB = "sensor.hob_power"
INFOS = [
    EntityInfo(BED, "", area="Bedroom", device_class="motion"),
    EntityInfo(HOB, "", area="Kitchen", device_class="power", unit="W"),
]


def _moves(baselines: HomeBaselines, start: datetime, end: datetime, every: int = 10) -> None:
    moment = start
    while moment < end:
        baselines.observe(moment, BED, "on")
        baselines.observe(moment + timedelta(minutes=1), BED, "off")
        moment += timedelta(minutes=every)


def _days(count: int, up: float, down: float, *, trip: float | None = 3.0) -> HomeBaselines:
    """``count`` days up at ``up`` o'clock and to bed at ``down``, a night trip at ``trip``."""
    baselines = HomeBaselines(UTC)
    baselines.describe(INFOS)
    baselines.observe(DAY0, "person.rose", "home")
    for day in range(count):
        midnight = DAY0 + timedelta(days=day)
        if trip is not None:
            _moves(
                baselines,
                midnight + timedelta(hours=trip),
                midnight + timedelta(hours=trip, minutes=8),
                4,
            )
        _moves(baselines, midnight + timedelta(hours=up), midnight + timedelta(hours=down))
    return baselines


def test_the_wake_time_is_the_end_of_the_night_not_the_toilet_trip() -> None:
    """Up at 07:00 every day, a trip at 03:00: each day's wake is 07:00, the rest joined
    across the trip (from 22:00)."""
    rhythm = _days(10, 7, 22).rhythm
    assert [minute for _, minute, _ in rhythm.wakes] == [7 * 60] * 10
    assert all(length >= 8 * 60 for _, _, length in list(rhythm.wakes)[1:])
    today = rhythm.day_of(DAY0 + timedelta(days=10))
    assert rhythm.usual_wake(today, 0.9, 3) == (7 * 60, 8)  # the weekdays among them


def test_a_shift_worker_is_learned_rising_in_the_afternoon() -> None:
    """Asleep 08:00-15:00, up until 07:00: the wake is 15:00, and 11:00 is not 'not up'."""
    baselines = HomeBaselines(UTC)
    baselines.describe(INFOS)
    baselines.observe(DAY0, "person.rose", "home")
    for day in range(8):
        start = DAY0 + timedelta(days=day, hours=15)
        _moves(baselines, start, start + timedelta(hours=17))
    assert {minute for _, minute, _ in baselines.rhythm.wakes} == {15 * 60}
    now = DAY0 + timedelta(days=9, hours=11)
    baselines.advance(now)
    found = not_up_by(baselines, now)
    assert found is not None
    assert found.due == now + timedelta(hours=6)  # judged only from 17:00 on


def test_nobody_home_teaches_no_wake_and_is_never_judged() -> None:
    baselines = _days(6, 7, 22)
    baselines.observe(DAY0 + timedelta(days=6, hours=-1), "person.rose", "not_home")
    now = DAY0 + timedelta(days=6, hours=12)
    baselines.advance(now)
    assert not_up_by(baselines, now) is None
    assert not baselines.rhythm.woke_on(baselines.rhythm.day_of(now))


def test_weekends_are_their_own_kind_of_day() -> None:
    assert [is_weekend(DAY0.toordinal() + n) for n in range(7)] == [False] * 5 + [True] * 2


def test_running_hours_are_counted_per_day() -> None:
    """A meter's running hours (``MeterHours``), counted on the days before the one asked."""
    baselines = HomeBaselines(UTC)
    baselines.describe(INFOS)
    baselines.advance(DAY0)
    for day in range(3):
        noon = DAY0 + timedelta(days=day, hours=12)
        baselines.advance(noon)
        baselines.observe(noon, HOB, "1500")
        baselines.observe(noon + timedelta(minutes=90), HOB, "0.5")
        baselines.advance(noon + timedelta(hours=12))  # HA's clock goes on (hours watched)
    other = baselines.rhythm.day_of(DAY0 + timedelta(days=5))

    def ran(hour: int, day: int) -> int:
        return baselines.meters.days_at(HOB, hour, day, home_only=False)[0]

    assert ran(12, other) == 3
    assert ran(13, other) == 3
    assert ran(22, other) == 0
    today = baselines.rhythm.day_of(DAY0 + timedelta(days=2))
    assert ran(12, today) == 2  # today's run left out


def test_stored_and_read_back_and_damage_dropped() -> None:
    baselines = _days(5, 7, 22)
    baselines.observe(DAY0 + timedelta(hours=12), HOB, "1500")
    stored = json.loads(json.dumps(baselines.as_dict()))
    again = HomeBaselines.from_dict(stored, UTC).rhythm
    assert list(again.wakes) == list(baselines.rhythm.wakes)
    assert again.last_move == baselines.rhythm.last_move
    for damage in (
        None,
        "x",
        {"wakes": "1,2", "hours": {"a": "1,2,3"}, "away": "yes", "last_move": 5},
        {"wakes": ",".join(["1"] * (3 * DAYS_KEPT + 3)), "hours": []},
        {"wakes": "739000,5000,10", "hours": {HOB: ",".join(["-1"] * 48)}},
    ):
        rhythm = DailyRhythm.from_dict(damage, UTC)
        assert not rhythm.wakes
        assert rhythm.away is False
