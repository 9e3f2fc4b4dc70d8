"""A power meter that climbs to half again above anything it read before, and stays.

A home's demand has a daily shape: the meter's peak over the hours it has been watched
says what the household's appliances draw together. A reading half again above that
peak (and at least 500 W more, a large appliance) that holds for half an hour is a load
the home did not run in all those hours: an element stuck on, a heater left running, an
appliance drawing far more than it should. A moment above the peak is a spike
(``reading_spike``); this is a level.

The baseline is the meter's own readings earlier in the window, over at least twelve
hours (a night and a morning, or a day; in a SmartBench replay, the sample's own trace);
the integration's default two-hour window is too short, so it speaks only on windows of
half a day or more.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

from ..finding_kind import FindingKind
from ..home import HomeView
from ..hvac_state import action_from_state as hvac_action
from ..models import AnomalyType, Finding, Severity
from .timeline import intervals, numeric_series

# What the earlier peak must rest on: half the household's day, several readings.
MIN_BASELINE = timedelta(hours=12)
MIN_BASELINE_READINGS = 4
# Half again above the earlier peak, and a large appliance's worth above it.
ABOVE_PEAK = 1.5
MIN_EXCESS_WATTS = 500.0
# Held this long (until the meter reads within the old peak again, or the window ends).
MIN_HOLD = timedelta(minutes=30)
_WATTS_PER_UNIT = {"w": 1.0, "kw": 1000.0, "mw": 1e6}


def _beyond(
    series: list[tuple[datetime, float]], end: datetime
) -> tuple[datetime, datetime, float, float] | None:
    """The first reading far above the earlier peak that held: (when, until, value, old
    peak), ``until`` when it read within the old peak again (or the window's end)."""
    start = series[0][0]
    peak: float | None = None
    for index, (when, value) in enumerate(series):
        ready = when - start >= MIN_BASELINE and index >= MIN_BASELINE_READINGS
        far = peak is not None and value >= ABOVE_PEAK * peak and value - peak >= MIN_EXCESS_WATTS
        if ready and peak is not None and peak > 0 and far:
            back = next((t for t, v in series[index + 1 :] if v <= peak), end)
            if back - when >= MIN_HOLD:
                return when, back, value, peak
        peak = value if peak is None else max(peak, value)
    return None


POWER_BEYOND_ITS_RANGE = FindingKind("power_beyond_its_range", AnomalyType.ENERGY, Severity.MEDIUM)


def power_beyond_its_range(home: HomeView) -> Iterator[Finding]:
    """A power meter reads far above its own earlier peak, for at least half an hour.

    Magnitude: watts above the earlier peak.
    """
    for meter in home.history:
        if home.domain(meter) != "sensor" or home.device_class(meter) != "power":
            continue
        state = home.info(meter)
        unit = (state.info.unit or "W").lower() if state else "w"
        scale = _WATTS_PER_UNIT.get(unit)
        if scale is None:
            continue
        series = [(when, value * scale) for when, value in numeric_series(home, meter)]
        if len(series) <= MIN_BASELINE_READINGS:
            continue
        found = _beyond(series, home.end)
        if found is None:
            continue
        when, until, value, peak = found
        suspects = _running_meanwhile(home, meter, when, until)
        units = [entity for entity in suspects if home.domain(entity) == "climate"]
        yield POWER_BEYOND_ITS_RANGE.finding(
            evidence=(meter, *suspects),
            reasoning=f"{meter} read {value:,.0f} W at {when:%Y-%m-%d %H:%M}, "
            f"{value / peak:.1f}× its highest reading in the "
            f"{(when - series[0][0]).total_seconds() / 3600:.0f} h before "
            f"({peak:,.0f} W), and stayed up: a large load the home had not been running"
            + (f"; {', '.join(units)} heated or cooled meanwhile." if units else "."),
            recommendation="Find what is drawing the extra power (a heater or element left "
            "on, an appliance fault).",
            magnitude=value - peak,
        )


def _running_meanwhile(home: HomeView, meter: str, start: datetime, end: datetime) -> list[str]:
    """Where the extra load may be: each climate unit that heated or cooled while the
    meter stayed above its old peak, with the thermometers and power meters of its area
    (the room it conditions, what it draws). A home's largest loads are its heating and
    cooling; a unit fighting a heat source, or stuck on, shows here."""
    found: list[str] = []
    for climate in home.history_of("climate"):
        ran = any(
            hvac_action(spell.state) in ("heating", "cooling")
            and spell.start <= end
            and spell.end > start
            for spell in intervals(home, climate)
        )
        if not ran:
            continue
        found.append(climate)
        area = home.area(climate)
        if area is None:
            continue
        for other in home.history:
            if other == meter or other in found or home.area(other) != area:
                continue
            if home.domain(other) == "sensor" and home.device_class(other) in (
                "temperature",
                "power",
            ):
                found.append(other)
    return found
