"""A sensor held "on" far past every stay it had, nobody else seen: somebody there, not moving.

``held_on.moving_now`` reads a sensor held ``on`` as movement: a motion sensor in a busy
room (a party keeps it on all evening). But a presence sensor in a bathroom reads ``on``
for as long as somebody is *there*: the toilet at night, a few minutes, every night. When
it has been ``on`` far longer than any stay it ever had at this time of day (learned,
``StateDurations``) and nothing else in the house has shown anybody since it went on (no
other sensor on, no door or window used but the door they went in by: no party, nobody
else up), that is one person in one place who has not left it: somebody on the floor
between the toilet and the wall, not somebody moving (never in a room with a way out of
the home: a hall the family came home through). Its going ``on`` stays the last sign of
them, and the place's own stays judge the quiet since (``still_in_room``: the room that
keeps them, its door shut behind them): sooner than the home's quiet after that room,
which may be the night's.

"Far longer" is the room's own reading (``still_in_room``): ``FACTOR`` times the longest
stay learned, at least ``MARGIN`` more. A sensor whose stays are not learned yet is left
as it was (movement). The glue analyses again when a held sensor passes it
(``held_past_due``).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import NamedTuple

from ..home import (
    OCCUPANCY_DEVICE_CLASSES,
    OPENING_DEVICE_CLASSES,
    UNAVAILABLE_STATES,
    HomeView,
    is_on,
)
from ..models import EntityState
from ..outdoor_areas import outdoor_area
from .door_trips import PASSAGE
from .home_baselines import HomeBaselines
from .long_stays import duration_text, stay_since
from .ways_in import way_out

# Far past its stays: this many times the longest learned (``still_in_room`` judges a
# room's quiet by the same)...
FACTOR = 1.5
# ...at least this much more.
MARGIN = timedelta(minutes=20)


class HeldStay(NamedTuple):
    """A sensor on since ``since``, and how long its stays at this time of day last."""

    entity_id: str
    name: str
    since: datetime
    longest: timedelta  # its longest stay learned at this time of day
    stays: int  # how many
    limit: timedelta  # from ``since``

    def why(self) -> str:
        """What the sensor's stays taught (for a finding)."""
        return (
            f"{self.name} has read somebody there since then; at this time of day it never "
            f"read anybody there for more than {duration_text(self.longest)} "
            f"({self.stays} stays)"
        )


def far_past(longest: timedelta) -> timedelta:
    """How long past ``longest`` learned is far past it: ``FACTOR`` times, ``MARGIN`` more."""
    return max(longest * FACTOR, longest + MARGIN)


def held_stay(
    home: HomeView, baselines: HomeBaselines, sensor: EntityState, since: datetime
) -> HeldStay | None:
    """``sensor``'s stay from ``since`` and its limit, learned; None when not learned."""
    learned = baselines.durations.longest(sensor.entity_id, "on", since)
    if learned is None:
        return None
    longest = timedelta(minutes=learned[1])
    return HeldStay(
        sensor.entity_id, sensor.info.name, since, longest, learned[0], far_past(longest)
    )


def held_past_its_stays(
    home: HomeView, baselines: HomeBaselines, sensor: EntityState, since: datetime
) -> bool:
    """Whether ``sensor``, ``on`` since ``since``, has been so far longer than it ever was
    at this time of day, with nobody seen anywhere in the house since it went on."""
    stay = held_stay(home, baselines, sensor, since)
    if stay is None or home.end - since <= stay.limit:
        return False
    return not _seen_since(home, sensor, since) and not _by_a_way_out(home, baselines, sensor)


def _by_a_way_out(home: HomeView, baselines: HomeBaselines, sensor: EntityState) -> bool:
    """Whether ``sensor``'s room holds a way out of the home (a door beside a lock, one
    the tracked household comes and goes by: ``door_trip_out``'s reading): a hall the
    family has just come home through keeps nobody, whatever its sensor holds."""
    area = sensor.info.area
    return any(
        way_out(home, door.entity_id) or baselines.inside.came_and_went_by(door.entity_id)
        for door in home.of("binary_sensor", *OPENING_DEVICE_CLASSES)
        if door.info.area == area
    )


def _seen_since(home: HomeView, sensor: EntityState, since: datetime) -> bool:
    """Somebody seen since ``since`` but by ``sensor``: another motion, occupancy or
    presence sensor on (in its room too: a second person there), a door or window used
    (its own room's within ``PASSAGE`` of ``since``: the door shut behind them, theirs);
    outside the house nothing counts (``outdoor_areas``)."""
    area = sensor.info.area
    for other in home.of("binary_sensor", *OCCUPANCY_DEVICE_CLASSES, *OPENING_DEVICE_CLASSES):
        where = other.info.area
        if other.entity_id == sensor.entity_id or not where or outdoor_area(where):
            continue
        motion = other.info.device_class in OCCUPANCY_DEVICE_CLASSES
        # Its own room's door used as the sensor went on is the way in, theirs; later,
        # somebody in there moving (the fridge opened in a kitchen full of family).
        after = since + PASSAGE if not motion and where == area else since
        if any(
            change.when > after
            and (change.state == "on" or not motion)
            and change.state not in UNAVAILABLE_STATES
            for change in home.changes(other.entity_id)
        ):
            return True
    return False


def held_in(
    home: HomeView, baselines: HomeBaselines, area: str, since: datetime
) -> HeldStay | None:
    """The sensor of ``area`` on since ``since`` or before (on through the last sign of
    anybody, its room's door shut behind them), with its learned stays; None when there is
    none."""
    for sensor in home.in_area(area):
        if (
            sensor.domain != "binary_sensor"
            or sensor.info.device_class not in OCCUPANCY_DEVICE_CLASSES
            or not is_on(sensor)
        ):
            continue
        on_since = stay_since(home, baselines, sensor)
        if on_since is None or on_since > since + SAME_SIGN:
            continue
        if _by_a_way_out(home, baselines, sensor):
            continue
        if (stay := held_stay(home, baselines, sensor, on_since)) is not None:
            return stay
    return None


# The sensor's going on read as the quiet's last sign (stored times are rounded).
SAME_SIGN = timedelta(seconds=1)


def held_past_due(home: HomeView, baselines: HomeBaselines | None) -> datetime | None:
    """When a sensor on now, with nobody seen elsewhere since it went on, passes its
    stays' limit, if that is still ahead."""
    if baselines is None:
        return None
    due: datetime | None = None
    for sensor in home.of("binary_sensor", *OCCUPANCY_DEVICE_CLASSES):
        if not is_on(sensor):
            continue
        since = stay_since(home, baselines, sensor)
        if since is None or (stay := held_stay(home, baselines, sensor, since)) is None:
            continue
        if _by_a_way_out(home, baselines, sensor):
            continue
        when = since + stay.limit
        if when > home.end and (due is None or when < due) and not _seen_since(home, sensor, since):
            due = when
    return due
