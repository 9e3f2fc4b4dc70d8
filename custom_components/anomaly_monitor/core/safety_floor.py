"""Urgent findings: what the rules report at once and no model may silence.

A smoke, gas, carbon monoxide, heat or leak alarm (any safety hazard rated high or
critical) and any critical finding is *urgent*. The monitor announces urgent rule findings
as soon as a significant change arrives, before any model is asked, and every detector
keeps them:

- ``rules`` and ``hybrid`` always keep them (the hybrid model may dismiss medium and low
  findings only);
- ``llm`` alone is wrapped in ``SafetyFloorDetector``: the model judges the window, and
  the urgent rule findings are added to whatever it answers, so an injected state or a
  model that calls everything normal cannot silence a real smoke alarm.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from .combined_detector import merge_findings
from .detector import Detector
from .models import AnomalyType, ContextWindow, Finding, Severity, Verdict


def is_urgent(finding: Finding) -> bool:
    """A finding that is announced at once and never dismissed by a model."""
    if finding.severity is Severity.CRITICAL:
        return True
    return (
        finding.anomaly_type == AnomalyType.SAFETY_HAZARD
        and finding.severity.rank >= Severity.HIGH.rank
    )


def urgent_findings(findings: Iterable[Finding]) -> list[Finding]:
    """The urgent ones of ``findings``."""
    return [f for f in findings if is_urgent(f)]


def with_floor(verdict: Verdict, floor: list[Finding], detector: str) -> Verdict:
    """``verdict`` with the urgent rule findings always in it.

    The rule's finding keeps its identity (the anomaly the monitor announced before the
    model answered stays the same one) and its advice; when the model cites the same
    devices, its sentence is added ("The model agrees: ..."), and its own finding about
    them, if not more severe, gives way.
    """
    if not floor:
        return verdict
    model = list(verdict.findings) if verdict.is_anomaly else []
    kept: list[Finding] = []
    for urgent in floor:
        agreeing = [m for m in model if set(m.evidence) & set(urgent.evidence) and m.reasoning]
        if agreeing:
            agrees = f"{urgent.reasoning} The model agrees: {agreeing[0].reasoning}"
            urgent = replace(urgent, reasoning=agrees)  # noqa: PLW2901
        kept.append(urgent)
    merged = Verdict.from_findings(merge_findings([*kept, *model]), detector)
    merged = replace(merged, raw=verdict.raw)
    if not verdict.is_anomaly:
        return replace(merged, reasoning=f"{merged.reasoning} (The model answered normal.)")
    return merged


class SafetyFloorDetector:
    """An LLM detector whose verdict always keeps the urgent rule findings."""

    def __init__(self, llm: Detector, rules: Detector, *, name: str = "llm") -> None:
        self.llm = llm
        self.rules = rules
        self.name = name

    async def async_analyze(self, window: ContextWindow, checks: Verdict | None = None) -> Verdict:
        """The model's verdict with the floor added; the model's failure is raised as is
        (the caller's fallback - the rules - judges then). ``checks``: the rules' verdict
        on ``window`` when the caller has it already."""
        rules = checks if checks is not None else await self.rules.async_analyze(window)
        floor = urgent_findings(rules.findings)
        verdict = await self.llm.async_analyze(window)
        return with_floor(verdict, floor, self.name)
