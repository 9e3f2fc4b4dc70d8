"""A load left running where a hazard is told is part of that hazard.

Held-out set 26 (Kairouan): the pump that fills the cistern started at 03:10, the leak
sensor at its coupling went wet at 03:12 ("Moisture detected", told), and at 03:40 "the
pump has drawn 712 W for 30 min, it runs 7 min at most" was pushed: the pump running on
is the water at its coupling, one trouble told twice. A heater on in the room of its
smoke, a washing machine running by its leak, are the same: the load is the hazard's
likely source, and the homeowner who goes to the hazard finds it there.

While a hazard is told and open, a new finding of a load running too long or at an odd
time (``AnomalyType.ENERGY``: nothing graver, no sign of somebody inside) is part of it
when every device it shows is in a room the hazard shows (or one device with one there),
and each that reads a word (the switch) has not changed since the hazard was first told:
shown in the hazard's notification, acknowledged with it. A load in another room, a
switch turned on after the hazard was told, or the same load once the hazard is over, is
news.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..core.escalation import INTRUSION_RULES
from ..core.models import AnomalyType, EntityState
from .meter_cut import cut_meter
from .open_anomaly import OpenAnomaly, rank
from .store import parse_time


def _rooms(hazard: OpenAnomaly, entities: Mapping[str, EntityState]) -> tuple[set[str], set[str]]:
    """The areas and devices of what the hazard shows."""
    areas, devices = set(), set()
    for entity_id in hazard.shown_evidence:
        if (state := entities.get(entity_id)) is None:
            continue
        if state.info.area:
            areas.add(state.info.area)
        if state.info.device:
            devices.add(state.info.device)
    return areas, devices


def _source_of(
    anomaly: OpenAnomaly, hazard: OpenAnomaly, entities: Mapping[str, EntityState]
) -> bool:
    told = parse_time(hazard.first_seen)
    if told is None or rank(anomaly.severity) > rank(hazard.severity):
        return False
    areas, devices = _rooms(hazard, entities)
    shown = [anomaly.subject, *anomaly.shown_evidence]
    for entity_id in shown:
        state = entities.get(entity_id)
        if state is None:
            if entity_id == anomaly.subject:
                return False  # the home or an area as a whole: no one load
            continue
        if state.info.area not in areas and state.info.device not in devices:
            return False  # a load in another room: news
        if state.number is None and (state.last_changed is None or state.last_changed > told):
            return False  # switched since the hazard was told: a new act
        if cut_meter(state):
            return False  # stopped, not running on: an answer or news (``hazard_answer``)
    return True


def hazard_it_runs_by(
    anomaly: OpenAnomaly, open_now: Iterable[OpenAnomaly], entities: Mapping[str, EntityState]
) -> OpenAnomaly | None:
    """The told, open hazard whose room ``anomaly`` (just opened, a load running) is
    in, its devices untouched since; None when it is news."""
    if (
        anomaly.hazard
        or anomaly.anomaly_type != AnomalyType.ENERGY
        or not anomaly.shown_evidence
        or any(rule in INTRUSION_RULES for rule in anomaly.rules)
    ):
        return None
    return next(
        (
            h
            for h in open_now
            if h.hazard
            and h.ended is None
            and h.signature != anomaly.signature
            and h.shown_evidence
            and _source_of(anomaly, h, entities)
        ),
        None,
    )
