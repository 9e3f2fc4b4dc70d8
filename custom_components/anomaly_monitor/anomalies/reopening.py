"""An end that is undone minutes later was no end: the same situation, told once.

A statistic sees an event inside its two-hour window: heating with the forced window open
is found, ages out of the window and clears, and is found again at the next change, each
time told anew. An anomaly found again within ``REOPEN_QUIET`` of its end, while its shown
evidence has read as it did when it ended at every analysis since (the door never closed
in between), opens again in place: its notification and repair issue are shown again,
with no new push or event, and it stays acknowledged if it was. Never so for a safety
hazard (smoke again 20 s after the detector cleared is told), nor for an anomaly about
nobody being home that an arrival ended (the next empty spell is another situation).

A restart ends what it does not change: HA gives every entity a new ``last_changed``, so
a rule's spell begins anew at the start (a door open since 16:05 is "open 2 min"), and
an anomaly open across it went missing and ended minutes after the start. Held-out set
12: the barn door left open at 16:05, told at 17:06; HA restarted at 21:00, the anomaly
ended at 21:02 and was pushed again at 22:04, "open 64 min (from 21:00)". One that ends
within ``RESTART_SETTLE`` of the first analysis after a restart stays the same situation
for ``AFTER_RESTART`` (the longest a rule takes to find it again), on the same condition:
its evidence read as it did at every analysis since (the door never closed).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from .evidence_hold import reads_as
from .open_anomaly import OpenAnomaly

# How soon after its end the same anomaly is the same situation.
REOPEN_QUIET = timedelta(hours=1)
# An anomaly that ends this soon after the monitor started again ended with the restart...
RESTART_SETTLE = timedelta(minutes=10)
# ...and is the same situation this long (the rules' spells restarted at the start).
AFTER_RESTART = timedelta(hours=12)


@dataclass(slots=True)
class Over:
    """An anomaly that ended, as it read then."""

    when: datetime
    readings: dict[str, str]
    acknowledged: bool
    quiet: timedelta = REOPEN_QUIET


class RecentlyOver:
    """The anomalies that ended within ``REOPEN_QUIET`` (not stored: a restart forgets)."""

    def __init__(self) -> None:
        self.over: dict[str, Over] = {}

    def ended(
        self, anomaly: OpenAnomaly, now: datetime, by_arrival: bool, restart: bool = False
    ) -> None:
        """``anomaly`` is over at ``now`` (``by_arrival``: someone came home; ``restart``:
        it was open across a restart and ended as the monitor started again)."""
        if anomaly.hazard or by_arrival or not anomaly.readings:
            return
        quiet = AFTER_RESTART if restart else REOPEN_QUIET
        self.over[anomaly.signature] = Over(
            now, dict(anomaly.readings), anomaly.acknowledged, quiet
        )

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
        self.over = {s: o for s, o in self.over.items() if now - o.when < o.quiet}
        over = self.over.pop(anomaly.signature, None)
        if over is None or states is None or anomaly.hazard:
            return None
        same = all(
            e in states and reads_as(before, states[e]) for e, before in over.readings.items()
        )
        return over if same else None
