"""A false alarm taken back while its occurrence lasts: shown again, not pushed again.

Set 16 (Ljubljana, on b194a63): the flood sensor went offline at 08:00, was told at 08:15
and called a false alarm at noon; the next morning the sisters took the mark back (it was
no false alarm), and 10 s later "offline 25 h" was pushed again: the occurrence they had
been told about, still going on, told twice.

A non-hazard anomaly called a false alarm is kept as it read then, while every analysis
since reads it so (the device still offline, the door never closed in between). When the
homeowner removes that mark, it is the same situation if found again within
``reopening.REOPEN_QUIET`` (``RecentlyOver``): its notification and repair issue shown
again, unread, with no new push. Once its evidence read otherwise since the false alarm,
the next occurrence is news. Not stored: after a restart, it is told.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime

from .open_anomaly import OpenAnomaly
from .reopening import Over, RecentlyOver


class MarkedTold:
    """Anomalies called a false alarm whose evidence has read as then ever since."""

    def __init__(self) -> None:
        self._held = RecentlyOver()
        # Marked since the last analysis: its evidence, read at the next one (offline
        # reads no state, which an anomaly's own readings leave out).
        self._marked: dict[str, tuple[datetime, list[str]]] = {}

    def marked(self, anomaly: OpenAnomaly, now: datetime) -> None:
        """``anomaly`` (no hazard) was called a false alarm at ``now``."""
        if not anomaly.hazard and (shown := anomaly.shown_evidence or anomaly.evidence):
            self._marked[anomaly.signature] = (now, list(shown))

    def watch(self, states: Mapping[str, str]) -> None:
        """An analysis reads ``states``: one that reads otherwise is another occurrence."""
        for signature, (when, shown) in self._marked.items():
            if readings := {e: states[e] for e in shown if e in states}:
                self._held.over[signature] = Over(when, readings, False)
        self._marked.clear()
        self._held.watch(states)

    def unmarked(self, signatures: Iterable[str], over: RecentlyOver, now: datetime) -> None:
        """Their marks were removed at ``now``: the same occurrence reopens in ``over``."""
        for signature in signatures:
            if (held := self._held.over.pop(signature, None)) is not None:
                over.over[signature] = Over(now, held.readings, False)
