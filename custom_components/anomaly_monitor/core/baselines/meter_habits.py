"""A power meter that breaks its own day: a run that does not come, or drawing at hours
it never draws.

Each meter's hours are learned day by day (``MeterHours``): on which of the last days it
drew power at each local hour. Two questions are asked of it, with no role and no word
of an id or a name (a water heater relay, a charger's plug, an aquarium pump, a hob, an
oven on a clamp meter are all "a meter"):

- **An expected run that does not come** (``meter_run_missing``). The meter has drawn
  almost nothing (``power.IDLE``) through a whole local hour at which it drew power on at
  least ``EXPECTED`` of the ``MIN_DAYS`` or more days learned with someone home, and on
  each of the last ``RECENT_DAYS`` of them (a habit still kept, not last season's). A
  water heater on the night tariff that stays cold, a charger that charges nothing, a pump
  that never stops and now draws nothing. Not asked while nobody is home (nothing is
  expected of an empty home but an hour a load keeps by itself while it is empty,
  ``kept_while_empty``: a dehumidifier on its humidistat in a second home; or an hour it
  drew on every day, started while the home was empty too, while somebody is seen in now:
  a CPAP used by somebody without a tracker), when the
  meter's own switch was turned off (somebody did it), nor of a meter that cycles day and
  night (``cycle_stopped`` judges those by their cycle). Before a week is learned, a run
  on every one of ``DAILY_DAYS`` or more days that span weekdays and a weekend day,
  today's kind among them, is daily so far and expected (a pool pump on its timer from its
  fourth day), after one idle hour more (``THIN_MISSED_HOURS``); a weekly habit still
  needs its weekday a week before. A load drawn around the clock (``around_the_clock``: a
  heat-trace cable, a circulation pump) keeps no weekday: its first Saturday expects what
  its weekdays did.
- **Drawing for long at hours it never draws** (``meter_drawing_at_unusual_hours``). The
  meter has drawn at least ``MIN_DRAW`` without a break, for ``HOLD`` at local hours at
  which it drew on at most ``RARE`` of the days learned, and in the hour before and after
  each too (a usual run spilling over into the next hour, or begun an hour early, is no
  new hour), nor on this weekday of every week learned (a weekly habit), once the run is
  longer than any it ran before and nobody is home, the household rests or somebody went
  out since it began (``left_while_on``: whoever put it on may be gone); ``LONG_HOLD``
  otherwise (a usual run moved to a new hour ends in its usual time; a roast for guests at
  noon is watched). A run longer than any before, nobody home or the household resting,
  is judged from ``THIN_DAYS`` days learned already (an electric blanket not switched off
  on its fifth morning, the home empty: the nights learned say it never draws by day).
  A hair straightener left on all morning, a hob on "keep warm" overnight, a heater
  cycling in an empty room, an oven not switched off after the bake. Who moves near it
  is not asked: a walk past would end the finding and tell it again.

The fixed thresholds of the word rules remain the prior for a meter not learned yet.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

from ..device_roles import own_meter
from ..finding_kind import FindingKind
from ..home import HomeView
from ..models import AnomalyType, EntityState, Finding, Severity
from .clock import ONE_HOUR, hour_start, local, moment_text, next_hour, slot_of
from .cycles import cycles_day_and_night, spell_since as run_since
from .day_masks import DAYS_KEPT
from .draw_spells import spell_key, spell_since
from .first_use_missed import empty_by_every_sign
from .home_baselines import HomeBaselines
from .kept_while_empty import kept_while_empty, kept_whoever_is_home
from .left_while_on import went_out_while_on
from .loads_by_themselves import around_the_clock
from .long_runs import plug_switch
from .long_stays import duration_text
from .power import IDLE, RUNNING, power_state, watts

MIN_DAYS = 7
# Days learned at an hour (and the hours around it) that say the meter never draws then,
# for a run longer than any it made while nobody is home or the household rests.
THIN_DAYS = 3
MIN_EXPECTED_DAYS = 5
EXPECTED = 0.9
# Whole hours idle at which it is expected: one is a late evening, two are a failure.
MISSED_HOURS = 2
RECENT_DAYS = 3
# Before a week is learned: a run on every one of this many days, weekdays and weekend.
DAILY_DAYS = 3
WEEKEND = 5  # Saturday, as ``date.weekday``
THIN_MISSED_HOURS = 3
RARE = 0.1
WEEK = 7
MIN_DRAW = 20.0
HOLD = timedelta(minutes=30)
LONG_HOLD = timedelta(hours=3)
# Hours looked at from the start of the spell (three days).
_LOOK_BACK = 72
# Time at unusual hours counted back from now (a day).
_RARE_LOOK_BACK = timedelta(hours=24)

METER_RUN_MISSING = FindingKind(
    "meter_run_missing", AnomalyType.DEVICE_MALFUNCTION, Severity.MEDIUM
)
METER_DRAWING_AT_UNUSUAL_HOURS = FindingKind(
    "meter_drawing_at_unusual_hours", AnomalyType.ENERGY, Severity.MEDIUM
)


def _switched_off(home: HomeView, meter: EntityState) -> bool:
    return any(s.state == "off" and own_meter(home, s, meter) for s in home.of("switch"))


def _expected_at(
    baselines: HomeBaselines, entity_id: str, slot: datetime, somebody_in: bool = False
) -> tuple[int, int, bool] | None:
    """(days it ran, days learned, before a week) at ``slot``'s hour when a run is
    expected then: someone
    was home, it ran then on ``EXPECTED`` of the days learned, on each of the last
    ``RECENT_DAYS``, and on the same weekday a week before (not a weekly closing day).
    Before a week is learned at that hour: on every one of ``DAILY_DAYS`` or more days,
    which span weekdays and a weekend day and include today's kind of day (a daily run; a
    habit learned Monday to Saturday expects nothing of a Sunday); ``THIN_MISSED_HOURS``
    of them must pass idle."""
    hours = baselines.meters
    _, hour, day = slot_of(slot, baselines.zone)
    if not hours.home_at(hour, day):
        # Nothing is expected of an empty home but what a load keeps by itself while empty.
        kept = kept_while_empty(hours, entity_id, hour, day)
        if kept is not None:
            return kept, kept, True
        # ...or what it does whoever is home, while somebody no tracker follows is seen in
        # now (moved or opened since the trackers left): that somebody uses it.
        if not somebody_in:
            return None
        kept = kept_whoever_is_home(hours, entity_id, hour, day)
        return None if kept is None else (kept, kept, False)
    ran, days = hours.days_at(entity_id, hour, day, home_only=True)
    week_ago = hours.ran_on(entity_id, hour, day - 7)
    if week_ago is None:  # no week learned yet at this hour
        learned = hours.weekdays_learned(hour, day)
        if days < DAILY_DAYS or ran < days:
            return None
        # A load drawing around the clock (a heat-trace cable, a pump) keeps no weekday:
        # its five weekdays learned say what a Saturday holds too.
        if (
            not _daily_so_far(learned, (day - 1) % 7)
            and around_the_clock(hours, entity_id, slot) is None
        ):
            return None
        return ran, days, True
    if days < MIN_EXPECTED_DAYS or ran < EXPECTED * days:
        return None
    if not hours.last_days(entity_id, hour, day, RECENT_DAYS):
        return None
    if not week_ago:
        return None  # a weekly closing day
    return ran, days, False


def _kind(weekday: int) -> int:
    """Monday to Friday are one kind of day; Saturday and Sunday each their own."""
    return 0 if weekday < WEEKEND else weekday


def _daily_so_far(learned: set[int], today: int) -> bool:
    """The days learned span the week's kinds of day, today's among them: a run on each of
    a Saturday and a Monday is daily so far; Monday to Saturday say nothing of a Sunday."""
    kinds = {_kind(d) for d in learned}
    return _kind(today) in kinds and len(kinds) >= 2


def meter_run_missing(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """A meter idle through whole hours at which it runs on nearly every day learned.

    Magnitude: minutes idle so far.
    """
    now, zone, hours = home.end, baselines.zone, baselines.meters
    somebody_in = home.nobody_home and not empty_by_every_sign(home, baselines)
    for meter in home.of("sensor", "power"):
        value = meter.number
        if value is None or power_state(value, meter.info.unit) != IDLE:
            continue
        entity_id = meter.entity_id
        if entity_id not in hours.runs or cycles_day_and_night(baselines, entity_id):
            continue
        since = run_since(home, baselines, meter, IDLE)
        if since is None or now - since < MISSED_HOURS * ONE_HOUR or _switched_off(home, meter):
            continue
        slot = hour_start(local(since, zone))
        if slot < since:
            slot = next_hour(slot)
        missed: list[tuple[datetime, int, int, bool]] = []
        need = MISSED_HOURS
        for _ in range(_LOOK_BACK):
            if next_hour(slot) > now or len(missed) >= need:
                break
            if (expected := _expected_at(baselines, entity_id, slot, somebody_in)) is not None:
                missed.append((slot, *expected))
                if expected[2]:
                    need = THIN_MISSED_HOURS  # learned from fewer days: one hour more
            slot = next_hour(slot)
        if len(missed) < need:
            continue
        first, ran, days, _ = missed[0]
        yield METER_RUN_MISSING.finding(
            evidence=(entity_id,),
            reasoning=f"{meter.info.name or entity_id} has drawn almost no power since "
            f"{moment_text(since, now, zone)} ({duration_text(now - since)}); on {ran} of "
            f"the {days} days learned it drew power at {first:%H}:00 and at "
            f"{missed[-1][0]:%H}:00, and on each of the last {RECENT_DAYS}: the run it makes "
            "at these hours did not come.",
            recommendation="Check the appliance on this meter: a tripped cut-out, a plug "
            "worked loose, a jammed pump, a failed element.",
            magnitude=round((now - since).total_seconds() / 60, 1),
        )


def _rare_at(
    baselines: HomeBaselines,
    entity_id: str,
    slot: datetime,
    min_days: int = MIN_DAYS,
    began: datetime | None = None,
) -> tuple[int, int] | None:
    """(days it drew, days learned) at ``slot``'s hour when it (nearly) never draws then,
    nor in the hour before or after (a usual run spilling over, or begun early, is not
    drawing at a new hour); none of the hours the spell under way (since ``began``) drew
    counted among the days learned."""
    hours = baselines.meters
    _, hour, day = slot_of(slot, baselines.zone)
    ran, days = hours.days_at(
        entity_id, hour, _learned(baselines, hour, day, began), home_only=False
    )
    if days < min_days or ran > RARE * days or _weekly_at(baselines, entity_id, hour, day):
        return None
    for other in (hour - 1, hour + 1):
        learned = _learned(baselines, other % 24, day, began)
        near, watched = hours.days_at(entity_id, other % 24, learned, home_only=False)
        if watched < min_days or near > RARE * watched:
            return None
    return ran, days


def _learned(baselines: HomeBaselines, hour: int, day: int, began: datetime | None) -> int:
    """The local day before which the days learned at ``hour`` are read for a slot of local
    day ``day``: none the spell begun at ``began`` drew through (its first day's hours
    before it began are learned as any)."""
    if began is None:
        return day
    _, first_hour, first_day = slot_of(began, baselines.zone)
    return min(day, first_day + (1 if hour < first_hour else 0))


def _weekly_at(baselines: HomeBaselines, entity_id: str, hour: int, day: int) -> bool:
    """It drew at ``hour`` on this weekday of every week learned (one at least): a weekly
    habit, rare over the fortnight's days but kept each week (a Shabbat urn from Friday
    afternoon, a Saturday sauna stove)."""
    meters = baselines.meters
    masks = meters.runs.get(entity_id)
    if masks is None:
        return False
    # Home or not (a family keeping Shabbat may leave its phones off): watched is enough.
    weeks = [
        bool(masks[hour] >> back & 1)
        for back in range(meters.day - day + WEEK, DAYS_KEPT, WEEK)
        if meters.watched[hour] >> back & 1
    ]
    return bool(weeks) and all(weeks)


def _rare_time(
    baselines: HomeBaselines,
    entity_id: str,
    start: datetime,
    now: datetime,
    min_days: int = MIN_DAYS,
) -> tuple[timedelta, int, int]:
    """Time since ``start`` spent at hours the meter (nearly) never draws at, trailing up
    to now, with the days learned (fewest) and the days it drew (most) at those hours.

    Judged by the days learned before the spell began: past midnight, the evening it has
    drawn through is a day kept, and the hour before midnight would read as an hour it
    draws at (an oven left on at 21:30, its finding over at 00:19 and told again at 01:06
    by another rule): the spell under way is not its own normal."""
    spent, fewest, most = timedelta(0), 0, 0
    began = start
    start = max(start, now - _RARE_LOOK_BACK)
    slot = hour_start(local(start, baselines.zone))
    while slot < now:
        end = next_hour(slot)
        if (rare := _rare_at(baselines, entity_id, slot, min_days, began)) is not None:
            spent += min(end, now) - max(slot, start)
            fewest = rare[1] if not fewest else min(fewest, rare[1])
            most = max(most, rare[0])
        else:
            spent, fewest, most = timedelta(0), 0, 0  # only the trailing rare hours count
        slot = end
    return spent, fewest, most


def meter_drawing_at_unusual_hours(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """A meter drawing for long at hours it (nearly) never draws.

    Magnitude: minutes drawn at those hours.
    """
    now, zone = home.end, baselines.zone
    for meter in home.of("sensor", "power"):
        value = meter.number
        draw = watts(value, meter.info.unit) if value is not None else None
        entity_id = meter.entity_id
        if draw is None or entity_id not in baselines.meters.runs:
            continue
        if cycles_day_and_night(baselines, entity_id):
            continue
        drawing = _drawing_since(home, baselines, meter, draw)
        if drawing is None or drawing[1] - drawing[0] < HOLD:
            continue
        # Resting between two runs, it is judged as it was when the last run ended: a
        # rest holds a finding made, and never makes one (a washer done at 23:00).
        since, until, cycled = drawing
        spent, days, ran = _rare_time(baselines, entity_id, since, until)
        runs, longest = _longest(baselines, entity_id, cycled=cycled)
        unwatched = (
            home.nobody_home
            or baselines.rhythm.resting_since(now) is not None
            or went_out_while_on(baselines, since) is not None  # who put it on may be gone
        )
        longer = runs > 0 and until - since > timedelta(minutes=longest)
        if longer and unwatched and spent < HOLD:
            # Longer than every run, nobody minding it: a few days already say which
            # hours it never draws at (an electric blanket left on all day, day 4).
            spent, days, ran = _rare_time(baselines, entity_id, since, until, THIN_DAYS)
        if spent < (HOLD if longer and unwatched else LONG_HOLD):
            continue
        when = "never" if ran == 0 else f"on {ran} of them"
        switch = plug_switch(home, meter)  # one incident with the plug's other findings
        yield METER_DRAWING_AT_UNUSUAL_HOURS.finding(
            evidence=(entity_id,) if switch is None else (switch, entity_id),
            subject=switch or entity_id,
            reasoning=f"{meter.info.name or entity_id} has drawn {_drawn(draw, cycled)} since "
            f"{moment_text(since, now, zone)} ({duration_text(now - since)}), "
            f"{duration_text(spent)} of it at hours when, in the {days} days learned, it "
            f"{when} drew power, nor in the hours around them.",
            recommendation="Check the appliance on this meter: it may have been left on.",
            magnitude=round(spent.total_seconds() / 60, 1),
        )


def _drawing_since(
    home: HomeView, baselines: HomeBaselines, meter: EntityState, draw: float
) -> tuple[datetime, datetime, bool] | None:
    """(since, until, cycled) the meter has drawn: its runs joined across rests shorter
    than them (``draw_spells``: a heater on its thermostat, ``cycled``), or its run without
    a break, up to now or to the start of the rest under way (a rest that may still join
    the spell). None when it is not drawing."""
    entity_id, now = meter.entity_id, home.end
    joined = spell_since(baselines.durations, baselines.draws, entity_id, now)
    if draw < MIN_DRAW:  # a thermostat's rest between two runs, else not drawing
        rest = baselines.draws.resting_since(entity_id, now)
        return None if joined is None or rest is None else (joined, rest, True)
    since = run_since(home, baselines, meter, RUNNING)
    if joined is not None and (since is None or joined < since):
        return joined, now, True
    return None if since is None else (since, now, False)


def _longest(baselines: HomeBaselines, entity_id: str, *, cycled: bool) -> tuple[int, float]:
    """(spells, longest minutes) the meter drew: its cycled spells (``draw_spells``) for a
    spell of runs, while any is learned; its runs without a break otherwise."""
    spells = baselines.durations.whole_record(spell_key(entity_id), RUNNING)
    if cycled and spells[0]:
        return spells
    return baselines.durations.whole_record(entity_id, RUNNING)


def _drawn(draw: float, cycled: bool) -> str:
    """What the meter draws now: its watts, or "power on and off" while it rests; a spell
    of runs (``cycled``) drew its watts on and off, not all along."""
    if draw < MIN_DRAW:
        return "power on and off"
    return f"{draw:,.0f} W on and off" if cycled else f"{draw:,.0f} W"
