"""Somebody at a told hazard before a door opened: the household answering it, not an entry.

Set 32 (Busan, Leicester): the gas alarm sounds in the kitchen while every tracker is away;
the kitchen's motion sensor reads somebody there (a grandmother without a phone who turned
the knob, a nanny cooking), and two minutes later the back door or the veranda door opens
to air the gas. The opening was told again as "open while nobody is home" with motion in
the hall, an intrusion, minutes after the gas. An intruder cannot be at the hazard before
the door lets them in: somebody moving in the hazard's room as it began, or since, before
the door opened, was already inside, and the motion that follows is theirs.

So a door opened in answer to a told hazard (``hazard_answer``) is its answer with the
motion joined to it too, when a motion sensor of the hazard's room (its area, or among its
evidence) read somebody there between the hazard's onset (``LEAD`` before it was told) and
the door's opening; so is the motion that joins such a door once it is shown as the
hazard's part (``refreshed``: no intrusion told again). Motion only after the door opened
(whoever came in by it), or only in other rooms, is no such sign: the entry is told as
before. Known by device class and area;
no word of an id is read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta

from ..core.escalation import Escalation
from ..core.home import OCCUPANCY_DEVICE_CLASSES
from ..core.models import EntityState, Finding, Transition
from .open_anomaly import OpenAnomaly
from .store import parse_time

# A hazard's onset may come this long before it was told (a detector's own delay, the
# analysis after it): motion on from then is somebody at it as it began.
LEAD = timedelta(minutes=5)


def _motion(state: EntityState) -> bool:
    return state.domain == "binary_sensor" and state.info.device_class in OCCUPANCY_DEVICE_CLASSES


def _hazard_rooms(evidence: frozenset[str], entities: Mapping[str, EntityState]) -> set[str]:
    return {
        area
        for entity_id in evidence
        if (state := entities.get(entity_id)) is not None and (area := state.info.area)
    }


def _opened(
    door: str,
    entities: Mapping[str, EntityState],
    transitions: Sequence[Transition],
    after: datetime,
) -> datetime | None:
    """When ``door`` first changed at or after ``after`` (its opening in answer)."""
    times = [t.when for t in transitions if t.entity_id == door and t.when >= after]
    state = entities.get(door)
    if state is not None and state.last_changed is not None and state.last_changed >= after:
        times.append(state.last_changed)
    return min(times, default=None)


def somebody_at_hazard(
    evidence: frozenset[str],
    began: datetime,
    door: str,
    entities: Mapping[str, EntityState],
    transitions: Sequence[Transition],
) -> bool:
    """Whether a motion sensor of the hazard's room (``evidence``: the hazard's devices)
    read somebody there from ``began`` - ``LEAD`` until ``door`` opened after it."""
    onset = began - LEAD
    opened = _opened(door, entities, transitions, onset)
    if opened is None:
        return False
    rooms = _hazard_rooms(evidence, entities)
    sensors = {
        entity_id
        for entity_id, state in entities.items()
        if _motion(state)
        and (entity_id in evidence or state.info.area in rooms)
        and entity_id != door
    }
    for sensor in sensors:
        changes = sorted((t.when, t.state.lower()) for t in transitions if t.entity_id == sensor)
        before = [s for when, s in changes if when <= onset]
        if not changes:
            state = entities[sensor]
            before = (
                [state.state.lower()] if state.last_changed and state.last_changed <= onset else []
            )
        if before and before[-1] == "on":
            return True  # somebody there as it began
        if any(s == "on" and onset < when < opened for when, s in changes):
            return True  # somebody came to it before the door opened
    return False


# What a refresh reads besides the findings: the open anomalies, the entities now (None:
# not known) and the window's changes.
type Around = tuple[
    Mapping[str, OpenAnomaly], Mapping[str, EntityState] | None, Sequence[Transition]
]


def refreshed(
    anomaly: OpenAnomaly,
    findings: Sequence[Finding],
    now: datetime,
    around: Around,
    *,
    partial: bool,
) -> Escalation | None:
    """``anomaly.refresh``; but motion joining a door shown as a told hazard's answer
    (``part_of``), when somebody was at that hazard before the door opened, is the same
    household walking on: no intrusion, not told again (the title and severity kept)."""
    open_now, entities, transitions = around
    escalation, severity = anomaly.escalation, anomaly.severity
    told = anomaly.refresh(findings, now, partial=partial)
    if told is not Escalation.INTRUSION or entities is None:
        return told
    hazard = open_now.get(anomaly.part_of)
    began = parse_time(hazard.first_seen) if hazard is not None and hazard.hazard else None
    if hazard is None or began is None:
        return told
    shown = frozenset({*hazard.evidence, hazard.subject})
    if not somebody_at_hazard(shown, began, anomaly.subject, entities, transitions):
        return told
    anomaly.escalation, anomaly.severity = escalation, severity
    return None
