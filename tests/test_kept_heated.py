"""A room the home keeps heated, fallen far below its hours in a cold snap: its cold is its
heating's, not the weather's (core, no Home Assistant). Set 25's district heating outage:
a bedroom with no climate entity, kept at 21.5 °C on every night (as warm as the living
room its thermostat heats), falling with −9 °C outside, was excused by the cold snap. A
room kept cooler than the heated one (warmed through it) still follows the weather."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.kept_heated import kept_heated
from custom_components.anomaly_monitor.core.baselines.profile_departure import (
    home_or_weather_moved,
)
from custom_components.anomaly_monitor.core.baselines.profile_drift import (
    reading_drifting_from_its_hours,
)
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityInfo, EntityState

from .core_factories import entity, environment, window

DAY0 = datetime(2027, 3, 1, tzinfo=UTC)
DAYS = 8
AREA = "Bedroom"
ROOM = "sensor.lumi_weather_3_temperature"  # ids that say nothing
LIVING = "sensor.lumi_weather_4_temperature"
THERMOSTAT = "climate.daikin_7"
SNAP = DAY0 + timedelta(days=DAYS)  # the cold snap, and the bedroom's heat gone, at midnight
NOW = SNAP + timedelta(hours=5, minutes=10)


def _home(kept: float, fallen: float, outdoors: float = 0.0) -> HomeBaselines:
    """``DAYS`` days of the bedroom at ``kept`` °C (or a tenth over) every hour, the living
    room at 20-21 °C by its thermostat, the outdoors at ``outdoors``; then five hours of
    the bedroom at ``fallen`` (or a tenth under) with −9 °C outside, the living room held."""
    baselines = HomeBaselines(UTC)
    baselines.describe(
        [
            EntityInfo(ROOM, "", area=AREA, device_class="temperature", unit="°C"),
            EntityInfo(LIVING, "", area="Living", device_class="temperature", unit="°C"),
        ]
    )
    for hour in range(DAYS * 24 + 6):
        when = DAY0 + timedelta(hours=hour)
        # A tenth up every other hour: a reading that changes, as a thermometer's does.
        reads = kept + 0.1 * (hour % 2) if when < SNAP else fallen - 0.1 * (hour % 2)
        baselines.observe(when, ROOM, f"{reads:.1f}")
        baselines.observe(when, LIVING, f"{20.0 + hour % 2:.1f}")
        baselines.outdoor(outdoors if when < SNAP else -9.0, when)
    baselines.advance(DAY0 + timedelta(hours=DAYS * 24 + 5))
    return baselines


def _states(reads: float) -> tuple[EntityState, ...]:
    return (
        _room(reads),
        entity(LIVING, "20.5", area="Living", device_class="temperature", unit="°C"),
        entity(THERMOSTAT, "heat", area="Living", temperature=21, hvac_action="heating"),
    )


def _view(now: datetime, reads: float, *, thermostat: bool = True) -> HomeView:
    states = _states(reads) if thermostat else _states(reads)[:2]
    return HomeView(window(states, environment(now, outdoor_temperature=-9.0)))


def _room(reads: float) -> EntityState:
    return entity(ROOM, str(reads), area=AREA, device_class="temperature", unit="°C")


def test_a_heated_room_fallen_far_in_a_cold_snap_is_not_the_weathers() -> None:
    baselines = _home(21.5, 19.5)
    assert kept_heated(_view(NOW, 19.5), baselines, _room(19.5), NOW) == 21.6  # its 05:00s
    assert not home_or_weather_moved(_view(NOW, 19.5), baselines, _room(19.5), -1)
    (told,) = reading_drifting_from_its_hours(_view(NOW, 19.5), baselines)
    assert told.evidence == (ROOM,)
    assert told.recommendation.startswith(f"Check the heating of {AREA}")


def test_a_heated_room_a_little_cooler_in_a_cold_snap_is_the_weathers() -> None:
    """1.5 °C under the lowest it read at the hour: a heating working hard, not gone."""
    baselines = _home(21.5, 20.0)
    assert home_or_weather_moved(_view(NOW, 20.0), baselines, _room(20.0), -1)
    assert list(reading_drifting_from_its_hours(_view(NOW, 20.0), baselines)) == []


def test_a_room_kept_cooler_than_the_heated_one_follows_the_weather() -> None:
    """The bedroom at 17.5 °C under a living room kept at 20-21 °C is warmed through it:
    3 °C colder in the cold snap is the weather's (the shipped cold-snap home)."""
    baselines = _home(17.5, 14.5)
    assert kept_heated(_view(NOW, 14.5), baselines, _room(14.5), NOW) is None
    assert home_or_weather_moved(_view(NOW, 14.5), baselines, _room(14.5), -1)


def test_without_a_thermostat_or_far_above_no_outdoors_nothing_is_judged_heated() -> None:
    """No thermostat that heats in the home: no measure of what is heated. A room at 9 °C
    with the outdoors at 4 °C is sheltered, not heated."""
    baselines = _home(21.5, 19.5)
    assert kept_heated(_view(NOW, 19.5, thermostat=False), baselines, _room(19.5), NOW) is None
    sheltered = _home(9.0, 6.0, outdoors=4.0)
    assert kept_heated(_view(NOW, 6.0), sheltered, _room(6.0), NOW) is None
    assert home_or_weather_moved(_view(NOW, 6.0), sheltered, _room(6.0), -1)
