"""Rules and temporal statistics together, merged into one verdict with minimal evidence."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from functools import partial

from .baselines import HomeBaselines, baseline_findings
from .baselines.cycles import cycles_day_and_night
from .baselines.detectors import explained_by_baselines
from .baselines.open_at_rest import OPEN_WHILE_ASLEEP
from .baselines.rechargeable_drain import worded_as_rechargeable
from .baselines.routine_alert_judge import told_as_routine
from .baselines.usual_extremes import usual_extreme
from .baselines.usual_judge import judged_by_usual
from .baselines.usual_outages import usual_outage
from .device_roles import learned_cycling, learned_openings
from .feedback import Suppressions, as_false_alarms
from .home import HomeView
from .incidents import incident_key
from .models import ContextWindow, Finding, Verdict
from .rule_detector import RuleDetector
from .statistics import StatisticsDetector

# Findings judged by the device's own learned normal, kept over an alike default one.
_JUDGED_BETTER = frozenset({OPEN_WHILE_ASLEEP.rule})


def _incident(finding: Finding) -> str:
    return incident_key(finding.subject, finding.anomaly_type, finding.rule)


def merge_findings(findings: Iterable[Finding]) -> list[Finding]:
    """Drop findings whose evidence another, at least as severe, finding of the same
    incident (``core.incidents``) already covers; most severe and widest first.

    Only within one incident: a finding about another subject is another anomaly, and
    dropping it whenever a wider one covers its evidence (a light joining "motion while
    nobody is home" covers "the door is unlocked") would clear it and announce it again
    once the wider one shrinks. The verdict's evidence is the same either way. Of two
    alike, the one judged by what the device learned (``_JUDGED_BETTER``) is kept: a door
    open since before the household's rest, longer than it ever stood open, is that, not
    "left open" by the default limit (which waits while the door's normal is learned).
    """
    ordered = sorted(
        findings, key=lambda f: (-f.severity.rank, -len(f.evidence), f.rule not in _JUDGED_BETTER)
    )
    kept: list[Finding] = []
    for finding in ordered:
        evidence = set(finding.evidence)
        if any(
            evidence <= set(other.evidence)
            and other.severity.rank >= finding.severity.rank
            and _incident(other) == _incident(finding)
            for other in kept
        ):
            continue
        kept.append(finding)
    return kept


# Runs a job elsewhere and awaits its findings (HA's ``async_add_executor_job``).
type Offload = Callable[[Callable[[], list[Finding]]], Awaitable[list[Finding]]]


class CombinedDetector:
    """Runs the semantic rules and the temporal statistics on one shared view."""

    name = "rules+statistics"

    def __init__(
        self,
        sensitivity: str = "medium",
        suppressed: Suppressions = (),
        *,
        baselines: Callable[[], HomeBaselines | None] | None = None,
        offload: Offload | None = None,
    ) -> None:
        # False-alarm marks (or bare signatures), shared by both halves.
        suppressed = as_false_alarms(suppressed)
        self.rules = RuleDetector(sensitivity=sensitivity, suppressed=suppressed)
        self.statistics = StatisticsDetector(sensitivity=sensitivity, suppressed=suppressed)
        # The home's learned normal, when the integration keeps one (never in a replay of
        # someone else's samples): a getter, since learning may replace it.
        self.baselines = baselines
        # Where the integration runs the window's rules and statistics (HA's executor: an
        # analysis of a busy window costs tens of ms or more, never the event loop's);
        # None runs them here. The baselines are read where they are learned, after it.
        self.offload = offload

    def window_findings(self, window: ContextWindow, home: HomeView) -> list[Finding]:
        """The rules' and statistics' findings: they read the window alone, so they may
        run in a worker thread (the window and its states are immutable)."""
        found = self.rules.findings(window, home)
        if window.transitions:
            found += self.statistics.findings(window, home)
        return found

    def _home(self, window: ContextWindow) -> HomeView:
        """The window's view, told which meters the home learned cycling day and night and
        which ``opening`` contacts are doors shut after each use (read here, where the
        baselines are learned: the rules may run in a worker)."""
        home = HomeView(window)
        if self.baselines is not None and (baselines := self.baselines()) is not None:
            meters = home.of("sensor", "power")
            learned_cycling(
                home, {m.entity_id for m in meters if cycles_day_and_night(baselines, m.entity_id)}
            )
            contacts = [c.entity_id for c in home.of("binary_sensor", "opening")]
            inside = baselines.inside
            learned_openings(home, {c for c in contacts if inside.shut_after_use(c)})
        return home

    def findings(self, window: ContextWindow) -> list[Finding]:
        """Findings of both, overlapping ones merged."""
        home = self._home(window)
        return self._with_baselines(self.window_findings(window, home), home)

    def _with_baselines(self, found: list[Finding], home: HomeView) -> list[Finding]:
        """What the home's learned normal explains left out, its own findings added, merged."""
        if self.baselines is not None and (baselines := self.baselines()) is not None:
            # What this home learned explains is not told: lights switched by hand, links
            # the fortnight judges better, a room's extreme that is its sensor's normal (a
            # sauna, a freezer probe), a habit of this home (a door open for hours every
            # day, cupboards while cooking, a night-time toilet trip).
            found = [
                judged
                for f in found
                if not explained_by_baselines(f, baselines, home)
                and not usual_extreme(home, baselines, f)
                and not usual_outage(home, baselines, f)
                and (judged := judged_by_usual(f, baselines, home)) is not None
            ]
            found = [worded_as_rechargeable(f, baselines, home) for f in found]
            rules = self.rules
            # A generic alert that goes on and clears here by routine: told low (shown at
            # sensitivity high only), never pushed (``routine_alert_judge.shown_not_pushed``).
            found = [
                judged
                for f in found
                if (judged := told_as_routine(f, baselines, home)).severity.rank
                >= rules.min_severity.rank
            ]
            found += baseline_findings(home, baselines, rules.min_severity, rules.suppressed)
        return merge_findings(found)

    async def async_analyze(self, window: ContextWindow) -> Verdict:
        """One verdict from rules and statistics (a states-only window, cheap, judged here)."""
        if self.offload is None or not window.transitions:
            return Verdict.from_findings(self.findings(window), self.name)
        home = self._home(window)
        found = await self.offload(partial(self.window_findings, window, home))
        return Verdict.from_findings(self._with_baselines(found, home), self.name)
