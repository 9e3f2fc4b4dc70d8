"""What a detector answers: findings, the verdict that sums them, and their words.

A ``Finding`` is one thing found wrong (its rule, its subject, the entities that show it);
a ``Verdict`` is a detector's answer for one window. Plain Python, like ``models.py``,
which names all of these too.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any


class Label(StrEnum):
    """Outcome of an analysis."""

    NORMAL = "normal"
    ANOMALY = "anomaly"


class Severity(StrEnum):
    """How urgent an anomaly is, ordered from least to most."""

    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"
    CRITICAL = "critical"

    @property
    def rank(self) -> int:
        """Position in the ordering, for comparisons."""
        return _SEVERITY_RANK[self]


_SEVERITY_RANK = {Severity.LOW: 0, Severity.MEDIUM: 1, Severity.HIGH: 2, Severity.CRITICAL: 3}


class AnomalyType(StrEnum):
    """Broad classes of anomaly; detectors may report others as free text."""

    SAFETY_HAZARD = "safety_hazard"
    SECURITY = "security"
    DEVICE_MALFUNCTION = "device_malfunction"
    PHYSICAL_VIOLATION = "physical_violation"
    ENVIRONMENTAL_CONFLICT = "environmental_conflict"
    OCCUPANCY_MISMATCH = "occupancy_mismatch"
    BEHAVIOURAL = "behavioural"
    ENERGY = "energy"


# Subject of a finding about the whole home rather than one entity or area.
HOME_SUBJECT = "home"
_AREA_PREFIX = "area:"


def area_subject(area: str) -> str:
    """Subject of a finding about an area as a whole."""
    return f"{_AREA_PREFIX}{area}"


def subject_area(subject: str) -> str | None:
    """The area an area subject names, or ``None`` for an entity or the home."""
    return subject[len(_AREA_PREFIX) :] if subject.startswith(_AREA_PREFIX) else None


def about_a_whole(subject: str) -> bool:
    """About the home or an area as a whole, not one entity."""
    return subject == HOME_SUBJECT or subject_area(subject) is not None


def identity(rule: str, subject: str) -> str:
    """The signature of an anomaly: ``rule:subject``."""
    return f"{rule}:{subject}"


# Candidates a rule offers an evidence ranker per finding (each one costs a model question).
MAX_CANDIDATES = 6


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing a detector found wrong, with the entities that show it."""

    rule: str
    evidence: tuple[str, ...]
    reasoning: str
    anomaly_type: str
    severity: Severity = Severity.MEDIUM
    recommendation: str = ""
    # How far past its threshold the finding is, in the rule's own unit (a duration in
    # minutes, a count, a level, a deviation; each rule documents which). Larger is more
    # extreme; negative for the "too low" side of rules that fire both ways. ``None``
    # when the finding is a kind rather than a degree (smoke detected, a lock unlocked).
    # A false-alarm mark suppresses later findings only up to its own magnitude.
    magnitude: float | None = None
    # What is wrong: an entity id, ``area_subject(name)`` or ``HOME_SUBJECT``. Set by the
    # rule; left empty it becomes the first evidence entity. With the rule it identifies
    # the anomaly, so the evidence may change (people leave, a door opens) while it stays
    # the same anomaly.
    subject: str = ""
    # Evidence entries that are context (who could respond, the entrance while away), not
    # entities showing the problem: scored as evidence, not shown to the homeowner as such.
    context: tuple[str, ...] = ()
    # Holds only while nobody is home ("...while nobody is home"): someone coming home
    # ends it at once, without the hysteresis that guards against flickering sensors.
    while_away: bool = False
    # A finding about a moment past and over (a door opened at 07:01 and shut since, judged
    # later): whether somebody tracked was home then. ``None``: it tells what holds now.
    home_then: bool | None = None
    # Entities that may belong to the problem but that the rule does not claim (the other
    # rooms' thermometers of a heating fault): not evidence, only offered to an evidence
    # ranker (``evidence_choice.py``), which may add the ones a model links to the problem.
    candidates: tuple[str, ...] = ()
    # When the stay a rule about a stay tells began (a door left open, a lock left
    # unlocked): which stay it is, as its minutes are not (two stays may be as long).
    since: datetime | None = None

    def __post_init__(self) -> None:
        if not self.subject and self.evidence:
            object.__setattr__(self, "subject", self.evidence[0])

    @property
    def signature(self) -> str:
        """Stable identity of this anomaly: its rule and its subject, never its context."""
        return identity(self.rule, self.subject)

    @property
    def shown_evidence(self) -> tuple[str, ...]:
        """The evidence entities that show the problem (context left out)."""
        return tuple(e for e in self.evidence if e not in self.context)


@dataclass(frozen=True, slots=True)
class Verdict:
    """A detector's answer for one window."""

    label: Label
    evidence: tuple[str, ...] = ()
    reasoning: str = ""
    anomaly_type: str | None = None
    severity: Severity | None = None
    recommendation: str = ""
    findings: tuple[Finding, ...] = ()
    detector: str = ""
    raw: str | None = None  # unparsed backend reply, kept for diagnostics

    @property
    def is_anomaly(self) -> bool:
        """True when the label is anomaly."""
        return self.label is Label.ANOMALY

    @classmethod
    def normal(cls, detector: str, reasoning: str = "Nothing unusual.") -> Verdict:
        """A verdict with no findings."""
        return cls(label=Label.NORMAL, reasoning=reasoning, detector=detector)

    @classmethod
    def from_findings(cls, findings: list[Finding] | tuple[Finding, ...], detector: str) -> Verdict:
        """Summarise findings: the most severe leads, evidence is their union."""
        if not findings:
            return cls.normal(detector)
        ordered = sorted(findings, key=lambda f: -f.severity.rank)
        lead = ordered[0]
        evidence: list[str] = []
        for finding in ordered:
            evidence.extend(e for e in finding.evidence if e not in evidence)
        return cls(
            label=Label.ANOMALY,
            evidence=tuple(evidence),
            reasoning=" ".join(f.reasoning for f in ordered),
            anomaly_type=lead.anomaly_type,
            severity=lead.severity,
            recommendation=lead.recommendation,
            findings=tuple(ordered),
            detector=detector,
        )

    def as_dict(self) -> dict[str, Any]:
        """JSON-serialisable form, for service responses, events and storage."""
        return {
            "label": self.label.value,
            "evidence": list(self.evidence),
            "reasoning": self.reasoning,
            "anomaly_type": self.anomaly_type,
            "severity": self.severity.value if self.severity else None,
            "recommendation": self.recommendation,
            "detector": self.detector,
            "findings": [
                {
                    "rule": f.rule,
                    "evidence": list(f.evidence),
                    "reasoning": f.reasoning,
                    "anomaly_type": f.anomaly_type,
                    "severity": f.severity.value,
                    "recommendation": f.recommendation,
                    "signature": f.signature,
                    "subject": f.subject,
                }
                for f in self.findings
            ],
        }
