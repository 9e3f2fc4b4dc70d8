"""A cooled room much warmer than this home keeps it: the cooling runs, and does not cool.

``room_colder_than_kept`` (``cold_rooms.py``) tells a heated room falling well below the
low this home keeps; a home that cools had no counterpart. Under a desert summer an air
conditioner whose capacitor failed keeps "cooling" while the house climbs from 25 °C to
32 °C: ``hvac_not_responding`` waits for an *idle* unit, and ``room_too_hot`` for 35 °C
(issue 24: a family in Arizona, told nothing all afternoon). The learned hours
(``HourProfiles``: each local hour's mean, day by day) say what each room is kept at:

- **the high it keeps**: while someone is home, the highest mean of the same hour and the
  hours beside it on the other days learned (≥ ``MIN_DAYS``); while nobody is home, the
  highest of any hour;
- **well above it**: ``RISE`` (3 °C), or ``RISE_WITH_COOLING`` (2 °C) when the room's own
  unit says why: cooling yet the room stays this warm, or idle in cool mode far above its
  set point;
- **for a sustained time**: every reading for ``SUSTAINED`` above that line;
- **a rise, not a season**: the room was at or under its usual high within the last
  ``RECENT_HOURS``.

Only rooms whose climate entity is in a cooling mode (``cool``, ``heat_cool``, ``auto``):
a unit switched off (a cool evening, the windows open) is the household's choice. Not
told when the unit keeps the room where it is set (a set point raised on purpose, a
setback while away: within ``AT_SET_POINT`` of it), nor while a door or window of the room
is open or was within ``AIRED``. Judged in °C (°F and K sensors converted); the words
keep the sensor's unit.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

from ..finding_kind import FindingKind
from ..home import HomeView
from ..models import AnomalyType, EntityState, Finding, Severity
from ..rules.hvac import hvac_action
from ..rules.temperature_bands import celsius_of, line_in_unit, shown
from ..temperatures import attribute_celsius, to_celsius
from .clock import ONE_HOUR, day_number, hour_start
from .cold_rooms import MIN_DAYS, NEIGHBOUR_HOURS, RECENT_HOURS, SUSTAINED, _aired
from .home_baselines import HomeBaselines

RISE = 3.0
RISE_WITH_COOLING = 2.0
AT_SET_POINT = 1.0
COOLING_MODES = frozenset({"cool", "heat_cool", "auto"})


def _usual_high(
    baselines: HomeBaselines, sensor: EntityState, now: datetime, anybody_home: bool
) -> tuple[float, int] | None:
    """(the high the room is kept at, in °C; days learned), or None before ``MIN_DAYS``."""
    start = hour_start(now)
    values: list[float] = []
    if anybody_home:
        for back in range(-NEIGHBOUR_HOURS, NEIGHBOUR_HOURS + 1):
            _, others = baselines.profiles.same_hour(sensor.entity_id, start + back * ONE_HOUR)
            values += others
        count = len(baselines.profiles.same_hour(sensor.entity_id, start)[1])
    else:
        today = day_number(now, baselines.zone)
        days: set[int] = set()
        for per_hour in baselines.profiles.hours.get(sensor.entity_id) or []:
            for day, value in per_hour:
                if day != today:
                    values.append(value)
                    days.add(day)
        count = len(days)
    if count < MIN_DAYS or not values:
        return None
    high = to_celsius(max(values), sensor.info.unit)
    return None if high is None else (high, count)


def _kept_recently(
    baselines: HomeBaselines, sensor: EntityState, now: datetime, high: float
) -> bool:
    """Whether a closed hour of the last ``RECENT_HOURS`` averaged at or under ``high``."""
    start = hour_start(now)
    for back in range(1, RECENT_HOURS + 1):
        own, _ = baselines.profiles.same_hour(sensor.entity_id, start - back * ONE_HOUR)
        if own is not None and (c := to_celsius(own, sensor.info.unit)) is not None and c <= high:
            return True
    return False


def _above_since(home: HomeView, sensor: EntityState, line: float) -> datetime | None:
    """Since when every reading is over ``line`` (°C): None when the latest is not."""
    since: datetime | None = None
    readings = home.numbers(sensor.entity_id)
    for when, value in reversed(readings):
        celsius = to_celsius(value, sensor.info.unit)
        if celsius is None or celsius <= line:
            break
        since = when
    current = celsius_of(sensor)
    if since is None and not readings and current is not None and current > line:
        since = sensor.last_changed  # no reading in the window: as it reads since then
    return since


def _cooling_words(home: HomeView, climate: EntityState, celsius: float) -> tuple[str, bool] | None:
    """(what the room's unit says, whether it explains the warmth), or None when the unit
    is not cooling the room or keeps it at its set point."""
    if climate.state.lower() not in COOLING_MODES:
        return None
    target = attribute_celsius(climate.attributes, "temperature", home.env.temperature_unit)
    if target is not None and celsius <= target + AT_SET_POINT:
        return None  # kept where it is set
    name = climate.info.name or climate.entity_id
    action = hvac_action(climate)
    if action == "cooling":
        return f"{name} is cooling, yet the room stays this warm.", True
    if target is not None and action in ("idle", "off"):
        return f"{name} is {action} while set to {climate.attributes.get('temperature')}°.", True
    return "", False


ROOM_WARMER_THAN_KEPT = FindingKind(
    "room_warmer_than_kept", AnomalyType.ENVIRONMENTAL_CONFLICT, Severity.MEDIUM
)


def room_warmer_than_kept(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """A cooled room that stays well above the high this home keeps it at.

    Magnitude: °C above the usual high.
    """
    now = home.end
    anybody_home = not home.nobody_home
    cooled: dict[str, list[EntityState]] = {}
    for climate in home.of("climate"):
        if climate.info.area and climate.state.lower() in COOLING_MODES:
            cooled.setdefault(climate.info.area, []).append(climate)
    for area, climates in cooled.items():
        for sensor in home.in_area(area):
            celsius = celsius_of(sensor)
            if celsius is None or sensor.entity_id not in baselines.profiles.hours:
                continue
            said = [(c, *w) for c in climates if (w := _cooling_words(home, c, celsius))]
            if len(said) < len(climates) or not said:
                continue  # a unit of the room keeps it where it is set, or does not cool
            climate, words, explains = max(said, key=lambda item: item[2])
            usual = _usual_high(baselines, sensor, now, anybody_home)
            if usual is None:
                continue
            high, days = usual
            line = high + (RISE_WITH_COOLING if explains else RISE)
            since = _above_since(home, sensor, line)
            if since is None or now - since < SUSTAINED:
                continue
            if not _kept_recently(baselines, sensor, now, high) or _aired(home, area):
                continue
            kept = "at this time of day" if anybody_home else "even while empty"
            yield ROOM_WARMER_THAN_KEPT.finding(
                evidence=(sensor.entity_id, climate.entity_id),
                reasoning=f"{sensor.info.name} reads {shown(sensor)}: {area} is well above "
                f"the highest it is kept at {kept} ({line_in_unit(high, sensor)}, {days} days "
                f"learned). {words}".strip(),
                recommendation=f"Check the cooling of {area} (the outdoor unit running, its "
                "breaker, the filter) and keep anyone vulnerable cool meanwhile.",
                magnitude=round(celsius - high, 1),
            )
