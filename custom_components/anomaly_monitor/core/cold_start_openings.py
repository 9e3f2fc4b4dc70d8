"""A garage door left open for hours is told even while its normal is still learned.

``learning_gate`` holds what the monitor finds about a device it has not learned yet: an
interior door that reads ``door`` may stand open for hours every day. A garage door or
gate (HA's ``garage_door`` contact, a ``garage``/``gate`` cover, or what the homeowner
said) is never an interior door: open for longer than an hour of everyday use
(``long_stays.FLOOR``), it is a home standing open, in the first days as in any other.
Known by the domain, device class or the homeowner's role; no word of the id is read.
"""

from __future__ import annotations

from .baselines.home_baselines import HomeBaselines
from .baselines.long_stays import FLOOR
from .device_roles import Role, parse_role
from .models import EntityInfo, Finding

LEFT_OPEN_RULES = frozenset({"entry_left_open", "state_longer_than_usual"})


def _is_garage_door(info: EntityInfo) -> bool:
    if (role := parse_role(info.role)) is not None:
        return role == Role.GARAGE_DOOR
    if info.domain == "binary_sensor":
        return info.device_class == "garage_door"
    return info.domain == "cover" and info.device_class in ("garage", "gate")


def garage_left_open(finding: Finding, baselines: HomeBaselines) -> bool:
    """``finding`` tells a garage door or gate open for longer than an hour."""
    if finding.rule not in LEFT_OPEN_RULES or finding.magnitude is None:
        return False
    if finding.magnitude <= FLOOR.total_seconds() / 60:
        return False
    infos = baselines.infos
    return any(
        (info := infos.get(entity_id)) is not None and _is_garage_door(info)
        for entity_id in finding.evidence
    )
