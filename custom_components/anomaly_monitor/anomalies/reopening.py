"""An end that is undone minutes later was no end: the same situation, told once.

A statistic sees an event inside its two-hour window: heating with the forced window open
is found, ages out of the window and clears, and is found again at the next change, each
time told anew. An anomaly found again within ``REOPEN_QUIET`` of its end, while its shown
evidence has read as it did when it ended at every analysis since (the door never closed
in between), opens again in place: its notification and repair issue are shown again,
with no new push or event, and it stays acknowledged if it was. Never so for a safety
hazard (smoke again 20 s after the detector cleared is told), nor for an anomaly about
nobody being home that an arrival ended (the next empty spell is another situation).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from .evidence_hold import reads_as
from .open_anomaly import OpenAnomaly

# How soon after its end the same anomaly is the same situation.
REOPEN_QUIET = timedelta(hours=1)


@dataclass(slots=True)
class Over:
    """An anomaly that ended, as it read then."""

    when: datetime
    readings: dict[str, str]
    acknowledged: bool


class RecentlyOver:
    """The anomalies that ended within ``REOPEN_QUIET`` (not stored: a restart forgets)."""

    def __init__(self) -> None:
        self.over: dict[str, Over] = {}

    def ended(self, anomaly: OpenAnomaly, now: datetime, by_arrival: bool) -> None:
        """``anomaly`` is over at ``now`` (``by_arrival``: someone came home)."""
        if anomaly.hazard or by_arrival or not anomaly.readings:
            return
        self.over[anomaly.signature] = Over(now, dict(anomaly.readings), anomaly.acknowledged)

    def watch(self, states: Mapping[str, str]) -> None:
        """An analysis reads ``states``: an ended anomaly whose evidence reads otherwise
        (the door closed, the heating stopped) really ended."""
        self.over = {
            s: o
            for s, o in self.over.items()
            if all(e not in states or reads_as(v, states[e]) for e, v in o.readings.items())
        }

    def reopens(
        self, anomaly: OpenAnomaly, now: datetime, states: Mapping[str, str] | None
    ) -> Over | None:
        """The end ``anomaly`` (just opened) undoes, if it is the same situation."""
        self.over = {s: o for s, o in self.over.items() if now - o.when < REOPEN_QUIET}
        over = self.over.pop(anomaly.signature, None)
        if over is None or states is None or anomaly.hazard:
            return None
        same = all(
            e in states and reads_as(before, states[e]) for e, before in over.readings.items()
        )
        return over if same else None
