"""A trip out of the rest that only doors saw: the bathroom door shut, nothing since.

Dana lives alone in a flat whose only motion sensor is in the living room (a fortnight
learned): the bedroom and the bathroom have a door sensor each. She sleeps 22:30-07:00 with
the bedroom door shut; the bathroom door stands open and is shut for each use. At 03:00 she
goes to the toilet: the bedroom door opens, the bathroom door shuts behind her, opens four
minutes later, and the bedroom door shuts behind her. By day she goes to the bathroom
three times, and the living room sees her within minutes after. The night she faints in the
bathroom (the bedroom door opens, the bathroom door shuts, nothing since) is told 20 min
after, judged by her bedroom's night trips (back within 4 min, ``room_trip``); the bathroom
alone (this home always leaves it within minutes) would say an hour. Before, nothing
told it until morning: the rhythm learns rests from motion alone, so the trip showed no
bout of movement, and the bedroom door opened on the way there came before the trip's
start (its last sign) and was taken for no way there at all.

Not told: the same night with the trip's way back seen (the bedroom door shut behind her),
and a shut bathroom door whose way there was an hour before it (the bedroom door opened
then: nobody was seen on the way). Two minutes before is her trip, slow: told.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.night_trips import night_trip
from custom_components.anomaly_monitor.core.baselines.still_where_last_seen import (
    still_where_last_seen,
    still_where_last_seen_due,
)
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import Environment, Transition

from .core_factories import entity, window
from .lived_home import Events, lived, observe

ZONE = "Europe/Vienna"
LIVING = "binary_sensor.living_motion"
BED_DOOR = "binary_sensor.bedroom_door"
BATH_DOOR = "binary_sensor.bathroom_door"
DANA = "person.dana"
AREAS = {LIVING: "Living room", BED_DOOR: "Bedroom", BATH_DOOR: "Bathroom"}
CLASSES = {LIVING: "motion", BED_DOOR: "door", BATH_DOOR: "door"}
TODAY = datetime(2026, 3, 2, tzinfo=ZoneInfo(ZONE))  # a Monday, local midnight
DAYS = 14


def _night_trip(at: datetime, *, back: bool = True) -> Events:
    """Out of the bedroom, the bathroom door shut behind her; out and back to bed."""
    steps = [(0, BED_DOOR, "on"), (0.4, BATH_DOOR, "off")]
    if back:
        steps += [(4, BATH_DOOR, "on"), (4.5, BED_DOOR, "off")]
    return [(at + timedelta(minutes=m), e, s) for m, e, s in steps]


def _day(midnight: datetime) -> Events:
    """Up at 07:00 (the bedroom door opens), the living room every 15 min until 22:30,
    the bathroom at 09:00, 13:00 and 18:00 (shut for four minutes), to bed at 22:30."""
    events: Events = [(midnight + timedelta(hours=7), BED_DOOR, "on")]
    visits = [midnight + timedelta(hours=h) for h in (9, 13, 18)]
    moment = midnight + timedelta(hours=7, minutes=5)
    while moment < midnight + timedelta(hours=22, minutes=30):
        if not any(v <= moment < v + timedelta(minutes=6) for v in visits):
            events += [(moment, LIVING, "on"), (moment + timedelta(minutes=1), LIVING, "off")]
        moment += timedelta(minutes=15)
    for visit in visits:
        events += [(visit, BATH_DOOR, "off"), (visit + timedelta(minutes=4), BATH_DOOR, "on")]
    events.append((midnight + timedelta(hours=22, minutes=30), BED_DOOR, "off"))
    events += _night_trip(midnight + timedelta(hours=3))
    return events


def _dana() -> HomeBaselines:
    start = TODAY - timedelta(days=DAYS)
    days = (_day(start + timedelta(days=day)) for day in range(DAYS))
    return lived(ZONE, AREAS, CLASSES, DANA, start=start, days=days)


def _tonight(baselines: HomeBaselines, trip: Events) -> Events:
    """Last evening as usual, then tonight's ``trip``; observed, and the window's events."""
    yesterday = TODAY - timedelta(days=1)
    evening = [
        e
        for e in _day(yesterday)
        if yesterday + timedelta(hours=20) <= e[0] and e[0] < TODAY  # not its night trip
    ]
    events = sorted(evening + trip)
    observe(baselines, [e for e in events if e[0] >= TODAY], AREAS)
    return events


def _view(now: datetime, events: Events) -> HomeView:
    states = [
        entity(LIVING, "off", area=AREAS[LIVING], device_class="motion"),
        entity(BED_DOOR, "off", area=AREAS[BED_DOOR], device_class="door"),
        entity(BATH_DOOR, "on", area=AREAS[BATH_DOOR], device_class="door"),
        entity(DANA, "home"),
    ]
    last: dict[str, str] = {}
    for when, entity_id, state in events:
        if when <= now:
            last[entity_id] = state
    states = [
        entity(
            s.entity_id,
            last.get(s.entity_id, s.state),
            area=s.info.area,
            device_class=s.info.device_class,
        )
        for s in states
    ]
    transitions = [Transition(w, e, s, AREAS[e]) for w, e, s in events if w <= now]
    env = Environment(local_time=now, persons_home=1, persons_total=1)
    return HomeView(window(states, env, transitions))


def test_a_faint_behind_the_bathroom_door_on_a_night_trip_only_doors_saw_is_told() -> None:
    baselines = _dana()
    night = TODAY + timedelta(hours=3, minutes=10)
    events = _tonight(baselines, _night_trip(night, back=False))
    shut = night + timedelta(minutes=0.4)
    # The bathroom alone (``night_trip``): minutes learned after it, the 1-h floor; her
    # bedroom's trips (back within 4 min, ``room_trip``) say 20 min after she left it.
    trip = night_trip(_view(shut + timedelta(minutes=5), events), baselines, "Bathroom", shut)
    assert trip is not None
    assert trip.limit == timedelta(hours=1)
    assert still_where_last_seen_due(_view(shut + timedelta(minutes=5), events), baselines) == (
        shut + timedelta(minutes=20)
    )
    assert list(still_where_last_seen(_view(shut + timedelta(minutes=19), events), baselines)) == []
    (finding,) = still_where_last_seen(_view(shut + timedelta(minutes=21), events), baselines)
    assert finding.rule == "still_in_room_far_longer"
    assert "last seen in Bathroom 21 min ago" in finding.reasoning
    assert "somebody left Bedroom at 03:10 and has not been back in it since" in finding.reasoning


def test_a_night_trip_back_to_bed_or_a_door_shut_long_after_the_way_there_is_not_told() -> None:
    baselines = _dana()
    night = TODAY + timedelta(hours=3, minutes=10)
    events = _tonight(baselines, _night_trip(night))
    for hours in (1, 2, 3):
        assert (
            list(still_where_last_seen(_view(night + timedelta(hours=hours), events), baselines))
            == []
        )
    # The bedroom door opened an hour before the bathroom door shut: no way there seen (a
    # window forced from the garden before the thief's first movement), and no step of a
    # trip out of her bedroom (``room_trip``: left within minutes of its door opening).
    slow = _dana()
    trip = [(night, BED_DOOR, "on"), (night + timedelta(minutes=60), BATH_DOOR, "off")]
    events = _tonight(slow, trip)
    for hours in (2, 3, 4):
        view = _view(night + timedelta(hours=hours), events)
        assert list(still_where_last_seen(view, slow)) == []
    # Two minutes before: too slow for ``night_trip``'s way there, but a trip out of her
    # bedroom, whose trips come back within 4 min: told 20 min after the bathroom door.
    slow = _dana()
    shut = night + timedelta(minutes=2)
    events = _tonight(slow, [(night, BED_DOOR, "on"), (shut, BATH_DOOR, "off")])
    assert list(still_where_last_seen(_view(shut + timedelta(minutes=19), events), slow)) == []
    (finding,) = still_where_last_seen(_view(shut + timedelta(minutes=21), events), slow)
    assert "somebody left Bedroom at 03:12 and has not been back in it since" in finding.reasoning
