"""Hand-made context windows for the LLM tests and the LLM benchmark.

Small and readable on purpose: each window has one clear story (a gas leak, a quiet
evening, a door left open while away...). Nothing here is copied from a dataset.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from custom_components.anomaly_monitor.core.models import (
    ContextWindow,
    EntityInfo,
    EntityState,
    Environment,
    Transition,
)
from custom_components.anomaly_monitor.core.window import build_window

EVENING = datetime(2025, 1, 14, 19, 30)  # a Tuesday in winter


def state(
    entity_id: str,
    value: str,
    *,
    name: str | None = None,
    area: str | None = None,
    device_class: str | None = None,
    unit: str | None = None,
    **attributes: object,
) -> EntityState:
    """One entity state; the name defaults to the object id in title case."""
    object_id = entity_id.partition(".")[2]
    info = EntityInfo(
        entity_id=entity_id,
        name=name if name is not None else object_id.replace("_", " ").title(),
        area=area,
        device_class=device_class,
        unit=unit,
    )
    return EntityState(info=info, state=value, attributes=attributes)


def environment(when: datetime = EVENING, home: int = 2, total: int = 2) -> Environment:
    """Winter evening, dark, light rain, everybody home by default."""
    return Environment(
        local_time=when,
        season="winter",
        weather="rainy",
        outdoor_temperature=3.5,
        daylight=False,
        persons_home=home,
        persons_total=total,
    )


def quiet_home(
    gas: str = "off", front_door: str = "off", lock: str = "locked"
) -> list[EntityState]:
    """A small ordinary home; the arguments change the few states the stories need."""
    return [
        state("binary_sensor.kitchen_gas", gas, area="Kitchen", device_class="gas"),
        state("sensor.kitchen_temperature", "21.4", area="Kitchen", unit="°C"),
        state("light.kitchen_ceiling", "on", area="Kitchen"),
        state("binary_sensor.front_door", front_door, area="Hall", device_class="door"),
        state("lock.front_door_lock", lock, area="Hall"),
        state("sensor.living_room_temperature", "20.8", area="Living Room", unit="°C"),
        state("media_player.living_room_tv", "playing", area="Living Room"),
        state(
            "climate.living_room",
            "heat",
            area="Living Room",
            hvac_action="heating",
            current_temperature=20.8,
            temperature=21,
        ),
        state("binary_sensor.bedroom_window", "off", area="Bedroom", device_class="window"),
    ]


def snapshot_window(states: list[EntityState], env: Environment | None = None) -> ContextWindow:
    """A window with current states only (snapshot form)."""
    return build_window(states, env or environment(), [])


def gas_leak_window() -> ContextWindow:
    """Gas detected in the kitchen on an otherwise quiet evening."""
    return snapshot_window(quiet_home(gas="on"))


def normal_window() -> ContextWindow:
    """A quiet winter evening with everybody home."""
    return snapshot_window(quiet_home())


def open_while_away_window() -> ContextWindow:
    """Front door open and unlocked while nobody is home."""
    return snapshot_window(
        quiet_home(front_door="on", lock="unlocked"), environment(EVENING, home=0)
    )


def toggle_storm_window() -> ContextWindow:
    """At night, with everybody asleep, a hall light toggles dozens of times."""
    night = datetime(2025, 1, 15, 2, 40)
    start = night - timedelta(hours=2)
    transitions = [
        Transition(start + timedelta(minutes=5), "light.bedroom", "off", "Bedroom"),
        Transition(start + timedelta(minutes=6), "binary_sensor.bedroom_motion", "off", "Bedroom"),
    ]
    for i in range(30):
        transitions.append(
            Transition(
                start + timedelta(minutes=60, seconds=20 * i),
                "light.hall",
                "on" if i % 2 == 0 else "off",
                "Hall",
            )
        )
    states = [
        state("light.hall", "off", area="Hall"),
        state("light.bedroom", "off", area="Bedroom"),
        state("binary_sensor.bedroom_motion", "off", area="Bedroom", device_class="motion"),
    ]
    return build_window(
        states,
        environment(night),
        transitions,
        profile="two adults, both asleep from 23:00 to 07:00",
        start=start,
    )


def large_snapshot_window(entities: int = 60) -> ContextWindow:
    """A ~60-entity home in many rooms, with one water leak among ordinary states."""
    rooms = ("Kitchen", "Living Room", "Bedroom", "Bathroom", "Hall", "Office", "Garage")
    states: list[EntityState] = []
    kinds = (
        ("sensor", "temperature", "20.{i}", "°C", None),
        ("sensor", "humidity", "4{i}", "%", None),
        ("light", "ceiling", "off", None, None),
        ("binary_sensor", "motion", "off", None, "motion"),
        ("binary_sensor", "window", "off", None, "window"),
        ("switch", "plug", "on", None, None),
        ("binary_sensor", "leak", "off", None, "moisture"),
        ("sensor", "power", "1{i}.5", "W", None),
        ("binary_sensor", "smoke", "off", None, "smoke"),
    )
    index = 0
    while len(states) < entities:
        room = rooms[index % len(rooms)]
        domain, what, value, unit, device_class = kinds[(index // len(rooms)) % len(kinds)]
        slug = room.lower().replace(" ", "_")
        states.append(
            state(
                f"{domain}.{slug}_{what}",
                value.format(i=index % 10),
                area=room,
                unit=unit,
                device_class=device_class,
            )
        )
        index += 1
    leak = next(s for s in states if s.entity_id == "binary_sensor.bathroom_leak")
    states[states.index(leak)] = state(
        "binary_sensor.bathroom_leak", "on", area="Bathroom", device_class="moisture"
    )
    return snapshot_window(states)


def long_sequence_window(days: int = 3) -> ContextWindow:
    """A few days of an ordinary routine, then the heating runs with a window open."""
    end = datetime(2025, 1, 17, 21, 0)
    start = end - timedelta(days=days)
    transitions: list[Transition] = []
    for day in range(days):
        base = start + timedelta(days=day)
        for hour, entity, value, area in (
            (7, "light.kitchen", "on", "Kitchen"),
            (8, "light.kitchen", "off", "Kitchen"),
            (8, "binary_sensor.front_door", "on", "Hall"),
            (8, "binary_sensor.front_door", "off", "Hall"),
            (18, "binary_sensor.front_door", "on", "Hall"),
            (18, "binary_sensor.front_door", "off", "Hall"),
            (19, "light.living_room", "on", "Living Room"),
            (23, "light.living_room", "off", "Living Room"),
        ):
            transitions.append(Transition(base + timedelta(hours=hour), entity, value, area))
        for step in range(24):
            temperature = f"{19.5 + (step % 6) * 0.2:.1f}"
            transitions.append(
                Transition(
                    base + timedelta(hours=step, minutes=30),
                    "sensor.living_room_temperature",
                    temperature,
                    "Living Room",
                )
            )
    transitions.append(
        Transition(
            end - timedelta(hours=3), "binary_sensor.living_room_window", "on", "Living Room"
        )
    )
    transitions.append(
        Transition(end - timedelta(hours=3), "climate.living_room", "heat", "Living Room")
    )
    transitions.sort(key=lambda t: t.when)
    states = [
        state("light.kitchen", "off", area="Kitchen"),
        state("light.living_room", "on", area="Living Room"),
        state("binary_sensor.front_door", "off", area="Hall", device_class="door"),
        state("binary_sensor.living_room_window", "on", area="Living Room", device_class="window"),
        state("climate.living_room", "heat", area="Living Room", hvac_action="heating"),
        state("sensor.living_room_temperature", "19.9", area="Living Room", unit="°C"),
    ]
    return build_window(
        states,
        environment(end),
        transitions,
        profile="couple, both work away from home on weekdays",
        start=start,
    )
