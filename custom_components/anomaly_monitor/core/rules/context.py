"""Shared look-ups for rules: paired sensors in an area, the home's entry point, levels."""

from __future__ import annotations

from ..device_roles import same_device
from ..home import ENTRY_DEVICE_CLASSES, HomeView, is_motion, is_on, is_opening
from ..models import EntityState
from ..role_words import LEVEL_WORDS, says

# A contact sensor may say "closed" while its angle sensor reads a couple of degrees.
ANGLE_TOLERANCE = 2.0
# Hazard concentration (ppm) above a home's ambient background for smoke and gas sensors.
HAZARD_PPM_ELEVATED = 30.0
# Floor moisture (%) above which the floor is wet.
FLOOR_WET_PERCENT = 25.0
# Relative humidity (%) below which a room is too dry for liquid water on its floor.
ROOM_DRY_HUMIDITY = 35.0


def angle_sensor_for(home: HomeView, opening: EntityState) -> EntityState | None:
    """The opening-angle sensor (unit °) in the same area as a contact sensor."""
    candidates = [
        s
        for s in home.in_area(opening.info.area)
        if s.domain == "sensor" and s.info.unit == "°" and opening.info.area
    ]
    if len(candidates) == 1:
        return candidates[0]
    # Several angles in one area: the one on the opening's device, else the one whose
    # name holds the opening's kind ("Window angle" for a window) as a whole word.
    same = [s for s in candidates if same_device(opening, s)]
    if len(same) == 1:
        return same[0]
    kind = (opening.info.device_class or "").replace("_", " ")
    named = [s for s in candidates if kind and says(s.info.name, (kind,))]
    return named[0] if named else None


def how_open(opening: EntityState, angle: EntityState | None) -> str:
    """ "open", or "ajar (Window Angle 12°)" when the contact reads closed and the angle
    sensor shows it open: a rule must not tell a state the contact does not show (a model
    restating "Window Sensor is open" for a closed contact is rejected, docs/llm.md)."""
    if is_on(opening) or angle is None:
        return "open"
    return f"ajar ({angle.info.name} {angle.state}{angle.info.unit or ''})"


def level_sensor_for(home: HomeView, detector: EntityState) -> EntityState | None:
    """The concentration/level sensor that measures what a binary detector detects."""
    word = {"moisture": "moisture", "smoke": "smoke", "gas": "gas"}.get(
        detector.info.device_class or ""
    )
    if word is None:
        return None
    if (sibling := _level_on_same_device(home, detector, word)) is not None:
        return sibling
    if not detector.info.area:
        return None
    for state in home.in_area(detector.info.area):
        if state.domain != "sensor" or state is detector:
            continue
        if state.info.device_class == word or (
            state.info.unit == "ppm" and says(state.info.name, LEVEL_WORDS[word])
        ):
            return state
    return None


def _level_on_same_device(home: HomeView, detector: EntityState, word: str) -> EntityState | None:
    """The level sensor HA's device registry puts on the detector's own device.

    HA has no device class for a smoke or combustible-gas concentration: on one device,
    a sensor of the detector's class or the one unclassed ppm sensor is its level.
    """
    device = detector.info.device
    if device is None:
        return None
    siblings = [s for s in home.of("sensor") if s.info.device == device]
    classed = [s for s in siblings if s.info.device_class == word]
    unclassed = [s for s in siblings if s.info.device_class is None and s.info.unit == "ppm"]
    if len(classed) == 1:
        return classed[0]
    return unclassed[0] if not classed and len(unclassed) == 1 else None


def entry_point(home: HomeView) -> list[EntityState]:
    """The main entrance: an exterior door contact and the lock that shares its area."""
    locks = home.of("lock")
    for lock in locks:
        doors = [
            s
            for s in home.in_area(lock.info.area)
            if is_opening(s) and s.info.device_class in ENTRY_DEVICE_CLASSES
        ]
        if doors:
            return [doors[0], lock]
    return []  # no door contact next to a lock: no entrance to speak of


def entry_area(home: HomeView) -> str | None:
    """Area of the main entrance."""
    entry = entry_point(home)
    return entry[0].info.area if entry else None


def motion_in(home: HomeView, area: str | None) -> list[EntityState]:
    """Motion sensors of an area."""
    return [s for s in home.in_area(area) if is_motion(s)] if area else []


def room_temperature(home: HomeView, area: str | None) -> EntityState | None:
    """The temperature sensor of an area."""
    for state in home.in_area(area):
        if (
            state.domain == "sensor"
            and state.info.device_class == "temperature"
            and state.number is not None
        ):
            return state
    return None


def ids(*groups: list[EntityState] | EntityState | None) -> tuple[str, ...]:
    """Entity ids of the given states, in order, without duplicates."""
    result: list[str] = []
    for group in groups:
        if group is None:
            continue
        items = group if isinstance(group, list) else [group]
        for state in items:
            if state.entity_id not in result:
                result.append(state.entity_id)
    return tuple(result)


def windows_with_angles(home: HomeView, area: str | None) -> list[EntityState]:
    """The windows of an area, each followed by its angle sensor if it has one."""
    result: list[EntityState] = []
    for state in home.in_area(area):
        if state.domain == "binary_sensor" and state.info.device_class == "window":
            result.append(state)
            angle = angle_sensor_for(home, state)
            if angle is not None:
                result.append(angle)
    return result
