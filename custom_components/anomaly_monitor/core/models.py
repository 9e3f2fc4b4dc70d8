"""Data the detection core works on: entities, transitions, windows and verdicts.

Everything here is plain Python so the integration, the replay and the tests share it.
A window's compressed sequence is ``compressed_sequence.py``'s, named here too.
Values that come from a home (names, states, attributes) are untrusted text: they are
stored as given (clipped) and quoted wherever they are rendered into a prompt.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from enum import StrEnum
import math
from typing import Any, NamedTuple

from .compressed_sequence import CompressedSequence, LazySequence, SequenceEntry

# Long state strings are clipped so a hostile or broken device cannot blow up memory or prompts.
MAX_TEXT_LENGTH = 255


def clip(text: object, limit: int = MAX_TEXT_LENGTH) -> str:
    """Return ``text`` as a single-line string of at most ``limit`` characters."""
    value = str(text).replace("\n", " ").replace("\r", " ")
    return value if len(value) <= limit else value[: limit - 1] + "…"


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


# Domains of entity ids: every analysis asks each entity's domain thousands of times.
_DOMAINS: dict[str, str] = {}
_DOMAINS_KEPT = 4096  # then forgotten at once: a bound, not a policy


def entity_domain(entity_id: str) -> str:
    """The domain of ``entity_id`` (``binary_sensor`` of ``binary_sensor.hall``)."""
    domain = _DOMAINS.get(entity_id)
    if domain is None:
        if len(_DOMAINS) >= _DOMAINS_KEPT:
            _DOMAINS.clear()
        domain = _DOMAINS[entity_id] = entity_id.partition(".")[0]
    return domain


@dataclass(frozen=True, slots=True)
class EntityInfo:
    """Static description of a watched entity, in Home Assistant's vocabulary."""

    entity_id: str
    name: str
    area: str | None = None
    device_class: str | None = None
    unit: str | None = None
    # HA's device registry id: the entities of one physical device (a plug's switch and
    # its power sensor) share it. Opaque, never shown; pairs entities without id words.
    device: str | None = None
    # What the homeowner says the device is (a ``device_roles.Role`` value, set in the
    # options flow); ``None``: the monitor works it out (``device_roles.py``).
    role: str | None = None

    @property
    def domain(self) -> str:
        """The entity's domain, such as ``binary_sensor``."""
        return entity_domain(self.entity_id)


@dataclass(frozen=True, slots=True)
class EntityState:
    """Current state of one entity, with the few attributes detectors reason about."""

    info: EntityInfo
    state: str
    attributes: Mapping[str, Any] = field(default_factory=dict)
    last_changed: datetime | None = None

    @property
    def entity_id(self) -> str:
        """Shortcut to ``info.entity_id``."""
        return self.info.entity_id

    @property
    def domain(self) -> str:
        """Shortcut to ``info.domain``."""
        return self.info.domain

    @property
    def number(self) -> float | None:
        """The state as a finite number, or ``None`` when it is not one."""
        return parse_number(self.state)


# Parsed state strings: an analysis parses tens of thousands, mostly the same few hundred
# ("on", "off", a meter's readings), and a word raising ValueError each time was dear.
_PARSED: dict[str, float | None] = {}
_PARSED_KEPT = 4096  # then forgotten at once: a bound, not a policy
_UNPARSED = object()


def parse_number(value: object) -> float | None:
    """Return ``value`` as a finite float, or ``None``."""
    if type(value) is str:
        number = _PARSED.get(value, _UNPARSED)
        if number is _UNPARSED:
            if len(_PARSED) >= _PARSED_KEPT:
                _PARSED.clear()
            number = _PARSED[value] = _parse_text(value)
        return number  # type: ignore[return-value]  # (a float or None, never the marker)
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        number = float(value)
    else:
        try:
            number = float(str(value).strip())
        except ValueError:
            return None
    return number if math.isfinite(number) else None


def _parse_text(value: str) -> float | None:
    # Tried as is, since float() skips surrounding whitespace itself; only a string that
    # fails and has more to strip (str.strip also removes \x1c-\x1f, which float()
    # refuses) retries.
    try:
        number = float(value)
    except ValueError:
        stripped = value.strip()
        return None if len(stripped) == len(value) else _parse_text(stripped)
    return number if math.isfinite(number) else None


class Transition(NamedTuple):
    """One state change of a watched entity.

    A named tuple rather than a dataclass: thousands sit in the buffer, and tuples of
    atomic values are untracked by the garbage collector, which keeps per-event cost low.
    """

    when: datetime
    entity_id: str
    state: str
    area: str | None = None


@dataclass(frozen=True, slots=True)
class Environment:
    """What surrounds the home at analysis time."""

    # Now, on the home's clock (``home_clock.on_home_clock``: a fixed offset, so that it
    # and the transitions order and subtract as instants).
    local_time: datetime
    season: str | None = None
    weather: str | None = None
    outdoor_temperature: float | None = None  # °C, whatever unit the weather entity uses
    daylight: bool | None = None
    light_level: float | None = None  # 0 (dark) to 1 (full daylight), when known
    persons_home: int | None = None
    persons_total: int | None = None
    # Persons whose whereabouts are unknown (unknown/unavailable): never counted as away.
    persons_unknown: int = 0
    # The home's unit system's temperature unit ("°C" or "°F"): the unit of climate
    # entities' temperature attributes, and the one a homeowner reads.
    temperature_unit: str = "°C"
    # When the sun last rose (``daylight``) or set (not), when known.
    sun_changed: datetime | None = None
    # The home's time zone (``None``: ``local_time``'s own): the local hour of any instant,
    # on either side of a clock change.
    time_zone: tzinfo | None = None

    @property
    def zone(self) -> tzinfo | None:
        """The zone local hours, days and words are taken in."""
        return self.time_zone if self.time_zone is not None else self.local_time.tzinfo

    def daylight_at(self, when: datetime) -> bool | None:
        """Whether the sun was up at ``when`` within the last half day; None: unknown."""
        if self.daylight is None or self.sun_changed is None:
            return None
        return self.daylight if when >= self.sun_changed else not self.daylight

    @property
    def weekday(self) -> str:
        """Lower-case day name, e.g. ``monday``."""
        return self.local_time.strftime("%A").lower()

    @property
    def is_weekend(self) -> bool:
        """Saturday or Sunday."""
        return self.local_time.weekday() >= 5

    @property
    def nobody_home(self) -> bool:
        """True only when every person is known to be away."""
        return self.persons_home == 0 and self.persons_unknown == 0

    @property
    def is_night(self) -> bool:
        """Between 23:00 and 06:00 local time."""
        return self.local_time.hour >= 23 or self.local_time.hour < 6


@dataclass(frozen=True, slots=True)
class ContextWindow:
    """Everything a detector sees: current states, environment and the recent sequence."""

    snapshot: tuple[EntityState, ...]
    environment: Environment
    sequence: CompressedSequence | LazySequence
    transitions: tuple[Transition, ...] = ()
    profile: str = ""
    start: datetime | None = None
    end: datetime | None = None

    def by_id(self) -> dict[str, EntityState]:
        """Snapshot indexed by entity id."""
        return {state.entity_id: state for state in self.snapshot}

    @property
    def entity_ids(self) -> frozenset[str]:
        """Every entity id a verdict may cite as evidence."""
        ids = {state.entity_id for state in self.snapshot}
        ids.update(transition.entity_id for transition in self.transitions)
        return frozenset(ids)


# Subject of a finding about the whole home rather than one entity or area.
HOME_SUBJECT = "home"
_AREA_PREFIX = "area:"


def area_subject(area: str) -> str:
    """Subject of a finding about an area as a whole."""
    return f"{_AREA_PREFIX}{area}"


def subject_area(subject: str) -> str | None:
    """The area an area subject names, or ``None`` for an entity or the home."""
    return subject[len(_AREA_PREFIX) :] if subject.startswith(_AREA_PREFIX) else None


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
    # Entities that may belong to the problem but that the rule does not claim (the other
    # rooms' thermometers of a heating fault): not evidence, only offered to an evidence
    # ranker (``evidence_choice.py``), which may add the ones a model links to the problem.
    candidates: tuple[str, ...] = ()

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


__all__ = [
    "HOME_SUBJECT",
    "MAX_CANDIDATES",
    "MAX_TEXT_LENGTH",
    "AnomalyType",
    "CompressedSequence",
    "ContextWindow",
    "EntityInfo",
    "EntityState",
    "Environment",
    "Finding",
    "Label",
    "LazySequence",
    "SequenceEntry",
    "Severity",
    "Transition",
    "Verdict",
    "area_subject",
    "clip",
    "entity_domain",
    "identity",
    "parse_number",
    "subject_area",
]
