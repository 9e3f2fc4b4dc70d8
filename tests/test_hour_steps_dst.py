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

from custom_components.anomaly_monitor.core.baselines.clock import hour_start, local, next_hour

from .test_clock_changes import BOTH, ClockChange


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
