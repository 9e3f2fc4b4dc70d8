"""The home benchmark counts a notice whose day ran out while HA was down as expired,
not lost (blind14's Depok home: an "Over:" notice from the day before, forgotten at the
restart after a 150-min power cut, was scored "lost 2")."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from benchmark_replay.home.observer import Cleared
from benchmark_replay.home.restart_loss import expired_while_down

NOW = datetime(2027, 2, 1, 11, 10, tzinfo=UTC)


def test_an_over_notice_past_its_day_is_expired_not_lost() -> None:
    cleared = [Cleared(NOW - timedelta(hours=25), "abc123", "resolved")]
    gone = ["anomaly_monitor_entry1_abc123", "anomaly_entry1_abc123"]
    assert expired_while_down(gone, cleared, NOW) == set(gone)


def test_a_notice_within_its_day_or_still_open_is_lost() -> None:
    cleared = [
        Cleared(NOW - timedelta(hours=5), "recent", "resolved"),
        Cleared(NOW - timedelta(days=3), "marked", "false_alarm"),
    ]
    gone = [
        "anomaly_monitor_entry1_recent",  # over 5 h ago: still within its day
        "anomaly_monitor_entry1_marked",  # cleared as a false alarm, not over
        "anomaly_monitor_entry1_open",  # never over
    ]
    assert expired_while_down(gone, cleared, NOW) == set()
