"""A bed's trips: how long it stays empty before whoever left it lies down again.

Learned per bed and quarter of the day: a bed lain on for half an hour and more, left and
lain on again within two hours, is a trip of that many minutes; left for the day (or for
longer than two hours), or lain on only a cat's minute before, it teaches nothing. Stored
and read back, malformed rows dropped.

Judged (``bed_left``, in the night hours only): Nan slides out of bed at 02:50, a minute of
movement in her room, then nothing. With the window showing her mat left and nothing
outside her room since, the wait counts from the mat left: 25 min (the prior) on her first
nights, twice her longest trip and 10 min more once her 8-min trips are learned (20 min at
least); never before 15 min of nothing moving at all (somebody awake in a chair in the room
moves now and then).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.bed_returns import PRIOR, BedReturns
from custom_components.anomaly_monitor.core.models import Transition

from .core_factories import entity
from .lived_home import walked
from .test_bed_left import AREAS, MAT, ROOM, TODAY, _nan, _told

ZONE = ZoneInfo("Asia/Hong_Kong")
BED = "binary_sensor.bed"


def _trip(returns: BedReturns, lain: datetime, left: datetime, back: datetime) -> None:
    returns.bed(lain, BED, on=True)
    returns.bed(left, BED, on=False)
    returns.bed(back, BED, on=True)


def test_trips_back_to_the_same_bed_are_learned_per_quarter() -> None:
    returns = BedReturns(ZONE)
    night = TODAY.replace(tzinfo=ZONE) + timedelta(hours=2)
    for day in range(3):
        lain = night + timedelta(days=day) - timedelta(hours=3)
        left = night + timedelta(days=day)
        _trip(returns, lain, left, left + timedelta(minutes=6 + day))
    learned = returns.learned(BED, night + timedelta(days=4))
    assert learned is not None
    assert (learned.longest, learned.trips, learned.days) == (timedelta(minutes=8), 3, 3)
    assert returns.learned(BED, night + timedelta(hours=8)) is None  # the morning's quarter
    # Twice 8 min and 10 more is under the floor; the morning is no night's trip.
    assert returns.limit(BED, night + timedelta(days=4)) == (timedelta(minutes=20), learned)
    assert returns.limit(BED, night + timedelta(days=4, hours=5, minutes=26)) is None
    assert returns.limit("binary_sensor.other", night) == (PRIOR, None)
    again = BedReturns.from_dict(returns.as_dict(), ZONE)
    assert again.learned(BED, night + timedelta(days=4)) == learned
    assert list(BedReturns.from_dict({BED: [[["x", 1, 1]], [], [], []]}, ZONE).trips[BED][0]) == []


def test_the_day_begun_or_a_cats_minute_teaches_no_trip() -> None:
    returns = BedReturns(ZONE)
    night = TODAY.replace(tzinfo=ZONE) + timedelta(hours=2)
    for day in range(4):
        base = night + timedelta(days=day)
        # Up for the day: lain on again only in the evening.
        _trip(returns, base - timedelta(hours=3), base, base + timedelta(hours=15))
        # A cat's minute on another bed, then off, then on again: nobody lay down first.
        returns.bed(base, "binary_sensor.cat", on=True)
        returns.bed(base + timedelta(minutes=1), "binary_sensor.cat", on=False)
        returns.bed(base + timedelta(minutes=5), "binary_sensor.cat", on=True)
    assert returns.learned(BED, night) is None
    assert returns.trips == {}
    assert list(BedReturns.from_dict({BED: [[[1, -3, 1]], [], [], []]}, ZONE).trips[BED][0]) == []
    assert BedReturns.from_dict("garbage", ZONE).trips == {}


def _slid_out(baselines: HomeBaselines, night: datetime) -> list[Transition]:
    return walked(baselines, night, [(0, MAT, "off"), (0.2, ROOM, "on"), (3, ROOM, "off")], AREAS)


def test_out_of_bed_first_nights_told_25_min_after_the_bed_was_left() -> None:
    baselines = _nan()  # never out of bed at night before: the prior
    night = TODAY + timedelta(hours=2, minutes=50)
    seen = _slid_out(baselines, night)
    assert _told(baselines, night + timedelta(minutes=24), transitions=seen) == []
    (finding,) = _told(baselines, night + timedelta(minutes=26), transitions=seen)
    assert finding.evidence == (MAT, ROOM)
    assert "nobody has lain on it since nor been seen outside its room" in finding.reasoning
    assert "not learned yet, so 25 min is waited (a prior)" in finding.reasoning


def test_her_learned_trips_say_20_min_and_a_stir_in_the_room_waits_15() -> None:
    baselines = _nan(trip=8)  # back in bed within 8 min every night at 02:00
    night = TODAY + timedelta(hours=2, minutes=50)
    seen = _slid_out(baselines, night)
    assert _told(baselines, night + timedelta(minutes=19), transitions=seen) == []
    (finding,) = _told(baselines, night + timedelta(minutes=21), transitions=seen)
    assert "whoever left it was back in it within 8 min" in finding.reasoning
    # Up and moving in her room now and then (awake in the chair): not before 15 min of
    # nothing moving at all.
    baselines = _nan(trip=8)
    seen = _slid_out(baselines, night)
    for minutes in (12, 22):
        for state, offset in (("on", 0.0), ("off", 0.5)):
            when = night + timedelta(minutes=minutes + offset)
            baselines.observe(when, ROOM, state, AREAS[ROOM])
            seen.append(Transition(when, ROOM, state))
    assert _told(baselines, night + timedelta(minutes=30), transitions=seen) == []
    (finding,) = _told(baselines, night + timedelta(minutes=38), transitions=seen)
    assert "whoever left it was back in it within 8 min" in finding.reasoning


def test_a_window_read_shut_as_ha_started_shuts_nobody_in() -> None:
    """Walk 41: HA restarted at 03:39 in the night; every sensor read ``unknown`` then its
    state as it started, the bedroom window ``off`` among them. At 03:40 he got out of bed
    and nothing moved since: the window read shut at HA's start was taken for a door shut
    behind him (``shut_in``), so the bed left was not judged (25 min) and the quiet waited
    for the shut room's 40 min. A reading at a start is nobody shutting anything."""
    window_sensor = "binary_sensor.nan_room_window"
    baselines = _nan()
    baselines.describe_one(
        entity(window_sensor, "off", area=AREAS[MAT], device_class="window").info
    )
    night = TODAY + timedelta(hours=2, minutes=50)
    seen = []
    start = night - timedelta(minutes=1, seconds=23)
    for offset, entity_id, state in [
        (0.0, window_sensor, "unknown"),
        (0.0, MAT, "unknown"),
        (0.02, window_sensor, "off"),
        (0.02, MAT, "on"),
    ]:
        when = start + timedelta(seconds=offset)
        baselines.observe(when, entity_id, state, AREAS[MAT])
        seen.append(Transition(when, entity_id, state))
    seen += _slid_out(baselines, night)
    extra = [entity(window_sensor, "off", area=AREAS[MAT], device_class="window")]
    assert _told(baselines, night + timedelta(minutes=24), transitions=seen, extra=extra) == []
    (finding,) = _told(baselines, night + timedelta(minutes=26), transitions=seen, extra=extra)
    assert "so 25 min is waited (a prior)" in finding.reasoning
