"""A lock the home always locks within a minute, still unlocked in the hours the home
rests at, is told in minutes, not after an hour; in the daytime and early evening the hour
of everyday use stands, and a home that leaves its lock unlocked longer teaches its own
limit (core, no Home Assistant)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.long_stays import state_longer_than_usual
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityInfo

from .core_factories import entity, environment, window

DAY0 = datetime(2026, 10, 5, tzinfo=UTC)
LOCK = "lock.smart_lock_2"  # an id that says nothing


def _home(days: int, evening_minutes: float) -> HomeBaselines:
    """``days`` days: the lock unlocked a minute at 07:30 and 12:30, and for
    ``evening_minutes`` at 19:00 (the household coming home)."""
    baselines = HomeBaselines(UTC)
    baselines.describe([EntityInfo(LOCK, "Front door", area="Hall")])
    for day in range(days):
        start = DAY0 + timedelta(days=day)
        for at, minutes in ((7.5, 1.0), (12.5, 1.0), (19.0, evening_minutes)):
            baselines.observe(start + timedelta(hours=at), LOCK, "unlocked")
            baselines.observe(start + timedelta(hours=at, minutes=minutes), LOCK, "locked")
    return baselines


def _told(baselines: HomeBaselines, since: datetime, after: timedelta) -> list[str]:
    unlocked = replace(entity(LOCK, "unlocked", area="Hall"), last_changed=since)
    home = HomeView(window((unlocked,), environment(since + after)))
    return [f.reasoning for f in state_longer_than_usual(home, baselines)]


def test_a_lock_always_locked_at_once_left_unlocked_at_bedtime_is_told_in_minutes() -> None:
    """No quiet learned yet: the home rests at night (from 22:00)."""
    baselines = _home(7, 1.0)
    evening = DAY0 + timedelta(days=7, hours=22, minutes=40)
    assert _told(baselines, evening, timedelta(minutes=15)) == []
    (told,) = _told(baselines, evening, timedelta(minutes=21))
    assert "unlocked for 21 min, since 22:40" in told
    going_to_bed = DAY0 + timedelta(days=7, hours=21, minutes=15)  # an hour before rest
    assert len(_told(baselines, going_to_bed, timedelta(minutes=21))) == 1
    night = DAY0 + timedelta(days=8, hours=1, minutes=25)
    assert len(_told(baselines, night, timedelta(minutes=21))) == 1


def test_in_the_daytime_and_early_evening_an_hour_of_everyday_use_stands() -> None:
    baselines = _home(7, 1.0)
    for start in (timedelta(hours=12, minutes=40), timedelta(hours=18, minutes=35)):
        moment = DAY0 + timedelta(days=7) + start
        assert _told(baselines, moment, timedelta(minutes=45)) == []  # guests arriving
        assert len(_told(baselines, moment, timedelta(minutes=61))) == 1


def test_a_home_that_leaves_it_unlocked_in_the_evening_teaches_its_own_limit() -> None:
    """Unlocked 15 min every evening: judged at three times that, 45 min."""
    baselines = _home(7, 15.0)
    evening = DAY0 + timedelta(days=7, hours=22)
    assert _told(baselines, evening, timedelta(minutes=40)) == []
    assert len(_told(baselines, evening, timedelta(minutes=46))) == 1
