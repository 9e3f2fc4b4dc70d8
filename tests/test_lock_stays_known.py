"""A lock turned often enough in its first days is judged by its own stays at once.

Set 32 (Pittsburgh): the front door's lock, locked again within a minute twenty-six times
by the third evening, was left unlocked after a visit at 19:50; "unlocked 1 h, usually at
most 55 s" was held by the learning gate until the fourth day began. A lock turned often
enough has its own normal known; a lock turned a few times waits as before.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.learning_gate import held_while_learning
from custom_components.anomaly_monitor.core.lock_stays_known import KNOWN_STAYS
from custom_components.anomaly_monitor.core.models import EntityInfo, Finding, Severity

LOCK = "lock.front_door"
DOOR = "binary_sensor.front_door"
SET_UP = datetime(2026, 11, 2, 8, 0, tzinfo=UTC)


def _turned(times: int) -> tuple[HomeBaselines, datetime]:
    """A lock unlocked ``times`` times for 40 s each, hourly from set-up; its last unlock."""
    baselines = HomeBaselines(UTC)
    baselines.describe([EntityInfo(LOCK, "Front door", area="Hall")])
    baselines.watching([LOCK], SET_UP)
    durations = baselines.durations
    durations.state(LOCK, "locked", SET_UP)
    when = SET_UP
    for k in range(times):
        when = SET_UP + timedelta(hours=k + 1)
        durations.state(LOCK, "unlocked", when)
        durations.state(LOCK, "locked", when + timedelta(seconds=40))
    last = when + timedelta(hours=1)
    durations.state(LOCK, "unlocked", last)
    return baselines, last


def _long_stay(rule: str = "state_longer_than_usual") -> Finding:
    return Finding(
        rule,
        (LOCK, DOOR),
        "Front door has been unlocked for 1 h 00 min; usually at most 1 min.",
        "security",
        Severity.MEDIUM,
    )


def test_a_lock_turned_often_is_judged_by_its_stays_in_its_first_days() -> None:
    baselines, last = _turned(KNOWN_STAYS + 6)
    now = last + timedelta(hours=1)
    assert baselines.learning(LOCK, now)  # its days are still being learned
    assert not held_while_learning(_long_stay(), baselines, now, someone_home=True)
    assert not held_while_learning(
        _long_stay("unlocked_while_asleep"), baselines, now, someone_home=True
    )


def test_a_lock_turned_a_few_times_waits_and_so_do_other_rules() -> None:
    baselines, last = _turned(KNOWN_STAYS - 2)
    now = last + timedelta(hours=1)
    assert held_while_learning(_long_stay(), baselines, now, someone_home=True)
    # Another rule about the same lock asks more than its stays: it waits.
    often, last = _turned(KNOWN_STAYS + 6)
    other = _long_stay("entry_at_an_unused_hour")
    assert held_while_learning(other, often, last + timedelta(hours=1), someone_home=True)
