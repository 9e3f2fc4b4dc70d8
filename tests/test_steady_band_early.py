"""A place kept where no room is (a fridge at 4-7 °C) leaving its band on the third night
is told from its first days; a room's narrow band, or one the weather never showed held
against it, still waits for five days (core, no Home Assistant)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.steady_places import (
    reading_beyond_its_steady_band,
)
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityInfo

from .core_factories import entity, environment, window

DAY0 = datetime(2027, 3, 12, tzinfo=UTC)
AREA = "Kitchen"
PROBE = "sensor.tz3000_a1b2_temperature"  # an id that says nothing
DAYS = 2.9  # the third night


def _learned(low: float, high: float, outdoor_swing: float = 8.0) -> HomeBaselines:
    """``DAYS`` days of a thermometer reading between ``low`` and ``high`` (a reading every
    20 min), the weather swinging by ``outdoor_swing`` °C over each day around 9 °C."""
    baselines = HomeBaselines(UTC)
    baselines.describe([EntityInfo(PROBE, "", area=AREA, device_class="temperature", unit="°C")])
    steps = int(DAYS * 24 * 3)
    for step in range(steps):
        when = DAY0 + timedelta(minutes=20 * step)
        value = low if step % 3 == 0 else high if step % 3 == 1 else (low + high) / 2
        baselines.observe(when, PROBE, f"{value:.1f}")
        hour = when.hour
        outdoor = 9.0 + outdoor_swing / 2 * (1 if 10 <= hour < 22 else -1)
        baselines.outdoor(outdoor, when)
    return baselines


def _at(reading: str, beyond_for: timedelta) -> HomeView:
    now = DAY0 + timedelta(days=DAYS) + beyond_for
    probe = entity(PROBE, reading, area=AREA, device_class="temperature", unit="°C")
    probe = replace(probe, last_changed=now - beyond_for)
    return HomeView(window((probe,), environment(now, outdoor_temperature=6.0)))


def test_a_fridge_warming_on_its_third_night_is_told() -> None:
    """4.4-6.6 °C on every reading of nearly three days, the weather moving 8 °C: 7.8 °C for
    1 h 10 min is told. Fails before: the band was read only after five days."""
    baselines = _learned(4.4, 6.6)
    assert list(reading_beyond_its_steady_band(_at("7.8", timedelta(minutes=50)), baselines)) == []
    (told,) = reading_beyond_its_steady_band(_at("7.8", timedelta(minutes=70)), baselines)
    assert told.evidence == (PROBE,)
    assert "4.4–6.6 °C" in told.reasoning


def test_a_rooms_narrow_band_still_waits_for_its_days() -> None:
    """A room at 20.0-21.5 °C for three days is no machine's band yet."""
    baselines = _learned(20.0, 21.5)
    assert list(reading_beyond_its_steady_band(_at("23.0", timedelta(hours=2)), baselines)) == []


def test_a_cold_band_the_weather_held_too_waits() -> None:
    """A shed's 4.4-6.6 °C in three still days (the weather moving 2 °C): it may follow the
    weather, and is not read before five days."""
    baselines = _learned(4.4, 6.6, outdoor_swing=2.0)
    assert list(reading_beyond_its_steady_band(_at("7.8", timedelta(hours=2)), baselines)) == []
