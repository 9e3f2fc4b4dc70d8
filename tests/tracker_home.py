"""What the tracker's tests build: findings, a home's states, and one analysis of them.

The tracker (``anomalies/``) decides what is pushed, shown and re-told from the findings
of one analysis and the states the home reads then; these tests feed it both by hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from custom_components.anomaly_monitor.anomalies.open_anomaly import OpenAnomaly
from custom_components.anomaly_monitor.anomalies.tracker import AnomalyTracker
from custom_components.anomaly_monitor.core.models import EntityInfo, EntityState, Finding, Severity

type Home = Mapping[str, EntityState]


def finding(
    rule: str,
    evidence: str | tuple[str, ...],
    kind: str,
    severity: Severity = Severity.MEDIUM,
    *,
    subject: str | None = None,
    says: str | None = None,
    magnitude: float | None = None,
    while_away: bool = False,
) -> Finding:
    """``rule``'s finding shown by ``evidence`` (about its first entity unless ``subject``)."""
    shown = (evidence,) if isinstance(evidence, str) else evidence
    about = subject or shown[0]
    return Finding(
        rule,
        shown,
        says or f"{about} {rule}",
        kind,
        severity,
        subject=about,
        magnitude=magnitude,
        while_away=while_away,
    )


def open_anomaly(
    rule: str, subject: str, evidence: list[str], kind: str, told: datetime
) -> OpenAnomaly:
    """An incident told at ``told`` (its evidence read "off"), as the tracker keeps it."""
    return OpenAnomaly(
        signature=f"{rule}:{subject}",
        rule=rule,
        subject=subject,
        evidence=evidence,
        reasoning="",
        anomaly_type=kind,
        severity="high" if kind == "safety_hazard" else "medium",
        recommendation="",
        first_seen=told.isoformat(),
        last_seen=told.isoformat(),
        readings=dict.fromkeys(evidence, "off"),
    )


def state(
    entity_id: str,
    value: str,
    area: str | None = None,
    device_class: str | None = None,
    unit: str | None = None,
    *,
    changed: datetime | None = None,
    name: str | None = None,
) -> EntityState:
    """``entity_id`` reading ``value`` since ``changed`` (named by its id unless ``name``)."""
    info = EntityInfo(entity_id, name or entity_id, area, device_class, unit)
    return EntityState(info, value, last_changed=changed)


def outcome(
    tracker: AnomalyTracker,
    findings: Sequence[Finding],
    now: datetime,
    entities: Home,
    home: bool = True,
    *,
    by: str = "rule",
) -> tuple[list[str], list[str]]:
    """One analysis of ``findings`` while the home reads ``entities``: the anomalies it
    opened (pushed) and reopened (shown, not pushed), each by its rule (or ``by``)."""
    states = {e: s.state for e, s in entities.items()}
    changes = tracker.update(findings, now, home, states=states, entities=entities)
    return [getattr(a, by) for a in changes.opened], [getattr(a, by) for a in changes.reopened]
