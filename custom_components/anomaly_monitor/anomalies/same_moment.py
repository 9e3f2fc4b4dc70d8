"""Readings of one kind going off the same way in the same analysis share a cause.

Held-out set 15 (Lalitpur): the ground tank ran dry and the motor could not fill the roof
tank; at 19:15 "the ground tank level far below anything it read" and "the roof tank
level far below anything it read" were pushed in the same second: one water supply, told
twice. A power cut that stops two freezers, a cold night that sends two rooms below their
range, read the same.

A new anomaly found by the same analysis as another new one that was told (opened at the
same moment), by the same rule, about a sensor's reading of the same kind (its unit and
device class) off the same way (its magnitude's sign), a device fault or a conflict with
what the room should read, no graver and no hazard, is part of it: shown and kept
current, not pushed, acknowledged with it. A reading that goes off later, another way, or
of another kind, is news.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime

from ..core.models import AnomalyType, EntityState
from .open_anomaly import OpenAnomaly, rank
from .store import parse_time

_READINGS = frozenset({AnomalyType.DEVICE_MALFUNCTION, AnomalyType.ENVIRONMENTAL_CONFLICT})


def _kind(anomaly: OpenAnomaly, entities: Mapping[str, EntityState]) -> tuple[str, str] | None:
    """The kind of reading ``anomaly`` is about (unit, device class), and none when it is
    not one sensor's number gone off with a side."""
    state = entities.get(anomaly.subject)
    if (
        state is None
        or state.domain != "sensor"
        or state.number is None
        or anomaly.hazard
        or anomaly.anomaly_type not in _READINGS
        or not anomaly.magnitude
    ):
        return None
    return state.info.unit or "", state.info.device_class or ""


def read_with(
    anomaly: OpenAnomaly,
    told: Iterable[OpenAnomaly],
    entities: Mapping[str, EntityState],
    now: datetime,
) -> OpenAnomaly | None:
    """The anomaly opened by this analysis whose reading ``anomaly`` (just opened) goes
    off with; None when it is news."""
    kind = _kind(anomaly, entities)
    if kind is None or anomaly.magnitude is None:
        return None
    for other in told:
        if (
            other.signature == anomaly.signature
            or other.ended is not None
            or parse_time(other.first_seen) != now
            or other.rules != anomaly.rules
            or rank(anomaly.severity) > rank(other.severity)
            or _kind(other, entities) != kind
            or other.magnitude is None
            or (other.magnitude < 0) != (anomaly.magnitude < 0)
        ):
            continue
        return other
    return None
