"""A load that keeps its hours by itself in an often empty home (core, no Home Assistant):
its run not coming is told while nobody is home; a run that follows the household, or a
load merely left on all week, is not expected of an empty home. The ids say nothing."""

from __future__ import annotations

from datetime import datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.meter_habits import meter_run_missing
from custom_components.anomaly_monitor.core.home import HomeView

from .core_factories import environment, window
from .test_meter_habits import DAY0, PERSON, RELAY, fed, relay


def _empty_from_the_start(baselines: HomeBaselines, day: datetime) -> None:
    if day == DAY0:
        baselines.observe(day, PERSON, "not_home")


def _on_its_humidistat(baselines: HomeBaselines, day: datetime) -> None:
    """Four runs of 2 h 30 a day (01:00, 07:00, 13:00, 19:00), nobody home all week."""
    _empty_from_the_start(baselines, day)
    for start in (1, 7, 13, 19):
        baselines.observe(day + timedelta(hours=start), RELAY, "395")
        baselines.observe(day + timedelta(hours=start, minutes=150), RELAY, "4")


def _left_on(baselines: HomeBaselines, day: datetime) -> None:
    """Drawn around the clock all week (an air conditioner forgotten in an empty house)."""
    _empty_from_the_start(baselines, day)
    for hour in range(0, 24, 2):
        baselines.observe(day + timedelta(hours=hour), RELAY, "910" if hour % 4 else "905")


def _empty(now: datetime, meter_since: datetime) -> HomeView:
    return HomeView(window([relay("4", meter_since)], environment(now, persons_home=0)))


FRIDAY = DAY0 + timedelta(days=4)


def test_a_load_kept_by_its_humidistat_that_stops_in_an_empty_home_is_told() -> None:
    """Monday to Thursday learned with the home empty; on Friday at 03:00 it stops (set 18's
    dehumidifier, its bucket full). Before: nothing was expected of an empty home."""
    baselines = fed(4, each=_on_its_humidistat, until=FRIDAY + timedelta(hours=3))
    baselines.observe(FRIDAY + timedelta(hours=1), RELAY, "395")
    baselines.observe(FRIDAY + timedelta(hours=3), RELAY, "4")
    baselines.advance(FRIDAY + timedelta(hours=10, minutes=5))
    stopped = FRIDAY + timedelta(hours=3)
    early = _empty(FRIDAY + timedelta(hours=8, minutes=30), stopped)
    assert list(meter_run_missing(early, baselines)) == []  # a late start, perhaps
    late = _empty(FRIDAY + timedelta(hours=10, minutes=5), stopped)
    [finding] = meter_run_missing(late, baselines)
    assert finding.evidence == (RELAY,)
    assert "did not come" in finding.reasoning


def test_a_load_left_on_all_week_in_an_empty_home_is_no_habit_kept() -> None:
    """Switched off on Friday (remotely, by its own remote): no run is missing."""
    baselines = fed(4, each=_left_on, until=FRIDAY + timedelta(hours=3))
    baselines.observe(FRIDAY + timedelta(hours=3), RELAY, "4")
    baselines.advance(FRIDAY + timedelta(hours=10, minutes=5))
    late = _empty(FRIDAY + timedelta(hours=10, minutes=5), FRIDAY + timedelta(hours=3))
    assert list(meter_run_missing(late, baselines)) == []
