"""A room's readings going off while a told problem in that room lasts are its doing.

Held-out sets 6, 7 and 9: the fridge door left ajar, told; an hour later the fridge's
meter "running without a break", then its thermometer "above its band", each pushed as a
new anomaly. The walk-in cooler's compressor stopped, told; two hours on its thermometer
was pushed too; the garage door stood open all night, told, and the garage thermometer
"drifting below its hours" was pushed at midnight. One problem, told two or three times.

While an anomaly is open (told and not over), a new one that is only a reading going off
(a meter or a thermometer: a device fault, a conflict with what the room should read, or
energy) in the area of a device that anomaly shows is its consequence: no hazard (a room
far too cold is told), no graver, nothing "while nobody is home". It is shown and kept
current, not pushed (``told_unchanged``), or, after an acknowledgement, acknowledged
(``acknowledged_hold``). Another room's reading, or the same room's once the problem is
over, is news; so is a meter drawing beside a device that has gone offline (set 14: the
bathroom CO detector's battery died, and the washer in the same bathroom heating for
three hours the next day was held as its consequence). A thermometer beside one is still
held (set 13: the freezer's plug tripped offline, then its thermometer warming).

A finding named after a switch but about its meter (blind set 22, Phibsborough: the
washer's hose burst at 10:30, told; 10 s later "the washer's plug is off but draws 12 W",
pushed: the water on the plug) is such a reading when the switch is off and its meter
moved after the switch last did: the switch untouched, its reading went off. A switch on
is an appliance in use (set 18: the tuition room's aircon left on all night beside the
room's sliding door told open: its own trouble), and one switched since is somebody's act:
news.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..core.baselines.start_blinks import PRESENCE_DOMAINS
from ..core.device_roles import same_device
from ..core.home import METER_DEVICE_CLASSES, is_motion
from ..core.models import AnomalyType, EntityState
from ..core.state_blips import is_no_state
from .meter_cut import cut_meter
from .open_anomaly import OpenAnomaly

_READING_KINDS = frozenset(
    {AnomalyType.DEVICE_MALFUNCTION, AnomalyType.ENVIRONMENTAL_CONFLICT, AnomalyType.ENERGY}
)


def reading_consequence(
    anomaly: OpenAnomaly, evidence: Iterable[str], entities: Mapping[str, EntityState]
) -> bool:
    """``anomaly`` (new) is a reading of the area of one of ``evidence`` (the shown
    devices of an open anomaly) going off."""
    if anomaly.hazard or anomaly.while_away:
        return False
    subject = _reading(anomaly, entities)
    if subject is None or not subject.info.area:
        return False
    if anomaly.anomaly_type not in _READING_KINDS and not _level_moved(anomaly, subject):
        return False
    area = subject.info.area
    # A device gone offline may stop what it powers (a freezer warms once its plug is
    # gone) but makes nothing draw: a meter drawing is not its doing.
    drawing = subject.info.device_class in METER_DEVICE_CLASSES and not cut_meter(subject)
    return any(
        (other := entities.get(e)) is not None
        and other.info.area == area
        and not _watches_people(other)
        and not (drawing and is_no_state(other.state))
        for e in evidence
    )


def _watches_people(state: EntityState) -> bool:
    """A sensor of where people are, not of the room: it cannot send a reading off."""
    return is_motion(state) or state.domain in PRESENCE_DOMAINS


def _level_moved(anomaly: OpenAnomaly, subject: EntityState) -> bool:
    """``anomaly`` tells, as behaviour, a room's level (not a meter's) that moved."""
    return (
        anomaly.anomaly_type == AnomalyType.BEHAVIOURAL
        and subject.number is not None
        and subject.info.device_class not in METER_DEVICE_CLASSES
    )


def _reading(anomaly: OpenAnomaly, entities: Mapping[str, EntityState]) -> EntityState | None:
    """The reading ``anomaly`` is about: its subject's number, or, for a switch that is
    off, the switch's own meter it shows that moved after the switch last changed."""
    subject = entities.get(anomaly.subject)
    if subject is None or subject.number is not None:
        return subject
    switched = subject.last_changed
    if switched is None or subject.state.lower() != "off":
        return None
    return next(
        (
            meter
            for e in anomaly.shown_evidence
            if (meter := entities.get(e)) is not None
            and meter.number is not None
            and meter.last_changed is not None
            and meter.last_changed > switched
            and same_device(meter, subject)
        ),
        None,
    )
