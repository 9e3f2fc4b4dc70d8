"""A told device found graver minutes after its incident ended, unchanged since: that
incident again, graver, told as its escalation, not as a second incident.

Set 49 (Valparaíso): the oven left on after the brownies, "drawn 1,790 W since 16:15, at
hours it never draws" told at 17:24 about its plug; at 18:11 that rule's window moved on
and the incident was over, the oven still on, its switch untouched; at 18:26 "drawing for
2 h 11 min and nobody has moved" (graver) was pushed as a new incident: one oven, two
notifications. ``graver_of_told`` joins such a graver finding to the told incident only
while it is open; ``told_unchanged`` holds a later finding about the same devices only
when it is no graver.

A new incident graver than a told one (not answered, no hazard) that ended at most
``JUST_OVER`` ago, whose subject it shows, joins that one when every device the told one
showed is as it was when it was last found: a device that reads a word (a switch, a door, a
lock) reads the same and has not changed since, a meter draws on (``drawing_on``), any
other reading reads about the same. The incident opens again in place and is told at once
as graver: one notification, updated, pushed once more (the oven unattended is a safety
hazard: it leads the oven's notification now). A detector's alarm (smoke, gas, CO, a leak)
is told as its own, with its own start; a device used since (the door opened again, the
switch turned off and on), or one over longer ago, is news.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Mapping
from datetime import datetime

from ..core.models import EntityState
from .evidence_hold import reads_as
from .open_anomaly import OpenAnomaly
from .reopening import REOPEN_QUIET
from .store import parse_time

# A told incident over this recently is still the one in front of the homeowner.
JUST_OVER = REOPEN_QUIET


def _as_when_found(
    anomaly: OpenAnomaly, entities: Mapping[str, EntityState], drawing_on: Container[str]
) -> bool:
    seen = parse_time(anomaly.last_seen)
    if seen is None or not anomaly.readings:
        return False
    for entity_id in anomaly.shown_evidence:
        state, before = entities.get(entity_id), anomaly.readings.get(entity_id)
        if state is None or before is None:
            return False
        if state.number is None:  # a word: the same, and untouched since
            if not reads_as(before, state.state) or (
                state.last_changed is not None and state.last_changed > seen
            ):
                return False
        elif anomaly.signature not in drawing_on and not reads_as(before, state.state):
            return False  # a reading moved on (a meter drawing on is followed apart)
    return True


def just_over(
    ended: Iterable[OpenAnomaly],
    entities: Mapping[str, EntityState] | None,
    now: datetime,
    drawing_on: Container[str] = (),
) -> list[OpenAnomaly]:
    """The told incidents of ``ended`` (over, not answered) that ended at most
    ``JUST_OVER`` ago with their devices as they were when last found: a graver finding
    about one of them is that incident again (``graver_of_told``)."""
    if entities is None:
        return []
    return [
        a
        for a in ended
        if not a.acknowledged
        and not a.hazard
        and (end := parse_time(a.ended)) is not None
        and now - end <= JUST_OVER
        and _as_when_found(a, entities, drawing_on)
    ]


def open_again(
    anomaly: OpenAnomaly, open_now: dict[str, OpenAnomaly], ended: dict[str, OpenAnomaly]
) -> bool:
    """``anomaly`` (joined by a graver finding) was over: it is open again (whether it
    was), so that it is told as graver."""
    if ended.pop(anomaly.signature, None) is None:
        return False
    anomaly.ended = None
    open_now[anomaly.signature] = anomaly
    return True
