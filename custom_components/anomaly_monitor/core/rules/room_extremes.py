"""A room far too hot (a possible fire), too hot to stay in, or too cold (pipes may freeze).

The bands and their lines are in ``temperature_bands.py``. Each is a safety matter, so a
false alarm dismisses that occurrence only and the next one is told (``core/feedback.py``):
a sensor that failed once must never silence a fire later. What is a room's own normal
(the sauna, the boiler room, the freezer) the learned baselines take out
(``baselines/usual_extremes.py``), not a mark.

- ``room_heat_fire_risk``: a thermometer in the fire band. High on its own (a failed
  sensor is likelier than a fire that no smoke alarm has noticed), critical when something
  else says the same: the area's smoke or heat detector going off or its smoke level up,
  a climb of ``FAST_RISE`` within ``RISE_SPAN`` in several readings (fires heat a room
  over minutes; one jump from 21 to 85 °C is a glitch as often), or another thermometer
  of the area reading hot too. A room in the hot band whose smoke or heat detector is
  going off is the same. A high (safety) finding is urgent: announced by the rules within
  about a second of the reading, before any model (``core/safety_floor.py``).
- ``room_too_hot``: the hot band, and the fire band when the outdoors is within
  ``WEATHER_HEAT_GAP`` of it (a desert heat wave with the air conditioning down).
- ``room_too_cold``: the cold band (medium) and freezing (high). Not a place kept well
  below the outdoors (``COOLED_BELOW_OUTDOORS``): a heating that failed or a window left
  open lets a room fall towards the outdoor temperature, never far under it; 4 °C on a
  15 °C day is a fridge, a freezer or a cold store, cold by a machine, not a room whose
  pipes may freeze (told again once the outdoors is cold enough to be the cause).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

from ..finding_kind import FindingKind
from ..home import HomeView, is_on
from ..models import AnomalyType, EntityState, Finding, Severity
from ..temperatures import to_celsius
from .context import HAZARD_PPM_ELEVATED, ids, level_sensor_for
from .temperature_bands import (
    COLD_ROOM,
    FIRE_LINE,
    FIRE_LINE_NO_AREA,
    FREEZING,
    HOT_ROOM,
    Band,
    band_of,
    celsius_of,
    line_in_unit,
    shown,
)

# A rise this large (°C) within RISE_SPAN, over several readings, is a room heating fast.
FAST_RISE = 15.0
RISE_SPAN = timedelta(minutes=30)
# A climb may dip this much (°C) between readings (a sensor's noise) and go on; a level
# held this long, left slower than SLOW_RISE (°C per minute), is where it began.
CLIMB_DIP = 0.5
HELD = timedelta(minutes=5)
SLOW_RISE = 1.0
# A room within this many degrees of the outdoors' heat is heated by the weather (and a
# hot room's words say how hot it is outdoors).
WEATHER_HEAT_GAP = 10.0
# A thermometer this many °C under the outdoor temperature is cooled by a machine: no
# failed heating or open window takes a room below the air outside (a building's lag
# behind the day's swing stays within it).
COOLED_BELOW_OUTDOORS = 8.0
_FIRE_ALARMS = ("smoke", "heat")


def _thermometers(home: HomeView) -> Iterator[tuple[EntityState, float, Band]]:
    for state in home.of("sensor", "temperature"):
        if (celsius := celsius_of(state)) is not None:
            yield state, celsius, band_of(celsius, bool(state.info.area))


def _weather_made(home: HomeView, celsius: float) -> bool:
    outdoor = home.env.outdoor_temperature  # °C
    return outdoor is not None and outdoor >= celsius - WEATHER_HEAT_GAP


def _alarms(home: HomeView, state: EntityState) -> list[EntityState]:
    """The area's smoke and heat detectors."""
    if not state.info.area:
        return []
    return [
        s
        for s in home.in_area(state.info.area)
        if s.domain == "binary_sensor" and s.info.device_class in _FIRE_ALARMS
    ]


def _raised_levels(home: HomeView, alarms: list[EntityState]) -> list[EntityState]:
    """The smoke levels of the area's detectors that read well above a home's background."""
    levels = [level_sensor_for(home, a) for a in alarms]
    return [s for s in levels if s is not None and (s.number or 0) >= HAZARD_PPM_ELEVATED]


def _hot_neighbours(home: HomeView, state: EntityState) -> list[EntityState]:
    """Other thermometers of the area, on another device, that read hot too (a thermostat's
    own reading is left out: it may be this very sensor)."""
    if not state.info.area:
        return []
    return [
        other
        for other in home.in_area(state.info.area)
        if other.entity_id != state.entity_id
        and (other.info.device is None or other.info.device != state.info.device)
        and (celsius := celsius_of(other)) is not None
        and celsius > HOT_ROOM
    ]


def _climb(home: HomeView, state: EntityState, celsius: float) -> str:
    """ "It rose from 22 °C within 12 min." when the window shows a fast climb in several
    readings, else "".

    The climb is the run of readings that rose to the newest, within ``RISE_SPAN``: going
    back, it ends at a reading higher than the one after it (by more than ``CLIMB_DIP``) and
    at a level the room sat at (``HELD`` or more before rising slower than ``SLOW_RISE``). A
    low reading before it is not where it began (seen in a live hass: "It rose from -1 °C
    within 24 min", a cold spell over before the room began to heat).
    """
    unit = state.info.unit
    readings = home.numbers(state.entity_id)
    start = home.end - RISE_SPAN
    before = [r for r in readings if r[0] < start][-1:]
    # An impossible reading is no level a climb starts from (seen in a live hass: "It rose
    # from -70 °C", a glitch minutes before).
    converted = [
        (when, c)
        for when, v in before + [r for r in readings if r[0] >= start]
        if (c := to_celsius(v, unit)) is not None and band_of(c, True) is not Band.IMPOSSIBLE
    ]
    if not converted:
        return ""
    since, lowest = converted[-1]
    run = [lowest]
    for when, value in reversed(converted[:-1]):
        if value > lowest + CLIMB_DIP:
            break  # higher before: the climb starts after it
        gap = (since - when).total_seconds() / 60
        run.append(value)
        if gap >= HELD.total_seconds() / 60 and lowest - value < SLOW_RISE * gap:
            lowest = value  # the room sat at this level, then began to climb
            break
        since, lowest = when, value
    # A climb passes through readings well above where it began; a glitch jumps at once.
    between = [c for c in run if lowest + FAST_RISE / 3 <= c < celsius]
    if celsius - lowest < FAST_RISE or not between:
        return ""
    minutes = max(1, round((home.end - max(since, start)).total_seconds() / 60))
    return f"It rose from {line_in_unit(lowest, state)} within {minutes} min."


ROOM_HEAT_FIRE_RISK = FindingKind("room_heat_fire_risk", AnomalyType.SAFETY_HAZARD)


def _fire(home: HomeView, state: EntityState, celsius: float) -> Finding:
    area = state.info.area
    alarms = _alarms(home, state)
    sounding = [a for a in alarms if is_on(a)]
    levels = _raised_levels(home, alarms)
    neighbours = _hot_neighbours(home, state)
    climb = _climb(home, state, celsius)
    fire_line = FIRE_LINE if area else FIRE_LINE_NO_AREA
    says = [
        *(f"{a.info.name} reports {a.info.device_class}" for a in sounding),
        *(f"{s.info.name} reads {shown(s)}" for s in levels),
    ]
    if celsius > fire_line:
        where = f"{area} is far hotter than a room gets" if area else "far hotter than a home gets"
        first = (
            f"{state.info.name} reads {shown(state)}: {where} (over "
            f"{line_in_unit(fire_line, state)}) without a fire or an overheating appliance, "
            "unless the sensor has failed."
        )
        says = [f"{s}." for s in says]
    else:  # a hot room whose smoke alarm or level says why
        first = (
            f"{state.info.name} reads {shown(state)}: {area} is far hotter than a room should "
            f"be (over {line_in_unit(HOT_ROOM, state)}) while {' and '.join(says)}: the heat "
            "of a fire."
        )
        says = []
    words = [
        first,
        climb,
        *says,
        *(f"{s.info.name} reads {shown(s)} too." for s in neighbours),
    ]
    if alarms and not sounding:
        words.append(f"{alarms[0].info.name} has not gone off.")
    place = area or f"where {state.info.name} is"
    return ROOM_HEAT_FIRE_RISK.finding(
        evidence=ids(state, alarms, levels, neighbours),
        reasoning=" ".join(w for w in words if w),
        severity=Severity.CRITICAL if sounding or levels or neighbours or climb else Severity.HIGH,
        recommendation=f"Check {place} now for fire or an overheating appliance; if there is "
        "fire, leave the home and call the fire brigade. If the room is normal, the sensor "
        "has failed: replace it.",
        magnitude=celsius - fire_line,
    )


def alarm_says_fire(home: HomeView, state: EntityState) -> bool:
    """The area of ``state`` has a smoke or heat detector going off, or a smoke level up."""
    alarms = _alarms(home, state)
    return any(is_on(a) for a in alarms) or bool(_raised_levels(home, alarms))


def _tier(home: HomeView, state: EntityState, celsius: float, band: Band) -> Band | None:
    """FIRE or HOT as told: the heat of a sounding smoke alarm's room is its fire; heat the
    weather explains is a hot room, not a fire."""
    if band not in (Band.FIRE, Band.HOT):
        return None
    if alarm_says_fire(home, state):
        return Band.FIRE
    if band is Band.FIRE and state.info.area and _weather_made(home, celsius):
        return Band.HOT
    return band


def room_heat_fire_risk(home: HomeView) -> Iterator[Finding]:
    """A thermometer far above livable: a fire, an overheating appliance, or a failed sensor.

    Magnitude: °C above the fire line (negative for a hot room whose smoke alarm says fire).
    """
    for state, celsius, band in _thermometers(home):
        if _tier(home, state, celsius, band) is Band.FIRE:
            yield _fire(home, state, celsius)


ROOM_TOO_HOT = FindingKind("room_too_hot", AnomalyType.SAFETY_HAZARD, Severity.MEDIUM)


def room_too_hot(home: HomeView) -> Iterator[Finding]:
    """A room hotter than people and pets stay safe in, with no sign of fire.

    Magnitude: °C above the hot line.
    """
    for state, celsius, band in _thermometers(home):
        if _tier(home, state, celsius, band) is not Band.HOT:
            continue
        area = state.info.area
        outdoor = home.env.outdoor_temperature  # °C
        note = ""
        if outdoor is not None and outdoor >= celsius - WEATHER_HEAT_GAP:
            note = f" It is {line_in_unit(outdoor, state)} outdoors."
        yield ROOM_TOO_HOT.finding(
            evidence=(state.entity_id,),
            reasoning=f"{state.info.name} reads {shown(state)}: {area} is far hotter than a "
            f"room should be (over {line_in_unit(HOT_ROOM, state)}), dangerous for people and "
            f"pets who stay in it.{note}",
            recommendation=f"Cool {area} down and check it for a heater, radiator or appliance "
            "left on, or sun on the sensor; if the room feels normal, the sensor is wrong.",
            magnitude=celsius - HOT_ROOM,
        )


ROOM_TOO_COLD = FindingKind("room_too_cold", AnomalyType.SAFETY_HAZARD)


def room_too_cold(home: HomeView) -> Iterator[Finding]:
    """A room close to or below freezing: the heating failed or a window stayed open.

    Magnitude: °C below the cold line (negative).
    """
    outdoor = home.env.outdoor_temperature  # °C
    for state, celsius, band in _thermometers(home):
        if band not in (Band.COLD, Band.FREEZING):
            continue
        if outdoor is not None and celsius < outdoor - COOLED_BELOW_OUTDOORS:
            continue  # kept colder than the weather: a fridge, freezer or cold store
        area = state.info.area
        freezing = band is Band.FREEZING
        windows = [
            s
            for s in home.in_area(area)
            if s.domain == "binary_sensor" and s.info.device_class == "window" and is_on(s)
        ]
        heating = [
            s
            for s in home.in_area(area)
            if s.domain == "climate" and s.attributes.get("hvac_action") == "heating"
        ]
        how = (
            f"below freezing ({line_in_unit(FREEZING, state)} or less): the heating has failed "
            "or a window is open, and water pipes can freeze and burst"
            if freezing
            else f"close to freezing (under {line_in_unit(COLD_ROOM, state)}): the heating may "
            "have failed or a window may be open, and water pipes can freeze"
        )
        words = [f"{state.info.name} reads {shown(state)}: {area} is {how}."]
        words += [f"{s.info.name} is open." for s in windows] + [
            f"{s.info.name} is heating, yet the room is this cold." for s in heating
        ]
        yield ROOM_TOO_COLD.finding(
            evidence=ids(state, windows),
            reasoning=" ".join(words),
            severity=Severity.HIGH if freezing else Severity.MEDIUM,
            recommendation=f"Check the heating and the windows of {area} and warm the room up; "
            "if the room feels normal, the sensor is wrong.",
            magnitude=celsius - COLD_ROOM,
        )
