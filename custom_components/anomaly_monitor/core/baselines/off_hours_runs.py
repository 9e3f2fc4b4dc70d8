"""A load switched on at an hour it never starts at, left on in an empty room.

``long_stays`` and ``long_runs`` judge a run by its length: an oil heater whose every run
begins at 20:25-21:05 and lasts the night (10 h 40) is not judged until 32 h when it is
switched on at 07:30 in the morning rush and forgotten, running through the working day
in the children's empty room (set 23). The hour a load starts is as much its routine as
how long it runs (``StateDurations.start_hours``: the local hours its runs began at).

Judged: a switch, fan or valve on, or a power meter running, whose every learned run
(``MIN_RUNS`` or more, whose start hours are known) began within ``BAND_HOURS`` of the day,
and this run at least ``MARGIN_HOURS`` from every hour one began at; with nobody seen in
its room since it began (a motion or occupancy sensor of the area on, or turned on: a
person using it then), and not at an hour it is usually on (begun again in the middle of
its usual run: an electric blanket plugged back in after midnight). Told
(``left_on_past_its_routine``: judged against its own runs, not held while learning)
once it has run as long as its longest run, never under ``FLOOR`` (a kettle's three
minutes are no news), or ``CEILING``, whichever comes first. A load whose runs all last about
as long (a timer, a thermostat set the same: ``timed_stays``' test) shows its hours from
``TIMED_STAYS`` runs already (set 25: a boiler's four 95-min runs from 22:00, stuck on from
12:50); known from fewer than ``MIN_RUNS``, it waits its own longest run, never cut to the
ceiling (a car charged 2 h 44 each morning is not told at 2 h one evening). A load run at every hour
has no band and is never judged here; what the homeowner marked normal while it lasted
is not told again. No word of an id or a name is read.

The hours its runs end at are its routine too (the state it is left for: a switch's
``off``, a meter's ``idle``, their start hours): a run on past its longest run and
``MARGIN_HOURS`` past every hour one ended at (``MIN_RUNS`` ends within ``BAND_HOURS``) is
told, with nobody seen in its room in the ``CEILING`` before (set 23's heater as replayed:
its switch on at 20:59 and never off at 07:xx as on every morning, told at 10:00).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from ..home import HomeView, is_motion
from ..models import EntityState, Finding
from ..statistics.timeline import turned
from .clock import hour_of_day, hour_start, local, moment_text
from .durations import StateDurations
from .home_baselines import HomeBaselines
from .long_runs import plug_switch
from .long_stays import drawing_meters, duration_text, learned_from, marked_normal, stay_since
from .power import IDLE, RUNNING
from .timed_stays import AGREEMENT, LEFT_ON_PAST_ITS_ROUTINE, TIMED_STAYS
from .weather_unlike import weather_unlike_learned_days

# Runs whose start hours are known before the hours are a routine (a week of evenings).
MIN_RUNS = 7
# Every run began within this many hours of the day (a quarter of it)...
BAND_HOURS = 6
# ...and this one at least this many hours from every hour one began at.
MARGIN_HOURS = 3
FLOOR = timedelta(minutes=30)
CEILING = timedelta(hours=2)
# (domain, state on, state it is left for) of what a person switches on.
_ACTIVE = (("switch", "on", "off"), ("fan", "on", "off"), ("valve", "open", "closed"))


@dataclass(frozen=True, slots=True)
class _OffHours:
    """A run begun outside its hours: since when, its limit and the hours learned."""

    state: EntityState
    active: str
    since: datetime
    limit: timedelta
    runs: int
    hours: int  # the hours its runs began at, or ended at (``ends``)
    ends: bool  # judged past the hours its runs end at


def _hours(mask: int) -> list[int]:
    return [hour for hour in range(24) if mask >> hour & 1]


def band_span(mask: int) -> tuple[int, int] | None:
    """(first hour, hours spanned) of the smallest stretch of the day holding every hour
    of ``mask``; None when empty."""
    hours = _hours(mask)
    if not hours:
        return None
    gaps = [(hours[(i + 1) % len(hours)] - hours[i]) % 24 or 24 for i in range(len(hours))]
    widest = max(range(len(hours)), key=lambda i: gaps[i])
    return hours[(widest + 1) % len(hours)], 25 - gaps[widest]


def hours_away(hour: int, mask: int) -> int:
    """How many hours of the day ``hour`` is from the nearest hour of ``mask``."""
    return min((min((hour - h) % 24, (h - hour) % 24) for h in _hours(mask)), default=24)


def _nobody_in_room(home: HomeView, entity_id: str, since: datetime) -> bool:
    """No motion or occupancy sensor of the entity's area is on, or turned on since."""
    area = home.area(entity_id)
    if area is None:
        return True
    for sensor in home.in_area(area):
        if not is_motion(sensor):
            continue
        began = turned(home.changes(sensor.entity_id), "on")
        if sensor.state == "on" or any(when >= since for when in began):
            return False
    return True


def _alike(durations: StateDurations, entity_id: str, state: str) -> bool:
    """Every stay of ``state`` about as long (``timed_stays``' test, every quarter pooled):
    a timer or a thermostat set the same each time, not a person's use of every length."""
    count, mean = durations.whole_mean(entity_id, state)
    longest = durations.whole_record(entity_id, state)[1]
    return count >= TIMED_STAYS and longest > 0 and mean >= AGREEMENT * longest


def _band(
    durations: StateDurations, entity_id: str, state: str, *, few: bool = False
) -> tuple[int, int] | None:
    """(hours mask, stays) when ``MIN_RUNS`` stays of ``state`` all began within a band of
    ``BAND_HOURS`` (``few``: ``TIMED_STAYS`` when the stays are alike); None otherwise."""
    mask, counted = durations.start_hours(entity_id, state)
    needed = TIMED_STAYS if few and _alike(durations, entity_id, state) else MIN_RUNS
    if counted < needed or (span := band_span(mask)) is None or span[1] > BAND_HOURS:
        return None
    return mask, counted


def _usually_on_then(
    baselines: HomeBaselines, entity_id: str, active: str, ended: str, since: datetime
) -> bool:
    """Whether the load is usually on at the hour this run began (begun again in the
    middle of its usual run: an electric blanket plugged back in at 00:36, on every night
    from 20:30 to 06:15). A meter: it drew at that hour on half the days watched or more
    (``MeterHours``); a switch: the hour lies between its runs' start hours and their end
    hours."""
    hour = hour_of_day(since, baselines.zone)
    if active == RUNNING:
        drew, watched = baselines.meters.days_at(
            entity_id, hour, local(since, baselines.zone).toordinal(), home_only=False
        )
        return watched > 0 and 2 * drew >= watched
    began = band_span(baselines.durations.start_hours(entity_id, active)[0])
    ends = band_span(baselines.durations.start_hours(entity_id, ended)[0])
    if began is None or ends is None:
        return False
    return (hour - began[0]) % 24 < (ends[0] - began[0]) % 24  # (up to the first end hour)


def _past_its_end(
    baselines: HomeBaselines, entity_id: str, ended: str, since: datetime, longest: float
) -> tuple[timedelta, int, int] | None:
    """(limit, ends' hours, runs) of a run still on past its longest and ``MARGIN_HOURS``
    past every hour a run of it ended at (the state after it began then)."""
    if (band := _band(baselines.durations, entity_id, ended)) is None:
        return None
    due = since + timedelta(minutes=longest)
    for _ in range(24):  # the first hour far enough from every end (a band: within a day)
        if hours_away(hour_of_day(due, baselines.zone), band[0]) >= MARGIN_HOURS:
            return due - since, band[0], band[1]
        due = hour_start(local(due, baselines.zone)) + timedelta(hours=1)
    return None


def _judged(
    home: HomeView,
    baselines: HomeBaselines,
    state: EntityState,
    active: str,
    *,
    ended: str,
    since: datetime,
) -> _OffHours | None:
    durations = baselines.durations
    if marked_normal(baselines, state.entity_id):
        return None
    _, longest = durations.whole_record(state.entity_id, active)
    taught = baselines.usual.taught_value(state.entity_id, "stay") or 0.0
    found: list[_OffHours] = []
    began = _band(durations, state.entity_id, active, few=True)
    if (
        began is not None
        and began[1] < MIN_RUNS
        and weather_unlike_learned_days(home, baselines, since)
    ):
        began = None  # its few runs say nothing of this weather (``weather_unlike``)
    if (
        began is not None
        and hours_away(hour_of_day(since, baselines.zone), began[0]) >= MARGIN_HOURS
        and not _usually_on_then(baselines, state.entity_id, active, ended, since)
    ):
        limit = max(FLOOR, timedelta(minutes=longest))
        if began[1] >= MIN_RUNS:  # hours well known: never past the ceiling
            limit = min(CEILING, limit)
        found.append(_OffHours(state, active, since, limit, began[1], began[0], False))
    if longest > 0 and (late := _past_its_end(baselines, state.entity_id, ended, since, longest)):
        found.append(_OffHours(state, active, since, late[0], late[2], late[1], True))
    if not found:
        return None
    first = min(found, key=lambda judged: judged.limit)
    # Nobody seen in its room in the hours before it is due (a run begun off its hours:
    # since it began).
    if not _nobody_in_room(home, state.entity_id, max(since, since + first.limit - CEILING)):
        return None
    return replace(first, limit=max(first.limit, timedelta(minutes=taught)))


def _runs_off_hours(home: HomeView, baselines: HomeBaselines) -> Iterator[_OffHours]:
    """Every switch on or meter running, begun outside its learned hours."""
    now = home.end
    for domain, active, ended in _ACTIVE:
        for state in home.of(domain):
            if state.state != active:
                continue
            since = stay_since(home, baselines, state)
            if since is None or since >= now:
                continue
            judged = _judged(home, baselines, state, active, ended=ended, since=since)
            if judged is not None:
                yield judged
    for meter in home.of("sensor", "power"):
        spell = baselines.durations.current.get(meter.entity_id)
        if spell is None or spell[0] != RUNNING or spell[1] >= now:
            continue
        if (
            judged := _judged(home, baselines, meter, RUNNING, ended=IDLE, since=spell[1])
        ) is not None:
            yield judged


def off_hours_run_due(home: HomeView, baselines: HomeBaselines | None) -> datetime | None:
    """The earliest moment, after now, that a run begun outside its hours passes its
    limit: the glue analyses then."""
    if baselines is None:
        return None
    due = [j.since + j.limit for j in _runs_off_hours(home, baselines)]
    return min((when for when in due if when > home.end), default=None)


def left_on_outside_its_hours(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """A load begun at an hour it never starts at, running past its limit in an empty room.

    Magnitude: minutes it has been on.
    """
    now = home.end
    zone = home.env.zone
    told: set[str] = set()
    for judged in _runs_off_hours(home, baselines):  # switches first, then meters
        stayed = now - judged.since
        if stayed <= judged.limit:
            continue
        state = judged.state
        switch = plug_switch(home, state) if judged.active == RUNNING else None
        if switch in told:
            continue  # told by its switch: the same thing left on
        evidence: tuple[str, ...] = (
            (state.entity_id,) if switch is None else (switch, state.entity_id)
        )
        if switch is None:
            evidence += drawing_meters(home, state)
        told.add(evidence[0])
        first, spanned = band_span(judged.hours) or (0, 24)
        band = f"{first:02d}:00 and {(first + spanned) % 24:02d}:00"
        meter = judged.active == RUNNING
        habit = f"{'only ever starts drawing' if meter else 'is only ever switched on'} "
        if judged.ends:
            habit = f"{'always stops drawing' if meter else 'is always switched off'} "
        name = state.info.name or state.entity_id
        word = "running" if meter else judged.active
        area = home.area(state.entity_id)
        watched = area is not None and any(is_motion(s) for s in home.in_area(area))
        room = f" Nobody has been seen in {area} since." if watched else ""
        yield LEFT_ON_PAST_ITS_ROUTINE.finding(
            evidence=evidence,
            subject=evidence[0],
            reasoning=f"{name} has been {word} for {duration_text(stayed)}, since "
            f"{moment_text(judged.since, now, zone)}; in this home it {habit}"
            f"between {band} {learned_from(judged.runs, 'runs')}.{room}",
            recommendation="Check the appliance: it may have been left on by mistake.",
            magnitude=round(stayed.total_seconds() / 60, 1),
        )
