"""A false alarm taken back while its occurrence lasts is shown again, not pushed (set 16).

Ljubljana, on b194a63: the flood sensor offline since 08:00, told, called a false alarm at
noon; the mark removed the next morning, and "offline 25 h" pushed 10 s later. The same
occurrence is shown again; one that read otherwise in between (the sensor back online,
then offline again) is news.
"""

from __future__ import annotations

from datetime import timedelta

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from custom_components.anomaly_monitor.anomalies.tracker import AnomalyTracker

from .tracker_home import finding

FLOOD = "binary_sensor.laundry_flood_sensor"
OFFLINE = finding("device_unavailable", FLOOD, "device_malfunction")


async def test_a_mark_taken_back_shows_the_same_occurrence(hass: HomeAssistant) -> None:
    for back_between in (False, True):
        tracker = AnomalyTracker(hass, f"flood-{back_between}")
        now = dt_util.utcnow() - timedelta(hours=22)  # taken back now, the next morning
        dark = {FLOOD: "unavailable"}
        (told,) = tracker.update([OFFLINE], now, states=dark).opened
        tracker.mark_false_alarm(told.key)
        now += timedelta(hours=4)
        assert tracker.update([OFFLINE], now, states=dark).opened == []  # marked
        if back_between:
            tracker.update([], now + timedelta(hours=1), states={FLOOD: "off"})
        now += timedelta(hours=17)
        assert tracker.update([OFFLINE], now, states=dark).opened == []  # marked
        assert tracker.remove_mark(told.key) is not None
        changes = tracker.update([OFFLINE], dt_util.utcnow() + timedelta(seconds=10), states=dark)
        if back_between:
            assert [a.rule for a in changes.opened] == ["device_unavailable"]
        else:
            assert changes.opened == []
            assert [a.rule for a in changes.reopened] == ["device_unavailable"]
