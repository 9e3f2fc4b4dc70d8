"""How long somebody who went through a door takes to come back through it.

A door passed (opened and shut within ``PASSAGE``) after a sign of somebody anywhere else
is somebody going through it: into the WC, out of a granny flat to the outhouse at night.
When the next sign of anybody anywhere is the same door opening again, they came back:
that trip's length (from the door shut behind them to its opening) is learned, per door
(and so it is, in the night quarter, when the door opens again within ``BACK_WITHIN``
after somebody else moved meanwhile: the house upstairs awake during her night trip to
the bathroom)
and quarter of the day (local), per day its longest and how many, ``DAYS_KEPT`` days.
When the next sign is anything else, the home went on without them coming back that way
(somebody else moved, or they went on elsewhere): the longest such quiet is kept too,
so a door people leave by, or go to bed behind, is never judged by its short trips. A
quiet is one only while no motion sensor of another room reads on (``busy``): people in
the kitchen all through a party, their sensor held on, are no quiet after a guest shut
the bathroom door (the judge never judges while one reads on either); it counts from the
last of them going off.

A quarter not learned yet borrows the door's whole day (``whole_day``): a WC is left within
minutes at every hour, and in a busy home each quarter gains about one trip a day (a trip
counts only when the next sign anywhere is the same door), so the afternoon of a WC whose
morning, evening and night all say "back within minutes" is not left unjudged for a week.
Only when the quarter itself has seen a trip back (the door is used then), and the day's
trips are ``MIN_TRIPS`` on ``MIN_DAYS`` days; its longest trip and its longest quiet not
followed by the way back are the longest of any quarter (the careful side).

A passage whose opening came right after the same door shut (nothing else between), or
within ``BACK_WITHIN`` of a passage out through it, is the way back, not a trip; but not
when that shut closed a way back itself out of a room with a motion sensor of its own: out
of the bathroom at 20:44 (its sensor went off), then nothing but the door again at 21:01,
is somebody going in (the ways in and back alternate). A door of a room nobody is seen in
may be a fridge's, opened again and again by one person standing at it: the old reading,
but only within ``BACK_WITHIN`` of the way back; later (the WC again at 02:10, 24 min after
he came out at 01:46, nothing between) it is somebody going in. A passage read as the way
back only so (right after the way back through it) may as well be somebody going in: the
door's next passage within ``BACK_WITHIN`` is its way back, whatever moved between (in
and out of the bathroom, in again, the kitchen seen, out: the ways in and back alternate;
read as a third way in, a Saturday shower's way out was told as a faint). Each door's opening is
its own: two doors opened seconds apart (two people, the WC and the kitchen door) are two
passages, not one lost to the other. Only
while someone may be home; everybody known away ends any trip. ``door_trip_out`` judges
the trip under way (the window's signs read by this same reading). Bounded: ``MAX_DOORS``
x 4 quarters x ``DAYS_KEPT`` days. No word of an id is read: a door is an opening sensor
by device class.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from datetime import datetime, timedelta, tzinfo
from typing import Any, NamedTuple

from .clock import slot_of
from .room_quiet import DAYS_KEPT, QUARTER_HOURS, QUARTERS, stored_quarters
from .stored_values import MAX_DAY, stored_entity_id, stored_items

MAX_DOORS = 64
# Opened and shut within this: somebody went through (longer: a door kept open).
PASSAGE = timedelta(minutes=2)
# The same door passed again within this after a passage out: the way back, whatever
# moved meanwhile (somebody else, a pet, a sensor's own noise).
BACK_WITHIN = timedelta(minutes=15)
# A quarter of a door is learned from this many trips back, on this many days.
MIN_TRIPS = 5
MIN_DAYS = 3
# A stored length longer than this is garbage (minutes; a fortnight).
MAX_MINUTES = 14 * 24 * 60.0


class DayTrips(NamedTuple):
    """One day's trips through a door at one quarter."""

    day: int
    longest: float  # minutes, the longest trip back through the door
    trips: int
    left: float  # minutes, the longest quiet after a passage that did not come back


class LearnedTrips(NamedTuple):
    """What a door's quarter taught."""

    longest: timedelta  # the longest trip back
    trips: int
    days: int
    left: timedelta  # the longest quiet after a passage not followed by the way back
    whole_day: bool = False  # learned from every quarter of the day (its own not yet)


class DoorTrips:
    """Per door and quarter of the day: how long a trip through it takes to come back."""

    def __init__(self, zone: tzinfo | None) -> None:
        self.zone = zone
        self.trips: dict[str, list[deque[DayTrips]]] = {}
        self._last: tuple[datetime, str, str] | None = None  # when, entity, state
        # each door opened and not shut yet: when, and whether as a way back (two people
        # through two doors at once: the WC's way in and the kitchen door's, seconds apart)
        self._opened: dict[str, tuple[datetime, bool, bool]] = {}
        self._out: tuple[datetime, str] | None = None  # a door shut behind somebody
        self._started: dict[str, datetime] = {}  # each door's last passage out, not yet back
        self._back_shut = False  # the last sign shut a way back (the next opening is no way back)
        self._busy: set[str] = set()  # other rooms' motion reading on since the door shut
        self._quiet_from: datetime | None = None  # the home quiet since (the last went off)
        self._came_back: tuple[datetime, str] | None = None  # the last sign: a way back shut
        # each door's passage read as a way back only because it came right after the way
        # back through it (the fridge reading), not yet followed by another passage
        self._doubtful: dict[str, datetime] = {}

    def sign(
        self,
        when: datetime,
        entity_id: str,
        state: str,
        *,
        door: bool,
        room_seen: bool = False,
        busy: frozenset[str] = frozenset(),
    ) -> None:
        """Somebody showed at ``when``: ``entity_id`` (a door, or a motion sensor turning
        on) changed to ``state``, while someone may be home; ``room_seen``: the door's room
        has a motion sensor of its own; ``busy``: the motion sensors of other rooms that
        read on now (for a door)."""
        last = self._last
        if last is not None and when < last[0]:
            return  # out of order
        out = self._out
        if out is not None:
            back = door and state == "on" and entity_id == out[1]
            quiet_from = None if self._busy else self._quiet_from
            self._learn(out[1], out[0], when, back=back, quiet_from=quiet_from)
            self._out = None
            self._busy = set()
        if door and state == "on":
            started = self._started.pop(entity_id, None)
            doubtful = self._doubtful.pop(entity_id, None)
            shut_right_before = last is not None and last[1] == entity_id and last[2] == "off"
            # After a way back through it, the door opened again with nothing between
            # is somebody going in once more when it came after ``BACK_WITHIN``: a fridge is
            # opened again and again within minutes, a WC again after the home's quiet.
            came_back = self._came_back
            again = came_back is not None and when - came_back[0] > BACK_WITHIN
            fridge = shut_right_before and not self._back_shut and not again
            way_back = (
                fridge
                or (started is not None and when - started <= BACK_WITHIN)
                or (doubtful is not None and when - doubtful <= BACK_WITHIN)
            )
            # Read as the way back only because it came right after the way back through it
            # (the fridge reading): it may as well be somebody going in (in and out of the
            # bathroom, then in again minutes later), so the door's next passage within
            # ``BACK_WITHIN`` is its way back, not another way in: the ways in and back
            # alternate.
            doubtful_now = fridge and came_back is not None and came_back[1] == entity_id
            if (
                started is not None
                and when - started <= BACK_WITHIN
                and (out is None or out[1] != entity_id)
                and slot_of(started, self.zone)[1] < QUARTER_HOURS
            ):
                # In the night, the way back after somebody else moved meanwhile (the one
                # up upstairs): a trip back all the same, its length from the door shut.
                # By day it may be anybody's way through (the washing hung out on the
                # balcony while the nanny moves inside): not learned, as before.
                self._learn(entity_id, started, when, back=True)
            if entity_id in self._opened or len(self._opened) < MAX_DOORS:
                self._opened[entity_id] = (when, way_back, doubtful_now)
        elif door and state == "off":
            opened = self._opened.pop(entity_id, None)
            self._back_shut = room_seen and opened is not None and opened[1]
            passed = opened is not None and when - opened[0] <= PASSAGE
            back = passed and opened is not None and opened[1]
            self._came_back = (when, entity_id) if back else None
            doubtful_back = back and opened is not None and opened[2]
            if doubtful_back and (entity_id in self._doubtful or len(self._doubtful) < MAX_DOORS):
                self._doubtful[entity_id] = when
            if passed and not back:
                self._out = (when, entity_id)
                self._busy = set(list(busy)[:MAX_DOORS])
                self._quiet_from = when
                if entity_id in self._started or len(self._started) < MAX_DOORS:
                    self._started[entity_id] = when
        if not (door and state == "off"):
            self._back_shut = False
            self._came_back = None
        self._last = (when, entity_id, state)

    def stopped(self, when: datetime, entity_id: str) -> None:
        """A motion sensor went off at ``when``: when the last of those reading on as a
        door shut behind somebody goes off, the home is quiet from then."""
        if entity_id in self._busy:
            self._busy.discard(entity_id)
            self._quiet_from = when

    def everybody_left(self) -> None:
        """Everybody is known away: no trip is under way."""
        self._last = self._out = self._quiet_from = self._came_back = None
        self._opened.clear()
        self._back_shut = False
        self._started.clear()
        self._doubtful.clear()
        self._busy = set()

    def under_way(self) -> tuple[datetime, str] | None:
        """The passage whose way back has not come yet (when the door shut, the door)."""
        return self._out

    def came_back(self) -> tuple[datetime, str] | None:
        """The last sign, when it shut a passage that was the way back through a door
        (when, the door): whoever went through it is back on this side."""
        return self._came_back

    def _learn(
        self,
        door: str,
        since: datetime,
        until: datetime,
        *,
        back: bool,
        quiet_from: datetime | None = None,
    ) -> None:
        """A trip back (``back``: from ``since``, the door shut, to ``until``) or a quiet
        not followed by the way back (from ``quiet_from``; None: the home was never quiet,
        another room's motion read on throughout)."""
        rows = self.trips.get(door)
        if rows is None:
            if len(self.trips) >= MAX_DOORS:
                return
            rows = self.trips[door] = [deque(maxlen=DAYS_KEPT) for _ in range(QUARTERS)]
        _, hour, day = slot_of(since, self.zone)
        days = rows[hour // QUARTER_HOURS]
        minutes = (until - since).total_seconds() / 60
        quiet = 0.0 if quiet_from is None else max(0.0, (until - quiet_from).total_seconds() / 60)
        trip, left = (minutes, 0.0) if back else (0.0, quiet)
        if days and days[-1].day == day:
            newest = days[-1]
            days[-1] = DayTrips(
                day,
                max(newest.longest, trip),
                newest.trips + back,
                max(newest.left, left),
            )
        elif not days or day > days[-1].day:
            days.append(DayTrips(day, trip, int(back), left))

    def learned(self, door: str, when: datetime) -> LearnedTrips | None:
        """What ``door`` taught at the quarter of ``when``, or over the whole day while the
        quarter is not learned but has seen a trip back (see the module); None while
        neither is learned."""
        rows = self.trips.get(door)
        if rows is None:
            return None
        _, hour, _ = slot_of(when, self.zone)
        quarter = list(rows[hour // QUARTER_HOURS])
        own = _learned(quarter)
        if own is not None or not any(row.trips for row in quarter):
            return own
        whole = _learned([row for days in rows for row in days])
        return None if whole is None else whole._replace(whole_day=True)

    # --- storage -----------------------------------------------------------------------

    def as_dict(self) -> dict[str, Any]:
        """JSON-serialisable form: per door, per quarter ``[day, longest, trips, left]``."""
        return {
            door: [
                [[r.day, round(r.longest, 1), r.trips, round(r.left, 1)] for r in days]
                for days in rows
            ]
            for door, rows in self.trips.items()
        }

    @classmethod
    def from_dict(cls, data: object, zone: tzinfo | None) -> DoorTrips:
        """Rebuild from stored data; anything malformed is dropped, never raised."""
        trips = cls(zone)
        if not isinstance(data, Mapping):
            return trips
        for door, rows in stored_items(data, MAX_DOORS):
            if not stored_entity_id(door) or not isinstance(rows, list) or len(rows) != QUARTERS:
                continue
            trips.trips[door] = stored_quarters(rows, _day_trips)
        return trips


def _learned(rows: list[DayTrips]) -> LearnedTrips | None:
    """What ``rows`` (one quarter's days, or every quarter's) taught; None while fewer than
    ``MIN_TRIPS`` trips back on ``MIN_DAYS`` days."""
    with_trips = [row for row in rows if row.trips]
    trips = sum(row.trips for row in with_trips)
    days = len({row.day for row in with_trips})
    if days < MIN_DAYS or trips < MIN_TRIPS:
        return None
    return LearnedTrips(
        timedelta(minutes=max(row.longest for row in with_trips)),
        trips,
        days,
        timedelta(minutes=max(row.left for row in rows)),
    )


def _minutes(value: object) -> bool:
    return (
        not isinstance(value, bool) and isinstance(value, int | float) and 0 <= value <= MAX_MINUTES
    )


def _day_trips(item: object) -> DayTrips | None:
    """A stored ``[day, longest, trips, left]``, or None when it is not one."""
    if not isinstance(item, list) or len(item) != 4:
        return None
    day, longest, count, left = item
    if isinstance(day, bool) or not isinstance(day, int) or not 1 <= day <= MAX_DAY:
        return None
    if not _minutes(longest) or not _minutes(left):
        return None
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= 1_000_000:
        return None
    return DayTrips(day, float(longest), count, float(left))
