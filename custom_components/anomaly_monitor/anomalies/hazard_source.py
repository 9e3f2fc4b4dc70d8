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
shown in the hazard's notification, acknowledged with it.

A load that started with the hazard and runs on is its source wherever it stands: its
switch turned on within ``WITH_ONSET`` of the hazard being told (before or after), every
meter it shows one device with that switch (set 27, Triolet: the roof tank's outlet
union split at 02:20, the leak sensor on the roof slab told; the booster pump in the
yard below lost its pressure, switched on 30 s later and ran on, "780 W for 30 min"
pushed at 02:50).

A load whose run was going on when the hazard was told, and runs on untouched, is its
source wherever it stands too: the run began before the hazard (a run's finding says for
how long it has drawn, its magnitude in minutes), every switch it shows unchanged since.
A pump whose float sticks runs on and the tank it fills overflows where the leak sensor
is (set 30, Mylapore: the sump motor in the front yard on since 05:44, the terrace's leak
sensor wet at 06:18, "765 W for 47 min, it runs 23 min at most" pushed at 06:32; set 46,
Belém: the pump in the yard on since 09:50, the service area wet at 10:15, acknowledged
at 10:25, "780 W for 36 min" pushed at 10:26); a heater running when smoke rises, a
washing machine running when its floor is wet, are the same. The homeowner who goes to
the hazard is told of the load in its notification. A load switched on after the hazard
(in another room), one whose run began after it, or the same load once the hazard is
over, is news.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta

from ..core.device_roles import same_device
from ..core.escalation import INTRUSION_RULES
from ..core.models import AnomalyType, EntityState
from .meter_cut import cut_meter
from .open_anomaly import OpenAnomaly, rank
from .store import parse_time

# A switch turned on this near the hazard being told started with it (a hazard is told
# within seconds of its sensor; the pump reacts to the pressure lost within a minute).
WITH_ONSET = timedelta(minutes=2)
# The findings of a load's run too long whose magnitude is the minutes it has drawn.
RUN_RULES = frozenset({"left_on_past_its_routine", "appliance_running_far_longer"})


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
    states = []
    for entity_id in (anomaly.subject, *anomaly.shown_evidence):
        state = entities.get(entity_id)
        if state is None:
            if entity_id == anomaly.subject:
                return False  # the home or an area as a whole: no one load
            continue
        if cut_meter(state):
            return False  # stopped, not running on: an answer or news (``hazard_answer``)
        states.append(state)
    return (
        _in_its_room(states, hazard, entities, told)
        or _started_with(states, told)
        or _running_through(anomaly, states, told)
    )


def _in_its_room(
    states: Sequence[EntityState],
    hazard: OpenAnomaly,
    entities: Mapping[str, EntityState],
    told: datetime,
) -> bool:
    """Every device in a room the hazard shows, none switched since it was told."""
    areas, devices = _rooms(hazard, entities)
    for state in states:
        if state.info.area not in areas and state.info.device not in devices:
            return False  # a load in another room: ``_started_with`` or news
        if state.number is None and (state.last_changed is None or state.last_changed > told):
            return False  # switched since the hazard was told: a new act
    return True


def _started_with(states: Sequence[EntityState], told: datetime) -> bool:
    """A load switched on as the hazard began, anywhere: each switch shown changed within
    ``WITH_ONSET`` of it, each meter shown is one device with such a switch."""
    switches = [s for s in states if s.number is None]
    if not switches or any(
        s.last_changed is None or abs(s.last_changed - told) > WITH_ONSET for s in switches
    ):
        return False
    return all(s.number is None or any(same_device(s, w) for w in switches) for s in states)


def _running_through(anomaly: OpenAnomaly, states: Sequence[EntityState], told: datetime) -> bool:
    """A run already going on when the hazard was told (its minutes drawn reach back
    before it), every switch shown untouched since before the hazard."""
    found = parse_time(anomaly.first_seen)
    runs = [m for m in anomaly.members if m.rule in RUN_RULES and m.magnitude is not None]
    if found is None or not runs or not states:
        return False
    began = found - timedelta(minutes=max(m.magnitude or 0.0 for m in runs))
    if began >= told:
        return False  # its run began after the hazard: a new act, news
    return all(
        s.number is not None or (s.last_changed is not None and s.last_changed <= began)
        for s in states
    )


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
