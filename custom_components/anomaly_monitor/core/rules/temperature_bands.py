"""What a temperature reading can mean in a home: livable, a room too hot or too cold, a
possible fire, or the impossible.

A thermometer that HA puts in an area is taken as that room's air (the rules read HA's
device_class, unit and area, never names). Its reading falls in one band:

- **impossible** below ``COLDEST_POSSIBLE`` (-60 °C: colder than any home's room or
  freezer, and than the outdoors of nearly every inhabited place; a disconnected DS18B20
  reads -127) or above ``HOTTEST_POSSIBLE`` (1,000 °C: hotter than a house fire; the
  16-bit overflows 3276.7 and 6553.5 lie above): no home produces it, the sensor is faulty;
- **fire** above ``FIRE_LINE`` (50 °C): hotter than weather makes a lived-in room (top
  floors in a heat wave reach about 40 °C) and under the 54-65 °C at which
  fixed-temperature heat detectors go off (EN 54-5 class A1; UL 521's 57 °C), so the
  monitor speaks no later than one would. A fire, an overheating appliance, or a failed
  sensor: nothing else heats a room's air that far. A sauna, a boiler room or a sun-baked
  attic can be that hot as its normal: the learned baseline says so
  (``baselines/usual_extremes.py``). A sensor without an area may be outdoors in the sun:
  its line is ``FIRE_LINE_NO_AREA`` (60 °C), and it has no hot or cold band;
- **hot** above ``HOT_ROOM`` (35 °C): no fire, but hotter than people and pets stay
  safe in for long (heat stroke), or heating stuck on, or the sun on the sensor;
- **cold** below ``COLD_ROOM`` (5 °C, the frost-protection set point of thermostats) and
  **freezing** at or below 0 °C: the heating failed or a window stayed open, and pipes
  may freeze and burst.

Fahrenheit and kelvin thermometers are converted (``core/temperatures.py``), so they are
judged the same way; their words keep the sensor's own unit.
"""

from __future__ import annotations

from enum import StrEnum

from ..models import EntityState
from ..temperatures import in_unit, to_celsius

COLDEST_POSSIBLE = -60.0
HOTTEST_POSSIBLE = 1_000.0
FIRE_LINE = 50.0
FIRE_LINE_NO_AREA = 60.0
HOT_ROOM = 35.0
COLD_ROOM = 5.0
FREEZING = 0.0


class Band(StrEnum):
    """Where a temperature reading lies, from the homeowner's point of view."""

    IMPOSSIBLE = "impossible"
    FIRE = "fire"
    HOT = "hot"
    LIVABLE = "livable"
    COLD = "cold"
    FREEZING = "freezing"


def band_of(celsius: float, in_area: bool) -> Band:
    """The band of a reading in °C, of a room thermometer (``in_area``) or another."""
    if celsius < COLDEST_POSSIBLE or celsius > HOTTEST_POSSIBLE:
        return Band.IMPOSSIBLE
    if not in_area:
        return Band.FIRE if celsius > FIRE_LINE_NO_AREA else Band.LIVABLE
    if celsius > FIRE_LINE:
        return Band.FIRE
    if celsius > HOT_ROOM:
        return Band.HOT
    if celsius <= FREEZING:
        return Band.FREEZING
    return Band.COLD if celsius < COLD_ROOM else Band.LIVABLE


def celsius_of(state: EntityState) -> float | None:
    """A temperature sensor's reading in °C, or ``None`` (not a thermometer, no number)."""
    if state.domain != "sensor" or state.info.device_class != "temperature":
        return None
    value = state.number
    return None if value is None else to_celsius(value, state.info.unit)


def band(state: EntityState) -> Band | None:
    """The band of a temperature sensor's reading, or ``None``."""
    celsius = celsius_of(state)
    return None if celsius is None else band_of(celsius, bool(state.info.area))


def shown(state: EntityState) -> str:
    """The reading as the homeowner's thermometer shows it: "70 °C", "158 °F"."""
    unit = f" {state.info.unit}" if state.info.unit else ""
    value = state.number
    return f"{value:.10g}{unit}" if value is not None else state.state


def line_in_unit(celsius: float, state: EntityState) -> str:
    """A band line in the sensor's unit: "50 °C", "122 °F"."""
    unit = state.info.unit if state.info.unit in ("°F", "K") else "°C"
    return f"{in_unit(celsius, unit):g} {unit}"


def crossed_band(value: float, previous: float | None, unit: str | None, in_area: bool) -> bool:
    """Whether a thermometer's reading ``value`` (``previous`` before it, ``None`` when it
    had none) lies in another band than before: the watcher's significant change, judged
    at once rather than at the next periodic analysis. Entering a band tells it (a possible
    fire or a room freezing before any model: they are urgent); leaving one ends the
    occurrence, so one dismissed as a false alarm is over before the next is told (at the
    first analysis without it). Not each reading inside a band: a sauna at 80 °C must not
    start an analysis (a model's, maybe) every reading."""
    celsius = to_celsius(value, unit)
    if celsius is None:
        return False
    now = band_of(celsius, in_area)
    before = None if previous is None else to_celsius(previous, unit)
    if before is None:
        return now is not Band.LIVABLE
    return band_of(before, in_area) is not now
