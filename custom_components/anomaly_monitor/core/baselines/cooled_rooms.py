"""A room cooled far below anything it read here, its cooler running: set far too cold.

``room_colder_than_kept`` judges the rooms a home heats (a climate entity that can heat)
and ``room_too_cold`` waits for 5 °C; a room in a hot city whose air conditioner hangs on
a metering plug has neither. Set 27: a boy with sickle-cell anaemia, whose room must not
be cold, his air conditioner left at 16 °C on high by a broken remote; his room, never
under 24 °C in the days learned, fell to 17 °C by morning, and nothing was told. What
this home learned says it, with no word of a name or an id:

- a room thermometer (a temperature sensor with an area) reads ``DROP`` or more under the
  lowest it read in the ``MIN_DAYS`` or more days learned (``reference.usual_range``: a
  new low settles only hours later, so the fall is judged against the days before it),
  every reading for ``SUSTAINED``, and under ``COOL_ROOM`` (a room cooled from 33 °C to
  25 °C for guests is cooled, not cold: set 12's majlis); a place whose lowest is under
  ``COLD_ROOM`` (a fridge, a freezer, a cold store) is no room kept for people;
- it is colder than the air outside: a failed heating or an open window lets a room fall
  towards the weather, never under it (those are the heating's and the weather's checks,
  and a home that heats in winter never meets this); a room under the outdoors is cooled
  by a machine;
- a cooler of the room runs now, one that has run here before (``USED_RUNS`` runs
  learned, so the room's lowest is what its cooling keeps, not what a room never cooled
  read before its first hot night): a power meter of its area drawing (its learned spell,
  ``power.RUNNING``), or a climate entity of the area cooling (``hvac_state.action_of``)
  that stayed in a cooling mode before.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
import math

from ..finding_kind import FindingKind
from ..home import HomeView
from ..hvac_state import action_of
from ..models import AnomalyType, EntityState, Finding, Severity
from ..rules.temperature_bands import COLD_ROOM, celsius_of, shown
from ..temperatures import converted, in_unit, to_celsius
from .clock import local
from .far_beyond_range import readings_beyond
from .home_baselines import HomeBaselines
from .long_stays import duration_text
from .power import RUNNING
from .reference import usual_range

# Days learned before the room's lowest says how it is kept (``cold_rooms.MIN_DAYS``).
MIN_DAYS = 3.0
# °C under the lowest it ever read: far colder than this home keeps the room.
DROP = 3.0
# Under this a room is cool to anyone sitting or sleeping in it (°C; the WHO asks 18 °C
# of a home, more for the very young, the old and the ill).
COOL_ROOM = 20.0
# Every reading under that line for this long: not a draught on the sensor.
SUSTAINED = timedelta(minutes=30)
# Runs (or stays in a cooling mode) of the cooler learned: it has cooled this room before.
USED_RUNS = 3

ROOM_COOLED_FAR_BELOW_EVER = FindingKind(
    "room_cooled_far_below_ever", AnomalyType.ENVIRONMENTAL_CONFLICT, Severity.MEDIUM
)


def held_beyond(
    home: HomeView, sensor: EntityState, line: float, *, below: bool
) -> datetime | None:
    """Since when every reading of ``sensor`` has been under (``below``) or over ``line``
    (°C), if for ``SUSTAINED`` at least: a room held there, not a draught or a sun patch."""
    in_its_unit = converted(line, "°C", sensor.info.unit)
    if in_its_unit is None:
        return None
    low, high = (in_its_unit, math.inf) if below else (-math.inf, in_its_unit)
    since, _ = readings_beyond(home, sensor, low, high)
    if since is None or home.end - since < SUSTAINED:
        return None
    return since


def _coolers(home: HomeView, baselines: HomeBaselines, area: str) -> list[str]:
    """The room's meters drawing power now and its climate entities cooling now, each
    used ``USED_RUNS`` times before."""
    durations = baselines.durations
    found: list[str] = []
    for state in home.in_area(area):
        entity_id = state.entity_id
        if state.domain == "climate" and action_of(state.attributes, state.state) == "cooling":
            stays = durations.stays.get(entity_id, {})
            cooled = sum(b[0] for mode, s in stays.items() if mode.startswith("cool") for b in s)
            if cooled >= USED_RUNS:
                found.append(entity_id)
        elif state.domain == "sensor" and state.info.device_class == "power":
            spell = durations.current.get(entity_id)
            used = durations.whole_record(entity_id, RUNNING)[0] >= USED_RUNS
            if spell is not None and spell[0] == RUNNING and used:
                found.append(entity_id)
    return found


def degrees_text(celsius: float, sensor: EntityState) -> str:
    """A temperature in the sensor's unit, to a tenth: "24.1 °C", "75.4 °F"."""
    unit = sensor.info.unit if sensor.info.unit in ("°F", "K") else "°C"
    return f"{round(in_unit(celsius, unit), 1):g} {unit}"


def room_cooled_far_below_ever(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """A room far under the lowest it ever read, colder than outdoors, its cooler running.

    Magnitude: °C under the lowest it read before (negative).
    """
    outdoor = home.env.outdoor_temperature  # °C
    if outdoor is None:
        return
    now = home.end
    for sensor in home.of("sensor", "temperature"):
        area = sensor.info.area
        celsius = celsius_of(sensor)
        if area is None or celsius is None or celsius >= outdoor:
            continue
        usual = usual_range(baselines, sensor.entity_id, now)
        if usual is None or usual.days < MIN_DAYS:
            continue
        lowest = to_celsius(usual.lowest, sensor.info.unit)
        if lowest is None or lowest < COLD_ROOM:
            continue
        line = min(lowest - DROP, COOL_ROOM)
        if celsius >= line:
            continue
        since = held_beyond(home, sensor, line, below=True)
        if since is None:
            continue
        coolers = _coolers(home, baselines, area)
        if not coolers:
            continue
        yield ROOM_COOLED_FAR_BELOW_EVER.finding(
            evidence=(sensor.entity_id, *coolers),
            subject=sensor.entity_id,
            reasoning=f"{sensor.info.name or sensor.entity_id} reads {shown(sensor)}, "
            f"far under anything {area} read in the {usual.days:.0f} days learned (never "
            f"under {degrees_text(lowest, sensor)}), and under {degrees_text(line, sensor)} since "
            f"{local(since, home.env.zone):%H:%M} ({duration_text(now - since)}); it is "
            f"{degrees_text(outdoor, sensor)} outdoors, and the room's cooling is running.",
            recommendation=f"Check the air conditioning of {area}: it may be set far too "
            "cold. Keep anyone vulnerable to cold warm meanwhile.",
            magnitude=round(celsius - lowest, 1),
        )
