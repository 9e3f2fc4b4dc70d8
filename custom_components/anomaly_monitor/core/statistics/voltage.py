"""Mains voltage outside the band the supply standard promises.

The public supply keeps the voltage within ±10 % of its nominal value (EN 50160 and
IEC 60038 for 230 V: 207-253 V; the same band around 120 V is 108-132 V). A home's
voltage sensor reading outside it says the supply (or the home's own wiring: a loose
neutral, an overloaded or tampered connection upstream) is out of order; appliances and
power supplies are rated for that band. The nominal value is the one the sensor's own
readings sit nearest, so battery and low-voltage sensors (12 V, 3 V) are not judged.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from statistics import median

from ..finding_kind import FindingKind
from ..home import HomeView
from ..models import AnomalyType, Finding, Severity
from .timeline import numeric_series

# Nominal mains voltages, each with the readings that say a sensor measures it.
NOMINALS = ((230.0, 180.0, 280.0), (120.0, 90.0, 150.0))
# The supply standard's band around the nominal voltage.
BAND = 0.10
# Volts at or under which no mains supply is behind a reading (a fifth of the lowest
# nominal, as ``supply_lost`` reads a voltage gone).
NOTHING = 24.0


MAINS_VOLTAGE_OUT_OF_BAND = FindingKind(
    "mains_voltage_out_of_band", AnomalyType.ENERGY, Severity.MEDIUM
)


def mains_band(series: list[tuple[datetime, float]]) -> tuple[float, float, float] | None:
    """The nominal voltage the readings sit nearest and the band around it (None: no
    mains voltage: a battery, a low-voltage supply). Readings at nothing (the supply off)
    say nothing of which supply it is."""
    supplied = [value for _, value in series if value > NOTHING]
    if not supplied:
        return None
    typical = median(supplied)
    nominal = next((n for n, low, high in NOMINALS if low <= typical <= high), None)
    if nominal is None:
        return None
    return nominal, nominal * (1 - BAND), nominal * (1 + BAND)


def mains_voltage_out_of_band(home: HomeView) -> Iterator[Finding]:
    """A mains voltage sensor read outside nominal ±10 %.

    Magnitude: volts beyond the band at the worst reading (negative: under-voltage).
    """
    for sensor in home.history:
        if home.domain(sensor) != "sensor" or home.device_class(sensor) != "voltage":
            continue
        state = home.info(sensor)
        if state is not None and (state.info.unit or "V") != "V":
            continue
        series = numeric_series(home, sensor)
        if not series:
            continue
        if (band := mains_band(series)) is None:
            continue
        nominal, low, high = band
        outside = [(when, v) for when, v in series if not low <= v <= high]
        if not outside:
            continue
        when, value = max(outside, key=lambda item: max(low - item[1], item[1] - high))
        beyond = value - low if value < low else value - high
        yield MAINS_VOLTAGE_OUT_OF_BAND.finding(
            evidence=(sensor,),
            reasoning=f"{sensor} read {value:g} V at {when:%Y-%m-%d %H:%M}"
            f"{f' ({len(outside)} readings)' if len(outside) > 1 else ''}, outside the "
            f"{low:g}-{high:g} V the supply must keep to (nominal {nominal:g} V ±10 %).",
            recommendation="Report it to the grid operator or an electrician: a supply or "
            "connection fault (a loose neutral, an overloaded or tampered line).",
            magnitude=beyond,
        )
