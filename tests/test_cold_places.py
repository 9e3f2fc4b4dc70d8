"""A place cold since it was first seen is not a room falling to freezing (core, no HA).

The first hours after set-up, before a sensor's range is learned (``usual_extremes``): a
crawl space that has read 4-6 °C since it was first seen, or a freezer probe at -18 °C,
is a cold place; a bedroom that read 20 °C and now reads 3 °C is a heating failure, and
a crawl space that now falls below freezing crosses a line it never was near.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.combined_detector import CombinedDetector
from custom_components.anomaly_monitor.core.models import EntityInfo, Transition

from .core_factories import entity, environment, window

START = datetime(2026, 1, 5, 12, tzinfo=UTC)
CRAWL = "sensor.crawl_space_temperature"


def _seen(values: list[float], hours: int = 12) -> HomeBaselines:
    """``values`` repeated every 10 min for ``hours`` before ``START``: all that is known."""
    baselines = HomeBaselines(UTC)
    first = START - timedelta(hours=hours)
    for i in range(hours * 6):
        when = first + timedelta(minutes=10 * i)
        baselines.learn(Transition(when, CRAWL, f"{values[i % len(values)]:g}", "Basement"))
    return baselines


def _cold_told(reading: str, baselines: HomeBaselines) -> bool:
    detector = CombinedDetector()
    detector.baselines = lambda: baselines
    states = [entity(CRAWL, reading, area="Basement", device_class="temperature", unit="°C")]
    return "room_too_cold" in [
        f.rule
        for f in detector.findings(window(states, environment(START, outdoor_temperature=-3.0)))
    ]


def test_a_crawl_space_cold_since_first_seen_is_no_failed_heating() -> None:
    assert not _cold_told("3.5", _seen([4.0, 5.0, 6.0, 5.0]))


def test_a_freezer_probe_is_a_cold_place() -> None:
    assert not _cold_told("-18", _seen([-18.0, -17.0, -19.0]))


def test_a_room_that_was_warm_and_falls_is_told() -> None:
    assert _cold_told("3.5", _seen([20.0, 21.0, 19.5]))


def test_a_cold_place_falling_below_freezing_is_told() -> None:
    assert _cold_told("-2", _seen([4.0, 5.0, 6.0, 5.0]))


def test_a_sensor_cold_since_it_was_first_seen_minutes_ago_shows_no_fall_yet() -> None:
    """Set up minutes ago, a sensor reads 3.5 °C and has read nothing else: a fridge, a cold
    store or a garage as often as a room whose heating failed, and no fall was seen; held
    until its hours show where it stays (sets 1, 6, 8, 12 told it at their first instant).
    Below freezing it is told at once; a room seen warm that falls is told at once. Before:
    the first two told."""
    assert not _cold_told("3.5", HomeBaselines(UTC))
    assert not _cold_told("3.5", _seen([3.0, 4.0], hours=1))
    assert _cold_told("-1", HomeBaselines(UTC))
    assert _cold_told("3.5", _seen([20.0, 19.0], hours=1))


def test_a_room_whose_thermostat_heats_is_no_cold_place() -> None:
    detector = CombinedDetector()
    detector.baselines = lambda: _seen([4.0, 5.0, 6.0, 5.0])
    states = [
        entity(CRAWL, "3.5", area="Basement", device_class="temperature", unit="°C"),
        entity("climate.basement", "heat", area="Basement", temperature=18),
    ]
    found = detector.findings(window(states, environment(START, outdoor_temperature=-3.0)))
    assert "room_too_cold" in [f.rule for f in found]


def test_a_basement_that_kept_one_reading_since_set_up_is_a_place() -> None:
    """Set 2's crawl space read 41 °F from set-up until its first change to 39.8 °F six
    hours later: read all along, a cold place, not a room whose heating failed."""
    baselines = HomeBaselines(UTC)
    baselines.watching([CRAWL], START - timedelta(hours=6))
    baselines.learn(Transition(START, CRAWL, "4.3", "Basement"))
    assert not _cold_told("4.3", baselines)
    fresh = HomeBaselines(UTC)
    fresh.watching([CRAWL], START - timedelta(minutes=20))
    fresh.learn(Transition(START, CRAWL, "4.3", "Basement"))
    assert not _cold_told("4.3", fresh)  # watched minutes, cold since: no fall seen yet
    fresh.learn(Transition(START, CRAWL, "-0.5", "Basement"))
    assert _cold_told("-0.5", fresh)  # below freezing: told at once


def test_a_tank_kept_cold_between_warm_fills_is_a_cold_place() -> None:
    """A bulk milk tank's probe reads 3.6 °C all night; the morning's warm milk takes it
    to 14.8 °C and its refrigeration back under 4 °C within three hours. On the first day
    (no range yet) it was warm, but it *stays* cold: its normal, not a room's heating
    failing (set 8 told it twice a day). Before: told (its warmest reading made it a room)."""
    baselines = HomeBaselines(UTC)
    info = EntityInfo(CRAWL, "", area="Dairy", device_class="temperature", unit="°C")
    baselines.describe([info])
    night = START - timedelta(hours=12)
    baselines.learn(Transition(night, CRAWL, "3.6", "Dairy"))
    fill = night + timedelta(hours=6, minutes=25)
    for minutes, value in ((0, "14.8"), (35, "11.2"), (70, "8.9"), (115, "5.9"), (160, "4.1")):
        baselines.learn(Transition(fill + timedelta(minutes=minutes), CRAWL, value, "Dairy"))
    baselines.advance(START)
    assert not _cold_told("4.1", baselines)


def test_a_room_warm_most_hours_read_that_falls_is_told() -> None:
    """Warm for the hours read, then the heating fails: its typical hour is warm."""
    baselines = HomeBaselines(UTC)
    info = EntityInfo(CRAWL, "", area="Basement", device_class="temperature", unit="°C")
    baselines.describe([info])
    first = START - timedelta(hours=12)
    for i in range(12 * 6):
        value = 20.0 if i < 9 * 6 else 20.0 - (i - 9 * 6) * 0.9
        baselines.learn(Transition(first + timedelta(minutes=10 * i), CRAWL, f"{value:g}", "B"))
    baselines.advance(START)
    assert _cold_told("3.8", baselines)


def test_a_smoke_alarm_in_the_area_does_not_make_a_cold_place_a_failed_heating() -> None:
    """Set 12: a pan smokes in the kitchen and its smoke alarm goes off; the fridge probe
    HA puts in the kitchen, at its usual 4.5 °C, was told as a room close to freezing.
    Before: told (the alarm exemption, meant for heat, covered the cold too)."""
    detector = CombinedDetector()
    detector.baselines = lambda: _seen([4.0, 5.0, 6.0, 5.0])
    states = [
        entity(CRAWL, "4.5", area="Basement", device_class="temperature", unit="°C"),
        entity("binary_sensor.basement_smoke", "on", area="Basement", device_class="smoke"),
    ]
    found = detector.findings(window(states, environment(START, outdoor_temperature=-3.0)))
    assert "room_too_cold" not in [f.rule for f in found]
    assert "hazard_detected" in [f.rule for f in found]
