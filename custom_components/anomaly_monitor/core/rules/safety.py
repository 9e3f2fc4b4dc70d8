"""Rules about immediate danger: smoke, gas, carbon monoxide, water."""

from __future__ import annotations

from collections.abc import Iterator

from ..home import HAZARD_DEVICE_CLASSES, HomeView, is_on
from ..models import AnomalyType, Finding, Severity

_CRITICAL = frozenset({"smoke", "gas", "carbon_monoxide", "heat"})
_ADVICE = {
    "smoke": "Check the area for fire now and leave the home if there is smoke.",
    "gas": "Do not switch anything on; ventilate and shut off the gas supply.",
    "carbon_monoxide": "Leave the home and ventilate; call emergency services.",
    "heat": "Check the area for fire or an appliance overheating.",
    "moisture": "Shut off the water supply near the leak and dry the area.",
}


def hazard_detected(home: HomeView) -> Iterator[Finding]:
    """A smoke, gas, carbon monoxide, heat or water leak sensor reports danger."""
    for state in home.of("binary_sensor", *HAZARD_DEVICE_CLASSES):
        if not is_on(state):
            continue
        device_class = state.info.device_class or "problem"
        where = f" in {state.info.area}" if state.info.area else ""
        yield Finding(
            rule="hazard_detected",
            evidence=(state.entity_id,),
            reasoning=f"{device_class.replace('_', ' ').capitalize()} detected{where}.",
            anomaly_type=AnomalyType.SAFETY_HAZARD,
            severity=Severity.CRITICAL if device_class in _CRITICAL else Severity.HIGH,
            recommendation=_ADVICE.get(device_class, "Check the device and its surroundings."),
        )
