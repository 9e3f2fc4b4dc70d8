"""An hour by day not learned yet is judged by the hours this home is awake at (core).

The Okafors are out at work and school every weekday 08:00-17:00: their mornings and
evenings are learned (somebody moves every quarter of an hour), their days never are. On
the Saturday Chidi stays home alone, his last sign in the hall at 11:05, and nothing
moves after: the hours 11-12 were never lived in while anybody was home, and a fall then
was not judged until somebody came home. The hours the home is awake at say how still
it is while awake: a quarter of an hour, so the day's fall is told after the hours' floor.
"""

from __future__ import annotations

from collections import deque
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.awake_usual import (
    MIN_AWAKE_HOURS,
    usual_over,
)
from custom_components.anomaly_monitor.core.baselines.quiet_spells import QuietSpells
from custom_components.anomaly_monitor.core.baselines.still_where_last_seen import (
    still_where_last_seen,
)
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import Environment

from .core_factories import entity, window

ZONE = ZoneInfo("Africa/Lagos")
KITCHEN = "binary_sensor.kitchen_motion"
HALL = "binary_sensor.hall_motion"
ME = "person.chidi"
AREAS = {KITCHEN: "Kitchen", HALL: "Hall"}
TODAY = datetime(2027, 3, 20, tzinfo=ZONE)  # a Saturday, local midnight
DAYS = 7


def _moves(midnight: datetime, start: float, end: float) -> list[tuple[datetime, str, str]]:
    """A sign every quarter of an hour from ``start`` to ``end`` (hours), kitchen and hall
    by turns."""
    events = []
    step = 0
    while (moment := start + step / 4) <= end:
        sensor = KITCHEN if step % 2 == 0 else HALL
        events.append((midnight + timedelta(hours=moment), sensor, "on"))
        events.append((midnight + timedelta(hours=moment, minutes=1), sensor, "off"))
        step += 1
    return events


def _learned() -> HomeBaselines:
    """``DAYS`` days out 08:00-17:00 (up at 06:30, in bed at 22:00); today home all
    morning, the last sign in the hall at 11:05."""
    baselines = HomeBaselines(ZONE)
    baselines.describe(entity(e, "off", area=AREAS[e], device_class="motion").info for e in AREAS)
    start = TODAY - timedelta(days=DAYS)
    baselines.watching(AREAS, start)
    baselines.observe(start, ME, "home")
    events: list[tuple[datetime, str, str]] = []
    for day in range(DAYS):
        midnight = start + timedelta(days=day)
        events += _moves(midnight, 6.5, 7.75)
        events += _moves(midnight, 17.0, 22.0)
        events.append((midnight + timedelta(hours=8), ME, "not_home"))
        events.append((midnight + timedelta(hours=17), ME, "home"))
    events += _moves(TODAY, 6.5, 11.0)
    events.append((TODAY + timedelta(hours=11, minutes=5), HALL, "on"))
    events.append((TODAY + timedelta(hours=11, minutes=6), HALL, "off"))
    for when, entity_id, state in sorted(events):
        baselines.observe(when, entity_id, state, AREAS.get(entity_id))
    return baselines


def _told_at(baselines: HomeBaselines, hours: float) -> bool:
    now = TODAY + timedelta(hours=hours)
    baselines.advance(now)
    states = [entity(e, "off", area=AREAS[e], device_class="motion") for e in AREAS]
    states.append(entity(ME, "home"))
    env = Environment(local_time=now, persons_home=1, persons_total=1)
    return bool(list(still_where_last_seen(HomeView(window(states, env, [])), baselines)))


def test_the_day_never_lived_in_is_judged_by_the_awake_hours() -> None:
    baselines = _learned()
    assert baselines.quiet.typical(11) is None  # nobody home at 11 on any day learned
    assert not _told_at(baselines, 12)  # the hours' floor: an hour at least
    assert _told_at(baselines, 12 + 15 / 60)


def _spells(hours: dict[int, float]) -> QuietSpells:
    """Five days learned at ``hours`` (minutes of the longest quiet)."""
    quiet = QuietSpells(ZONE)
    for hour, minutes in hours.items():
        quiet.maxima[hour] = deque((day, minutes) for day in range(1, 6))
    return quiet


def test_the_awake_hours_bound_the_unlearned_day() -> None:
    nights = dict.fromkeys((0, 1, 2, 3, 4, 5, 22, 23), 300.0)
    quiet = _spells({**nights, 6: 50.0, 7: 12.0, 17: 20.0, 18: 35.0, 19: 15.0, 20: 10.0})
    start = TODAY + timedelta(days=30, hours=11, minutes=5)
    # Hour 6 (50 min: waking) is awake too; the longest awake hour stands.
    assert usual_over(quiet, start, start + timedelta(hours=1)) == 50.0
    # A learned hour among them is read as learned.
    assert usual_over(quiet, start.replace(hour=18), start.replace(hour=19)) == 35.0


def test_no_reading_for_the_night_or_without_enough_awake_hours() -> None:
    quiet = _spells({7: 12.0, 17: 20.0, 18: 35.0, 19: 15.0})
    start = TODAY + timedelta(days=30)
    # Hour 2 is not learned: the night is never read from the awake hours.
    assert usual_over(quiet, start + timedelta(hours=2), start + timedelta(hours=3)) is None
    awake = {7: 12.0, 17: 20.0, 18: 35.0, 19: 15.0}
    few = _spells(dict(list(awake.items())[: MIN_AWAKE_HOURS - 1]))
    assert usual_over(few, start + timedelta(hours=11), start + timedelta(hours=12)) is None
    # An awake hour of an hour or more is a rest (a siesta), not how still it is awake.
    rested = _spells({7: 12.0, 13: 90.0, 17: 20.0, 18: 35.0, 19: 15.0})
    assert usual_over(rested, start + timedelta(hours=11), start + timedelta(hours=12)) == 35.0
