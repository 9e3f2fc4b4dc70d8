"""How long a quiet after a sign in a room may last, from the longest this home showed.

Shared by ``still_where_last_seen`` (by day, and its hours' floor) and ``night_trips`` (a
trip out of the night's rest): the same room is judged the same way by both.
"""

from __future__ import annotations

from datetime import timedelta

# Past the longest quiet learned after a sign in the room: this many times it...
ROOM_FACTOR = 1.5
# ...and by this much at least...
ROOM_MARGIN = timedelta(minutes=20)
# ...never under this (a prior: without a door shut behind them, the room last seen says
# less than ``still_in_room``'s, whose floor is 40 min).
MIN_LIMIT = timedelta(hours=1)


def room_limit(longest: timedelta, floor: timedelta = MIN_LIMIT) -> timedelta:
    """The limit of a quiet after a room whose longest learned quiet is ``longest``."""
    return max(floor, longest * ROOM_FACTOR, longest + ROOM_MARGIN)
