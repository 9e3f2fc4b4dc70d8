"""Out of bed in the night, and nothing since: a bed sensor says where the person is not.

``still_where_last_seen`` leaves a quiet begun in the hours this home rests at alone when
the last sign was in a room people rest in (the bedroom): it is sleep. But a bedroom with
a bed sensor (a mat under the mattress, a bed-exit pad: ``held_on.lain_on``) says more.
When that bed was lain on for ``LAIN`` or longer, was left in those hours, is still empty,
and nothing has moved anywhere since somebody was last seen in its room, they are not
asleep in it: they got up (for the toilet, the commode, a glass of water) and have neither
come back to it nor been seen anywhere else. An old person who slid off the bed reaching
for the commode lies on the bedroom floor exactly so.

Judged by this bed's own nights (``StateDurations``: how long it stayed empty when it was
left at this quarter of the day), as a room is (``room_limit``), never under ``FLOOR``
(``still_in_room``'s floor: a bed left says as much as a door shut behind somebody).
When this bed is left for long at this quarter (an early riser's day begins then, or
somebody sleeps elsewhere part of the night: ``LONG_AWAY``), its stays empty say nothing of
a trip: it is judged only by its own trips out and back at this quarter, learned
(``bed_returns``; an old man up at half past five for the day who is back in bed within
minutes from his toilet trips at two), and not at all without them. A bed never left at
this quarter yet (a bedridden person turned in it by a carer) is judged by the floor alone.

A bed left for the day is still judged by the next step of its leaver (``bed_exit``):
when, at this quarter, whoever left it always showed outside its room within minutes
(``bed_exits``: the bathroom for the ablution before the dawn prayer), and since it was
left nobody has been seen outside its room (their stirring on the floor inside it is
them), the wait is judged from the bed left: ``EXIT_FACTOR`` times the longest learned,
``EXIT_MARGIN`` more, never under ``EXIT_FLOOR``; at any hour (the hours learned say it).
"""

from __future__ import annotations

from datetime import datetime, timedelta, tzinfo
from typing import NamedTuple

from ..home import OCCUPANCY_DEVICE_CLASSES, HomeView, is_unavailable
from .bed_exits import BED_CLASSES, LAIN as EXIT_LAIN, LearnedExits
from .bed_returns import PRIOR
from .clock import local
from .held_on import HELD, lain_on
from .home_baselines import HomeBaselines
from .inside_signs import inside_signs
from .long_stays import duration_text
from .room_limit import room_limit
from .still_in_room import MIN_LIMIT as FLOOR
from .trip_quarters import LearnedTrips

# The bed was lain on this long before it was left: somebody was in it for the night (a
# child bouncing on it, a cat's minute, is no night in bed).
LAIN = HELD
# A bed left this long at this quarter of the day on a day learned is left for the day or
# for another bed, not only for a trip: nothing is told of it.
LONG_AWAY = timedelta(hours=1)
# Judged by the bed's trips (``bed_returns``): never before nothing has moved at all for
# this long.
QUIET = timedelta(minutes=15)


class BedLeft(NamedTuple):
    """A bed left in the night and still empty, and how long that may last."""

    bed: str  # the bed sensor's entity id
    name: str  # its name, as the household gave it
    left: datetime  # when it was left
    limit: timedelta  # how long after the last sign the quiet may last
    longest: timedelta | None  # the longest this bed stayed empty at this quarter
    stays: int  # how many times it was left at this quarter
    trips: LearnedTrips | None = None  # its trips out and back at this quarter (None: prior)
    by_trips: bool = False  # judged by its trips (``_by_trips``), not by its stays empty

    def why(self, zone: tzinfo | None) -> str:
        """Why the quiet is judged, and by what (for the finding)."""
        if self.by_trips:
            return (
                f"It began in the hours this home rests at, but {self.name} was left at "
                f"{local(self.left, zone):%H:%M}, nobody has lain on it since nor been seen "
                f"outside its room; {trips_text(self.trips)}"
            )
        learned = (
            f"when it was left at this time of day it was empty for at most "
            f"{duration_text(self.longest)} ({self.stays} times)"
            if self.longest is not None
            else "it has not been left at this time of day before"
        )
        return (
            f"It began in the hours this home rests at, but {self.name} was left at "
            f"{local(self.left, zone):%H:%M} and nobody has lain on it since; {learned}"
        )


def bed_left(
    home: HomeView, baselines: HomeBaselines, area: str, since: datetime
) -> BedLeft | None:
    """The bed in ``area`` that somebody left before the quiet from ``since`` began and
    has not lain on again, when this bed is left only for trips at this time of day."""
    durations = baselines.durations
    for sensor in home.in_area(area):
        if (
            sensor.domain != "binary_sensor"
            or sensor.info.device_class not in OCCUPANCY_DEVICE_CLASSES
            or is_unavailable(sensor)
            or sensor.state != "off"
            or not lain_on(baselines, sensor.entity_id)
        ):
            continue
        current = durations.current.get(sensor.entity_id)
        before = durations.last_stay.get(sensor.entity_id)
        if current is None or before is None or current[0] != "off":
            continue
        left = current[1]
        state, lain_from, lain_until = before
        if state != "on" or lain_until != left or left - lain_from < LAIN or left > since:
            continue  # not lain on until it was left (or left after the quiet began)
        usual = durations.usual(sensor.entity_id, "off", left)
        longest = timedelta(minutes=usual[2]) if usual is not None else None
        limit = room_limit(longest or timedelta(), FLOOR)
        stays = usual[0] if usual is not None else 0
        found = BedLeft(sensor.entity_id, sensor.info.name, left, limit, longest, stays)
        if longest is not None and longest >= LONG_AWAY:
            # Left for long at this quarter too (the day begun at half past five): only
            # the bed's own trips at this quarter, learned, say this is one of them.
            judged = _by_trips(home, baselines, found, area, since)
            if judged.by_trips and judged.trips is not None:
                return judged
            continue
        return _by_trips(home, baselines, found, area, since)
    return None


def _by_trips(
    home: HomeView, baselines: HomeBaselines, found: BedLeft, area: str, since: datetime
) -> BedLeft:
    """``found`` judged by this bed's own trips instead, when that is sooner: its leaver
    seen nowhere but its room since it was left (the window shows it left), the wait
    counted from the bed left (a stir on the floor is them, and restarts nothing), but
    never under ``QUIET`` of nothing moving at all (somebody sitting up awake in the room
    moves now and then)."""
    if not shown_left(home, found.bed, found.left) or any(
        when > found.left and where != area for when, where in inside_signs(home)
    ):
        return found
    trips = baselines.bed_exits.returns.limit(found.bed, found.left)
    if trips is None:
        return found  # left outside the night: the day begun
    limit = max(QUIET, found.left + trips[0] - since)
    if limit >= found.limit:
        return found
    return found._replace(limit=limit, trips=trips[1], by_trips=True)


def shown_left(home: HomeView, bed: str, left: datetime) -> bool:
    """The window shows ``bed`` left at ``left``: what moved since is all in it."""
    return any(
        change.state == "off" and abs(change.when - left) <= SAME_MOMENT
        for change in home.changes(bed)
    )


def trips_text(trips: LearnedTrips | None) -> str:
    """What a bed's trips taught, for a finding."""
    if trips is None:
        return (
            "its trips out of bed at this time of day are not learned yet, so "
            f"{duration_text(PRIOR)} is waited (a prior)"
        )
    return (
        "when it was left at this time of day, whoever left it was back in it within "
        f"{duration_text(trips.longest)} ({trips.trips} times on {trips.days} days)"
    )


# Never told sooner after the bed was left than this (``door_trip_out``'s floor: as a door
# somebody always comes back through within minutes)...
EXIT_FLOOR = timedelta(minutes=20)
# ...and past this many times the longest wait learned, at least ``EXIT_MARGIN`` more.
EXIT_FACTOR = 2.0
EXIT_MARGIN = timedelta(minutes=10)
# Only a bed whose leaver always shows outside its room within this at this time of day:
# one who stays in the room (dresses, prays, reads) is no one to wait for.
EXIT_SHORT = timedelta(minutes=15)
# The bed's change in the window read as the one learned (rounding of stored times).
SAME_MOMENT = timedelta(seconds=1)


class BedExit(NamedTuple):
    """A bed left and still empty, nobody seen outside its room since, though this bed's
    leaver always shows outside it within minutes (``bed_exits``)."""

    bed: str
    name: str
    area: str
    left: datetime
    limit: timedelta  # from ``left``
    learned: LearnedExits

    def why(self, zone: tzinfo | None) -> str:
        """Why the quiet is judged, and by what (for the finding)."""
        learned = self.learned
        return (
            f"{self.name} was left at {local(self.left, zone):%H:%M} and nobody has lain on it "
            f"since nor been seen outside {self.area}; when it was left at this time of day, "
            f"somebody showed outside {self.area} within {duration_text(learned.longest)} "
            f"({learned.exits} times on {learned.days} days)"
        )


def bed_exit(home: HomeView, baselines: HomeBaselines, area: str) -> BedExit | None:
    """The bed in ``area`` somebody left and has not lain on again, with nobody seen
    outside ``area`` since, when its leaver always shows outside it within minutes at
    this time of day (``bed_exits``); None otherwise."""
    for sensor in home.in_area(area):
        if (
            sensor.domain != "binary_sensor"
            or sensor.info.device_class not in BED_CLASSES
            or is_unavailable(sensor)
            or sensor.state != "off"
            or not lain_on(baselines, sensor.entity_id)
        ):
            continue
        current = baselines.durations.current.get(sensor.entity_id)
        before = baselines.durations.last_stay.get(sensor.entity_id)
        if current is None or before is None or current[0] != "off":
            continue
        left = current[1]
        state, lain_from, lain_until = before
        if state != "on" or lain_until != left or left - lain_from < EXIT_LAIN:
            continue
        if not shown_left(home, sensor.entity_id, left):
            continue  # the window does not show the bed left: what moved since is not seen
        learned = baselines.bed_exits.learned(sensor.entity_id, left)
        if learned is None or learned.longest >= EXIT_SHORT:
            continue
        if any(when > left and where != area for when, where in inside_signs(home)):
            continue  # seen outside the room since: no longer there
        limit = max(EXIT_FLOOR, learned.longest * EXIT_FACTOR, learned.longest + EXIT_MARGIN)
        return BedExit(sensor.entity_id, sensor.info.name, area, left, limit, learned)
    return None
