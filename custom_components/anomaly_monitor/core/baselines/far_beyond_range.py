"""A reading far beyond everything the sensor has ever read, at any hour.

A sensor with no device class (a glucose monitor in mg/dL, a tank level in %, a pump's
pressure) means only what its own history says: no room band, no physical limit, no
hour profile judges it. What a homeowner expects is simple: told when it reads far beyond
anything it read in the days learned (a type-1 diabetic's night hypo at 45 mg/dL after
days of 99-192, a grey tank at 100 % after days of 4-79 %, a supply voltage at 0 V).

Reference: the sensor's learned lowest and highest (``NumericRanges`` through
``reference.usual_range``; a new extreme settles only hours later, so the reading is
judged against what it read before it), over ``MIN_DAYS`` days and ``MIN_READINGS``
readings. Far beyond: by ``MARGIN_SHARE`` of the learned span, and never less than
``FLOOR_SHARE`` of the larger learned magnitude (a sensor that barely moved has no span
to speak of). Every reading for ``HOLD``, or ``READINGS_BEYOND`` readings in a row: one
stray reading is not told. No id words, no
unit: the same for every such sensor.

Judged: numeric ``sensor`` entities with no device class, and the device classes no
learned range check judges and no weather, season or use swings (``_JUDGED_CLASSES``:
a supply's voltage, a water pressure). Counters (HA's ``state_class`` ``total`` or
``total_increasing``) read new highs by design and are left alone.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

from ..finding_kind import FindingKind
from ..home import HomeView
from ..models import AnomalyType, EntityState, Finding, Severity, parse_number
from .clock import local
from .home_baselines import HomeBaselines
from .long_stays import duration_text
from .reference import usual_range

MIN_DAYS = 2.0
MIN_READINGS = 10
MARGIN_SHARE = 0.25
FLOOR_SHARE = 0.1
# Every reading beyond for this long, or this many readings in a row: not one stray reading.
HOLD = timedelta(minutes=10)
READINGS_BEYOND = 2
# Device classes judged besides none: what they measure stays put unless something failed.
_JUDGED_CLASSES = frozenset({None, "voltage", "pressure"})
_COUNTERS = frozenset({"total", "total_increasing"})

READING_FAR_BEYOND_ITS_RANGE = FindingKind(
    "reading_far_beyond_its_range", AnomalyType.DEVICE_MALFUNCTION, Severity.MEDIUM
)


def readings_beyond(
    home: HomeView, sensor: EntityState, low: float, high: float
) -> tuple[datetime | None, int]:
    """(since when every reading has been beyond ``[low, high]`` on the current side, how
    many readings the window holds of that spell)."""
    current = sensor.number
    if current is None or low <= current <= high:
        return None, 0
    above = current > high
    since, readings = sensor.last_changed, 0
    for transition in reversed(home.history.get(sensor.entity_id, [])):
        value = parse_number(transition.state)
        if value is None or (value <= high if above else value >= low):
            break
        readings += 1
        since = transition.when if since is None else min(since, transition.when)
    return since, readings


def far_limits(lowest: float, highest: float) -> tuple[float, float]:
    """(low, high) a reading must pass to be far beyond the learned ``lowest``-``highest``."""
    margin = max(MARGIN_SHARE * (highest - lowest), FLOOR_SHARE * max(abs(lowest), abs(highest)))
    return lowest - margin, highest + margin


def reading_far_beyond_its_range(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """A sensor without a band of its own reads far beyond its learned range for ``HOLD``.

    Magnitude: how far beyond the learned range (its unit; negative below).
    """
    now = home.end
    for sensor in home.of("sensor"):
        if sensor.info.device_class not in _JUDGED_CLASSES:
            continue
        current = sensor.number
        if current is None or sensor.attributes.get("state_class") in _COUNTERS:
            continue
        usual = usual_range(baselines, sensor.entity_id, now)
        if usual is None or usual.days < MIN_DAYS or usual.readings < MIN_READINGS:
            continue
        low, high = far_limits(usual.lowest, usual.highest)
        since, readings = readings_beyond(home, sensor, low, high)
        if since is None or (now - since < HOLD and readings < READINGS_BEYOND):
            continue
        above = current > high
        unit = sensor.info.unit
        shown = f" {unit}" if unit else ""
        name = sensor.info.name or sensor.entity_id
        yield READING_FAR_BEYOND_ITS_RANGE.finding(
            evidence=(sensor.entity_id,),
            reasoning=f"{name} reads {current:g}{shown}, far {'above' if above else 'below'} "
            f"anything it read before: in the {usual.days:.0f} days learned it read "
            f"{usual.lowest:g}–{usual.highest:g}{shown}; beyond that since "
            f"{local(since, home.env.zone):%H:%M} ({duration_text(now - since)}).",
            recommendation=f"Check what {name} measures now: a reading it never came near "
            "before is either something wrong there or a faulty sensor.",
            magnitude=round(current - (usual.highest if above else usual.lowest), 2),
        )
