"""A room the home keeps heated: its cold is no excuse of the weather's.

A room sensor that left its learned hours the way the weather did is read as following
the weather (``profile_departure.home_or_weather_moved``): an unheated room cools in a
cold snap. A heated room does not: its heating works harder and holds it (a radiator
valve, a district heating plant run by the weather). Held-out set 25: the district
heating of a panel flat cut for 34 hours at −9 °C, the bedroom falling from the 21.5 °C
it read on every night before to 19.5 and on, with a mother through chemotherapy asleep
in it; the bedroom has no smart radiator and no climate entity, so only its thermometer
tells, and the cold snap excused it.

A room is kept heated at an hour when, on every day learned at that hour (≥
``MIN_DAYS``), it read at least ``HEATED_GAP`` warmer than the warmest the outdoors read
at that hour on those days (the weather's own hour profile), and it is kept about as warm
as the rooms the home's thermostats heat (its median over every hour learned within
``AS_WARM`` of theirs, or warmer): a room that warm is heated by radiators of its own, not
sheltered. A room kept cooler than the heated rooms is warmed through them and cools with
the weather (the shipped Ghent terraced house: bedrooms upstairs at 17.5 °C under a
living room kept at 17-21 °C, falling 3.5 °C in a cold snap, nothing wrong). A home
without a thermostat that heats gives no such measure: not judged. A heated room whose
reading lies ``FALL`` or more below the lowest it read at this hour has lost its heat: the
weather does not explain it, whoever is home (a setback kept while the household is out
is in the hours learned). Judged in °C (°F and K sensors converted).
"""

from __future__ import annotations

from datetime import datetime
from statistics import median

from ..home import HomeView
from ..models import EntityState
from ..rules.temperature_bands import celsius_of
from ..temperatures import to_celsius
from .clock import hour_start
from .home_baselines import OUTDOOR, HomeBaselines

MIN_DAYS = 3
# A room this much warmer (°C) than the warmest outdoors at the hour, every day: heated.
HEATED_GAP = 8.0
# This far (°C) under the lowest the room read at the hour: its heat is gone. The floor
# ``reading_off_its_hours`` judges a temperature's hours by.
FALL = 2.0
# Kept within this (°C) of the level of the rooms the thermostats heat, or warmer: heated.
AS_WARM = 1.0


def _level(baselines: HomeBaselines, sensor: EntityState) -> float | None:
    """The median of every hour learned of ``sensor`` (°C), or None."""
    hours = baselines.profiles.hours.get(sensor.entity_id) or ()
    values = [value for per_hour in hours for _, value in per_hour]
    return to_celsius(median(values), sensor.info.unit) if values else None


def _heated_rooms_level(home: HomeView, baselines: HomeBaselines) -> float | None:
    """The lowest level (``_level``) of the thermometers in rooms with a thermostat that
    heats, or None when the home has none learned."""
    # Imported here: cold_rooms reads the weather's shift from profile_departure, which
    # reads this module.
    from .cold_rooms import can_heat

    areas = {c.info.area for c in home.of("climate") if c.info.area and can_heat(c)}
    levels = [
        level
        for sensor in home.of("sensor", "temperature")
        if sensor.info.area in areas and (level := _level(baselines, sensor)) is not None
    ]
    return min(levels) if levels else None


def kept_heated(
    home: HomeView, baselines: HomeBaselines, sensor: EntityState, now: datetime
) -> float | None:
    """The lowest ``sensor`` read at this hour on the days learned (°C), when the home
    keeps its room heated then (see the module's text); None otherwise."""
    start = hour_start(now)
    _, room = baselines.profiles.same_hour(sensor.entity_id, start)
    _, outdoors = baselines.profiles.same_hour(OUTDOOR, start)
    if len(room) < MIN_DAYS or len(outdoors) < MIN_DAYS:
        return None
    lowest = to_celsius(min(room), sensor.info.unit)
    if lowest is None or lowest - max(outdoors) < HEATED_GAP:
        return None
    # The same for every sensor of the analysis (a cold snap asks it of each room).
    heated = home.shared("kept_heated.heated_level", lambda: _heated_rooms_level(home, baselines))
    level = _level(baselines, sensor)
    if heated is None or level is None or level < heated - AS_WARM:
        return None  # kept cooler than the heated rooms: warmed through them
    return lowest


def heat_lost(home: HomeView, baselines: HomeBaselines, sensor: EntityState) -> bool:
    """A heated room reading ``FALL`` or more under its lowest at the hour: the cold is
    the heating's, not the weather's."""
    celsius = celsius_of(sensor)
    if celsius is None:
        return False
    lowest = kept_heated(home, baselines, sensor, home.end)
    return lowest is not None and lowest - celsius >= FALL
