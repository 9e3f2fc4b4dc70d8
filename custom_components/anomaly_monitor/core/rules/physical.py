"""Rules about readings that cannot be physically true, alone or across rooms."""

from __future__ import annotations

from collections.abc import Iterator
from statistics import median

from ..finding_kind import FindingKind
from ..home import HomeView, is_motion, is_on
from ..models import AnomalyType, EntityState, Finding, Severity
from ..temperatures import in_unit
from .context import ids, motion_in, room_temperature, windows_with_angles
from .hvac import hvac_action
from .temperature_bands import (
    COLDEST_POSSIBLE,
    HOTTEST_POSSIBLE,
    Band,
    band,
    celsius_of,
    line_in_unit,
    shown,
)

# What a sensor of each device_class can read at all, anywhere in a home. Temperatures
# have bands of their own (``temperature_bands.py``): only beyond any home is impossible.
PHYSICAL_RANGES: dict[str, tuple[float, float]] = {
    "humidity": (0.0, 100.0),
    "moisture": (0.0, 100.0),
    "battery": (0.0, 100.0),
    "power": (0.0, 50_000.0),
    "illuminance": (0.0, 200_000.0),
    "carbon_dioxide": (250.0, 10_000.0),
    "pressure": (800.0, 1_100.0),
}
# What each device_class measures, for the homeowner's words.
_MEASURES = {"carbon_dioxide": "CO2", "illuminance": "light level", "moisture": "moisture"}
# A room this much warmer than the hottest plausible indoor air needs a heat source.
INDOOR_HOT = 30.0
# A room this far from the home's median temperature is out of line.
ROOM_OUTLIER_GAP = 4.0
_FAULTY = (
    "Check the sensor (battery, wiring, placement, calibration) or replace it: its readings "
    "cannot be trusted."
)


READING_OUTSIDE_PHYSICAL_RANGE = FindingKind(
    "reading_outside_physical_range", AnomalyType.PHYSICAL_VIOLATION, Severity.MEDIUM
)


def reading_outside_physical_range(home: HomeView) -> Iterator[Finding]:
    """A sensor reports a value no home can produce: the sensor is faulty.

    Magnitude: how far outside the range (temperatures in °C, others in the sensor's
    unit): positive above it, negative below it.
    """
    for state in home.of("sensor"):
        device_class = state.info.device_class
        value = state.number
        if value is None:
            continue
        if device_class == "temperature":
            if (finding := _impossible_temperature(state)) is not None:
                yield finding
            continue
        if device_class not in PHYSICAL_RANGES:
            continue
        low, high = PHYSICAL_RANGES[device_class]
        if low <= value <= high:
            continue
        if device_class == "power" and value < low and not _on_a_plug(home, state):
            continue  # a grid or battery meter reads below zero while solar power exports
        unit = f" {state.info.unit}" if state.info.unit else ""
        what = _MEASURES.get(device_class, device_class.replace("_", " "))
        limit = f"above {high:g}{unit}" if value > high else f"below {low:g}{unit}"
        yield READING_OUTSIDE_PHYSICAL_RANGE.finding(
            evidence=(state.entity_id,),
            reasoning=f"{state.info.name} reads {value:g}{unit}, an impossible reading: "
            f"{what} cannot be {limit}, so the sensor is faulty.",
            recommendation=_FAULTY,
            magnitude=value - high if value > high else value - low,
        )


def _on_a_plug(home: HomeView, meter: EntityState) -> bool:
    """The meter shares HA's device with a switch: a plug's, which only ever draws."""
    device = meter.info.device
    return device is not None and any(s.info.device == device for s in home.of("switch"))


def _impossible_temperature(state: EntityState) -> Finding | None:
    celsius = celsius_of(state)
    if celsius is None or band(state) is not Band.IMPOSSIBLE:
        return None
    hot = celsius > HOTTEST_POSSIBLE
    why = (
        f"hotter than any fire in a home (over {line_in_unit(HOTTEST_POSSIBLE, state)})"
        if hot
        else f"colder than any home gets (under {line_in_unit(COLDEST_POSSIBLE, state)})"
    )
    return READING_OUTSIDE_PHYSICAL_RANGE.finding(
        evidence=(state.entity_id,),
        reasoning=f"{state.info.name} reads {shown(state)}, an impossible reading: {why}, "
        "so the sensor is faulty.",
        recommendation=_FAULTY,
        magnitude=celsius - (HOTTEST_POSSIBLE if hot else COLDEST_POSSIBLE),
    )


def _hot_spot(home: HomeView, state: EntityState) -> bool:
    """A room whose smoke or heat detector is alarming: its heat is a fire, not a fault."""
    return any(
        s.domain == "binary_sensor" and s.info.device_class in ("smoke", "heat") and is_on(s)
        for s in home.in_area(state.info.area)
    )


def _room_temperatures(home: HomeView) -> list[EntityState]:
    rooms: list[EntityState] = []
    for area in home.areas:
        temperature = room_temperature(home, area)
        if temperature is not None:
            rooms.append(temperature)
    return rooms


ROOM_TEMPERATURE_OUT_OF_LINE = FindingKind(
    "room_temperature_out_of_line", AnomalyType.PHYSICAL_VIOLATION, Severity.MEDIUM
)


def room_temperature_out_of_line(home: HomeView) -> Iterator[Finding]:
    """One room is far warmer or colder than the rest of the home with nothing to explain it.

    Magnitude: the room's temperature minus the home's median (°C), negative when colder.
    Every reading is judged in °C (``celsius_of``) and told in the outlier's unit.
    """
    rooms = _room_temperatures(home)
    if len(rooms) < 4:
        return
    readings = {r.entity_id: celsius_of(r) for r in rooms}
    values = [c for c in readings.values() if c is not None]
    if not values:
        return
    centre = median(values)

    def celsius(room: EntityState) -> float:
        reading = readings[room.entity_id]
        return centre if reading is None else reading

    outlier = max(rooms, key=lambda r: abs(celsius(r) - centre))
    value = readings[outlier.entity_id]
    unit = outlier.info.unit

    def told(c: float) -> str:
        return f"{in_unit(c, unit):g}°"

    if value is None or abs(value - centre) < ROOM_OUTLIER_GAP:
        return
    if band(outlier) is not Band.LIVABLE or _hot_spot(home, outlier):
        return  # told as a room too hot or too cold, a fire, or an impossible reading
    area = outlier.info.area
    if any(is_motion(s) and is_on(s) for s in home.in_area(area)):
        return  # someone is there: a shower or cooking explains it
    climates = home.of("climate")
    climate = climates[0] if climates else None
    action = hvac_action(climate) if climate else None
    if climate is not None and climate.info.area == area:
        return  # the thermostat's own room: the HVAC rules judge it
    outdoor = home.env.outdoor_temperature
    if (
        value < centre
        and action != "cooling"  # a home cooled on a cold day: the weather explains nothing
        and outdoor is not None
        and outdoor <= value - ROOM_OUTLIER_GAP
        and not any(s.domain == "climate" for s in home.in_area(area))
    ):
        return  # a room without heating of its own on a cold day: it cools with the weather
    warm = value > centre
    if warm and value > INDOOR_HOT and action not in ("heating",):
        evidence = ids(
            outlier, climate, windows_with_angles(home, climate.info.area if climate else None)
        )
        what = f"{told(value)} with no heating running"
    elif action in ("heating", "cooling") and climate is not None:
        evidence = ids(
            climate,
            room_temperature(home, climate.info.area),
            outlier,
            windows_with_angles(home, area),
            windows_with_angles(home, climate.info.area),
        )
        what = f"{told(value)} while the home is {action} around {told(centre)}"
    else:
        reference = (max if not warm else min)(rooms, key=celsius)
        evidence = ids(
            outlier, reference, motion_in(home, area), motion_in(home, reference.info.area)
        )
        what = f"{told(value)} against {told(celsius(reference))} in {reference.info.area}"
    yield ROOM_TEMPERATURE_OUT_OF_LINE.finding(
        evidence=evidence,
        subject=outlier.entity_id,
        reasoning=f"{outlier.info.name} reads {what}: no room gets that far from the others "
        "without a cause.",
        recommendation="Check the sensor's placement and the room for heat sources or drafts.",
        magnitude=value - centre,
    )
