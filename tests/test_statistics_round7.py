"""Round 7 (issue #16, numeric families): which entities a numeric finding names.

Each check gets a home where it must speak (and name what carries the evidence) and a
normal home of the same shape where it must stay silent or name less. The homes are
hand-written; nothing here comes from a benchmark.
"""

from __future__ import annotations

from datetime import datetime, timedelta
import math

from custom_components.anomaly_monitor.core.models import EntityState, Transition
from custom_components.anomaly_monitor.core.statistics import ALL_STATISTICS
from custom_components.anomaly_monitor.core.statistics.airing import hvac_ran_with_window_open
from custom_components.anomaly_monitor.core.statistics.daily_profile import daily_profile_shift
from custom_components.anomaly_monitor.core.statistics.health import reading_spike
from custom_components.anomaly_monitor.core.statistics.power_range import power_beyond_its_range

from .core_factories import entity, environment, home, steps

MIDNIGHT = datetime(2025, 10, 3, 0, 0)
HOUR = 60.0


# --- thermometers that leap together --------------------------------------------------------


def _thermometers() -> list[EntityState]:
    return [
        entity(f"sensor.{room}_temperature", "21", area=room, device_class="temperature", unit="°C")
        for room in ("lounge", "bedroom", "study", "kitchen")
    ]


def _day(leap: dict[str, float]) -> list[Transition]:
    """Hourly readings around 21 °C; at 15:35 each room in ``leap`` reads that much more
    for one five-minute reading."""
    events: list[tuple[float, str, str]] = []
    for index, room in enumerate(("lounge", "bedroom", "study", "kitchen")):
        sensor = f"sensor.{room}_temperature"
        for hour in range(24):
            events.append((hour * HOUR, sensor, f"{21 + 0.1 * ((hour + index) % 5):.1f}"))
        events += [
            (15 * HOUR + 30, sensor, "21.5"),
            (15 * HOUR + 35, sensor, f"{21.5 + leap.get(room, 0.0):.1f}"),
            (15 * HOUR + 40, sensor, "21.5"),
        ]
    return steps(MIDNIGHT, events)


def test_thermometers_leaping_together_are_named_together() -> None:
    view = home(
        _thermometers(),
        environment(MIDNIGHT + timedelta(hours=23)),
        _day({"lounge": 5.0, "bedroom": 5.0, "study": 4.5, "kitchen": 0.4}),
    )
    (finding,) = reading_spike(view)
    # The first one is the subject; the two that leapt with it join it in one finding,
    # the kitchen's 0.4 °C wobble does not.
    assert finding.evidence[0] == "sensor.lounge_temperature"
    assert set(finding.evidence) == {
        "sensor.lounge_temperature",
        "sensor.bedroom_temperature",
        "sensor.study_temperature",
    }
    assert "jumped with it" in finding.reasoning


def test_a_lone_spike_names_its_own_sensor_only() -> None:
    view = home(_thermometers(), environment(MIDNIGHT + timedelta(hours=23)), _day({"lounge": 5.0}))
    (finding,) = reading_spike(view)
    assert finding.evidence == ("sensor.lounge_temperature",)


# --- a power meter far above its peak, and the units that ran meanwhile ----------------------


def _house() -> list[EntityState]:
    return [
        entity("sensor.house_power", "300", device_class="power", unit="W"),
        entity("climate.bedroom", "heat", area="Bedroom", hvac_action="idle"),
        entity("sensor.bedroom_temperature", "20", area="Bedroom", device_class="temperature"),
        entity("sensor.bedroom_heater_power", "0", area="Bedroom", device_class="power", unit="W"),
        entity("climate.lounge", "heat", area="Lounge", hvac_action="idle"),
        entity("sensor.lounge_temperature", "21", area="Lounge", device_class="temperature"),
    ]


def _evening(bedroom_runs_at: float) -> list[Transition]:
    """A day peaking at 2.6 kW up to 18:00; 4.3 kW from 20:00 to the end. The lounge heats
    in the morning only; the bedroom heats for an hour from ``bedroom_runs_at``."""
    meter = [(0, 150), (1, 2150), (4, 150), (7, 2600), (9, 300), (12, 2400), (14, 300)]
    meter += [(20, 4300), (22, 4100)]
    events = [(h * HOUR, "sensor.house_power", str(w)) for h, w in meter]
    events += [(7 * HOUR, "climate.lounge", "heat (heating)"), (8 * HOUR, "climate.lounge", "idle")]
    events += [
        (bedroom_runs_at * HOUR, "climate.bedroom", "heat (heating)"),
        (bedroom_runs_at * HOUR, "sensor.bedroom_heater_power", "1500"),
        ((bedroom_runs_at + 1) * HOUR, "climate.bedroom", "heat (idle)"),
    ]
    events += [(h * HOUR, "sensor.bedroom_temperature", "20.0") for h in range(0, 24, 2)]
    events += [(h * HOUR, "sensor.lounge_temperature", "21.0") for h in range(0, 24, 2)]
    return steps(MIDNIGHT, sorted(events))


def test_meter_above_its_peak_names_the_units_that_ran_meanwhile() -> None:
    view = home(_house(), environment(MIDNIGHT + timedelta(hours=23)), _evening(21))
    (finding,) = power_beyond_its_range(view)
    # The meter, then the bedroom unit that heated while the meter stayed up, with its
    # room's thermometer and power meter; the lounge heated only in the morning.
    assert finding.evidence == (
        "sensor.house_power",
        "climate.bedroom",
        "sensor.bedroom_temperature",
        "sensor.bedroom_heater_power",
    )
    assert "climate.bedroom heated or cooled meanwhile." in finding.reasoning


def test_meter_above_its_peak_with_no_unit_running_names_the_meter_only() -> None:
    view = home(_house(), environment(MIDNIGHT + timedelta(hours=23)), _evening(10))
    (finding,) = power_beyond_its_range(view)
    assert finding.evidence == ("sensor.house_power",)


# --- heating that ran while a window stood open ------------------------------------------------


def _winter_home() -> list[EntityState]:
    return [
        entity("binary_sensor.lounge_window", "off", area="Lounge", device_class="window"),
        entity("climate.lounge", "heat", area="Lounge", hvac_action="idle"),
        entity("sensor.lounge_temperature", "21", area="Lounge", device_class="temperature"),
        entity("climate.bedroom", "heat", area="Bedroom", hvac_action="idle"),
        entity("sensor.bedroom_temperature", "20", area="Bedroom", device_class="temperature"),
    ]


def _winter_day(window_open_for: float, heating_from: float) -> list[Transition]:
    """The lounge window opens at 08:00 for ``window_open_for`` minutes; the lounge heats
    from ``heating_from`` (hours) for two hours."""
    events = [
        (8 * HOUR, "binary_sensor.lounge_window", "on"),
        (8 * HOUR + window_open_for, "binary_sensor.lounge_window", "off"),
        (heating_from * HOUR, "climate.lounge", "heat (heating)"),
        ((heating_from + 2) * HOUR, "climate.lounge", "heat (idle)"),
    ]
    events += [(h * HOUR, "sensor.lounge_temperature", "21.0") for h in range(0, 24, 2)]
    return steps(MIDNIGHT, sorted(events))


def test_heating_that_ran_while_a_window_stood_open_for_hours_is_reported() -> None:
    view = home(_winter_home(), environment(MIDNIGHT + timedelta(hours=20)), _winter_day(600, 10))
    (finding,) = hvac_ran_with_window_open(view)
    assert finding.rule == "hvac_with_opening_open"
    assert finding.subject == "binary_sensor.lounge_window"
    # The window, the unit that heated against it, the room's thermometer; the bedroom's
    # unit never ran.
    assert finding.evidence == (
        "binary_sensor.lounge_window",
        "climate.lounge",
        "sensor.lounge_temperature",
    )
    assert finding.magnitude == 120.0


def test_airing_a_room_or_heating_after_the_window_closed_is_normal() -> None:
    for open_for, heating_from in ((20, 8), (120, 10.5), (600, 18)):
        view = home(
            _winter_home(),
            environment(MIDNIGHT + timedelta(hours=20)),
            _winter_day(open_for, heating_from),
        )
        assert not list(hvac_ran_with_window_open(view)), (open_for, heating_from)


def test_a_window_open_now_is_left_to_the_rule() -> None:
    events = [
        (8 * HOUR, "binary_sensor.lounge_window", "on"),
        (9 * HOUR, "climate.lounge", "heat (heating)"),
    ]
    view = home(
        _winter_home(), environment(MIDNIGHT + timedelta(hours=12)), steps(MIDNIGHT, events)
    )
    assert not list(hvac_ran_with_window_open(view))


def test_round7_statistic_is_registered() -> None:
    assert hvac_ran_with_window_open in ALL_STATISTICS


# --- a room's temperature that left its daily profile names what conditions the room ---------


def _study(with_unit: bool) -> list[EntityState]:
    states = [
        entity("sensor.study_temperature", "20", area="Study", device_class="temperature"),
        entity("sensor.study_heater_power", "0", area="Study", device_class="power", unit="W"),
        entity("sensor.lounge_temperature", "21", area="Lounge", device_class="temperature"),
    ]
    if with_unit:
        states.append(entity("climate.study", "heat", area="Study", hvac_action="idle"))
    return states


def _week(with_unit: bool) -> list[Transition]:
    """Eight days of hourly readings with a daily cycle; from day 4 the study reads 3 °C
    above its profile (a radiator valve stuck open), the lounge stays as it was."""
    events: list[Transition] = []
    for hour in range(8 * 24):
        when = MIDNIGHT + timedelta(hours=hour)
        cycle = math.sin(2 * math.pi * (hour % 24) / 24)
        wobble = 0.1 * ((hour * 7) % 5)
        study = 20 + cycle + wobble + (3.0 if hour >= 4 * 24 else 0.0)
        events.append(Transition(when, "sensor.study_temperature", f"{study:.1f}"))
        events.append(Transition(when, "sensor.lounge_temperature", f"{21 + cycle + wobble:.1f}"))
        events.append(Transition(when, "sensor.study_heater_power", "800" if hour % 3 else "0"))
        if with_unit and hour % 6 == 0:
            events.append(Transition(when, "climate.study", "heat (heating)"))
    return events


def test_a_room_warmer_than_its_profile_names_the_unit_and_meter_of_the_room() -> None:
    view = home(_study(True), environment(MIDNIGHT + timedelta(days=8)), _week(True))
    (finding,) = daily_profile_shift(view)
    assert finding.evidence == (
        "sensor.study_temperature",
        "climate.study",
        "sensor.study_heater_power",
    )


def test_a_room_without_a_climate_unit_names_its_thermometer_alone() -> None:
    view = home(_study(False), environment(MIDNIGHT + timedelta(days=8)), _week(False))
    (finding,) = daily_profile_shift(view)
    assert finding.evidence == ("sensor.study_temperature",)
