"""An appliance that cycles day and night (a fridge, a freezer, a pump) stopped cycling.

Its power meter's running and idle spells are learned as states (``power.py``): a
compressor runs 20 minutes and rests 40, day and night, hundreds of times a fortnight.
When such a meter has now been idle far longer than it has ever rested, the appliance
stopped starting (dead, unplugged, a tripped breaker, food warming); when it has been
running far longer than it ever runs, it no longer stops (a door ajar, iced up, a
refrigerant leak). HA's vocabulary only: a ``sensor`` of device_class ``power``; no word
of its id or name, so a freezer called "Garage plug" is covered once its cycle is learned
(the word rule ``fridge_stopped_cycling`` covers fridges without a learned cycle).

*Cycles day and night*: at least ``MIN_SPELLS`` idle spells learned in each of
``MIN_QUARTERS`` quarters of the day, over at least ``MIN_DAYS`` days learned, never idle
more than ``MAX_REST`` (a washing machine or a TV rests for hours: not a cycling
appliance), and *still so lately*: started at least ``MIN_RECENT_STARTS`` times on each of
the ``RECENT_DAYS`` days before the spell began (``RecentStarts``; a dehumidifier that ran
day and night in a damp week and rarely since, or a heating pump at the end of its
season, is not judged). A run may last ``FACTOR`` times the longest learned run, never
less than ``FLOOR``. A rest is judged by its rests: ``FACTOR`` times their mean, and at
least ``LONGEST_MARGIN`` times the longest (``FLOOR`` at the least). A fridge that rests
30-45 min at every hour and once rested 95 min is told after 2 h 23 min idle, not after
three times that one long rest (4 h 45; a defrost's long rest is a real one: a rest half
as long again is still not told). The rests are those begun at the same quarter of the day when
that quarter has ``MIN_SPELLS`` (``quarter_rest``): a heater on its thermostat rests
45 min all night and once a day, in the warm afternoon, three hours; stopped in a frosty
night, it is judged by its nights, not by that one afternoon gap.

*Watched*, not only remembered: a spell that began before Home Assistant was down (a
restart, a power cut: ``watch_gaps.py``) and goes on after it is remembered across the
gap, but what the appliance did meanwhile was never seen: a fridge cycles unseen through
an hour's restart, and nothing runs through a power cut. Such a spell is told only once
the appliance has also been watched in it, since HA came back, for its longest learned
spell of that kind (it would have changed by then if it were working): a freezer whose
plug stayed off after the power cut is told then, a fridge seen "running" before and
after a restart is not.

A stop is not told when the home shows why: a switch of the meter's area turned off (the
person switched the plug or the appliance off), or a thermostat turned off (the heating
switched off: its circulation pump stops with it, the end of the season), between
``SWITCHED_NEAR`` before the last run ended and the moment the appliance would have
started again at the latest (its longest rest, and ``SWITCHED_NEAR`` more): an appliance
resting when it is switched off simply never starts again. Not for ever: a switch off far
longer than it has ever been off is told, gently (``plug_off.py``); one never seen off in
the days learned, at once, without waiting for the cycle's own limit.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

from ..device_roles import own_meter, same_device
from ..finding_kind import FindingKind
from ..home import HomeView
from ..models import AnomalyType, EntityState, Finding, Severity, parse_number
from .clock import day_number, local
from .home_baselines import HomeBaselines
from .long_stays import at_most, duration_text, learned_from, stay_since
from .plug_off import OffTooLong, first_off, off_limit, off_too_long
from .power import IDLE, RUNNING, power_state
from .watch_gaps import watched_since

MIN_SPELLS = 6
MIN_QUARTERS = 3
MIN_DAYS = 3
MAX_REST = timedelta(hours=3)
FACTOR = 3.0
FLOOR = timedelta(hours=1)
# A rest is not told before it lasts this many times the longest learned (see above).
LONGEST_MARGIN = 1.5
RECENT_DAYS = 3
MIN_RECENT_STARTS = 6
# A switch or thermostat turned off around the stop explains it (see the module's text).
SWITCHED_NEAR = timedelta(minutes=15)


def spell_since(
    home: HomeView, baselines: HomeBaselines, meter: EntityState, spell: str
) -> datetime | None:
    """Since when the meter has been in ``spell``, as far as the data proves it.

    The first of the window's trailing readings of that spell, the meter's own last
    change, and the baselines' remembered spell (which survives a restart of HA).
    """
    since = meter.last_changed
    for transition in reversed(home.history.get(meter.entity_id, [])):
        value = parse_number(transition.state)
        if value is None or power_state(value, meter.info.unit) != spell:
            break
        since = transition.when if since is None else min(since, transition.when)
    remembered = baselines.durations.current.get(meter.entity_id)
    if remembered is not None and remembered[0] == spell:
        since = remembered[1] if since is None else min(since, remembered[1])
    return since


def _learned_cycle(baselines: HomeBaselines, entity_id: str) -> tuple[int, float, float] | None:
    """(idle spells, longest rest, longest run) in minutes, for an appliance that cycles."""
    first, last = baselines.first_seen, baselines.learned_until
    if first is None or last is None or last - first < timedelta(days=MIN_DAYS):
        return None
    spells = baselines.durations.stays.get(entity_id, {})
    idle, running = spells.get(IDLE), spells.get(RUNNING)
    if idle is None or running is None:
        return None
    if sum(1 for bucket in idle if bucket[0] >= MIN_SPELLS) < MIN_QUARTERS:
        return None
    longest_rest = max(bucket[2] for bucket in idle)
    if longest_rest > MAX_REST.total_seconds() / 60:
        return None
    return int(sum(bucket[0] for bucket in idle)), longest_rest, max(b[2] for b in running)


def quarter_rest(
    baselines: HomeBaselines, entity_id: str, since: datetime, longest: float
) -> float:
    """The longest rest (minutes) learned begun at ``since``'s quarter of the day, when
    that quarter has ``MIN_SPELLS``; otherwise ``longest`` (every quarter's)."""
    usual = baselines.durations.usual(entity_id, IDLE, since)
    return usual[2] if usual is not None and usual[0] >= MIN_SPELLS else longest


def _mean_rest(baselines: HomeBaselines, entity_id: str, since: datetime) -> float:
    """The mean rest (minutes) begun at ``since``'s quarter of the day when that quarter
    has ``MIN_SPELLS`` (as ``quarter_rest``), otherwise of every quarter."""
    usual = baselines.durations.usual(entity_id, IDLE, since)
    if usual is not None and usual[0] >= MIN_SPELLS:
        return usual[1]
    buckets = baselines.durations.stays.get(entity_id, {}).get(IDLE, [])
    count = sum(bucket[0] for bucket in buckets)
    return sum(bucket[1] for bucket in buckets) / count if count else 0.0


def _usual_spell(
    baselines: HomeBaselines,
    entity_id: str,
    spell: str,
    since: datetime,
    cycle: tuple[int, float, float],
) -> tuple[float, timedelta]:
    """The longest learned spell (minutes) a ``spell`` begun ``since`` is judged by, and
    how long the spell may last."""
    if spell == IDLE:
        longest = quarter_rest(baselines, entity_id, since, cycle[1])
        mean = _mean_rest(baselines, entity_id, since)
        limit = max(FACTOR * mean, LONGEST_MARGIN * longest)
        return longest, max(FLOOR, timedelta(minutes=limit))
    return cycle[2], max(FLOOR, FACTOR * timedelta(minutes=cycle[2]))


def cycle_stopped_due(home: HomeView, baselines: HomeBaselines | None) -> datetime | None:
    """The earliest moment, after now, that a learned cycling appliance's spell passes its
    limit: the glue analyses then. Otherwise the next periodic analysis tells it, up to 15
    min later, and any change meanwhile (a thermostat's reading, a door) moves that on."""
    if baselines is None:
        return None
    due: list[datetime] = []
    for meter in home.of("sensor", "power"):
        value = meter.number
        spell = power_state(value, meter.info.unit) if value is not None else None
        cycle = _learned_cycle(baselines, meter.entity_id) if spell is not None else None
        if spell is None or cycle is None:
            continue
        since = spell_since(home, baselines, meter, spell)
        if since is not None:
            usual, limit = _usual_spell(baselines, meter.entity_id, spell, since, cycle)
            watched = watched_since(since, baselines.unwatched)
            when = max(since + limit, watched + timedelta(minutes=usual))
            if spell == IDLE and (excuse := _switched_off(home, baselines, meter, since, cycle[1])):
                off = off_limit(home, baselines, excuse)  # told once off past its habit
                if off is None:
                    when = home.end
                elif not first_off(home, baselines, excuse) or not _own_plug(home, excuse, meter):
                    when = max(when, off.since + off.limit)
                else:  # its own plug, never off before: told at the analysis of its change
                    when = off.since
            if when > home.end:
                due.append(when)
    return min(due, default=None)


def idle_limit(
    baselines: HomeBaselines, entity_id: str, since: datetime
) -> tuple[float, timedelta] | None:
    """(the longest rest learned, in minutes, and how long a rest begun ``since`` may last)
    of a meter learned cycling day and night, else None."""
    cycle = _learned_cycle(baselines, entity_id)
    return None if cycle is None else _usual_spell(baselines, entity_id, IDLE, since, cycle)


def cycles_day_and_night(baselines: HomeBaselines, entity_id: str) -> bool:
    """The home learned this power meter cycling day and night (a fridge, a freezer)."""
    return _learned_cycle(baselines, entity_id) is not None


def longest_rest(baselines: HomeBaselines, entity_id: str) -> float | None:
    """The longest rest (minutes) of a meter learned cycling day and night, else None."""
    cycle = _learned_cycle(baselines, entity_id)
    return None if cycle is None else cycle[1]


def switched_off(
    home: HomeView, baselines: HomeBaselines, meter: EntityState, since: datetime
) -> bool:
    """A switch of the meter's area, or a thermostat, turned off as the meter's rest
    ``since`` began (``_switched_off``): the person stopped it."""
    rest = longest_rest(baselines, meter.entity_id)
    return rest is not None and _switched_off(home, baselines, meter, since, rest) is not None


def _recently_regular(baselines: HomeBaselines, entity_id: str, since: datetime) -> int | None:
    """The fewest starts on one of the ``RECENT_DAYS`` days before ``since``'s day, when
    each had at least ``MIN_RECENT_STARTS``; None when the appliance cycled less lately."""
    day = day_number(since, baselines.recent.zone)  # the days the starts were counted in
    starts = baselines.recent.on_days(entity_id, range(day - RECENT_DAYS, day))
    fewest = min(starts)
    return fewest if fewest >= MIN_RECENT_STARTS else None


def _own_plug(home: HomeView, switch: EntityState, meter: EntityState) -> bool:
    """``switch`` feeds ``meter``'s appliance (one device: its plug or relay). Only then is
    its first ever off told at once: another switch of the kitchen turned off (a gas valve
    shut in a leak) as the fridge rests says nothing yet about the fridge."""
    return switch.domain == "switch" and own_meter(home, switch, meter)


def _switched_off(
    home: HomeView,
    baselines: HomeBaselines,
    meter: EntityState,
    since: datetime,
    longest_rest: float,
) -> EntityState | None:
    """A switch of the meter's area, or a thermostat, turned off when the appliance
    stopped: from ``SWITCHED_NEAR`` before its last run ended (``since``) to when it would
    have started again at the latest."""
    earliest = since - SWITCHED_NEAR
    latest = since + timedelta(minutes=longest_rest) + SWITCHED_NEAR
    # A thermostat first: it excuses for the season, a switch only for its habit.
    candidates = list(home.of("climate"))
    # The room's switches, the meter's own first; never another channel of its own relay
    # (that one switches another load: walk30's fridge told by the lamp's channel).
    switches = [
        s
        for s in home.of("switch")
        if meter.info.area
        and s.info.area == meter.info.area
        and (own_meter(home, s, meter) or not same_device(s, meter))
    ]
    candidates += sorted(switches, key=lambda s: not own_meter(home, s, meter))
    for state in candidates:
        # Since when it is off as far as the home knows: HA's ``last_changed`` starts again
        # at a restart (a power cut that stopped HA too), the baselines remember the stay.
        changed = stay_since(home, baselines, state)
        if state.state == "off" and changed is not None and earliest <= changed <= latest:
            return state
    return None


def _across_gap(
    home: HomeView, baselines: HomeBaselines, since: datetime, watched: datetime
) -> str:
    """ " (before Home Assistant was down, 03:20-04:55, and for 1 h 10 min since)" for a
    spell across an unwatched gap, else ""."""
    gap = baselines.unwatched
    if gap is None or watched <= since:
        return ""
    zone = home.env.zone
    return (
        f" (before Home Assistant was down, {local(gap[0], zone):%H:%M}–"
        f"{local(gap[1], zone):%H:%M}, and for {duration_text(home.end - watched)} since)"
    )


_CHECK_STOPPED = (
    "Check that the appliance is plugged in and switched on and that its circuit breaker "
    "has not tripped; if it is a fridge or freezer, that it is still cold. If it was "
    "stopped on purpose (a pump or dehumidifier put away for the season), mark this as a "
    "false alarm."
)
_CHECK_RUNNING = (
    "Check what keeps it running: a fridge or freezer door not shut or ice on its coil, "
    "a pump or dehumidifier that cannot reach its target."
)


CYCLE_STOPPED = FindingKind("cycle_stopped", AnomalyType.DEVICE_MALFUNCTION)


def cycle_stopped(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """A cycling appliance idle (or running) far longer than its learned cycle allows.

    Magnitude: minutes in the spell so far.
    """
    now = home.end
    for meter in home.of("sensor", "power"):
        value = meter.number
        spell = power_state(value, meter.info.unit) if value is not None else None
        if spell is None:
            continue
        cycle = _learned_cycle(baselines, meter.entity_id)
        if cycle is None:
            continue
        cycles, longest_rest, _ = cycle
        since = spell_since(home, baselines, meter, spell)
        if since is None:
            continue
        usual, limit = _usual_spell(baselines, meter.entity_id, spell, since, cycle)
        watched = watched_since(since, baselines.unwatched)
        if now - since <= limit or now - watched <= timedelta(minutes=usual):
            # Not yet past its limit (or watched long enough since HA's downtime), unless
            # its switch, never off before, was turned off: that is seen, not inferred.
            if spell != IDLE:
                continue
            excuse = _switched_off(home, baselines, meter, since, longest_rest)
            if (
                excuse is None
                or not _own_plug(home, excuse, meter)
                or not first_off(home, baselines, excuse)
            ):
                continue
        fewest = _recently_regular(baselines, meter.entity_id, since)
        if fewest is None:
            continue
        lately = f"at least {fewest} times a day on each of the last {RECENT_DAYS} days"
        if spell == IDLE and (excuse := _switched_off(home, baselines, meter, since, longest_rest)):
            if (off := off_too_long(home, baselines, excuse)) is not None:
                yield _left_off(home, meter, off, cycles=cycles, lately=lately, idle=now - since)
            continue
        lasted = duration_text(now - since) + _across_gap(home, baselines, since, watched)
        if spell == IDLE:
            reasoning = (
                f"{meter.entity_id} has drawn almost no power for {lasted}; the appliance "
                f"usually starts again within {duration_text(timedelta(minutes=usual))}"
                f"{'' if usual == longest_rest else ' at this time of day'} "
                f"{learned_from(cycles, 'cycles', f', day and night; it started {lately}')} and "
                "nothing was switched off when it stopped: it stopped cycling."
            )
            severity, advice = Severity.HIGH, _CHECK_STOPPED
        else:
            reasoning = (
                f"{meter.entity_id} has been drawing power without a break for {lasted}; "
                f"the appliance usually rests after "
                f"{at_most(usual, cycles, 'cycles', f'; it started {lately}')}: it no longer stops."
            )
            severity, advice = Severity.MEDIUM, _CHECK_RUNNING
        yield CYCLE_STOPPED.finding(
            evidence=(meter.entity_id,),
            reasoning=reasoning,
            severity=severity,
            recommendation=advice,
            magnitude=round((now - since).total_seconds() / 60, 1),
        )


def _left_off(
    home: HomeView,
    meter: EntityState,
    off: OffTooLong,
    *,
    cycles: int,
    lately: str,
    idle: timedelta,
) -> Finding:
    """The switch that stopped a cycling appliance, off far longer than ever: said gently,
    the person may know (``plug_off.py``). *High* when the switch was never off before:
    told at once, it is the same news as the appliance's own stop (*high*), which a rule
    on the fridge's name tells two hours on (set 3: told twice when this was medium)."""
    at = f"{local(off.since, home.env.zone):%H:%M}"
    off_for = home.end - off.since
    if off_for < timedelta(minutes=1):  # told at once: a plug never seen off
        switched, drawn = f"was switched off at {at}", "draws almost no power since"
    else:
        switched = f"has been switched off since {at}, for {duration_text(off_for)}"
        drawn = f"has drawn almost no power for {duration_text(idle)}"
    return CYCLE_STOPPED.finding(
        evidence=(off.switch, meter.entity_id),
        reasoning=(
            f"{off.switch} {switched}; {off.words()}. {meter.entity_id} beside it cycled "
            f"day and night {learned_from(cycles, 'cycles', f'; it started {lately}')} "
            f"and {drawn}."
        ),
        severity=Severity.MEDIUM if off.stays else Severity.HIGH,
        recommendation=(
            "If a fridge or freezer is on this switch and it was not switched off on purpose, "
            "switch it back on and check that it is still cold; if it was (cleaning, "
            "defrosting), mark this as a false alarm."
        ),
        magnitude=round(idle.total_seconds() / 60, 1),
    )
