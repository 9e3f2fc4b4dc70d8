"""An appliance drawing kilowatts far longer than it ever runs here: left on.

``state_longer_than_usual`` judges what a person leaves on by its *switch*; a plug that
stays switched on all the time (the homeowner switches the heater on its own knob) says
nothing there, and ``heat_appliance_left_on`` needs the appliance's role, which a plug
called "Smart Plug 3" does not give (issue 24: a flatmate's oil heater drawing 1.5 kW
from Friday morning to Sunday evening, never told). Its power meter says it: the meter's
running and idle spells are learned like any state (``StateDurations``, ``power.py``),
so a meter running ``FACTOR`` times its longest learned run (for the quarter of the day
the run began in, or every quarter pooled; never less than ``FLOOR``) while drawing a
heating load (``HEATING_LOAD``: an element, not electronics or a compressor) is told,
with what it usually does (a radio drop of a few minutes does not start the run again:
``durations.DROP_BRIDGED``). No word of an id or a name is read.

A meter that runs for hours as its habit (a water heater, an EV charger) has learned
runs that long; one that never stops (a server) has no learned run and is not judged.

A meter kept by a timer or a fixed programme (``timed_stays``: every run about as long),
known from ``WELL_TIMED`` runs (at any time of day), is its own normal whatever it heats:
a transfer pump that fills the roof tank in 14 min, run after run, running for an hour
(its float valve stuck) is told like a heater, once it draws more than a compressor or
electronics do (``MAX_COMPRESSOR_WATTS``: a motor, a pump, an element), a motor at twice
its longest run (``MOTOR_TIMED_FACTOR``: its run is the tank's, not a person's), and any
timed meter past its longest run when it draws ``WEAK_DROP`` less than every run learned
(a pump running dry); and its floor is
``TIMED_FLOOR``, not ``FLOOR`` (a kettle that boils in 3 min, six boils learned, drawing
2 kW for 20 min has not switched itself off); a motor's ``MOTOR_TIMED_FLOOR`` (a pump run
by hand for the garden). A motor whose runs are all a few minutes (``SHORT_RUN``: a pump
its float or pressure switch cuts) is known so from three (``timed_stays.TIMED_STAYS``), and
judged at any draw: a misting pump of 30-s runs at 27 W running dry at 9 W for hours is
stuck (its few watts are a run: ``rest_reading``). The finding says the timer judged it.
A motor's run is set by what it moves, whatever the hour: judged by its quarter's timer, a
run is never told before ``ANY_HOUR_GROWTH`` times the longest it made at any hour (a tank
pump kicked on by the taps for 3 min by day fills the tanks for 35 min when the water
comes at night). A motor known from ``WEAK_RUNS`` runs all about as long, too few for a
timer, is judged as a timed one is, from its first days: past ``MOTOR_TIMED_FACTOR`` times
its longest run, or past the longest when it draws ``WEAK_DROP`` less than each (a tank
pump of three 14-min fills running for three hours on the home's third morning, its float
stuck; a 400-W plug on a schedule of 3-h mornings left on all day when the schedule is
lost: a run twice as long as every one it made is not the same routine).

A meter that heats in its runs (``TIMED_STAYS`` heating spells learned: it drew a heating
load) is a heating appliance whatever it draws now: a coffee maker brews at 1.4 kW and
keeps the jug hot at 70 W, its every run ended at 45 min; its hot plate drawing 70 W for
six hours is an element left on (set 23), judged like a heating load.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

from ..device_roles import MAX_COMPRESSOR_WATTS, own_meter
from ..finding_kind import FindingKind
from ..home import HomeView
from ..models import AnomalyType, EntityState, Finding, Severity, parse_number
from ..power_units import RUNNING_WATTS
from .clock import moment_text
from .durations import MIN_STAYS, quarter_of_day
from .heating_spells import heating_limit
from .home_baselines import HomeBaselines
from .long_stays import at_most, duration_text, marked_normal
from .power import HEATING_WATTS, RUNNING, heating_key, running_key, watts
from .rest_reading import SHORT_RUN, meter_state, short_runner
from .running_draw import HOLD, STEADY_DROP
from .spell_runs import element_spell
from .timed_stays import (
    AGREEMENT,
    LEFT_ON_PAST_ITS_ROUTINE,
    TIMED_FACTOR,
    TIMED_STAYS,
    timed_stays,
)

FACTOR = 3.0
FLOOR = timedelta(hours=1)
# A heating element's draw (a heater, a hob, an iron): electronics and compressors draw
# far less.
HEATING_LOAD = HEATING_WATTS
# A timer or programme known from this many runs (``durations.MIN_STAYS``, what an untimed
# meter needs at a quarter of the day) judges any load above a compressor's...
WELL_TIMED = MIN_STAYS
# ...never under this (not the hour a meter of runs of every length is given)...
TIMED_FLOOR = timedelta(minutes=15)
# ...and a motor or pump (under a heating load) never under this: one started by hand (a
# garden watered from the tank pump, a pool topped up) runs tens of minutes with nothing
# wrong; a stuck float or a split pipe runs for hours (set 14: a tank pump of 1.5-min runs
# watering the garden for 18 min on the home's third evening, told).
MOTOR_TIMED_FLOOR = timedelta(minutes=30)
# A motor's timed run is set by what it moves (the tank it fills, the pressure it builds),
# not by a person's choice as an oven's bake is: run after run as long, a run twice its
# longest has lost its cut-out (a float stuck, a tank that never fills: sets 24 b and d,
# tank pumps of 18 and 22 min told at three times, 55 min into the flood).
MOTOR_TIMED_FACTOR = 2.0
# A timed run drawing this share less than every run learned ever drew is not the routine's
# (a pump lifting no water whines at a lower draw): judged past its longest run, at once
# (set 24 b: a 1,050 W tank pump of 22-min runs dry at 640 W, told only at three times).
# A timer's run does not lengthen when the supply sags, whatever it drives.
WEAK_DROP = STEADY_DROP
WEAK_HOLD = HOLD
# A motor (or any load above a compressor's draw, under a heating load) is judged from this
# many runs learned, all about as long: a run set by what it moves (a tank, a timer) is
# known from two alike, and twice the longest (``MOTOR_TIMED_FACTOR``, never under
# ``MOTOR_TIMED_FLOOR``) is not that run; a run weaker than every one and longer than each
# says more than its length alone (set 29's roof-tank pump, two mornings of 35 min at
# 520 W, running dry at 395 W for two and a half hours on the third).
WEAK_RUNS = 2
# A motor's run at this hour no longer than this many times its longest at any hour is
# what it does: a tank pump kicked on for a few minutes by the taps by day fills the tanks
# for half an hour when the mains water comes at night (set 28); a fill's length is the
# tank's, so the longest of a few is no ceiling.
ANY_HOUR_GROWTH = 1.5
_QUARTER_NAMES = ("at night", "in the morning", "in the afternoon", "in the evening")


def heats_in_its_runs(baselines: HomeBaselines, meter: str) -> bool:
    """The meter has drawn a heating load in ``TIMED_STAYS`` spells learned: an element,
    whatever it draws now (a hot plate keeping the jug warm)."""
    return baselines.durations.whole_record(heating_key(meter), RUNNING)[0] >= TIMED_STAYS


def plug_switch(home: HomeView, meter: EntityState) -> str | None:
    """The plug's own switch, on, when the meter has one: the same thing left on, one
    incident with ``state_longer_than_usual`` about that switch."""
    return next(
        (s.entity_id for s in home.of("switch") if s.state == "on" and own_meter(home, s, meter)),
        None,
    )


APPLIANCE_RUNNING_FAR_LONGER = FindingKind(
    "appliance_running_far_longer", AnomalyType.ENERGY, Severity.MEDIUM
)


type Limit = tuple[EntityState, float, datetime, timedelta, int, float, bool, bool, bool, bool]


def _limits(home: HomeView, baselines: HomeBaselines) -> Iterator[Limit]:
    """(meter, watts, since, limit, runs, longest minutes, pooled, timed, heating, cycled)
    of every meter drawing a heating load now whose runs (or heating spells, or its
    element's spells on its thermostat: ``spell_runs``) are learned enough to judge: the
    one that falls due first."""
    running = baselines.durations.current
    for meter in home.of("sensor", "power"):
        cycled = _cycled(home, baselines, meter)
        spell = running.get(meter.entity_id)
        value = meter.number
        draw = None if value is None else watts(value, meter.info.unit)
        if (
            spell is None
            or spell[0] != RUNNING
            or value is None
            or draw is None
            or _at_rest(baselines, meter, value, home.end)
        ):
            if cycled is not None:  # resting between its element's bursts
                yield meter, *cycled
            continue
        element = heats_in_its_runs(baselines, meter.entity_id)
        weak = _weak_from(home, baselines, meter, draw)
        if (
            draw <= MAX_COMPRESSOR_WATTS
            and not element
            and not short_runner(baselines.durations, meter.entity_id)
            and not _weak_motor(baselines, meter, weak, home.end)
        ):
            continue  # a compressor or electronics; a pump of short runs at any draw
        if any(
            marked_normal(baselines, e) for e in (meter.entity_id, plug_switch(home, meter)) if e
        ):
            continue
        load = max(draw, HEATING_LOAD) if element else draw  # an element at a low setting
        run = _run_limit(baselines, meter.entity_id, load, spell[1], weak)
        found = [] if run is None else [run]
        if draw >= HEATING_LOAD and (heat := heating_limit(baselines.durations, meter.entity_id)):
            found.append((heat[0], heat[1], heat[2], heat[3], True, False, True))
        if found:
            first = min(found, key=lambda f: f[0] + f[1])
            if cycled is None or first[0] + first[1] <= cycled[1] + cycled[2]:
                yield meter, draw, *first, False
                continue
        if cycled is not None:
            yield meter, *cycled


def _cycled(
    home: HomeView, baselines: HomeBaselines, meter: EntityState
) -> tuple[float, datetime, timedelta, int, float, bool, bool, bool, bool] | None:
    """(watts, since, limit, spells, longest minutes, pooled, False, False, True) of the
    meter's element on its thermostat, judged by its spells (``spell_runs``)."""
    spell = element_spell(baselines, meter.entity_id, home.end, FACTOR, FLOOR)
    if spell is None or any(
        marked_normal(baselines, e) for e in (meter.entity_id, plug_switch(home, meter)) if e
    ):
        return None
    since, limit, drew, count, longest, pooled = spell
    return drew, since, limit, count, longest, pooled, False, False, True


def _at_rest(baselines: HomeBaselines, meter: EntityState, value: float, now: datetime) -> bool:
    """The meter reads at rest now, as it shows rest (``rest_reading``): no run is under
    way, whatever was last learned (a restart's reading missed by the learned run told
    "has drawn 0 W for 17 min", walk31)."""
    spell = meter_state(
        baselines.durations,
        baselines.ranges,
        meter.entity_id,
        value,
        unit=meter.info.unit,
        when=now,
    )
    return spell != RUNNING


def _weak_from(
    home: HomeView, baselines: HomeBaselines, meter: EntityState, draw: float
) -> datetime | None:
    """When the meter's readings, each ``WEAK_DROP`` less than the least it ever drew
    running, will have held for ``WEAK_HOLD`` (from the first of them in the window: a pump
    running dry whines at 395 W, then 380 W); None when it draws as its runs do."""
    if meter.last_changed is None:
        return None
    usual = baselines.ranges.usual(running_key(meter.entity_id), home.end)
    if usual is None or draw >= (limit := (1.0 - WEAK_DROP) * usual[3]):
        return None
    since = meter.last_changed
    for transition in reversed(home.history.get(meter.entity_id, [])):
        value = parse_number(transition.state)
        reading = watts(value, meter.info.unit) if value is not None else None
        if reading is None or not RUNNING_WATTS <= reading < limit:
            break  # its usual draw, or at rest: not this weak spell
        since = min(since, transition.when)
    return since + WEAK_HOLD


def _weak_motor(
    baselines: HomeBaselines, meter: EntityState, weak: datetime | None, now: datetime
) -> bool:
    """A meter whose every run drew more than a compressor does, drawing that little now:
    a motor or pump lifting nothing (set 29: a 520 W pump at 395 W), not a compressor."""
    usual = baselines.ranges.usual(running_key(meter.entity_id), now)
    return weak is not None and usual is not None and usual[3] > MAX_COMPRESSOR_WATTS


def _run_limit(
    baselines: HomeBaselines,
    meter: str,
    draw: float,
    since: datetime,
    weak_from: datetime | None = None,
) -> tuple[datetime, timedelta, int, float, bool, bool, bool] | None:
    """(since, limit, runs, longest minutes, pooled, timed, False) of the run under way."""
    taught = baselines.usual.taught_value(meter, "stay") or 0.0
    timed = timed_stays(baselines.durations, meter, RUNNING, since)
    by_timer = timed is not None and taught <= timed[1]
    runs, longest_run = baselines.durations.whole_record(meter, RUNNING)
    pump = draw < HEATING_LOAD and 0 < longest_run <= SHORT_RUN
    well_timed = timed is not None and by_timer and (runs >= WELL_TIMED or pump)
    if draw < HEATING_LOAD and not well_timed:
        # A motor or pump: judged only by a timer well known, or by its few runs alike.
        return _few_runs_limit(baselines, meter, since, weak_from, taught)
    factor, learned = FACTOR, baselines.durations.longest(meter, RUNNING, since)
    if timed is not None and by_timer:
        learned, factor = timed, TIMED_FACTOR
    if learned is None:
        return None
    count, longest, pooled = learned
    longest = max(longest, taught)
    floor = FLOOR
    if well_timed:
        floor = TIMED_FLOOR if draw >= HEATING_LOAD else MOTOR_TIMED_FLOOR
        if draw < HEATING_LOAD and not pump:
            factor = MOTOR_TIMED_FACTOR
    limit = max(floor, factor * timedelta(minutes=longest))
    ever = timedelta(minutes=longest)
    if draw < HEATING_LOAD:  # a motor: its runs at other hours are what it does too
        ever = max(ever, timedelta(minutes=longest_run))
        limit = max(limit, ANY_HOUR_GROWTH * ever)
    if well_timed and weak_from is not None:  # not the routine's run: past its longest
        limit = min(limit, max(floor, ever, weak_from - since))
    return since, limit, count, longest, pooled, by_timer, False


def _few_runs_limit(
    baselines: HomeBaselines,
    meter: str,
    since: datetime,
    weak_from: datetime | None,
    taught: float,
) -> tuple[datetime, timedelta, int, float, bool, bool, bool] | None:
    """A motor known from ``WEAK_RUNS`` runs all about as long (too few for a timer):
    judged past ``MOTOR_TIMED_FACTOR`` times its longest run, or past the longest when it
    draws ``WEAK_DROP`` less than each, as a timed run is; None otherwise."""
    runs, mean = baselines.durations.whole_mean(meter, RUNNING)
    longest = baselines.durations.whole_record(meter, RUNNING)[1]
    if runs < WEAK_RUNS or longest <= 0 or mean < AGREEMENT * longest:
        return None
    longest = max(longest, taught)
    limit = max(MOTOR_TIMED_FLOOR, MOTOR_TIMED_FACTOR * timedelta(minutes=longest))
    if weak_from is not None:  # not its run: past its longest
        limit = min(limit, max(MOTOR_TIMED_FLOOR, timedelta(minutes=longest), weak_from - since))
    return since, limit, runs, longest, True, True, False


def running_far_longer_due(home: HomeView, baselines: HomeBaselines | None) -> datetime | None:
    """The earliest moment, after now, that a meter drawing a heating load passes its
    limit: the glue analyses then."""
    if baselines is None:
        return None
    due = [since + limit for _, _, since, limit, *_ in _limits(home, baselines)]
    return min((when for when in due if when > home.end), default=None)


def appliance_running_far_longer(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """A meter drawing a heating load for far longer than any run learned.

    Magnitude: minutes it has been running.
    """
    now = home.end
    for meter, draw, since, limit, count, longest, pooled, timed, heating, cycled in _limits(
        home, baselines
    ):
        stayed = now - since
        if stayed <= limit:
            continue
        when = (
            "at any time of day"
            if pooled
            else _QUARTER_NAMES[quarter_of_day(since, baselines.zone)]
        )
        habit = "runs for " + at_most(longest, count, "runs", f", {when}")
        if cycled:  # its element's bursts on its thermostat: one draw
            habit = "draws (on and off) for " + at_most(longest, count, "spells", f", {when}")
        if heating:  # a part of its runs (a washer heating its water)
            spells = at_most(longest, count, "heating spells")
            habit = f"heats (draws {HEATING_LOAD:.0f} W or more) for {spells} within its runs"
        if timed:
            habit += ", each about as long (a timer or a fixed routine)"
            if (weak := _weak_from(home, baselines, meter, draw)) is not None and weak <= now:
                habit += ", and never drew this little while running"
            ever = baselines.durations.whole_record(meter.entity_id, RUNNING)[1]
            if not heating and draw < HEATING_LOAD and ever > longest:
                lasted = duration_text(timedelta(minutes=ever))
                habit += f"; its longest run at any hour lasted {lasted}"
        switch = plug_switch(home, meter)
        kind = LEFT_ON_PAST_ITS_ROUTINE if timed else APPLIANCE_RUNNING_FAR_LONGER
        yield kind.finding(
            evidence=(meter.entity_id,) if switch is None else (switch, meter.entity_id),
            subject=switch or meter.entity_id,
            reasoning=f"{meter.info.name or meter.entity_id} has drawn {draw:.0f} W"
            f"{' on and off' if cycled else ''} for "
            f"{duration_text(stayed)}, since {moment_text(since, now, home.env.zone)}; "
            f"in this home it {habit}.",
            recommendation="Check the appliance on this meter: it may have been left on.",
            magnitude=round(stayed.total_seconds() / 60, 1),
        )
