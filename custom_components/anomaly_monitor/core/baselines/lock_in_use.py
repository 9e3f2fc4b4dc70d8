"""A lock unlocked while its door is in use: guests coming and going, not a lock forgotten.

``state_longer_than_usual`` tells a lock unlocked an hour (``long_stays.FLOOR``) when its
learned stays are a minute or two (a lock turned for each passage). A dinner, a party, a
parents' evening: the host unlocks the front door as the first guests come and leaves it
so while the others arrive, minutes to an hour apart. A lock forgotten looks otherwise:
unlocked for one passage (out with the bins and back, the door opened twice within a
few minutes) and not used since.

So a lock whose entrance door (``entrance_subject.entrance_of``) opened again
``USED_AGAIN`` or more after the unlock (a later passage than the one that unlocked it),
with somebody home and the household up (or somebody sitting up in a room held occupied:
``household_asleep.sitting_up``), is in use: not "unlocked far longer than
usual". Once the household rests, ``unlocked_while_asleep`` judges it as any lock left
unlocked for the night (longer than it ever stayed unlocked). Known by domain, device
class and area; no word of an id is read.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from ..home import HomeView
from ..models import EntityState
from ..occupancy import Occupancy
from .entrance_subject import entrance_of
from .home_baselines import HomeBaselines
from .household_asleep import asleep_since

# A door opened this long after its lock was unlocked is a later passage, not the one the
# unlock was for (out to the bins and back in: two openings within minutes).
USED_AGAIN = timedelta(minutes=10)


def _last_opening(home: HomeView, baselines: HomeBaselines, door: str) -> datetime | None:
    """When ``door`` last opened: in the window, or as the baselines saw it live."""
    seen = [c.when for c in home.changes(door) if c.state.lower() == "on"]
    live = baselines.usual.last_opened(door)
    return max([*seen, *([live] if live is not None else [])], default=None)


def lock_in_use(
    home: HomeView, baselines: HomeBaselines, lock: EntityState, since: datetime
) -> bool:
    """Whether the unlocked ``lock`` (unlocked ``since``) has its door in use now: opened
    again ``USED_AGAIN`` after the unlock, somebody home and the household up."""
    if lock.domain != "lock" or home.occupancy is not Occupancy.OCCUPIED:
        return False
    door = entrance_of(home, lock)
    if door is None:
        return False
    if asleep_since(home, baselines) is not None:
        return False  # the household rests: the night rule judges the lock
    last = _last_opening(home, baselines, door.entity_id)
    return last is not None and last - since >= USED_AGAIN
