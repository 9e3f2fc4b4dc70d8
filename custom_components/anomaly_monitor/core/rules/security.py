"""Rules about the home's security posture against occupancy."""

from __future__ import annotations

from collections.abc import Iterator

from ..home import OPENING_DEVICE_CLASSES, HomeView, is_on
from ..models import AnomalyType, Finding, Severity

_EXTERIOR_OPENINGS = frozenset({"door", "garage_door"})


def home_open_while_away(home: HomeView) -> Iterator[Finding]:
    """A lock is unlocked or an exterior door is open while nobody is home."""
    if not home.nobody_home:
        return
    for lock in home.of("lock"):
        if lock.state.lower() in ("unlocked", "open", "opening"):
            yield Finding(
                rule="home_open_while_away",
                evidence=(lock.entity_id,),
                reasoning=f"{lock.info.name} is {lock.state} while nobody is home.",
                anomaly_type=AnomalyType.SECURITY,
                severity=Severity.HIGH,
                recommendation="Lock it remotely or ask someone to check the door.",
            )
    for opening in home.of("binary_sensor", *OPENING_DEVICE_CLASSES):
        if opening.info.device_class in _EXTERIOR_OPENINGS and is_on(opening):
            yield Finding(
                rule="home_open_while_away",
                evidence=(opening.entity_id,),
                reasoning=f"{opening.info.name} is open while nobody is home.",
                anomaly_type=AnomalyType.SECURITY,
                severity=Severity.HIGH,
                recommendation="Close it or ask someone to check.",
            )
    for cover in home.of("cover", "garage", "door", "gate"):
        if cover.state.lower() in ("open", "opening"):
            yield Finding(
                rule="home_open_while_away",
                evidence=(cover.entity_id,),
                reasoning=f"{cover.info.name} is {cover.state} while nobody is home.",
                anomaly_type=AnomalyType.SECURITY,
                severity=Severity.HIGH,
                recommendation="Close it remotely.",
            )
