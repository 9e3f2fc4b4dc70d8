"""An open anomaly: one incident about one subject, and what the homeowner did about it.

Every finding about the subject is a *member* (``core.incidents``): the door that opened
with nobody seen and then stayed open is one anomaly with two member rules. The anomaly's
identity (``signature``, hence its notification and repair issue) is the rule and subject
it opened with and never changes, whichever rules join or leave; its words follow the
member that leads now (``lead_rule``), its severity never drops. A false-alarm mark covers
every member rule (``false_alarms``), so no other rule tells the same incident again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
import hashlib
from typing import Any

from ..core.baselines.away_teaching import TAUGHT_AWAY_RULES
from ..core.escalation import SAME_ENTRY, Escalation, escalation, inside
from ..core.feedback import FalseAlarm, is_hazard
from ..core.incidents import incident_key, summary
from ..core.models import Finding, Severity, identity
from ..core.rules.safety import HAZARD_DETECTED
from .store import parse_time

# Hysteresis: an anomaly clears after this many analyses in a row without it...
CLEAR_AFTER_ANALYSES = 2
# ...and this long after the first of them. Long enough for a flickering sensor or a
# detector's one-off miss, short enough that "while nobody is home" clears soon after
# someone arrives.
CLEAR_AFTER = timedelta(minutes=2)
# A detector's hazard (smoke, gas, CO, a leak) clears only after this long without it: a
# detector that goes quiet for minutes while its cause is still there (set 26, Dhaka: gas
# at the kitchen wall, the detector on and off for 40 min as the wind came in; told at
# 11:10, "over" at 11:17, pushed again at 11:21) has not ended the hazard. Smoke that is
# gone is told over a quarter of an hour later, since when it was last found.
DETECTOR_CLEAR_AFTER = timedelta(minutes=15)


def anomaly_key(signature: str) -> str:
    """Short stable id of a signature, safe for notification, issue and mark ids."""
    return hashlib.sha256(signature.encode()).hexdigest()[:16]


_SEVERITIES = frozenset(s.value for s in Severity)


def _crossed_a_line(before: Sequence[Finding], joined: Sequence[Member]) -> bool:
    """The hazard that joined is the told situation crossing a line on the devices it
    already showed, no graver than medium (set 2: the cottage "heating but not warming",
    told, then its thermometer "close to freezing"): updated in place, not pushed again.
    A leak, smoke, a device not shown yet, or anything graver is told."""
    shown = {e for f in before for e in f.shown_evidence}
    hazards = [m for m in joined if is_hazard(m.anomaly_type, m.severity)]
    return bool(hazards) and all(
        rank(m.severity) <= Severity.MEDIUM.rank and set(m.evidence) - set(m.context) <= shown
        for m in hazards
    )


def rank(severity: str) -> int:
    """The rank of a stored severity (0 for one this version does not know)."""
    return Severity(severity).rank if severity in _SEVERITIES else 0


@dataclass(slots=True)
class Member:
    """One rule's finding about the anomaly's subject, as last seen."""

    rule: str
    anomaly_type: str
    severity: str
    magnitude: float | None = None
    evidence: list[str] = field(default_factory=list)
    context: list[str] = field(default_factory=list)
    reasoning: str = ""
    recommendation: str = ""
    while_away: bool = False
    # Found by the latest analysis that judged it: its words are part of the anomaly's.
    active: bool = True
    # Its finding's subject ("" in older files: the anomaly's). Another one when a finding
    # that a wider one of the same analysis covered joined it (motion in the hall of the
    # door told as unlocked while away): it keeps joining it (``AnomalyTracker.update``).
    subject: str = ""

    @classmethod
    def of(cls, finding: Finding) -> Member:
        """The member for ``finding``."""
        return cls(
            rule=finding.rule,
            anomaly_type=finding.anomaly_type,
            severity=finding.severity.value,
            magnitude=finding.magnitude,
            evidence=list(finding.evidence),
            context=list(finding.context),
            reasoning=finding.reasoning,
            recommendation=finding.recommendation,
            while_away=finding.while_away,
            subject=finding.subject,
        )

    @property
    def hazard(self) -> bool:
        """A safety hazard on its own."""
        return is_hazard(self.anomaly_type, self.severity)

    def finding(self, subject: str) -> Finding:
        """The finding this member stands for."""
        return Finding(
            rule=self.rule,
            evidence=tuple(self.evidence),
            reasoning=self.reasoning,
            anomaly_type=self.anomaly_type,
            severity=Severity(self.severity) if self.severity in _SEVERITIES else Severity.LOW,
            recommendation=self.recommendation,
            magnitude=self.magnitude,
            subject=self.subject or subject,
            context=tuple(self.context),
            while_away=self.while_away,
        )


@dataclass(slots=True)
class OpenAnomaly:
    """An incident that is currently happening, and what the homeowner did about it."""

    signature: str
    rule: str
    subject: str
    evidence: list[str]
    reasoning: str
    anomaly_type: str
    severity: str
    recommendation: str
    first_seen: str
    last_seen: str
    acknowledged: bool = False
    # The leading finding's degree at the latest analysis, like ``reasoning``.
    magnitude: float | None = None
    context: list[str] = field(default_factory=list)
    # Hysteresis: analyses in a row without it, and the time of the first of them.
    missed: int = 0
    missing_since: str | None = None
    # Holds only while nobody is home: someone coming home ends it at once.
    while_away: bool = False
    # The member whose words lead now ("" for ``rule``), and every member so far.
    lead_rule: str = ""
    members: list[Member] = field(default_factory=list)
    # Why it was last told again ("" never; ``core.escalation.Escalation``): the title of
    # that message says what changed ("Now motion in Hall: ..."), after a restart too;
    # and when (ISO; None never or stored before it was kept): once its sign no longer
    # holds, the title says it in the past ("Motion in Hall at 13:54: ...").
    escalation: str = ""
    escalated_at: str | None = None
    # When it was last told as somebody inside (ISO; None never): its "Over" says the
    # motion's time after a later telling (opened again) took ``escalated_at``.
    intruded_at: str | None = None
    # When it ended, if it has: kept a while for the homeowner's feedback
    # (``AnomalyTracker.ended``).
    ended: str | None = None
    # Its shown evidence's states when last found, and since when one of them reads no
    # state / reads again (``evidence_hold``: a radio drop does not end it).
    readings: dict[str, str] = field(default_factory=dict)
    dark_since: str | None = None
    back_since: str | None = None
    # The title it was told with ("" not shown yet): kept while it lasts and once it is
    # over, so a lock locked since (or read locked after a restart) does not rename the
    # incident the homeowner was told about; told again, it takes the title of then.
    headline: str = ""
    # The type it was told with ("" not shown yet), kept as ``headline`` is: the door shut
    # while its motion member keeps it open is still "Security", not the motion's type.
    told_type: str = ""
    # The rule whose words named it when told ("" not shown yet), kept as ``headline`` is:
    # a name worded by a sign of somebody inside takes no "Now motion in Hall: " before it
    # (``escalated_title``), which would say the motion twice.
    told_rule: str = ""
    # The homeowner dismissed its notification (read): a restart does not write it again;
    # told again (graver, reopened, over), it is shown and unread again (``surfaces``).
    notice_dismissed: bool = False
    # Shown as a part of another incident told and open (its signature; "" none): the door
    # opened in answer to the smoke reads in the smoke's notification and repair issue,
    # "then: ...", instead of its own (``surfaces``). Told in its own right, it is "" again.
    part_of: str = ""
    # An ``anomaly_detected`` event was fired for it: only then does its end fire
    # ``anomaly_cleared``. A part that outlives its incident stands alone (``orphans``),
    # still never told on the bus: its end is no event either.
    on_the_bus: bool = False

    def __post_init__(self) -> None:
        self.lead_rule = self.lead_rule or self.rule
        if not self.members:  # stored before anomalies had members
            self.members = [
                Member(
                    rule=self.rule,
                    anomaly_type=self.anomaly_type,
                    severity=self.severity,
                    magnitude=self.magnitude,
                    evidence=list(self.evidence),
                    context=list(self.context),
                    reasoning=self.reasoning,
                    recommendation=self.recommendation,
                    while_away=self.while_away,
                )
            ]

    @property
    def key(self) -> str:
        """Short stable id, safe for notification and issue ids."""
        return anomaly_key(self.signature)

    @property
    def rules(self) -> list[str]:
        """Every member rule, in the order they joined."""
        return [m.rule for m in self.members]

    @property
    def incidents(self) -> set[str]:
        """The ``incident_key`` of its members: findings with one of them join it."""
        return {
            incident_key(m.subject or self.subject, m.anomaly_type, m.rule) for m in self.members
        }

    @property
    def hazard(self) -> bool:
        """A safety hazard: a false alarm dismisses this occurrence only."""
        # Its members say so, not its severity: a break-in raised to critical when somebody
        # came in (``core.escalation.inside``) is no hazard.
        return any(m.hazard for m in self.members)

    @property
    def shown_evidence(self) -> list[str]:
        """The evidence entities that show the problem (context left out)."""
        return [e for e in self.evidence if e not in self.context]

    @classmethod
    def from_findings(cls, findings: Sequence[Finding], now: datetime) -> OpenAnomaly:
        """Open an anomaly for the findings of a new incident (one subject)."""
        lead = summary(findings)
        return cls(
            signature=lead.signature,
            rule=lead.rule,
            subject=lead.subject,
            evidence=list(lead.evidence),
            context=list(lead.context),
            reasoning=lead.reasoning,
            anomaly_type=lead.anomaly_type,
            severity=lead.severity.value,
            recommendation=lead.recommendation,
            first_seen=now.isoformat(),
            last_seen=now.isoformat(),
            magnitude=lead.magnitude,
            while_away=lead.while_away,
            lead_rule=lead.rule,
            members=[Member.of(f) for f in findings],
        )

    @classmethod
    def from_stored(cls, item: Mapping[str, Any]) -> OpenAnomaly:
        """An anomaly from fields validated by ``anomaly_store.parse_anomaly``."""
        members = [Member(**m) for m in item.get("members") or ()]
        return cls(**{**item, "members": members})

    def refresh(
        self, findings: Sequence[Finding], now: datetime, partial: bool = False
    ) -> Escalation | None:
        """Still happening: the latest evidence and words; severity never drops.

        ``partial``: only some findings were judged (a safety check): members not among
        them keep their words. Returns what makes it worth telling again, if anything: a
        rule that was not a member yet made it graver or is a sign of somebody inside
        while nobody is home (``core.escalation``), or it became a safety hazard.
        """
        was_hazard, was_rank = self.hazard, rank(self.severity)
        before = [m.finding(self.subject) for m in self.members]
        fresh: dict[str, Member | None] = {f.rule: Member.of(f) for f in findings}
        joined = [m for r, m in fresh.items() if m is not None and r not in self.rules]
        self.members = [
            fresh.pop(m.rule, None) or (m if partial else _inactive(m)) for m in self.members
        ]
        self.members.extend(m for m in fresh.values() if m is not None)
        lead = summary(
            [m.finding(self.subject) for m in self.members if m.active],
            [m.finding(self.subject) for m in self.members if not m.active],
        )
        self.last_seen = now.isoformat()
        self.evidence = list(lead.evidence)
        self.context = list(lead.context)
        self.reasoning = lead.reasoning
        self.recommendation = lead.recommendation or self.recommendation
        self.magnitude = lead.magnitude
        self.while_away = lead.while_away
        self.lead_rule = lead.rule
        if lead.severity.rank >= was_rank:
            self.severity, self.anomaly_type = lead.severity.value, lead.anomaly_type
        self.missed, self.missing_since = 0, None
        told = escalation(was_rank, before, [m.finding(self.subject) for m in joined])
        if told is None and self.hazard and not was_hazard and not _crossed_a_line(before, joined):
            told = Escalation.HAZARD
        if told is not None:
            self.told_again(told, now)  # the title says it, pushed or not
        first = parse_time(self.first_seen)
        if told is Escalation.INTRUSION:
            if first is not None and now - first < SAME_ENTRY:
                return None  # the person who opened it, seconds after it was told
            # Somebody inside the empty home: graver, which is why it is pushed once more.
            if self.severity in _SEVERITIES:
                self.severity = inside(Severity(self.severity)).value
        return told

    def name(self, title: str) -> None:
        """``title``, worded by its lead now, is its name from now on, unless it has one."""
        if not self.headline:
            self.headline, self.told_rule = title, self.lead_rule

    def told_again(self, why: Escalation, now: datetime) -> None:
        """Why and when it was last told again (pushed, or said in place)."""
        self.escalation, self.escalated_at = why.value, now.isoformat()
        if why is Escalation.INTRUSION:
            self.intruded_at = self.escalated_at

    def miss(self, now: datetime) -> bool:
        """Absent from an analysis; whether it is now over (hysteresis: absent from
        ``CLEAR_AFTER_ANALYSES`` analyses in a row and for ``CLEAR_AFTER``)."""
        self.missed += 1
        self.missing_since = self.missing_since or now.isoformat()
        since = parse_time(self.missing_since) or now
        return self.missed >= CLEAR_AFTER_ANALYSES and now - since >= self.clear_after

    @property
    def clear_after(self) -> timedelta:
        """How long it must be missing to be over (``DETECTOR_CLEAR_AFTER`` for a
        detector's hazard)."""
        detector = any(m.rule == HAZARD_DETECTED.rule and m.hazard for m in self.members)
        return DETECTOR_CLEAR_AFTER if detector else CLEAR_AFTER

    def false_alarms(self, marked_at: datetime) -> list[FalseAlarm]:
        """The marks that say this incident, at this degree, is normal here: one per
        member rule, none for a member that is a hazard (a mark never silences a fire)."""
        return [
            FalseAlarm(
                signature=identity(m.rule, m.subject or self.subject),
                magnitude=m.magnitude,
                rule=m.rule,
                evidence=tuple(m.evidence),
                reasoning=m.reasoning,
                anomaly_type=m.anomaly_type,
                marked_at=marked_at.isoformat(),
                incident=self.signature,
                until_home=m.while_away and m.rule in TAUGHT_AWAY_RULES,
            )
            for m in self.members
            if not m.hazard
        ]


def _inactive(member: Member) -> Member:
    return replace(member, active=False)
