"""Out of bed in the night to the bathroom, and still there: her stirring on the floor is her.

Nan (a week learned) sleeps with a mat under her mattress; every night at 02:00 she gets up,
is seen in her room, in the bathroom two minutes later, and is back in bed after eight: the
bathroom at night is left within minutes. By day she goes there too and is seen elsewhere
soon after. The night she slips in the bathroom at 02:50 (the mat empty, her room, the
bathroom, then only the bathroom's sensor seeing an arm move at 03:20) is told 20 min after
she left her bed (her own trips: back within 8 min every night; ``bed_returns``), naming
the mat and the bathroom; before, each stir started the quiet again and the rhythm's night
(a dog's yard sensor, a late taxi driver) hid the trip. Her first nights (no trips
learned yet) are judged by the prior, 25 min from the mat left.

Not told: the same trip back in bed; somebody else about in the house since (the son in
the hall: nobody knows who is where); a room people sit in for hours at night (the living
room); before the 20 min.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.bed_trip import bed_trip
from custom_components.anomaly_monitor.core.baselines.still_where_last_seen import (
    still_where_last_seen,
    still_where_last_seen_due,
)
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import Environment, Finding, Transition

from .core_factories import entity, window

ZONE = "Europe/Dublin"
MAT = "binary_sensor.nan_bed_mat"
ROOM = "binary_sensor.nan_room_motion"
BATH = "binary_sensor.bathroom_motion"
HALL = "binary_sensor.hall_motion"
LIVING = "binary_sensor.living_room_motion"
YARD = "binary_sensor.yard_motion"
SON = "person.son"
AREAS = {
    MAT: "Nan's room",
    ROOM: "Nan's room",
    BATH: "Bathroom",
    HALL: "Hall",
    LIVING: "Living room",
    YARD: "Yard",
}
CLASSES = {e: "occupancy" if e == MAT else "motion" for e in AREAS}
TODAY = datetime(2026, 11, 17, tzinfo=ZoneInfo(ZONE))  # local midnight
DAYS = 7


def _nan(days: int = DAYS, nap: bool = False, bath: bool = False) -> HomeBaselines:
    """``days`` before ``TODAY``: a toilet trip at 02:00, up at 07:00, about the house by day
    (the bathroom left within minutes, the living room for an hour's film), bed at 22:00;
    with ``nap``, an hour on her bed after lunch (13:00); with ``bath``, an hour's bath at
    20:00 the evening before."""
    baselines = HomeBaselines(ZoneInfo(ZONE))
    baselines.describe(entity(e, "off", area=AREAS[e], device_class=CLASSES[e]).info for e in AREAS)
    start = TODAY - timedelta(days=days)
    baselines.watching(AREAS, start)
    baselines.observe(start, SON, "home")
    events: list[tuple[datetime, str, str]] = []
    for day in range(days):
        midnight = start + timedelta(days=day)

        def at(minutes: float, entity_id: str, state: str, base: datetime = midnight) -> None:
            events.append((base + timedelta(minutes=minutes), entity_id, state))

        for minutes, entity_id, state in [
            (120, MAT, "off"),
            (120.5, ROOM, "on"),
            (122, BATH, "on"),
            (123, ROOM, "off"),
            (126, BATH, "off"),
            (128, MAT, "on"),  # back in bed
            (420, MAT, "off"),
            (420.5, ROOM, "on"),
            (423, ROOM, "off"),
        ]:
            at(minutes, entity_id, state)
        moment, sensors = 425.0, (BATH, HALL, LIVING, ROOM)
        while moment < 1310:  # about the house every 10 min
            sensor = sensors[int(moment // 10) % 4]
            napping = nap and 770 <= moment < 850
            bathing = bath and day == days - 1 and 1195 <= moment < 1265
            if not napping and not bathing:
                at(moment, sensor, "on")
                at(moment + 1.5, sensor, "off")
            moment += 10
        if nap:
            at(775, ROOM, "on")
            at(780, MAT, "on")
            at(840, MAT, "off")
            at(840.5, ROOM, "on")
        if bath and day == days - 1:
            at(1200, BATH, "on")
            at(1201, BATH, "off")
        at(1315, ROOM, "on")
        at(1320, MAT, "on")  # to bed
        at(1321, ROOM, "off")
    for when, entity_id, state in sorted(events):
        baselines.observe(when, entity_id, state, AREAS.get(entity_id))
    return baselines


# Out of bed at 02:50, her room, the bathroom at 02:52, a stir there at 03:20.
SLIP = [(0, MAT, "off"), (0.3, ROOM, "on"), (2, BATH, "on"), (3, ROOM, "off"), (6, BATH, "off")]
STIR = [(30, BATH, "on"), (31, BATH, "off")]


def _night(baselines: HomeBaselines, steps: list[tuple[float, str, str]]) -> list[Transition]:
    night = TODAY + timedelta(hours=2, minutes=50)
    seen = []
    for minutes, entity_id, state in steps:
        when = night + timedelta(minutes=minutes)
        baselines.observe(when, entity_id, state, AREAS.get(entity_id))
        seen.append(Transition(when, entity_id, state))
    return seen


def _view(now: datetime, seen: list[Transition], *, mat: str = "off") -> HomeView:
    states = [
        entity(e, mat if e == MAT else "off", area=AREAS[e], device_class=CLASSES[e]) for e in AREAS
    ]
    states.append(entity(SON, "home"))
    env = Environment(local_time=now, persons_home=1, persons_total=1)
    return HomeView(window(states, env, [t for t in seen if t.when <= now]))


def _told(baselines: HomeBaselines, now: datetime, seen: list[Transition]) -> list[Finding]:
    baselines.advance(now)
    return list(still_where_last_seen(_view(now, seen), baselines))


def test_a_slip_in_the_bathroom_is_told_20_min_after_she_left_her_bed() -> None:
    baselines = _nan()
    seen = _night(baselines, SLIP)
    left = TODAY + timedelta(hours=2, minutes=50)
    due = still_where_last_seen_due(_view(left + timedelta(minutes=12), seen), baselines)
    assert due == left + timedelta(minutes=20)  # twice her longest trip, 10 min more
    assert _told(baselines, left + timedelta(minutes=19), seen) == []
    (finding,) = _told(baselines, left + timedelta(minutes=21), seen)
    assert finding.rule == "still_in_room_far_longer"
    assert finding.evidence == (BATH, MAT)
    assert "has been in Bathroom for 19 min (since 02:52), seen nowhere else" in finding.reasoning
    assert "Nan Bed Mat was left at 02:50 and nobody has lain on it since" in finding.reasoning
    assert "whoever left it was back in it within 8 min (6 times on 6 days)" in finding.reasoning
    # Her stir on the floor at 03:20 is her: still told after it.
    baselines = _nan()
    seen = _night(baselines, SLIP + STIR)
    (finding,) = _told(baselines, left + timedelta(minutes=33), seen)
    assert "has been in Bathroom for 31 min" in finding.reasoning


def test_her_first_nights_are_judged_by_the_prior() -> None:
    baselines = _nan()
    baselines.bed_exits.returns.trips.clear()  # a new install: no trip of hers learned
    seen = _night(baselines, SLIP)
    left = TODAY + timedelta(hours=2, minutes=50)
    baselines.advance(left + timedelta(minutes=12))
    trip = bed_trip(_view(left + timedelta(minutes=12), seen), baselines)
    assert trip is not None
    assert trip.by_trips
    assert trip.trips is None
    assert trip.arrived + trip.limit == left + timedelta(minutes=25)
    (finding,) = _told(baselines, left + timedelta(minutes=26), seen)
    assert "not learned yet, so 25 min is waited (a prior)" in finding.reasoning


def test_back_in_bed_somebody_else_about_or_a_room_sat_in_is_no_such_stay() -> None:
    later = TODAY + timedelta(hours=3, minutes=40)
    # Back in bed after the bathroom: asleep.
    baselines = _nan()
    seen = _night(baselines, [*SLIP, (8, MAT, "on")])
    baselines.advance(later)
    assert bed_trip(_view(later, seen, mat="on"), baselines) is None
    # The son in the hall after she went in: nobody knows who is in the bathroom now.
    baselines = _nan()
    seen = _night(baselines, [*SLIP, (10, HALL, "on"), (11, HALL, "off"), *STIR])
    baselines.advance(later)
    assert bed_trip(_view(later, seen), baselines) is None
    # Out of bed to the living room, where this home sits for an hour: no trip's room.
    baselines = _nan()
    living = [(0, MAT, "off"), (0.3, ROOM, "on"), (2, LIVING, "on"), (3, ROOM, "off")]
    seen = _night(baselines, [*living, (6, LIVING, "off")])
    baselines.advance(later)
    assert bed_trip(_view(later, seen), baselines) is None


def test_the_dog_in_the_yard_is_nobody_inside() -> None:
    baselines = _nan()
    seen = _night(baselines, [*SLIP, (20, YARD, "on"), (21, YARD, "off"), *STIR])
    arrived = TODAY + timedelta(hours=2, minutes=52)
    baselines.advance(arrived + timedelta(minutes=41))
    trip = bed_trip(_view(arrived + timedelta(minutes=41), seen), baselines)
    assert trip is not None
    assert (trip.area, trip.arrived, trip.limit) == ("Bathroom", arrived, timedelta(minutes=18))


def test_a_bath_after_getting_up_for_the_day_is_no_trip() -> None:
    """Up at 07:26 (the day begun, not a trip out of the night), the bathroom from 07:29: her
    bed's trips do not judge it, the bathroom's own quiet does (40 min at least)."""
    baselines = _nan()
    morning = TODAY + timedelta(hours=7, minutes=26)
    seen = []
    for minutes, entity_id, state in SLIP:
        when = morning + timedelta(minutes=minutes)
        baselines.observe(when, entity_id, state, AREAS.get(entity_id))
        seen.append(Transition(when, entity_id, state))
    now = morning + timedelta(minutes=27)
    baselines.advance(now)
    trip = bed_trip(_view(now, seen), baselines)
    assert trip is None or not trip.by_trips
    assert list(still_where_last_seen(_view(now, seen), baselines)) == []


def test_the_first_nights_before_the_bathroom_is_learned_are_judged_by_the_prior() -> None:
    """Two days installed: no quarter of the bathroom is learned yet (three days), but it was
    seen at night and by day, and the home was never quiet for long after it: her trip is
    judged by her bed's prior (25 min from the mat left)."""
    baselines = _nan(days=2, nap=True)
    assert baselines.room_quiet.learned_quarters("Bathroom") == []
    seen = _night(baselines, SLIP)
    left = TODAY + timedelta(hours=2, minutes=50)
    baselines.advance(left + timedelta(minutes=12))
    trip = bed_trip(_view(left + timedelta(minutes=12), seen), baselines)
    assert trip is not None
    assert (trip.area, trip.by_trips, trip.trips) == ("Bathroom", True, None)
    assert trip.arrived + trip.limit == left + timedelta(minutes=25)
    assert _told(baselines, left + timedelta(minutes=24), seen) == []
    (finding,) = _told(baselines, left + timedelta(minutes=26), seen)
    assert finding.evidence == (BATH, MAT)
    assert "not learned yet, so 25 min is waited (a prior)" in finding.reasoning


def test_the_first_nights_judge_no_room_not_seen_at_night_or_seen_kept_long() -> None:
    later = TODAY + timedelta(hours=3, minutes=40)
    # The living room was never seen at night: whoever could not sleep may sit there.
    baselines = _nan(days=2, nap=True)
    living = [(0, MAT, "off"), (0.3, ROOM, "on"), (2, LIVING, "on"), (3, ROOM, "off")]
    seen = _night(baselines, [*living, (6, LIVING, "off")])
    baselines.advance(later)
    assert bed_trip(_view(later, seen), baselines) is None
    # An hour's bath yesterday evening: the bathroom is a room somebody stayed in, so far.
    baselines = _nan(days=2, nap=True, bath=True)
    seen = _night(baselines, SLIP)
    baselines.advance(later)
    assert bed_trip(_view(later, seen), baselines) is None
