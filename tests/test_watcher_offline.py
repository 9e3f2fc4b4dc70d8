"""A motion sensor offline is pushed in the home's first days, as a protective device."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.learning_gate import held_while_learning
from custom_components.anomaly_monitor.core.models import (
    AnomalyType,
    EntityInfo,
    Finding,
    Severity,
)

PIR, LAMP = "binary_sensor.kitchen_pir", "light.kitchen"
SET_UP = datetime(2026, 8, 10, tzinfo=UTC)


def _offline(entity_id: str) -> Finding:
    return Finding(
        rule="device_unavailable",
        evidence=(entity_id,),
        reasoning=f"{entity_id} is unavailable.",
        anomaly_type=AnomalyType.DEVICE_MALFUNCTION,
        severity=Severity.MEDIUM,
    )


def _baselines() -> HomeBaselines:
    baselines = HomeBaselines(UTC)
    baselines.describe(
        [
            EntityInfo(PIR, "Kitchen PIR", area="Kitchen", device_class="motion"),
            EntityInfo(LAMP, "Kitchen", area="Kitchen"),
        ]
    )
    baselines.watching([PIR, LAMP], SET_UP)
    return baselines


def test_a_motion_sensor_gone_offline_is_not_held() -> None:
    baselines = _baselines()
    now = SET_UP + timedelta(days=2, hours=6)
    assert baselines.learning(PIR, now)
    gone = _offline(PIR)
    assert not held_while_learning(gone, baselines, now, someone_home=True)
    # Nobody home: it watches the empty home, pushed too (not held, then told again).
    assert not held_while_learning(gone, baselines, now, someone_home=False)
    # A lamp offline waits as before.
    lamp = _offline(LAMP)
    assert held_while_learning(lamp, baselines, now, someone_home=True)
