"""A door opened towards an alarm: somebody going to it, not out.

A door in the room of a hazard detector that sounded within ``ALARM_REACH`` before it
opened (a leak on the bathroom floor, smoke in the hall) is answered by whoever opens it:
the alarm is told by itself (read by ``night_outings``).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from ..home import GENERIC_ALERT_CLASSES, HAZARD_DEVICE_CLASSES, HomeView
from ..models import EntityState

# A detector in the door's room that sounded this soon before it opened: somebody went
# to the alarm through it.
ALARM_REACH = timedelta(hours=1)
_ALARM_CLASSES = HAZARD_DEVICE_CLASSES - GENERIC_ALERT_CLASSES


def to_an_alarm(home: HomeView, door: EntityState, opened: datetime) -> bool:
    """A smoke, gas, CO, heat or leak detector in ``door``'s room read "on" when it opened,
    or sounded within ``ALARM_REACH`` before."""
    if not door.info.area:
        return False
    for detector in home.in_area(door.info.area):
        if detector.domain != "binary_sensor" or detector.info.device_class not in _ALARM_CLASSES:
            continue
        changes = home.changes(detector.entity_id)
        if any(
            opened - ALARM_REACH <= c.when <= opened and c.state.lower() == "on" for c in changes
        ):
            return True
        before = [c for c in changes if c.when <= opened]
        if before:
            sounding = before[-1].state.lower() == "on"
        elif changes:  # its first change came after: "off" means it sounded until then
            sounding = changes[0].state.lower() == "off"
        else:
            sounding = detector.state.lower() == "on"
        if sounding:
            return True
    return False
