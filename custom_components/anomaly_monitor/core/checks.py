"""The one contract of a check (a rule or a statistic), and the detector that runs checks.

A check reads a home's window through a ``HomeView`` and yields findings:
``check(home) -> Iterable[Finding]``. The semantic rules (``rules/``, registry
``ALL_RULES``) read what the window's states say; the temporal statistics
(``statistics/``, registry ``ALL_STATISTICS``) read its transitions over time. Both are
run by ``ChecksDetector``, pure and cheap, needing no model or server.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
import logging

from .feedback import FalseAlarms, Suppressions, as_false_alarms
from .home import HomeView
from .models import ContextWindow, Finding, Severity, Verdict

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


class ChecksDetector:
    """Detector made of checks; cheap enough to run on every analysis."""

    def __init__(
        self,
        checks: Iterable[Check],
        sensitivity: str = "medium",
        suppressed: Suppressions = (),
        *,
        name: str = "checks",
        needs_transitions: bool = False,
    ) -> None:
        self.name = name
        self.checks = tuple(checks)
        # Statistics reason about time: a window without transitions gives them nothing.
        self.needs_transitions = needs_transitions
        self.min_severity = SENSITIVITY_THRESHOLDS.get(sensitivity, Severity.MEDIUM)
        # False-alarm marks, or bare signatures (suppressed at any degree).
        self.suppressed = as_false_alarms(suppressed)

    def findings(self, window: ContextWindow, home: HomeView | None = None) -> list[Finding]:
        """Every finding of every check, minus suppressed and too-minor ones."""
        if self.needs_transitions and not window.transitions:
            return []
        return run_checks(self.checks, home or HomeView(window), self.min_severity, self.suppressed)

    async def async_analyze(self, window: ContextWindow) -> Verdict:
        """Run the checks; they are pure and fast, so no executor is needed."""
        return Verdict.from_findings(self.findings(window), self.name)
