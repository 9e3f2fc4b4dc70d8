"""The away spell's signs and openings, kept across a restart of Home Assistant.

``somebody_in`` tells who opens a door while the trackers are away from the spell's own
sequence of signs (motion) and openings (``AwayNormal.spell``). A restart (an update, a
power cut) lost it: the live-in helper resting after lunch, the guests in the cabin all
evening, were nobody inside any more, and their next motion or door was told as if they
had come in. A restart does not empty the home: the spell's newest ``KEPT_SPELL`` signs
and openings are stored while the home is empty, as seconds since a base time (``packed``),
their entities and kinds. Stored data is untrusted: anything malformed gives no record
(as before: the window alone is read).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from .packed import pack, unpack

SIGN = "sign"
OPENING = "opening"
# Enough for a day of an untracked household member's movements and doors.
KEPT_SPELL = 200
_MAX_ID = 255

type Spell = list[tuple[datetime, str, str]]


def spell_to_store(spell: Spell, base: datetime) -> dict[str, Any] | None:
    """The newest signs and openings from ``base`` on: seconds since it, the entity, the
    kind (s: sign, o: opening); None when there are none."""
    kept = [(w, e, k) for w, e, k in spell[-KEPT_SPELL:] if w >= base]
    if not kept:
        return None
    return {
        "at": pack([(w - base).total_seconds() for w, _, _ in kept], 0),
        "who": [e for _, e, _ in kept],
        "kind": "".join("s" if k == SIGN else "o" for _, _, k in kept),
    }


def spell_from_store(stored: object, base: datetime) -> Spell:
    """The stored signs and openings, oldest first; none if anything is malformed."""
    if not isinstance(stored, Mapping):
        return []
    who, kinds = stored.get("who"), stored.get("kind")
    if not isinstance(who, list) or not isinstance(kinds, str) or not 0 < len(who) <= KEPT_SPELL:
        return []
    if len(kinds) != len(who) or not set(kinds) <= {"s", "o"}:
        return []
    if not all(isinstance(e, str) and 0 < len(e) <= _MAX_ID for e in who):
        return []
    seconds = unpack(stored.get("at"), len(who), 0.0, 1e9)
    if seconds is None or seconds != sorted(seconds):
        return []
    return [
        (base + timedelta(seconds=at), entity_id, SIGN if kind == "s" else OPENING)
        for at, entity_id, kind in zip(seconds, who, kinds, strict=True)
    ]
