"""Homeowner feedback: false-alarm marks suppress the same pattern from then on."""

from __future__ import annotations

from collections.abc import Collection

from .models import Finding, Severity, Verdict


def findings_of(verdict: Verdict) -> tuple[Finding, ...]:
    """A verdict's findings; an anomaly reported without any becomes one finding."""
    if verdict.findings or not verdict.is_anomaly:
        return verdict.findings
    return (
        Finding(
            rule=verdict.detector or "detector",
            evidence=verdict.evidence,
            reasoning=verdict.reasoning,
            anomaly_type=verdict.anomaly_type or "anomaly",
            severity=verdict.severity or Severity.MEDIUM,
            recommendation=verdict.recommendation,
        ),
    )


def suppress(verdict: Verdict, suppressed: Collection[str]) -> Verdict:
    """The verdict without findings whose signature the homeowner marked as false alarm."""
    findings = findings_of(verdict)
    kept = [f for f in findings if f.signature not in suppressed]
    if len(kept) == len(findings) and findings == verdict.findings:
        return verdict
    result = Verdict.from_findings(kept, verdict.detector)
    return result if kept else Verdict.normal(verdict.detector, "Only suppressed patterns found.")
