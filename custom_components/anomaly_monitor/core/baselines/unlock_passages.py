"""The door a lock was unlocked for: the contact of its area that opened right after.

``lock_in_use`` reads a lock's door (is it used again? does it stand open?) from its
entry door (``entrance_subject.entrance_of``: a ``door`` or ``garage_door`` of the lock's
device, else the only one of its area). A hall whose door contact has the generic
``opening`` class (a Sonoff DS01 as it pairs), or a gallery with the front door and the
gate in one area, has none: the lock of a birthday's door, unlocked at 21:30 and used by
the guests until three, was told "unlocked far longer than usual" at 22:30 while the
door it keeps opened again and again, and people sat up in the hall.

Which door a lock keeps shows in what happens when it is unlocked: somebody turns the key
and opens the door within a minute or two. So the first contact (a door, garage door or
generic opening of the lock's own device or area; never a window) that opens within
``PASSAGE_REACH`` after each unlock is remembered as the door of that unlock, until the
next one. Learned live (not stored: after a restart the lock is judged as before). No
word of an id or a name is read.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta

from ..models import EntityInfo

# The door opened this soon after the key turned: the passage the unlock was for.
PASSAGE_REACH = timedelta(minutes=2)
# Contacts that may be the door a lock keeps (a window is not walked through).
DOOR_CLASSES = frozenset({"door", "garage_door", "opening"})
# Locks followed at once (bounded: a home has a handful).
MAX_LOCKS = 64


def _keeps(lock: EntityInfo, contact: EntityInfo) -> bool:
    """``contact`` is of ``lock``'s own device or area."""
    if lock.device is not None and contact.device == lock.device:
        return True
    return lock.area is not None and contact.area == lock.area


class UnlockPassages:
    """Per lock, its last unlock and the contact that opened right after it."""

    def __init__(self) -> None:
        self._unlocked: dict[str, datetime] = {}
        self._doors: dict[str, str] = {}

    def unlocked(self, lock: str, when: datetime) -> None:
        """``lock`` was unlocked at ``when``: its door is not known until one opens."""
        if lock in self._unlocked or len(self._unlocked) < MAX_LOCKS:
            self._unlocked[lock] = when
            self._doors.pop(lock, None)

    def opened(self, contact: EntityInfo, when: datetime, infos: Mapping[str, EntityInfo]) -> None:
        """``contact`` opened at ``when``: the door of every lock of its device or area
        unlocked within ``PASSAGE_REACH`` before, whose door is not known yet."""
        if contact.domain != "binary_sensor" or contact.device_class not in DOOR_CLASSES:
            return
        for lock, unlocked in self._unlocked.items():
            if lock in self._doors or not timedelta(0) <= when - unlocked <= PASSAGE_REACH:
                continue
            if (info := infos.get(lock)) is not None and _keeps(info, contact):
                self._doors[lock] = contact.entity_id

    def door_of(self, lock: str, since: datetime) -> str | None:
        """The contact opened right after ``lock``'s unlock at ``since`` (None when that
        unlock was not seen, or no door of its area opened after it)."""
        unlocked = self._unlocked.get(lock)
        if unlocked is None or abs(unlocked - since) > PASSAGE_REACH:
            return None
        return self._doors.get(lock)
