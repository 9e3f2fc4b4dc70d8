"""A lock left unlocked at bedtime is told in the night once it has stayed unlocked longer
than it ever has here, though one long evening of use tripled the day's margin (core, no
Home Assistant)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.long_stays import state_longer_than_usual
from custom_components.anomaly_monitor.core.baselines.unlocked_at_rest import (
    unlocked_while_asleep,
)
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityInfo, EntityState

from .core_factories import entity, environment, window

DAY0 = datetime(2026, 10, 26, tzinfo=UTC)
LOCK = "lock.z_wave_lock_3"  # an id that says nothing
MOTION = "binary_sensor.hue_motion_sensor_1_motion"


def _home(days: int, *, party: bool = True, overnight: bool = False) -> HomeBaselines:
    """``days`` days: the lock unlocked 3 min at 07:30, 16:40 and 18:00; movement every
    10 min from 07:00 to 23:00. One evening (day 2) unlocked 3 h 15 min: trick-or-treat.
    ``overnight``: a household that leaves the door unlocked from 21:00 to 07:00."""
    baselines = HomeBaselines(UTC)
    baselines.describe(
        [
            EntityInfo(LOCK, "Front Door Deadbolt", area="Entry"),
            EntityInfo(MOTION, "Hall motion", area="Entry", device_class="motion"),
        ]
    )
    for day in range(days):
        start = DAY0 + timedelta(days=day)
        baselines.observe(start, LOCK, "unlocked" if overnight and day else "locked")
        if overnight:
            baselines.observe(start + timedelta(hours=7), LOCK, "locked")
        for hour, minute in ((7, 30), (16, 40), (18, 0)):
            moment = start + timedelta(hours=hour, minutes=minute)
            baselines.observe(moment, LOCK, "unlocked")
            length = 195 if party and day == 2 and hour == 18 else 3
            baselines.observe(moment + timedelta(minutes=length), LOCK, "locked")
        if overnight:
            baselines.observe(start + timedelta(hours=21), LOCK, "unlocked")
        for step in range(7 * 6, 23 * 6):
            baselines.observe(start + timedelta(minutes=10 * step), MOTION, "on")
            baselines.observe(start + timedelta(minutes=10 * step + 1), MOTION, "off")
    return baselines


def _view(now: datetime, lock: EntityState) -> HomeView:
    motion = replace(
        entity(MOTION, "off", area="Entry", device_class="motion"),
        last_changed=now - timedelta(hours=3),
    )
    return HomeView(window([lock, motion], environment(now, persons_home=2)))


def test_unlocked_at_bedtime_is_told_in_the_night_beyond_its_longest_stay() -> None:
    baselines = _home(6)
    night = DAY0 + timedelta(days=6)
    unlocked = night - timedelta(hours=2, minutes=40)  # 21:20, forgotten
    baselines.observe(unlocked, LOCK, "unlocked")
    baselines.observe(night - timedelta(hours=1), MOTION, "on")  # the last one to bed
    baselines.observe(night - timedelta(hours=1) + timedelta(minutes=1), MOTION, "off")
    lock = replace(entity(LOCK, "unlocked", area="Entry"), last_changed=unlocked)
    # 00:30: unlocked 3 h 10 min, not longer than the trick-or-treat evening: not yet.
    early = night + timedelta(minutes=30)
    assert list(unlocked_while_asleep(_view(early, lock), baselines)) == []
    # 01:30: longer than ever, the household asleep since 23:01: told; the day's margin
    # (three times the evening) would wait until 07:05.
    late = night + timedelta(hours=1, minutes=30)
    [finding] = unlocked_while_asleep(_view(late, lock), baselines)
    assert finding.evidence == (LOCK,)
    assert "asleep since 23:01" in finding.reasoning
    assert "never stayed unlocked longer than 3 h 15 min" in finding.reasoning
    assert list(state_longer_than_usual(_view(late, lock), baselines)) == []
    # Unlocked in the night (someone came home at 01:00): not this check's business.
    back = replace(lock, last_changed=night + timedelta(hours=1))
    baselines.durations.current[LOCK] = ("unlocked", night + timedelta(hours=1))
    assert list(unlocked_while_asleep(_view(late, back), baselines)) == []


def test_a_household_that_leaves_the_door_unlocked_overnight_is_not_told() -> None:
    baselines = _home(6, overnight=True)
    night = DAY0 + timedelta(days=6)
    unlocked = night - timedelta(hours=3)
    baselines.observe(unlocked, LOCK, "unlocked")
    lock = replace(entity(LOCK, "unlocked", area="Entry"), last_changed=unlocked)
    assert list(unlocked_while_asleep(_view(night + timedelta(hours=3), lock), baselines)) == []


def test_a_few_stays_at_any_hour_are_enough_to_know_it_is_never_unlocked_long() -> None:
    """Two days: six 3-min stays, too few for any quarter of the day (nor the day-time
    check's pooled ten); unlocked since 21:20 and asleep past midnight: told."""
    baselines = _home(2)
    night = DAY0 + timedelta(days=2)
    unlocked = night - timedelta(hours=2, minutes=40)
    baselines.observe(unlocked, LOCK, "unlocked")
    baselines.observe(night - timedelta(hours=1), MOTION, "on")
    lock = replace(entity(LOCK, "unlocked", area="Entry"), last_changed=unlocked)
    late = night + timedelta(minutes=30)
    assert baselines.durations.longest(LOCK, "unlocked", unlocked) is None
    [finding] = unlocked_while_asleep(_view(late, lock), baselines)
    assert "(learned from 6 stays)" in finding.reasoning
