"""A load that drew on every reading ever seen, now at rest.

A heat cable on a crawl-space pipe, an oxygen concentrator, an aquarium's pump: their
meter reads 182 W or 310 W from the first reading on and never once rests. Such a load
has no cycle to miss and no run whose length could be learned (``cycles``,
``meter_run_cut_short``): it is one endless run. Its meter at rest is news at once: with
its switch still on the load failed (a tripped thermostat, a burnt element); with its
switch off somebody switched off what was never off (the wrong plug's button).

Judged (``ReadingHolds``): a power meter whose every value held before this one was
drawing (``power_units.RUNNING_WATTS`` or more), read for ``MIN_STEADY`` or longer, now
reading at rest; or a small steady load, every value held at least ``STEADY_WATTS``, now
reading ``REST_SHARE`` of its least or less (set 25: the alternating-pressure mattress of
a stroke patient, its pump drawing 9.5 W day and night for a week, unplugged to run the
vacuum and left at 0 W for five hours: under ``RUNNING_WATTS``, it had never "drawn").
Only a meter with a switch on its device (a metering plug or relay: the load's own
supply; a home's mains or grid meter rests when the supply is cut or the sun covers the
home). A meter unavailable is not at rest. Told once per such stop: its next stop is not
(it rested once).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

from ..device_roles import own_meter
from ..finding_kind import FindingKind
from ..home import HomeView
from ..models import AnomalyType, EntityState, Finding, Severity
from .clock import moment_text
from .home_baselines import HomeBaselines
from .long_stays import duration_text
from .power import IDLE, RUNNING, power_state, watts

# A load seen drawing this long without a rest is a steady one (a day and a night at least).
MIN_STEADY = timedelta(hours=24)
# A small load (an air mattress's pump at 9.5 W, under ``RUNNING_WATTS``) that never read
# less than this is steady too; it rests when it reads this share of its least or less.
STEADY_WATTS = 2.0
REST_SHARE = 0.2

STEADY_LOAD_STOPPED = FindingKind(
    "steady_load_stopped", AnomalyType.DEVICE_MALFUNCTION, Severity.MEDIUM
)


def _switch_of(home: HomeView, meter: EntityState) -> EntityState | None:
    """The switch the registry puts on the meter's device (a metering plug or relay): on a
    two-channel relay, the meter's own channel (``own_meter``; walk29: the other channel's,
    off at night, was named, and a failed heater read as switched off)."""
    device = meter.info.device
    if device is None:
        return None
    for switch in home.of("switch"):
        if switch.info.device == device and own_meter(home, switch, meter):
            return switch
    return None


def _steady_rest(number: float, lowest: float, unit: str | None) -> bool:
    """``number`` (at rest by ``power_state``) is a rest of a load that never drew less
    than ``lowest``: one that ran (``RUNNING``), or a small steady one (``STEADY_WATTS``
    or more) now reading ``REST_SHARE`` of it or less."""
    if power_state(lowest, unit) == RUNNING:
        return True
    least, now = watts(lowest, unit), watts(number, unit)
    return (
        least is not None
        and now is not None
        and least >= STEADY_WATTS
        and now <= REST_SHARE * least
    )


def _seen_text(drew: timedelta) -> str:
    """``12 days`` from two days on (walk29: "in the 288 h 49 min seen"), else hours."""
    return f"{drew.days} days" if drew.days >= 2 else duration_text(drew)


def steady_load_stopped(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """A power meter that never rested in the days seen reads at rest.

    Magnitude: the hours it had drawn without a rest.
    """
    now = home.end
    for meter in home.of("sensor", "power"):
        number, unit = meter.number, meter.info.unit
        if number is None or power_state(number, unit) != IDLE:
            continue
        hold = baselines.holds.of(meter.entity_id)
        if hold is None:
            continue
        if hold.value == number:  # the rest is learned: what came before it
            lowest, stopped = hold.lowest, datetime.fromtimestamp(hold.since, UTC)
        else:  # not learned yet: the hold under way was the draw
            values = [hold.value] if hold.lowest is None else [hold.value, hold.lowest]
            lowest, stopped = min(values), meter.last_changed or now
        if lowest is None or not _steady_rest(number, lowest, unit):
            continue  # it rested before (or is just being learned), or still draws
        drew = stopped - datetime.fromtimestamp(hold.first, UTC)
        if drew < MIN_STEADY:
            continue  # cold start: too little seen to call it steady
        if (switch := _switch_of(home, meter)) is None:
            continue  # a home's mains or grid meter: its rests are the supply's, or the sun's
        small = power_state(lowest, unit) != RUNNING
        yield _finding(home, meter, switch, stopped, drew, small=small)


def _finding(
    home: HomeView,
    meter: EntityState,
    switch: EntityState,
    stopped: datetime,
    drew: timedelta,
    *,
    small: bool = False,
) -> Finding:
    name = meter.info.name or meter.entity_id
    # With its day when it stopped before today (walk of session 32: a bare "02:10").
    at = moment_text(stopped, home.end, home.env.zone)
    seen = f"it drew power on every reading in the {_seen_text(drew)} seen, never resting"
    if switch.state == "off":
        why = f"{name} stopped at {at}: its switch was turned off, and {seen}."
        advice = "If it was switched off by mistake, switch it back on."
    elif switch.state == "on":
        why = f"{name} reads nothing since {at} though its switch is still on; {seen}."
        # A small steady load (a mattress pump at 9.5 W) has no thermostat to trip: on
        # a plug that stays on, it was most likely unplugged (set 25, walk of session 32).
        advice = (
            "Check that the appliance is still plugged in: it may have been unplugged, "
            "or it may have failed."
            if small
            else "Check the appliance: it may have failed, tripped its own thermostat, "
            "or been unplugged."
        )
    else:
        why = f"{name} reads nothing since {at}; {seen}."
        advice = "Check the appliance and its switch: it may have failed or been unplugged."
    evidence = (switch.entity_id, meter.entity_id)
    return STEADY_LOAD_STOPPED.finding(
        evidence=tuple(sorted(evidence)),
        reasoning=why,
        recommendation=advice,
        magnitude=round(drew.total_seconds() / 3600, 1),
    )
