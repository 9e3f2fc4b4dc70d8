"""Rules about readings that cannot be physically true."""

from __future__ import annotations

from collections.abc import Iterator

from ..home import HomeView
from ..models import AnomalyType, Finding, Severity

# Plausible ranges per sensor device_class for a home (indoors or at its doorstep).
PHYSICAL_RANGES: dict[str, tuple[float, float]] = {
    "temperature": (-40.0, 60.0),
    "humidity": (0.0, 100.0),
    "moisture": (0.0, 100.0),
    "battery": (0.0, 100.0),
    "power": (0.0, 50_000.0),
    "illuminance": (0.0, 200_000.0),
    "carbon_dioxide": (250.0, 10_000.0),
    "pressure": (800.0, 1_100.0),
}
# Fahrenheit thermometers get their own range.
_FAHRENHEIT_RANGE = (-40.0, 140.0)


def reading_outside_physical_range(home: HomeView) -> Iterator[Finding]:
    """A sensor reports a value outside what is physically possible in a home."""
    for state in home.of("sensor"):
        device_class = state.info.device_class
        if device_class not in PHYSICAL_RANGES:
            continue
        value = state.number
        if value is None:
            continue
        low, high = PHYSICAL_RANGES[device_class]
        if device_class == "temperature" and state.info.unit == "°F":
            low, high = _FAHRENHEIT_RANGE
        if low <= value <= high:
            continue
        unit = f" {state.info.unit}" if state.info.unit else ""
        yield Finding(
            rule="reading_outside_physical_range",
            evidence=(state.entity_id,),
            reasoning=f"{state.info.name} reads {value:g}{unit}, outside the possible "
            f"range {low:g} to {high:g}.",
            anomaly_type=AnomalyType.PHYSICAL_VIOLATION,
            severity=Severity.MEDIUM,
            recommendation="Check or recalibrate the sensor.",
        )
