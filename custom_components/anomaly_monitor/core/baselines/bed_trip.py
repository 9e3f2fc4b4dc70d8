"""Out of bed in the night to a room left within minutes, and still there.

``night_trips`` judges a quiet after a room this home leaves within minutes (a bathroom, a
hall) by the quiet since its *last* sign, and only when the home's rhythm saw a night's
rest before the trip. Two things hide a fall there: somebody else up late (a taxi driver
home at 02:30, in the kitchen until 03:28) or a dog in the yard breaks the rhythm's rest;
and the person on the floor stirs now and then (her sensor sees an arm move), each stir
a new last sign that starts the quiet again, so a limit of an hour never passes before
somebody wakes and finds her.

A bed sensor says more (``held_on.lain_on``). When a bed lain on for ``LAIN`` was left,
is still empty, and since then somebody was seen on the way to one room and then only
there (nobody anywhere else: no sign of another room in the house; what moved outside
the house is no sign of anybody inside, ``outdoor_areas``), the person who left the bed
is in that room, and stirring there is them. Their stay there is counted from their
first sign in it, and judged by how long this home is quiet after a sign in that room at
this quarter of the day on other days (``RoomQuiet``; today's quiets are the stay's own
stirrings), as a room is (``room_limit``), never under ``FLOOR`` (``bed_left``'s: a bed
left says as much as a door shut behind somebody). Only a room this home always leaves
within minutes (every quarter learned under ``night_trips.PASSING``): in a living room
somebody who could not sleep may sit for hours.

Sooner when the bed's own trips say so (``bed_returns``: whoever leaves it at this quarter
is back in it within minutes, the grandmother's eight-minute toilet trip every night): the
stay is then judged from the bed left, by those trips (``bed_returns.FACTOR``), or by its
prior while they are not learned (the first nights). In the first nights no quarter of the
room is learned yet (3 days): the room's quiets seen so far say whether it is left within
minutes (``_passing_so_far``), and only the bed's prior judges the stay then.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import NamedTuple

from ..home import (
    OCCUPANCY_DEVICE_CLASSES,
    HomeView,
    is_unavailable,
)
from .held_on import lain_on
from .home_baselines import HomeBaselines
from .inside_signs import inside_signs
from .night_trips import PASSING
from .room_limit import room_limit
from .room_quiet import MIN_QUIETS, LearnedQuiet
from .still_in_room import MIN_LIMIT as FLOOR
from .trip_quarters import LearnedTrips

# The bed was lain on this long before it was left: somebody lay down in it (back from an
# earlier trip of the night, they have not lain the hour ``bed_left`` asks; a cat's minute
# or a child bouncing on it is still none).
LAIN = timedelta(minutes=30)
# From the bed left to the first sign in the room they stayed in: the way there.
WALK = timedelta(minutes=10)


class BedTrip(NamedTuple):
    """A bed left for a room somebody is still in, and how long that stay may last."""

    bed: str  # the bed sensor's entity id
    name: str  # its name, as the household gave it
    left: datetime  # when the bed was left
    area: str  # the room they went to and stayed in
    arrived: datetime  # their first sign there
    limit: timedelta  # how long the stay may last, from ``arrived``
    room: LearnedQuiet  # the longest quiet after a sign in that room at this quarter
    trips: LearnedTrips | None = None  # the bed's trips out and back (None: the prior)
    by_trips: bool = False  # judged by the bed's trips, from ``left``


def bed_trip(home: HomeView, baselines: HomeBaselines) -> BedTrip | None:
    """The stay under way of somebody who left a bed and went to one room (see the
    module); None when there is no such stay or the room is not one left within minutes."""
    signs = inside_signs(home)
    if not signs:
        return None
    area = signs[-1][1]
    arrived = signs[-1][0]
    for when, where in reversed(signs):
        if where != area:
            break
        arrived = when
    for bed in home.of("binary_sensor", *OCCUPANCY_DEVICE_CLASSES):
        if bed.info.area == area or is_unavailable(bed) or bed.state != "off":
            continue
        left = _left(baselines, bed.entity_id)
        if left is None or not left <= arrived <= left + WALK:
            continue
        trips = baselines.bed_exits.returns.limit(bed.entity_id, left)
        room = _passing(baselines, area, arrived)
        if room is None and trips is not None and trips[1] is None:
            room = _passing_so_far(baselines, area, arrived)  # the first nights: the prior
        if room is None:
            return None
        limit = room_limit(room.longest, FLOOR)
        found = BedTrip(bed.entity_id, bed.info.name, left, area, arrived, limit, room)
        if trips is not None and left + trips[0] < arrived + limit:  # sooner (see the module)
            return found._replace(limit=left + trips[0] - arrived, trips=trips[1], by_trips=True)
        return found
    return None


def _left(baselines: HomeBaselines, entity_id: str) -> datetime | None:
    """When this bed, lain on for ``LAIN`` until then, was left (empty since)."""
    if not lain_on(baselines, entity_id):
        return None
    durations = baselines.durations
    current = durations.current.get(entity_id)
    before = durations.last_stay.get(entity_id)
    if current is None or before is None or current[0] != "off":
        return None
    state, lain_from, lain_until = before
    if state != "on" or lain_until != current[1] or current[1] - lain_from < LAIN:
        return None
    return current[1]


def _passing(baselines: HomeBaselines, area: str, arrived: datetime) -> LearnedQuiet | None:
    """What this home's other days taught of ``area`` at ``arrived``'s quarter, when it is
    a room this home always leaves within minutes; None otherwise or not learned."""
    quarters = baselines.room_quiet.learned_quarters(area)
    if not quarters or any(learned.longest >= PASSING for learned in quarters):
        return None
    return baselines.room_quiet.learned(area, arrived, other_days=True)


def _passing_so_far(baselines: HomeBaselines, area: str, arrived: datetime) -> LearnedQuiet | None:
    """In the first days (no quarter of ``area`` learned yet), the quiets after a sign in
    it seen so far, when there are as many as a quarter is learned from and none lasted
    ``PASSING``: no room anybody was seen to stay in, so far (a living room where somebody
    who could not sleep sits is one, once one evening on its sofa was seen); None otherwise."""
    room_quiet = baselines.room_quiet
    if room_quiet.learned_quarters(area):
        return None  # learned: ``_passing`` judged it
    seen = room_quiet.seen_so_far(area, arrived)
    if seen is None or seen.quiets < MIN_QUIETS or seen.longest >= PASSING:
        return None
    return seen
