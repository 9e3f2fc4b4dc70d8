"""One person lying still is one trouble while nobody has moved since it was told.

Shipped scenario 3 (an elderly woman living alone, a fall in the morning): "someone is
home and was last seen in the hallway 1 h 25 min ago" (``still_in_room_far_longer``), then
"nothing has moved for far longer than usual" (``no_movement_while_home``), both pushed
(session 27's benchmark). The signs of stillness are one incident while it is open
(``core.stillness``), but an anomaly ends once no rule finds it, two analyses in a row: a
rule's limit moves on with the hours, she does not, and the next sign was a new incident.

So a told stillness, not answered, is not over while no motion or presence sensor and no
door or window has changed since it was first found (``lies_still``, asked by ``over``):
"Over" would read as if she had got up, and the next sign joins it as one incident. Once
anything moved or opened, it ends as its rules let it, and stillness again is told; one
the homeowner answered ends so too (whoever went to check has not moved anything, or
stillness hours after the answer is told again).
"""

from __future__ import annotations

from collections.abc import Mapping

from ..core.home import is_motion, is_opening
from ..core.models import EntityState
from ..core.stillness import is_stillness
from .open_anomaly import OpenAnomaly
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


def lies_still(anomaly: OpenAnomaly, entities: Mapping[str, EntityState]) -> bool:
    """``anomaly`` (open, not found by this analysis) is a stillness told and not
    answered with nothing moved since: not over (its "Over" would read as if she had got
    up). One answered ends as its rule lets it: stillness again is told."""
    return not anomaly.acknowledged and _still(anomaly) and _nothing_moved_since(anomaly, entities)
