"""What "false alarm" on an away finding teaches (``AwayNormal.teach``) and forgets."""

from __future__ import annotations

from datetime import datetime

from ..home import OCCUPANCY_DEVICE_CLASSES, OPENING_DEVICE_CLASSES
from .home_baselines import HomeBaselines

MOTION_RULES = frozenset({"motion_while_away", "activity_while_away"})
ENTRY_RULES = frozenset({"entry_unsecured_while_away"})
# Whose "false alarm" the away normal learns by time of day: their mark covers only the
# away spell it was given in (``core.feedback``: ``FalseAlarm.until_home``).
TAUGHT_AWAY_RULES = MOTION_RULES | ENTRY_RULES


def teach_away_false_alarm(
    baselines: HomeBaselines,
    rule: str,
    evidence: tuple[str, ...],
    context: tuple[str, ...],
    when: datetime,
) -> bool:
    """ "False alarm" on an away finding: what it cites (not its context: the entrance a
    motion finding shows beside it) is normal at that time here: motion on its motion
    sensors in that part of the day, an entry on its entrances at that time of day.
    Whether anything was taught."""
    if rule not in MOTION_RULES | ENTRY_RULES:
        return False
    cited = [e for e in evidence if e not in context]
    moving = [e for e in cited if _kind(baselines, e) == "motion"]
    entrances = [e for e in cited if _kind(baselines, e) == "entry"]
    for sensor in moving:
        baselines.away.teach(sensor, when, entry=False)
    for entrance in entrances:
        baselines.away.teach(entrance, when, entry=True)
    return bool(moving or entrances)


def forget_away_false_alarm(baselines: HomeBaselines, rule: str, evidence: tuple[str, ...]) -> bool:
    """The false alarm was removed: what it taught is forgotten."""
    if rule not in MOTION_RULES | ENTRY_RULES:
        return False
    forgotten = [baselines.away.forget(e, entry=kind) for e in evidence for kind in (False, True)]
    return any(forgotten)


def _kind(baselines: HomeBaselines, entity_id: str) -> str | None:
    """ "motion", "entry" (an opening sensor other than a window, a lock) or None."""
    info = baselines.infos.get(entity_id)
    if info is None:
        return None
    if info.domain == "lock":
        return "entry"
    if info.domain != "binary_sensor":
        return None
    if info.device_class in OCCUPANCY_DEVICE_CLASSES:
        return "motion"
    if info.device_class in OPENING_DEVICE_CLASSES and info.device_class != "window":
        return "entry"
    return None
