"""Which door a lock keeps, and whether a door was opened with the key.

HA does not pair a lock with its door's contact; both sit in the same area (the front
door's lock and contact in the hall). A door (any opening sensor but a window) opened
within ``KEY_REACH`` after a lock of its area was unlocked was opened with the key: by
somebody the household trusts with it, not forced and not a window climbed through.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from .home import OPENING_DEVICE_CLASSES, HomeView

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
