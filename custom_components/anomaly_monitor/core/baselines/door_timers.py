"""A motorised door that closes by itself every day and did not.

A hen-house door opened at sunrise and closed at sunset by its controller, a gate or a
garage door shut by an automation: a cover of a door, gate or garage whose open stays all
last about as long (``timed_stays``: a timer, the sun or a fixed routine). Judged as a
plain door, its limit is three times its longest stay (``long_stays``): 40 h for a door
open 13 h a day, so a door jammed open at dusk is never told. Its stays say when it
closes: open ``LATE`` (an hour) past its longest learned stay, its closing did not come.
A short timed stay (half an hour or less) keeps its limit of three times the longest.
Known by domain and device class; no word of an id is read.
"""

from __future__ import annotations

from datetime import timedelta

from ..models import EntityState

# Its closing this late (an hour of everyday use, as ``long_stays.FLOOR``) did not come.
LATE = timedelta(hours=1)
# Covers that are doors of the building (HA's vocabulary), not blinds or shades.
DOOR_COVERS = frozenset({"door", "gate", "garage"})


def is_motorised_door(state: EntityState) -> bool:
    """A cover that is a door, gate or garage door."""
    return state.domain == "cover" and state.info.device_class in DOOR_COVERS


def door_timer_limit(longest_minutes: float, factor: float, floor: timedelta) -> timedelta:
    """The limit of a motorised door's timed stay: its closing ``LATE`` late at most."""
    longest = timedelta(minutes=longest_minutes)
    return max(floor, min(factor * longest, longest + LATE))
