"""How soon a lock left unlocked is worth telling: sooner when the household winds down.

``long_stays`` judges a lock unlocked ``FACTOR`` times its longest learned stay, never
less than ``FLOOR`` (an hour of everyday use: a door unlocked while somebody gardens or
waits for a delivery). In the evening and at night that hour is too long: a lock this home
always locks again within a minute or two (seven evenings, never longer) left unlocked as
the household goes to bed is news in minutes, not at midnight. So a lock unlocked in the
evening or at night (the quarter of the day its stay began in) has a floor of
``REST_FLOOR`` (as ``entry_left_open``'s quarter of an hour and a bit): its limit is still
``FACTOR`` times its longest learned stay when that is longer, so a home that leaves its
door unlocked through the evening teaches its own limit. A lock turned for guests coming
and going is excused before this (``lock_in_use``). In the daytime the hour stands. Known
by domain; no word of an id is read.
"""

from __future__ import annotations

from datetime import datetime, timedelta, tzinfo

from ..models import EntityState
from .durations import quarter_of_day

# The floor of a lock's limit in the evening and at night.
REST_FLOOR = timedelta(minutes=20)
# Quarters of the day (``quarter_of_day``) the household winds down and rests in.
_REST_QUARTERS = frozenset({0, 3})


def lock_floor(
    state: EntityState, since: datetime, zone: tzinfo | None, floor: timedelta
) -> timedelta:
    """The floor of the limit of ``state``'s stay begun ``since``: ``REST_FLOOR`` for a
    lock unlocked in the evening or at night, ``floor`` otherwise."""
    if state.domain == "lock" and quarter_of_day(since, zone) in _REST_QUARTERS:
        return min(floor, REST_FLOOR)
    return floor
