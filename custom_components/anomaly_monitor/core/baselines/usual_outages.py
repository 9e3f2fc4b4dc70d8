"""A supply that goes to nothing as it does on most days here is not out of band.

``mains_voltage_out_of_band`` tells a mains voltage outside nominal ±10 %. Where the grid
comes and goes (a Lagos house on generator and inverter every evening, load-shedding on
most weekdays) the grid voltage reads 0 V for hours each day, and the home runs on; that
is how it is fed, and telling it every day teaches the homeowner to ignore the monitor.
Once the sensor has been read ``MIN_DAYS`` and the supply went to nothing and came back
on at least ``MIN_OUTAGE_DAYS`` days and ``HABIT_SHARE`` of the days read
(``SupplyOutages``), a finding whose readings outside the band are all outages (at most
``VOLTS_GONE`` of nominal) is this home's normal while the outage is no longer than
``FACTOR`` times the longest it came back from (and ``SLACK`` more).

Still told: a voltage that is there but wrong (over the band: a danger to appliances; a
brownout under it), an outage far longer than ever, and every outage of a supply that is
seldom off (a tripped shore-power pedestal, a blown main fuse): a supply that is always
there has no outages learned.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from ..home import HomeView
from ..models import Finding
from ..statistics.timeline import numeric_series
from ..statistics.voltage import MAINS_VOLTAGE_OUT_OF_BAND, mains_band
from .home_baselines import HomeBaselines
from .supply_outages import VOLTS_GONE

MIN_DAYS = 3.0
MIN_OUTAGE_DAYS = 3
HABIT_SHARE = 0.5
FACTOR = 1.5
SLACK = timedelta(minutes=30)


def _longest_here(series: list[tuple[datetime, float]], gone: float, end: datetime) -> timedelta:
    """The longest spell at nothing the window's readings show (one still under way: to
    ``end``)."""
    longest = timedelta(0)
    since: datetime | None = None
    for when, value in series:
        if value <= gone:
            since = since or when
        elif since is not None:
            longest, since = max(longest, when - since), None
    return max(longest, end - since) if since is not None else longest


def usual_outage(home: HomeView, baselines: HomeBaselines, finding: Finding) -> bool:
    """Whether ``finding`` is a supply outage as long as this home's usual ones."""
    if finding.rule != MAINS_VOLTAGE_OUT_OF_BAND.rule or len(finding.evidence) != 1:
        return False
    (sensor,) = finding.evidence
    series = numeric_series(home, sensor)
    if not series or (band := mains_band(series)) is None:
        return False
    nominal, low, high = band
    gone = VOLTS_GONE * nominal
    if any(not low <= value <= high and value > gone for _, value in series):
        return False  # a supply there but wrong: over- or under-voltage is always news
    supply = baselines.supply
    first = supply.first_read(sensor)
    if first is None:
        return False
    watched = (home.end - first) / timedelta(days=1)
    days = supply.outage_days(sensor)
    if watched < MIN_DAYS or days < max(MIN_OUTAGE_DAYS, HABIT_SHARE * watched):
        return False
    longest = timedelta(minutes=supply.longest(sensor))
    lasting = _longest_here(series, gone, home.end)
    if (down := supply.down_since(sensor)) is not None:
        lasting = max(lasting, home.end - down)
    return lasting <= max(FACTOR * longest, longest + SLACK)
