"""A place hot since it was first seen is not a room beginning to overheat (core, no HA).

The mirror of ``test_cold_places``: a NAS's board or a garage in a Gulf summer that has
read over 35 °C since it was first seen is held, on the first minutes after set-up
(``set_up_levels``) and once its hours are read (``hot_places``); a room that read
livable and then rose is told, and the fire band is never held.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.combined_detector import CombinedDetector
from custom_components.anomaly_monitor.core.models import Transition

from .core_factories import entity, environment, window

START = datetime(2026, 2, 9, 12, tzinfo=UTC)
NAS = "sensor.nas_temperature"


def _seen(values: list[float], hours: int) -> HomeBaselines:
    """``values`` repeated every 10 min for ``hours`` before ``START``: all that is known."""
    baselines = HomeBaselines(UTC)
    first = START - timedelta(hours=hours)
    baselines.watching([NAS], first)
    for i in range(hours * 6):
        when = first + timedelta(minutes=10 * i)
        baselines.learn(Transition(when, NAS, f"{values[i % len(values)]:g}", "Study"))
    return baselines


def _told(reading: str, baselines: HomeBaselines) -> list[str]:
    detector = CombinedDetector()
    detector.baselines = lambda: baselines
    states = [entity(NAS, reading, area="Study", device_class="temperature", unit="°C")]
    found = detector.findings(window(states, environment(START, outdoor_temperature=24.0)))
    return [f.rule for f in found]


def test_hot_at_its_first_report_shows_no_rise_yet() -> None:
    """Set 8's NAS read 42 °C at the first instant watched: told as a room dangerous to stay
    in. Held now; before: told."""
    assert "room_too_hot" not in _told("42", HomeBaselines(UTC))


def test_hot_since_first_seen_for_hours_is_a_hot_place() -> None:
    assert "room_too_hot" not in _told("42", _seen([40.0, 42.0, 43.0, 41.0], hours=6))


def test_a_room_that_was_livable_and_rose_is_told() -> None:
    assert "room_too_hot" in _told("38", _seen([23.0, 24.0], hours=1))
    assert "room_too_hot" in _told("38", _seen([23.0, 24.0, 30.0, 36.0], hours=6))


def test_the_fire_band_is_never_held() -> None:
    assert "room_heat_fire_risk" in _told("64", HomeBaselines(UTC))


def test_a_probe_never_livable_since_first_seen_is_a_machines_water() -> None:
    """Set 9's geyser probe in the roof (58 °C when first seen, 45-58 °C since) and set 14's
    stove loop (38 °C from set-up, 52 °C once stoked at dawn): a fire heats a room's air
    from livable, and these never read livable in hours watched. Held until their range is
    learned (before: told as a possible fire, then each reheat again)."""
    baselines = _seen([58.0, 52.0, 48.0, 55.0, 45.0], hours=24)
    assert "room_heat_fire_risk" not in _told("58", baselines)
    assert "room_too_hot" not in _told("45", baselines)
    assert "room_heat_fire_risk" in _told("58", HomeBaselines(UTC))  # at its first report
    assert "room_heat_fire_risk" in _told("85", baselines)  # near boiling: told


def test_a_probe_that_read_livable_and_then_the_fire_band_is_told() -> None:
    assert "room_heat_fire_risk" in _told("58", _seen([24.0, 30.0, 45.0, 52.0], hours=24))
