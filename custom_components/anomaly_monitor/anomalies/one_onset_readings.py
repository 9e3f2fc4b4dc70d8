"""Readings that changed at one moment and were found by one analysis are one trouble.

Held-out set 15 (Lalitpur): the ground tank ran empty and the motor that fills the roof
tank ran dry from 19:00. At 19:15 "the motor has drawn 420 W since 19:00; it always drew
615 W" and "the ground tank level reads 3 %, far below anything it read" were pushed in
the same second: two rules, two sensors, one dry-running pump. ``same_moment`` joins only
readings of one kind by one rule, ``same_onset`` only devices that read a word.

A new anomaly about a sensor's number (no hazard, nothing while nobody is home, no sign of
somebody inside) is part of another opened by the same analysis (told: not shown in
another, no graver than it) about a sensor's number, when both readings took the value
they read within ``same_onset.SAME_MOMENT`` of each other and have read it since: their
trouble began at one moment (not when both only took it as Home Assistant started:
``ha_start``). A reading that moved since (a thermometer drifting), or one
found by a later analysis, is news.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime

from ..core.escalation import INTRUSION_RULES
from ..core.models import EntityState
from .ha_start import StartSpan, both_at_start
from .open_anomaly import OpenAnomaly, rank
from .same_onset import SAME_MOMENT
from .store import parse_time


def _stepped_at(anomaly: OpenAnomaly, entities: Mapping[str, EntityState]) -> datetime | None:
    """When the number ``anomaly`` is about took the value it reads (None: not a
    sensor's number, or not known)."""
    state = entities.get(anomaly.subject)
    if state is None or state.domain != "sensor" or state.number is None:
        return None
    return state.last_changed


def _news(anomaly: OpenAnomaly) -> bool:
    return (
        anomaly.hazard
        or anomaly.while_away
        or any(m.while_away or m.rule in INTRUSION_RULES for m in anomaly.members)
    )


def read_from_one_onset(
    anomaly: OpenAnomaly,
    told: Iterable[OpenAnomaly],
    entities: Mapping[str, EntityState],
    now: datetime,
    start: StartSpan | None = None,
) -> OpenAnomaly | None:
    """The anomaly opened by this analysis (``now``) whose onset ``anomaly`` (just opened)
    shares; None when it is news. Both read since Home Assistant's start (``start``)
    share only that."""
    if _news(anomaly) or (mine := _stepped_at(anomaly, entities)) is None:
        return None
    for other in told:
        if (
            other.signature == anomaly.signature
            or other.ended is not None
            or other.part_of
            or parse_time(other.first_seen) != now
            or _news(other)
            or rank(anomaly.severity) > rank(other.severity)
        ):
            continue
        theirs = _stepped_at(other, entities)
        if (
            theirs is not None
            and abs(mine - theirs) <= SAME_MOMENT
            and not both_at_start(start, mine, theirs)
        ):
            return other
    return None
