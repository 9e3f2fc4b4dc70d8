"""How soon a lock left unlocked is worth telling: sooner in the hours the home rests.

``long_stays`` judges a lock unlocked ``FACTOR`` times its longest learned stay, never
less than ``FLOOR`` (an hour of everyday use: a door unlocked while somebody gardens, a
dinner's guests arriving). In the hours this home rests at (``still_in_room.resting_hours``:
its usual longest quiet then is an hour or more; before that is learned, the night) the
hour is too long: a lock this home always locks again within a minute or two, still
unlocked as the household goes to bed, is news in minutes, not at midnight. So a lock
judged in those hours or within ``BEDTIME_NEAR`` before them (the household going to bed is
not quiet yet), in the evening or at night (a home empty by day is quiet then too),
has a floor of ``REST_FLOOR``; its limit is still ``FACTOR`` times
its longest learned stay when that is longer (a home that leaves its door unlocked late
teaches its own limit), and a lock turned for guests coming and going is excused before
this (``lock_in_use``). A party in the evening is judged by the hour until the home's
rest hours begin. Known by domain and the home's learned quiet; no word of an id is read.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from ..home import HomeView
from ..models import EntityState
from .durations import quarter_of_day
from .home_baselines import HomeBaselines

# The floor of a lock's limit in the hours the home rests at...
REST_FLOOR = timedelta(minutes=20)
# ...or this close before them (going to bed: the home is not quiet yet)...
BEDTIME_NEAR = timedelta(hours=1)
# ...in the evening or at night (``quarter_of_day``).
_EVENING_AND_NIGHT = frozenset({3, 0})


def lock_floor(
    home: HomeView, baselines: HomeBaselines, state: EntityState, since: datetime, floor: timedelta
) -> timedelta:
    """The floor of the limit of ``state``'s stay begun ``since``: ``REST_FLOOR`` for a
    lock judged in the hours the home rests at, ``floor`` otherwise."""
    if state.domain != "lock" or floor <= REST_FLOOR:
        return floor
    from .still_in_room import resting_hours  # (it reads long_stays, which reads this)

    at = max(home.end, since + REST_FLOOR)
    if quarter_of_day(at, baselines.zone) not in _EVENING_AND_NIGHT:
        return floor  # (a home empty by day is quiet then too: that is no rest)
    return REST_FLOOR if resting_hours(home, baselines, at, at + BEDTIME_NEAR) else floor
