"""A door that rests open, shut far longer than it ever is: somebody behind it may need help.

A bathroom door stands open day and night and is shut only while somebody is in (a
shower, the toilet at night): for a few minutes. Shut for three times its longest shut
spell at that time of day (``FACTOR``, learned by quarter of the day, ``StateDurations``),
with nobody seen elsewhere since (no motion but a pet's, no other door or drawer used),
whoever shut it has not come out: a nurse who fainted in the shower after a night shift, a
grandmother who fell on the wet floor at night while her grandson sleeps. No motion
sensor in the room is needed: the door's own spells say it. Never less than ``FLOOR``.

For ``long_stays`` (``state_longer_than_usual``), whose *active* state of a door is open:
here it is shut. Only an inner door that rests open (``inner_signs.REST_OPEN``: no lock by
it) with its shut spells learned; a bedroom door shut all night as the household sleeps
has learned spells of hours in the evening and at night (``LONGEST_USE``), and is not
told. Nor is one shut as every tracker went out (nobody behind it), nor one shut while
nothing was watched (since when is not known). One shut *while* the trackers are away
was shut by somebody inside (a nurse home from her shift, her phone's tracker not): judged.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from ..home import OCCUPANCY_DEVICE_CLASSES, OPENING_DEVICE_CLASSES, HomeView
from ..models import EntityState
from .away_normal import LEAVE_GRACE
from .inner_signs import REST_OPEN, inner_kind
from .lived_while_away import maybe_a_pet

if TYPE_CHECKING:
    from .home_baselines import HomeBaselines

SHUT = "off"
FACTOR = 3.0
# Never told sooner (a long bath; a night toilet trip is minutes).
FLOOR = timedelta(minutes=35)
# Shut spells this long at that time of day are no use of a room but rest (a bedroom).
LONGEST_USE = timedelta(hours=2)


def shut_limit(
    home: HomeView, baselines: HomeBaselines, state: EntityState, since: datetime
) -> tuple[tuple[int, float, bool], timedelta] | None:
    """((stays, longest minutes, pooled), limit) for a rest-open door shut since ``since``
    with nobody seen elsewhere since; None when it is not judged so."""
    if state.state != SHUT or state.domain != "binary_sensor":
        return None
    if state.info.device_class not in OPENING_DEVICE_CLASSES:
        return None
    away = baselines.away.empty_since
    if home.nobody_home and (away is None or since <= away + LEAVE_GRACE):
        return None  # shut as everybody went out: nobody behind it
    gap = baselines.unwatched
    if gap is not None and gap[0] <= since <= gap[1] + LEAVE_GRACE:
        return None  # shut while nothing was watched: since when is not known
    if inner_kind(baselines, state.entity_id, home.end, home) != REST_OPEN:
        return None
    learned = baselines.durations.longest(state.entity_id, SHUT, since)
    if learned is None or learned[1] > LONGEST_USE.total_seconds() / 60:
        return None  # shut for hours at this time of day (a bedroom at night): no use
    if _seen_elsewhere(home, baselines, state, since):
        return None
    return learned, max(FLOOR, FACTOR * timedelta(minutes=learned[1]))


def _seen_elsewhere(
    home: HomeView, baselines: HomeBaselines, door: EntityState, since: datetime
) -> bool:
    """Somebody moved in another room (not maybe a pet) or used another opening since the
    door was shut, or a motion sensor elsewhere reads on now."""
    area = door.info.area
    for state in home.of("binary_sensor"):
        entity_id = state.entity_id
        if entity_id == door.entity_id or (area is not None and state.info.area == area):
            continue
        device_class = state.info.device_class
        if device_class in OCCUPANCY_DEVICE_CLASSES:
            onsets = [c.when for c in home.changes(entity_id) if c.state.lower() == "on"]
            if state.state.lower() == "on":
                onsets.append(home.end)
            if any(
                when > since and not maybe_a_pet(baselines, home, entity_id, when)
                for when in onsets
            ):
                return True
        elif device_class in OPENING_DEVICE_CLASSES and any(
            c.when > since for c in home.changes(entity_id)
        ):
            return True
    return False
