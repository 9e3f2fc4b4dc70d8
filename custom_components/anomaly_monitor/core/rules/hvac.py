"""Rules about heating and cooling against each other and the building envelope."""

from __future__ import annotations

from collections.abc import Iterator

from ..home import OPENING_DEVICE_CLASSES, HomeView, is_on
from ..models import AnomalyType, EntityState, Finding, Severity


def hvac_action(state: EntityState) -> str | None:
    """What a climate entity is doing now (heating, cooling, idle...), if it says."""
    action = state.attributes.get("hvac_action")
    return str(action).lower() if action is not None else None


def heating_and_cooling_in_one_area(home: HomeView) -> Iterator[Finding]:
    """One area is heated and cooled at the same time."""
    for area in home.areas:
        climates = [s for s in home.in_area(area) if s.domain == "climate"]
        heating = [s for s in climates if hvac_action(s) == "heating"]
        cooling = [s for s in climates if hvac_action(s) == "cooling"]
        if heating and cooling:
            yield Finding(
                rule="heating_and_cooling_in_one_area",
                evidence=tuple(s.entity_id for s in heating + cooling),
                reasoning=f"{area} is being heated and cooled at the same time.",
                anomaly_type=AnomalyType.ENVIRONMENTAL_CONFLICT,
                severity=Severity.MEDIUM,
                recommendation="Turn one of the devices off or fix their schedules.",
            )


def hvac_with_opening_open(home: HomeView) -> Iterator[Finding]:
    """An area is heated or cooled while one of its windows or doors is open."""
    for area in home.areas:
        states = home.in_area(area)
        active = [
            s for s in states if s.domain == "climate" and hvac_action(s) in ("heating", "cooling")
        ]
        if not active:
            continue
        openings = [
            s
            for s in states
            if s.domain == "binary_sensor"
            and s.info.device_class in OPENING_DEVICE_CLASSES
            and is_on(s)
        ]
        if openings:
            yield Finding(
                rule="hvac_with_opening_open",
                evidence=tuple(s.entity_id for s in active + openings),
                reasoning=f"{area} is being {hvac_action(active[0])} with "
                f"{openings[0].info.name} open, wasting energy.",
                anomaly_type=AnomalyType.ENVIRONMENTAL_CONFLICT,
                severity=Severity.LOW,
                recommendation="Close the opening or pause the climate device.",
            )
