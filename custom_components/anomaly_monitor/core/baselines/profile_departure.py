"""A room sensor that has read, hour after hour, what it never reads at those hours.

``HourProfiles`` holds what each temperature, humidity, CO2 or moisture sensor read at
each hour of each day. For the last ``SUSTAINED_HOURS`` closed hours and the current
reading, each is compared with the *same hour* on the other days learned (≥ ``MIN_DAYS``):
beyond the lowest or highest of them by more than a margin (``MARGIN``: 2 °C, 10 %RH,
300 ppm), all on the same side. The daily cycle is part of the comparison (an evening's
heating is judged against other evenings), so what is left is a level that moved and
stayed: a sensor drifting, a damp wall, a radiator stuck open, a window left open in a
room for the afternoon.

Not judged, because something else explains it: a sensor in an area with a thermostat
(the heating's checks judge those rooms; a holiday's eco set point is not a fault); a
temperature that reads within 2 °C of the outdoor temperature (a sensor outside or in an
unheated space follows the weather); and a departure that another sensor of the same
class shares the same way (the whole home moved: a heat wave, the heating season).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

from ..home import HomeView
from ..models import AnomalyType, EntityState, Finding, Severity
from .clock import ONE_HOUR, hour_start
from .home_baselines import HomeBaselines
from .hour_profiles import PROFILED_CLASSES

SUSTAINED_HOURS = 4
MIN_DAYS = 7
MARGIN = {"temperature": 2.0, "humidity": 10.0, "carbon_dioxide": 300.0, "moisture": 10.0}
# A reading this close to the outdoor temperature follows the weather (°C).
OUTDOOR_NEAR = 2.0
_WORDS = {
    "temperature": "temperature",
    "humidity": "humidity",
    "carbon_dioxide": "CO2 level",
    "moisture": "moisture",
}


def _margin(sensor: EntityState) -> float:
    margin = MARGIN[sensor.info.device_class or ""]
    return margin * 1.8 if sensor.info.unit == "°F" else margin


def _side(value: float, others: list[float], margin: float) -> int:
    """+1 above every other day by more than ``margin``, -1 below, 0 within."""
    if value > max(others) + margin:
        return 1
    if value < min(others) - margin:
        return -1
    return 0


def _departure(
    baselines: HomeBaselines, sensor: EntityState, now: datetime
) -> tuple[int, float, float, float, int] | None:
    """(side, last hour, lowest, highest, days) when the sensor left its hours, else None.

    Last hour: the mean of the last closed hour; lowest/highest: that hour on the other
    days learned.
    """
    current = sensor.number
    if current is None:
        return None
    margin = _margin(sensor)
    start = hour_start(now)
    # The current hour (not closed yet): the reading against the same hour's days.
    _, others = baselines.profiles.same_hour(sensor.entity_id, start)
    if len(others) < MIN_DAYS:
        return None
    side = _side(current, others, margin)
    if side == 0:
        return None
    band: tuple[float, float, float, int] | None = None
    first = 1
    if baselines.profiles.same_hour(sensor.entity_id, start - ONE_HOUR)[0] is None:
        first = 2  # the last hour is not closed yet (the baselines advance every 15 min)
    for back in range(first, first + SUSTAINED_HOURS):
        value, others = baselines.profiles.same_hour(sensor.entity_id, start - back * ONE_HOUR)
        if value is None or len(others) < MIN_DAYS or _side(value, others, margin) != side:
            return None
        if band is None:
            band = (value, min(others), max(others), len(others))
    if band is None:
        return None
    return side, *band


def reading_off_its_hours(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """A room sensor beyond every learned day at the same hours, for hours on end.

    Magnitude: how far the current reading is beyond the learned band (its unit; negative
    below).
    """
    now = home.end
    heated = {s.info.area for s in home.of("climate") if s.info.area}
    outdoor = home.env.outdoor_temperature
    found: dict[str, list[tuple[EntityState, tuple[int, float, float, float, int]]]] = {}
    for device_class in sorted(PROFILED_CLASSES):
        for sensor in home.of("sensor", device_class):
            if sensor.entity_id not in baselines.profiles.hours:
                continue
            departure = _departure(baselines, sensor, now)
            if departure is not None:
                found.setdefault(device_class, []).append((sensor, departure))
    for device_class, departures in found.items():
        if len({d[0] for _, d in departures}) < len(departures):
            continue  # two sensors of a class moved the same way: the whole home moved
        for sensor, (side, last, low, high, days) in departures:
            if sensor.info.area in heated:
                continue
            current = sensor.number
            if current is None:
                continue
            if (
                device_class == "temperature"
                and outdoor is not None
                and sensor.info.unit != "°F"
                and abs(current - outdoor) <= OUTDOOR_NEAR
            ):
                continue
            unit = f" {sensor.info.unit}" if sensor.info.unit else ""
            word = _WORDS[device_class]
            yield Finding(
                rule="reading_off_its_hours",
                evidence=(sensor.entity_id,),
                reasoning=f"{sensor.entity_id} reads {current:g}{unit}: for {SUSTAINED_HOURS} "
                f"hours its {word} has been {'above' if side > 0 else 'below'} anything it "
                f"read at the same hours on the {days} other days learned (the last hour "
                f"averaged {last:.1f}{unit}, where those days read {low:.1f}–{high:.1f}{unit}); "
                f"no other {word} sensor moved that way.",
                anomaly_type=AnomalyType.DEVICE_MALFUNCTION,
                severity=Severity.MEDIUM,
                recommendation="Check the sensor (drift, a failing battery, moved near a "
                "heat source) and the room (a window left open, a radiator, damp).",
                magnitude=round(current - (high if side > 0 else low), 2),
            )
