"""A room the home keeps heated, fallen far below its hours in a cold snap: its cold is its
heating's, not the weather's (core, no Home Assistant). Set 25's district heating outage:
a bedroom with no climate entity, kept at 21.5 °C on every night, falling with −9 °C
outside, was excused by the cold snap."""

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
ROOM = "sensor.lumi_weather_3_temperature"  # an id that says nothing
SNAP = DAY0 + timedelta(days=DAYS)  # the cold snap, and the heating gone, from midnight


def _home(kept: float, fallen: float, outdoors: float = 0.0) -> HomeBaselines:
    """``DAYS`` days of the room at ``kept`` °C (or a tenth over) every hour with the
    outdoors at ``outdoors``; then five hours at ``fallen`` (or a tenth under) with −9 °C
    outside."""
    baselines = HomeBaselines(UTC)
    baselines.describe([EntityInfo(ROOM, "", area=AREA, device_class="temperature", unit="°C")])
    for hour in range(DAYS * 24 + 6):
        when = DAY0 + timedelta(hours=hour)
        # A tenth up every other hour: a reading that changes, as a thermometer's does.
        reads = kept + 0.1 * (hour % 2) if when < SNAP else fallen - 0.1 * (hour % 2)
        baselines.observe(when, ROOM, f"{reads:.1f}")
        baselines.outdoor(outdoors if when < SNAP else -9.0, when)
    baselines.advance(DAY0 + timedelta(hours=DAYS * 24 + 5))
    return baselines


def _view(now: datetime, reads: float) -> HomeView:
    room = entity(ROOM, str(reads), area=AREA, device_class="temperature", unit="°C")
    return HomeView(window((room,), environment(now, outdoor_temperature=-9.0)))


def _room(reads: float) -> EntityState:
    return entity(ROOM, str(reads), area=AREA, device_class="temperature", unit="°C")


NOW = SNAP + timedelta(hours=5, minutes=10)


def test_a_heated_room_fallen_far_in_a_cold_snap_is_not_the_weathers() -> None:
    baselines = _home(21.5, 19.5)
    assert kept_heated(baselines, _room(19.5), NOW) == 21.6  # its 05:00s
    assert not home_or_weather_moved(_view(NOW, 19.5), baselines, _room(19.5), -1)
    (told,) = reading_drifting_from_its_hours(_view(NOW, 19.5), baselines)
    assert told.evidence == (ROOM,)
    assert told.recommendation.startswith(f"Check the heating of {AREA}")


def test_a_heated_room_a_little_cooler_in_a_cold_snap_is_the_weathers() -> None:
    """1.5 °C under the lowest it read at the hour: a heating working hard, not gone."""
    baselines = _home(21.5, 20.0)
    assert home_or_weather_moved(_view(NOW, 20.0), baselines, _room(20.0), -1)
    assert list(reading_drifting_from_its_hours(_view(NOW, 20.0), baselines)) == []


def test_an_unheated_room_follows_the_weather() -> None:
    """A room at 9 °C with the outdoors at 4 °C is sheltered, not heated: its fall in the
    cold snap is the weather's, however far."""
    baselines = _home(9.0, 6.0, outdoors=4.0)
    assert kept_heated(baselines, _room(6.0), NOW) is None
    assert home_or_weather_moved(_view(NOW, 6.0), baselines, _room(6.0), -1)
    assert list(reading_drifting_from_its_hours(_view(NOW, 6.0), baselines)) == []
