"""A door opened at night minutes before its every-morning use is an early start (set 29 d:
the dawn prayer at the mosque at 05:05 every day, one day at 04:59)."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from custom_components.anomaly_monitor.core.baselines.early_start import early_start
from custom_components.anomaly_monitor.core.baselines.home_baselines import HomeBaselines
from custom_components.anomaly_monitor.core.models import EntityInfo

ZONE = ZoneInfo("Africa/Dar_es_Salaam")
DOOR = "binary_sensor.front_door"
START = datetime(2026, 7, 13, tzinfo=ZONE)


def _door_at(days: int, hour: int, minute: int) -> HomeBaselines:
    """The front door opened and shut at ``hour:minute`` on each of ``days`` days."""
    baselines = HomeBaselines(ZONE)
    baselines.describe([EntityInfo(DOOR, "Front door", area="Hall", device_class="door")])
    baselines.watching([DOOR], START)
    baselines.observe(START, DOOR, "off")
    for day in range(days):
        at = START + timedelta(days=day, hours=hour, minutes=minute)
        baselines.observe(at, DOOR, "on")
        baselines.observe(at + timedelta(seconds=20), DOOR, "off")
    return baselines


def test_minutes_before_the_dawn_habit_is_an_early_start() -> None:
    baselines = _door_at(7, 5, 5)
    today = START + timedelta(days=7)
    baselines.advance(today + timedelta(hours=4, minutes=59))
    assert early_start(baselines, DOOR, today + timedelta(hours=4, minutes=59))
    assert not early_start(baselines, DOOR, today + timedelta(hours=4, minutes=20))
    assert not early_start(baselines, DOOR, today + timedelta(hours=2, minutes=10))


def test_one_morning_is_no_habit_and_today_does_not_count() -> None:
    baselines = _door_at(1, 5, 5)
    today = START + timedelta(days=7)
    assert not early_start(baselines, DOOR, today + timedelta(hours=4, minutes=59))
    again = _door_at(0, 5, 5)
    for minutes in (0, 3):  # twice today at 05:00 and 05:03: no days before
        at = today + timedelta(hours=5, minutes=minutes)
        again.observe(at, DOOR, "on")
        again.observe(at + timedelta(seconds=20), DOOR, "off")
    assert not early_start(again, DOOR, today + timedelta(hours=4, minutes=59))
