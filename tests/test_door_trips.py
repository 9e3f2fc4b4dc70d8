"""Through a door and not back, judged by how soon this home comes back through it.

Piotr lives alone (a fortnight learned): by day the hall and the kitchen see him every 15
minutes; the WC has a door sensor and no motion sensor. Three times a day he goes in (the
hall sees him, the WC door opens and shuts), and comes out four minutes later (the door
opens and shuts), back at his desk where the kitchen sees him only 40 minutes later (he
sits still translating). The afternoon he faints in the WC (in, the door shut, nothing
since) is told 20 min after the door shut, saying what it was judged by. Before, nothing
told it for hours: after the WC the home is often quiet for 40 min (back at the desk), and
the afternoon hours' usual quiet, three times over, is longer still.

Not told: the same quiet after he came *out* (the way back through the door); a door
after which the home was once quiet that long without anybody coming back through it
(the door people leave by); a door whose trips are not learned yet; somebody's phone
coming home since.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.door_trips import DoorTrips
from custom_components.anomaly_monitor.core.baselines.still_where_last_seen import (
    still_where_last_seen,
    still_where_last_seen_due,
)
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import Environment, Transition
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity
from .lived_home import Events, lived, observe

ZONE = "Europe/Warsaw"
HALL = "binary_sensor.hall_motion"
KITCHEN = "binary_sensor.kitchen_motion"
WC = "binary_sensor.wc_door"
PIOTR = "person.piotr"
AREAS = {HALL: "Hall", KITCHEN: "Kitchen", WC: "WC"}
CLASSES = {HALL: "motion", KITCHEN: "motion", WC: "door"}
TODAY = datetime(2026, 7, 20, tzinfo=ZoneInfo(ZONE))  # a Monday, local midnight
DAYS = 14
VISITS = (10.0, 14.0, 19.0)  # hours of the day he goes to the WC


def _visit(at: datetime, *, back: bool = True) -> Events:
    """The hall sees him, into the WC and shut; out four minutes later (``back``)."""
    steps = [(0, HALL, "on"), (0.5, HALL, "off"), (1, WC, "on"), (1.1, WC, "off")]
    if back:
        steps += [(5, WC, "on"), (5.1, WC, "off")]
    return [(at + timedelta(minutes=m), e, s) for m, e, s in steps]


def _day(midnight: datetime, *, leaves_by_the_wc: bool = False) -> Events:
    """Up 07:00-22:00, the hall or kitchen every 15 min except 40 min after each visit."""
    events: Events = []
    visits = [midnight + timedelta(hours=h) for h in VISITS]
    moment = midnight + timedelta(hours=7)
    while moment < midnight + timedelta(hours=22):
        if not any(v <= moment < v + timedelta(minutes=45) for v in visits):
            sensor = KITCHEN if moment.minute % 30 else HALL
            events += [(moment, sensor, "on"), (moment + timedelta(minutes=1), sensor, "off")]
        moment += timedelta(minutes=15)
    for visit in visits:
        events += _visit(visit, back=not (leaves_by_the_wc and visit.hour == 14))
    return events


def _piotr(*, days: int = DAYS, leaves_by_the_wc: bool = False) -> HomeBaselines:
    start = TODAY - timedelta(days=days)
    lived_days = (  # ``leaves_by_the_wc``: one afternoon, not back that way
        _day(start + timedelta(days=day), leaves_by_the_wc=leaves_by_the_wc and day == 3)
        for day in range(days)
    )
    return lived(ZONE, AREAS, CLASSES, PIOTR, start=start, days=lived_days)


def _view(
    now: datetime,
    events: Events,
    *,
    arrived: datetime | None = None,
    seen_inside: bool = False,
    profile: str = "",
    start: datetime | None = None,
) -> HomeView:
    states = [entity(e, "off", area=AREAS[e], device_class=CLASSES[e]) for e in AREAS]
    if seen_inside:  # the door leads out of a room with a motion sensor (a granny flat)
        states.append(entity("binary_sensor.wc_motion", "off", area="WC", device_class="motion"))
    states.append(entity(PIOTR, "home"))
    transitions = [Transition(w, e, s, AREAS[e]) for w, e, s in events if w <= now]
    if arrived is not None:
        transitions.append(Transition(arrived, PIOTR, "home", None))
        transitions.append(Transition(arrived - timedelta(minutes=1), PIOTR, "not_home", None))
    env = Environment(local_time=now, persons_home=1, persons_total=1)
    ordered = sorted(transitions, key=lambda t: t.when)
    begin = start if start is not None else now - timedelta(hours=2)
    window = build_window(states, env, ordered, profile=profile, start=begin)
    return HomeView(window)


def _afternoon(baselines: HomeBaselines, *, back: bool) -> tuple[datetime, Events]:
    """Today up to 14:00 as usual, then the afternoon visit; when the WC door last shut."""
    events = [e for e in _day(TODAY) if e[0] < TODAY + timedelta(hours=13, minutes=59)]
    events += _visit(TODAY + timedelta(hours=14), back=back)
    observe(baselines, events, AREAS)
    return max(when for when, entity_id, _ in events if entity_id == WC), events


def test_into_the_wc_and_nothing_since_is_told_past_the_longest_trip_back() -> None:
    baselines = _piotr()
    learned = baselines.door_trips.learned(WC, TODAY + timedelta(hours=14))
    assert learned is not None
    assert learned.longest == timedelta(minutes=3.9)
    assert learned.left < timedelta(minutes=20)  # out of the WC: the hall comes next
    shut, events = _afternoon(baselines, back=False)
    assert still_where_last_seen_due(_view(shut + timedelta(minutes=5), events), baselines) == (
        shut + timedelta(minutes=20)  # the floor: four minutes learned, twice is eight
    )
    assert list(still_where_last_seen(_view(shut + timedelta(minutes=19), events), baselines)) == []
    (finding,) = still_where_last_seen(_view(shut + timedelta(minutes=21), events), baselines)
    assert finding.rule == "still_in_room_far_longer"
    # No motion sensor in the WC: its door shows where they are (every sensor of the home
    # would name another room first and join another incident: walk 42).
    assert finding.evidence == (WC,)
    assert "last seen in WC 21 min ago (at 14:01)" in finding.reasoning
    assert f"Somebody went through {WC} and shut it" in finding.reasoning
    assert "came within 3 min at this time of day" in finding.reasoning
    # A window that begins with the door opening (its state before it not recorded): the
    # opening is still a change (a real HA window starts at an entity's first change).
    visit = [e for e in events if e[0] >= shut - timedelta(minutes=0.1)]
    assert visit[0][1] == WC
    (finding,) = still_where_last_seen(_view(shut + timedelta(minutes=21), visit), baselines)
    assert f"Somebody went through {WC} and shut it" in finding.reasoning
    # Somebody's phone came home since: not judged by the door.
    arrived = shut + timedelta(minutes=10)
    assert (
        list(
            still_where_last_seen(
                _view(shut + timedelta(minutes=21), events, arrived=arrived), baselines
            )
        )
        == []
    )


def test_out_of_the_wc_a_door_people_leave_by_and_a_new_home_are_not_told() -> None:
    baselines = _piotr()
    shut, events = _afternoon(baselines, back=True)  # out again: the way back
    assert list(still_where_last_seen(_view(shut + timedelta(minutes=30), events), baselines)) == []
    # Out again, the kitchen's motion between in and out (a pet, somebody else): still the
    # way back, so the quiet after it is his desk's.
    baselines = _piotr()
    shut, events = _afternoon(baselines, back=True)
    events.append((shut - timedelta(minutes=2), KITCHEN, "on"))
    events.sort()
    assert list(still_where_last_seen(_view(shut + timedelta(minutes=30), events), baselines)) == []
    # By day, a door out of a room people are seen in: to the yard, the neighbours.
    baselines = _piotr()
    shut, events = _afternoon(baselines, back=False)
    later = _view(shut + timedelta(minutes=30), events, seen_inside=True)
    assert list(still_where_last_seen(later, baselines)) == []
    # A home where, once, nobody came back through that door for hours: it says nothing.
    leaving = _piotr(leaves_by_the_wc=True)
    learned = leaving.door_trips.learned(WC, TODAY + timedelta(hours=14))
    assert learned is not None
    assert learned.left > timedelta(minutes=40)
    shut, events = _afternoon(leaving, back=False)
    assert list(still_where_last_seen(_view(shut + timedelta(minutes=30), events), leaving)) == []
    # One day learned (and this morning): the door's trips are not learned yet, neither at
    # this quarter nor over the whole day (two days; ``test_door_trips_whole_day``).
    young = _piotr(days=1)
    assert young.door_trips.learned(WC, TODAY + timedelta(hours=14)) is None
    shut, events = _afternoon(young, back=False)
    assert list(still_where_last_seen(_view(shut + timedelta(minutes=30), events), young)) == []


def test_a_pet_moving_between_the_way_in_and_the_way_out_is_no_person() -> None:
    """In at 14:00, out at 14:05 (read as the way back), in again at 14:10, the kitchen
    sensor moves at 14:11, out at 14:15, then quiet. With a cat in the profile the kitchen's
    motion alone between two passes of the WC door is no person: 14:15 is the way out of
    the second visit, not a third way in, and nothing is told (blind19 b: the cat in the
    kitchen, the grandmother out of the bathroom). Without a pet said, it is somebody
    else moving, but 14:10 was read as the way back only because it came right after the
    way back (the fridge reading): 14:15, within ``BACK_WITHIN`` of it, is its way back (the
    ways in and back alternate) and nothing is told either. Passed again only at 14:27, it
    is somebody going in, and the quiet after it is judged."""
    baselines = _piotr()
    events = [e for e in _day(TODAY) if e[0] < TODAY + timedelta(hours=13, minutes=59)]
    events += _visit(TODAY + timedelta(hours=14))
    again = TODAY + timedelta(hours=14, minutes=10)  # nothing on the way (the hall missed him)
    events += [(again, WC, "on"), (again + timedelta(seconds=6), WC, "off")]
    events += [(TODAY + timedelta(hours=14, minutes=11), KITCHEN, "on")]
    events += [(TODAY + timedelta(hours=14, minutes=11, seconds=30), KITCHEN, "off")]
    events += [(TODAY + timedelta(hours=14, minutes=15), WC, "on")]
    events += [(TODAY + timedelta(hours=14, minutes=15, seconds=6), WC, "off")]
    events.sort()
    observe(baselines, events, AREAS)
    later = TODAY + timedelta(hours=14, minutes=45)
    assert list(still_where_last_seen(_view(later, events), baselines)) == []
    with_a_cat = _view(later, events, profile="Piotr and his cat")
    assert list(still_where_last_seen(with_a_cat, baselines)) == []
    baselines = _piotr()
    late = TODAY + timedelta(hours=14, minutes=27)  # past ``BACK_WITHIN`` of 14:10
    events = [e for e in events if e[0] < TODAY + timedelta(hours=14, minutes=15)]
    events += [(late, WC, "on"), (late + timedelta(seconds=6), WC, "off")]
    observe(baselines, events, AREAS)
    (finding,) = still_where_last_seen(_view(late + timedelta(minutes=30), events), baselines)
    assert f"Somebody went through {WC} and shut it" in finding.reasoning


def test_door_trips_survive_storage_and_drop_garbage() -> None:
    baselines = _piotr()
    stored = baselines.door_trips.as_dict()
    again = DoorTrips.from_dict(stored, ZoneInfo(ZONE))
    assert again.as_dict() == stored
    garbage = {WC: [[[1, "x", 1, 0]], [], [], []], "x" * 300: [[], [], [], []], HALL: "no"}
    assert DoorTrips.from_dict(garbage, ZoneInfo(ZONE)).as_dict() == {WC: [[], [], [], []]}
    assert HomeBaselines.from_dict(baselines.as_dict(), ZoneInfo(ZONE)).door_trips.as_dict() == (
        stored
    )


def test_ways_in_and_back_alternate_through_the_door_of_a_room_seen_inside() -> None:
    """Out of the bathroom at 20:44 (the way back of a visit), nothing, the door again at
    20:47: with a motion sensor in the room (it went off as he left) that is somebody going
    in, a trip under way. Through a door of a room nobody is seen in (a fridge's, opened
    again and again by one person standing at it) the old reading stands: the way back."""
    evening = TODAY + timedelta(hours=20, minutes=40)
    steps = [(0, WC, "on"), (0.2, WC, "off"), (4, WC, "on"), (4.3, WC, "off"), (7, WC, "on")]
    steps += [(7.3, WC, "off")]
    for room_seen, under_way in ((True, True), (False, False)):
        reading = DoorTrips(ZoneInfo(ZONE))
        reading.sign(evening - timedelta(minutes=1), HALL, "on", door=False)
        for minutes, entity_id, state in steps:
            when = evening + timedelta(minutes=minutes)
            reading.sign(when, entity_id, state, door=True, room_seen=room_seen)
        shut = evening + timedelta(minutes=7.3)
        assert (reading.under_way() == (shut, WC)) is under_way


def test_a_door_opened_long_after_the_way_back_through_it_is_somebody_going_in() -> None:
    """Back out of the WC at 01:46 (a door only, no motion sensor in it), nothing anywhere,
    the door again at 02:10: 24 min after the way back is no fridge opened again by one
    standing at it, it is somebody going in again (a second trip in the night, and the fall
    in it). Within ``BACK_WITHIN`` of the way back the old reading stands."""
    night = TODAY + timedelta(hours=1, minutes=41)
    for again, under_way in ((29, True), (14, False)):
        steps = [(0, WC, "on"), (0.3, WC, "off"), (5, WC, "on"), (5.3, WC, "off")]
        steps += [(again, WC, "on"), (again + 0.3, WC, "off")]
        reading = DoorTrips(ZoneInfo(ZONE))
        reading.sign(night - timedelta(minutes=1), HALL, "on", door=False)
        for minutes, entity_id, state in steps:
            reading.sign(night + timedelta(minutes=minutes), entity_id, state, door=True)
        shut = night + timedelta(minutes=again + 0.3)
        assert (reading.under_way() == (shut, WC)) is under_way


def test_a_door_opened_while_another_stands_open_keeps_each_doors_passage() -> None:
    """Into the WC at 17:36:53 while somebody else opens the kitchen door two seconds
    later: each door's passage is its own. The WC opened again at 17:44 (8 min) is the way
    back of the 17:36 visit, not a way in (read through one door at a time, the kitchen
    door's opening hid the WC's way in and the way back was told as a faint)."""
    kitchen = "binary_sensor.kitchen_door"
    evening = TODAY + timedelta(hours=17, minutes=36)
    reading = DoorTrips(ZoneInfo(ZONE))
    reading.sign(evening - timedelta(minutes=1), HALL, "on", door=False)
    steps = [(0.9, WC, "on"), (0.93, kitchen, "on"), (1.2, WC, "off"), (1.23, kitchen, "off")]
    steps += [(8.9, WC, "on"), (9.2, WC, "off")]
    for minutes, entity_id, state in steps:
        reading.sign(evening + timedelta(minutes=minutes), entity_id, state, door=True)
    assert reading.under_way() is None
    assert reading.came_back() == (evening + timedelta(minutes=9.2), WC)


def test_the_way_back_after_somebody_else_moved_is_a_trip_back_all_the_same() -> None:
    """Into the bathroom at 02:50 while somebody upstairs moves at 02:53, out again at
    02:56: the way back within ``BACK_WITHIN`` is a trip back of 5.7 min (from the door
    shut), learned although the next sign after the door was not the door (night after
    night the house upstairs moved during her trips and none was learned, so her fall was
    never judged). A door opened again only after ``BACK_WITHIN`` is no trip back, nor by
    day one while others moved (the washing out on the balcony, the nanny inside)."""
    upstairs = "binary_sensor.upstairs_motion"
    cases = ((2, 6, [(1, 5.7)] * 3), (2, 20, []), (14, 6, []))
    for hour, back_after, learned in cases:
        reading = DoorTrips(ZoneInfo(ZONE))
        for day in range(3):
            night = TODAY + timedelta(days=day, hours=hour, minutes=50)
            reading.sign(night - timedelta(minutes=2), HALL, "on", door=False)
            steps = [(0, WC, "on", True), (0.3, WC, "off", True), (3, upstairs, "on", False)]
            steps += [(back_after, WC, "on", True), (back_after + 0.3, WC, "off", True)]
            steps += [(back_after + 2, HALL, "on", False)]
            for minutes, entity_id, state, door in steps:
                reading.sign(night + timedelta(minutes=minutes), entity_id, state, door=door)
        rows = reading.trips[WC][hour // 6]
        assert [(row.trips, round(row.longest, 1)) for row in rows if row.trips] == learned


def test_after_a_passage_read_as_the_fridge_s_way_back_the_next_passage_is_the_way_back() -> None:
    """Into the bathroom (no motion sensor of its own) at 06:57, out at 07:05, nothing, the
    door again at 07:19: read as the way back (a fridge opened again by one standing at
    it), but it may be somebody going in. The kitchen sees somebody at 07:26 and the door is
    passed at 07:27: within ``BACK_WITHIN`` of that doubtful passage it is its way back, not
    a way in (read as one, the Saturday shower's way out was told as a faint 20 min later).
    Only after ``BACK_WITHIN`` is it somebody going in, as before."""
    morning = TODAY + timedelta(days=5, hours=6, minutes=57)
    for last, under_way in ((30.0, False), (40.0, True)):
        steps = [(0, WC, "on", True), (0.2, WC, "off", True), (8, WC, "on", True)]
        steps += [(8.3, WC, "off", True), (22, WC, "on", True), (22.2, WC, "off", True)]
        steps += [(last - 1, KITCHEN, "on", False), (last, WC, "on", True)]
        steps += [(last + 0.3, WC, "off", True)]
        reading = DoorTrips(ZoneInfo(ZONE))
        reading.sign(morning - timedelta(minutes=1), HALL, "on", door=False)
        for minutes, entity_id, state, door in steps:
            reading.sign(morning + timedelta(minutes=minutes), entity_id, state, door=door)
        shut = morning + timedelta(minutes=last + 0.3)
        assert (reading.under_way() == (shut, WC)) is under_way
        assert (reading.came_back() == (shut, WC)) is not under_way
