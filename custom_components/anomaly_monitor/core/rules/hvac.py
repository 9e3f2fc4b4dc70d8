"""Rules about heating and cooling against their own settings, each other and the envelope."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

from ..climate_reach import heats_through
from ..finding_kind import FindingKind
from ..home import UNAVAILABLE_STATES, HomeView
from ..models import (
    MAX_CANDIDATES,
    AnomalyType,
    EntityState,
    Finding,
    Severity,
    area_subject,
    parse_number,
)
from ..open_states import open_states, openings_of, stands_open
from ..temperatures import attribute_celsius
from .context import (
    ANGLE_TOLERANCE,
    angle_sensor_for,
    entry_point,
    how_open,
    ids,
    room_temperature,
    windows_with_angles,
)

# Thermostats switch with about half a degree (°C) of hysteresis around the target.
HYSTERESIS = 0.5
# A thermostat idle this far (°C) on the wrong side of its target is not responding.
NOT_RESPONDING_GAP = 3.0
# Airing a room wide open for 5-10 minutes with the heating on is what homes are told to do
# in winter; a window still open after a quarter of an hour is heat thrown away.
AIRING = timedelta(minutes=15)


def hvac_action(state: EntityState) -> str | None:
    """What a climate entity is doing now (heating, cooling, idle...), if it says."""
    action = state.attributes.get("hvac_action")
    return str(action).lower() if action is not None else None


def _temperatures(home: HomeView, state: EntityState) -> tuple[float | None, float | None]:
    """(current, target) of a climate entity, in °C (HA gives them in the home's unit)."""
    unit = home.env.temperature_unit
    return (
        attribute_celsius(state.attributes, "current_temperature", unit),
        attribute_celsius(state.attributes, "temperature", unit),
    )


def _shown(climate: EntityState, key: str) -> str:
    """A climate temperature as the thermostat shows it, in the home's unit: "64°"."""
    value = parse_number(climate.attributes.get(key))
    return f"{value:g}°" if value is not None else "?"


def _climate_context(home: HomeView, climate: EntityState) -> tuple[str, ...]:
    """A thermostat, its room's temperature and the room's windows."""
    area = climate.info.area
    return ids(climate, room_temperature(home, area), windows_with_angles(home, area))


def _climate_candidates(home: HomeView, climate: EntityState) -> tuple[str, ...]:
    """The other rooms' thermometers and windows: they may show the same fault, or not.

    Not claimed as evidence (the rule judges one thermostat); offered to an evidence ranker.
    """
    area = climate.info.area
    others = [a for a in home.areas if a != area]
    thermometers = [room_temperature(home, other) for other in others]
    windows = [w for other in others for w in windows_with_angles(home, other)]
    return ids([t for t in thermometers if t is not None], windows)[:MAX_CANDIDATES]


HVAC_ACTION_CONTRADICTS_MODE = FindingKind(
    "hvac_action_contradicts_mode", AnomalyType.ENVIRONMENTAL_CONFLICT, Severity.MEDIUM
)


def hvac_action_contradicts_mode(home: HomeView) -> Iterator[Finding]:
    """A thermostat heats while set to cool or off, or cools while set to heat or off."""
    for climate in home.of("climate"):
        mode = climate.state.lower()
        action = hvac_action(climate)
        wrong = (action == "heating" and mode in ("off", "cool")) or (
            action == "cooling" and mode in ("off", "heat")
        )
        if not wrong:
            continue
        yield HVAC_ACTION_CONTRADICTS_MODE.finding(
            evidence=_climate_context(home, climate),
            candidates=_climate_candidates(home, climate),
            reasoning=f"{climate.info.name} is {action} while its mode is {mode}.",
            recommendation="Check the thermostat's relay and wiring.",
        )


HVAC_OVERSHOOTING_TARGET = FindingKind(
    "hvac_overshooting_target", AnomalyType.ENVIRONMENTAL_CONFLICT, Severity.MEDIUM
)


def hvac_overshooting_target(home: HomeView) -> Iterator[Finding]:
    """Heating above the target temperature, or cooling below it.

    Magnitude: current minus target temperature (°C): positive when heating past the
    target, negative when cooling below it.
    """
    for climate in home.of("climate"):
        action = hvac_action(climate)
        current, target = _temperatures(home, climate)
        if current is None or target is None:
            continue
        if (
            action == "heating"
            and climate.state.lower() != "cool"
            and current > target + HYSTERESIS
        ):
            what = "heating at {} above its {} target"
        elif (
            action == "cooling"
            and climate.state.lower() != "heat"
            and (current < target - HYSTERESIS)
        ):
            what = "cooling at {} below its {} target"
        else:
            continue
        yield HVAC_OVERSHOOTING_TARGET.finding(
            evidence=_climate_context(home, climate),
            candidates=_climate_candidates(home, climate),
            reasoning=f"{climate.info.name} keeps "
            + what.format(_shown(climate, "current_temperature"), _shown(climate, "temperature"))
            + ".",
            recommendation="Check the thermostat's temperature sensor and schedule.",
            magnitude=current - target,
        )


HVAC_NOT_RESPONDING = FindingKind(
    "hvac_not_responding", AnomalyType.ENVIRONMENTAL_CONFLICT, Severity.MEDIUM
)


def hvac_not_responding(home: HomeView) -> Iterator[Finding]:
    """A thermostat in heat (cool) mode stays idle far below (above) its target.

    Magnitude: current minus target temperature (°C): negative in heat mode, positive in
    cool mode.
    """
    for climate in home.of("climate"):
        mode = climate.state.lower()
        current, target = _temperatures(home, climate)
        if hvac_action(climate) != "idle" or current is None or target is None:
            continue
        if not (
            (mode == "heat" and current < target - NOT_RESPONDING_GAP)
            or (mode == "cool" and current > target + NOT_RESPONDING_GAP)
        ):
            continue
        yield HVAC_NOT_RESPONDING.finding(
            evidence=_climate_context(home, climate),
            candidates=_climate_candidates(home, climate),
            reasoning=f"{climate.info.name} is set to {mode} at {_shown(climate, 'temperature')} "
            f"but idles at {_shown(climate, 'current_temperature')}.",
            recommendation="Check the heating/cooling unit and its power.",
            magnitude=current - target,
        )


HEATING_AND_COOLING_IN_ONE_AREA = FindingKind(
    "heating_and_cooling_in_one_area", AnomalyType.ENVIRONMENTAL_CONFLICT, Severity.MEDIUM
)


def heating_and_cooling_in_one_area(home: HomeView) -> Iterator[Finding]:
    """One area is heated and cooled at the same time."""
    for area in home.areas:
        climates = [s for s in home.in_area(area) if s.domain == "climate"]
        heating = [s for s in climates if hvac_action(s) == "heating"]
        cooling = [s for s in climates if hvac_action(s) == "cooling"]
        if heating and cooling:
            yield HEATING_AND_COOLING_IN_ONE_AREA.finding(
                evidence=tuple(s.entity_id for s in heating + cooling),
                subject=area_subject(area),
                reasoning=f"{area} is being heated and cooled at the same time.",
                recommendation="Turn one of the devices off or fix their schedules.",
            )


HVAC_WITH_OPENING_OPEN = FindingKind(
    "hvac_with_opening_open", AnomalyType.ENVIRONMENTAL_CONFLICT, Severity.MEDIUM
)


def hvac_with_opening_open(home: HomeView) -> Iterator[Finding]:
    """The home is heated or cooled while a window is open or ajar.

    A window opened within the last ``AIRING`` minutes is someone airing the room; one
    whose opening the window does not show (a snapshot) has been open for long.
    """
    active = [s for s in home.of("climate") if hvac_action(s) in ("heating", "cooling")]
    if not active:
        return
    open_windows: list[EntityState] = []
    every_window: list[EntityState] = []
    angles: dict[str, EntityState | None] = {}
    # A window contact, or a window cover (a motorised roof window): ``open_states``.
    for opening in openings_of(home, "window", "opening"):
        contact = opening.domain == "binary_sensor"
        angle = angle_sensor_for(home, opening) if contact else None
        every_window += [opening] + ([angle] if angle else [])
        ajar = angle is not None and angle.number is not None and angle.number > ANGLE_TOLERANCE
        if ajar or (stands_open(opening) and not _airing(home, opening)):
            open_windows.append(opening)
            angles[opening.entity_id] = angle if ajar else None
    # A window is wasting only the units that heat its room (``heats_through``).
    pairs = [
        (c, w)
        for w in open_windows
        for c in active
        if heats_through(home, c.entity_id, w.entity_id)
    ]
    if not pairs:
        return
    climate, first = pairs[0]
    away = entry_point(home) + home.of("alarm_control_panel") if home.nobody_home else []
    yield HVAC_WITH_OPENING_OPEN.finding(
        evidence=ids(climate, every_window, away),
        # The open window is what is wrong: which climate device happens to be running
        # changes as thermostats cycle, and must not make it a new anomaly.
        subject=first.entity_id,
        context=ids(away),
        reasoning=f"{climate.info.name} is {hvac_action(climate)} with "
        f"{first.info.name} {how_open(first, angles[first.entity_id])}, wasting energy.",
        recommendation="Close the window or pause the climate device.",
    )


def _airing(home: HomeView, opening: EntityState) -> bool:
    """The window was opened less than ``AIRING`` ago (as far as the window shows).

    Coming back "on" from unknown or unavailable (Home Assistant restarting, the device
    reconnecting) is not an opening: the window was open before, for how long is not
    shown (after a restart in a live hass, an open window read as freshly opened and its
    anomaly cleared, to be told again 15 minutes later).
    """
    since: datetime | None = None
    open_now = open_states(opening.domain)
    for transition in reversed(home.history.get(opening.entity_id, [])):
        state = transition.state.lower()
        if state in UNAVAILABLE_STATES:
            return False
        if state not in open_now:
            break
        since = transition.when
    return since is not None and home.end - since < AIRING
