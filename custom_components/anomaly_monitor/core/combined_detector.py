"""Rules and temporal statistics together, merged into one verdict with minimal evidence."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .baselines import HomeBaselines, baseline_findings
from .feedback import Suppressions, as_false_alarms
from .home import HomeView
from .models import ContextWindow, Finding, Verdict
from .rule_detector import RuleDetector
from .statistics import StatisticsDetector


def merge_findings(findings: Iterable[Finding]) -> list[Finding]:
    """Drop findings whose evidence another, at least as severe, finding already covers."""
    ordered = sorted(findings, key=lambda f: (-f.severity.rank, -len(f.evidence)))
    kept: list[Finding] = []
    for finding in ordered:
        evidence = set(finding.evidence)
        if any(
            evidence <= set(other.evidence) and other.severity.rank >= finding.severity.rank
            for other in kept
        ):
            continue
        kept.append(finding)
    return kept


class CombinedDetector:
    """Runs the semantic rules and the temporal statistics on one shared view."""

    name = "rules+statistics"

    def __init__(self, sensitivity: str = "medium", suppressed: Suppressions = ()) -> None:
        # False-alarm marks (or bare signatures), shared by both halves.
        suppressed = as_false_alarms(suppressed)
        self.rules = RuleDetector(sensitivity=sensitivity, suppressed=suppressed)
        self.statistics = StatisticsDetector(sensitivity=sensitivity, suppressed=suppressed)
        # The home's learned normal, when the integration keeps one (never in a replay of
        # someone else's samples): a getter, since learning may replace it.
        self.baselines: Callable[[], HomeBaselines | None] | None = None

    def findings(self, window: ContextWindow) -> list[Finding]:
        """Findings of both, overlapping ones merged."""
        home = HomeView(window)
        found = self.rules.findings(window, home)
        if window.transitions:
            found += self.statistics.findings(window, home)
        if self.baselines is not None and (baselines := self.baselines()) is not None:
            rules = self.rules
            found += baseline_findings(home, baselines, rules.min_severity, rules.suppressed)
        return merge_findings(found)

    async def async_analyze(self, window: ContextWindow) -> Verdict:
        """One verdict from rules and statistics."""
        return Verdict.from_findings(self.findings(window), self.name)
