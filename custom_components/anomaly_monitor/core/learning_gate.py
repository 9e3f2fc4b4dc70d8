"""A cold start the homeowner understands: while a device's normal is still being learned,
only what cannot wait is pushed.

The detector's verdict is unchanged (it judges the window, and says in a finding's
reasoning when the default limit judged because the normal is not known yet). What is
*pushed* to the homeowner (an anomaly opened: notification, repair issue, event) waits
for the normal, except:

- a safety hazard (smoke, gas, CO, heat, a leak) or anything critical;
- anything rated high, and a protective device offline (a detector, lock, alarm panel,
  camera or siren: ``offline.is_safety_device``), whatever its finding's rating;
- a security finding while nobody is home (an entry into an empty home) or one that
  holds only while nobody is home;
- a garage door or gate open for longer than an hour (``cold_start_openings``).

Everything else about devices that are all still being learned (``HomeBaselines.learning``:
watched for fewer than ``LEARN_DAYS`` days) waits; once any device of its evidence is known,
it is judged and told as usual. Reading the recorder's history at set-up makes most
devices known at once.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from .baselines.home_baselines import HomeBaselines
from .cold_start_openings import garage_left_open
from .feedback import is_hazard
from .models import AnomalyType, Finding, Severity
from .offline import is_safety_device

_OFFLINE_RULES = frozenset({"device_unavailable", "device_went_offline"})


def pushed_at_once(finding: Finding, someone_home: bool) -> bool:
    """Whether ``finding`` is pushed even while its devices are still being learned."""
    if is_hazard(finding.anomaly_type, finding.severity):
        return True
    if finding.severity.rank >= Severity.HIGH.rank:
        return True
    return finding.anomaly_type == AnomalyType.SECURITY and (finding.while_away or not someone_home)


def protective_offline(finding: Finding, baselines: HomeBaselines) -> bool:
    """A device the home's safety relies on has gone offline."""
    if finding.rule not in _OFFLINE_RULES:
        return False
    infos = baselines.infos
    return any(
        (info := infos.get(entity_id)) is not None
        and is_safety_device(info.domain, info.device_class)
        for entity_id in finding.evidence
    )


def held_while_learning(
    finding: Finding, baselines: HomeBaselines, now: datetime, someone_home: bool
) -> bool:
    """Whether ``finding`` waits: not urgent, and every device it cites still learning."""
    if pushed_at_once(finding, someone_home) or not finding.evidence:
        return False
    if protective_offline(finding, baselines) or garage_left_open(finding, baselines):
        return False
    return all(baselines.learning(entity_id, now) for entity_id in finding.evidence)


def not_held(
    findings: Iterable[Finding],
    baselines: HomeBaselines | None,
    now: datetime,
    someone_home: bool,
) -> list[Finding]:
    """The findings that may be pushed now (all of them without baselines)."""
    if baselines is None:
        return list(findings)
    return [f for f in findings if not held_while_learning(f, baselines, now, someone_home)]
