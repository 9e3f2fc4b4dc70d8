"""A lock and the door it locks are one entrance: what is found about either is one incident.

The front door stands open all evening: ``entry_left_open`` tells the door at 21:15, an
hour on ``state_longer_than_usual`` finds its lock "unlocked for 1 h 10 min", and after
midnight ``unlocked_while_asleep`` finds it again. Three findings with two subjects were
two notifications for one entrance standing open. A lock whose area has an entry door
(HA's ``door`` / ``garage_door`` class) is about that entrance: its findings name the
door as their subject, always the same one (a subject that followed the door's state
would open a new incident at each opening), so they join the door's incident
(``core.incidents``); the door is shown while it reads open. The door is the entry door
of the lock's own device, else the only one in its area: of a hall's front and back
doors, which one the lock keeps is not known, and the first by id titled the front lock
left unlocked "Back door shut far longer than usual" (walk 37); such a lock is its own
subject. Known by domain, device class, device and area; no word is read.
"""

from __future__ import annotations

from ..home import ENTRY_DEVICE_CLASSES, HomeView, is_on
from ..models import EntityState


def entrance_of(home: HomeView, lock: EntityState) -> EntityState | None:
    """The entry door of ``lock``'s own device (the first by id), else the only one of its
    area, if ``lock`` is a lock."""
    if lock.domain != "lock":
        return None
    doors = [
        s
        for s in home.of("binary_sensor")
        if s.info.device_class in ENTRY_DEVICE_CLASSES
        and (
            (lock.info.device is not None and s.info.device == lock.info.device)
            or (lock.info.area is not None and s.info.area == lock.info.area)
        )
    ]
    own = [s for s in doors if lock.info.device is not None and s.info.device == lock.info.device]
    if own:
        return min(own, key=lambda s: s.entity_id)
    return doors[0] if len(doors) == 1 else None


def entrance_evidence(home: HomeView, lock: EntityState) -> tuple[tuple[str, ...], str]:
    """(evidence, subject) of a finding about ``lock``: the lock, and its door while that
    reads open; the door as subject ("" without one: the lock's own)."""
    door = entrance_of(home, lock)
    if door is None:
        return (lock.entity_id,), ""
    shown = (lock.entity_id, door.entity_id) if is_on(door) else (lock.entity_id,)
    return shown, door.entity_id
