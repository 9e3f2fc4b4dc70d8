"""A weekly lie-in: the mornings somebody stays in bed later are the same days of the week.

A bed left at half past seven on weekdays and at half past eight on Sundays has no quarter
it is left by on *every* morning, though on the weekdays it keeps one. The late mornings
say which: when every morning seen of some days of the week (at most ``MAX_DAYS`` of
them, next to each other: a weekend, whichever days it falls on) was one still in bed, and
no other morning was, they are a weekly exception, not a wandering habit. Today being one
of those days of the week, the exception holds: nothing is taken out, and the habit is
read on every day (no quarter then). Lie-ins spread over the week (a late night here, a
slow morning there) are no weekly exception.

Days as ``DayMasks`` keeps them: bit k is local day ordinal ``newest - k``.
"""

from __future__ import annotations

from .day_masks import DAYS_KEPT

MAX_DAYS = 2  # days of the week a weekly lie-in falls on (a weekend)
WEEK = 7


def _weekday(ordinal: int) -> int:
    return ordinal % WEEK


def weekly_lie_ins(newest: int, learned: int, late: int, today: int) -> int:
    """The days of ``learned`` (bits, bit k = day ``newest - k``) to leave out of a habit
    because they are a weekly lie-in (see above); 0 when ``late`` (the mornings still in
    bed) is no weekly exception or today falls on it."""
    late &= learned
    if not late:
        return 0
    weekdays: dict[int, tuple[int, int]] = {}  # weekday -> (mornings seen, late ones)
    for back in range(DAYS_KEPT):
        if learned >> back & 1:
            weekday = _weekday(newest - back)
            seen, lain = weekdays.get(weekday, (0, 0))
            weekdays[weekday] = (seen + 1, lain + (late >> back & 1))
    lying = {weekday for weekday, (seen, lain) in weekdays.items() if lain}
    if any(weekdays[weekday][1] < weekdays[weekday][0] for weekday in lying):
        return 0  # a late morning on a day of the week also left on time: no weekly one
    if len(lying) > MAX_DAYS or _weekday(today) in lying:
        return 0
    if len(lying) == MAX_DAYS and max(lying) - min(lying) not in (1, WEEK - 1):
        return 0  # two days of the week apart: lie-ins here and there, no weekend
    return late
