"""A hazard on a device whose outage is open is a happening of its own, not the outage graver.

Walk 53: the kitchen smoke detector dropped off at 08:37 and was told offline at 08:52; it
answered again, and at 09:42 it sensed smoke. The smoke (the same device, so the same
incident key) joined the outage's anomaly: the notice read "since 08:52" for smoke that
began at 09:42, under the outage's identity, and the outage's own notice was gone. A
device that answers with a hazard is no longer the fault told: the hazard opens its own
anomaly, first seen when it was found; the outage stays what it was. A hazard that joins
another hazard's anomaly (one fire, two readings) is unchanged.
"""

from __future__ import annotations

from datetime import timedelta

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from custom_components.anomaly_monitor.anomalies.tracker import AnomalyTracker
from custom_components.anomaly_monitor.core.models import AnomalyType, Finding, Severity

SMOKE = "binary_sensor.kitchen_smoke"

OFFLINE = Finding(
    "device_unavailable", (SMOKE,), f"{SMOKE} went offline at 08:37.",
    AnomalyType.DEVICE_MALFUNCTION, Severity.MEDIUM, subject=SMOKE,
)  # fmt: skip
BACK = Finding(
    "device_unavailable", (SMOKE,), f"{SMOKE} went offline at 08:37, and was back at 08:53.",
    AnomalyType.DEVICE_MALFUNCTION, Severity.MEDIUM, subject=SMOKE,
)  # fmt: skip
SMOKE_FOUND = Finding(
    "hazard_detected", (SMOKE,), "Smoke detected in Kitchen.",
    "safety_hazard", Severity.CRITICAL, subject=SMOKE,
)  # fmt: skip


async def test_smoke_on_a_detector_told_offline_opens_its_own_anomaly(
    hass: HomeAssistant,
) -> None:
    tracker = AnomalyTracker(hass, "smoke-after-outage")
    now = dt_util.utcnow()
    (outage,) = tracker.update([OFFLINE], now).opened
    later = now + timedelta(minutes=50)
    changes = tracker.update([BACK, SMOKE_FOUND], later)
    (smoke,) = changes.opened
    assert smoke.signature != outage.signature
    assert smoke.rule == "hazard_detected"
    assert smoke.first_seen == later.isoformat()
    assert set(tracker.open) == {outage.signature, smoke.signature}
    assert tracker.open[outage.signature].rules == ["device_unavailable"]
    # The next analysis finds both again: each stays in its own anomaly, nothing told again.
    again = tracker.update([BACK, SMOKE_FOUND], later + timedelta(seconds=30))
    assert not again.opened
    assert set(tracker.open) == {outage.signature, smoke.signature}


async def test_a_detector_falling_silent_during_its_smoke_stays_that_fire(
    hass: HomeAssistant,
) -> None:
    """The other order is unchanged: the outage of a detector whose smoke is told joins it."""
    tracker = AnomalyTracker(hass, "outage-after-smoke")
    now = dt_util.utcnow()
    (smoke,) = tracker.update([SMOKE_FOUND], now).opened
    changes = tracker.update([SMOKE_FOUND, OFFLINE], now + timedelta(minutes=2))
    assert not changes.opened
    assert list(tracker.open) == [smoke.signature]


SILENT = Finding(
    "hazard_sensor_silent", (SMOKE,), f"{SMOKE} stopped answering while it reported smoke.",
    "safety_hazard", Severity.CRITICAL, subject=SMOKE,
)  # fmt: skip


async def test_with_an_outage_and_a_fire_open_a_new_hazard_rule_joins_the_fire(
    hass: HomeAssistant,
) -> None:
    """Walk 54: with both the outage and the smoke open on one detector, a hazard finding of
    a rule neither holds went to the first anomaly of the incident (the outage) and was then
    split off as a third notice; it belongs to the fire."""
    tracker = AnomalyTracker(hass, "outage-then-fire-then-silent")
    now = dt_util.utcnow()
    (outage,) = tracker.update([OFFLINE], now).opened
    (smoke,) = tracker.update([BACK, SMOKE_FOUND], now + timedelta(minutes=50)).opened
    changes = tracker.update([BACK, SMOKE_FOUND, SILENT], now + timedelta(minutes=52))
    assert not changes.opened
    assert set(tracker.open) == {outage.signature, smoke.signature}
    assert "hazard_sensor_silent" in tracker.open[smoke.signature].rules
    assert tracker.open[outage.signature].rules == ["device_unavailable"]
