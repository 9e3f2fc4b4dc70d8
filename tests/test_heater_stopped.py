"""A heater on its own thermostat that stops in a frosty night: its rest is judged by the
rests of its nights (not by the one long afternoon gap a day), and the cold of the place
it keeps is the heater's, not the weather's (core, no Home Assistant)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.cycles import cycle_stopped
from custom_components.anomaly_monitor.core.baselines.profile_departure import (
    home_or_weather_moved,
)
from custom_components.anomaly_monitor.core.baselines.steady_places import (
    reading_beyond_its_steady_band,
)
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityInfo, EntityState

from .core_factories import entity, environment, window

DAY0 = datetime(2027, 2, 1, tzinfo=UTC)
DAYS = 9
AREA = "Reptile room"
HEATER = "sensor.shelly_plug_s_4c1d_power"  # ids that say nothing
ROOM = "sensor.lumi_weather_7_temperature"
STOPPED = DAY0 + timedelta(days=DAYS, hours=2)  # the last run ended, a frosty night


def _home(watts: str = "1480") -> HomeBaselines:
    """``DAYS`` days: the heater runs 30 min and rests 45, day and night, but for one
    rest of 2 h 50 in the warm afternoon (13:00); the room reads 24.8-25.4 °C, the
    outdoors 0 °C. Day ``DAYS``: it cycles until 02:00, then rests; outdoors −9 °C."""
    baselines = HomeBaselines(UTC)
    baselines.describe(
        [
            EntityInfo(HEATER, "", area=AREA, device_class="power", unit="W"),
            EntityInfo(ROOM, "", area=AREA, device_class="temperature", unit="°C"),
        ]
    )
    moment = DAY0
    while moment < STOPPED:
        baselines.observe(moment, HEATER, watts)
        moment += timedelta(minutes=30)
        baselines.observe(moment, HEATER, "0.4")
        afternoon = moment.hour == 13 and moment < STOPPED - timedelta(hours=12)
        moment += timedelta(minutes=170 if afternoon else 45)
    for hour in range(DAYS * 24 + 5):
        when = DAY0 + timedelta(hours=hour)
        if when < STOPPED:
            baselines.observe(when, ROOM, "24.8" if hour % 2 else "25.4")
        baselines.outdoor(0.0 if when < STOPPED - timedelta(hours=2) else -9.0, when)
    return baselines


def _view(now: datetime, heater: EntityState, room: str = "25.0") -> HomeView:
    thermometer = entity(ROOM, room, area=AREA, device_class="temperature", unit="°C")
    cold = replace(thermometer, last_changed=STOPPED + timedelta(minutes=30))
    return HomeView(window((heater, cold), environment(now, outdoor_temperature=-9.0)))


def _resting(watts: str = "0.4") -> EntityState:
    meter = entity(HEATER, watts, area=AREA, device_class="power", unit="W")
    return replace(meter, last_changed=STOPPED)


def test_a_stop_is_judged_by_the_rests_of_this_part_of_the_day() -> None:
    """Its nights' rests are 45 min: stopped at 02:00, told at three times that, 04:15,
    not at three times the afternoon gap (8 h 30)."""
    baselines = _home()
    early = STOPPED + timedelta(hours=2, minutes=10)
    assert list(cycle_stopped(_view(early, _resting()), baselines)) == []
    (told,) = cycle_stopped(_view(STOPPED + timedelta(hours=2, minutes=20), _resting()), baselines)
    assert "usually starts again within 45 min at this time of day" in told.reasoning


def test_the_cold_of_a_place_whose_heater_stopped_is_not_the_weathers() -> None:
    baselines = _home()
    now = STOPPED + timedelta(hours=2)
    room = entity(ROOM, "23.6", area=AREA, device_class="temperature", unit="°C")
    assert not home_or_weather_moved(_view(now, _resting(), "23.6"), baselines, room, -1)
    # Its heater running (working, in the cold): the weather's.
    running = _resting("1480")
    assert home_or_weather_moved(_view(now, running, "23.6"), baselines, room, -1)
    # Not yet past the rests of its nights: the weather's.
    soon = STOPPED + timedelta(minutes=40)
    assert home_or_weather_moved(_view(soon, _resting(), "23.6"), baselines, room, -1)


def test_a_fridge_resting_longer_in_the_cold_is_no_stopped_heater() -> None:
    """A compressor's draw (90 W) rests longer as its room cools: the weather's."""
    baselines = _home("90")
    now = STOPPED + timedelta(hours=2)
    room = entity(ROOM, "23.6", area=AREA, device_class="temperature", unit="°C")
    assert home_or_weather_moved(_view(now, _resting(), "23.6"), baselines, room, -1)


def test_the_place_below_its_band_is_told_with_its_stopped_heater() -> None:
    baselines = _home()
    now = STOPPED + timedelta(hours=2)
    (told,) = reading_beyond_its_steady_band(_view(now, _resting(), "23.6"), baselines)
    assert told.evidence == (ROOM, HEATER)
    assert "has drawn no power since 02:00" in told.reasoning
    running = _resting("1480")
    assert list(reading_beyond_its_steady_band(_view(now, running, "23.6"), baselines)) == []
