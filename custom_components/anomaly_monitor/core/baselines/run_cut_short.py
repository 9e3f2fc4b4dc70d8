"""A long run a meter makes at the same time of day that stopped part-way this time.

A dialysis cycler runs from about 22:15 to 07:30 every night, a pool pump from 09:00 to
15:00 on its timer; a knocked power strip or a failed capacitor stops it at 02:55 or 11:20
and nothing is drawn until somebody notices. ``meter_run_missing`` asks about whole hours
idle at which the meter draws on nearly every day learned: it needs days learned at that
hour, and an hour of a run that *began* (the evening part) was drawn. The meter's own runs
(``MeterRuns``) say it at once: tonight's run began when the runs before it began, every
one of those went on for hours longer, and it fell idle.

Told (``meter_run_cut_short``, device malfunction, medium) when the meter has read idle for
``HOLD`` after a run of at least ``MIN_RUN``, and the runs it made before that began within
``SAME_START`` of the same time of day (on earlier days; ``MeterRuns`` keeps those of 30 min
or more) all lasted ``LONG`` or more, each
within ``STEADY`` of the others (a length set by a timer or a therapy, not a battery that
fills when it is full or a tank that is hot when it is hot), and this run drew for at most
``CUT_SHARE`` of the shortest of them; while the shortest of them would still be drawing.
Not told when the home explains the stop: the meter's own switch reads off (somebody switched
it off, or the timer), a person or tracker left within ``LEFT_NEAR`` of it (a car driven
away from its charger), or a supply voltage fell to nothing within ``LEFT_NEAR`` of it and
reads nothing still (load shedding: the pool pump stops with the grid). No role, no name,
no load: a dialysis cycler drawing 11-180 W, a pool pump at 1.1 kW and a night-tariff
heater are judged alike.

One earlier run is enough when this run began at its time (two runs alike); a meter whose
runs differ in length is not judged until they agree again.

A run shorter than ``MIN_RUN`` is a run begun when the meter's own switch (its relay, its
plug) was switched on for it (within ``SWITCHED_FOR`` before it) and is on still: the
relay says the run was meant to go on (a pool pump's motor that trips its overload a
minute after the timer switched it on, the relay on at 0 W all day).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta, tzinfo

from ..device_roles import own_meter
from ..finding_kind import FindingKind
from ..home import HomeView
from ..models import AnomalyType, EntityState, Finding, Severity
from ..occupancy import presence_of
from ..rules.supply_lost import dropped_at
from .clock import local, moment_text
from .cycles import cycles_day_and_night
from .home_baselines import HomeBaselines
from .long_stays import duration_text
from .meter_runs import Run
from .power import IDLE, power_state

# Idle this long after the run: a stop, not a pause.
HOLD = timedelta(minutes=15)
# The run had begun: it drew this long before it fell idle.
MIN_RUN = timedelta(minutes=30)
# A long stretch: the earlier runs each drew at least this long.
LONG = timedelta(hours=2)
# A supply voltage reading this little (V) has nothing behind it.
NO_VOLTS = 1.0
# The meter's own switch switched on this close before a run: switched on for it.
SWITCHED_FOR = timedelta(minutes=5)
# Begun at about the same time of day.
SAME_START = timedelta(minutes=45)
# The earlier runs agree: the longest at most this many times the shortest.
STEADY = 1.5
# This run drew at most this share of the shortest earlier one: clearly cut short.
CUT_SHARE = 0.6
# Runs alike from which one far shorter (a stop told before) is left out.
SPARED_AFTER = 4
# A person or tracker leaving this close to the stop explains it.
LEFT_NEAR = timedelta(minutes=15)
_DAY_MINUTES = 24 * 60

METER_RUN_CUT_SHORT = FindingKind(
    "meter_run_cut_short", AnomalyType.DEVICE_MALFUNCTION, Severity.MEDIUM
)


def _minute_of_day(when: datetime, zone: tzinfo | None) -> int:
    at = local(when, zone)
    return at.hour * 60 + at.minute


def _same_time(one: datetime, other: datetime, zone: tzinfo | None) -> bool:
    """Begun at about the same local time of day, on another local day."""
    if local(one, zone).date() == local(other, zone).date():
        return False
    apart = abs(_minute_of_day(one, zone) - _minute_of_day(other, zone))
    return min(apart, _DAY_MINUTES - apart) <= SAME_START.total_seconds() / 60


def alike_runs(baselines: HomeBaselines, entity_id: str, run: Run) -> list[Run]:
    """The earlier runs that began at about ``run``'s time of day, when every one was long
    and they agree in length (none otherwise). With ``SPARED_AFTER`` or more, one far
    shorter than the rest (a stop told before) is left out. A meter that also made shorter
    runs at this time (a cooker's usual supper, once left on for hours) is not judged."""
    zone = baselines.zone
    alike = sorted(
        (r for r in baselines.runs.before(entity_id, run) if _same_time(r.start, run.start, zone)),
        key=lambda r: r.length,
    )
    if len(alike) >= SPARED_AFTER and alike[0].length <= CUT_SHARE * alike[1].length:
        alike = alike[1:]
    if not alike or alike[0].length < LONG or alike[-1].length > STEADY * alike[0].length:
        return []  # not a long run here, or one that ends when something is full or hot
    return alike


def _switched_on_for(home: HomeView, meter: EntityState, run: Run) -> bool:
    """The meter's own switch was switched on for ``run`` (just before it) and is on still."""
    return any(
        s.state == "on"
        and s.last_changed is not None
        and timedelta(0) <= run.start - s.last_changed <= SWITCHED_FOR
        and own_meter(home, s, meter)
        for s in home.of("switch")
    )


def _cut_short(home: HomeView, baselines: HomeBaselines, meter: EntityState, run: Run) -> list[Run]:
    """The runs ``run`` falls far short of (none when it does not, or is too short to be a
    run begun)."""
    entity_id = meter.entity_id
    if run.length < MIN_RUN and not _switched_on_for(home, meter, run):
        return []
    alike = alike_runs(baselines, entity_id, run)
    if not alike or run.length > CUT_SHARE * alike[0].length:
        return []
    return alike


def _idle_meters(home: HomeView, baselines: HomeBaselines) -> Iterator[tuple[EntityState, Run]]:
    """The power meters reading idle now, each with the run it made last."""
    for meter in home.of("sensor", "power"):
        value = meter.number
        if value is None or power_state(value, meter.info.unit) != IDLE:
            continue
        run = baselines.runs.last.get(meter.entity_id)
        if run is not None and run.end <= home.end:
            yield meter, run


def run_cut_short_due(home: HomeView, baselines: HomeBaselines | None) -> datetime | None:
    """The earliest moment, after now, that a meter that fell idle part-way through its run
    has been idle ``HOLD``: the glue analyses then (the periodic analysis may come up to
    15 min later)."""
    if baselines is None:
        return None
    due = [
        run.end + HOLD
        for meter, run in _idle_meters(home, baselines)
        if run.end + HOLD > home.end and _cut_short(home, baselines, meter, run)
    ]
    return min(due, default=None)


def _gone_at(home: HomeView, volts: EntityState, stop: datetime) -> bool:
    """The voltage fell to nothing within ``LEFT_NEAR`` of ``stop`` and reads nothing
    still (the window's fall, or its reading of none since then when the window does not
    hold what it read before)."""
    if (gone := dropped_at(home, volts)) is not None:
        return abs(gone - stop) <= LEFT_NEAR
    changed = volts.last_changed
    return (
        volts.number is not None
        and volts.number <= NO_VOLTS
        and changed is not None
        and abs(changed - stop) <= LEFT_NEAR
    )


def _explained(home: HomeView, meter: EntityState, stop: datetime) -> bool:
    """The meter's own switch reads off, somebody left around the stop, or a supply
    voltage fell to nothing with it and reads nothing still (the grid went: load
    shedding, a tripped main; ``supply_lost`` tells the supply, not each appliance)."""
    if any(s.state == "off" and own_meter(home, s, meter) for s in home.of("switch")):
        return True
    if any(_gone_at(home, volts, stop) for volts in home.of("sensor", "voltage")):
        return True
    return any(
        presence_of(p.state) is False
        and p.last_changed is not None
        and abs(p.last_changed - stop) <= LEFT_NEAR
        for p in home.presence_entities
    )


def meter_run_cut_short(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """A meter idle part-way through a run it makes at this time of day, far longer.

    Magnitude: minutes idle so far.
    """
    now, zone = home.end, baselines.zone
    for meter, run in _idle_meters(home, baselines):
        entity_id = meter.entity_id
        if now - run.end < HOLD or not (alike := _cut_short(home, baselines, meter, run)):
            continue
        shortest = alike[0].length
        if now - run.start >= shortest:
            continue  # the runs before would have ended by now too
        if cycles_day_and_night(baselines, entity_id) or _explained(home, meter, run.end):
            continue
        ends = sorted(_minute_of_day(r.end, zone) for r in alike)
        usual_end = ends[len(ends) // 2]
        name = meter.info.name or entity_id
        yield METER_RUN_CUT_SHORT.finding(
            evidence=(entity_id,),
            reasoning=f"{name} began a run at {moment_text(run.start, now, zone)} and has drawn "
            f"almost no power since {local(run.end, zone):%H:%M} "
            f"({duration_text(now - run.end)}); "
            + (
                f"the run it began at this time on {local(alike[0].start, zone):%a} drew "
                if len(alike) == 1
                else f"each of the {len(alike)} runs it began at this time before drew "
            )
            + f"for {duration_text(shortest)} or more, until about "
            f"{usual_end // 60:02d}:{usual_end % 60:02d}: this one stopped part-way"
            + (", its own switch still on." if run.length < MIN_RUN else "."),
            recommendation="Check the appliance on this meter: is it plugged in and switched "
            "on, did its power strip, fuse or cut-out trip, does it show an error?",
            magnitude=round((now - run.end).total_seconds() / 60, 1),
        )
