"""A thermometer hotter in the fire band than it read since watched is judged at once.

A boiler's flue probe reads 240 °C every evening (its learned normal). A chimney fire takes
it to 480 °C: the same band, so before, no analysis was asked for and the fire waited
for the periodic one (set 12: told only when a smoke alarm went off three minutes later).
"""

from __future__ import annotations

from itertools import pairwise

from homeassistant.core import HomeAssistant, State

from custom_components.anomaly_monitor.core.rules.fire_band_tops import NEW_TOP, FireBandTops

from .helpers import setup_monitor

FLUE = "sensor.boiler_flue"


def test_a_new_top_in_the_fire_band_asks_once_per_rise() -> None:
    tops = FireBandTops()
    assert not tops.new_top(FLUE, 45.0, "°C", True)  # a hot room, not the fire band
    assert tops.new_top(FLUE, 95.0, "°C", True)  # its first fire-band reading
    assert tops.new_top(FLUE, 238.0, "°C", True)  # the first firing's climb
    assert not tops.new_top(FLUE, 226.0, "°C", True)  # cooling
    assert not tops.new_top(FLUE, 238.0 + NEW_TOP, "°C", True)  # the next evening's top
    assert tops.new_top(FLUE, 482.0, "°C", True)  # a chimney fire
    assert not tops.new_top(FLUE, 482.0, "°C", True)
    assert not tops.new_top("sensor.other", 52.0, "°C", False)  # outdoors: 60 °C is its line


def test_a_slow_climb_asks_again_each_few_degrees() -> None:
    """A reading creeping up a degree at a time still asks once it is ``NEW_TOP`` above
    the last top that asked: a slow fire is not hidden by small steps."""
    tops = FireBandTops()
    asked = [t for t in range(51, 80) if tops.new_top(FLUE, float(t), "°C", True)]
    assert asked[0] == 51
    assert all(b - a > NEW_TOP for a, b in pairwise(asked))
    assert len(asked) == 5


def test_fahrenheit_is_judged_in_celsius() -> None:
    tops = FireBandTops()
    assert tops.new_top(FLUE, 464.0, "°F", True)  # 240 °C
    assert not tops.new_top(FLUE, 470.0, "°F", True)  # 243 °C
    assert tops.new_top(FLUE, 900.0, "°F", True)  # 482 °C
    assert not tops.new_top(FLUE, 900.0, "kWh", True)  # no temperature unit


async def test_the_watcher_asks_for_an_analysis_at_a_fire_bands_new_top(
    hass: HomeAssistant,
) -> None:
    entry = await setup_monitor(hass)
    watcher = entry.runtime_data.coordinator.watcher
    attributes = {"device_class": "temperature", "unit_of_measurement": "°C"}

    def reading(value: str) -> State:
        return State(FLUE, value, attributes)

    assert watcher._is_significant(reading("238"), "30")  # into the fire band
    assert not watcher._is_significant(reading("226"), "238")  # cooling in the band
    assert not watcher._is_significant(reading("240"), "226")  # its usual top again
    assert watcher._is_significant(reading("482"), "240")  # far above: a chimney fire
    assert not watcher._is_significant(reading("480"), "482")
