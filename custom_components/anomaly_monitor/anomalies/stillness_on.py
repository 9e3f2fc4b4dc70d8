"""One person lying still is one trouble while nobody has moved since it was told.

Shipped scenario 3 (an elderly woman living alone, a fall in the morning): "someone is
home and was last seen in the hallway 1 h 25 min ago" (``still_in_room_far_longer``) was
told; that rule's limit moved on with the hours and the anomaly ended, she still on the
floor; "nothing has moved for far longer than usual" (``no_movement_while_home``) was
then pushed again. The signs of stillness are one incident while it is open
(``core.stillness``), but not once it is over.

A new stillness anomaly is the one told before (open, or over and not answered), no
graver, when no motion or presence sensor and no door or window has changed since that
one was first found: the same person, still lying there. It is shown, not pushed. Once
anything moved or opened since, stillness again is a new one, told; one the homeowner
answered is told again too (whoever went to check has not moved anything).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..core.home import is_motion, is_opening
from ..core.models import EntityState
from ..core.stillness import is_stillness
from .open_anomaly import OpenAnomaly, rank
from .store import parse_time


def _still(anomaly: OpenAnomaly) -> bool:
    return bool(anomaly.rules) and all(is_stillness(rule) for rule in anomaly.rules)


def _nothing_moved_since(told: OpenAnomaly, entities: Mapping[str, EntityState]) -> bool:
    since = parse_time(told.first_seen)
    if since is None:
        return False
    watched = [s for s in entities.values() if is_motion(s) or is_opening(s)]
    return bool(watched) and all(
        s.last_changed is not None and s.last_changed <= since for s in watched
    )


def still_since_told(
    anomaly: OpenAnomaly, told: Iterable[OpenAnomaly], entities: Mapping[str, EntityState]
) -> OpenAnomaly | None:
    """The told, unanswered stillness ``anomaly`` (just opened) continues; None: news."""
    if not _still(anomaly):
        return None
    return next(
        (
            other
            for other in told
            if other.signature != anomaly.signature
            and not other.acknowledged
            and _still(other)
            and rank(anomaly.severity) <= rank(other.severity)
            and _nothing_moved_since(other, entities)
        ),
        None,
    )
