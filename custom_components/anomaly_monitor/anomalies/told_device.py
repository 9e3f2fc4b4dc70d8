"""A new anomaly about a device of an incident told and still open is that incident.

Held-out set 15 (Lalitpur): the motor that fills the roof tank ran dry. "Roof tank level
far below anything it read" was told at 19:15; at 19:45 "the motor draws power but the
roof tank has not risen", then at 20:33 "the motor has been on far longer than usual",
each pushed: one dry-running pump, told three times. Set 5 and set 8 show the same: a
pump, its switch and the tank it fills, or a geyser's switch and its meter, told by one
rule after another while the first is still in front of the homeowner.

While an anomaly is told, open and not answered, a new one (no hazard, no graver, no
sign of somebody inside) is part of it when it is about one of its devices: it shows the
told one's subject, or its own subject is a device the told one shows (an entity, one
device of HA's, or named as one: the switch and its power meter), and every device it
shows that reads a word (a switch, a door, a lock) is such a device and has not changed
since the incident was first told. It is shown and kept current, not pushed, and
acknowledged with the incident (``AlreadyTold.consequence_of``). A door opened again, a
switch turned on again, a device the incident did not show that reads a word, or the
same device once the incident is over, is news; a graver finding is told.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from ..core.device_roles import named_as_one, same_device
from ..core.escalation import INTRUSION_RULES
from ..core.models import AnomalyType, EntityState
from .open_anomaly import OpenAnomaly, rank
from .store import parse_time


def _one_device(entity_id: str, shown: Sequence[str], entities: Mapping[str, EntityState]) -> bool:
    """``entity_id`` is one of ``shown``, or of one device with one of them."""
    # Named as one counts even when the registry splits them or a state is gone.
    if entity_id in shown or any(named_as_one(entity_id, e) for e in shown):
        return True
    state = entities.get(entity_id)
    return state is not None and any(
        (other := entities.get(e)) is not None and same_device(state, other) for e in shown
    )


def _part_of(anomaly: OpenAnomaly, other: OpenAnomaly, entities: Mapping[str, EntityState]) -> bool:
    shown, theirs = anomaly.shown_evidence, other.shown_evidence
    if not theirs or rank(anomaly.severity) > rank(other.severity):
        return False
    if not (
        _one_device(anomaly.subject, theirs, entities)
        or _one_device(other.subject, shown, entities)
    ):
        return False
    told = parse_time(other.first_seen)
    for entity_id in shown:
        state = entities.get(entity_id)
        if state is None or state.number is not None:
            continue  # a reading follows its device (the tank the pump fills)
        if not _one_device(entity_id, theirs, entities):
            return False  # a door, a switch the incident did not show: news
        if told is None or (state.last_changed is not None and state.last_changed > told):
            return False  # moved since it was told: a new event
    return True


def told_device(
    anomaly: OpenAnomaly, told: Iterable[OpenAnomaly], entities: Mapping[str, EntityState]
) -> OpenAnomaly | None:
    """The open told anomaly ``anomaly`` (just opened) is part of; None when it is news."""
    if (
        not anomaly.shown_evidence
        or anomaly.hazard
        or anomaly.anomaly_type == AnomalyType.OCCUPANCY_MISMATCH
        or any(rule in INTRUSION_RULES for rule in anomaly.rules)
    ):
        return None
    return next(
        (
            other
            for other in told
            if other.ended is None
            and other.signature != anomaly.signature
            and _part_of(anomaly, other, entities)
        ),
        None,
    )
