"""Detectors that learn the home's normal from the window's own earlier days.

A daily-profile shift (hour-for-hour departure from the earlier days), a sensor drifting
alone while its peers stay level, and a motion sensor that has lost the nightly rest.
"""

from __future__ import annotations

from datetime import datetime, timedelta
import math
import random

from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityState, Transition
from custom_components.anomaly_monitor.core.statistics.daily_profile import daily_profile_shift
from custom_components.anomaly_monitor.core.statistics.drift import (
    kendall_tau,
    sensor_drifting,
)
from custom_components.anomaly_monitor.core.statistics.rhythm import (
    activity_without_night_rest,
)
from custom_components.anomaly_monitor.core.statistics.supply import power_swinging_together
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity, environment, home

START = datetime(2025, 3, 3, 0, 0)
DAYS = 8


def _hourly(
    entity_id: str, level: float, swing: float, extra: float = 0.0, from_day: int = DAYS
) -> list[Transition]:
    """A reading every hour for DAYS days: a daily cycle, small noise, and ``extra`` added
    from ``from_day`` on."""
    noise = random.Random(entity_id)
    readings: list[Transition] = []
    for hour in range(DAYS * 24):
        value = level + swing * math.sin(2 * math.pi * (hour % 24) / 24)
        value += noise.uniform(-0.5, 0.5) + (extra if hour >= from_day * 24 else 0.0)
        readings.append(Transition(START + timedelta(hours=hour), entity_id, f"{value:.1f}"))
    return readings


def _humid_home() -> list[EntityState]:
    return [entity("sensor.cellar_humidity", "50", area="Cellar", device_class="humidity")]


def _end() -> datetime:
    return START + timedelta(days=DAYS)


# --- daily-profile shift -------------------------------------------------------------------


def test_humidity_that_rose_for_days_above_its_hourly_profile_is_reported() -> None:
    # A damp wall: from day 4 the cellar reads 8 points above what it read at that hour.
    readings = _hourly("sensor.cellar_humidity", 50, 10, extra=8.0, from_day=4)
    view = home(_humid_home(), environment(_end()), readings)
    (finding,) = daily_profile_shift(view)
    assert finding.evidence == ("sensor.cellar_humidity",)
    assert "2025-03-07" in finding.reasoning
    assert finding.magnitude is not None
    assert 6.0 < finding.magnitude < 10.0


def test_a_daily_cycle_however_wide_is_not_a_shift() -> None:
    # Swinging 30 points a day, every day alike: the profile explains it.
    readings = _hourly("sensor.cellar_humidity", 50, 15)
    view = home(_humid_home(), environment(_end()), readings)
    assert not list(daily_profile_shift(view))


def test_one_odd_last_day_is_not_a_regime() -> None:
    readings = _hourly("sensor.cellar_humidity", 50, 10, extra=8.0, from_day=DAYS - 1)
    view = home(_humid_home(), environment(_end()), readings)
    assert not list(daily_profile_shift(view))


def test_every_room_warming_from_the_same_day_is_the_weather() -> None:
    # A heat wave: both rooms read 3 degrees above their profile from day 4.
    states = [
        entity("sensor.lounge_temperature", "21", area="Lounge", device_class="temperature"),
        entity("sensor.bedroom_temperature", "20", area="Bedroom", device_class="temperature"),
    ]
    lounge = _hourly("sensor.lounge_temperature", 21, 1, extra=3.0, from_day=4)
    bedroom = _hourly("sensor.bedroom_temperature", 20, 1, extra=3.0, from_day=4)
    both = sorted([*lounge, *bedroom], key=lambda t: t.when)
    assert not list(daily_profile_shift(home(states, environment(_end()), both)))
    # The lounge alone warming is that room's change.
    alone = sorted([*lounge, *_hourly("sensor.bedroom_temperature", 20, 1)], key=lambda t: t.when)
    (finding,) = daily_profile_shift(home(states, environment(_end()), alone))
    assert finding.evidence == ("sensor.lounge_temperature",)


def test_a_meter_that_reports_only_on_changes_has_no_profile() -> None:
    # Three readings a day (a consumer switching) are no hourly profile to learn.
    states = [entity("sensor.house_power", "120", device_class="power", unit="W")]
    readings = [
        Transition(START + timedelta(days=d, hours=h), "sensor.house_power", str(w))
        for d in range(DAYS)
        for h, w in ((7, 2120 if d < 4 else 3120), (9, 120), (19, 2620))
    ]
    assert not list(daily_profile_shift(home(states, environment(_end()), readings)))


# --- drift against peers ---------------------------------------------------------------------


def _thermometers() -> list[EntityState]:
    return [
        entity("sensor.lounge_temperature", "21", area="Lounge", device_class="temperature"),
        entity("sensor.bedroom_temperature", "20", area="Bedroom", device_class="temperature"),
    ]


def _drifting(rate: float) -> list[Transition]:
    """The lounge thermometer gains ``rate`` degrees a day; the bedroom one stays level."""
    lounge = [
        Transition(t.when, t.entity_id, f"{float(t.state) + rate * (t.when - START).days:.1f}")
        for t in _hourly("sensor.lounge_temperature", 21, 1)
    ]
    return sorted([*lounge, *_hourly("sensor.bedroom_temperature", 20, 1)], key=lambda t: t.when)


def test_a_thermometer_creeping_up_alone_is_drifting() -> None:
    view = home(_thermometers(), environment(_end()), _drifting(0.4))
    (finding,) = sensor_drifting(view)
    assert finding.evidence == ("sensor.lounge_temperature",)
    assert finding.magnitude is not None
    assert finding.magnitude > 2.0


def test_every_thermometer_warming_together_is_the_weather() -> None:
    both = [
        Transition(t.when, t.entity_id, f"{float(t.state) + 0.4 * (t.when - START).days:.1f}")
        for t in _drifting(0.0)
    ]
    assert not list(sensor_drifting(home(_thermometers(), environment(_end()), both)))


def test_a_lone_sensor_has_no_peer_to_tell_drift_from_weather() -> None:
    lounge = [t for t in _drifting(0.4) if t.entity_id == "sensor.lounge_temperature"]
    view = home(_thermometers()[:1], environment(_end()), lounge)
    assert not list(sensor_drifting(view))


def test_kendall_tau_reads_direction_and_consistency() -> None:
    assert kendall_tau([1, 2, 3, 4]) == 1.0
    assert kendall_tau([4, 3, 2, 1]) == -1.0
    assert kendall_tau([1, 3, 2, 4]) < 1.0


# --- the nightly rest ------------------------------------------------------------------------


def _motion(hours: range) -> list[Transition]:
    """The lounge motion sensor fires at each of ``hours`` every day for DAYS days."""
    result: list[Transition] = []
    for day in range(DAYS):
        for hour in hours:
            on = START + timedelta(days=day, hours=hour, minutes=10)
            result.append(Transition(on, "binary_sensor.lounge_motion", "on"))
            result.append(
                Transition(on + timedelta(minutes=2), "binary_sensor.lounge_motion", "off")
            )
    return result


def _motion_home() -> list[EntityState]:
    return [entity("binary_sensor.lounge_motion", "off", area="Lounge", device_class="motion")]


def test_motion_around_the_clock_night_after_night_has_lost_the_rest_period() -> None:
    view = home(_motion_home(), environment(_end()), _motion(range(24)))
    (finding,) = activity_without_night_rest(view)
    assert finding.evidence == ("binary_sensor.lounge_motion",)
    assert finding.magnitude == DAYS


def test_a_household_that_sleeps_from_midnight_to_six_keeps_its_rhythm() -> None:
    view = home(_motion_home(), environment(_end()), _motion(range(6, 24)))
    assert not list(activity_without_night_rest(view))


def test_a_home_with_pets_is_not_judged_on_night_motion() -> None:
    window = build_window(
        _motion_home(), environment(_end()), _motion(range(24)), profile="We have a cat."
    )
    assert not list(activity_without_night_rest(HomeView(window)))


# --- circuits swinging together --------------------------------------------------------------


def _meters() -> list[EntityState]:
    return [
        entity("sensor.house_power", "2400", device_class="power", unit="W"),
        entity("sensor.kitchen_power", "150", area="Kitchen", device_class="power", unit="W"),
        entity("sensor.bedroom_power", "80", area="Bedroom", device_class="power", unit="W"),
    ]


def _swings(seconds_apart: int) -> list[Transition]:
    """Every meter 20 % up and down again ten times, the kitchen ``seconds_apart`` late."""
    result: list[Transition] = []
    for swing in range(10):
        when = START + timedelta(hours=18, seconds=10 * swing)
        factor = 1.2 if swing % 2 == 0 else 0.8
        result.append(Transition(when, "sensor.house_power", f"{2400 * factor:.0f}"))
        result.append(Transition(when, "sensor.bedroom_power", f"{80 * factor:.0f}"))
        kitchen = when + timedelta(seconds=seconds_apart)
        result.append(Transition(kitchen, "sensor.kitchen_power", f"{150 * factor:.0f}"))
    return sorted(result, key=lambda t: t.when)


def test_every_circuit_swinging_in_step_is_the_supply() -> None:
    view = home(_meters(), environment(START + timedelta(hours=19)), _swings(0))
    (finding,) = power_swinging_together(view)
    assert set(finding.evidence) == {e.entity_id for e in _meters()}
    assert finding.magnitude == 9  # the first readings are no move


def test_circuits_switching_at_their_own_moments_are_a_household() -> None:
    view = home(_meters(), environment(START + timedelta(hours=19)), _swings(5))
    assert not list(power_swinging_together(view))
