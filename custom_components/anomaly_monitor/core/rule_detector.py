"""The rule-based detector: runs every semantic rule, needs no model or server."""

from __future__ import annotations

from collections.abc import Callable, Iterable
import logging

from .feedback import FalseAlarms, Suppressions, as_false_alarms
from .home import HomeView
from .models import ContextWindow, Finding, Severity, Verdict
from .rules import ALL_RULES

_LOGGER = logging.getLogger(__name__)

# Lowest severity reported at each sensitivity setting.
SENSITIVITY_THRESHOLDS = {
    "low": Severity.HIGH,
    "medium": Severity.MEDIUM,
    "high": Severity.LOW,
}

Check = Callable[[HomeView], Iterable[Finding]]


def run_checks(
    checks: Iterable[Check],
    home: HomeView,
    min_severity: Severity,
    suppressed: FalseAlarms,
) -> list[Finding]:
    """Every finding of every check, minus duplicates, suppressed and too-minor ones.

    A finding is suppressed when a false-alarm mark covers it: same signature and no
    more extreme than the marked one (see ``core/feedback.py``).
    """
    found: list[Finding] = []
    seen: set[str] = set()
    for check in checks:
        try:
            results = list(check(home))
        except Exception:  # a buggy check must not silence the others
            _LOGGER.exception("Check %s failed", getattr(check, "__name__", check))
            continue
        for finding in results:
            if finding.signature in seen or suppressed.covers(finding):
                continue
            if finding.severity.rank < min_severity.rank:
                continue
            seen.add(finding.signature)
            found.append(finding)
    return found


class RuleDetector:
    """Detector made of semantic rules; cheap enough to run on every analysis."""

    name = "rules"

    def __init__(
        self,
        rules: Iterable[Check] = ALL_RULES,
        sensitivity: str = "medium",
        suppressed: Suppressions = (),
    ) -> None:
        self.rules = tuple(rules)
        self.min_severity = SENSITIVITY_THRESHOLDS.get(sensitivity, Severity.MEDIUM)
        # False-alarm marks, or bare signatures (suppressed at any degree).
        self.suppressed = as_false_alarms(suppressed)

    def findings(self, window: ContextWindow, home: HomeView | None = None) -> list[Finding]:
        """Every finding of every rule, minus suppressed and too-minor ones."""
        return run_checks(self.rules, home or HomeView(window), self.min_severity, self.suppressed)

    async def async_analyze(self, window: ContextWindow) -> Verdict:
        """Run the rules; they are pure and fast, so no executor is needed."""
        return Verdict.from_findings(self.findings(window), self.name)
