"""Numeric statistics of round 6: energy balance, humidity physics, power levels, supply band.

Each detector gets a home where it must speak and a normal home of the same shape where it
must stay silent. The homes are hand-written; nothing here comes from a benchmark.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from custom_components.anomaly_monitor.core.models import EntityState, Transition
from custom_components.anomaly_monitor.core.statistics import ALL_STATISTICS
from custom_components.anomaly_monitor.core.statistics.energy_balance import (
    heating_losing_the_room,
)
from custom_components.anomaly_monitor.core.statistics.humidity_physics import (
    humidity_follows_temperature,
)
from custom_components.anomaly_monitor.core.statistics.moisture import humidity_rising_alone
from custom_components.anomaly_monitor.core.statistics.power_range import power_beyond_its_range
from custom_components.anomaly_monitor.core.statistics.voltage import mains_voltage_out_of_band

from .core_factories import entity, environment, home, steps

MIDNIGHT = datetime(2025, 2, 3, 0, 0)
HOUR = 60.0


def test_round6_statistics_are_registered() -> None:
    for statistic in (
        heating_losing_the_room,
        humidity_follows_temperature,
        power_beyond_its_range,
        mains_voltage_out_of_band,
        humidity_rising_alone,
    ):
        assert statistic in ALL_STATISTICS


# --- heating while the room gets colder ---------------------------------------------------


def _bedroom() -> list[EntityState]:
    return [
        entity("climate.bedroom", "heat", area="Bedroom", hvac_action="idle"),
        entity("sensor.bedroom_temperature", "20", area="Bedroom", device_class="temperature"),
        entity("sensor.bedroom_heater_power", "0", area="Bedroom", device_class="power", unit="W"),
        entity("sensor.lounge_temperature", "21", area="Lounge", device_class="temperature"),
    ]


def _heating_evening(readings_while_heating: list[float]) -> list[Transition]:
    """Heating starts at 18:00 with the room at 19.5 °C; one reading an hour after that."""
    events: list[tuple[float, str, str]] = [
        (17 * HOUR, "sensor.bedroom_temperature", "19.6"),
        (18 * HOUR, "sensor.bedroom_temperature", "19.5"),
        (18 * HOUR, "climate.bedroom", "heat (heating)"),
        (18 * HOUR, "sensor.bedroom_heater_power", "2000"),
        (22 * HOUR, "climate.bedroom", "heat (idle)"),
        (22 * HOUR, "sensor.bedroom_heater_power", "0"),
        (20 * HOUR, "sensor.lounge_temperature", "20.5"),
    ]
    for hour, value in enumerate(readings_while_heating, start=19):
        events.append((hour * HOUR, "sensor.bedroom_temperature", str(value)))
    return steps(MIDNIGHT, events)


def test_heated_room_that_loses_seven_degrees_is_reported() -> None:
    view = home(
        _bedroom(), environment(MIDNIGHT + timedelta(hours=23)), _heating_evening([16.0, 12.5])
    )
    (finding,) = heating_losing_the_room(view)
    assert finding.evidence == (
        "climate.bedroom",
        "sensor.bedroom_temperature",
        "sensor.bedroom_heater_power",
    )
    assert finding.magnitude == pytest.approx(-7.0)


def test_heated_room_that_warms_or_dips_a_little_is_normal() -> None:
    for readings in ([20.5, 21.2, 21.0], [18.5, 19.0, 20.0]):
        view = home(
            _bedroom(), environment(MIDNIGHT + timedelta(hours=23)), _heating_evening(readings)
        )
        assert not list(heating_losing_the_room(view))


def test_a_room_cooling_with_the_heating_off_is_not_judged() -> None:
    events = steps(
        MIDNIGHT,
        [
            (18 * HOUR, "sensor.bedroom_temperature", "20"),
            (18 * HOUR, "climate.bedroom", "heat (idle)"),
            (20 * HOUR, "sensor.bedroom_temperature", "14"),
        ],
    )
    view = home(_bedroom(), environment(MIDNIGHT + timedelta(hours=23)), events)
    assert not list(heating_losing_the_room(view))


# --- relative humidity in lockstep with temperature ----------------------------------------


def _lounge() -> list[EntityState]:
    return [
        entity("sensor.lounge_temperature", "21", area="Lounge", device_class="temperature"),
        entity("sensor.lounge_humidity", "45", area="Lounge", device_class="humidity", unit="%"),
    ]


def _day(humidity_of: object) -> list[Transition]:
    """24 hourly readings; the room warms from 17 to 27 °C at noon and cools again."""
    events: list[tuple[float, str, str]] = []
    for hour in range(24):
        temperature = 17.0 + 10.0 * max(0.0, 1 - abs(hour - 12) / 8)
        events.append((hour * HOUR, "sensor.lounge_temperature", f"{temperature:.1f}"))
        humidity = humidity_of(temperature, hour)  # type: ignore[operator]
        events.append((hour * HOUR + 2, "sensor.lounge_humidity", f"{humidity:.1f}"))
    return steps(MIDNIGHT, events)


def test_humidity_that_rises_with_the_temperature_is_reported() -> None:
    view = home(_lounge(), environment(MIDNIGHT + timedelta(hours=23)), _day(lambda t, h: 2 * t))
    (finding,) = humidity_follows_temperature(view)
    assert finding.evidence == ("sensor.lounge_humidity",)
    assert finding.magnitude is not None
    assert finding.magnitude > 0.99


def test_humidity_that_falls_as_the_room_warms_is_normal() -> None:
    # Same moisture all day: warmer air reads drier (about 6 % of the value per degree).
    view = home(
        _lounge(),
        environment(MIDNIGHT + timedelta(hours=23)),
        _day(lambda t, h: 55 * (0.94 ** (t - 17))),
    )
    assert not list(humidity_follows_temperature(view))


def test_an_evening_shower_does_not_make_a_lockstep() -> None:
    # Humidity jumps at 07:00 and 21:00 (showers), drier air otherwise.
    view = home(
        _lounge(),
        environment(MIDNIGHT + timedelta(hours=23)),
        _day(lambda t, h: 80.0 if h in (7, 21) else 50 - (t - 17)),
    )
    assert not list(humidity_follows_temperature(view))


# --- a power meter far above its own earlier peak ------------------------------------------


def _metered() -> list[EntityState]:
    return [entity("sensor.house_power", "300", device_class="power", unit="W")]


def _meter_day(evening: list[tuple[float, int]]) -> list[Transition]:
    """A day peaking at 2.6 kW (heating + cooking) up to 18:00, then ``evening`` readings."""
    day = [(0, 150), (1, 2150), (4, 150), (7, 2600), (9, 300), (12, 2400), (14, 300)]
    return steps(
        MIDNIGHT,
        [(hour * HOUR, "sensor.house_power", str(watts)) for hour, watts in day + evening],
    )


def test_meter_that_climbs_far_above_its_peak_and_stays_is_reported() -> None:
    view = home(
        _metered(),
        environment(MIDNIGHT + timedelta(hours=23)),
        _meter_day([(20, 4300), (22, 4100)]),
    )
    (finding,) = power_beyond_its_range(view)
    assert finding.evidence == ("sensor.house_power",)
    assert finding.magnitude == 1700.0


def test_meter_within_its_daily_range_or_briefly_above_it_is_normal() -> None:
    for evening in ([(20, 2700), (22, 300)], [(20, 4300), (20.1, 300)]):
        view = home(_metered(), environment(MIDNIGHT + timedelta(hours=23)), _meter_day(evening))
        assert not list(power_beyond_its_range(view))


def test_meter_with_too_short_a_history_is_not_judged() -> None:
    events = steps(
        MIDNIGHT,
        [(m * HOUR, "sensor.house_power", str(w)) for m, w in ((0, 200), (1, 300), (2, 5000))],
    )
    view = home(_metered(), environment(MIDNIGHT + timedelta(hours=5)), events)
    assert not list(power_beyond_its_range(view))


# --- mains voltage outside the supply band --------------------------------------------------


def _voltage_home(readings: list[str]) -> list[Transition]:
    return steps(
        MIDNIGHT,
        [(hour * HOUR, "sensor.grid_voltage", value) for hour, value in enumerate(readings)],
    )


def test_mains_voltage_under_the_band_is_reported() -> None:
    states = [entity("sensor.grid_voltage", "229", device_class="voltage", unit="V")]
    view = home(states, environment(MIDNIGHT + timedelta(hours=6)), _voltage_home(["231", "204"]))
    (finding,) = mains_voltage_out_of_band(view)
    assert finding.evidence == ("sensor.grid_voltage",)
    assert finding.magnitude == -3.0


def test_mains_voltage_inside_the_band_and_low_voltage_sensors_are_normal() -> None:
    states = [
        entity("sensor.grid_voltage", "229", device_class="voltage", unit="V"),
        entity("sensor.doorbell_battery_voltage", "12", device_class="voltage", unit="V"),
    ]
    events = _voltage_home(["231", "209", "251"]) + steps(
        MIDNIGHT, [(30.0, "sensor.doorbell_battery_voltage", "11.2")]
    )
    view = home(states, environment(MIDNIGHT + timedelta(hours=6)), events)
    assert not list(mains_voltage_out_of_band(view))


def test_a_glitch_before_the_heating_starts_is_not_the_rooms_level() -> None:
    # The thermometer read 150 °C for half an hour (its own fault) as the heating started.
    events = steps(
        MIDNIGHT,
        [
            (17 * HOUR, "sensor.bedroom_temperature", "19.6"),
            (17 * HOUR + 50, "sensor.bedroom_temperature", "150.0"),
            (18 * HOUR, "climate.bedroom", "heat (heating)"),
            (18 * HOUR + 20, "sensor.bedroom_temperature", "19.7"),
            (19 * HOUR, "sensor.bedroom_temperature", "20.3"),
        ],
    )
    view = home(_bedroom(), environment(MIDNIGHT + timedelta(hours=23)), events)
    assert not list(heating_losing_the_room(view))


# --- one room's humidity rising for days while the others stay ------------------------------


def _two_rooms() -> list[EntityState]:
    return [
        entity("sensor.bathroom_humidity", "45", area="Bathroom", device_class="humidity"),
        entity("sensor.kitchen_humidity", "40", area="Kitchen", device_class="humidity"),
    ]


def _week(
    bathroom_floor_by_day: list[float], kitchen_floor_by_day: list[float]
) -> list[Transition]:
    """Hourly readings for a week: each room's floor at night, a shower/cooking peak of
    +25 points at 07:00 that dries out again, and a gentle daily rhythm."""
    events: list[tuple[float, str, str]] = []
    for day, (bath, kitchen) in enumerate(
        zip(bathroom_floor_by_day, kitchen_floor_by_day, strict=True)
    ):
        for hour in range(24):
            rhythm = 8.0 * max(0.0, 1 - abs(hour - 14) / 10)
            shower = 25.0 if hour == 7 else 0.0
            at = (day * 24 + hour) * HOUR
            events.append((at, "sensor.bathroom_humidity", f"{bath + rhythm + shower:.1f}"))
            events.append((at + 1, "sensor.kitchen_humidity", f"{kitchen + rhythm:.1f}"))
    return steps(MIDNIGHT, events)


def test_bathroom_whose_floor_climbs_for_days_alone_is_reported() -> None:
    trace = _week([30, 42, 52, 56, 56, 57, 56], [28, 27, 28, 29, 28, 27, 28])
    view = home(_two_rooms(), environment(MIDNIGHT + timedelta(days=7)), trace)
    (finding,) = humidity_rising_alone(view)
    assert finding.evidence == ("sensor.bathroom_humidity",)
    assert finding.magnitude == pytest.approx(26.0)


def test_daily_showers_and_a_damp_week_in_every_room_are_normal() -> None:
    same = [30, 31, 30, 29, 31, 30, 30]
    view = home(_two_rooms(), environment(MIDNIGHT + timedelta(days=7)), _week(same, same))
    assert not list(humidity_rising_alone(view))
    # Weather: both rooms climb together.
    rising = [30, 40, 48, 52, 52, 53, 52]
    view = home(_two_rooms(), environment(MIDNIGHT + timedelta(days=7)), _week(rising, rising))
    assert not list(humidity_rising_alone(view))


def test_a_home_with_one_humidity_sensor_is_not_judged() -> None:
    trace = [t for t in _week([30, 42, 52, 56, 56, 57, 56], [28] * 7) if "bathroom" in t.entity_id]
    view = home(_two_rooms()[:1], environment(MIDNIGHT + timedelta(days=7)), trace)
    assert not list(humidity_rising_alone(view))


def test_a_heated_room_with_its_window_open_is_left_to_the_opening_rule() -> None:
    states = [
        *_bedroom(),
        entity("binary_sensor.bedroom_window", "off", area="Bedroom", device_class="window"),
    ]
    events = _heating_evening([16.0, 12.5]) + steps(
        MIDNIGHT,
        [
            (18 * HOUR + 10, "binary_sensor.bedroom_window", "on"),
            (19 * HOUR + 30, "binary_sensor.bedroom_window", "off"),
        ],
    )
    view = home(states, environment(MIDNIGHT + timedelta(hours=23)), events)
    assert not list(heating_losing_the_room(view))
    # The same evening with the window shut all along is told.
    shut = [t for t in events if t.entity_id != "binary_sensor.bedroom_window"]
    view = home(states, environment(MIDNIGHT + timedelta(hours=23)), shut)
    assert len(list(heating_losing_the_room(view))) == 1
