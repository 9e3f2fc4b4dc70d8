"""Rules about devices that stopped working."""

from __future__ import annotations

from collections.abc import Iterator

from ..home import HAZARD_DEVICE_CLASSES, HomeView, is_unavailable
from ..models import AnomalyType, EntityState, Finding, Severity


def _is_safety_device(state: EntityState) -> bool:
    if state.domain in ("lock", "alarm_control_panel"):
        return True
    return state.domain == "binary_sensor" and state.info.device_class in HAZARD_DEVICE_CLASSES


def safety_device_unavailable(home: HomeView) -> Iterator[Finding]:
    """A smoke/gas/leak detector, lock or alarm panel cannot be reached."""
    for state in home.window.snapshot:
        if _is_safety_device(state) and is_unavailable(state):
            yield Finding(
                rule="safety_device_unavailable",
                evidence=(state.entity_id,),
                reasoning=f"{state.info.name} is {state.state}: the home is not protected "
                "by it right now.",
                anomaly_type=AnomalyType.DEVICE_MALFUNCTION,
                severity=Severity.HIGH,
                recommendation="Check the device's power, battery and connection.",
            )
