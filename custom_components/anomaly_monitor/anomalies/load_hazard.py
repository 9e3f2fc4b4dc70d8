"""A hazard a sensor finds where a told load runs is that load's incident, told graver.

Set 11 (the Amsterdam houseboat): the bilge pump, on its plug in the bilge, was told "on
past its routine" at 09:30; at 10:02 the high-water sensor beside it in the bilge went
wet and was pushed as a second incident. It is one trouble, seen first by its load: the
pump running on because the water came in. ``hazard_source`` answers the other order (a
load found running by a hazard told first is shown in the hazard's notification).

A new incident led by a hazard sensor's finding (``hazard_detected``: a leak, smoke, gas)
joins the open anomaly whose every finding says only that a load draws (on too long, at
an odd hour, while nobody is home: ``is_a_load``), when every device of that load it
shows stands in a room (area) or on a device the hazard's sensor does. Joining it, the
hazard makes the incident graver and is pushed at once with its own words leading
(``core.escalation``): one incident, told again because it became a hazard. A load in
another room, or an anomaly holding anything but loads, is left apart.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..core.home import is_motion
from ..core.models import AnomalyType, EntityState, Finding
from ..core.rules.safety import HAZARD_DETECTED
from .open_anomaly import Member, OpenAnomaly

# Findings that say only that a load draws while nobody is home (left on, a timer).
LEFT_ON_RULES = frozenset({"appliance_active_while_away"})


def is_a_load(member: Member) -> bool:
    """A finding that only says a load draws (left on while away, an odd hour's draw)."""
    return member.rule in LEFT_ON_RULES or member.anomaly_type == AnomalyType.ENERGY


def load_told_in_its_room(
    finding: Finding,
    open_now: Sequence[OpenAnomaly],
    entities: Mapping[str, EntityState] | None,
) -> OpenAnomaly | None:
    """The open anomaly of a load in the room of ``finding`` (a new incident's lead), when
    that is a hazard sensor's finding; None otherwise."""
    if entities is None or finding.rule != HAZARD_DETECTED.rule:
        return None
    sensors = [s for e in finding.evidence if (s := entities.get(e)) is not None]
    areas = {s.info.area for s in sensors if s.info.area}
    devices = {s.info.device for s in sensors if s.info.device}
    if not areas and not devices:
        return None
    return next(
        (
            a
            for a in open_now
            if a.ended is None
            and not a.hazard
            and a.members
            and all(is_a_load(m) for m in a.members)
            and _in_the_room(a, entities, areas, devices)
        ),
        None,
    )


def _in_the_room(
    load: OpenAnomaly,
    entities: Mapping[str, EntityState],
    areas: set[str],
    devices: set[str],
) -> bool:
    """Every device of the load shown (its room's motion sensors aside) stands in one of
    ``areas`` or is one of ``devices``; one at least."""
    shown = [entities.get(e) for e in load.shown_evidence]
    loads = [s for s in shown if s is not None and not is_motion(s)]
    return bool(loads) and all(
        (s.info.area is not None and s.info.area in areas)
        or (s.info.device is not None and s.info.device in devices)
        for s in loads
    )
