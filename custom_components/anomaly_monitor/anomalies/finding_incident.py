"""Which incident the homeowner knows a finding by, for the ``analyze`` reply.

``analyze`` answers with what the window found; the homeowner knows incidents, with their
own title, kind and severity (one step graver once somebody was inside). Walk 57 read a
reply "medium, security" with "Front door stayed open for 16 min" beside a critical break-in
told and over a minute before, that finding shown nowhere: the continuation of that
incident, as a stay already told. Each finding of the reply names the incident it is a part
of (``anomaly_id``, the id of its notification, repair issue and events) and whether that
incident is over; a finding that is part of none (under a false-alarm mark, still being
learned) names none.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..core.incidents import incident_key
from ..core.models import identity
from .open_anomaly import OpenAnomaly

# The keys ``with_incidents`` adds to a finding.
INCIDENT_KEYS = ("anomaly_id", "anomaly_over")


def _of(finding: Mapping[str, Any], anomalies: Iterable[OpenAnomaly]) -> OpenAnomaly | None:
    """The anomaly that holds ``finding``: its own rule first, else its incident."""
    rule, subject = str(finding.get("rule", "")), str(finding.get("subject", ""))
    key = incident_key(subject, str(finding.get("anomaly_type", "")), rule)
    own = identity(rule, subject)
    candidates = list(anomalies)
    for anomaly in candidates:
        if any(identity(m.rule, m.subject or anomaly.subject) == own for m in anomaly.members):
            return anomaly
    return next((a for a in candidates if key in a.incidents), None)


def with_incidents(
    findings: Iterable[dict[str, Any]],
    open_anomalies: Iterable[OpenAnomaly],
    ended: Iterable[OpenAnomaly],
) -> None:
    """Add ``anomaly_id`` (None: part of no incident) and ``anomaly_over`` to each of
    ``findings`` (a verdict's, as ``Verdict.as_dict`` writes them): an open incident
    first, else one over and still awaiting an answer."""
    now, over = list(open_anomalies), list(ended)
    for finding in findings:
        anomaly, ended_one = _of(finding, now), None
        if anomaly is None:
            anomaly = ended_one = _of(finding, over)
        finding["anomaly_id"] = anomaly.key if anomaly is not None else None
        finding["anomaly_over"] = ended_one is not None
