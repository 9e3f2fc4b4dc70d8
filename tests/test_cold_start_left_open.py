"""A door "left open" for hours while nobody is home waits for its normal at cold start
(``core.learning_gate``).

Day one, the nurse's bedroom door stands open from midnight on as every day, and she is
at work: "stayed open for 17 h" is how that interior door lives, not an entry into the
empty home (the while-away rules tell those, and are still pushed at once). A door that
opens while nobody is home is pushed; a garage door open for hours is too.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.learning_gate import not_held
from custom_components.anomaly_monitor.core.models import (
    AnomalyType,
    EntityInfo,
    Finding,
    Severity,
)

SET_UP = datetime(2026, 1, 12, tzinfo=UTC)
BEDROOM = "binary_sensor.bedroom_door"
GARAGE = "binary_sensor.garage_door"


def _fresh() -> HomeBaselines:
    baselines = HomeBaselines(UTC)
    baselines.describe(
        [
            EntityInfo(BEDROOM, "", area="Bedroom", device_class="door"),
            EntityInfo(GARAGE, "", area="Garage", device_class="garage_door"),
        ]
    )
    baselines.watching({BEDROOM: "Bedroom", GARAGE: "Garage"}, SET_UP)
    return baselines


def _left_open(door: str, minutes: float) -> Finding:
    return Finding(
        "entry_left_open",
        (door,),
        f"{door} stayed open for {minutes:.0f} min.",
        AnomalyType.SECURITY,
        Severity.MEDIUM,
        magnitude=minutes,
    )


def test_a_door_left_open_while_nobody_is_home_waits_for_its_normal() -> None:
    now = SET_UP + timedelta(hours=17)
    baselines = _fresh()
    assert baselines.learning(BEDROOM, now)
    assert not_held([_left_open(BEDROOM, 17 * 60)], baselines, now, someone_home=False) == []
    assert not_held([_left_open(BEDROOM, 17 * 60)], baselines, now, someone_home=True) == []


def test_an_entry_while_away_and_a_garage_open_for_hours_are_still_pushed() -> None:
    now = SET_UP + timedelta(hours=17)
    baselines = _fresh()
    entry = Finding(
        "entry_unsecured_while_away",
        (BEDROOM,),
        "Bedroom door is open while nobody is home.",
        AnomalyType.SECURITY,
        Severity.HIGH,
        while_away=True,
    )
    garage = _left_open(GARAGE, 120)
    pushed = not_held([entry, garage], baselines, now, someone_home=False)
    assert [f.rule for f in pushed] == ["entry_unsecured_while_away", "entry_left_open"]
    assert "still being learned" in pushed[1].reasoning
