"""A way out opened from inside while the household sleeps: news at once.

``went_out_at_night`` waits for nobody to move inside for minutes after a door opened in
the small hours: the one who went out is gone. A child who slips out, or onto a balcony,
is followed back in minutes (a parent, the child himself): the house moves again and the
door was never told. While the household sleeps (its own rest, ``DailyRhythm``: rested an
hour before the way to the door began, or back in bed after a bout of the night; nobody
sitting up: ``household_asleep``) nobody
lets a guest in or goes out, so somebody walking to a door and opening it is the news:

- a door whose part of the house has had no activity at these hours on any of the days
  learned (``area_unused``: a front hall, a balcony nobody uses at night), or
- a door whose nights are learned, opened in the small hours on none of them and within
  an hour either side of this time on no day kept, though its room lives at night (a
  dog's kitchen, a hall on the way to the toilet: the room's life says nothing of the
  door; a door opened every morning from 05:50 is the household's at 04:41), or
- in the first nights, before the door's night use is learned, a door whose lock was
  unlocked just before it opened (``KEY_REACH``): a locked way out, unlocked from inside.
  A door without a lock may be between two rooms, and is left to the learned nights.

Before the nights are learned, the household's rest is no proof that the one at the door
walked from sleep: somebody up and moving for ``UP_FOR`` and more before the door opened,
with no still spell of ``STILL`` between (``up_a_while``: a conductor up twenty minutes
with the kitchen lit, out at 04:58; a light switched on that long before and still on
says so however seldom the motion sensors saw him), may be a member off to an early
shift with phone and key; ``went_out_at_night`` then waits to see whether a phone leaves
and the door is locked behind. A child who walks from bed to the door in three minutes
is told at once.

A door this home uses at night (a smoker's, a dog let out) is still left alone by
``went_out_at_night``'s learned nights. No word of an id or a name is read.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from ..home import OCCUPANCY_DEVICE_CLASSES, HomeView
from ..keyed_doors import KEY_REACH, changed_to
from ..models import EntityState
from ..statistics.night import SMALL_HOURS_END, SMALL_HOURS_START
from .area_unused import SPREAD, days_unused
from .clock import local
from .daily_rhythm import BACK_TO_BED
from .daily_routines import quarter_of
from .household_asleep import SETTLED, sitting_up

if TYPE_CHECKING:
    from .home_baselines import HomeBaselines

# Somebody moving this long before the way out opened had been up, not walking from sleep...
UP_FOR = timedelta(minutes=10)
# ...unless a still spell this long came between (a child settled, everybody back to bed).
STILL = timedelta(minutes=10)
# The way to the door (``night_outings.ON_THE_WAY``, which reads this module).
ON_THE_WAY = timedelta(minutes=3)
# ``DailyRoutines`` keeps a day as quarter hours (a cover, not kept there, is read unused).
QUARTERS_AN_HOUR = 4


def asleep_at(home: HomeView, baselines: HomeBaselines, way: datetime) -> bool:
    """The household had rested ``SETTLED`` when somebody began the way at ``way`` (or
    such a rest ended in the small hours within ``BACK_TO_BED`` before it: a restless
    night, a child settled and everybody back to bed), and nobody sat up in a room."""
    rhythm = baselines.rhythm
    rest = rhythm.resting_since(home.end)
    if rest is not None and rest <= way:
        rested = way - rest >= SETTLED
    else:
        last = rhythm.last_rest
        rested = (
            last is not None
            and last[1] - last[0] >= SETTLED
            and timedelta(0) <= way - last[1] <= BACK_TO_BED
            and SMALL_HOURS_START <= local(last[1], baselines.zone).hour < SMALL_HOURS_END
        )
    return rested and not sitting_up(home, baselines, way)


def unused_way_out(
    home: HomeView,
    baselines: HomeBaselines,
    door: EntityState,
    opened: datetime,
    locks: list[str],
    *,
    learned: bool,
) -> bool:
    """The door is a way out nobody takes at this hour here: its area unused at these
    hours, or its nights ``learned`` and the door itself opened (in or out) on none of
    them nor within an hour either side of this time on any day kept
    (``door_unused_near``), or (its night use not ``learned`` yet) its lock unlocked just
    before."""
    if door.info.area and days_unused(home, baselines, door.info.area, opened):
        return True
    if learned:
        # Its room may live at night (a dog, a glass of water): the door itself does not.
        return not baselines.usual.nights_used(door.entity_id, skip=opened) and door_unused_near(
            baselines, door.entity_id, opened
        )
    unlocks = (t for lock in locks for t in changed_to(home, lock, "unlocked"))
    return any(opened - KEY_REACH <= t <= opened for t in unlocks)


def door_unused_near(baselines: HomeBaselines, door: str, opened: datetime) -> bool:
    """The door was opened within ``SPREAD`` hours either side of ``opened``'s time of day
    on none of the days kept before today (``DailyRoutines``: its quarters open, day by
    day), as ``area_unused`` reads its room: a door used from 05:50 every morning is the
    household's at 04:41 (up early for a feast), one never used before 06:40 is not."""
    masks = baselines.routines.slots.get(door)
    if masks is None:
        return True
    slot, day = quarter_of(opened, baselines.zone)
    hour = slot // QUARTERS_AN_HOUR
    used = 0
    for near in range(hour - SPREAD, hour + SPREAD + 1):
        start = (near % 24) * QUARTERS_AN_HOUR
        for quarter in range(start, start + QUARTERS_AN_HOUR):
            used |= masks[quarter]
    return not used & baselines.routines.before(day)


def up_a_while(home: HomeView, opened: datetime) -> bool:
    """Somebody moved inside for ``UP_FOR`` or more before ``opened``, with no still
    spell of ``STILL`` between, or switched a light on that long before and left it on
    (``lit_a_while``): up and about, not walking from sleep to the door."""
    if lit_a_while(home, opened):
        return True
    moves = sorted(
        change.when
        for sensor in home.of("binary_sensor", *OCCUPANCY_DEVICE_CLASSES)
        for change in home.changes(sensor.entity_id)
        if change.when <= opened
    )
    if not moves:
        return False
    start = moves[-1]
    for when in reversed(moves[:-1]):
        if start - when >= STILL:
            break
        start = when
    return opened - start >= UP_FOR


def lit_a_while(home: HomeView, opened: datetime) -> bool:
    """A light switched on ``UP_FOR`` or more before ``opened`` (within the window: not
    one left on since the evening) still read on when the way to the door began: somebody
    up with the room lit (a conductor's breakfast), however seldom the sensors saw them."""
    way = opened - ON_THE_WAY
    for light in home.of("light"):
        before = [c for c in home.changes(light.entity_id) if c.when <= way]
        if before and before[-1].state.lower() == "on" and opened - before[-1].when >= UP_FOR:
            return True
    return False
