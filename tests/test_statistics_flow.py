"""Water that never stops flowing, told from a flow-rate sensor's class or unit alone."""

from __future__ import annotations

from datetime import datetime, timedelta

from custom_components.anomaly_monitor.core.models import EntityState, Transition
from custom_components.anomaly_monitor.core.statistics.durations import (
    heat_appliance_left_on,
    water_left_running,
)
from custom_components.anomaly_monitor.core.statistics.flow import (
    flowing_spells,
    water_flowing_continuously,
)

from .core_factories import entity, environment, home

START = datetime(2025, 3, 3, 6, 0)


def _meter(device_class: str | None = "volume_flow_rate", unit: str = "L/min") -> EntityState:
    return entity("sensor.water_meter_flow", "0", device_class=device_class, unit=unit)


def _readings(spans: list[tuple[float, float, float]]) -> list[Transition]:
    """(start minute, end minute, L/min): the meter reads the rate every 10 min, 0 after."""
    result: list[Transition] = []
    for begin, end, rate in spans:
        minute = begin
        while minute < end:
            when = START + timedelta(minutes=minute)
            result.append(Transition(when, "sensor.water_meter_flow", f"{rate}"))
            minute += 10
        result.append(Transition(START + timedelta(minutes=end), "sensor.water_meter_flow", "0"))
    return sorted(result, key=lambda t: t.when)


def _household_day() -> list[tuple[float, float, float]]:
    # A shower, a few flushes, the washing machine filling, a sprinkler programme.
    return [(0, 12, 9.0), (60, 62, 6.0), (180, 190, 8.0), (300, 360, 12.0), (600, 602, 6.0)]


def test_a_toilet_running_all_afternoon_is_reported() -> None:
    readings = _readings([*_household_day(), (700, 1000, 0.3)])
    view = home([_meter()], environment(START + timedelta(hours=18)), readings)
    (finding,) = water_flowing_continuously(view)
    assert finding.evidence == ("sensor.water_meter_flow",)
    assert finding.magnitude == 300


def test_a_household_using_water_in_bursts_is_normal() -> None:
    readings = _readings(_household_day())
    view = home([_meter()], environment(START + timedelta(hours=18)), readings)
    assert not list(water_flowing_continuously(view))


def test_a_flow_unit_without_a_device_class_is_enough() -> None:
    readings = _readings([(0, 240, 0.5)])
    meter = _meter(device_class=None, unit="m³/h")
    view = home([meter], environment(START + timedelta(hours=5)), readings)
    (finding,) = water_flowing_continuously(view)
    assert "still" not in finding.reasoning


def test_an_ongoing_flow_is_measured_to_the_end_of_the_window() -> None:
    when = START + timedelta(hours=3)
    readings = [(START, 0.4), (START + timedelta(minutes=30), 0.5)]
    assert flowing_spells(readings, when) == [(START, when, True)]


def test_a_power_sensor_is_not_a_flow_meter() -> None:
    readings = [
        Transition(START + timedelta(minutes=10 * i), "sensor.water_meter_flow", "150")
        for i in range(30)
    ]
    power = entity("sensor.water_meter_flow", "150", device_class="power", unit="W")
    view = home([power], environment(START + timedelta(hours=6)), readings)
    assert not list(water_flowing_continuously(view))


def test_a_water_heater_on_for_hours_is_heating_not_water_running() -> None:
    heater = entity("switch.cellar_water_heater", "on", area="Cellar")
    readings = [
        Transition(START, "switch.cellar_water_heater", "on"),
        Transition(START + timedelta(hours=5), "switch.cellar_water_heater", "off"),
    ]
    view = home([heater], environment(START + timedelta(hours=6)), readings)
    assert not list(water_left_running(view))
    (finding,) = heat_appliance_left_on(view)
    assert finding.evidence == ("switch.cellar_water_heater",)
