"""Ways in and out of a home: which devices a person comes in or goes out by, and which
of their states means one was just used.

A way in is an entrance or window sensor, a lock, or a garage, door or gate cover; a way
out (``way_out``) is one a person leaves by: a lock, a cover, a door beside a lock (not a
window, a fridge or an inner door: who opens those stays in). Read by ``somebody_in``'s
walk and the away rules.
"""

from __future__ import annotations

from ..home import ENTRY_DEVICE_CLASSES, OPENING_DEVICE_CLASSES, HomeView
from ..keyed_doors import locks_of

# Covers a person comes in by.
ENTRY_COVER_CLASSES = frozenset({"garage", "door", "gate"})


def is_opening(home: HomeView, entity_id: str) -> bool:
    """An entrance, a window, a lock or a garage or gate cover: a way in."""
    domain = home.domain(entity_id)
    if domain == "lock":
        return True
    if domain == "cover":
        return home.device_class(entity_id) in ENTRY_COVER_CLASSES
    return domain == "binary_sensor" and home.device_class(entity_id) in OPENING_DEVICE_CLASSES


def opened_state(domain: str) -> frozenset[str]:
    """The states that mean an opening of ``domain`` was just used."""
    if domain == "lock":
        return frozenset({"unlocked"})
    if domain == "cover":
        return frozenset({"open", "opening"})
    return frozenset({"on"})


def way_out(home: HomeView, entity_id: str) -> bool:
    """An opening a person leaves the home by: a lock, a garage or gate cover, a door beside
    a lock (not a window, a fridge or an inner door: who opens those stays in)."""
    domain = home.domain(entity_id)
    if domain in ("lock", "cover"):
        return True
    return home.device_class(entity_id) in ENTRY_DEVICE_CLASSES and bool(locks_of(home, entity_id))
