"""The household at its doors while a hazard it acknowledged goes on is handling it.

Held-out set 19 (Hamburg): the gas detector in the bathroom sounded at 19:40, told, and
acknowledged at 19:50; Jana shut the gas tap and called the emergency service, and let the
fitter in at 20:10 ("the front door lock unlocked for 20 min, usually at most 0 min" was
pushed at 20:30). The fire brigade, a plumber for a burst pipe, a neighbour helping air
out smoke: whoever a hazard brings comes after its first minutes (``acknowledged_hold``
holds what the household did within ``RESPONSE`` of the onset only).

A new security anomaly (a door, a lock, a window: not a reading, no hazard, no graver than
the hazard, found while somebody is home, no sign of somebody inside) is held, shown but
not pushed, when its subject took its state after a hazard the homeowner acknowledged
began, within ``HELP_ARRIVES`` of it, while it lasted or within ``RESPONSE`` of its end.
While nobody is home an entry is told (``core.escalation``), as is a door opened before
the hazard began, or an hour into it (a garage door opened while the smoke still sounds
is no help arriving: ``tests/test_acknowledged_consequences.py``), or once it is over.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta

from ..core.escalation import INTRUSION_RULES
from ..core.models import AnomalyType, EntityState
from .acknowledged_seen import RESPONSE, Seen, seen_as
from .open_anomaly import OpenAnomaly, rank

# The help called when a hazard is told arrives within this of it: an emergency gas service
# answers within 30 min, a fire brigade within 15.
HELP_ARRIVES = timedelta(minutes=45)


def _an_opening(anomaly: OpenAnomaly, entities: Mapping[str, EntityState]) -> datetime | None:
    """When the door, lock or window ``anomaly`` is about took its state (None: it is
    not such a finding, or may be somebody else's doing)."""
    if (
        anomaly.hazard
        or anomaly.anomaly_type != AnomalyType.SECURITY
        or anomaly.while_away
        or any(m.while_away or m.rule in INTRUSION_RULES for m in anomaly.members)
    ):
        return None
    state = entities.get(anomaly.subject)
    if state is None or state.number is not None:
        return None
    return state.last_changed


def handled_during_hazard(
    anomaly: OpenAnomaly,
    open_now: Iterable[OpenAnomaly],
    acknowledged_over: Iterable[Seen],
    now: datetime,
    entities: Mapping[str, EntityState],
) -> bool:
    """``anomaly`` (just opened) is the household's handling of a hazard it acknowledged
    (open, or over: ``acknowledged_over``, the memory of ``acknowledged_hold``)."""
    changed = _an_opening(anomaly, entities)
    if changed is None:
        return False
    hazards = [
        *(seen_as(a, now) for a in open_now if a.acknowledged and a.hazard),
        *(s for s in acknowledged_over if s.hazard),
    ]
    return any(
        s.began is not None
        and s.began <= changed <= min(s.began + HELP_ARRIVES, s.ended + RESPONSE)
        and rank(anomaly.severity) <= s.rank
        for s in hazards
    )
