"""A bathroom door shut behind somebody seen inside, and a quiet that was no quiet.

Piotr's WC (``test_door_trips``) gets a motion sensor of its own. By day a door out of a
room people are seen in is not judged by its trips (out of a granny flat to the yard);
but when the room's own sensor saw him inside after the door shut behind him, he went
in, not out: the afternoon he faints in there is told 40 min after the door shut (a bath
takes longer than the WC: ``still_in_room``'s floor for a room that keeps somebody).
Walking out through the door (the room's sensor off within the minute) is still not
judged.

The longest quiet after a passage not followed by the way back (``left``: the door people
leave by) counts only while no other room's motion reads on: a party in the kitchen, its
sensor on throughout, after a guest shut the bathroom door, is no quiet; from the kitchen
going quiet it is one.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.door_trips import DoorTrips
from custom_components.anomaly_monitor.core.baselines.still_where_last_seen import (
    still_where_last_seen,
)
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityInfo, Environment, Transition
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity
from .lived_home import Events
from .test_door_trips import AREAS, CLASSES, HALL, PIOTR, TODAY, WC, ZONE, _day, _piotr

WC_MOTION = "binary_sensor.wc_motion"
KITCHEN = "binary_sensor.kitchen_motion"
ALL_AREAS = {**AREAS, WC_MOTION: "WC"}
ALL_CLASSES = {**CLASSES, WC_MOTION: "motion"}


def _view(now: datetime, events: Events) -> HomeView:
    states = [entity(e, "off", area=ALL_AREAS[e], device_class=ALL_CLASSES[e]) for e in ALL_AREAS]
    states.append(entity(PIOTR, "home"))
    transitions = [Transition(w, e, s, ALL_AREAS[e]) for w, e, s in sorted(events) if w <= now]
    env = Environment(local_time=now, persons_home=1, persons_total=1)
    window = build_window(states, env, transitions, start=now - timedelta(hours=2))
    return HomeView(window)


def _in_the_wc(seen_for: float) -> tuple[HomeBaselines, datetime, Events]:
    """Today up to 14:00 as usual; then the hall, into the WC (its sensor on as he comes
    in, for ``seen_for`` minutes), the door shut behind him, and nothing since."""
    baselines = _piotr()
    events = [e for e in _day(TODAY) if e[0] < TODAY + timedelta(hours=13, minutes=59)]
    at = TODAY + timedelta(hours=14)
    shut = at + timedelta(minutes=1.2)
    events += [
        (at, HALL, "on"),
        (at + timedelta(minutes=0.5), HALL, "off"),
        (at + timedelta(minutes=1), WC, "on"),
        (at + timedelta(minutes=1.1), WC_MOTION, "on"),
        (shut, WC, "off"),
        (at + timedelta(minutes=1.1 + seen_for), WC_MOTION, "off"),
    ]
    return baselines, shut, events


def test_shut_in_the_bathroom_by_day_is_judged_by_the_way_back_through_its_door() -> None:
    baselines, shut, events = _in_the_wc(seen_for=8)  # seen inside 8 min after the door shut
    assert list(still_where_last_seen(_view(shut + timedelta(minutes=39), events), baselines)) == []
    (finding,) = still_where_last_seen(_view(shut + timedelta(minutes=41), events), baselines)
    assert finding.rule == "still_in_room_far_longer"
    assert f"Somebody went through {WC} and shut it" in finding.reasoning
    assert finding.evidence == (WC, WC_MOTION)  # the room's sensor and its door
    # Out through the door (the room's sensor off within the minute): not judged by day.
    baselines, shut, events = _in_the_wc(seen_for=0.3)
    assert list(still_where_last_seen(_view(shut + timedelta(minutes=30), events), baselines)) == []


def _passage(trips: DoorTrips, at: datetime, *, busy: frozenset[str] = frozenset()) -> datetime:
    trips.sign(at, HALL, "on", door=False)
    trips.sign(at + timedelta(minutes=1), WC, "on", door=True)
    shut = at + timedelta(minutes=1, seconds=6)
    trips.sign(shut, WC, "off", door=True, busy=busy)
    return shut


def test_a_quiet_after_the_door_counts_only_while_no_other_room_moves() -> None:
    zone = ZoneInfo(ZONE)
    start = TODAY - timedelta(days=8)
    trips = DoorTrips(zone)
    for day in range(5):  # in and back within 4 minutes, every afternoon
        shut = _passage(trips, start + timedelta(days=day, hours=14))
        trips.sign(shut + timedelta(minutes=4), WC, "on", door=True)
        trips.sign(shut + timedelta(minutes=4, seconds=6), WC, "off", door=True)
    afternoon = TODAY + timedelta(hours=14)
    learned = trips.learned(WC, afternoon)
    assert learned is not None
    assert learned.left == timedelta(0)
    # A party: the kitchen's sensor reads on as a guest shuts the door and stays on; the
    # next sign 45 min later is the kitchen again: no quiet was seen.
    shut = _passage(trips, start + timedelta(days=5, hours=14), busy=frozenset({KITCHEN}))
    trips.sign(shut + timedelta(minutes=45), KITCHEN, "on", door=False)
    learned = trips.learned(WC, afternoon)
    assert learned is not None
    assert learned.left == timedelta(0)
    # The kitchen went off 5 min after the door shut: 40 min of quiet from then.
    shut = _passage(trips, start + timedelta(days=6, hours=14), busy=frozenset({KITCHEN}))
    trips.stopped(shut + timedelta(minutes=5), KITCHEN)
    trips.sign(shut + timedelta(minutes=45), KITCHEN, "on", door=False)
    learned = trips.learned(WC, afternoon)
    assert learned is not None
    assert learned.left == timedelta(minutes=40)
    # Nothing reading on: the whole quiet counts, as before.
    shut = _passage(trips, start + timedelta(days=7, hours=14))
    trips.sign(shut + timedelta(minutes=50), HALL, "on", door=False)
    learned = trips.learned(WC, afternoon)
    assert learned is not None
    assert learned.left == timedelta(minutes=50)


def test_the_baselines_pass_the_other_rooms_moving_as_a_door_shuts() -> None:
    baselines = HomeBaselines(ZoneInfo(ZONE))
    areas = {**ALL_AREAS, KITCHEN: "Kitchen"}
    baselines.describe(
        EntityInfo(e, "", area=areas[e], device_class={**ALL_CLASSES, KITCHEN: "motion"}[e])
        for e in areas
    )
    at = TODAY + timedelta(hours=14)
    baselines.watching(list(areas), at - timedelta(hours=1))
    baselines.observe(at - timedelta(hours=1), PIOTR, "home")
    for minutes, entity_id, state in [
        (0, KITCHEN, "on"),
        (1, WC, "on"),
        (1.05, WC_MOTION, "on"),
        (1.1, WC, "off"),
        (50, HALL, "on"),
    ]:
        baselines.observe(at + timedelta(minutes=minutes), entity_id, state, areas[entity_id])
    rows = baselines.door_trips.trips[WC]
    assert max(row.left for days in rows for row in days) == 0.0  # the kitchen read on


def test_a_bed_held_on_is_somebody_lying_there_not_a_room_moving() -> None:
    bed = "binary_sensor.bed_mat"
    areas = {**ALL_AREAS, bed: "Bedroom"}
    classes = {**ALL_CLASSES, bed: "occupancy"}
    baselines = HomeBaselines(ZoneInfo(ZONE))
    baselines.describe(EntityInfo(e, "", area=areas[e], device_class=classes[e]) for e in areas)
    start = TODAY - timedelta(days=6)
    baselines.watching(list(areas), start)
    baselines.observe(start, PIOTR, "home")
    for day in range(6):  # a night's sleep on the mat, learned: a bed
        night = start + timedelta(days=day, hours=22)
        baselines.observe(night, bed, "on", "Bedroom")
        baselines.observe(night + timedelta(hours=8), bed, "off", "Bedroom")
    at = TODAY + timedelta(hours=3)
    baselines.observe(at - timedelta(hours=5), bed, "on", "Bedroom")  # somebody asleep
    for minutes, entity_id, state in [(1, WC, "on"), (1.1, WC, "off"), (50, HALL, "on")]:
        baselines.observe(at + timedelta(minutes=minutes), entity_id, state, areas[entity_id])
    rows = baselines.door_trips.trips[WC]
    assert max(row.left for days in rows for row in days) == 48.9  # a quiet all the same
