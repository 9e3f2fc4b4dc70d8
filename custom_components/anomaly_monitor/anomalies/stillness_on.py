"""One person lying still is one trouble while nobody has moved since it was told.

Shipped scenario 3 (an elderly woman living alone, a fall in the morning): "someone is
home and was last seen in the hallway 1 h 25 min ago" (``still_in_room_far_longer``), then
"nothing has moved for far longer than usual" (``no_movement_while_home``), both pushed
(session 27's benchmark). The signs of stillness are one incident while it is open
(``core.stillness``), but an anomaly ends once no rule finds it, two analyses in a row: a
rule's limit moves on with the hours, she does not, and the next sign was a new incident.

So a told stillness, not answered, is not over while no motion or presence sensor and no
door or window has changed since it was first found (``lies_still``, asked by ``over``):
"Over" would read as if she had got up, and the next sign joins it as one incident. Nor
when the only changes since were her own room's sensor seeing her stir where she lies (a
motion sensor of its evidence, off again as when it was found; her bed still empty) or
something outside the house (``outdoor_areas``: a cat on the porch): set 29's Granny Ina,
slid off her bed at 02:40, told at 03:24, stirring on her bedroom floor at 03:40 and 05:10,
was told again at 04:21 and 05:51. A sensor reading ``off`` since Home Assistant set it as
it started (``ha_start``) did not move either: the fall stays one across a restart. A
stillness of the whole home ("Nobody up yet": every motion sensor its evidence) has no
room where she lies: any motion since is somebody up (walk 38: the kitchen's motion at
11:34 left "Nobody up yet" a high hazard, "13 h 03 min", until a sensor read on at an
analysis). Once
anything else moved or opened, it ends as its rules let it, and stillness again is told;
one the homeowner answered ends so too (whoever went to check has not moved anything, or
stillness hours after the answer is told again).
"""

from __future__ import annotations

from collections.abc import Mapping

from ..core.home import is_motion, is_opening
from ..core.models import EntityState
from ..core.outdoor_areas import outdoor_area
from ..core.stillness import WHOLE_HOME_STILLNESS, is_stillness
from .ha_start import StartSpan
from .open_anomaly import OpenAnomaly
from .store import parse_time


def _still(anomaly: OpenAnomaly) -> bool:
    """A stillness told, alone or as what a told device's incident became (the bed not
    left, then nobody moving: ``graver_of_told``)."""
    return any(is_stillness(rule) for rule in anomaly.rules)


def _nothing_moved_since(
    told: OpenAnomaly, entities: Mapping[str, EntityState], start: StartSpan | None
) -> bool:
    since = parse_time(told.first_seen)
    if since is None:
        return False
    watched = [
        s
        for s in entities.values()
        if (is_motion(s) or is_opening(s)) and not (s.info.area and outdoor_area(s.info.area))
    ]
    return bool(watched) and all(
        (s.last_changed is not None and s.last_changed <= since)
        or _stirred_there(told, s)
        or _set_at_start(s, start)
        for s in watched
    )


def _set_at_start(sensor: EntityState, start: StartSpan | None) -> bool:
    """Read ``off`` (or shut) since Home Assistant set it as it started: a restart is no
    movement (``ha_start``)."""
    return (
        start is not None
        and sensor.last_changed is not None
        and start.holds(sensor.last_changed)
        and sensor.state == "off"
    )


def _stirred_there(told: OpenAnomaly, sensor: EntityState) -> bool:
    """A motion sensor of the told stillness (the room where she lies) that moved and
    reads again as it did when the stillness was found: she stirred on the floor, nothing
    more. Her bed lain on again, or her room reading movement now, is not this; nor any
    sensor of a stillness of the whole home, which has no room where she lies."""
    return (
        any(is_stillness(rule) and rule != WHOLE_HOME_STILLNESS for rule in told.rules)
        and is_motion(sensor)
        and sensor.entity_id in told.evidence
        and (before := told.readings.get(sensor.entity_id)) is not None
        and before == sensor.state == "off"
    )


def lies_still(
    anomaly: OpenAnomaly,
    entities: Mapping[str, EntityState],
    start: StartSpan | None = None,
) -> bool:
    """``anomaly`` (open, not found by this analysis) is a stillness told and not
    answered with nothing moved since: not over (its "Over" would read as if she had got
    up). One answered ends as its rule lets it: stillness again is told."""
    return (
        not anomaly.acknowledged
        and _still(anomaly)
        and _nothing_moved_since(anomaly, entities, start)
    )
