"""Heating or cooling against the room it serves, judged over the window."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator
from datetime import datetime, timedelta

from ..finding_kind import FindingKind
from ..home import HomeView
from ..hvac_state import action_from_state as hvac_action
from ..models import AnomalyType, Finding, Severity
from ..temperatures import celsius_series, in_unit, with_unit

# Nobody heats a room that is already this warm, nor cools one this cold (°C, as every
# limit here; readings in °F are converted)...
WARM_ROOM = 26.0
COOL_ROOM = 17.0
# ...and a thermostat stops well before the room is this far past its set point.
PAST_SETPOINT = 3.0
# Readings in a row that make it a spell rather than a moment.
MIN_READINGS = 2
# A power meter of the room that moved this close to a run's start shows the unit drawing
# (cited with the unit: the same convention as short cycling and a heated room cooling).
UNIT_DRAW_REACH = timedelta(minutes=1)


def _action_at(timeline: list[tuple[datetime, str]], when: datetime) -> str:
    index = bisect_right(timeline, (when, "~")) - 1
    return timeline[index][1] if index >= 0 else "other"


def _setpoint(home: HomeView, area: str) -> float | None:
    """The area's target temperature in °C: a set-point number entity, as last set."""
    for entity_id in home.history:
        if home.domain(entity_id) != "number" or home.area(entity_id) != area:
            continue
        if home.device_class(entity_id) != "temperature":
            continue
        values = celsius_series(home, entity_id)
        if values:
            return values[-1][1]
    return None


def _unit_meters(home: HomeView, climate: str, area: str) -> list[str]:
    """Power sensors of the area that moved when the unit started a run: its own draw."""
    starts: list[datetime] = []
    previous = "other"
    for change in home.changes(climate):
        action = hvac_action(change.state)
        if action not in ("other", previous):
            starts.append(change.when)
        previous = action
    return [
        e
        for e in home.history
        if home.domain(e) == "sensor"
        and home.device_class(e) == "power"
        and home.area(e) == area
        and any(abs(t.when - s) <= UNIT_DRAW_REACH for t in home.changes(e) for s in starts)
    ]


HVAC_AGAINST_THE_ROOM = FindingKind(
    "hvac_against_the_room", AnomalyType.ENVIRONMENTAL_CONFLICT, Severity.MEDIUM
)


def hvac_against_the_room(home: HomeView) -> Iterator[Finding]:
    """A unit kept heating a room that was already warm (or cooling a cold one).

    Magnitude: how far the room read past the warm (cold) limit, in °C, at its most
    extreme during the spell; negative for cooling a cold room.
    """
    for climate in home.history_of("climate"):
        area = home.area(climate)
        if area is None:
            continue
        timeline = [(t.when, hvac_action(t.state)) for t in home.changes(climate)]
        setpoint = _setpoint(home, area)
        warm = WARM_ROOM if setpoint is None else max(WARM_ROOM, setpoint + PAST_SETPOINT)
        cool = COOL_ROOM if setpoint is None else min(COOL_ROOM, setpoint - PAST_SETPOINT)
        sensors = [
            e
            for e in home.history
            if home.domain(e) == "sensor"
            and home.device_class(e) == "temperature"
            and home.area(e) == area
        ]
        readings = sorted((w, e, v) for e in sensors for w, v in celsius_series(home, e))
        latest: dict[str, float] = {}
        # (when, the thermometer, its reading in °C, past the limit)
        wrong: list[tuple[datetime, str, float, float]] = []
        for when, sensor, value in readings:
            latest[sensor] = value
            if len(latest) < len(sensors):
                continue
            # Every thermometer of the room must agree, or one of them is the fault.
            doing = _action_at(timeline, when)
            if doing == "heating" and min(latest.values()) >= warm:
                coolest = min(latest, key=latest.__getitem__)
                wrong.append((when, coolest, latest[coolest], latest[coolest] - warm))
            elif doing == "cooling" and max(latest.values()) <= cool:
                warmest = max(latest, key=latest.__getitem__)
                wrong.append((when, warmest, latest[warmest], latest[warmest] - cool))
        if len(wrong) < MIN_READINGS:
            continue
        when, sensor, value, _ = wrong[0]
        doing = _action_at(timeline, when)
        # The spell's direction is the first wrong reading's; its degree, the worst one.
        same_side = [past for *_, past in wrong if (past < 0) == (wrong[0][3] < 0)]
        unit = (state.info.unit if (state := home.info(sensor)) else None) or "°C"
        yield HVAC_AGAINST_THE_ROOM.finding(
            evidence=(climate, *sensors, *_unit_meters(home, climate, area)),
            reasoning=f"{climate} was {doing} while the room read "
            f"{with_unit(in_unit(value, unit), unit)} "
            f"({len(wrong)} readings from {when:%Y-%m-%d %H:%M}).",
            recommendation="Check the unit's mode and its thermostat schedule.",
            magnitude=max(same_side, key=abs),
        )


# Set-point entities: a number (or input_number helper) in degrees.
_SETPOINT_DOMAINS = frozenset({"number", "input_number"})
# Other rooms whose set points have a unit acting on them before a missing one is news.
MIN_SERVED_ROOMS = 2


SETPOINT_WITHOUT_HVAC = FindingKind(
    "setpoint_without_hvac", AnomalyType.DEVICE_MALFUNCTION, Severity.MEDIUM
)


def setpoint_without_hvac(home: HomeView) -> Iterator[Finding]:
    """A room has a set point and a thermometer, but no heating/cooling unit reported.

    Elsewhere in the home every set point has a climate unit that reported during the
    window; a room whose unit is silent (dropped from the network, removed, failed) has
    a set point nothing acts on.

    No magnitude: a unit missing is a kind, not a degree.
    """
    setpoints: dict[str, str] = {}
    units: set[str] = set()
    thermometers: set[str] = set()
    for entity_id in home.history:
        area = home.area(entity_id)
        if area is None:
            continue
        domain = home.domain(entity_id)
        device_class = home.device_class(entity_id)
        if domain in _SETPOINT_DOMAINS and device_class == "temperature":
            setpoints.setdefault(area, entity_id)
        elif domain == "climate":
            units.add(area)
        elif domain == "sensor" and device_class == "temperature":
            thermometers.add(area)
    served = [area for area in setpoints if area in units]
    if len(served) < MIN_SERVED_ROOMS:
        return
    for area, setpoint in setpoints.items():
        if area in units or area not in thermometers:
            continue
        yield SETPOINT_WITHOUT_HVAC.finding(
            evidence=(setpoint,),
            reasoning=f"{area} has a set point ({setpoint}) and a thermometer, but no heating "
            f"or cooling unit of {area} reported in the window, while the units of "
            f"{', '.join(sorted(served))} did.",
            recommendation=f"Check the heating/cooling unit of {area} and its link to the hub.",
        )
