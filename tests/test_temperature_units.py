"""A home in °F is judged exactly as the same home in °C (core, no Home Assistant).

Each home is written once in °C and given to the checks twice: as is, and as a US home
sees it (thermometers in °F, climate attributes in the home's unit system, °F; the weather
reaches the core in °C, as the glue converts it). Rules, statistics and the learned hours
must find the same things, with the same magnitudes (°C), and tell a °F home in °F.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.profile_departure import (
    reading_off_its_hours,
)
from custom_components.anomaly_monitor.core.baselines.profile_drift import (
    reading_drifting_from_its_hours,
)
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityInfo, EntityState, Finding
from custom_components.anomaly_monitor.core.rules import ALL_RULES
from custom_components.anomaly_monitor.core.statistics import StatisticsDetector
from custom_components.anomaly_monitor.core.statistics.drift import sensor_drifting
from custom_components.anomaly_monitor.core.temperatures import (
    in_unit,
    share_of_level,
    span_in_unit,
    to_celsius,
    with_unit,
)

from .core_factories import NOON, entity, environment, home, steps, window
from .test_baselines_hour_profiles import BEDROOM, DAY0, LIVING, STUDY, usual
from .test_statistics_baselined import _drifting, _end, _thermometers

CLIMATE_KEYS = ("temperature", "current_temperature", "target_temp_low", "target_temp_high")


def fahrenheit(celsius: float) -> float:
    return round(celsius * 9 / 5 + 32, 1)


def in_fahrenheit(state: EntityState) -> EntityState:
    """The entity as a US home shows it."""
    if state.info.device_class == "temperature" and state.info.unit == "°C":
        number = state.number
        return replace(
            state,
            info=replace(state.info, unit="°F"),
            state=state.state if number is None else f"{fahrenheit(number):g}",
        )
    if state.domain == "climate":
        attributes = {
            key: fahrenheit(value) if key in CLIMATE_KEYS else value
            for key, value in state.attributes.items()
        }
        return replace(state, attributes=attributes)
    return state


def both_homes(
    states: list[EntityState],
    moves: list[tuple[float, str, str]] = (),
    area: str | None = None,
    outdoor: float = 12.0,
) -> tuple[HomeView, HomeView]:
    """(the home in °C, the same home in °F); ``moves`` are (minutes before noon, entity,
    state in °C) transitions; ``outdoor`` the weather's temperature (°C)."""
    start = NOON - timedelta(hours=3)
    celsius_moves = steps(start, moves, area)
    thermometers = {s.entity_id for s in states if s.info.device_class == "temperature"}
    f_moves = [
        t._replace(state=f"{fahrenheit(float(t.state)):g}") if t.entity_id in thermometers else t
        for t in celsius_moves
    ]
    env = environment(outdoor_temperature=outdoor)
    us_env = replace(env, temperature_unit="°F")
    return (
        HomeView(window(states, env, celsius_moves)),
        HomeView(window([in_fahrenheit(s) for s in states], us_env, f_moves)),
    )


def findings(home: HomeView) -> list[Finding]:
    ruled = [f for rule in ALL_RULES for f in rule(home)]
    return ruled + StatisticsDetector().findings(home.window, home)


def same_findings(
    states: list[EntityState], moves: list[tuple[float, str, str]] = (), outdoor: float = 12.0
) -> list:
    """The findings of the home in °C, checked equal to those of the home in °F."""
    celsius, us = (findings(h) for h in both_homes(states, moves, outdoor=outdoor))
    assert [(f.rule, f.evidence) for f in us] == [(f.rule, f.evidence) for f in celsius]
    for c, f in zip(celsius, us, strict=True):
        if c.magnitude is None:
            assert f.magnitude is None
        else:
            assert f.magnitude == pytest.approx(c.magnitude, abs=0.05)
    return list(zip(celsius, us, strict=True))


def _room(reading: float, area: str = "Bedroom") -> EntityState:
    return entity(
        f"sensor.{area.lower()}_temperature",
        f"{reading}",
        area=area,
        device_class="temperature",
        unit="°C",
    )


def _calm(*extra: EntityState) -> list[EntityState]:
    return [_room(21.0, "Lounge"), _room(20.5, "Kitchen"), *extra]


def test_units_convert_both_ways() -> None:
    assert to_celsius(212.0, "°F") == pytest.approx(100.0)
    assert to_celsius(293.15, "K") == pytest.approx(20.0)
    assert to_celsius(20.0, "%") is None
    assert in_unit(71.1, "°F") == 160.0
    assert span_in_unit(2.0, "°F") == pytest.approx(3.6)
    assert span_in_unit(300.0, "ppm") == 300.0
    assert with_unit(62.9, "°F") == "62.9 °F"
    # A share of a temperature's level is a share of its level in °C.
    assert share_of_level(0.05, 69.8, "°F") == pytest.approx(0.05 * 21 * 1.8)
    assert share_of_level(0.05, 50.0, "%") == pytest.approx(2.5)


def test_a_thermometer_creeping_up_alone_drifts_in_both_units() -> None:
    """0.2 °C a day for a week (1.4 °C): 5 % of a 21 °C room's level; in °F, 5 % of 70 °F
    (3.5 °F) was more than the whole creep (2.5 °F)."""
    creeping = _drifting(0.2)
    us_creeping = [t._replace(state=f"{fahrenheit(float(t.state)):g}") for t in creeping]
    us_rooms = [replace(s, info=replace(s.info, unit="°F")) for s in _thermometers()]
    celsius = list(sensor_drifting(home(_thermometers(), environment(_end()), creeping)))
    us = list(sensor_drifting(home(us_rooms, environment(_end()), us_creeping)))
    assert [f.evidence for f in celsius] == [("sensor.lounge_temperature",)]
    assert [f.evidence for f in us] == [f.evidence for f in celsius]
    assert us[0].magnitude == pytest.approx(celsius[0].magnitude * 1.8, abs=0.2)


@pytest.mark.parametrize(
    ("celsius", "rule", "words"),
    [
        (71.1, "room_heat_fire_risk", "160 °F"),  # a possible fire
        (3.3, "room_too_cold", "37.9 °F"),  # the heating failed
        (37.0, "room_too_hot", "98.6 °F"),
    ],
)
def test_a_room_far_too_hot_or_cold_is_told_in_both_units(
    celsius: float, rule: str, words: str
) -> None:
    # A winter day: a room whose heating failed falls towards the outdoors.
    pairs = same_findings(_calm(_room(celsius)), outdoor=-2.0)
    assert [c.rule for c, _ in pairs] == [rule]
    assert words in pairs[0][1].reasoning
    assert "°C" not in pairs[0][1].reasoning.replace(f"{celsius:g} °C", "")


def test_livable_rooms_and_a_thermostat_at_its_target_raise_nothing_in_either_unit() -> None:
    thermostat = entity(
        "climate.bedroom",
        "heat",
        area="Bedroom",
        hvac_action="heating",
        current_temperature=17.8,
        temperature=21.1,
    )
    assert same_findings(_calm(_room(17.8), thermostat)) == []


@pytest.mark.parametrize(
    ("action", "current", "target", "rule"),
    [
        ("heating", 23.5, 21.0, "hvac_overshooting_target"),
        ("idle", 16.0, 21.0, "hvac_not_responding"),
        ("heating", 21.3, 21.0, None),  # within the thermostat's hysteresis (0.5 °C)
        ("idle", 18.5, 21.0, None),  # 4.5 °F below its target: not far enough
    ],
)
def test_thermostat_checks_are_the_same_in_both_units(
    action: str, current: float, target: float, rule: str | None
) -> None:
    thermostat = entity(
        "climate.bedroom",
        "heat",
        area="Bedroom",
        hvac_action=action,
        current_temperature=current,
        temperature=target,
    )
    pairs = same_findings(_calm(_room(current), thermostat))
    assert [c.rule for c, _ in pairs] == ([rule] if rule else [])
    if rule:  # told as the thermostat shows it
        assert f"{fahrenheit(target):g}°" in pairs[0][1].reasoning


@pytest.mark.parametrize(("room", "told"), [(17.2, False), (27.8, True)])
def test_heating_against_the_room_over_the_window_is_the_same_in_both_units(
    room: float, told: bool
) -> None:
    """Heating a 63 °F room is a thermostat's job; heating an 82 °F one is not."""
    climate = entity("climate.bedroom", "heat (heating)", area="Bedroom")
    sensor = "sensor.bedroom_temperature"
    moves = [(0, "climate.bedroom", "heat (heating)")] + [
        (10 + 30 * i, sensor, f"{room + 0.1 * (i % 2)}") for i in range(5)
    ]
    pairs = same_findings(_calm(_room(room), climate), moves)
    against = [(c, f) for c, f in pairs if c.rule == "hvac_against_the_room"]
    assert bool(against) is told
    if told:
        assert "°F" in against[0][1].reasoning
        assert "°C" not in against[0][1].reasoning


def test_a_room_out_of_line_is_the_same_in_both_units() -> None:
    rooms = [_room(t, a) for a, t in (("Lounge", 21), ("Kitchen", 20.5), ("Study", 20))]
    pairs = same_findings([*rooms, _room(27.0, "Bedroom")])
    assert [c.rule for c, _ in pairs] == ["room_temperature_out_of_line"]
    assert "80.6°" in pairs[0][1].reasoning


# The learned hours: the same fortnight, learned in °C or °F, with the weather in °C.
UNITS = ("°C", "°F")


def _learned(unit: str) -> HomeBaselines:
    baselines = HomeBaselines(DAY0.tzinfo)
    baselines.describe(
        [
            EntityInfo(s, "", area=a, device_class="temperature", unit=unit)
            for s, a in ((STUDY, "Study"), (BEDROOM, "Bedroom"), (LIVING, "Living room"))
        ]
    )
    shown = fahrenheit if unit == "°F" else (lambda c: c)
    day = DAY0 + timedelta(days=10)
    for step in range(10 * 48 + 18 + 14 + 1):
        when = DAY0 + timedelta(minutes=30 * step)
        moved = when >= day + timedelta(hours=9)
        for sensor in (STUDY, BEDROOM, LIVING):
            celsius = usual(when.hour) + (step % 3) * 0.1
            if moved and sensor == STUDY:
                celsius = 2.5  # seven hours of a freezing study
            baselines.observe(when, sensor, f"{shown(celsius):.1f}")
        baselines.outdoor(-12.0 if moved else 5.0, when)  # a cold snap, in °C
    baselines.advance(day + timedelta(hours=16))
    return baselines


def _judged(unit: str, study: float, outdoor: float) -> list[Finding]:
    baselines = _learned(unit)
    now = DAY0 + timedelta(days=10, hours=16, minutes=5)
    shown = fahrenheit if unit == "°F" else (lambda c: c)
    states = [
        entity(STUDY, f"{shown(study)}", area="Study", device_class="temperature", unit=unit),
        entity(BEDROOM, f"{shown(19.0)}", area="Bedroom", device_class="temperature", unit=unit),
    ]
    env = replace(environment(now), outdoor_temperature=outdoor, temperature_unit=unit)
    view = HomeView(window(states, env))
    return [
        *reading_off_its_hours(view, baselines),
        *reading_drifting_from_its_hours(view, baselines),
    ]


def test_a_freezing_room_in_a_cold_snap_is_told_from_learned_hours_in_both_units() -> None:
    celsius, us = _judged("°C", 2.5, -12.0), _judged("°F", 2.5, -12.0)
    assert [f.rule for f in us] == [f.rule for f in celsius]
    assert celsius
    assert "risk of frost" in celsius[0].reasoning
    assert "36.5 °F" in us[0].reasoning


def test_a_room_that_reads_the_weather_is_left_alone_in_both_units() -> None:
    # The study reads what the outdoors reads (its window open, or it is outside): the
    # weather explains it, in °F as in °C.
    assert _judged("°C", 5.5, 5.0) == [] == _judged("°F", 5.5, 5.0)
