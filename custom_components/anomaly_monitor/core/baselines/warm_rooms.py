"""A cooled room climbing well above its set point and its usual: the cooling fails.

``room_colder_than_kept`` (``cold_rooms.py``) tells a heated room falling well below the
low this home keeps; a home that cools had no counterpart. Under a desert summer an air
conditioner whose capacitor failed keeps "cooling" while the house climbs from 25 °C to
32 °C: ``hvac_not_responding`` waits for an *idle* unit, and ``room_too_hot`` for 35 °C
(issue 24: a family in Arizona, told nothing all afternoon). Told when, in a room whose
climate entity is cooling now (its ``hvac_action``; a unit that reports none, an
IR-controlled split unit, by its mode: set to cool, ``hvac_state.action_of``):

- the room reads at least ``RISE`` (2 °C) above the unit's set point **and** above the
  room's usual at this time of day (``HourProfiles``: the median of the same hour and the
  hours beside it on the other days, ≥ ``MIN_DAYS``; the median, so that a setback while
  away is not what the home keeps), every reading for ``SUSTAINED``;
- it has **risen** by ``WARMING`` over the last ``WARMING_SPAN`` (a room being cooled
  down after a return from a setback falls: not a fault);
- it was near its usual within the last ``RECENT_HOURS`` (a rise, not a season).

A home that keeps its cooling on day and night (a desert summer) has every reading of the
room learned under it: before the hours are learned (``MIN_DAYS``), the highest the room
has read since it was first learned stands for its usual, once a day is learned
(``UNDER_COOLING``) and the unit has been set to cool since before the first reading (set
12's Dubai villa: the kids' room kept at 24-24.7 C, its fan-coil tripped on the second
afternoon and the room climbed to 32 C while the Daikin said cool).

A unit that idles far above its set point is ``hvac_not_responding``'s; a unit switched
off (a cool evening) or set higher on purpose (a setback) is the household's choice. Not
told while a door or window of the room is open or was within ``AIRED``. Judged in °C
(°F and K sensors converted); the words keep the sensor's unit.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from statistics import median

from ..finding_kind import FindingKind
from ..home import HomeView
from ..hvac_state import action_of
from ..models import AnomalyType, EntityState, Finding, Severity
from ..rules.temperature_bands import celsius_of, line_in_unit, shown
from ..temperatures import attribute_celsius, to_celsius
from .clock import ONE_HOUR, hour_start
from .cold_rooms import MIN_DAYS, NEIGHBOUR_HOURS, RECENT_HOURS, SUSTAINED, _aired
from .home_baselines import HomeBaselines

RISE = 2.0
WARMING = 0.5
WARMING_SPAN = timedelta(hours=1)
# A room learned this long, all of it under cooling, has shown what the cooling keeps it at.
UNDER_COOLING = timedelta(days=1)


def _usual(
    baselines: HomeBaselines, sensor: EntityState, now: datetime
) -> tuple[float, int] | None:
    """(the room's usual mean at this time of day, in °C; days learned), or None before
    ``MIN_DAYS``: the median of the same hour and the hours beside it on the other days (a
    setback while away, hours at 29 °C, does not become what the home keeps)."""
    start = hour_start(now)
    values: list[float] = []
    for back in range(-NEIGHBOUR_HOURS, NEIGHBOUR_HOURS + 1):
        _, others = baselines.profiles.same_hour(sensor.entity_id, start + back * ONE_HOUR)
        values += others
    count = len(baselines.profiles.same_hour(sensor.entity_id, start)[1])
    if count < MIN_DAYS or not values:
        return None
    usual = to_celsius(median(values), sensor.info.unit)
    return None if usual is None else (usual, count)


def _highest_under_cooling(
    baselines: HomeBaselines, climate: EntityState, sensor: EntityState, now: datetime
) -> tuple[float, float] | None:
    """(the highest the room has read, in °C; days learned) when every reading learned was
    under this unit's cooling: set to cool since before the room's first reading, a day
    (``UNDER_COOLING``) ago or more. None otherwise."""
    first = baselines.ranges.since(sensor.entity_id)
    # Set to cool since: HA's last change of the mode, or the learned spell of that mode
    # (kept across restarts; stored as "cool (cooling)" when the unit reports its action).
    since = climate.last_changed
    spell = baselines.durations.current.get(climate.entity_id)
    if spell is not None and spell[0].partition(" (")[0] == climate.state:
        since = spell[1] if since is None else min(since, spell[1])
    if first is None or since is None or since > first:
        return None
    if now - first < UNDER_COOLING:
        return None
    learned = baselines.ranges.usual(sensor.entity_id, now)
    highest = None if learned is None else to_celsius(learned[4], sensor.info.unit)
    days = (now - first) / timedelta(days=1)
    return None if highest is None else (highest, days)


def _kept(
    baselines: HomeBaselines, climate: EntityState, sensor: EntityState, now: datetime
) -> tuple[float, str] | None:
    """(what the room is kept at, in °C; the words for it, ``{}`` for the value)."""
    if (usual := _usual(baselines, sensor, now)) is not None:
        return usual[0], f"its usual at this time of day ({{}}, {usual[1]} days learned)"
    if (always := _highest_under_cooling(baselines, climate, sensor, now)) is not None:
        return always[0], (
            f"the highest it read under this cooling ({{}}, {always[1]:.1f} days learned)"
        )
    return None


def _kept_recently(
    baselines: HomeBaselines, sensor: EntityState, now: datetime, usual: float
) -> bool:
    """Whether a closed hour of the last ``RECENT_HOURS`` averaged near its usual (within
    half of ``RISE``)."""
    start = hour_start(now)
    for back in range(1, RECENT_HOURS + 1):
        own, _ = baselines.profiles.same_hour(sensor.entity_id, start - back * ONE_HOUR)
        if (
            own is not None
            and (c := to_celsius(own, sensor.info.unit)) is not None
            and c <= usual + RISE / 2
        ):
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


def _warming(home: HomeView, sensor: EntityState, celsius: float) -> bool:
    """The room has risen by ``WARMING`` since the reading ``WARMING_SPAN`` ago."""
    before = [v for when, v in home.numbers(sensor.entity_id) if when <= home.end - WARMING_SPAN]
    if not before:
        return False
    then = to_celsius(before[-1], sensor.info.unit)
    return then is not None and celsius - then >= WARMING


ROOM_WARMER_THAN_KEPT = FindingKind(
    "room_warmer_than_kept", AnomalyType.ENVIRONMENTAL_CONFLICT, Severity.MEDIUM
)


def room_warmer_than_kept(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """A room whose unit is cooling climbs well above its set point and its usual.

    Magnitude: °C above the usual at this time of day.
    """
    now = home.end
    for climate in home.of("climate"):
        if not climate.info.area or action_of(climate.attributes, climate.state) != "cooling":
            continue
        target = attribute_celsius(climate.attributes, "temperature", home.env.temperature_unit)
        if target is None:
            continue
        for sensor in home.in_area(climate.info.area):
            celsius = celsius_of(sensor)
            if celsius is None or sensor.entity_id not in baselines.profiles.hours:
                continue
            learned = _kept(baselines, climate, sensor, now)
            if learned is None:
                continue
            usual, kept = learned
            line = max(target, usual) + RISE
            since = _above_since(home, sensor, line)
            if since is None or now - since < SUSTAINED or not _warming(home, sensor, celsius):
                continue
            if not _kept_recently(baselines, sensor, now, usual) or _aired(home, climate.info.area):
                continue
            name = climate.info.name or climate.entity_id
            yield ROOM_WARMER_THAN_KEPT.finding(
                evidence=(sensor.entity_id, climate.entity_id),
                reasoning=f"{sensor.info.name} reads {shown(sensor)} and is still rising: "
                f"{climate.info.area} is well above {name}'s set point "
                f"({climate.attributes.get('temperature')}°) and "
                f"{kept.format(line_in_unit(usual, sensor))}. {name} is "
                "cooling, yet the room keeps warming.",
                recommendation=f"Check the cooling of {climate.info.area} (the outdoor unit "
                "running, its breaker, the filter) and keep anyone vulnerable cool meanwhile.",
                magnitude=round(celsius - usual, 1),
            )
