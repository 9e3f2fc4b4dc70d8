"""A trip out of the night's rest that never came back: the toilet at 03:00, then nothing.

``still_where_last_seen`` leaves the hours this home rests at alone: a quiet then is sleep,
wherever somebody was last seen, and the hours' usual quiet (a night's) would wait until
morning anyway. But where the last sign was says whether it is sleep. A room this home
leaves within minutes at every quarter of the day it has learned (``RoomQuiet``: a
bathroom, a stair, a hall; never the bedroom, after which the night follows) is no place
to rest: a quiet after it in the night is somebody who did not come back to bed.

Only a trip out of the night's rest (``DailyRhythm``: a rest of three hours or more under
way before the trip, which it joins as a bout of movement, or ended in the small hours just
before it): somebody still up who goes quiet after the kitchen at 03:40 went to bed,
wherever the sensors last saw them.

And only when the trip was seen on its way there, in another room after the rest ended
(``RoomQuiet.came_from``: the bedroom, the hall): the way back would be seen there too.
A bathroom whose only sensor is its own (a bedroom with none) says nothing of a return.
The rest is learned from motion alone: the bedroom door opened on the way out comes a
moment before the first movement of the trip (``LEAD``), and a trip seen only by doors
(the bedroom's, then the bathroom's, in a flat whose only motion sensors are in the living
room) shows no movement at all; such a door is still the way there.

Judged by the room, learned from this home:

- the room's quarter of the day the quiet began in is learned (this home went back to bed
  seen from there on ``room_quiet.MIN_DAYS`` nights): its longest quiet, judged as by day
  (``room_limit``);
- not learned there yet (night trips are rarer than days): ``PRIOR_LIMIT`` at least (a
  prior: a toilet trip of two hours is none), when ``MIN_QUARTERS`` quarters of the room
  are learned and all short.

Not where a pet may move (its sensor moves while the home is empty, or, with pets in the
profile, the home is not learned empty yet), nor where a bed of the room is lain on now
(``held_on.lain_on``): a boy back in his bed at 02:36 is asleep, however short this home's
quiets after his room by day. A home whose night trips go back to bed
unseen (no sensor in the bedroom) teaches a long quiet after the bathroom at night: then
the room is one people rest after, and nothing is told. The finding says which judged
it (the nights learned, or the prior).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import NamedTuple

from ..home import OCCUPANCY_DEVICE_CLASSES, HomeView, is_on
from .clock import local
from .daily_rhythm import BACK_TO_BED, MIN_REST, NIGHT_ENDS, TRIP
from .held_on import lain_on
from .home_baselines import HomeBaselines
from .lived_while_away import maybe_a_pet
from .room_limit import room_limit
from .room_quiet import LearnedQuiet

# A room this home leaves within less than this at every learned quarter is no place to
# rest (``still_in_room.RESTING``: the hours' quiet that makes them rest hours).
PASSING = timedelta(hours=1)
# The room's night not learned: judged by its other quarters, never under this (a prior).
PRIOR_LIMIT = timedelta(hours=2)
MIN_QUARTERS = 2
# A sign in another room this long before the trip's first movement (the bedroom door
# opened on the way out) is the way there: the rhythm's bouts are motion only. Somebody
# walking out of a room is seen by the next sensor within seconds; a window forced from
# the garden two minutes before the chapel's motion is nobody's way out of bed.
LEAD = timedelta(minutes=1)


class NightTrip(NamedTuple):
    """The limit of a quiet begun in the night in a room this home leaves within minutes."""

    limit: timedelta
    room: LearnedQuiet  # the longest quiet after the room (its quarter, or its widest)
    learned_here: bool  # the room's quarter of the night is learned (else the prior)


def night_trip(
    home: HomeView, baselines: HomeBaselines, area: str, since: datetime
) -> NightTrip | None:
    """How long a quiet from ``since`` after a sign in ``area`` may last, when ``area`` is
    a room this home leaves within minutes; None when it is not (or not learned), or when
    its motion may be a pet's (``somebody_in.maybe_a_pet``: the cat in the kitchen at
    night is nobody's trip)."""
    began = _out_of_rest(baselines, home, since)
    if began is None:
        return None  # no trip out of a rest: the evening's end (a night owl off to bed)
    came = baselines.room_quiet.came_from
    if came is None or came[0] < began - LEAD or came[1] == area:
        return None  # not seen on the way there: the way back would not be seen either
    sensors = [
        s for s in home.of("binary_sensor", *OCCUPANCY_DEVICE_CLASSES) if s.info.area == area
    ]
    if any(maybe_a_pet(baselines, home, sensor.entity_id, since) for sensor in sensors):
        return None
    if any(is_on(sensor) and lain_on(baselines, sensor.entity_id) for sensor in sensors):
        return None  # a bed there is lain on: the trip ended back in bed
    quarters = baselines.room_quiet.learned_quarters(area)
    if not quarters or any(learned.longest >= PASSING for learned in quarters):
        return None  # somebody rests after it (the bedroom), or nothing is known of it
    here = baselines.room_quiet.learned(area, since)
    if here is not None:
        return NightTrip(room_limit(here.longest), here, learned_here=True)
    if len(quarters) < MIN_QUARTERS:
        return None
    widest = max(quarters, key=lambda learned: learned.longest)
    return NightTrip(room_limit(widest.longest, PRIOR_LIMIT), widest, learned_here=False)


def _out_of_rest(baselines: HomeBaselines, home: HomeView, since: datetime) -> datetime | None:
    """Whether the last movement at ``since`` was a bout out of the night's rest (a rest of
    ``MIN_REST`` at least: an hour still at the desk is no night): the rest under way began
    before it, or one that ended in the small hours ended within ``BACK_TO_BED`` before it
    (the rhythm's own restless night: up at 02:40, the toilet at 03:05). When the bout
    began, or None."""
    rhythm = baselines.rhythm
    rest = rhythm.resting_since(home.end)
    if rest is not None and rest <= since - TRIP:
        bout = rhythm.bout_start or since
        return bout if bout - rest >= MIN_REST else None
    closed = rhythm.closed_rest
    if (
        closed is not None
        and closed[1] - closed[0] >= MIN_REST
        and closed[1] <= since <= closed[1] + BACK_TO_BED
        and local(closed[1], baselines.zone).hour < NIGHT_ENDS
    ):
        return closed[1]
    return None
