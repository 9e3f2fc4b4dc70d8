"""A home battery carrying the home past anything its outages ever took it to.

A home on an EcoFlow, a Victron bank or an inverter's battery (``HomeBatteries``: its
charge falls only while its supply input reads nothing) lives through its outages: a
scheduled cut of four hours twice a day takes the charge to half and the supply fills it
again. That is the home's normal and nothing is told. Told (high) while the input reads
nothing and the supply has been out at least ``MIN_OFF``, the charge having fallen by
``CARRYING_POINTS`` or more since, when either:

- the charge is below the lowest any earlier outage took it to (``HomeBatteries.lowest``),
  or at ``LOW_CHARGE`` or less: the home is running out;
- the outage has lasted past this supply's longest learned one (``FACTOR`` times it, and
  ``SLACK`` more), as ``supply_off`` judges a grid-status sensor;
- it has lasted ``HOUR_OFF`` at an hour no learned outage ever covered (``MIN_SPANS``
  known with their hours, on ``MIN_SPAN_DAYS`` days, each widened by ``HOUR_MARGIN``),
  the charge falling: a scheduled cut comes at its hours, an attack on the grid or a
  tripped breaker does not (then the fall of ``CARRYING_POINTS`` is not waited for).

The finding names the battery and its input, says the charge and, at the rate it fell
since the supply went, when it will be empty: what the household needs to know to save
the fridge and the router.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

from ..home import HomeView
from ..models import Finding, parse_number
from ..power_units import watts
from .clock import local
from .home_baselines import HomeBaselines
from .home_batteries import GONE_WATTS
from .long_stays import duration_text
from .supply_off import CARRYING_POINTS, FACTOR, LOW_CHARGE, MIN_OFF, SLACK, SUPPLY_OFF_FAR_LONGER

# Outages learned with their hour, on this many days, before one at another hour is news:
# a schedule that differs by weekday (Mon 08:00, Tue 12:00) needs days to show itself.
MIN_SPANS = 6
MIN_SPAN_DAYS = 4
# Out this long at an hour the supply never went out here: news.
HOUR_OFF = timedelta(minutes=30)
# A learned outage's hours, widened each side (a schedule's start jitters).
HOUR_MARGIN = timedelta(minutes=30)


def _charge_at(home: HomeView, battery: str, since: datetime) -> float | None:
    """The battery's charge when the supply went (its last reading before, else its first
    after)."""
    before: float | None = None
    for transition in home.history.get(battery, []):
        value = parse_number(transition.state)
        after = transition.when > since
        if (not after and value is not None) or (after and before is None):
            before = value
    return before


def _overlap(began: datetime, off: timedelta, span: tuple[int, float]) -> bool:
    """Whether the outage under way (from ``began``, ``off`` long so far) falls within a
    learned one's hours (``span``: its start in minutes of the day, its length), widened by
    ``HOUR_MARGIN`` each side; across midnight too."""
    start = began.hour * 60 + began.minute
    end = start + off.total_seconds() / 60
    margin = HOUR_MARGIN.total_seconds() / 60
    first, length = span
    return any(
        start < first + length + margin + shift and first - margin + shift < end
        for shift in (-1440, 0, 1440)
    )


def battery_running_out(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """A home battery falling past its learned lowest, or its supply out past its longest.

    Magnitude: the charge (%).
    """
    batteries = baselines.batteries
    for battery_id in list(batteries.charge):
        meter_id = batteries.input_of(battery_id)
        battery, meter = home.info(battery_id), home.info(meter_id) if meter_id else None
        if battery is None or meter is None or battery.number is None or meter.number is None:
            continue
        if (watts(meter.number, meter.info.unit) or 0.0) > GONE_WATTS:
            continue
        since = baselines.supply.down_since(meter.entity_id)
        if since is None or (off := home.end - since) < MIN_OFF:
            continue
        start = batteries.carrying.get(battery_id) or _charge_at(home, battery_id, since)
        charge = battery.number
        if start is None or charge >= start:
            continue  # not carrying the home (yet)
        zone = home.env.zone
        spans = baselines.supply.spans(meter.entity_id)
        unusual_hour = (
            len(spans) >= MIN_SPANS
            and baselines.supply.outage_days(meter.entity_id) >= MIN_SPAN_DAYS
            and off >= HOUR_OFF
            and not any(_overlap(local(since, zone), off, span) for span in spans)
        )
        lowest = batteries.lowest.get(battery_id)
        longest = timedelta(minutes=baselines.supply.longest(meter.entity_id))
        limit = max(MIN_OFF, FACTOR * longest, longest + SLACK)
        below = charge <= LOW_CHARGE or (lowest is not None and charge < lowest)
        long = bool(longest) and off > limit
        if not unusual_hour and charge > start - CARRYING_POINTS:
            continue
        if not (below or long or unusual_hour):
            continue
        rate = (start - charge) / (off / timedelta(hours=1))  # points an hour
        empty = home.end + timedelta(hours=charge / rate)
        name = battery.info.name or battery_id
        if lowest is not None and charge < lowest:
            usual = f"no outage here took it below {lowest:g} %"
        elif long or not unusual_hour:
            usual = f"the longest outage here lasted {duration_text(longest)}"
        else:
            usual = "the supply was never out at this hour here"
        yield SUPPLY_OFF_FAR_LONGER.finding(
            evidence=(battery_id, meter.entity_id),
            subject=meter.entity_id,
            reasoning=f"{meter.info.name or meter.entity_id} has brought in no power since "
            f"{local(since, zone):%H:%M} ({duration_text(off)}) and {name} is down from "
            f"{start:g} % to {charge:g} %; {usual}. At this rate it is empty by about "
            f"{local(empty, zone):%H:%M}.",
            recommendation="Check whether the grid is down: switch off what the battery need "
            "not carry, keep fridges and freezers shut, and check the breaker or the battery's "
            "input if the neighbours have power.",
            magnitude=round(charge, 1),
        )
