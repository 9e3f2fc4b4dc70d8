"""A power meter drawing far above anything it drew in the days learned, for a while.

``power_beyond_its_range`` (statistics) compares a meter with its own earlier readings in
the analysed window, which needs twelve hours of them: a live home's window holds two.
The baselines keep every meter's learned range (``NumericRanges`` through
``reference.usual_range``: lowest, highest, mean, over how many days), and a new highest
*settles* only hours later, so the reading is judged against what the meter drew before
it. A meter that has drawn, for ``MIN_HOLD`` or more, at least ``ABOVE`` times its learned
highest (and ``MIN_EXCESS_WATTS`` more) is running a load it never ran in those days: a
fridge's defrost heater stuck on, a heater element or pump that no longer switches off,
something new and large plugged into a plug.

HA's vocabulary only: a ``sensor`` of device_class ``power`` in a power unit. Judged only
once its range rests on ``MIN_DAYS`` days and ``MIN_READINGS`` readings, and shows the
appliance running at some point (highest ≥ 10 W): a meter that only ever read standby
has never shown what its appliance draws, so its first run is not news. A moment above
the range is ``reading_spike``'s; an appliance that draws more only briefly (a kettle)
never holds for ``MIN_HOLD``.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

from ..finding_kind import FindingKind
from ..home import HomeView
from ..models import AnomalyType, EntityState, Finding, Severity, parse_number
from ..power_units import RUNNING_WATTS
from .clock import local
from .home_baselines import HomeBaselines
from .long_stays import duration_text
from .power import watts
from .reference import usual_range

ABOVE = 1.5
MIN_EXCESS_WATTS = 50.0
MIN_HOLD = timedelta(minutes=30)
MIN_DAYS = 3.0
MIN_READINGS = 50


def _above_since(home: HomeView, meter: EntityState, limit: float) -> datetime | None:
    """Since when every reading of the meter has been above ``limit`` watts (None: not now)."""
    since = meter.last_changed
    for transition in reversed(home.history.get(meter.entity_id, [])):
        value = parse_number(transition.state)
        reading = watts(value, meter.info.unit) if value is not None else None
        if reading is None or reading <= limit:
            break
        since = transition.when if since is None else min(since, transition.when)
    return since


POWER_ABOVE_ITS_LEARNED_RANGE = FindingKind(
    "power_above_its_learned_range", AnomalyType.ENERGY, Severity.MEDIUM
)


def power_above_its_learned_range(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """A power meter has drawn far above its learned highest for ``MIN_HOLD`` or more.

    Magnitude: watts above the learned highest.
    """
    now = home.end
    for meter in home.of("sensor", "power"):
        value = meter.number
        drawn = watts(value, meter.info.unit) if value is not None else None
        if drawn is None:
            continue
        usual = usual_range(baselines, meter.entity_id, now)
        if usual is None or usual.days < MIN_DAYS or usual.readings < MIN_READINGS:
            continue
        scale = watts(1.0, meter.info.unit) or 1.0
        highest, mean = usual.highest * scale, usual.mean * scale
        if highest < RUNNING_WATTS:
            continue  # never seen running: its first run is not news
        limit = max(ABOVE * highest, highest + MIN_EXCESS_WATTS)
        if drawn <= limit:
            continue
        since = _above_since(home, meter, limit)
        if since is None or now - since < MIN_HOLD:
            continue
        began = local(since, home.env.zone)
        yield POWER_ABOVE_ITS_LEARNED_RANGE.finding(
            evidence=(meter.entity_id,),
            reasoning=f"{meter.entity_id} has drawn {drawn:,.0f} W for "
            f"{duration_text(now - since)}, since {began:%H:%M}: {drawn / highest:.1f}× the "
            f"most it drew in the {usual.days:.0f} days learned ({highest:,.0f} W; on "
            f"average {mean:,.0f} W). Its appliance is drawing far more than it ever does.",
            recommendation="Check what the meter powers (a heating element or pump that does "
            "not switch off, a fault) or what was plugged in.",
            magnitude=round(drawn - highest, 1),
        )
