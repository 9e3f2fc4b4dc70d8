"""By day, a fall in a room this home always leaves within minutes, judged by that room.

Ada lives alone (a fortnight learned): by day a sensor sees her every 15 minutes, the
hall's among them, and every afternoon she reads in the bedroom from 14:00 to 15:10 (no
sensor sees her turn a page). So the home's usual longest quiet in the early afternoon is
70 minutes, and the hours alone would wait three and a half hours. But after the hall this
home was never quiet for more than a quarter of an hour, at any time of day: a hall is no
place to stay. An afternoon she falls in the hall (13:00, then nothing) is told an hour
after her last movement. The same quiet after the bedroom, where she stays an hour and
more, is judged by the hours still; and so is a hall whose afternoons are not learned
yet, and the hall's quiet while somebody else is home too.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.passing_room import passing_room_limit
from custom_components.anomaly_monitor.core.baselines.still_home import NEAR
from custom_components.anomaly_monitor.core.baselines.still_where_last_seen import (
    still_where_last_seen,
    still_where_last_seen_due,
)
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import Environment

from .core_factories import entity, window
from .test_daily_rhythm import AREAS, ATTRIBUTES, BATH, BED, DOOR, HALL, ROSE, ZONE, _info

TODAY = datetime(2026, 3, 2, tzinfo=ZoneInfo(ZONE))  # a Monday, local midnight
DAYS = 14
READING = (14.0, 15 + 10 / 60)  # hours: in the bedroom, still


def _ada(days: int = DAYS, *, afternoons: bool = True, odd_day: int | None = None) -> HomeBaselines:
    """``days`` of Ada's days before ``TODAY``; ``afternoons``: she is home after noon;
    ``odd_day``: that day, after the hall at 16:45, nothing moved for 45 min."""
    baselines = HomeBaselines(ZoneInfo(ZONE))
    baselines.describe(_info(e) for e in ATTRIBUTES)
    start = TODAY - timedelta(days=days)
    baselines.watching(ATTRIBUTES, start)
    baselines.observe(start, ROSE, "home")
    sensors = (BED, HALL, BATH)
    for day in range(days):
        midnight = start + timedelta(days=day)
        moment = 7.0
        while moment < 22.5:
            if not afternoons and 12.0 <= moment < 18.0:
                moment = 18.0
            reading = READING[0] <= moment < READING[1]
            if day == odd_day and 16.75 < moment < 17.5:
                moment += 0.25  # the hall at 16:45, then 45 min still
                continue
            if not reading or moment == READING[0]:
                sensor = BED if moment == READING[0] else sensors[int(moment * 4) % 3]
                at = midnight + timedelta(hours=moment)
                baselines.observe(at, sensor, "on", AREAS[sensor])
                baselines.observe(at + timedelta(minutes=1), sensor, "off", AREAS[sensor])
            moment += 0.25
        bedtime = midnight + timedelta(hours=22.5)
        baselines.observe(bedtime, BED, "on", AREAS[BED])
        baselines.observe(bedtime + timedelta(minutes=1), BED, "off", AREAS[BED])
    return baselines


def _seen_last(baselines: HomeBaselines, sensor: str, at: datetime) -> datetime:
    """A sign in ``sensor``'s room at ``at``, nothing after: her last movement."""
    baselines.observe(at, sensor, "on", AREAS[sensor])
    baselines.observe(at + timedelta(minutes=1), sensor, "off", AREAS[sensor])
    return at + timedelta(minutes=1)


def _view(now: datetime, persons_home: int = 1) -> HomeView:
    states = [
        entity(e, "off", area=AREAS[e], device_class="door" if e == DOOR else "motion")
        for e in (BED, HALL, BATH, DOOR)
    ]
    states.append(entity(ROSE, "home"))
    env = Environment(local_time=now, persons_home=persons_home, persons_total=2)
    return HomeView(window(states, env, []))


def test_a_fall_in_the_hall_by_day_is_told_an_hour_after_it() -> None:
    baselines = _ada()
    fall = TODAY + timedelta(hours=13)
    still = _seen_last(baselines, HALL, fall)  # 13:01
    assert still_where_last_seen_due(_view(fall + timedelta(minutes=10)), baselines) == (
        still + timedelta(hours=1)  # a quarter of an hour learned after the hall: the floor
    )
    assert list(still_where_last_seen(_view(still + timedelta(minutes=59)), baselines)) == []
    (finding,) = still_where_last_seen(_view(still + timedelta(minutes=61)), baselines)
    assert finding.rule == "still_in_room_far_longer"
    assert finding.evidence == (HALL,)
    # With two home, whoever was seen last in the hall may be with the other, unseen.
    two = _view(still + timedelta(minutes=61), persons_home=2)
    assert list(still_where_last_seen(two, baselines)) == []
    assert "last seen in Hall 1 h 01 min ago (at 13:01)" in finding.reasoning
    assert (
        "after somebody was in Hall it was never quiet for longer than 15 min (98 times on "
        "14 days): no place to stay, so the room judges it." in finding.reasoning
    )


def test_a_room_she_stays_in_and_a_hall_not_learned_are_judged_by_the_hours() -> None:
    # After the bedroom she reads for 70 min every afternoon: the hours judge it (3 x 70).
    baselines = _ada()
    still = _seen_last(baselines, BED, TODAY + timedelta(hours=13))
    assert passing_room_limit(_view(still), baselines, AREAS[BED], still, NEAR) is None
    for hours in (1, 2, 3):
        assert list(still_where_last_seen(_view(still + timedelta(hours=hours)), baselines)) == []
    # The hall's afternoons never learned (she is out after noon): not judged by the hall.
    away = _ada(afternoons=False)
    still = _seen_last(away, HALL, TODAY + timedelta(hours=14, minutes=30))
    assert passing_room_limit(_view(still), away, AREAS[HALL], still, NEAR) is None
    # One odd afternoon does not make lying in the hall normal: the usual day judges it.
    odd = _ada(odd_day=DAYS - 3)
    learned = odd.room_quiet.learned(AREAS[HALL], TODAY + timedelta(hours=17))
    assert learned is not None
    assert learned.longest == timedelta(minutes=45)
    five = TODAY + timedelta(hours=17)
    limit = passing_room_limit(_view(five), odd, AREAS[HALL], five, NEAR)
    assert limit == timedelta(hours=1)  # not 1.5 x 45 min
