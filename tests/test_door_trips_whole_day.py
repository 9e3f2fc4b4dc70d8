"""A WC's afternoon not learned yet, judged by the WC's whole day.

A busy home learns a trip back through a door only when the next sign anywhere is the same
door opening again, so each quarter of the day gains about one trip a day, and a fall
behind the WC door on the fourth afternoon went untold (blind21: two bathroom falls on day
4, the door's morning, evening and night all "back within 5 min", its afternoon two trips
on two days). A quarter that has seen a trip back but is not learned on its own borrows the
door's whole day: ``MIN_TRIPS`` trips back on ``MIN_DAYS`` days over every quarter, the
longest trip and the longest quiet without the way back of any quarter.

Piotr (``test_door_trips``) with two days learned and this morning: the afternoon quarter
has two trips on two days, the day seven on three. Told 20 min after the WC door shut,
saying it was learned at any time of day. Not borrowed: a quarter the door was never
passed and come back through at (the night here), or a day with fewer days than
``MIN_DAYS``; and a door after which the home once went on without anybody coming back
through it, at any hour, stays unjudged.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from custom_components.anomaly_monitor.core.baselines.door_trips import DoorTrips
from custom_components.anomaly_monitor.core.baselines.still_where_last_seen import (
    still_where_last_seen,
    still_where_last_seen_due,
)

from .test_door_trips import HALL, TODAY, WC, ZONE, _afternoon, _piotr, _view


def test_an_afternoon_not_learned_is_judged_by_the_wc_s_whole_day() -> None:
    young = _piotr(days=2)
    shut, events = _afternoon(young, back=False)
    learned = young.door_trips.learned(WC, shut)
    assert learned is not None
    assert learned.whole_day
    assert (learned.trips, learned.days) == (7, 3)  # 2 + 2 + 2 and this morning's
    assert learned.longest == timedelta(minutes=3.9)
    assert still_where_last_seen_due(_view(shut + timedelta(minutes=5), events), young) == (
        shut + timedelta(minutes=20)
    )
    assert list(still_where_last_seen(_view(shut + timedelta(minutes=19), events), young)) == []
    (finding,) = still_where_last_seen(_view(shut + timedelta(minutes=21), events), young)
    assert finding.rule == "still_in_room_far_longer"
    assert "came within 3 min at any time of day (7 times on 3 days)" in finding.reasoning
    # A home of a fortnight judges the afternoon by the afternoon, as before.
    settled = _piotr()
    own = settled.door_trips.learned(WC, TODAY + timedelta(hours=14))
    assert own is not None
    assert not own.whole_day


def _trip(trips: DoorTrips, at: datetime, *, back: bool = True) -> None:
    """The hall, through the WC door; back through it four minutes later (``back``) or
    the hall after ``at`` + 45 min without the way back."""
    trips.sign(at, HALL, "on", door=False)
    trips.sign(at + timedelta(minutes=1), WC, "on", door=True)
    trips.sign(at + timedelta(minutes=1, seconds=6), WC, "off", door=True)
    if back:
        trips.sign(at + timedelta(minutes=5), WC, "on", door=True)
        trips.sign(at + timedelta(minutes=5, seconds=6), WC, "off", door=True)
    else:
        trips.sign(at + timedelta(minutes=45), HALL, "on", door=False)
    trips.sign(at + timedelta(minutes=20), HALL, "on", door=False)


def test_the_whole_day_stands_in_only_for_a_quarter_used_and_keeps_the_longest_quiet() -> None:
    zone = ZoneInfo(ZONE)
    start = TODAY - timedelta(days=3)
    trips = DoorTrips(zone)
    for day in range(3):
        midnight = start + timedelta(days=day)
        _trip(trips, midnight + timedelta(hours=9))
        if day == 0:
            _trip(trips, midnight + timedelta(hours=14))
        _trip(trips, midnight + timedelta(hours=19))
    afternoon = TODAY + timedelta(hours=14)
    learned = trips.learned(WC, afternoon)
    assert learned is not None
    assert learned.whole_day
    assert (learned.trips, learned.days) == (7, 3)
    # The night: never passed and come back through then, nothing to borrow for.
    assert trips.learned(WC, TODAY + timedelta(hours=3)) is None
    # Two days: not learned over the day either.
    two = DoorTrips(zone)
    for day in range(2):
        midnight = start + timedelta(days=day)
        for hour in (9, 14, 19):
            _trip(two, midnight + timedelta(hours=hour))
    assert two.learned(WC, afternoon) is None
    # One evening nobody came back through it for 40 min: borrowed too (the careful side).
    _trip(trips, start + timedelta(days=2, hours=21), back=False)
    learned = trips.learned(WC, afternoon)
    assert learned is not None
    assert learned.left >= timedelta(minutes=40)


def test_the_way_back_is_no_way_out_when_the_way_in_lies_before_the_window() -> None:
    """In at 14:01, back out at 14:05, then quiet at his desk: an analysis whose window
    begins between the two passages reads only the way back, which looks like a way in
    (blind16: told at 1 h 54 min as the window slid past the way in). Not judged."""
    young = _piotr(days=2)
    shut, events = _afternoon(young, back=True)
    later = shut + timedelta(minutes=40)
    assert list(still_where_last_seen(_view(later, events), young)) == []
    begin = shut - timedelta(minutes=1)  # after the way in: the window holds the way back
    inside = [e for e in events if e[0] >= begin]
    sliding = _view(later, inside, start=begin)
    assert list(still_where_last_seen(sliding, young)) == []
