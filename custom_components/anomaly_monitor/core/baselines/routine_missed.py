"""What this home does every day did not happen: armed by 23:15 on every night but tonight.

Some incidents are an absence: the alarm not set at bedtime, the back door not locked by
its usual hour. ``DailyRoutines`` keeps, per panel and lock and quarter of the day, the
days it was in its routine state (armed, locked). A **routine** due at a quarter ``K``:
over the shortest window ``[A, K]`` of at most ``MAX_WINDOW``, the entity was in its
state at some moment on all the days learned (one in ten may miss), at least
``MIN_DAYS`` of them, on each of the last ``RECENT_DAYS`` (a habit still kept: one the
home has just stopped is told once, then no longer expected) and on the same weekday a
week before, when learned (a salon not locked at lunch on Saturdays keeps a weekly
exception, not a missed routine); and it *arrives* then: within ``MAX_WINDOW`` before
the window there is a quarter at which it is in that state on at most
``ARRIVAL_SHARE`` of those days (a door locked all day but for its use has no routine
arrival; a panel armed at night does).

Today, ``MARGIN`` past the end of ``K``, the entity has not been in its state since ``A``
(armed at 22:40 and disarmed at 23:05 is not armed at 23:15): told, saying what is
usual. Judged per learned quarter, once per occurrence (the answers are kept for the
day); an occurrence is told until ``LOOK_BACK`` past its last due quarter. Only days
like today count: with someone home, the days someone was home then; with everybody
away (a holiday, a day out), the days the home was empty then, ``MIN_DAYS`` of them
too. A weekly routine is no daily one (its other days miss it); a feedback "false alarm"
marks the degree (minutes late).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from ..finding_kind import FindingKind
from ..home import HomeView, is_unavailable
from ..models import AnomalyType, EntityInfo, Finding, Severity
from .clock import local
from .daily_routines import (
    QUARTER,
    SLOTS,
    DailyRoutines,
    quarter_of,
    quarter_start,
    routine_state,
)
from .day_masks import DAYS_KEPT, FULL
from .home_baselines import HomeBaselines
from .long_stays import duration_text

MIN_DAYS = 7
RECENT_DAYS = 3
MAX_WINDOW = 16  # quarters: a routine kept within four hours
ARRIVAL_SHARE = 0.5
MARGIN = timedelta(minutes=45)
# Due quarters looked back at: an occurrence missed is told for this long at most after
# its due time, unless a later quarter of the same routine is due too.
LOOK_BACK = timedelta(hours=3)
MAX_ANSWERS = 8_192

ROUTINE_MISSED = FindingKind("routine_missed", AnomalyType.BEHAVIOURAL, Severity.MEDIUM)

_WORDS = {
    "alarm_control_panel": "armed",
    "lock": "locked",
    "switch": "switched on",
    "input_boolean": "on",
}


@dataclass(frozen=True, slots=True)
class Routine:
    """The entity is in its state within ``quarters`` quarters up to the due one, on
    ``held`` of the ``learned`` days."""

    quarters: int
    held: int
    learned: int


def _aligned(mask: int, wrapped: bool) -> int:
    """A quarter's mask with each bit at the day its window ends on (a quarter before
    midnight belongs to the window of the next day)."""
    return mask >> 1 if wrapped else mask


def _recent(learned: int, held: int) -> bool:
    """Held on each of the last ``RECENT_DAYS`` days learned."""
    seen = 0
    while learned and seen < RECENT_DAYS:
        low = learned & -learned
        if not held & low:
            return False
        learned ^= low
        seen += 1
    return seen == RECENT_DAYS


def routine_at(
    routines: DailyRoutines, entity_id: str, slot: int, day: int, *, empty: bool
) -> Routine | None:
    """The routine of ``entity_id`` due at quarter ``slot`` of local day ``day``, learned
    from the days before it like today (empty or not at that quarter), or None."""
    masks = routines.slots.get(entity_id)
    if masks is None:
        return None
    back = routines.day - day  # the bit of ``day``
    before = routines.before(day)
    home = routines.home[slot]
    like = before & (~home if empty else home)
    present, watched = 0, FULL
    for width in range(1, MAX_WINDOW + 1):
        index = slot - width + 1
        wrapped = index < 0
        present |= _aligned(masks[index % SLOTS], wrapped)
        watched &= _aligned(routines.watched[index % SLOTS], wrapped)
        learned = watched & like
        days = learned.bit_count()
        if days < MIN_DAYS:
            return None
        held = present & learned
        count = held.bit_count()
        if count < days - days // 10 or not _recent(learned, held):
            continue
        week_ago = 1 << (back + 7) if 0 <= back + 7 < DAYS_KEPT else 0
        if learned & week_ago and not held & week_ago:
            return None  # missed on this weekday a week ago: a weekly exception
        if not _arrives(routines, masks, index, learned, days):
            return None
        return Routine(width, count, days)
    return None


def _arrives(
    routines: DailyRoutines, masks: list[int], start: int, learned: int, days: int
) -> bool:
    """Within ``MAX_WINDOW`` before the window's first quarter ``start``, a quarter at
    which the entity is in its state on at most ``ARRIVAL_SHARE`` of the days."""
    for index in range(start - 1, start - MAX_WINDOW - 1, -1):
        # Relative to the window's day: a quarter before midnight is the day before.
        share = (_aligned(masks[index % SLOTS], index < 0) & learned).bit_count()
        if share <= ARRIVAL_SHARE * days:
            return True
    return False


def _answer(
    routines: DailyRoutines, entity_id: str, slot: int, day: int, empty: bool
) -> Routine | None:
    """``routine_at``, kept for the day: every analysis asks the same quarters."""
    answers = routines.answers
    if routines.answered != routines.day or len(answers) >= MAX_ANSWERS:
        answers.clear()
        routines.answered = routines.day
    key = (entity_id, slot, day, empty)
    if key not in answers:
        answers[key] = routine_at(routines, entity_id, slot, day, empty=empty)
    found = answers[key]
    return found if isinstance(found, Routine) else None


def _state_words(domain: str, device_class: str | None) -> str:
    if domain == "binary_sensor":
        return "sees movement" if device_class in _MOTION else "is opened or on"
    return f"is {_WORDS.get(domain, 'on')}"


_MOTION = frozenset({"motion", "occupancy", "presence"})


def routine_missed(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """An entity not in its routine state by its learned latest time plus ``MARGIN``.

    Magnitude: minutes past the due time.
    """
    routines = baselines.routines
    now = home.end
    empty = home.nobody_home
    # In UTC: every zone's offset is whole quarters, and a quarter added is 15 minutes.
    latest = quarter_start((now - MARGIN).astimezone(UTC)) - QUARTER
    first = quarter_start((now - LOOK_BACK).astimezone(UTC))
    for entity_id in list(routines.slots):
        state = home.info(entity_id)
        if state is None or is_unavailable(state):
            continue
        if routine_state(state.info.domain, state.info.device_class, state.state) is not False:
            continue  # in its routine state now (or not an entity with routines)
        due = first
        while due <= latest:
            slot, day = quarter_of(due, routines.zone)
            routine = _answer(routines, entity_id, slot, day, empty)
            if routine is not None:
                start = due - (routine.quarters - 1) * QUARTER
                if not routines.was_in(entity_id, start, now):
                    yield _finding(home, state.info, due + QUARTER, routine, now, empty=empty)
                    break
            due += QUARTER


def routine_missed_due(home: HomeView, baselines: HomeBaselines | None) -> datetime | None:
    """The earliest moment, after now, that an entity not in its routine state now passes
    a routine's due time plus ``MARGIN`` (within a day): the glue analyses then, not at the
    next periodic analysis. Whether it is still missed then is that analysis's to judge."""
    if baselines is None:
        return None
    routines = baselines.routines
    now = home.end
    empty = home.nobody_home
    first = quarter_start((now - MARGIN).astimezone(UTC)) - QUARTER
    due: list[datetime] = []
    for entity_id in list(routines.slots):
        state = home.info(entity_id)
        if state is None or is_unavailable(state):
            continue
        if routine_state(state.info.domain, state.info.device_class, state.state) is not False:
            continue
        quarter = first
        for _ in range(SLOTS):
            slot, day = quarter_of(quarter, routines.zone)
            if (when := quarter + QUARTER + MARGIN) > now and _answer(
                routines, entity_id, slot, day, empty
            ):
                due.append(when)
                break
            quarter += QUARTER
    return min(due, default=None)


def _finding(
    home: HomeView, info: EntityInfo, by: datetime, routine: Routine, now: datetime, *, empty: bool
) -> Finding:
    state = home.info(info.entity_id)
    reads = state.state if state is not None else "?"
    when = local(by, home.env.zone)
    days = "days the home was empty" if empty else "days"
    late = now - by
    return ROUTINE_MISSED.finding(
        evidence=(info.entity_id,),
        subject=info.entity_id,
        reasoning=f"{info.name or info.entity_id} {_state_words(info.domain, info.device_class)} "
        f"by {when:%H:%M} on {routine.held} of the last {routine.learned} {days}; not "
        f"today: {duration_text(late)} past that time it reads {reads}.",
        recommendation="Check why it did not happen today: somebody may need help, or a "
        "device or its schedule failed. If the routine has changed, mark this as a false "
        "alarm.",
        magnitude=round(late.total_seconds() / 60, 1),
    )
