"""What a check reports, declared once: its rule name, anomaly type and usual severity.

A check's findings differ in their evidence, words and degree; what kind of anomaly they
are does not. A check module declares the kind above the check,
``ENTRY_LEFT_OPEN = FindingKind("entry_left_open", AnomalyType.SECURITY, Severity.MEDIUM)``,
and the check's loop only says what it found:
``yield ENTRY_LEFT_OPEN.finding(evidence=..., reasoning=..., magnitude=...)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from .models import Finding, Severity


@dataclass(frozen=True, slots=True)
class FindingKind:
    """The fixed identity of one rule's findings."""

    rule: str
    anomaly_type: str
    severity: Severity = Severity.MEDIUM

    def finding(
        self,
        *,
        evidence: tuple[str, ...],
        reasoning: str,
        severity: Severity | None = None,
        recommendation: str = "",
        magnitude: float | None = None,
        subject: str = "",
        context: tuple[str, ...] = (),
        while_away: bool = False,
        candidates: tuple[str, ...] = (),
        home_then: bool | None = None,
        since: datetime | None = None,
    ) -> Finding:
        """One finding of this kind; ``severity`` overrides the usual one when it varies."""
        return Finding(
            rule=self.rule,
            evidence=evidence,
            reasoning=reasoning,
            anomaly_type=self.anomaly_type,
            severity=self.severity if severity is None else severity,
            recommendation=recommendation,
            magnitude=magnitude,
            subject=subject,
            context=context,
            while_away=while_away,
            candidates=candidates,
            home_then=home_then,
            since=since,
        )
