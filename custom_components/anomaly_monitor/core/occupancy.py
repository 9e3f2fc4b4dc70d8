"""Who is home, with evidence: home, away, or unknown.

A person or tracker in ``unknown``/``unavailable`` (not reporting yet, e.g. just after a
restart) says nothing about where its owner is: it is never counted as away. "Nobody is
home" needs positive evidence of absence for everybody.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

# States of a person or tracker that say nothing about where its owner is.
UNKNOWN_PRESENCE = frozenset({"unknown", "unavailable", "none", ""})


class Occupancy(StrEnum):
    """What the home knows about its occupants right now."""

    OCCUPIED = "occupied"  # someone is home
    EMPTY = "empty"  # everybody tracked is known to be away
    UNKNOWN = "unknown"  # nobody known home, but not everybody known away (or no trackers)


def presence_of(state: str) -> bool | None:
    """Where a person or tracker is: True home, False away (not_home or a zone), None unknown."""
    value = state.strip().lower()
    if value in UNKNOWN_PRESENCE:
        return None
    return value == "home"


def occupancy_of(states: Iterable[str]) -> Occupancy:
    """Occupancy from the states of the home's persons (or trackers)."""
    known = [presence_of(state) for state in states]
    if any(where is True for where in known):
        return Occupancy.OCCUPIED
    if known and all(where is False for where in known):
        return Occupancy.EMPTY
    return Occupancy.UNKNOWN


def count_presence(states: Iterable[str]) -> tuple[int, int, int]:
    """(home, unknown, total) over the states of the home's persons."""
    known = [presence_of(state) for state in states]
    return (
        sum(1 for where in known if where is True),
        sum(1 for where in known if where is None),
        len(known),
    )
