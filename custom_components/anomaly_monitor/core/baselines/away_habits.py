"""Appliances and windows while nobody tracked is home, asked against this home's habits.

``appliance_active_while_away`` tells a load drawing power in an empty home, and
``window_opened_while_away`` a window opened in it, by fixed rules: any load over 100 W,
any window. What they see may be how this home lives:

- an appliance on a timer (a pool pump from 09:00, a water heater in the cheap night
  hours) or in a weekly routine (the washer on three evenings a week) draws at that hour
  on two days a week or more, whoever is home (``MeterHours``): its run while the home is
  empty is the timer's or the routine's, not somebody inside. A load at an hour it seldom draws
  (an air conditioner left cooling the empty house at 10:45) is told as before, and says
  what the meter's hours are;
- a window opened while the home is empty at a time it is opened on other days the home
  was empty (``AwayNormal.regular_entry``: children without a tracker back from school, a
  flatmate airing the kitchen) is how the home is used; one opened at any other time (a
  cellar window at 23:40) is told and says so.

- a load that draws while the home is empty on other days, near that time or at any hour
  (``away_meters``: an untracked grandfather's oxygen concentrator, a towel radiator on
  its thermostat) is how the home lives while the trackers are away; so is one that draws
  around the clock lately, whoever is home (``loads_by_themselves``: a thermostat's).

Too little learned (a fresh install, a meter or window seldom seen): the fixed rule judges
unchanged, and the finding says nothing was learned yet.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from ..home import HomeView
from ..models import Finding
from ..power_units import RUNNING_WATTS
from ..statistics.occupancy import away_periods
from .away_meters import drawn_while_empty
from .clock import day_number, local
from .home_baselines import HomeBaselines
from .loads_by_themselves import around_the_clock
from .power import RUNNING, watts
from .somebody_in import inside_now, opened_from_inside, staying_unknown
from .untracked_judge import untracked_opening

# A meter drawing at an hour on at least ``TIMER_DAYS`` of the days watched then, and on
# at least two days a week of them, draws then by habit: a timer, or a routine kept on
# some days of the week (a wash on three evenings of seven). Half the days was asked once;
# the loads told while away on sets 2-31 drew at that hour on 0 or 1 day, the routines
# told as false alarms on 3 of 7 or 8 (sets 20, 28, 31).
TIMER_SHARE = 2 / 7
TIMER_DAYS = 3
# Minutes a timer's start drifts before the hour it is set for.
TIMER_DRIFT = 10
APPLIANCE_RULES = frozenset({"appliance_active_while_away"})
# A meter seen this long without one idle reading never rests (``_never_rests``).
NEVER_IDLE = timedelta(days=1)
WINDOW_RULES = frozenset({"window_opened_while_away"})


def hour_habit(baselines: HomeBaselines, meter: str, when: datetime) -> tuple[int, int]:
    """(days the meter drew at ``when``'s local hour, days that hour was watched), before
    ``when``'s own day."""
    return baselines.meters.days_at(
        meter,
        local(when, baselines.zone).hour,
        day_number(when, baselines.zone),
        home_only=False,
    )


def by_habit(ran: int, watched: int) -> bool:
    return ran >= TIMER_DAYS and ran >= TIMER_SHARE * watched


def _by_itself(baselines: HomeBaselines, meter: str, began: datetime) -> bool:
    """The run is what the meter does by itself here: while the home was empty before
    (``away_meters``), or around the clock lately (``loads_by_themselves``)."""
    meters = baselines.meters
    return (
        drawn_while_empty(meters, meter, began) is not None
        or around_the_clock(meters, meter, began) is not None
    )


def _never_rests(baselines: HomeBaselines, meter: str, unit: str | None, now: datetime) -> bool:
    """A meter whose lowest reading in the ``NEVER_IDLE`` and more it has been seen is a
    draw (an inverter's load output, a whole home's meter, a server's plug): no one
    appliance a person switched on; its draw says nothing of anyone in (set 13: a Deye
    inverter's load meter, told three times once every power meter was watched). Its
    readings must span that long: watched for days, a meter whose only reading is this
    run's draw (idle since set-up, never changed) has not shown it never rests."""
    first = baselines.ranges.since(meter)
    learned = baselines.ranges.usual(meter)
    if first is None or learned is None or now - first < NEVER_IDLE:
        return False
    lowest = watts(learned[3], unit)
    return lowest is not None and lowest >= RUNNING_WATTS


def _run_began(baselines: HomeBaselines, meter: str, now: datetime) -> datetime:
    current = baselines.durations.current.get(meter)
    return current[1] if current is not None and current[0] == RUNNING else now


def judge_appliance(
    finding: Finding, entity_id: str, baselines: HomeBaselines, home: HomeView
) -> Finding | None:
    """A load while the home is empty: None when every meter of the finding draws at the
    hour its run began on most days (a timer)."""
    del entity_id
    meters = [
        e
        for e in finding.evidence
        if e not in finding.context
        and home.domain(e) == "sensor"
        and home.device_class(e) == "power"
    ]
    if not meters:
        return finding
    if inside_now(baselines, home) is not None or staying_unknown(baselines, home):
        return None  # somebody is in (``somebody_in``), or may be: not an empty home
    for meter in meters:
        began = _run_began(baselines, meter, home.end)
        start = hour_habit(baselines, meter, began)
        if not by_habit(*start) and local(began, baselines.zone).minute >= 60 - TIMER_DRIFT:
            # A timer's run that starts a minute early is the next hour's run.
            start = hour_habit(baselines, meter, began + timedelta(minutes=TIMER_DRIFT))
        # Judged by the hour its run began, not by now: a verdict that changed hour by
        # hour would end and tell the same run again.
        state = home.info(meter)
        if _never_rests(baselines, meter, state.info.unit if state else None, home.end):
            continue  # no one appliance: not a sign of anyone in
        if not by_habit(*start) and not _by_itself(baselines, meter, began):
            ran, watched = start
            name = _name(home, meter)
            hour = f"{local(began, baselines.zone):%H:%M}"
            if watched == 0:
                why = f" Nothing is learned yet of when {name} draws power here."
            else:
                why = (
                    f" {name} began drawing at {hour}; it draws at that hour on {ran} of "
                    f"{watched} days here."
                )
            return replace(finding, reasoning=finding.reasoning + why)
    return None


def _openings(
    home: HomeView, entity_id: str, spans: list[tuple[datetime, datetime]]
) -> list[datetime]:
    opened: list[datetime] = []
    before: str | None = None
    for change in home.changes(entity_id):
        state = change.state.lower()
        opened_now = state == "on" and before in (None, "off")
        if opened_now and any(start < change.when <= end for start, end in spans):
            opened.append(change.when)
        before = state
    return opened


def judge_window(
    finding: Finding, entity_id: str, baselines: HomeBaselines, home: HomeView
) -> Finding | None:
    """A window opened while the home was empty: None when every such opening in the
    window came at a time it is opened on other days the home was empty."""
    del entity_id
    spans = away_periods(home)
    if not spans and home.window.start is not None:
        spans = [(home.window.start, home.end)]  # everybody out before it (a holiday)
    windows = [e for e in finding.evidence if e not in finding.context]
    opened = sorted(
        (when, window)
        for window in windows
        if home.domain(window) == "binary_sensor"
        for when in _openings(home, window, spans)
    )
    if not opened:
        return finding
    for when, window in opened:
        if (
            baselines.away.regular_entry(window, when) is None
            and untracked_opening(baselines, home, window, when) is None
            and opened_from_inside(baselines, home, when) is None
        ):
            at = f"{local(when, baselines.zone):%H:%M}"
            why = f" {_name(home, window)} is not opened at {at} while nobody is home, here."
            return replace(finding, reasoning=finding.reasoning + why)
    return None


def _name(home: HomeView, entity_id: str) -> str:
    info = home.info(entity_id)
    return info.info.name if info is not None else entity_id
