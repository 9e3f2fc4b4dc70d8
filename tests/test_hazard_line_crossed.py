"""A told situation crossing a hazard's line on its own devices is not pushed again (set 2).

The cottage's furnace called for heat without warming: "heating but not warming" told at
midnight; at 06:00 its thermometer "close to freezing" (a medium hazard) joined the same
incident and was pushed again at the same severity. It is updated in place; a leak on a
detector whose dropout was told, or a hazard on a device not shown yet, is still told.
"""

from __future__ import annotations

from datetime import timedelta

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from custom_components.anomaly_monitor.anomalies.tracker import AnomalyTracker
from custom_components.anomaly_monitor.core.models import Finding, Severity

CLIMATE = "climate.cottage"
TEMP = "sensor.cottage_temperature"
LEAK = "binary_sensor.cellar_leak"

NOT_WARMING = Finding(
    "heating_not_warming", (CLIMATE, TEMP), "The cottage has not warmed.",
    "device_malfunction", Severity.MEDIUM, subject=CLIMATE,
)  # fmt: skip
CLOSE_TO_FREEZING = Finding(
    "room_too_cold", (TEMP, CLIMATE), "The cottage is close to freezing.",
    "safety_hazard", Severity.MEDIUM, subject=CLIMATE,
)  # fmt: skip
DROPPED = Finding(
    "device_unavailable", (LEAK,), "The cellar leak sensor is offline.",
    "device_malfunction", Severity.HIGH, subject=LEAK,
)  # fmt: skip
LEAKING = Finding(
    "hazard_detected", (LEAK,), "Moisture detected in the cellar.",
    "safety_hazard", Severity.HIGH, subject=LEAK,
)  # fmt: skip


async def test_the_heating_told_failing_close_to_freezing_is_not_pushed_again(
    hass: HomeAssistant,
) -> None:
    tracker = AnomalyTracker(hass, "cottage")
    now = dt_util.utcnow()
    assert [a.rule for a in tracker.update([NOT_WARMING], now).opened] == ["heating_not_warming"]
    changes = tracker.update([NOT_WARMING, CLOSE_TO_FREEZING], now + timedelta(hours=6))
    assert changes.opened == []
    (cottage,) = tracker.open.values()
    assert cottage.hazard
    assert "room_too_cold" in cottage.rules


async def test_a_leak_on_a_detector_told_offline_is_told(hass: HomeAssistant) -> None:
    tracker = AnomalyTracker(hass, "leak")
    now = dt_util.utcnow()
    tracker.update([DROPPED], now)
    changes = tracker.update([DROPPED, LEAKING], now + timedelta(minutes=5))
    assert [a.subject for a in changes.opened] == [LEAK]
