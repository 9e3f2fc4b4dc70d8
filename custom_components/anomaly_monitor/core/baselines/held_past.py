"""A sensor held "on" far past every stay it had, nobody else seen: somebody there, not moving.

``held_on.moving_now`` reads a sensor held ``on`` as movement: a motion sensor in a busy
room (a party keeps it on all evening). But a presence sensor in a bathroom reads ``on``
for as long as somebody is *there*: the toilet at night, a few minutes, every night. When
it has been ``on`` far longer than any stay it ever had at this time of day (learned,
``StateDurations``) and nothing else in the house has shown anybody since it went on (no
other sensor on, no door or window used: no party, nobody else up), that is one person in
one place who has not left it: somebody on the floor between the toilet and the wall, not
somebody moving. Its going ``on`` stays the last sign of them, and the stillness judges
read the quiet from it, by the place it is in (``still_where_last_seen``, ``bed_trip``).

"Far longer" is the room's own reading (``still_in_room``): ``FACTOR`` times the longest
stay learned, at least ``MARGIN`` more. A sensor whose stays are not learned yet is left
as it was (movement).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from ..home import HomeView
from ..models import EntityState
from .home_baselines import HomeBaselines
from .inside_signs import inside_signs

# Far past its stays: this many times the longest learned (``still_in_room.FACTOR``)...
FACTOR = 1.5
# ...at least this much more (``still_in_room.MARGIN``).
MARGIN = timedelta(minutes=20)


def held_past_its_stays(
    home: HomeView, baselines: HomeBaselines, sensor: EntityState, since: datetime
) -> bool:
    """Whether ``sensor``, ``on`` since ``since``, has been so far longer than it ever was
    at this time of day, with nobody seen anywhere in the house since it went on."""
    learned = baselines.durations.longest(sensor.entity_id, "on", since)
    if learned is None:
        return False
    longest = timedelta(minutes=learned[1])
    if home.end - since <= max(longest * FACTOR, longest + MARGIN):
        return False
    return not any(when > since for when, _ in inside_signs(home))
