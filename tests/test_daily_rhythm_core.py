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
    assert found.due == now + timedelta(hours=5)  # 15:00 every day: judged from 16:00 on


def _not_up_due(baselines: HomeBaselines, day: int) -> tuple[datetime, str]:
    """When a household still in bed on ``day`` (its last move at 22:00 the day before)
    is told, and why."""
    midnight = DAY0 + timedelta(days=day)
    _moves(baselines, midnight - timedelta(hours=2, minutes=10), midnight - timedelta(hours=2))
    now = midnight + timedelta(hours=5)
    baselines.advance(now)
    found = not_up_by(baselines, now)
    assert found is not None
    return found.due, found.why


def _wandering(count: int, ups: list[float]) -> HomeBaselines:
    """``count`` days up at ``ups[day % len(ups)]`` o'clock, to bed at 22:00."""
    baselines = HomeBaselines(UTC)
    baselines.describe(INFOS)
    baselines.observe(DAY0, "person.rose", "home")
    for day in range(count):
        midnight = DAY0 + timedelta(days=day)
        up = midnight + timedelta(hours=ups[day % len(ups)])
        _moves(baselines, up, midnight + timedelta(hours=22))
    return baselines


def test_a_morning_every_day_agrees_on_is_news_an_hour_past_it() -> None:
    """Up at 07:00 on each of ten days, weekdays and weekends: still in bed on the
    eleventh (a Friday) is told at 08:00, not two hours past it."""
    due, why = _not_up_due(_days(10, 7, 22, trip=None), 11)
    assert due == DAY0 + timedelta(days=11, hours=8)
    assert "on weekdays this household is usually up by 07:00" in why


def test_mornings_that_wander_keep_a_wider_margin() -> None:
    """Up between 06:30 and 08:00 (the latest an hour after the median): two hours past
    the latest usual morning (08:00), as before."""
    due, _ = _not_up_due(_wandering(10, [6.5, 7.0, 8.0, 6.5, 7.0]), 11)
    assert due == DAY0 + timedelta(days=11, hours=10)


def test_a_first_weekend_is_not_judged_by_the_weekdays_tight_margin() -> None:
    """Weekdays at 07:00 and one Saturday: the Sunday is judged from every day learned
    with the wide margin (3 h), as one weekend morning says little of its lie-in."""
    due, why = _not_up_due(_days(6, 7, 22, trip=None), 6)
    assert due == DAY0 + timedelta(days=6, hours=10)
    assert "on the days learned" in why


def test_weekends_that_agree_with_the_weekdays_narrow_the_margin() -> None:
    """Up at 07:00 on every day of the first week, Saturday and Sunday too; weekends not
    learned on their own (two days): the second Saturday is judged from every day, an
    hour past 07:00, and says so."""
    due, why = _not_up_due(_days(12, 7, 22, trip=None), 12)
    assert due == DAY0 + timedelta(days=12, hours=8)
    assert "on every day learned, weekdays and weekends alike" in why


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
