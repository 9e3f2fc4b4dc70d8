"""A motion sensor or a door's contact offline is pushed in the home's first days, as a
protective device."""

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
BACK_DOOR, WINDOW = "binary_sensor.0x00158d0001a2b3c4_contact", "binary_sensor.kitchen_window"
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
            EntityInfo(BACK_DOOR, "Back door", area="Kitchen", device_class="door"),
            EntityInfo(WINDOW, "Kitchen window", area="Kitchen", device_class="window"),
        ]
    )
    baselines.watching([PIR, LAMP, BACK_DOOR, WINDOW], SET_UP)
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


def test_a_door_contact_offline_for_hours_is_not_held() -> None:
    """A back door's contact off the mesh on the third morning: entries through it are
    unseen from then on; told after two hours rather than once the home is learned. A
    drop of minutes is a flaky mesh's, still the home's to learn."""
    baselines = _baselines()
    dropped = SET_UP + timedelta(days=2, hours=9)
    for entity_id in (BACK_DOOR, WINDOW):
        baselines.drops.went_away(entity_id, dropped)
    soon = dropped + timedelta(minutes=45)
    assert baselines.learning(BACK_DOOR, soon)
    assert held_while_learning(_offline(BACK_DOOR), baselines, soon, someone_home=True)
    later = dropped + timedelta(hours=2, minutes=1)
    assert not held_while_learning(_offline(BACK_DOOR), baselines, later, someone_home=True)
    # A window's contact is no way in for the household: it waits for the home's drops.
    assert held_while_learning(_offline(WINDOW), baselines, later, someone_home=True)


PLUG, PLUG_POWER = "switch.sonoff_10017f3a2b", "sensor.sonoff_10017f3a2b_power"


def _plug_baselines() -> HomeBaselines:
    baselines = HomeBaselines(UTC)
    baselines.describe(
        [
            EntityInfo(PLUG, "SONOFF 10017f3a2b", area="Basement", device="sump"),
            EntityInfo(
                PLUG_POWER,
                "SONOFF 10017f3a2b Power",
                area="Basement",
                device_class="power",
                unit="W",
                device="sump",
            ),
            EntityInfo(LAMP, "Kitchen", area="Kitchen"),
        ]
    )
    baselines.watching([PLUG, PLUG_POWER, LAMP], SET_UP)
    return baselines


def test_a_plug_offline_for_hours_is_not_held_while_learning() -> None:
    """A sump pump's plug off the Wi-Fi on the second day: a radio blip waits for the home's
    drops to be learned, an outage of hours does not."""
    baselines = _plug_baselines()
    dropped = SET_UP + timedelta(days=1, hours=14)
    for entity_id in (PLUG, PLUG_POWER, LAMP):
        baselines.drops.went_away(entity_id, dropped)
    gone = Finding(
        rule="device_unavailable",
        evidence=(PLUG_POWER, PLUG),
        reasoning="SONOFF 10017f3a2b Power, SONOFF 10017f3a2b (one device) cannot be read.",
        anomaly_type=AnomalyType.DEVICE_MALFUNCTION,
        severity=Severity.MEDIUM,
    )
    # Four hours: a block of scheduled load shedding is still the home's to learn.
    soon = dropped + timedelta(hours=4, minutes=5)
    assert baselines.learning(PLUG, soon)
    assert held_while_learning(gone, baselines, soon, someone_home=True)
    later = dropped + timedelta(hours=6, minutes=1)
    assert not held_while_learning(gone, baselines, later, someone_home=True)
    # A light off at the wall for hours (a bulb's night) still waits for its drops.
    assert held_while_learning(_offline(LAMP), baselines, later, someone_home=True)
