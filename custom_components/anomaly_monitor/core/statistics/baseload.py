"""The home's standby load: what the whole-house meter reads while everything is off.

When every heating/cooling unit is idle and every appliance, light and media player
the home knows about is off, a whole-house meter reads the standby load (fridge,
router, chargers): typically 50–300 W. A meter that never comes down to a standby
level, even then, carries a load nothing in the home accounts for — a hidden
appliance left running, a fault to earth, a tap on the supply, or a meter that reads
wrong.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..finding_kind import FindingKind
from ..home import ACTIVE_STATES, APPLIANCE_DOMAINS, UNAVAILABLE_STATES, HomeView
from ..models import AnomalyType, Finding, Severity, parse_number
from .rates import hvac_active

# Lowest reading with everything off that is no longer a standby load. Standby is
# 50–300 W in most homes; 500 W around the clock is ~4.4 MWh a year unaccounted for.
UNEXPLAINED_WATTS = 500.0
# Readings taken with everything off that must all sit above it (one can be a fluke).
MIN_IDLE_READINGS = 2
# Domains whose state says whether they draw power now.
_CONSUMER_DOMAINS = APPLIANCE_DOMAINS | {"climate"}


def _watts(value: float, unit: str | None) -> float:
    return value * 1000.0 if (unit or "").strip().lower() == "kw" else value


def _draws(domain: str, state: str) -> bool:
    """The entity in this state may draw power (unknown counts as drawing)."""
    text = state.lower()
    if text in UNAVAILABLE_STATES:
        return True
    if domain == "climate":
        return hvac_active(text)
    return text in ACTIVE_STATES


def _whole_house_meters(home: HomeView) -> list[str]:
    """Power sensors that belong to no room: the house meter (or a sub-meter of it)."""
    return [
        entity_id
        for entity_id in home.history
        if home.domain(entity_id) == "sensor"
        and home.device_class(entity_id) == "power"
        and home.area(entity_id) is None
    ]


UNEXPLAINED_BASE_LOAD = FindingKind("unexplained_base_load", AnomalyType.ENERGY, Severity.MEDIUM)


def unexplained_base_load(home: HomeView) -> Iterator[Finding]:
    """The whole-house meter stays high while every known consumer is off.

    Magnitude: the lowest reading taken while everything was off, in W.
    """
    meters = _whole_house_meters(home)
    if not meters:
        return
    consumers = {
        entity_id
        for entity_id in home.history
        if home.domain(entity_id) in _CONSUMER_DOMAINS and entity_id not in meters
    }
    # Consumers seen only in the snapshot held that state the whole window.
    drawing: dict[str, bool] = {
        state.entity_id: _draws(state.domain, state.state)
        for state in home.window.snapshot
        if state.domain in _CONSUMER_DOMAINS and state.entity_id not in consumers
    }
    start = home.window.start
    for entity_id in consumers:
        first = home.history[entity_id][0]
        # Before its first report: it was in the state it then left (switched on
        # means it was off), unless that report only records the window's start.
        was_drawing = _draws(home.domain(entity_id), first.state)
        at_start = start is not None and first.when <= start
        drawing[entity_id] = was_drawing if at_start else not was_drawing
    idle: dict[str, list[float]] = {meter: [] for meter in meters}
    units = {meter: (s.info.unit if (s := home.info(meter)) else None) for meter in meters}
    for transition in sorted(home.window.transitions, key=lambda t: t.when):
        entity_id = transition.entity_id
        if entity_id in consumers:
            drawing[entity_id] = _draws(home.domain(entity_id), transition.state)
        elif entity_id in idle and not any(drawing.values()):
            value = parse_number(transition.state)
            if value is not None:
                idle[entity_id].append(_watts(value, units[entity_id]))
    for meter, readings in idle.items():
        if len(readings) < MIN_IDLE_READINGS:
            continue
        lowest = min(readings)
        if lowest < UNEXPLAINED_WATTS:
            continue
        yield UNEXPLAINED_BASE_LOAD.finding(
            evidence=(meter,),
            reasoning=f"{meter} never read below {lowest:g} W at the {len(readings)} moments "
            "when every heating/cooling unit and appliance the home knows was off; a "
            f"standby load is well under {UNEXPLAINED_WATTS:g} W.",
            recommendation="Look for an appliance left running that is not in Home Assistant, "
            "a wiring fault, or a meter that reads wrong.",
            magnitude=lowest,
        )
