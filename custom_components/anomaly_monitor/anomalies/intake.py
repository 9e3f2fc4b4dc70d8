"""A verdict taken into the open anomalies: always in one order.

Every verdict the coordinator takes passes here - the checks' urgent findings told before
the model answers (and a safety check's) as well as an analysis' final verdict:

1. redaction: model text may echo the profile; nothing downstream (storage, entities,
   events, notifications, issues, diagnostics, the action's response) sees it unscrubbed;
2. suppression: what the homeowner's false-alarm marks cover goes;
3. the learning gate: while a device's normal is learned, only what cannot wait opens an
   anomaly (``core.learning_gate``);

and then ``AnomalyTracker.update``.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from ..core.baselines import HomeBaselines
from ..core.feedback import Suppressions, suppress
from ..core.learning_gate import not_held
from ..core.models import Finding, Verdict
from ..redaction import Redactor


def taken(verdict: Verdict, redactor: Redactor, marks: Suppressions) -> Verdict:
    """``verdict`` scrubbed, then without what a false-alarm mark covers."""
    return suppress(redactor.verdict(verdict), marks)


def pushable(
    findings: Iterable[Finding],
    baselines: HomeBaselines | None,
    now: datetime,
    someone_home: bool,
    pets: bool = False,
    *,
    phoneless: bool = False,
) -> list[Finding]:
    """What may open an anomaly now: not what waits for its devices' normal (``pets``: the
    profile names a pet; ``phoneless``: somebody who lives here carries no tracked phone)."""
    return not_held(findings, baselines, now, someone_home, pets, phoneless=phoneless)
