"""A fall on a night trip taken before three hours of the night have passed.

Iris (``test_night_trips``) goes to bed at 22:30 and to the toilet at 03:00 every night.
Tonight she stays up until 00:30 and goes to the toilet at 02:05: two hours and a half
into the night's rest, which began at an hour this home always rests at. She falls there
(bedroom, hall, bathroom, then nothing). Before, only a rest of three hours made a trip
out of it a night trip, and nothing told the fall until morning.

Not told: the same trip when she is still up moving at 02:00 (no rest at all), nor
before the hours are learned (only the length of the rest says then).
"""

from __future__ import annotations

from datetime import timedelta

from custom_components.anomaly_monitor.core.baselines.still_where_last_seen import (
    still_where_last_seen,
)

from .test_daily_rhythm import AREAS, BED
from .test_night_trips import TODAY, _iris, _to_the_bathroom, _view


def test_a_fall_on_a_trip_two_hours_into_the_night_is_told() -> None:
    iris = _iris(up_until=24.5)  # moving until 00:30, then in bed (the bedroom unseen)
    night = TODAY + timedelta(hours=2, minutes=5)
    still = _to_the_bathroom(iris, night)  # 02:11
    assert list(still_where_last_seen(_view(still + timedelta(minutes=39)), iris)) == []
    (finding,) = still_where_last_seen(_view(still + timedelta(minutes=41)), iris)
    assert finding.rule == "still_in_room_far_longer"
    assert "last seen in Bathroom 41 min ago (at 02:11)" in finding.reasoning
    assert "in a room it always leaves within minutes" in finding.reasoning


def test_a_trip_with_no_rest_before_it_is_not_told() -> None:
    iris = _iris(up_until=26.0)  # moving every 15 min until 02:00
    night = TODAY + timedelta(hours=2, minutes=5)
    still = _to_the_bathroom(iris, night)
    for hours in (1, 2, 3):
        assert list(still_where_last_seen(_view(still + timedelta(hours=hours)), iris)) == []


def test_a_rest_after_somebody_was_up_in_the_night_is_no_night() -> None:
    """In bed at midnight, up from 01:30 to 02:00 (a bout longer than a trip: awake, at
    prayer), still from 02:00, to the bathroom at 02:50 and nothing: the rest since 02:00
    began at a rest hour, but somebody was up in those hours before it. It is not the
    night's (fifty minutes), and nothing is told by the bathroom's night."""
    iris = _iris(up_until=24.25)  # moving until midnight, seen last in the bedroom
    for minutes in range(0, 31, 5):
        moment = TODAY + timedelta(hours=1, minutes=30 + minutes)
        iris.observe(moment, BED, "on", AREAS[BED])
        iris.observe(moment + timedelta(minutes=1), BED, "off", AREAS[BED])
    still = _to_the_bathroom(iris, TODAY + timedelta(hours=2, minutes=50))
    for minutes in (41, 61, 90):
        assert list(still_where_last_seen(_view(still + timedelta(minutes=minutes)), iris)) == []
