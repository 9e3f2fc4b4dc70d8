"""What one analysis changed in the open anomalies, and the small judgements the tracker
makes on the way (an arrival ends a "while nobody is home" finding; a milder finding)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ..core.feedback import is_hazard
from ..core.models import Finding, Severity
from .open_anomaly import OpenAnomaly


@dataclass(slots=True)
class Changes:
    """What one analysis changed: anomalies that opened, and that are over."""

    # To announce: new incidents, and open ones that a joining rule escalated (graver, a
    # safety hazard, somebody inside while nobody is home: ``core.escalation``).
    opened: list[OpenAnomaly]
    cleared: list[OpenAnomaly]
    # Found again soon after they ended, reading the same: shown again, not told
    # (``reopening``).
    reopened: list[OpenAnomaly] = field(default_factory=list)
    # Ended anomalies past ``FEEDBACK_AFTER_END``, or opened again: their surfaces go.
    forgotten: list[OpenAnomaly] = field(default_factory=list)
    # Findings of rules that joined an acknowledged anomaly without making it graver (an
    # entry while nobody is home joining the acknowledged night entry of the same door):
    # shown nowhere, so written to the logbook.
    joined_acknowledged: list[tuple[OpenAnomaly, list[Finding]]] = field(default_factory=list)
    # Entries opened again within their first telling (``entered_again.within_the_entry``):
    # among ``reopened``, shown in place and not pushed, so the logbook says so.
    opened_again: list[OpenAnomaly] = field(default_factory=list)


def ended_by_arrival(finding: Finding) -> bool:
    """A "while nobody is home" finding that someone known home ends: a statistic that
    still sees the away spell in its window must neither keep nor re-tell it. A safety
    hazard (a window open in the rain) is never ended by an arrival."""
    return finding.while_away and not is_hazard(finding.anomaly_type, finding.severity)


def ended_by_arrival_of(anomaly: OpenAnomaly, someone_home: bool) -> bool:
    """An anomaly about nobody being home that someone coming home ended."""
    return anomaly.while_away and someone_home and not anomaly.hazard


def milder(findings: Iterable[Finding], anomaly: OpenAnomaly) -> bool:
    """Every finding is less severe than the anomaly."""
    return max(f.severity.rank for f in findings) < Severity(anomaly.severity).rank
