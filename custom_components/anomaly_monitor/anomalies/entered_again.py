"""An entry while nobody is home that opens again is told again.

A window levered open while the home is empty is one incident, and it lasts until
somebody comes home. Closed and opened again while it lasts, the second opening joined
it without a word: the phone had heard of one opening, the notification still read
"Closed". An entry whose subject read closed when it was last found and reads open now
has opened again when its rule counts one more opening (a lock unlocked and then its door
opened is one entry): it is told once more (``Escalation.REOPENED``: a push, an event, the
title "Opened again: …" while it stays open).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..core.models import AnomalyType, Finding
from .open_anomaly import OpenAnomaly

_CLOSED = frozenset({"off", "closed", "locked"})
_OPEN = frozenset({"on", "open", "opening", "unlocked", "unlocking"})


def is_open(state: str | None) -> bool:
    """A state of an entrance that lets somebody in."""
    return state is not None and state.lower() in _OPEN


def entered_again(
    anomaly: OpenAnomaly, states: Mapping[str, str], findings: Iterable[Finding]
) -> bool:
    """Whether ``anomaly``, an entry while nobody is home, has opened again since the
    last analysis that found it (judged before its readings take today's states): its
    subject read closed then and open now, and a member counts more openings than it did
    (a lock unlocked, then its door opened, is one entry: the neighbour watering plants)."""
    if not anomaly.while_away or anomaly.hazard:
        return False
    if anomaly.anomaly_type != AnomalyType.SECURITY.value:
        return False
    before = anomaly.readings.get(anomaly.subject)
    if before is None or before.lower() not in _CLOSED or not is_open(states.get(anomaly.subject)):
        return False
    counted = {m.rule: m.magnitude for m in anomaly.members}
    return any(
        f.magnitude is not None and (was := counted.get(f.rule)) is not None and f.magnitude > was
        for f in findings
    )
