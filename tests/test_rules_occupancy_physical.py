"""Occupancy and physical-plausibility rules on a lived-in family home (hand-built).

Each case is a situation a household meets: the TV left in standby, a washing machine
running while everyone is out, a thermostat in Fahrenheit, a sun-baked study.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime

import pytest

from custom_components.anomaly_monitor.core.models import EntityState, Severity
from custom_components.anomaly_monitor.core.rules.occupancy import (
    appliance_active_while_away,
    motion_while_away,
)
from custom_components.anomaly_monitor.core.rules.physical import (
    reading_outside_physical_range,
    room_temperature_out_of_line,
)
from custom_components.anomaly_monitor.core.rules.room_extremes import (
    room_heat_fire_risk,
    room_too_cold,
    room_too_hot,
)

from .core_factories import entity, environment, home, quiet_house, replace, steps

AWAY = environment(persons_home=0)


def _with(*extra: EntityState) -> list[EntityState]:
    return [*quiet_house(), *extra]


def _kettle_boiling(states: list[EntityState]) -> list[EntityState]:
    states = replace(states, "switch.kitchen_kettle_plug", "on")
    return replace(states, "sensor.kitchen_kettle_plug_power", "1800")


def _power(entity_id: str, watts: str, area: str | None) -> EntityState:
    return entity(entity_id, watts, area=area, device_class="power", unit="W")


def test_whole_house_meter_without_a_room_is_not_an_appliance() -> None:
    """The grid meter of an empty home still shows the fridge and boiler: no finding."""
    states = _with(_power("sensor.grid_import_power", "2500", None))
    assert not list(appliance_active_while_away(home(states, AWAY)))


def test_load_in_a_room_with_motion_is_left_to_the_motion_rule() -> None:
    """Someone moving in the kitchen explains the kettle: one finding, about the motion."""
    states = replace(_kettle_boiling(quiet_house()), "binary_sensor.kitchen_motion", "on")
    assert not list(appliance_active_while_away(home(states, AWAY)))
    (finding,) = motion_while_away(home(states, AWAY))
    assert finding.evidence[0] == "binary_sensor.kitchen_motion"


def test_tv_switched_off_but_drawing_more_than_standby() -> None:
    """An "off" TV drawing 60 W while the family is out is still running."""
    states = _with(
        entity("media_player.lounge_tv", "off", area="Lounge"),
        _power("sensor.lounge_tv_power", "60", "Lounge"),
    )
    (finding,) = appliance_active_while_away(home(states, AWAY))
    assert finding.evidence[:2] == ("media_player.lounge_tv", "sensor.lounge_tv_power")
    assert finding.magnitude == 60.0
    assert "Lounge" in finding.reasoning
    standby = replace(states, "sensor.lounge_tv_power", "8")
    assert not list(appliance_active_while_away(home(standby, AWAY)))


def test_tv_found_by_its_device_class_when_names_differ() -> None:
    """The smart plug is named after the room, the player after its brand: "tv" links them."""
    tv = entity("media_player.samsung_qled", "off", area="Lounge", device_class="tv")
    states = _with(tv, _power("sensor.lounge_tv_plug_power", "45", "Lounge"))
    (finding,) = appliance_active_while_away(home(states, AWAY))
    assert finding.evidence[:2] == ("media_player.samsung_qled", "sensor.lounge_tv_plug_power")


def test_switch_found_by_shared_name_words() -> None:
    """ "sensor.utility_washing_machine_power" measures "switch.washing_machine"."""
    states = _with(
        entity("switch.washing_machine", "on", area="Utility", device_class="outlet"),
        entity("switch.utility_fan", "off", area="Utility"),
        _power("sensor.utility_washing_machine_power", "2100", "Utility"),
    )
    (finding,) = appliance_active_while_away(home(states, AWAY))
    assert finding.evidence[:2] == (
        "switch.washing_machine",
        "sensor.utility_washing_machine_power",
    )
    assert finding.magnitude == 2100.0


def test_loads_in_two_rooms_leave_the_lights_out_of_the_evidence() -> None:
    """Kettle and TV both running: one finding across both rooms, without room lights."""
    states = _kettle_boiling(
        _with(
            entity("media_player.lounge_tv", "on", area="Lounge"),
            _power("sensor.lounge_tv_power", "140", "Lounge"),
        )
    )
    (finding,) = appliance_active_while_away(home(states, AWAY))
    assert "light.kitchen" not in finding.evidence
    assert {"switch.kitchen_kettle_plug", "media_player.lounge_tv"} <= set(finding.evidence)
    assert "Kitchen, Lounge" in finding.reasoning
    assert finding.magnitude == 1800.0
    # The kettle alone keeps its room's light as context.
    (alone,) = appliance_active_while_away(home(_kettle_boiling(quiet_house()), AWAY))
    assert "light.kitchen" in alone.evidence


def test_a_fahrenheit_thermometer_is_judged_like_a_celsius_one() -> None:
    """72 °F is a normal room; 150 °F (65.6 °C) a possible fire, told in °F; 100 °F a room
    far too hot; 35 °F one close to freezing."""
    porch = entity(
        "sensor.porch_temperature", "72", area="Porch", device_class="temperature", unit="°F"
    )
    for rule in (reading_outside_physical_range, room_heat_fire_risk, room_too_hot, room_too_cold):
        assert not list(rule(home(_with(porch))))
    hot = replace(_with(porch), "sensor.porch_temperature", "150")
    assert not list(reading_outside_physical_range(home(hot)))
    (fire,) = room_heat_fire_risk(home(hot))
    assert fire.evidence == ("sensor.porch_temperature",)
    assert fire.reasoning.startswith("Porch Temperature reads 150 °F: Porch is far hotter")
    assert "(over 122 °F)" in fire.reasoning
    assert fire.magnitude == pytest.approx(65.556 - 50, abs=0.01)
    (warm,) = room_too_hot(home(replace(hot, "sensor.porch_temperature", "100")))
    assert "over 95 °F" in warm.reasoning
    winter = environment(outdoor_temperature=-4.0)  # a room falls towards the outdoors
    (cold,) = room_too_cold(home(replace(hot, "sensor.porch_temperature", "35"), winter))
    assert "under 41 °F" in cold.reasoning
    assert cold.severity is Severity.MEDIUM


def test_a_freezing_room_is_told_as_such_not_as_out_of_line() -> None:
    """A study at 3 °C: close to freezing, not also a room out of line, and possible."""
    states = replace(quiet_house(), "sensor.study_temperature", "3")
    assert not list(room_temperature_out_of_line(home(states)))
    assert not list(reading_outside_physical_range(home(states)))
    winter = environment(outdoor_temperature=-4.0)
    cold = room_too_cold(home(states, winter))
    assert [f.evidence for f in cold] == [("sensor.study_temperature",)]


def test_thermostat_room_is_left_to_the_hvac_rules() -> None:
    states = replace(quiet_house(), "sensor.lounge_temperature", "27")
    assert not list(room_temperature_out_of_line(home(states)))


def test_hot_room_with_heating_off_points_at_the_thermostat_room_windows() -> None:
    """The study at 33 °C while the heating idles: the evidence shows the thermostat's room."""
    states = replace(quiet_house(), "sensor.study_temperature", "33")
    (finding,) = room_temperature_out_of_line(home(states))
    assert finding.evidence == (
        "sensor.study_temperature",
        "climate.lounge",
        "binary_sensor.lounge_window",
        "sensor.lounge_window_angle",
    )
    assert "33° with no heating running" in finding.reasoning
    assert finding.magnitude == 33 - 20.75  # the median of 19.5, 20.5, 21 and 33


def test_cold_room_while_the_home_is_heating() -> None:
    """Heating runs and the study stays at 15 °C: a window or radiator problem there."""
    states = replace(quiet_house(), "climate.lounge", "heat", hvac_action="heating")
    states = replace(states, "sensor.study_temperature", "15")
    (finding,) = room_temperature_out_of_line(home(states))
    assert finding.evidence == (
        "climate.lounge",
        "sensor.lounge_temperature",
        "sensor.study_temperature",
        "binary_sensor.lounge_window",
        "sensor.lounge_window_angle",
    )
    assert "15° while the home is heating around 20°" in finding.reasoning
    assert finding.magnitude == -5.0


def _washer_left_running(*, tracker: list[tuple[float, str, str]]) -> tuple[list, list]:
    """A washer started at 07:40, the household's last person reported out as given,
    the machine still in its wash phase at 08:35 (analysis time)."""
    start = datetime(2025, 3, 12, 7, 40)
    states = _with(
        entity("person.jo", "not_home"),
        _power("sensor.washer_power", "260", "Utility"),
    )
    readings = [(0, "sensor.washer_power", "2040"), (10, "sensor.washer_power", "210")]
    readings += [(25 + 5 * i, "sensor.washer_power", "300") for i in range(6)]
    return states, steps(start, readings + tracker)


LEFT_AT_0815 = [(35, "person.jo", "not_home")]  # 08:15: a change from home


def test_a_washer_running_since_before_everybody_left_is_theirs() -> None:
    """The family set the washer going and left: its wash is not somebody in the house."""
    states, transitions = _washer_left_running(tracker=LEFT_AT_0815)
    at = environment(datetime(2025, 3, 12, 8, 35), persons_home=0)
    assert not list(appliance_active_while_away(home(states, at, transitions)))


def test_a_load_that_starts_after_everybody_left_is_told() -> None:
    """The oven switching on at 10:30, two hours after the house emptied, is told."""
    start = datetime(2025, 3, 12, 8, 15)
    states = _with(entity("person.jo", "not_home"), _power("sensor.oven_power", "2400", "Kitchen"))
    transitions = steps(
        start,
        [
            (0, "person.jo", "not_home"),
            (0, "sensor.oven_power", "1.0"),
            (135, "sensor.oven_power", "2400"),
        ],
    )
    at = environment(datetime(2025, 3, 12, 10, 40), persons_home=0)
    (finding,) = appliance_active_while_away(home(states, at, transitions))
    assert "sensor.oven_power" in finding.evidence


def test_a_tracker_back_from_unknown_is_not_a_departure() -> None:
    """Out since morning, Jo's phone drops to unknown and reports not_home again at 08:20:
    that is no leaving, so a washer that started at 07:40 in the empty home is told."""
    tracker = [(37, "person.jo", "unknown"), (40, "person.jo", "not_home")]
    states, transitions = _washer_left_running(tracker=tracker)
    at = environment(datetime(2025, 3, 12, 8, 35), persons_home=0)
    (finding,) = appliance_active_while_away(home(states, at, transitions))
    assert "sensor.washer_power" in finding.evidence
    # Home before the dropout: a departure after all, and the washer was theirs.
    home_first = [(30, "person.jo", "home"), *tracker]
    states, transitions = _washer_left_running(tracker=home_first)
    assert not list(appliance_active_while_away(home(states, at, transitions)))


def test_a_grid_meter_below_zero_is_solar_export_a_plug_below_zero_is_faulty() -> None:
    """Homes with solar panels export: their grid meter reads below zero every sunny day.
    A plug (a meter on one device with a switch) only ever draws."""
    grid = _power("sensor.grid_power", "-2300", "Utility")
    assert not list(reading_outside_physical_range(home(_with(grid))))
    meter = _power("sensor.plug_7_power", "-40", "Study")
    switch = entity("switch.plug_7", "on", area="Study")
    meter = dataclasses.replace(meter, info=dataclasses.replace(meter.info, device="dev-7"))
    switch = dataclasses.replace(switch, info=dataclasses.replace(switch.info, device="dev-7"))
    (finding,) = reading_outside_physical_range(home(_with(meter, switch)))
    assert finding.evidence == ("sensor.plug_7_power",)
    assert "impossible" in finding.reasoning


def test_load_in_a_room_with_a_leak_is_the_leak_alarms_story() -> None:
    """The washer's hose burst while everybody is out: its leak sensor is told as a
    hazard; the washer still running beside it is no sign of somebody inside."""
    washer = _power("sensor.utility_washer_power", "2100", "Utility")
    leak = entity("binary_sensor.utility_leak", "off", area="Utility", device_class="moisture")
    dry = _with(washer, leak)
    assert list(appliance_active_while_away(home(dry, AWAY)))
    wet = replace(dry, "binary_sensor.utility_leak", "on")
    assert not list(appliance_active_while_away(home(wet, AWAY)))
