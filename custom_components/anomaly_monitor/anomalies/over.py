"""Which open anomalies an update ends: the ones it did not find, once their clear
hysteresis has passed, but never one whose evidence only dropped off the radio or an entry
that still stands open while everybody is away."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from datetime import datetime

from .evidence_hold import holds as evidence_holds
from .open_anomaly import OpenAnomaly
from .open_entry import holds_open


def over_now(
    anomalies: dict[str, OpenAnomaly],
    seen: Collection[str],
    now: datetime,
    someone_home: bool,
    states: Mapping[str, str] | None = None,
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
        elif anomaly.miss(now):
            over.append(anomaly)
    for anomaly in over:
        del anomalies[anomaly.signature]
    return over
