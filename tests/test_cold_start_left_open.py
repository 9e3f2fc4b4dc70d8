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
    baselines.observe(now - timedelta(hours=2), GARAGE, "on")  # and open still
    pushed = not_held([entry, garage], baselines, now, someone_home=False)
    assert [f.rule for f in pushed] == ["entry_unsecured_while_away", "entry_left_open"]
    assert "still being learned" in pushed[1].reasoning


def test_a_garage_shut_again_after_an_hour_waits_for_its_normal() -> None:
    """Snow cleared on the first morning: the garage door open 05:22-06:24, told at 06:27
    as "stayed open for 62 min". Shut again, it no longer stands open: it waits."""
    now = SET_UP + timedelta(hours=6, minutes=27)
    baselines = _fresh()
    baselines.observe(SET_UP + timedelta(hours=5, minutes=22), GARAGE, "on")
    baselines.observe(SET_UP + timedelta(hours=6, minutes=24), GARAGE, "off")
    assert not_held([_left_open(GARAGE, 62)], baselines, now, someone_home=True) == []


HALL = "binary_sensor.hall_door"
PERSON = "person.mother"


def _home_emptied() -> HomeBaselines:
    """The bedroom door open since the morning; mother leaves by the hall door at 08:00."""
    baselines = _fresh()
    baselines.describe_one(EntityInfo(HALL, "", area="Hall", device_class="door"))
    baselines.describe_one(EntityInfo(PERSON, ""))
    baselines.watching({HALL: "Hall", PERSON: None}, SET_UP)
    baselines.observe(SET_UP, PERSON, "home")
    baselines.observe(SET_UP + timedelta(hours=6), BEDROOM, "on")
    baselines.observe(SET_UP, HALL, "off")
    baselines.observe(SET_UP + timedelta(hours=7, minutes=55), HALL, "on")
    baselines.observe(SET_UP + timedelta(hours=7, minutes=56), HALL, "off")
    baselines.observe(SET_UP + timedelta(hours=8), PERSON, "not_home")
    return baselines


def test_a_door_opened_in_the_empty_home_and_left_open_for_an_hour_is_pushed() -> None:
    # Fails before: every door "left open" while nobody is home waited for its normal.
    baselines = _home_emptied()
    opened = SET_UP + timedelta(hours=13, minutes=45)  # the schoolboy without a tracked phone
    baselines.observe(opened, HALL, "on")
    now = opened + timedelta(minutes=70)
    assert baselines.learning(HALL, now)
    pushed = not_held([_left_open(HALL, 70)], baselines, now, someone_home=False)
    assert [f.evidence for f in pushed] == [(HALL,)]
    assert "still being learned" in pushed[0].reasoning
    # Not before the hour, and not with somebody home to close it.
    assert not_held([_left_open(HALL, 40)], baselines, now, someone_home=False) == []
    assert not_held([_left_open(HALL, 70)], baselines, now, someone_home=True) == []


def test_a_door_standing_open_since_before_everybody_left_still_waits() -> None:
    baselines = _home_emptied()
    now = SET_UP + timedelta(hours=17)
    assert not_held([_left_open(BEDROOM, 11 * 60)], baselines, now, someone_home=False) == []


def test_a_door_the_household_did_not_leave_by_opened_in_the_empty_home_waits() -> None:
    """The bedroom door, shut when mother left by the hall door, opened by somebody the
    trackers do not know is home (a lodger getting up) and standing open: an interior
    door, as every day, not somebody coming in."""
    baselines = _home_emptied()
    baselines.observe(SET_UP + timedelta(hours=9), BEDROOM, "off")
    baselines.observe(SET_UP + timedelta(hours=9, minutes=30), PERSON, "home")
    baselines.observe(SET_UP + timedelta(hours=10), PERSON, "not_home")
    opened = SET_UP + timedelta(hours=12)
    baselines.observe(opened, BEDROOM, "on")
    now = opened + timedelta(minutes=70)
    assert not_held([_left_open(BEDROOM, 70)], baselines, now, someone_home=False) == []
