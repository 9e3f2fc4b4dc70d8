"""Rules about immediate danger: smoke, gas, water, fire signatures, weather through windows."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

from ..finding_kind import FindingKind
from ..home import (
    GENERIC_ALERT_CLASSES,
    HAZARD_DEVICE_CLASSES,
    HomeView,
    is_on,
    is_opening,
    is_unavailable,
)
from ..models import AnomalyType, EntityState, Finding, Severity
from ..offline import offline_since
from ..open_states import openings_of, stands_open
from ..phoneless_residents import lives_here_without_phone
from ..unhealthy_air import UNHEALTHY, reads_unhealthy
from .context import (
    ANGLE_TOLERANCE,
    FLOOR_WET_PERCENT,
    HAZARD_PPM_ELEVATED,
    angle_sensor_for,
    entry_point,
    how_open,
    ids,
    level_sensor_for,
    motion_in,
    room_temperature,
)
from .temperature_bands import celsius_of

_CRITICAL = frozenset({"smoke", "gas", "carbon_monoxide", "heat"})
# Hazards that travel through the home: several detectors sounding are one event.
AIRBORNE = _CRITICAL
# Signs of one fire: smoke in the hall and heat in the kitchen a minute apart are one event.
_SIGN_OF = {"smoke": "fire", "heat": "fire"}
# What a class's *on* is, said as HA's frontend says it ("Unsafe", not "Safety").
_SAID = {"safety": "unsafe state", "tamper": "tampering"}
_ADVICE = {
    "smoke": "Check the area for fire now and leave the home if there is smoke.",
    "gas": "Do not switch anything on; ventilate and shut off the gas supply.",
    "carbon_monoxide": "Leave the home and ventilate; call emergency services.",
    "heat": "Check the area for fire or an appliance overheating.",
    "moisture": "Shut off the water supply near the leak and dry the area.",
}
# Nobody is home to check the area or to leave it: someone must be sent, or called.
_FIRE_AWAY = (
    "Nobody is home: have a neighbour or a camera check for fire, and call the fire brigade"
    " at any sign of it."
)
_AWAY_ADVICE = {
    "smoke": _FIRE_AWAY,
    "heat": _FIRE_AWAY,
    "gas": "Nobody is home: call the gas emergency line; whoever goes in must not switch"
    " anything on.",
    "carbon_monoxide": "Nobody is home: nobody should go in before it is aired; call"
    " emergency services.",
    "moisture": "Nobody is home: ask someone to shut off the water supply near the leak.",
}
# Every tracked phone away where the household names somebody without one: that somebody
# may be home, the first to reach and the first to get out (walk 52: "Nobody is home: ask
# someone to shut off the water supply" with the grandmother at home).
_MAYBE_HOME = "Every tracked phone is away, but somebody without one may be home: call home"
_FIRE_PHONES_AWAY = (
    f"{_MAYBE_HOME} to get them out, have a neighbour or a camera check for fire, and call"
    " the fire brigade at any sign of it."
)
_PHONES_AWAY_ADVICE = {
    "smoke": _FIRE_PHONES_AWAY,
    "heat": _FIRE_PHONES_AWAY,
    "gas": f"{_MAYBE_HOME} to get them out without switching anything on, and call the gas"
    " emergency line.",
    "carbon_monoxide": f"{_MAYBE_HOME} to get them out into fresh air, and call emergency"
    " services.",
    "moisture": f"{_MAYBE_HOME} to have the water shut off near the leak, or ask someone to.",
}
# A storm's rain comes in through any open window, whoever is home.
STORM_WEATHER = frozenset({"pouring", "lightning-rainy", "hail"})
# Motion in a window's room this recently: somebody there sees the rain coming in.
IN_THE_ROOM = timedelta(minutes=10)
# Weather in which an open window lets water in.
WET_WEATHER = frozenset(
    {"rainy", "pouring", "snowy", "snowy-rainy", "hail", "lightning-rainy", "lightning"}
)
# Room air (°C) this hot next to a smoke alarm is the fire's heat.
FIRE_HEAT = 35.0
# An outlet drawing more than this (W) is powering something.
LOAD_WATTS = 50.0


def _corroboration(home: HomeView, detector: EntityState) -> list[EntityState]:
    """What a person checks to confirm an alert: heat for smoke, ignition for gas."""
    area = detector.info.area
    kind = detector.info.device_class
    if kind in ("smoke", "heat"):
        # The room's heat corroborates a fire only when it is abnormally hot.
        temperature = room_temperature(home, area)
        hot = temperature is not None and (celsius_of(temperature) or 0) > FIRE_HEAT
        heat = [temperature] if temperature and hot else []
        if kind != "smoke":
            return heat
        # Air unhealthy to breathe anywhere in the home as the detector sounds is its
        # smoke (set 28: bush-fire smoke blown into a bedroom, its PM2.5 at 185 µg/m³ as
        # the landing's alarm went): one smoke, one notification.
        return heat + [s for s in home.of("sensor", *UNHEALTHY) if reads_unhealthy(s)]
    if kind in ("gas", "carbon_monoxide"):
        # People present and switched-on lights are the ignition risk.
        return [
            s
            for s in home.in_area(area)
            if (s.domain == "binary_sensor" and s.info.device_class == "motion" and is_on(s))
            or (s.domain == "light" and is_on(s))
        ]
    if kind == "moisture":
        level = level_sensor_for(home, detector)
        return [level] if level else []
    return []


def _away_context(home: HomeView) -> list[EntityState]:
    """When nobody is home, the shut entrance is part of the story (who could respond)."""
    return entry_point(home) if home.nobody_home else []


def dropped_while_alarming(home: HomeView, detector: EntityState) -> datetime | None:
    """When ``detector``, offline now, stopped answering while it reported danger, or None.

    The fire may have reached it: its alarm stands (an offline grace is for radio blips).
    """
    if not is_unavailable(detector) or (since := offline_since(home, detector)) is None:
        return None
    before = [t for t in home.history.get(detector.entity_id, []) if t.when < since]
    return since if before and before[-1].state.lower() == "on" else None


HAZARD_DETECTED = FindingKind("hazard_detected", AnomalyType.SAFETY_HAZARD)


def hazard_detected(home: HomeView) -> Iterator[Finding]:
    """A smoke, gas, carbon monoxide, heat or water leak sensor reports danger (or went
    offline while it did). Detectors of one airborne hazard that sound together are one
    finding about the first to sound (``_together``): smoke reaching the hall detector a
    minute after the kitchen's is the same fire, told once and named in both rooms."""
    sounding: list[tuple[EntityState, datetime | None]] = []
    for state in home.of("binary_sensor", *HAZARD_DEVICE_CLASSES):
        dropped = dropped_while_alarming(home, state)
        if not is_on(state) and dropped is None:
            continue
        if state.info.device_class == "moisture" and _leak_contradicted(home, state):
            continue  # reported as a sensor fault instead
        sounding.append((state, dropped))
    for group in _together(sounding):
        yield _hazard(home, group)


def _together(
    sounding: list[tuple[EntityState, datetime | None]],
) -> list[list[tuple[EntityState, datetime | None]]]:
    """The sounding detectors, one group per airborne hazard (``AIRBORNE``: smoke, heat,
    gas, CO travel through the home; smoke and heat are both a fire's, ``_SIGN_OF``), the
    first to sound leading; every leak alone (two wet floors are two leaks)."""
    groups: dict[str, list[tuple[EntityState, datetime | None]]] = {}
    for state, dropped in sounding:
        kind = state.info.device_class or "problem"
        key = _SIGN_OF.get(kind, kind) if kind in AIRBORNE else state.entity_id
        groups.setdefault(key, []).append((state, dropped))
    for group in groups.values():
        group.sort(key=_sounded)
    return list(groups.values())


def _sounded(pair: tuple[EntityState, datetime | None]) -> float:
    """When the detector began to sound (its state's change; unknown: last)."""
    changed = pair[0].last_changed
    return changed.timestamp() if changed is not None else float("inf")


def _hazard(home: HomeView, group: list[tuple[EntityState, datetime | None]]) -> Finding:
    state = group[0][0]
    device_class = state.info.device_class or "problem"
    areas = list(dict.fromkeys(s.info.area for s, _ in group if s.info.area))
    where = f" in {' and '.join(areas)}" if areas else ""
    kinds = dict.fromkeys(_said(s.info.device_class or "problem") for s, _ in group)
    reasoning = f"{' and '.join(kinds).capitalize()} detected{where}."
    for detector, dropped in group:
        if dropped is not None:
            reasoning += (
                f" {detector.info.name} stopped answering at {dropped:%H:%M} while it reported"
                " it, and has not answered since: it may be damaged."
            )
    evidence: list[EntityState] = []
    for detector, _ in group:
        evidence += [detector, *_corroboration(home, detector)]
    severity = Severity.CRITICAL if device_class in _CRITICAL else Severity.HIGH
    advice = _advice(home).get(device_class, "Check the device and its surroundings.")
    if state.info.service and device_class in GENERIC_ALERT_CLASSES:
        # A web service's alert (a region's air-raid warning): no danger in the home, and
        # no device to check. Told low: shown at sensitivity high only.
        severity = Severity.LOW
        reasoning += " It comes from an online service, not from a device in the home."
        advice = "See what the service says; no device in the home reported it."
    return HAZARD_DETECTED.finding(
        evidence=ids(evidence, _away_context(home)),
        subject=state.entity_id,
        context=ids(_away_context(home)),
        reasoning=reasoning,
        severity=severity,
        recommendation=advice,
    )


def _advice(home: HomeView) -> dict[str, str]:
    """What to do, by the detector's class: somebody home acts; nobody home, somebody is
    sent or called; every phone away where somebody lives without one, home is called."""
    if not home.nobody_home:
        return _ADVICE
    return _PHONES_AWAY_ADVICE if lives_here_without_phone(home.window) else _AWAY_ADVICE


def _said(device_class: str) -> str:
    return _SAID.get(device_class, device_class.replace("_", " "))


def _leak_contradicted(home: HomeView, leak: EntityState) -> bool:
    """A leak alarm whose floor moisture sensor reads a dry floor."""
    level = level_sensor_for(home, leak)
    return level is not None and level.number is not None and level.number < FLOOR_WET_PERCENT / 5


def _elevated(home: HomeView, detector: EntityState) -> EntityState | None:
    level = level_sensor_for(home, detector)
    if level is None or level.number is None:
        return None
    limit = FLOOR_WET_PERCENT if detector.info.device_class == "moisture" else HAZARD_PPM_ELEVATED
    return level if level.number >= limit else None


HAZARD_LEVEL_WITHOUT_ALARM = FindingKind(
    "hazard_level_without_alarm", AnomalyType.SAFETY_HAZARD, Severity.HIGH
)


def hazard_level_without_alarm(home: HomeView) -> Iterator[Finding]:
    """A smoke, gas or floor moisture level is high while its detector still says clear.

    Magnitude: the level reading (ppm, or % floor moisture).
    """
    for detector in home.of("binary_sensor", "smoke", "gas", "moisture"):
        if is_on(detector):
            continue
        level = _elevated(home, detector)
        if level is None:
            continue
        kind = detector.info.device_class or "hazard"
        area = detector.info.area
        extra: list[EntityState] = []
        if kind == "smoke":
            temperature = room_temperature(home, area)
            extra = [temperature] if temperature else []
        loads = [
            s for s in home.in_area(area) if s.domain == "sensor" and s.info.device_class == "power"
        ]
        outlets = [s for s in home.in_area(area) if s.domain == "switch"]
        powered = [s for s in loads if s.number is not None and s.number >= LOAD_WATTS]
        if kind in ("smoke", "moisture") and powered:
            extra += outlets + powered  # a live appliance next to smoke or water
        yield HAZARD_LEVEL_WITHOUT_ALARM.finding(
            evidence=ids(detector, level, extra, motion_in(home, area), _away_context(home)),
            context=ids(motion_in(home, area), _away_context(home)),
            reasoning=f"{level.info.name} reads {level.state}{level.info.unit or ''}, well above "
            f"normal, yet {detector.info.name} reports nothing: the detector may have failed.",
            recommendation=_ADVICE.get(kind, "Check the area and test the detector."),
            magnitude=level.number,
        )


WINDOW_OPEN_IN_WET_WEATHER = FindingKind(
    "window_open_in_wet_weather", AnomalyType.SAFETY_HAZARD, Severity.MEDIUM
)


def _someone_in(home: HomeView, area: str | None) -> bool:
    """A motion sensor of the area sees somebody, or did within ``IN_THE_ROOM``: they see
    the rain coming in."""
    since = home.end - IN_THE_ROOM
    return any(
        is_on(sensor) or any(c.when >= since for c in home.changes(sensor.entity_id))
        for sensor in motion_in(home, area)
    )


def window_open_in_wet_weather(home: HomeView) -> Iterator[Finding]:
    """A window is open (or ajar) while it rains or snows and nobody is home to close it,
    or in a downpour or thunderstorm while nobody is in its room.

    A motorised window (a roof window's ``cover``) is a window like a contact's. Rain comes
    in through any open window; with the household at home, only a storm's rain is worth
    a push, and only where nobody is in the room to see it (a roof window upstairs while
    the family is downstairs).
    """
    weather = (home.env.weather or "").lower()
    if weather not in WET_WEATHER:
        return
    away = home.nobody_home
    if not away and weather not in STORM_WEATHER:
        return
    for window in openings_of(home, "window"):
        angle = angle_sensor_for(home, window) if window.domain == "binary_sensor" else None
        ajar = angle is not None and angle.number is not None and angle.number > ANGLE_TOLERANCE
        if not (stands_open(window) or ajar):
            continue
        if not away and _someone_in(home, window.info.area):
            continue
        nobody = "nobody is home" if away else f"nobody is in {window.info.area or 'its room'}"
        yield WINDOW_OPEN_IN_WET_WEATHER.finding(
            evidence=ids(window, angle if ajar else None, entry_point(home) if away else None),
            context=ids(entry_point(home) if away else None),
            while_away=away,
            reasoning=f"{window.info.name} is {how_open(window, angle if ajar else None)} "
            f"while it is {home.env.weather} and {nobody}.",
            recommendation="Close the window or ask someone to.",
        )


def opening_states(home: HomeView) -> list[EntityState]:
    """Every opening contact sensor (used by other families)."""
    return [s for s in home.of("binary_sensor") if is_opening(s)]
