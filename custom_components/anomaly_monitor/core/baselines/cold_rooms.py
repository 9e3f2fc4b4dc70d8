"""A heated room much colder than this home keeps it: the heating stopped, or failed.

``room_too_cold`` tells a room under 5 °C (pipes may freeze): a lounge kept at 22 °C that
falls to 17 °C because the heat pump was switched off, with two elderly people sitting in
it, is far from that and was never told; a heating failure in an empty cottage kept at
11 °C waited for the 5 °C line. The learned hours (``HourProfiles``: each local hour's
mean, day by day) say what each room is kept at:

- **the low it keeps**: while someone is home, the lowest mean of the same hour and the
  hours beside it on the other days learned (≥ ``MIN_DAYS``); while nobody is home, the
  lowest of any hour (a setback to the night's level is how an empty home is kept);
- **well below it**: ``DROP`` (3 °C), or ``DROP_WITH_HEATING`` (2 °C) when the room's own
  heating says why: switched off, or idle or heating while the room is far under its
  set point;
- **for a sustained time**: every reading for ``SUSTAINED`` below that line;
- **a fall, not a season**: the room was at its usual low within the last
  ``RECENT_HOURS`` (a room that drifted down over days with the weather or the season has
  learned its new range).

Only rooms with a climate entity that can heat (the rooms a home heats; an unheated room
follows the weather, and ``reading_off_its_hours`` judges it over hours; a room an air
conditioner only cools is left colder than usual by it, ``can_heat``). Not told when the heating
keeps the room where it is set (a set point lowered on purpose: within ``AT_SET_POINT`` of
it), while a door or window of the room is open or was within ``AIRED`` (airing), nor with
the heating off when the weather is itself far colder than usual (``OUTDOOR_SHIFT``), nor
while the room heats and is warming (``WARMING`` within ``WARMING_SPAN``): the heat is
arriving, from a setback held longer than on other days (the family home late, the room
still at its eco level at 18:00); heat that does not arrive is ``heating_not_warming``'s.
Judged in °C (°F and K sensors converted); the words keep the sensor's unit.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
import re

from ..finding_kind import FindingKind
from ..home import OPENING_DEVICE_CLASSES, HomeView
from ..models import AnomalyType, EntityState, Finding, Severity
from ..rules.hvac import hvac_action
from ..rules.temperature_bands import celsius_of, line_in_unit, shown
from ..temperatures import attribute_celsius, to_celsius
from .clock import ONE_HOUR, day_number, hour_start
from .home_baselines import HomeBaselines
from .profile_departure import OUTDOOR_SHIFT, _outdoor_shift

MIN_DAYS = 3
DROP = 3.0
DROP_WITH_HEATING = 2.0
SUSTAINED = timedelta(minutes=30)
RECENT_HOURS = 12
AT_SET_POINT = 1.0
AIRED = timedelta(hours=1)
# The hours beside the current one that count as "this part of the day".
NEIGHBOUR_HOURS = 1
# A heating room that rose this much (°C) within this span is warming up, not failing.
WARMING = 0.5
WARMING_SPAN = timedelta(hours=1)


def _usual_low(
    baselines: HomeBaselines, sensor: EntityState, now: datetime, anybody_home: bool
) -> tuple[float, int] | None:
    """(the low the room is kept at, in °C; days learned), or None before ``MIN_DAYS``."""
    start = hour_start(now)
    unit = sensor.info.unit
    values: list[float] = []
    days: set[int] = set()
    if anybody_home:
        for back in range(-NEIGHBOUR_HOURS, NEIGHBOUR_HOURS + 1):
            _, others = baselines.profiles.same_hour(sensor.entity_id, start + back * ONE_HOUR)
            values += others
        _, same = baselines.profiles.same_hour(sensor.entity_id, start)
        count = len(same)
    else:
        today = day_number(now, baselines.zone)
        hours = baselines.profiles.hours.get(sensor.entity_id) or ()
        for per_hour in hours:
            for day, value in per_hour:
                if day != today:
                    values.append(value)
                    days.add(day)
        count = len(days)
    if count < MIN_DAYS or not values:
        return None
    low = to_celsius(min(values), unit)
    return None if low is None else (low, count)


def _was_kept_recently(
    baselines: HomeBaselines, sensor: EntityState, now: datetime, low: float
) -> bool:
    """Whether a closed hour of the last ``RECENT_HOURS`` averaged at or above ``low``."""
    start = hour_start(now)
    for back in range(1, RECENT_HOURS + 1):
        own, _ = baselines.profiles.same_hour(sensor.entity_id, start - back * ONE_HOUR)
        if own is not None and (c := to_celsius(own, sensor.info.unit)) is not None and c >= low:
            return True
    return False


def _below_since(home: HomeView, sensor: EntityState, line: float) -> datetime | None:
    """Since when every reading is under ``line`` (°C): None when the latest is not."""
    since: datetime | None = None
    for when, value in reversed(home.numbers(sensor.entity_id)):
        celsius = to_celsius(value, sensor.info.unit)
        if celsius is None or celsius >= line:
            break
        since = when
    current = celsius_of(sensor)
    readings = home.numbers(sensor.entity_id)
    if since is None and not readings and current is not None and current < line:
        since = sensor.last_changed  # no reading in the window: as it reads since then
    return since


def _warming(home: HomeView, sensor: EntityState, celsius: float) -> bool:
    """The room rose by ``WARMING`` or more from its lowest reading of ``WARMING_SPAN``
    (the one in force at its start included)."""
    since = home.end - WARMING_SPAN
    readings = home.numbers(sensor.entity_id)
    before = [r for r in readings if r[0] < since][-1:]
    lows = [
        c
        for _, value in before + [r for r in readings if r[0] >= since]
        if (c := to_celsius(value, sensor.info.unit)) is not None
    ]
    return bool(lows) and celsius - min(lows) >= WARMING


def _aired(home: HomeView, area: str) -> list[str]:
    """The room's doors and windows open now, or closed less than ``AIRED`` ago."""
    aired: list[str] = []
    for opening in home.in_area(area):
        if opening.domain != "binary_sensor":
            continue
        if opening.info.device_class not in OPENING_DEVICE_CLASSES:
            continue
        # Open now, or opened or closed within the hour (the spell before the closing may
        # have begun before the window: the closing is what the window shows of it).
        if opening.state == "on" or any(
            change.when >= home.end - AIRED for change in home.changes(opening.entity_id)
        ):
            aired.append(opening.entity_id)
    return aired


def _heating_words(home: HomeView, climate: EntityState, celsius: float) -> tuple[str, bool] | None:
    """(what the room's heating says, whether it explains the cold), or None when it keeps
    the room at its set point (a set point lowered on purpose)."""
    target = attribute_celsius(climate.attributes, "temperature", home.env.temperature_unit)
    name = climate.info.name or climate.entity_id
    if climate.state.lower() == "off":
        return f"{name} is switched off.", True
    if target is not None and celsius >= target - AT_SET_POINT:
        return None  # kept where it is set
    action = hvac_action(climate)
    if action == "heating":
        return f"{name} is heating, yet the room stays this cold.", True
    if target is not None and action in ("idle", "off"):
        return f"{name} is {action} while set to {_setpoint_text(climate)}.", True
    return "", False


def _heating_of(
    home: HomeView, climates: list[EntityState], celsius: float
) -> tuple[EntityState, str, bool] | None:
    """The room's unit that says most about the cold (one that explains it first), or None
    when one of them keeps the room at its set point."""
    said: list[tuple[EntityState, str, bool]] = []
    for climate in climates:
        heating = _heating_words(home, climate, celsius)
        if heating is None:
            return None
        said.append((climate, *heating))
    return max(said, key=lambda item: item[2]) if said else None


def _setpoint_text(climate: EntityState) -> str:
    value = climate.attributes.get("temperature")
    return f"{value}°"


def room_colder_than_kept(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """A heated room that stays well below the low this home keeps it at.

    Magnitude: °C below the usual low (negative).
    """
    now = home.end
    anybody_home = not home.nobody_home
    weather: float | None = None
    weather_read = False
    heated: dict[str, list[EntityState]] = {}
    for climate in home.of("climate"):
        if climate.info.area and can_heat(climate):
            heated.setdefault(climate.info.area, []).append(climate)
    for area, climates in heated.items():
        for sensor in home.in_area(area):
            celsius = celsius_of(sensor)
            if celsius is None or sensor.entity_id not in baselines.profiles.hours:
                continue
            said = _heating_of(home, climates, celsius)
            if said is None:
                continue  # a unit of the room keeps it where it is set
            climate, words, explains = said
            usual = _usual_low(baselines, sensor, now, anybody_home)
            if usual is None:
                continue
            low, days = usual
            line = low - (DROP_WITH_HEATING if explains else DROP)
            since = _below_since(home, sensor, line)
            if since is None or now - since < SUSTAINED:
                continue
            if not _was_kept_recently(baselines, sensor, now, low) or _aired(home, area):
                continue
            if hvac_action(climate) == "heating" and _warming(home, sensor, celsius):
                continue  # the heat arrives: warming up from a setback held longer
            if climate.state.lower() == "off":
                if not weather_read:
                    weather, weather_read = _outdoor_shift(home, baselines), True
                if weather is not None and weather <= -OUTDOOR_SHIFT:
                    continue  # the heating is off and the weather turned cold: a season
            yield _finding(sensor, climate, (celsius, low, days), words, anybody_home=anybody_home)


# HA's hvac modes of a unit that can heat ("auto" may: it heats or cools to its range).
_HEATING_MODES = frozenset({"heat", "heat_cool", "auto"})


def can_heat(climate: EntityState) -> bool:
    """The unit can heat: its hvac modes hold a heating one, or are not reported. An air
    conditioner that only cools (set 12's majlis: off, cool, dry, fan only) leaves its room
    below the low it is kept at after it cooled it: that room is cooled, not heated."""
    modes = climate.attributes.get("hvac_modes")
    if isinstance(modes, str):  # the window keeps it as its text: "['off', 'cool']"
        modes = re.findall(r"[a-z_]+", modes.lower())
    if not isinstance(modes, list | tuple) or not modes:
        return True
    return any(str(mode).lower() in _HEATING_MODES for mode in modes)


ROOM_COLDER_THAN_KEPT = FindingKind(
    "room_colder_than_kept", AnomalyType.ENVIRONMENTAL_CONFLICT, Severity.MEDIUM
)


def _finding(
    sensor: EntityState,
    climate: EntityState,
    reading: tuple[float, float, int],
    heating: str,
    *,
    anybody_home: bool,
) -> Finding:
    celsius, low, days = reading
    area = sensor.info.area
    kept = (
        f"the lowest it is kept at this time of day ({line_in_unit(low, sensor)}, "
        f"{days} days learned)"
        if anybody_home
        else f"the lowest it is kept at even while empty ({line_in_unit(low, sensor)}, "
        f"{days} days learned)"
    )
    words = f"{sensor.info.name} reads {shown(sensor)}: {area} is well below {kept}."
    return ROOM_COLDER_THAN_KEPT.finding(
        evidence=(sensor.entity_id, climate.entity_id),
        reasoning=f"{words} {heating}".strip(),
        recommendation=f"Check the heating of {area} (switched on, its boiler or heat pump "
        "running) and that no window is open; warm the room if someone is in it.",
        magnitude=round(celsius - low, 1),
    )
