"""While nobody is home, one entry and what follows it is one incident.

A window levered open while the home is empty, motion in the living room 30 s later, the
back door found open 11 min after that: three rules, three subjects, one break-in. Told
as three incidents, the phone rings three times for what the first message already said.
A finding about the empty home (``Finding.while_away``, security or occupancy) that comes
within ``SAME_EPISODE`` of an open entry while away joins that incident instead: its
notification grows in place, and ``core.escalation`` still tells once more what changes
the advice (the first sign of somebody inside after the first minute, anything graver).
Only an *entry* hosts: motion alone (perhaps a pet) must not hide a door opening after it.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from .feedback import is_hazard
from .models import AnomalyType, Finding

# What follows an entry this soon, while the home is still empty, is that entry's doing.
SAME_EPISODE = timedelta(minutes=15)
_AWAY_KINDS = frozenset({AnomalyType.SECURITY.value, AnomalyType.OCCUPANCY_MISMATCH.value})


def continues_an_episode(finding: Finding) -> bool:
    """A finding about the empty home that may be an open entry's doing."""
    return (
        finding.while_away
        and finding.anomaly_type in _AWAY_KINDS
        and not is_hazard(finding.anomaly_type, finding.severity)
    )


def is_entry(finding: Finding) -> bool:
    """An entry (or an entrance found open) while nobody is home."""
    return continues_an_episode(finding) and finding.anomaly_type == AnomalyType.SECURITY


def hosts_an_episode(
    anomaly_type: str, while_away: bool, first_seen: datetime | None, now: datetime
) -> bool:
    """An open incident that is an entry while nobody is home, told at most
    ``SAME_EPISODE`` ago."""
    return (
        while_away
        and anomaly_type == AnomalyType.SECURITY.value
        and first_seen is not None
        and timedelta(0) <= now - first_seen <= SAME_EPISODE
    )
