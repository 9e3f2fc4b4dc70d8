"""A family home installed at midnight for the first-days tests: both phones home, a hall
and a kitchen with motion sensors, and the doors each test names, all shut."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.models import EntityInfo, Transition

HALL = "binary_sensor.hall_motion"
KITCHEN = "binary_sensor.kitchen_motion"
MUM, DAD = "person.mum", "person.dad"
SET_UP = datetime(2026, 4, 6, 0, 0, tzinfo=UTC)


def family_home(doors: list[EntityInfo]) -> HomeBaselines:
    """The home as the monitor learns it at ``SET_UP``, with ``doors`` (door contacts)."""
    baselines = HomeBaselines(UTC)
    family = [
        EntityInfo(HALL, "Hall motion", area="Hall", device_class="motion"),
        EntityInfo(KITCHEN, "Kitchen motion", area="Kitchen", device_class="motion"),
        EntityInfo(MUM, "Mum"),
        EntityInfo(DAD, "Dad"),
    ]
    baselines.describe([*doors, *family])
    baselines.watching([info.entity_id for info in [*doors, *family]], SET_UP)
    for person in (MUM, DAD):
        baselines.learn(Transition(SET_UP, person, "home"))
    for door in doors:
        baselines.learn(Transition(SET_UP, door.entity_id, "off"))
    return baselines


def at(hours: float) -> datetime:
    """``hours`` after the set-up."""
    return SET_UP + timedelta(hours=hours)
