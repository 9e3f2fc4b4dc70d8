"""A door held open in the hours the home rests: news in minutes, not at the hour's floor.

``long_stays`` judges a door open ``FACTOR`` times its longest learned stay, never under an
hour; ``entry_left_open`` tells one open past 15 min with nobody by it. By night both are
slow for a door this home always shuts at once: the grandfather gone out into the gallery,
a fall on the patio with the door left open behind. Two truths of the home's night, in the
hours it rests at (``still_in_room.resting_hours``) in the evening or at night (a home empty
by day is quiet then too, as ``lock_floor`` reads it):

- **a quick door**: every stay learned at this quarter (or over the day) ended within
  ``QUICK_USE`` (a toilet trip through the back door, the dogs let out). Held open with
  nothing moving beside it (``attended_doors.unattended``) for ``QUICK_LIMIT`` (or
  ``FACTOR`` times its longest, when longer), somebody went through and did not come back;
- **a door open with the household asleep**: nothing has moved anywhere in the home for
  ``ASLEEP_LIMIT`` with it open (everybody went to bed and it swung open behind the last
  guest). Its learned longest night stay (a party's guests, a late return: people moving
  inside) says nothing then. Only for a door whose stays at this quarter stay under
  ``attended_doors.ATTENDED_LIMIT`` (a door kept open all night in summer is that home's
  habit: ``long_stays`` judges it by its learned stays).

Only a door shut after each use (``device_roles.shut_after_use``). No word of an id is read.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from itertools import pairwise

from ..device_roles import shut_after_use
from ..home import OCCUPANCY_DEVICE_CLASSES, HomeView
from ..models import EntityState
from ..statistics.timeline import Interval
from .attended_doors import ATTENDED_LIMIT, unattended
from .door_watchers import not_watching
from .durations import quarter_of_day
from .home_baselines import HomeBaselines

# Every stay learned at this hour ended within this: a door this home shuts at once...
QUICK_USE = timedelta(minutes=2)
# ...held open this long with nothing moving beside it is news at night...
QUICK_LIMIT = timedelta(minutes=10)
# ...or this many times its longest stay, when longer.
FACTOR = 5.0
# Nothing moving anywhere in the home this long with a door open at night: all asleep.
ASLEEP_LIMIT = timedelta(minutes=45)
# The evening and the night (``quarter_of_day``): by day a quiet home is an empty one.
_EVENING_AND_NIGHT = frozenset({3, 0})


def rest_door_limit(
    home: HomeView,
    baselines: HomeBaselines,
    state: EntityState,
    since: datetime,
    longest: timedelta,
) -> timedelta | None:
    """How long the open ``state`` (open ``since``, its learned longest stay ``longest``)
    may stay open, counted from ``since``, when a truth above says sooner than the learned
    limit; None when neither applies."""
    if state.domain != "binary_sensor" or not shut_after_use(home, state.entity_id):
        return None
    start = home.window.start
    if start is None or start > since:
        return None  # what moved by it since it opened is not in the window: unknown
    from .still_in_room import resting_hours  # (it reads long_stays, which reads this)

    if quarter_of_day(since, baselines.zone) not in _EVENING_AND_NIGHT or not resting_hours(
        home, baselines, since, since
    ):
        return None
    limits: list[timedelta] = []
    if longest <= QUICK_USE:
        spell = Interval(state.entity_id, state.state, since, home.end, ongoing=True)
        blind = not_watching(home, baselines, state.entity_id)  # (a camera on the street)
        attended = spell.duration - unattended(home, state.entity_id, spell, blind)
        limits.append(attended + max(QUICK_LIMIT, FACTOR * longest))
    if longest < ATTENDED_LIMIT:
        still = _still_since(home, since)
        if still is not None:
            limits.append(still - since + ASLEEP_LIMIT)
    return min(limits, default=None)


def _still_since(home: HomeView, since: datetime) -> datetime | None:
    """Since when nothing has moved anywhere in the home (the last motion sensor's change
    after ``since``, or ``since``); None while one reads movement now."""
    last = since
    for sensor in home.of("binary_sensor", *OCCUPANCY_DEVICE_CLASSES):
        if sensor.state == "on":
            return None
        for before, after in pairwise(home.changes(sensor.entity_id)):
            if (after.state == "on" or before.state == "on") and after.when > last:
                last = after.when
    return last
