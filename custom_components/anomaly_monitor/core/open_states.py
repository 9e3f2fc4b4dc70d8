"""What "open" reads as for an opening of the home, whatever kind of entity reports it.

A door contact (``binary_sensor``, an opening device class) reads ``on`` when open; a
motorised garage door, gate, door or window (``cover``, an envelope device class, as a
ratgdo, Meross, Shelly or myQ garage opener reports it) reads ``open``, and ``opening`` or
``closing`` while it moves (a cover that reads ``opening`` for an hour is stuck open).
Checks that ask how long an opening stood open ask it here, so a garage door is judged
the same whichever integration reports it. Known by HA's domain and device class only.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from .home import ENVELOPE_COVER_CLASSES, OPENING_DEVICE_CLASSES, HomeView
from .models import EntityState, Transition
from .statistics.timeline import turned

_CONTACT_OPEN = frozenset({"on"})
_COVER_OPEN = frozenset({"open", "opening", "closing"})
_COVER_STATES = _COVER_OPEN | {"closed"}


def is_opening(domain: str, device_class: str | None) -> bool:
    """An opening of the home: a door/window contact, or a garage door, gate, door or
    window cover."""
    if domain == "binary_sensor":
        return device_class in OPENING_DEVICE_CLASSES
    return domain == "cover" and device_class in ENVELOPE_COVER_CLASSES


def open_states(domain: str) -> frozenset[str]:
    """The states (lower case) in which an opening of ``domain`` stands open."""
    return _COVER_OPEN if domain == "cover" else _CONTACT_OPEN


def as_contact(domain: str, state: str) -> str | None:
    """An opening's state as a contact reads it (``on`` open, ``off`` closed); None for a
    state that says neither (unknown, unavailable)."""
    if domain != "cover":
        return state if state in ("on", "off") else None
    lowered = state.lower()
    if lowered not in _COVER_STATES:
        return None
    return "on" if lowered in _COVER_OPEN else "off"


def stands_open(state: EntityState) -> bool:
    """An opening of the home (``is_opening``) that reads open now."""
    domain = state.domain
    return is_opening(domain, state.info.device_class) and (
        state.state.lower() in open_states(domain)
    )


def openings_of(home: HomeView, *device_classes: str) -> list[EntityState]:
    """The home's openings (``is_opening``): contacts, then covers; only those of
    ``device_classes`` when given (a contact's ``window`` and a cover's ``window`` alike)."""
    found = [
        s
        for domain in ("binary_sensor", "cover")
        for s in home.of(domain)
        if is_opening(domain, s.info.device_class)
    ]
    if not device_classes:
        return found
    return [s for s in found if s.info.device_class in device_classes]


def opened_at(transitions: Sequence[Transition], domain: str) -> list[datetime]:
    """When an opening of ``domain`` opened (from closed, or first seen open), in order;
    a cover moving (``opening`` then ``open``) opened once, and a cover's drop
    (``unavailable``) between two open readings is no opening. A contact: as ever."""
    if domain != "cover":
        return turned(list(transitions), "on")
    times: list[datetime] = []
    previous: str | None = None
    for transition in transitions:
        now = as_contact(domain, transition.state)
        if now == "on" and previous != "on":
            times.append(transition.when)
        if now is not None:
            previous = now
    return times
