"""Which open anomalies an update ends: the ones it did not find, once their clear
hysteresis has passed, but never one whose evidence only dropped off the radio, an entry
that still stands open while everybody is away, or a person lying still while nothing in
the home has moved since it was told (``stillness_on``)."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from datetime import datetime

from ..core.models import EntityState
from .evidence_hold import holds as evidence_holds
from .ha_start import StartSpan
from .open_anomaly import OpenAnomaly
from .open_entry import holds_open
from .stillness_on import lies_still


def over_now(
    anomalies: dict[str, OpenAnomaly],
    seen: Collection[str],
    now: datetime,
    someone_home: bool,
    states: Mapping[str, str] | None = None,
    *,
    entities: Mapping[str, EntityState] | None = None,
    start: StartSpan | None = None,
) -> list[OpenAnomaly]:
    """The open anomalies over now (removed from ``anomalies``): not ``seen`` by this
    update and past their hysteresis, unless their evidence dropped off or an entry
    while away still stands open; one found while away is over when someone is home."""
    over: list[OpenAnomaly] = []
    for signature, anomaly in anomalies.items():
        if signature in seen:
            continue
        if anomaly.while_away and someone_home and not anomaly.hazard:
            over.append(anomaly)
        elif states is not None and evidence_holds(anomaly, states, now):
            continue  # its evidence dropped off: not a miss
        elif states is not None and holds_open(anomaly, states, someone_home):
            continue  # an entry while away lasts while it stands open
        elif entities is not None and lies_still(anomaly, entities, start):
            continue  # a rule's limit moved on; she has not: the fall is not over
        elif anomaly.miss(now):
            over.append(anomaly)
    for anomaly in over:
        del anomalies[anomaly.signature]
    return over
