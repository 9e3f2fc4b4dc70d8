"""A room's door, learned from how the home uses it: no way in, whatever its class.

HA gives nearly every contact the class ``door``; a bathroom's, a bedroom's or a
grandmother's room door reads like the front door's. What the home does with it tells it
apart, whatever it is called:

- an inner door by its kind (as ``inside_doors.inner_door``: a ``door`` or ``opening``
  contact with no lock in its area and none kept; a window, a garage door, a door beside a
  lock stay ways in);
- used in the small hours on most nights it was watched (``NIGHT_SHARE`` of them, at
  least ``MIN_NIGHTS``): a toilet trip, a bedroom left and re-entered. A back or balcony
  door the dog is let out of is not used so night after night;
- seldom opened near a tracked arrival or departure (``WAY_SHARE`` of its openings at
  most) and not a way the tracked household comes and goes by (``came_and_went_by``);
- in a home whose ways are known: another contact the household comes and goes by, or a
  lock. In a home with one contact, or none the household is seen to come and go by,
  nothing tells its doors apart: every door stays a way in.

Read so (``inner_signs.ROOM_DOOR``): its passage (opened and shut again within ``SHORT``) is
a sign of somebody inside, as motion is, and never an entry from outside: the untracked
grandmother's WC trip while every phone is away shows somebody in, and the motion that
follows is hers (``somebody_in``); the away motion judge never cites its use as "a time
nothing usually comes in" (``away_motion_judge``); opened at night it is nobody coming in
(``entry_at_an_unused_hour``). Its opening into an "empty" home with nobody shown inside
before is still told at once (``entry_unsecured_while_away``): a grandmother falling behind
the bathroom door she just shut shows so, and nothing else tells her in time.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from ..home import HomeView
from ..keyed_doors import keeps_a_lock, locks_of

if TYPE_CHECKING:
    from .home_baselines import HomeBaselines

# Doors by their class (a window or a garage door is a way in, however it is used).
DOOR_CLASSES = frozenset({"door", "opening"})
# Used in the small hours on at least this share of the nights watched, and this many.
NIGHT_SHARE = 0.5
MIN_NIGHTS = 3
# Opened near a tracked arrival or departure on at most this share of its openings.
WAY_SHARE = 0.15


def room_door(baselines: HomeBaselines, home: HomeView, entity_id: str, now: datetime) -> bool:
    """Whether ``entity_id`` is a room's door of this home, learned from use."""
    info = baselines.infos.get(entity_id)
    if info is None or info.domain != "binary_sensor" or info.device_class not in DOOR_CLASSES:
        return False
    state = home.info(entity_id)
    if locks_of(home, entity_id) or (state is not None and keeps_a_lock(home, state)):
        return False  # a door with a lock is a way in, however it is used
    return used_as_a_room_door(baselines, entity_id, now)


def used_as_a_room_door(baselines: HomeBaselines, entity_id: str, now: datetime) -> bool:
    """Whether ``entity_id`` is used as a room's door (its nights, its ways): the caller
    asks its kind (a door or opening contact with no lock)."""
    usual = baselines.usual
    watched = usual.nights_watched(entity_id, now)
    nights = usual.nights_used(entity_id, now)
    if nights < MIN_NIGHTS or nights < NIGHT_SHARE * watched:
        return False
    inside = baselines.inside
    if inside.came_and_went_by(entity_id) or not inside.seldom_a_way(entity_id, share=WAY_SHARE):
        return False
    return _ways_known(baselines, entity_id)


def _ways_known(baselines: HomeBaselines, entity_id: str) -> bool:
    """Another contact the household comes and goes by, or a lock: the home's ways in are
    known apart from this door."""
    if any(info.domain == "lock" for info in baselines.infos.values()):
        return True
    inside = baselines.inside
    return any(other != entity_id and inside.came_and_went_by(other) for other in inside.counts)
