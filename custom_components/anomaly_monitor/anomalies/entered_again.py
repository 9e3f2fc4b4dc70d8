"""An entry while nobody is home that opens again is told again.

A window levered open while the home is empty is one incident, and it lasts until
somebody comes home. Closed and opened again while it lasts, the second opening joined
it without a word: the phone had heard of one opening, the notification still read
"Closed". An entry whose subject read closed when it was last found and reads open now
has opened again: it is told once more (``Escalation.REOPENED``: a push, an event, the
title "Opened again: …" while it stays open).
"""

from __future__ import annotations

from collections.abc import Mapping

from ..core.models import AnomalyType
from .open_anomaly import OpenAnomaly

_CLOSED = frozenset({"off", "closed", "locked"})
_OPEN = frozenset({"on", "open", "opening", "unlocked", "unlocking"})


def is_open(state: str | None) -> bool:
    """A state of an entrance that lets somebody in."""
    return state is not None and state.lower() in _OPEN


def entered_again(anomaly: OpenAnomaly, states: Mapping[str, str]) -> bool:
    """Whether ``anomaly``, an entry while nobody is home, has opened again since the
    last analysis that found it (judged before its readings take today's states)."""
    if not anomaly.while_away or anomaly.hazard:
        return False
    if anomaly.anomaly_type != AnomalyType.SECURITY.value:
        return False
    before = anomaly.readings.get(anomaly.subject)
    return before is not None and before.lower() in _CLOSED and is_open(states.get(anomaly.subject))
