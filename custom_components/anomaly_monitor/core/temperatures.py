"""Temperatures in °C, the unit every check judges in, whatever unit the home reads.

A thermometer gives its unit (HA's ``unit_of_measurement``: ``EntityInfo.unit``). A climate
entity's ``temperature`` and ``current_temperature`` attributes carry none: HA converts them
to the home's unit system (``Environment.temperature_unit``). The weather's temperature is
given to the core in °C already (the glue reads its ``temperature_unit``). Words keep the
unit the homeowner reads: a 40 °F room is told as 40 °F.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any

from .models import parse_number

if TYPE_CHECKING:
    from .home import HomeView

CELSIUS = "°C"
FAHRENHEIT = "°F"
KELVIN = "K"

# (factor, offset): celsius = value * factor + offset. ``None`` is a thermometer without a
# unit, taken as °C.
_TO_CELSIUS: dict[str | None, tuple[float, float]] = {
    None: (1.0, 0.0),
    CELSIUS: (1.0, 0.0),
    FAHRENHEIT: (5 / 9, -32.0 * 5 / 9),
    KELVIN: (1.0, -273.15),
}


def to_celsius(value: float, unit: str | None) -> float | None:
    """``value`` in °C; ``None`` for a unit HA does not give temperatures in."""
    factor = _TO_CELSIUS.get(unit)
    return None if factor is None else value * factor[0] + factor[1]


def converted(value: float, unit: str | None, to: str | None) -> float | None:
    """A temperature read in ``unit``, in ``to``; ``None`` when either is not a unit HA
    gives temperatures in."""
    celsius = to_celsius(value, unit)
    factor = _TO_CELSIUS.get(to)
    return None if celsius is None or factor is None else (celsius - factor[1]) / factor[0]


def degrees_celsius(span: float, unit: str | None) -> float:
    """A temperature difference in ``unit`` as °C (a spread of 9 °F is 5 °C)."""
    return span * _TO_CELSIUS.get(unit, (1.0, 0.0))[0]


def in_unit(celsius: float, unit: str | None) -> float:
    """``celsius`` in ``unit`` (one of the units ``to_celsius`` reads), rounded for words."""
    factor, offset = _TO_CELSIUS.get(unit, (1.0, 0.0))
    return round((celsius - offset) / factor, 1)


def attribute_celsius(attributes: Mapping[str, Any], key: str, unit: str) -> float | None:
    """A climate (or water heater) attribute such as ``current_temperature`` in °C; HA
    gives it in the home's unit system's ``unit``."""
    value = parse_number(attributes.get(key))
    return None if value is None else to_celsius(value, unit)


def with_unit(value: float, unit: str | None) -> str:
    """A reading as the homeowner reads it: "62.9 °F"; no unit, "21°" (°C assumed)."""
    return f"{value:g} {unit}" if unit in _TO_CELSIUS and unit else f"{value:g}°"


def celsius_series(home: HomeView, entity_id: str) -> list[tuple[datetime, float]]:
    """A thermometer's (or temperature set point's) readings in the window, in °C."""
    state = home.info(entity_id)
    unit = state.info.unit if state is not None else None
    return [(w, c) for w, v in home.numbers(entity_id) if (c := to_celsius(v, unit)) is not None]


def span_in_unit(celsius_span: float, unit: str | None) -> float:
    """A difference stated in °C, in ``unit`` (2 °C is 3.6 °F); other units keep it."""
    return celsius_span / _TO_CELSIUS.get(unit, (1.0, 0.0))[0]


def share_of_level(share: float, level: float, unit: str | None) -> float:
    """``share`` of a reading's level, as a span in ``unit``: for a temperature, of its
    level in °C (5 % of 21 °C is 1.05 °C, 1.9 °F, not 5 % of 69.8 °F); for any other
    unit (%, ppm, W), of the level itself."""
    celsius = to_celsius(level, unit) if unit in (FAHRENHEIT, KELVIN) else level
    return span_in_unit(share * abs(celsius or 0.0), unit)
