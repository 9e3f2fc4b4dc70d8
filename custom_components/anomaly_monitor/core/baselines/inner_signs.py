"""An inner contact used from inside is a sign of somebody inside, not a way in.

``somebody_in`` tells who opens a door while the trackers are away from the home's own
signs (motion) and openings. Where the motion sensors see nobody (a grandmother who sits
still, whose corridor sensor moves at every hour and so reads as a pet's; a room with no
sensor), her doors still show her: a bathroom door that rests open, shut for a few
minutes and opened again; a fridge, a cupboard or a drawer opened and shut within
seconds, as this home uses it. Only somebody inside does that, and pets do not shut doors
or open drawers: such a *complete* use is read as a sign of somebody inside (as motion
is), also with pets in the profile, and not as an opening that resets the walk as an entry
from outside.

- a door that rests open (``stands_open``, or its cold-start reading
  ``open_from_the_start``; a ``door`` or ``opening`` contact with no lock in its area or on
  its device), shut for at most ``SHORT_SHUT`` and reopened: the reopening is the sign;
- a contact learned as used from inside (``used_from_inside``), opened and shut within
  ``SHORT``: the opening is the sign;
- a room's door learned from use (``room_doors``: the WC's or a bedroom's, used on most
  nights, seldom at a coming or going), opened and shut within ``SHORT``: the opening is
  the sign.

A blip (one change, no full use: opened and still open, shut and not reopened) is no sign,
nor a use across a gap in watching (a power cut, a restart: ``HomeBaselines.unwatched``) or
a dropout, nor anything of a window, a lock, a cover or a door beside a lock. Whether such
a sign may open a way in "from inside" is ``somebody_in``'s: never a door whose lock stayed
locked (forced).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from itertools import pairwise
from typing import TYPE_CHECKING

from ..home import OPENING_DEVICE_CLASSES, UNAVAILABLE_STATES, HomeView
from ..keyed_doors import keeps_a_lock, locks_of
from ..models import EntityInfo
from .opening_uses import uses
from .room_doors import used_as_a_room_door
from .stands_open import SHORT_SHUT, open_from_the_start, stands_open
from .used_from_inside import SHORT

if TYPE_CHECKING:
    from .home_baselines import HomeBaselines

REST_OPEN = "rests_open"
USED_INSIDE = "used_inside"
ROOM_DOOR = "room_door"  # a room's door learned from use (``room_doors``)
# Doors by their class (a window or a garage door is a way in, however it is used).
_DOOR_CLASSES = frozenset({"door", "opening"})
_OPENED = frozenset({"on"})


def _kept_by_a_lock(infos: Mapping[str, EntityInfo], info: EntityInfo) -> bool:
    """A lock in the contact's area or on its device: a door a person comes in by."""
    return any(
        other.domain == "lock"
        and (
            (info.area is not None and other.area == info.area)
            or (info.device is not None and other.device == info.device)
        )
        for other in infos.values()
    )


def inner_kind(
    baselines: HomeBaselines, entity_id: str, now: datetime, home: HomeView | None = None
) -> str | None:
    """How ``entity_id`` is an inner contact here (``REST_OPEN``, ``USED_INSIDE``,
    ``ROOM_DOOR``), or None
    (with the ``home``, a lock it shows by the contact counts too)."""
    infos = baselines.infos
    info = infos.get(entity_id)
    if info is None or info.domain != "binary_sensor":
        return None
    if info.device_class not in OPENING_DEVICE_CLASSES or info.device_class == "window":
        return None
    if _kept_by_a_lock(infos, info) or (home is not None and by_a_lock(home, entity_id)):
        return None
    durations = baselines.durations
    if info.device_class in _DOOR_CLASSES and (
        stands_open(durations, entity_id)
        or open_from_the_start(durations, entity_id, baselines.usual.since.get(entity_id), now)
    ):
        return REST_OPEN
    if baselines.inside.used_from_inside(entity_id):
        return USED_INSIDE
    if info.device_class in _DOOR_CLASSES and used_as_a_room_door(baselines, entity_id, now):
        return ROOM_DOOR
    return None


def by_a_lock(home: HomeView, entity_id: str) -> bool:
    """The home shows a lock in the contact's area, or one that keeps it."""
    state = home.info(entity_id)
    return bool(locks_of(home, entity_id)) or (state is not None and keeps_a_lock(home, state))


def _across_gap(baselines: HomeBaselines, start: datetime, end: datetime) -> bool:
    gap = baselines.unwatched
    return gap is not None and start < gap[1] and end > gap[0]


def complete_use(kind: str, ended: tuple[str, datetime, datetime], state: str) -> bool:
    """Whether the stay ``ended`` (state, since, until), ended by ``state``, completes a use
    of an inner contact of ``kind``: a rest-open door shut briefly and reopened, a contact
    used from inside opened briefly and shut."""
    was, since, until = ended
    if kind == REST_OPEN:
        return (was, state) == ("off", "on") and until - since <= SHORT_SHUT
    return (was, state) == ("on", "off") and until - since <= SHORT


def note_use(baselines: HomeBaselines, entity_id: str, state: str, when: datetime) -> None:
    """A contact changed to ``state`` at ``when`` (learned just now): when that completes a
    use from inside, the away spell's record keeps its opening as a sign (``AwayNormal``)."""
    ended = baselines.durations.last_stay.get(entity_id)
    if ended is None or ended[2] != when or _across_gap(baselines, ended[1], when):
        return
    if not any(complete_use(kind, ended, state) for kind in (REST_OPEN, USED_INSIDE, ROOM_DOOR)):
        return  # no use completed (a blip, a long stay): nothing to ask of the contact
    kind = inner_kind(baselines, entity_id, when)
    if kind is None or not complete_use(kind, ended, state):
        return
    baselines.away.used_inside(entity_id, when if kind == REST_OPEN else ended[1])


def window_uses(baselines: HomeBaselines, home: HomeView) -> set[tuple[datetime, str]]:
    """The openings (when, contact) of the window that were complete uses from inside."""
    found: set[tuple[datetime, str]] = set()
    for entity_id in home.history:
        if home.domain(entity_id) != "binary_sensor":
            continue
        if (kind := inner_kind(baselines, entity_id, home.end, home)) is None:
            continue
        opened = set(uses(home, entity_id, _OPENED))
        changes = home.changes(entity_id)
        for before, after in pairwise(changes):
            was, state = before.state.lower(), after.state.lower()
            if was in UNAVAILABLE_STATES or _across_gap(baselines, before.when, after.when):
                continue
            if not complete_use(kind, (was, before.when, after.when), state):
                continue
            use = after.when if kind == REST_OPEN else before.when
            if use in opened:
                found.add((use, entity_id))
    return found
