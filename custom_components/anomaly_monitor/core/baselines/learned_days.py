"""Two multi-day window statistics, judged on the learned days when the window holds hours.

``daily_profile_shift`` (a sensor reading, hour for hour, far from its own earlier days,
for days on end) and ``sensor_drifting`` (one sensor's daily level moving one way nearly
every day while its peers stay level) compare a sensor's days with its own earlier days.
A live home's window holds a few hours (at most 24), so they never judge there. The
baselines hold each room sensor's hours of the last fortnight (``HourProfiles``; as days:
``reference.day_by_day``), so here the same statistics (``statistics/daily_profile.py``,
``statistics/drift.py``: the same functions and thresholds, the same rule names) run on
those days, each hour's mean one reading. They judge a sensor only

- that the window cannot judge itself (it holds fewer days than the statistic needs), and
- whose learned days reach back before the window (as many days learned before its first
  day as the statistic's baseline needs). A SmartBench sample has no recorder history:
  the in-HA replay learns only the sample's own trace, which is the window itself, so
  nothing here judges a sample; the window statistic does, on the same days.

A live home is not a benchmark window: what the learned checks of the same sensors leave
alone is left alone here too (``profile_departure``): a temperature in an area with a
``climate`` entity (its schedule and a holiday's eco set point move the room), one within
2 °C of the outdoor temperature, and a move the home or the weather shares
(``home_or_weather_moved``); a drift the outdoor temperature's own days share. A shift is
told only as a level the learned days never read at those hours (home from a week away
with the heating set back, the rooms warming again are a return, not a new level: the
fortnight's cold week is part of the baseline) and while the current reading still lies
on its side. No entity id's words.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from datetime import date, datetime, timedelta
from statistics import median

from ..home import HomeView
from ..models import EntityState, Finding
from ..rules.temperature_bands import celsius_of
from ..statistics.daily_profile import (
    MIN_BASELINE_DAYS,
    MIN_READINGS_PER_DAY,
    MIN_REGIME_DAYS,
    ONE_SIDED_SHARE,
    home_moved,
    readings_by_day,
    shift_finding,
)
from ..statistics.drift import (
    MIN_CHANGE_SHARE,
    MIN_DAYS,
    MIN_TREND,
    PEER_TREND,
    daily_medians,
    drift_finding,
    kendall_tau,
)
from ..temperatures import share_of_level
from .clock import local
from .home_baselines import OUTDOOR, HomeBaselines
from .hour_profiles import PROFILED_CLASSES
from .learned_days_kept import Days, daily_levels, learned_departure
from .profile_departure import OUTDOOR_NEAR, home_or_weather_moved

# Still on its side: the current reading at least this share of the shift from its hour.
STILL_SHARE = 0.5


def _start(home: HomeView) -> datetime:
    """When the window begins (once per analysis: a busy window has 10,000 changes)."""
    times = (t.when for t in home.window.transitions)
    return home.window.start or min(times, default=home.end)


def _first_day(home: HomeView, start: datetime) -> date:
    """The window's first local day."""
    return local(start, home.env.zone).date()


def _spans_days(home: HomeView, start: datetime, days: int) -> bool:
    """Whether the window is long enough to hold ``days`` local days (cheap: a live home's
    two hours never do, and its readings need not be sorted into days)."""
    return home.end - start > timedelta(days=days - 1)


def _window_judges_profile(home: HomeView, start: datetime, entity_id: str) -> bool:
    if not _spans_days(home, start, MIN_BASELINE_DAYS + MIN_REGIME_DAYS):
        return False
    days = readings_by_day(home, entity_id)
    if len(days) < MIN_BASELINE_DAYS + MIN_REGIME_DAYS:
        return False
    return sum(len(v) for v in days.values()) >= MIN_READINGS_PER_DAY * len(days)


def _explained(home: HomeView, baselines: HomeBaselines, sensor: EntityState, side: int) -> bool:
    """What the learned checks of room sensors leave alone (module docstring)."""
    if sensor.info.device_class == "temperature":
        heated = {s.info.area for s in home.of("climate") if s.info.area}
        if sensor.info.area in heated:
            return True
        outdoor, current = home.env.outdoor_temperature, celsius_of(sensor)  # both °C
        if outdoor is not None and current is not None and abs(current - outdoor) <= OUTDOOR_NEAR:
            return True
    return home_or_weather_moved(home, baselines, sensor, side)


def _profiled(home: HomeView, baselines: HomeBaselines) -> list[EntityState]:
    return [
        sensor
        for device_class in sorted(PROFILED_CLASSES)
        for sensor in home.of("sensor", device_class)
        if sensor.entity_id in baselines.profiles.hours
    ]


def _new_level(days: Days, since: date, shift: float) -> bool:
    """Nearly every hour since ``since`` lies beyond every earlier day at that hour: a level
    the learned days never read, not a return to one (home from a week away with the
    heating set back, the rooms warm again: the fortnight's cold week is in the baseline)."""
    earlier: dict[int, list[float]] = defaultdict(list)
    for day, values in days.items():
        if day < since:
            for hour, value in values:
                earlier[hour].append(value)
    later = [(h, v) for day, values in days.items() if day >= since for h, v in values]
    if not later:
        return False
    beyond = sum(
        1
        for hour, value in later
        if earlier.get(hour)
        and (value > max(earlier[hour]) if shift > 0 else value < min(earlier[hour]))
    )
    return beyond >= ONE_SIDED_SHARE * len(later)


def _still_shifted(home: HomeView, days: Days, since: date, shift: float, current: float) -> bool:
    """The current reading is still on the shift's side of its hour's baseline."""
    hour = local(home.end, home.env.zone).hour
    baseline = [v for day, values in days.items() if day < since for h, v in values if h == hour]
    if not baseline:
        return False
    return (current - median(baseline)) * shift >= STILL_SHARE * shift * shift


def learned_profile_shift(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """``daily_profile_shift`` on the learned days of a room sensor.

    Magnitude: the median departure from the hourly baseline, in the sensor's unit
    (negative downwards).
    """
    start = _start(home)
    first = _first_day(home, start)
    found: dict[str, tuple[date, float, float]] = {}
    learned: dict[str, Days] = {}
    groups: dict[tuple[str | None, str | None], list[str]] = defaultdict(list)
    sensors: dict[str, EntityState] = {}
    for sensor in _profiled(home, baselines):
        entity_id = sensor.entity_id
        if _window_judges_profile(home, start, entity_id):
            continue  # the window statistic judges it
        days, departure = learned_departure(baselines, entity_id)
        if len(days) < MIN_BASELINE_DAYS + MIN_REGIME_DAYS:
            continue
        if sum(1 for day in days if day < first) < MIN_BASELINE_DAYS:
            continue  # learned from the window itself (a replayed sample): nothing before it
        groups[(sensor.info.device_class, sensor.info.unit)].append(entity_id)
        sensors[entity_id], learned[entity_id] = sensor, days
        if departure is not None:
            found[entity_id] = departure
    for entity_id, (since, shift, scatter) in found.items():
        sensor = sensors[entity_id]
        current = sensor.number
        if current is None or home_moved(entity_id, since, shift, found, groups):
            continue
        days = learned[entity_id]
        if not _new_level(days, since, shift) or not _still_shifted(
            home, days, since, shift, current
        ):
            continue
        if _explained(home, baselines, sensor, 1 if shift > 0 else -1):
            continue
        days_learned = f"; {len(learned[entity_id])} days learned"
        yield shift_finding(
            entity_id, (since, round(shift, 1), scatter), (entity_id,), days_learned
        )


def learned_drift(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """``sensor_drifting`` on the learned days of a room sensor and its peers.

    Magnitude: the change of the daily level from the first to the last whole day learned,
    in the sensor's unit (negative downwards).
    """
    start = _start(home)
    first = _first_day(home, start)
    long_window = _spans_days(home, start, MIN_DAYS)
    groups: dict[tuple[str | None, str | None], list[EntityState]] = defaultdict(list)
    for sensor in _profiled(home, baselines):
        groups[(sensor.info.device_class, sensor.info.unit)].append(sensor)
    outdoor = list(daily_levels(baselines, OUTDOOR).values())
    weather = kendall_tau(outdoor) if len(outdoor) >= MIN_DAYS else 0.0
    heated = {s.info.area for s in home.of("climate") if s.info.area}
    for (device_class, _), members in groups.items():
        if len(members) < 2:
            continue  # a lone sensor's drift and the season's cannot be told apart
        levels = {m.entity_id: daily_levels(baselines, m.entity_id) for m in members}
        trends = {m: kendall_tau(list(v.values())) for m, v in levels.items()}
        for sensor in members:
            entity_id = sensor.entity_id
            series = list(levels[entity_id].values())
            if len(series) < MIN_DAYS or abs(trends[entity_id]) < MIN_TREND:
                continue
            if long_window and len(daily_medians(home, entity_id)) >= MIN_DAYS:
                continue  # the window statistic judges it
            if device_class == "temperature" and sensor.info.area in heated:
                continue  # its level is the heating's schedule
            if sum(1 for day in levels[entity_id] if day < first) < MIN_DAYS:
                continue
            change = series[-1] - series[0]
            if abs(change) < share_of_level(MIN_CHANGE_SHARE, median(series), sensor.info.unit):
                continue
            peers = [m for m in levels if m != entity_id and len(levels[m]) >= MIN_DAYS]
            if not peers or any(
                trends[p] * change > 0 and abs(trends[p]) >= PEER_TREND for p in peers
            ):
                continue  # the home moved, not the sensor
            if (
                device_class == "temperature"
                and weather * change > 0
                and abs(weather) >= PEER_TREND
            ):
                continue  # the weather's days moved the same way (the season)
            days = f"the {len(series)} days learned"
            yield drift_finding(entity_id, days, change, sorted(peers))
