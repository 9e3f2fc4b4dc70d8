"""Water that never stops flowing: a running toilet, a dripping tap, a burst pipe.

A household draws water in bursts (a shower, a flush, the washing machine filling) and
the flow falls back to zero between them. A water meter's flow-rate sensor (HA's
``volume_flow_rate`` device class, or a flow unit) that stays above zero for hours on end
is the classic leak sign water utilities and leak detectors use: something is open. Stated
in HA's vocabulary only (device class and unit), so it needs no words in entity ids.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from statistics import median

from ..finding_kind import FindingKind
from ..home import HomeView
from ..models import AnomalyType, Finding, Severity
from .timeline import numeric_series

FLOW_DEVICE_CLASS = "volume_flow_rate"
# HA's volume flow rate units (UnitOfVolumeFlowRate), for sensors that carry no class.
FLOW_UNITS = frozenset(
    {"L/min", "L/h", "L/s", "m³/h", "m³/min", "m³/s", "mL/s", "gal/min", "ft³/min"}
)
# No use of water in a home runs this long without a pause (a bath fills in 15 min,
# a garden sprinkler programme is an hour or so).
CONTINUOUS_LIMIT = timedelta(hours=2)
# Learned limit: this many times the meter's own typical flowing spell in the window.
TYPICAL_FACTOR = 3.0
MIN_SPELLS_TO_LEARN = 3


def _is_flow_meter(home: HomeView, entity_id: str) -> bool:
    if home.domain(entity_id) != "sensor":
        return False
    if home.device_class(entity_id) == FLOW_DEVICE_CLASS:
        return True
    state = home.info(entity_id)
    return state is not None and state.info.unit in FLOW_UNITS


def flowing_spells(
    readings: list[tuple[datetime, float]], end: datetime
) -> list[tuple[datetime, datetime, bool]]:
    """(start, end, ongoing) of every stretch in which the flow never read zero."""
    spells: list[tuple[datetime, datetime, bool]] = []
    start: datetime | None = None
    for when, value in readings:
        if value > 0 and start is None:
            start = when
        elif value <= 0 and start is not None:
            spells.append((start, when, False))
            start = None
    if start is not None:
        spells.append((start, max(end, start), True))
    return spells


WATER_FLOWING_CONTINUOUSLY = FindingKind(
    "water_flowing_continuously", AnomalyType.SAFETY_HAZARD, Severity.HIGH
)


def water_flowing_continuously(home: HomeView) -> Iterator[Finding]:
    """A water flow-rate sensor never fell to zero for hours.

    Magnitude: the longest unbroken flow, in minutes.
    """
    for entity_id in home.history:
        if not _is_flow_meter(home, entity_id):
            continue
        spells = flowing_spells(numeric_series(home, entity_id), home.end)
        if not spells:
            continue
        completed = [end - start for start, end, ongoing in spells if not ongoing]
        limit = CONTINUOUS_LIMIT
        if len(completed) >= MIN_SPELLS_TO_LEARN:
            typical = timedelta(seconds=median(d.total_seconds() for d in completed))
            limit = max(limit, typical * TYPICAL_FACTOR)
        start, end, ongoing = max(spells, key=lambda spell: spell[1] - spell[0])
        if end - start < limit:
            continue
        hours = (end - start).total_seconds() / 3600
        yield WATER_FLOWING_CONTINUOUSLY.finding(
            evidence=(entity_id,),
            reasoning=f"Water has flowed through {entity_id} without a pause for {hours:.1f} h "
            f"from {start:%Y-%m-%d %H:%M}{', and still does' if ongoing else ''}: a household "
            "uses water in bursts, so something is open or leaking.",
            recommendation="Check taps, toilets and visible pipes; close the main valve if "
            "you find nothing running.",
            magnitude=(end - start).total_seconds() / 60,
        )
