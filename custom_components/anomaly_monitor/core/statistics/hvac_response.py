"""A room that got colder while its heating ran (or warmer while it was cooled).

Heating on is followed by the room warming, or at least holding; that is the cause and
effect every thermostat relies on. A room that keeps losing degrees reading after reading
while its unit says "heating" has a unit that is not delivering (a failed element or
compressor, no hot water in the radiators, a valve stuck shut, a unit heating another
zone). Small losses are ordinary (a reading just after the heating started, a sensor's
scatter of a degree), so the room must lose several degrees and never recover during the
run. A door or window of the area open during the run explains the loss and is not judged.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from itertools import pairwise
from statistics import median

from ..home import OPENING_DEVICE_CLASSES, HomeView
from ..models import AnomalyType, Finding, Severity
from ..rules.physical import INDOOR_RANGE
from .timeline import Interval, intervals, numeric_series

# Degrees lost against the unit's action: well past a thermometer's scatter (about 1 °C
# between hourly readings in a heated room) and past what one opened door costs.
AGAINST_DEGREES = 3.0
# Readings during the run that show it: a trend, not a moment.
MIN_READINGS = 2
# Readings before the run that give the room's level.
REFERENCE_READINGS = 3
# A power meter of the area that moved this close to the run's start is the unit's.
SAME_MOMENT = timedelta(minutes=1)


def _action(state: str) -> str:
    """What a climate state says the unit does now ("heat (heating)" -> heating)."""
    text = state.lower()
    if "(" in text:  # the action in brackets, not the mode
        text = text.partition("(")[2]
    if "heating" in text:
        return "heating"
    if "cooling" in text:
        return "cooling"
    return "other"


def _opened_during(home: HomeView, area: str, start: datetime, end: datetime) -> bool:
    """Whether a door or window of ``area`` was open at some time in ``start..end``."""
    for entity_id in home.history:
        if home.area(entity_id) != area or home.domain(entity_id) != "binary_sensor":
            continue
        if home.device_class(entity_id) not in OPENING_DEVICE_CLASSES:
            continue
        for spell in intervals(home, entity_id):
            if spell.state.lower() == "on" and spell.start < end and spell.end > start:
                return True
    return False


def _against(home: HomeView, run: Interval, sign: int, thermometer: str) -> float | None:
    """Degrees the room moved against the run (positive), or ``None`` if it did not."""
    series = numeric_series(home, thermometer)
    low, high = INDOOR_RANGE
    if any(not low <= value <= high for _, value in series):
        return None  # a thermometer reading the impossible is told by its own rule
    before = [value for when, value in series if when <= run.start]
    during = [value for when, value in series if run.start < when <= run.end]
    if not before or len(during) < MIN_READINGS:
        return None
    # The room's level before the run: its last reading, or the median of its last few if
    # that is lower (heating; higher when cooling), so that one stray reading (34 °C once,
    # between readings of 19) is not taken for a warm room cooling down.
    reference = sign * min(sign * before[-1], sign * median(before[-REFERENCE_READINGS:]))
    moved = [(value - reference) * sign for value in during]
    never_recovered = all(later <= earlier for earlier, later in pairwise(moved))
    if any(step > 0 for step in moved) or not never_recovered or -moved[-1] < AGAINST_DEGREES:
        return None  # it recovered at some point, or lost too little
    return -moved[-1]


def room_moving_against_hvac(home: HomeView) -> Iterator[Finding]:
    """A room kept cooling while heated (or warming while cooled), by several degrees.

    Magnitude: the degrees lost (heating) or gained (cooling, negative) over the run.
    """
    for climate in home.history:
        area = home.area(climate)
        if home.domain(climate) != "climate" or area is None:
            continue
        thermometers = [
            e
            for e in home.history
            if home.domain(e) == "sensor"
            and home.device_class(e) == "temperature"
            and home.area(e) == area
        ]
        if not thermometers:
            continue
        for run in intervals(home, climate):
            action = _action(run.state)
            if action not in ("heating", "cooling"):
                continue
            sign = 1 if action == "heating" else -1
            lost = {t: d for t in thermometers if (d := _against(home, run, sign, t)) is not None}
            if not lost or _opened_during(home, area, run.start, run.end):
                continue
            meters = [
                e
                for e in home.history
                if home.domain(e) == "sensor"
                and home.device_class(e) == "power"
                and home.area(e) == area
                and any(abs(t.when - run.start) <= SAME_MOMENT for t in home.changes(e))
            ]
            worst = max(lost.values())
            word = "colder" if sign > 0 else "warmer"
            yield Finding(
                rule="room_moving_against_hvac",
                evidence=(climate, *sorted(lost), *meters),
                reasoning=f"{climate} was {action} from {run.start:%Y-%m-%d %H:%M}, yet the "
                f"room got {worst:.1f} °C {word} reading after reading: the unit is not "
                f"delivering.",
                anomaly_type=AnomalyType.DEVICE_MALFUNCTION,
                severity=Severity.MEDIUM,
                recommendation="Check the unit (element, compressor, valve, filter) and that it "
                "serves this room.",
                magnitude=round(worst * sign, 1),
            )
            break
