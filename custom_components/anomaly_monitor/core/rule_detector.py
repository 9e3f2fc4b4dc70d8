"""The rule-based detector: runs every semantic rule, needs no model or server."""

from __future__ import annotations

from collections.abc import Iterable
import logging

from .home import HomeView
from .models import ContextWindow, Finding, Severity, Verdict
from .rules import ALL_RULES, Rule

_LOGGER = logging.getLogger(__name__)

# Lowest severity reported at each sensitivity setting.
SENSITIVITY_THRESHOLDS = {
    "low": Severity.HIGH,
    "medium": Severity.MEDIUM,
    "high": Severity.LOW,
}


class RuleDetector:
    """Detector made of semantic rules; cheap enough to run on every analysis."""

    name = "rules"

    def __init__(
        self,
        rules: Iterable[Rule] = ALL_RULES,
        sensitivity: str = "medium",
        suppressed: Iterable[str] = (),
    ) -> None:
        self.rules = tuple(rules)
        self.min_severity = SENSITIVITY_THRESHOLDS.get(sensitivity, Severity.MEDIUM)
        self.suppressed = set(suppressed)

    def findings(self, window: ContextWindow) -> list[Finding]:
        """Every finding of every rule, minus suppressed and too-minor ones."""
        home = HomeView(window)
        found: list[Finding] = []
        seen: set[str] = set()
        for rule in self.rules:
            try:
                results = list(rule(home))
            except Exception:  # a buggy rule must not silence the others
                _LOGGER.exception("Rule %s failed", getattr(rule, "__name__", rule))
                continue
            for finding in results:
                if finding.signature in seen or finding.signature in self.suppressed:
                    continue
                if finding.severity.rank < self.min_severity.rank:
                    continue
                seen.add(finding.signature)
                found.append(finding)
        return found

    async def async_analyze(self, window: ContextWindow) -> Verdict:
        """Run the rules; they are pure and fast, so no executor is needed."""
        return Verdict.from_findings(self.findings(window), self.name)
