"""A past moment in a notice, as the homeowner reads it (the walk of session 31: "since
Fri 08:31" read on that Friday)."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from custom_components.anomaly_monitor.core.baselines.clock import moment_text

NORONHA = ZoneInfo("America/Noronha")  # UTC-2
NOW = datetime(2026, 12, 4, 10, 47, tzinfo=UTC)  # Fri 08:47 at home


def test_today_is_said_by_its_time_alone() -> None:
    assert moment_text(datetime(2026, 12, 4, 10, 31, tzinfo=UTC), NOW, NORONHA) == "08:31"
    # Today on the home's clock, yesterday in UTC.
    assert moment_text(datetime(2026, 12, 4, 2, 30, tzinfo=UTC), NOW, NORONHA) == "00:30"


def test_the_days_before_by_weekday_then_by_date() -> None:
    assert moment_text(datetime(2026, 12, 4, 1, 30, tzinfo=UTC), NOW, NORONHA) == "Thu 23:30"
    assert moment_text(datetime(2026, 11, 28, 10, 0, tzinfo=UTC), NOW, NORONHA) == "Sat 08:00"
    # A week back and more: a weekday alone would name today's.
    assert moment_text(datetime(2026, 11, 27, 10, 0, tzinfo=UTC), NOW, NORONHA) == "27 Nov 08:00"
