"""What the entities and diagnostics show: the coordinator's data, one typed object.

The coordinator makes it afresh whenever it tells its listeners (after each analysis, an
urgent finding told early, an acknowledgement or a false-alarm mark), so an entity reads
only this and never the watcher, the tracker or the detector.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from ..anomalies.open_anomaly import OpenAnomaly
from .result import AnalysisResult


@dataclass(frozen=True, slots=True)
class MonitorData:
    """The monitor as its surfaces show it."""

    analysis: AnalysisResult | None  # the newest analysis (None before the first)
    analyses: int  # how many ran since the entry loaded
    open_anomalies: tuple[OpenAnomaly, ...]
    # Over, still taking feedback for a day (their repair issues say so).
    ended_anomalies: tuple[OpenAnomaly, ...]
    false_alarm_patterns: tuple[str, ...]
    watched: frozenset[str]
    events_seen: int
    buffered_transitions: int
    dropped_transitions: int
    # The devices whose normal is still being learned, and until when (None: no baselines).
    learning: Mapping[str, datetime] | None
    detector: str
    model: dict[str, Any] | None  # the model's health (None: no model)
    # Over past their repair issue's day, still answerable by id (``tracker.past``).
    past_anomalies: tuple[OpenAnomaly, ...] = ()

    def diagnostics(self, scrub: Any) -> dict[str, Any]:
        """The diagnostics' part about the monitor, every text passed through ``scrub``."""
        return {
            "detector": self.detector,
            "model": self.model,
            "watched_entities": sorted(self.watched),
            "events_seen": self.events_seen,
            "buffered_transitions": self.buffered_transitions,
            "dropped_transitions": self.dropped_transitions,
            "analyses": self.analyses,
            "last_analysis": scrub(self.analysis.as_dict()) if self.analysis else None,
            "open_anomalies": scrub([_no_names(asdict(a)) for a in self.open_anomalies]),
            "ended_anomalies": scrub([_no_names(asdict(a)) for a in self.ended_anomalies]),
            "past_anomalies": scrub([_no_names(asdict(a)) for a in self.past_anomalies]),
            "false_alarm_patterns": sorted(self.false_alarm_patterns),
        }


def _no_names(anomaly: dict[str, Any]) -> dict[str, Any]:
    """An anomaly without its title (friendly names of the home): ids only."""
    anomaly.pop("headline", None)
    return anomaly
