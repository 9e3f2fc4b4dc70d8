"""Hour-by-hour loops over a clock change step in real hours (Berlin, New York, Sydney).

An hour added to a time in a zone moves the clock's face: on the morning the clocks go
forward it lands in the missing hour, which is then judged though nobody lived it; on the
morning they go back it jumps over the repeated hour. Stepping one real hour on the
home's zone (``clock.next_hour``) visits each local hour as it was lived.
"""

from __future__ import annotations

from datetime import UTC, timedelta
from itertools import pairwise
from zoneinfo import ZoneInfo

import pytest

from custom_components.anomaly_monitor.core.baselines.clock import (
    day_number,
    hour_start,
    local,
    next_hour,
)
from custom_components.anomaly_monitor.core.baselines.quiet_spells import MIN_DAYS, QuietSpells

from .test_clock_changes import AUTUMN, BOTH, SPRING, ClockChange


@pytest.mark.parametrize("change", BOTH)
def test_each_hour_lived_is_stepped_once(change: ClockChange) -> None:
    zone = ZoneInfo(change.zone)
    slot = hour_start(local(change.at - timedelta(hours=3), zone))
    lived = [slot]
    while len(lived) < 6:
        lived.append(next_hour(lived[-1]))
    assert [b.astimezone(UTC) - a.astimezone(UTC) for a, b in pairwise(lived)] == [
        timedelta(hours=1)
    ] * 5
    assert [t.utcoffset() for t in lived].count(change.before) == 3  # then the new offset


@pytest.mark.parametrize("change", [pytest.param(c, id=c.zone) for c in SPRING])
def test_a_quiet_spell_across_spring_forward_is_not_judged_by_the_missing_hour(
    change: ClockChange,
) -> None:
    """Still from half an hour before the clocks go forward to half an hour after: the
    hour before the change and the one after it were lived, the skipped one was not (on
    main its usual, the night's longest, was the spell's measure)."""
    zone = ZoneInfo(change.zone)
    quiet = QuietSpells(zone)
    start, end = change.at - timedelta(minutes=30), change.at + timedelta(minutes=30)
    skipped = (change.at - timedelta(minutes=30)).astimezone(zone).hour + 1
    today = day_number(start, zone)
    for hour in range(24):
        for day in range(today - MIN_DAYS - 2, today):
            quiet.maxima[hour].append((day, 600.0 if hour == skipped else 60.0))
    assert quiet.typical_over(start, end) == 60.0


@pytest.mark.parametrize("change", [pytest.param(c, id=c.zone) for c in AUTUMN])
def test_a_quiet_spell_across_the_repeated_hour_is_judged_by_its_hours(
    change: ClockChange,
) -> None:
    zone = ZoneInfo(change.zone)
    quiet = QuietSpells(zone)
    start, end = change.at - timedelta(minutes=90), change.at + timedelta(minutes=30)
    today = day_number(start, zone)
    for hour in range(24):
        for day in range(today - MIN_DAYS - 2, today):
            quiet.maxima[hour].append((day, float(hour)))
    lived = {t.astimezone(zone).hour for t in (start, change.at, end)}
    assert quiet.typical_over(start, end) == float(max(lived))
