"""Small factories for synthetic homes built straight from the core models.

They read like a real Home Assistant home: entity ids with domains, device classes,
units and areas, an environment with a clock and an occupancy count, and transitions
with timestamps. Nothing here comes from a benchmark.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import (
    ContextWindow,
    EntityInfo,
    EntityState,
    Environment,
    Transition,
)
from custom_components.anomaly_monitor.core.window import build_window

NOON = datetime(2025, 3, 12, 12, 0)


def entity(
    entity_id: str,
    state: str,
    *,
    area: str | None = None,
    device_class: str | None = None,
    unit: str | None = None,
    **attributes: Any,
) -> EntityState:
    """One entity's current state."""
    name = entity_id.partition(".")[2].replace("_", " ").title()
    return EntityState(
        info=EntityInfo(entity_id, name, area=area, device_class=device_class, unit=unit),
        state=state,
        attributes=attributes,
    )


def environment(
    when: datetime = NOON,
    *,
    persons_home: int | None = 2,
    weather: str | None = "sunny",
    outdoor_temperature: float | None = 12.0,
) -> Environment:
    """The surroundings at analysis time."""
    return Environment(
        local_time=when,
        weather=weather,
        outdoor_temperature=outdoor_temperature,
        persons_home=persons_home,
        persons_total=2,
    )


def steps(
    start: datetime, events: Iterable[tuple[float, str, str]], area: str | None = None
) -> list[Transition]:
    """Transitions from ``(minutes after start, entity_id, state)`` triples."""
    return sorted(
        (Transition(start + timedelta(minutes=m), e, s, area) for m, e, s in events),
        key=lambda t: t.when,
    )


def window(
    states: Iterable[EntityState],
    env: Environment | None = None,
    transitions: Iterable[Transition] = (),
) -> ContextWindow:
    """A window as the integration builds it."""
    return build_window(list(states), env or environment(), list(transitions))


def home(
    states: Iterable[EntityState],
    env: Environment | None = None,
    transitions: Iterable[Transition] = (),
) -> HomeView:
    """The view rules and statistics receive."""
    return HomeView(window(states, env, transitions))


def quiet_house() -> list[EntityState]:
    """A secured, calm family home: every rule should find nothing here."""
    return [
        entity("alarm_control_panel.house", "armed_away"),
        entity("binary_sensor.front_door", "off", area="Hallway", device_class="door"),
        entity("lock.front_door", "locked", area="Hallway"),
        entity("binary_sensor.hallway_motion", "off", area="Hallway", device_class="motion"),
        entity("camera.hallway", "recording", area="Hallway"),
        entity("sensor.front_door_angle", "0", area="Hallway", unit="°"),
        entity("binary_sensor.kitchen_smoke", "off", area="Kitchen", device_class="smoke"),
        entity("binary_sensor.kitchen_gas", "off", area="Kitchen", device_class="gas"),
        entity("sensor.kitchen_gas_level", "12", area="Kitchen", unit="ppm"),
        entity("binary_sensor.kitchen_leak", "off", area="Kitchen", device_class="moisture"),
        entity(
            "sensor.kitchen_floor_moisture", "10", area="Kitchen", device_class="moisture", unit="%"
        ),
        entity("binary_sensor.kitchen_motion", "off", area="Kitchen", device_class="motion"),
        entity("light.kitchen", "off", area="Kitchen"),
        entity("switch.kitchen_kettle_plug", "off", area="Kitchen", device_class="outlet"),
        entity(
            "sensor.kitchen_kettle_plug_power", "0", area="Kitchen", device_class="power", unit="W"
        ),
        *[
            entity(
                f"sensor.{room.lower()}_temperature",
                str(t),
                area=room,
                device_class="temperature",
                unit="°C",
            )
            for room, t in (("Kitchen", 20.5), ("Lounge", 21.0), ("Bedroom", 19.5), ("Study", 20.0))
        ],
        entity("sensor.lounge_humidity", "48", area="Lounge", device_class="humidity", unit="%"),
        entity(
            "climate.lounge",
            "heat",
            area="Lounge",
            hvac_action="idle",
            temperature=21.0,
            current_temperature=21.0,
        ),
        entity("binary_sensor.lounge_window", "off", area="Lounge", device_class="window"),
        entity("sensor.lounge_window_angle", "0", area="Lounge", unit="°"),
        entity("binary_sensor.lounge_motion", "off", area="Lounge", device_class="motion"),
        entity("binary_sensor.bedroom_motion", "off", area="Bedroom", device_class="motion"),
        entity("binary_sensor.study_motion", "off", area="Study", device_class="motion"),
    ]


def replace(
    states: list[EntityState], entity_id: str, state: str, **attributes: Any
) -> list[EntityState]:
    """The same home with one entity changed."""
    result: list[EntityState] = []
    for item in states:
        if item.entity_id == entity_id:
            merged = {**item.attributes, **attributes}
            result.append(EntityState(item.info, state, merged))
        else:
            result.append(item)
    return result


def observe_all(baselines: Any, events: Iterable[tuple[datetime, str, str]]) -> list[Transition]:
    """Feed ``events`` (when, entity, state) to ``baselines`` in time order; the same
    changes as transitions, for a window over them."""
    ordered = sorted(events)
    for when, entity_id, state in ordered:
        baselines.observe(when, entity_id, state)
    return [Transition(when, entity_id, state) for when, entity_id, state in ordered]
