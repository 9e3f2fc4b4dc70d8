"""A lock left unlocked beside its door left open: one entrance, one incident.

The front door stands open all evening: ``entry_left_open`` tells the door at 21:15, and
an hour on ``state_longer_than_usual`` finds its lock "unlocked for 1 h 10 min". Two
subjects, two notifications, for one entrance standing open. A lock whose area has an
entry door (HA's ``door`` / ``garage_door`` class) that reads open now is about that door:
the lock's finding names the door as its subject (and shows it), so it joins the door's
incident (``core.incidents``). Known by domain, device class and area; no word is read.
"""

from __future__ import annotations

from ..home import ENTRY_DEVICE_CLASSES, HomeView, is_on
from ..models import EntityState


def open_door_of(home: HomeView, lock: EntityState) -> str | None:
    """The entry door of ``lock``'s area that reads open now, if ``lock`` is a lock."""
    if lock.domain != "lock" or lock.info.area is None:
        return None
    return next(
        (
            s.entity_id
            for s in home.in_area(lock.info.area)
            if s.domain == "binary_sensor"
            and s.info.device_class in ENTRY_DEVICE_CLASSES
            and is_on(s)
        ),
        None,
    )
