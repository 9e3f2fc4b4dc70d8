"""Somebody went out while a load drew: who switched it on may be gone.

An iron switched on at 06:38 to straighten hair, left on the carpet at 07:25 for the carpool
while the mother is home on her day off; an oven left on by the baker who rushed out to
deliver the cake, the grandmother at home; a boy's heater left on in his room as he goes to
school. Somebody is home and awake, so "nobody minding it" (``household_still``) never
holds, and the load drawing at hours it never draws waited three hours
(``meter_habits.LONG_HOLD``). Who is home changed while it drew: a person tracked went out
after the run began and is still out. Of a run already longer than any it made here, that
says as much as a household asleep: whoever put it on may not be there to switch it off,
and whoever is home was not told it is on. No word of an id or a name is read.
"""

from __future__ import annotations

from datetime import datetime

from .home_baselines import HomeBaselines


def went_out_while_on(baselines: HomeBaselines, since: datetime) -> datetime | None:
    """When the first person tracked still out went out after ``since`` (the run's start);
    None when nobody out now left after it began."""
    quiet = baselines.quiet
    left = [
        when
        for person, here in quiet.presence.items()
        if here is False and (when := quiet.placed_at.get(person)) is not None and when >= since
    ]
    return min(left, default=None)
