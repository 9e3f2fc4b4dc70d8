"""Which door a lock keeps, and whether a door was opened with the key.

HA does not pair a lock with its door's contact; both sit in the same area (the front
door's lock and contact in the hall), or on one device (a Nuki's own door sensor). The
lock's door (``door_of_lock``) is a ``door``/``garage_door`` contact of its device, else of
its area; else a contact of class ``opening`` (Aqara's and many others' default) on its
device, or the only one in its area: a lock keeps a door, so that contact is an entrance
(``keeps_a_lock``), whatever class its maker gave it. Of several doors in its area (a hall
with the front and the back door) the lock keeps the one last opened with its key: the
first by the registry's order paired the front lock with the back door, closed, while the
front door stood open ("Lock it remotely" for a door no lock can shut: walk30).

A door (any opening sensor but a window) opened within ``KEY_REACH`` after a lock of its
area was unlocked was opened with the key: by somebody the household
trusts with it, not forced and not a window climbed through.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from .home import ENTRY_DEVICE_CLASSES, OPENING_DEVICE_CLASSES, HomeView
from .models import EntityState

# Contacts that may be a lock's door (a window is not).
_KEPT_CLASSES = frozenset({"door", "garage_door", "opening"})
# The door opens this soon after its lock was unlocked: the same entry, with the key.
KEY_REACH = timedelta(minutes=2)


def doors_of(home: HomeView, lock: str) -> list[str]:
    """The doors (opening sensors other than windows) in the lock's area."""
    area = home.area(lock)
    if area is None:
        return []
    return [
        s.entity_id
        for s in home.in_area(area)
        if s.domain == "binary_sensor"
        and s.info.device_class in OPENING_DEVICE_CLASSES
        and s.info.device_class != "window"
    ]


def locks_of(home: HomeView, door: str) -> list[str]:
    """The locks in the door's area."""
    area = home.area(door)
    if area is None:
        return []
    return [s.entity_id for s in home.in_area(area) if s.domain == "lock"]


def door_of_lock(home: HomeView, lock: EntityState) -> EntityState | None:
    """The contact of the door ``lock`` keeps, or None."""
    device, area = lock.info.device, lock.info.area
    contacts = [s for s in home.of("binary_sensor") if s.info.device_class in _KEPT_CLASSES]
    own = [s for s in contacts if device is not None and s.info.device == device]
    near = [s for s in contacts if area and s.info.area == area]
    for kept in (ENTRY_DEVICE_CLASSES, frozenset({"opening"})):
        if found := [s for s in own if s.info.device_class in kept]:
            return found[0]
        found = [s for s in near if s.info.device_class in kept]
        # One "opening" contact by the lock is its door; of several, which is not known.
        if found and (kept is ENTRY_DEVICE_CLASSES or len(found) == 1):
            return _opened_with_its_key(home, lock, found)
    return None


def _opened_with_its_key(
    home: HomeView, lock: EntityState, doors: list[EntityState]
) -> EntityState:
    """Of the doors in the lock's area, the one last opened within ``KEY_REACH`` after
    the lock was unlocked (the first when none was, or there is one)."""
    if len(doors) == 1:
        return doors[0]
    unlocks = changed_to(home, lock.entity_id, "unlocked")
    if not unlocks:
        return doors[0]
    keyed = [
        (opened, door)
        for door in doors
        for opened in changed_to(home, door.entity_id, "on")
        if any(u <= opened <= u + KEY_REACH for u in unlocks)
    ]
    return max(keyed, key=lambda pair: pair[0])[1] if keyed else doors[0]


def keeps_a_lock(home: HomeView, contact: EntityState) -> bool:
    """An ``opening`` contact that is a lock's door (``door_of_lock``): an entrance."""
    if contact.domain != "binary_sensor" or contact.info.device_class != "opening":
        return False
    return any(
        (door := door_of_lock(home, lock)) is not None and door.entity_id == contact.entity_id
        for lock in home.of("lock")
    )


def changed_to(home: HomeView, entity_id: str, wanted: str) -> list[datetime]:
    """When ``entity_id`` reported ``wanted`` in the window."""
    return [c.when for c in home.changes(entity_id) if c.state.lower() == wanted]


def opened_with_key(home: HomeView, door: str, when: datetime) -> bool:
    """Whether a lock of the door's area was unlocked within ``KEY_REACH`` before ``when``."""
    return any(
        when - KEY_REACH <= t <= when
        for lock in locks_of(home, door)
        for t in changed_to(home, lock, "unlocked")
    )
