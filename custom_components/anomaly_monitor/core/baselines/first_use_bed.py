"""Not up: a bed left every morning by its learned time is still lain on.

A bed sensor (``held_on.lain_on``: its ``on`` held for a night) is one person's night, not
the household's. The household's getting up (``getting_up``) pools everyone: a son out to
his bus at four, a daughter-in-law up at six, are the home's day begun while the
grandmother who rises for her prayer at five every morning lies in bed with a fever. Her
door says little when she opens it on her night trips too (``first_use_inner``). Her bed
says it: lain on through the night, left by a quarter of the morning on nearly every day,
and empty after it (left for the day, not for a trip).

Per bed (``DailyRoutines``: the quarters of each day it was lain on at some moment), a bed
is **usually left by** quarter ``K`` of the morning (``MORNING``) when, on the days it was
lain on in the night before (``MIN_DAYS`` of them, ``DAILY_SHARE`` of the days the home was
lived in at least, counted from the bed's first night seen lain on: a sensor fitted later,
or read empty on the install's first night, missed no nights before it):

- it was lain on without a break from ``BAND`` before ``K`` through ``K`` (lain on in every
  quarter between: never empty for a whole quarter) on at most ``RARE_SHARE`` of them, and
  through the quarter before ``K`` on more (``K`` is the first quarter by which it has been
  left). A morning she got up and lay down again (a rest after her prayer, back in bed
  after a fall) was left: lain on in ``K`` again it is no night going on. Lain on again
  within ``TRIP`` quarters after ``K`` on most mornings, it is left for a trip, not for the
  day: no quarter;
- it was lain on in a quarter at most ``BAND`` before ``K`` on nearly all of them (one in
  ten may differ, to the nearest: one of six to fifteen, so one early morning, up at 07:40
  for a parade, leaves nine learned a habit and not only ten): the band between is when she
  gets up, its width the spread;
- on the same weekday a week before, when that night was watched, it was kept (a bed left
  late on Sundays only keeps a weekly exception).

The mornings of a weekly lie-in (``weekly_lie_ins``: every Sunday seen, or every Saturday
and Sunday, still in bed at ``K``) are no mornings of the habit: it is read on the other
days, and told only on a day of the week not lain in on.

A night that began late ends late: when the bed was first lain on last night later than the
quarter by which it is lain on nearly every night learned (a festival, a wedding, a film),
its morning is due as much later (``night_began_late``): a lie-in after a late night is no
news.

A bed whose mornings wander (weekdays at half past six, weekends at nine) has no such
quarter: nothing is told of it. Today's part is ``first_use_missed``'s: the bed reads
``on`` since before its band, past ``K`` plus its margin, nothing else of its room moved.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from .daily_routines import QUARTER, SLOTS, DailyRoutines, quarter_of, quarter_start
from .day_masks import DAYS_KEPT
from .first_use_night import EVENING
from .routine_missed import MIN_DAYS
from .weekly_lie_ins import weekly_lie_ins

BAND = 8  # quarters: a bed left within two hours of the night's last sure quarter
RARE_SHARE = 0.1
DAILY_SHARE = 0.9  # lain on the night before this share of the days the home was lived in
MORNING = (16, 48)  # 04:00-12:00: the quarter a bed is usually empty from
TRIP = 4  # quarters: lain on again within the hour after it is a trip out of bed


def _aligned(masks: Sequence[int], index: int) -> int:
    """Quarter ``index`` of the day (negative: the evening before), each bit at the day
    whose morning it belongs to."""
    return masks[index % SLOTS] >> 1 if index < 0 else masks[index % SLOTS]


def _lain_through(masks: list[int], first: int, last: int) -> int:
    """The days the bed was lain on in every quarter from ``first`` to ``last``: never
    empty for a whole quarter between (a night trip of minutes leaves no quarter empty)."""
    days = -1
    for index in range(first, last + 1):
        days &= _aligned(masks, index)
    return days


def bed_left_by(
    routines: DailyRoutines, entity_id: str, slot: int, day: int, lived: int
) -> tuple[int, int, int, int] | None:
    """(held, learned, spread, held days) of the bed ``entity_id`` usually empty from
    quarter ``slot`` of local day ``day`` on, or None. ``lived``: the days before ``day``
    the home was lived in (bits as the routines keep them)."""
    masks = routines.slots.get(entity_id)
    if masks is None or not MORNING[0] <= slot < MORNING[1] - 1:
        return None
    # Watched from the evening before (the install's first morning has no night seen),
    # and the bed read all night: a night it was off the radio is no night elsewhere.
    lived &= routines.watched[slot] & _aligned(routines.watched, EVENING - SLOTS)
    night = unknown = 0
    off_radio = routines.unknown.get(entity_id, ())
    for index in range(EVENING - SLOTS, slot - BAND):
        night |= _aligned(masks, index)
        unknown |= _aligned(off_radio, index) if off_radio else 0
    lived &= ~unknown
    # Counted from the first night it was seen lain on: a bed sensor fitted (or first
    # read lain on) after the home's first day has no nights before it to have missed.
    lived &= (1 << night.bit_length()) - 1
    learned = night & lived
    days = learned.bit_count()
    if days < MIN_DAYS or days < DAILY_SHARE * lived.bit_count():
        return None  # not slept in on most days the home was lived in
    rare = RARE_SHARE * days
    late = _lain_through(masks, slot - BAND, slot) & learned
    if late.bit_count() > rare:
        # Still in bed then on some mornings: no habit, unless those are a weekly
        # exception (a lie-in at weekends) and today is none of it.
        learned &= ~weekly_lie_ins(routines.day, learned, late, day)
        days = learned.bit_count()
        if days < MIN_DAYS:
            return None
        rare = RARE_SHARE * days
    before = _lain_through(masks, slot - BAND, slot - 1) & learned
    through = before & masks[slot]
    if through.bit_count() > rare:
        return None  # still in bed from the night then on some mornings: not left by then
    if before.bit_count() <= rare:
        return None  # already left a quarter before: not the first quarter it is
    again = 0
    for index in range(slot + 1, min(slot + 1 + TRIP, SLOTS)):
        again |= masks[index]
    if (again & learned).bit_count() * 2 > days:
        return None  # back in bed soon after it on most mornings: a trip, not the day begun
    back = routines.day - day
    week_ago = 1 << (back + 7) if 0 <= back + 7 < DAYS_KEPT else 0
    week_ago &= learned
    for spread in range(1, BAND + 1):
        held = _aligned(masks, slot - spread) & learned
        count = held.bit_count()
        if count < days - (days + 4) // 10:
            continue
        if week_ago and (not held & week_ago or through & week_ago):
            return None  # not kept on this weekday a week ago: a weekly exception
        return count, days, spread, held
    return None


def night_began_late(
    routines: DailyRoutines, entity_id: str, day: int, held: int, until: int
) -> int:
    """How many quarters after its usual one the bed's night before ``day``'s morning
    began (0: on time, or not known). Usual: the first quarter from ``EVENING`` by which it
    was lain on every night of ``held`` (the mornings its habit was kept, each night seen
    from its evening), up to quarter ``until`` of the morning: a night later than any of
    them began late."""
    masks = routines.slots.get(entity_id)
    back = routines.day - day
    if masks is None or not 0 <= back < DAYS_KEPT - 1:
        return 0
    days = held.bit_count()
    seen, usual = 0, None
    for index in range(EVENING - SLOTS, until):
        seen |= _aligned(masks, index) & held
        if seen.bit_count() >= days:
            usual = index
            break
    if usual is None:
        return 0
    tonight = 1 << back
    for index in range(EVENING - SLOTS, until):
        if _aligned(masks, index) & tonight:
            return max(0, index - usual)
    return 0


def lain_on_since(routines: DailyRoutines, entity_id: str, start: datetime, now: datetime) -> bool:
    """Whether the bed was lain on in every quarter from ``start`` to ``now``: read as its
    habit is learned (``_lain_through``), a trip out of it of minutes (the toilet at
    half past seven, back in bed at twenty to eight) leaves no quarter empty and is no
    getting up; a rest after getting up (out of it for half an hour) is."""
    masks = routines.slots.get(entity_id)
    lying = routines.since.get(entity_id)
    if masks is None or lying is None:
        return False  # not lain on now
    moment = quarter_start(start)
    while moment <= now:
        if lying > moment + QUARTER:  # before the stay now under way
            slot, day = quarter_of(moment, routines.zone)
            back = routines.day - day
            if not 0 <= back < DAYS_KEPT or not masks[slot] >> back & 1:
                return False
        moment += QUARTER
    return True
