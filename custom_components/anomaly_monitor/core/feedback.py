"""Homeowner feedback: a false-alarm mark suppresses the same pattern up to the same degree.

A homeowner who marks "the door was open for 24 minutes" as a false alarm has said that
24 minutes is normal here, not that three hours is. So a mark keeps the finding's
``magnitude`` (how far past its threshold it was, see ``Finding``) and suppresses a later
finding with the same signature only while that finding is no more extreme than the
marked one, within ``MARGIN``. Without a magnitude on either side the mark falls back to
what it always was: the same rule on the same subject is suppressed.

A mark can hurt: a smoke alarm marked as a false alarm once must not silence the next
fire. So safety hazards (``is_hazard``) are never marked: "false alarm" on one dismisses
that occurrence only (the integration's tracker keeps it dismissed while it lasts), and
no mark covers a hazard, even one a marked rule finds (a reading that turns critical). Other
marks expire (``FalseAlarms.expire``) and can be listed and removed.

A mark on an entry or motion "while nobody is home" (``until_home``) has no degree, so on
its own it would hide every entry at that door, at any hour, for the mark's lifetime: the
cleaner's Wednesday 13:00 marked, a 03:00 break-in hidden. The same false alarm teaches
the learned away normal that an entry at that time of day is normal here; so the mark
covers only the rest of the away spell it was given in, and lapses (``lapse_until_home``)
once somebody is home. It stays listed (and removable, which also takes back what it
taught) until it expires.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from .models import AnomalyType, Finding, Severity, Verdict, clip, parse_number

# How much more extreme than the marked finding a later one may be and still count as the
# same normal situation. The detectors call a duration, rate or lag anomalous from about
# 3x the entity's own typical value (TYPICAL_FACTOR 3, BURST/LATE/SLOW_FACTOR 5); a mark
# is one observation of what is normal, so the same routine varying a little (a door held
# 20 or 28 minutes for a delivery) must stay covered, while anything approaching the
# detectors' own "several times normal" must not. 1.5 sits below the geometric midpoint
# of 1 and 3 (1.73), erring towards reporting: a missed real anomaly costs more than a
# repeated false alarm, which the homeowner can mark again (the mark then grows).
MARGIN = 1.5
# Text kept from the marked finding, for diagnostics and in-context examples.
_REASONING_LIMIT = 200


def is_hazard(anomaly_type: str, severity: str | None) -> bool:
    """Smoke, gas, CO, heat, a leak or anything critical: never silenced for good."""
    return anomaly_type == AnomalyType.SAFETY_HAZARD or severity == Severity.CRITICAL


def _as_time(value: str | None) -> datetime | None:
    try:
        when = datetime.fromisoformat(value) if value else None
    except ValueError:
        return None
    return when.replace(tzinfo=UTC) if when and when.tzinfo is None else when


@dataclass(frozen=True, slots=True)
class FalseAlarm:
    """One false-alarm mark: the pattern, how extreme it was, and how it read."""

    signature: str
    magnitude: float | None = None
    rule: str = ""
    evidence: tuple[str, ...] = ()
    reasoning: str = ""
    anomaly_type: str = ""
    marked_at: str | None = None  # ISO time, for the homeowner's and the lead's records
    # The incident the homeowner marked (its anomaly's signature): one false alarm on an
    # incident that several rules told leaves one mark per rule, listed and forgotten as one.
    incident: str = ""
    # Covers only the away spell it was given in (an entry or motion while nobody is home,
    # which the learned away normal takes by time of day); ``lapsed`` once somebody is home.
    until_home: bool = False
    lapsed: bool = False

    @classmethod
    def of(cls, finding: Finding, marked_at: str | None = None) -> FalseAlarm:
        """The mark for ``finding``."""
        return cls(
            signature=finding.signature,
            magnitude=finding.magnitude,
            rule=finding.rule,
            evidence=tuple(finding.evidence),
            reasoning=clip(finding.reasoning, _REASONING_LIMIT),
            anomaly_type=finding.anomaly_type,
            marked_at=marked_at,
        )

    def covers(self, finding: Finding, margin: float = MARGIN) -> bool:
        """Whether this mark suppresses ``finding`` (never a safety hazard)."""
        if self.lapsed:
            return False
        if finding.signature != self.signature or is_hazard(finding.anomaly_type, finding.severity):
            return False
        marked, found = self.magnitude, finding.magnitude
        if marked is None or found is None:
            return True
        if (marked < 0) != (found < 0):
            return False  # the other direction (too cold after "too warm is fine")
        return abs(found) <= abs(marked) * margin

    def merged(self, other: FalseAlarm) -> FalseAlarm:
        """One mark for a signature marked twice: the more permissive degree wins."""
        if self.magnitude is None or other.magnitude is None:
            magnitude = None
        elif (self.magnitude < 0) != (other.magnitude < 0):
            magnitude = None  # both directions marked normal: the degree says nothing
        else:
            magnitude = max(self.magnitude, other.magnitude, key=abs)
        latest = other if magnitude == other.magnitude else self
        return FalseAlarm(
            signature=self.signature,
            magnitude=magnitude,
            rule=latest.rule or self.rule,
            evidence=latest.evidence or self.evidence,
            reasoning=latest.reasoning or self.reasoning,
            anomaly_type=latest.anomaly_type or self.anomaly_type,
            marked_at=other.marked_at or self.marked_at,
            incident=other.incident or self.incident,
            # A mark for good (either) stays for good; a new spell's mark is not lapsed.
            until_home=self.until_home and other.until_home,
            lapsed=self.lapsed and other.lapsed,
        )

    def expires_at(self, lifetime: timedelta) -> datetime | None:
        """When this mark stops suppressing; ``None`` for an undated mark (never)."""
        marked = _as_time(self.marked_at)
        return marked + lifetime if marked is not None else None

    def as_dict(self) -> dict[str, Any]:
        """JSON-serialisable form for the Store."""
        return {
            "signature": self.signature,
            "magnitude": self.magnitude,
            "rule": self.rule,
            "evidence": list(self.evidence),
            "reasoning": self.reasoning,
            "anomaly_type": self.anomaly_type,
            "marked_at": self.marked_at,
            "incident": self.incident,
            "until_home": self.until_home,
            "lapsed": self.lapsed,
        }

    @classmethod
    def from_stored(cls, item: object) -> FalseAlarm | None:
        """A mark from storage: a dict (this version) or a bare signature (older ones).

        Anything else, or a dict without a signature, gives ``None``: a damaged entry is
        dropped rather than failing the integration's setup.
        """
        if isinstance(item, str):
            return cls(signature=item) if item else None
        if not isinstance(item, Mapping):
            return None
        signature = item.get("signature")
        if not isinstance(signature, str) or not signature:
            return None
        evidence = item.get("evidence")
        marked_at = item.get("marked_at")
        incident = item.get("incident")
        return cls(
            signature=signature,
            magnitude=parse_number(item.get("magnitude")),
            rule=str(item.get("rule") or signature.partition(":")[0]),
            evidence=tuple(str(e) for e in evidence) if isinstance(evidence, list) else (),
            reasoning=clip(item.get("reasoning") or "", _REASONING_LIMIT),
            anomaly_type=str(item.get("anomaly_type") or ""),
            marked_at=str(marked_at) if marked_at is not None else None,
            incident=incident if isinstance(incident, str) else "",
            until_home=item.get("until_home") is True,
            lapsed=item.get("lapsed") is True,
        )


class FalseAlarms(Mapping[str, FalseAlarm]):
    """The marks of one home, one per signature.

    A mapping from signature to mark: iterating gives the signatures (so ``sorted()`` of
    it lists the marked patterns), ``values()`` the marks.
    """

    def __init__(self, marks: Iterable[FalseAlarm | str] = ()) -> None:
        self._marks: dict[str, FalseAlarm] = {}
        for mark in marks:
            self.add(mark)

    def add(self, mark: FalseAlarm | Finding | str) -> FalseAlarm:
        """Record a mark (a bare signature suppresses that pattern at any degree)."""
        if isinstance(mark, Finding):
            mark = FalseAlarm.of(mark)
        elif isinstance(mark, str):
            mark = FalseAlarm(signature=mark)
        existing = self._marks.get(mark.signature)
        merged = existing.merged(mark) if existing is not None else mark
        self._marks[mark.signature] = merged
        return merged

    def clear(self) -> None:
        """Forget every mark."""
        self._marks.clear()

    def remove(self, signature: str) -> FalseAlarm | None:
        """Forget one mark; the pattern is reported again."""
        return self._marks.pop(signature, None)

    def lapse_until_home(self) -> bool:
        """Somebody is home: the marks of an away spell stop covering; whether any did."""
        lapsing = [m for m in self._marks.values() if m.until_home and not m.lapsed]
        for mark in lapsing:
            self._marks[mark.signature] = replace(mark, lapsed=True)
        return bool(lapsing)

    def expire(self, now: datetime, lifetime: timedelta) -> list[FalseAlarm]:
        """Forget the marks older than ``lifetime`` (undated ones stay); return them."""
        expired = [
            mark
            for mark in self._marks.values()
            if (until := mark.expires_at(lifetime)) is not None and until <= now
        ]
        for mark in expired:
            del self._marks[mark.signature]
        return expired

    def covers(self, finding: Finding, margin: float = MARGIN) -> bool:
        """Whether a mark suppresses ``finding``."""
        mark = self._marks.get(finding.signature)
        return mark is not None and mark.covers(finding, margin)

    def __getitem__(self, signature: str) -> FalseAlarm:
        return self._marks[signature]

    def __iter__(self) -> Iterator[str]:
        return iter(self._marks)

    def __len__(self) -> int:
        return len(self._marks)

    def __repr__(self) -> str:
        return f"FalseAlarms({list(self._marks.values())!r})"


Suppressions = FalseAlarms | Mapping[str, FalseAlarm] | Iterable[FalseAlarm | str]


def as_false_alarms(suppressed: Suppressions) -> FalseAlarms:
    """Marks from whatever a caller holds: marks, a mapping of them, or bare signatures."""
    if isinstance(suppressed, FalseAlarms):
        return suppressed
    if isinstance(suppressed, Mapping):
        return FalseAlarms(suppressed.values())
    return FalseAlarms(suppressed)


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


def suppress(verdict: Verdict, suppressed: Suppressions, margin: float = MARGIN) -> Verdict:
    """The verdict without the findings a false-alarm mark covers."""
    marks = as_false_alarms(suppressed)
    findings = findings_of(verdict)
    kept = [f for f in findings if not marks.covers(f, margin)]
    if len(kept) == len(findings) and findings == verdict.findings:
        return verdict
    result = Verdict.from_findings(kept, verdict.detector)
    return result if kept else Verdict.normal(verdict.detector, "Only suppressed patterns found.")
