"""What the window shows of a quiet: its first change is a change, and a way back is no stay.

The window holds what changed in it, not each entity's state at its start. A motion
sensor's only change in it (the kitchen at 16:55) is somebody there, and a boy's phone
home at 17:57, his only change in it, is an arrival: before, the stillness read both as
the state the window began with, and told "last seen in the kitchen 1 h 52 min ago" as
he came in (set 36 d). Only a first change at the window's very start records a state.

A door passed on the way back out of a room nobody is seen in (the WC, the porch the dog
is let out from) leaves nobody in it: the quiet after it is not judged as a stay there.

Marta's home as in ``test_door_trip_pet_after`` (a WC with a door and no motion sensor;
the hall and kitchen see her every 15 minutes by day), without the dog.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.door_trip_out import came_back_through
from custom_components.anomaly_monitor.core.baselines.presence_moves import came_or_went
from custom_components.anomaly_monitor.core.baselines.shut_in import window_signs
from custom_components.anomaly_monitor.core.baselines.still_home import still_home
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import Environment, Transition
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity
from .lived_home import Events, blip, lived, observe, through_a_door

ZONE = "Europe/Warsaw"
HALL = "binary_sensor.hall_motion"
KITCHEN = "binary_sensor.kitchen_motion"
WC = "binary_sensor.wc_door"
MARTA = "person.marta"
AREAS = {HALL: "Hall", KITCHEN: "Kitchen", WC: "WC"}
CLASSES = {HALL: "motion", KITCHEN: "motion", WC: "door"}
TODAY = datetime(2026, 7, 20, tzinfo=ZoneInfo(ZONE))
DAYS = 14
VISITS = (10.0, 14.0, 19.0)


def _visit(at: datetime, *, back: bool = True) -> Events:
    """The hall sees her, into the WC and shut; out four minutes later (``back``)."""
    return through_a_door(at, HALL, WC, back=back)


def _day(midnight: datetime) -> Events:
    events: Events = []
    visits = [midnight + timedelta(hours=h) for h in VISITS]
    moment = midnight + timedelta(hours=7, minutes=5)
    while moment < midnight + timedelta(hours=22):
        if not any(v <= moment < v + timedelta(minutes=45) for v in visits):
            events += blip(moment, KITCHEN if moment.minute % 30 else HALL)
        moment += timedelta(minutes=15)
    for visit in visits:
        events += _visit(visit)
    return events


def _marta(areas: dict[str, str] = AREAS) -> HomeBaselines:
    start = TODAY - timedelta(days=DAYS)
    days = (_day(start + timedelta(days=d)) for d in range(DAYS))
    return lived(ZONE, areas, CLASSES, MARTA, start=start, days=days)


def _view(
    now: datetime, events: Events, *, person: Events = (), areas: dict[str, str] = AREAS
) -> HomeView:
    everything = sorted([*events, *person])
    states = [
        entity(e, _state_at(everything, e, now, "off"), area=areas[e], device_class=CLASSES[e])
        for e in areas
    ]
    states.append(entity(MARTA, _state_at(everything, MARTA, now, "home")))
    transitions = [Transition(w, e, s, areas.get(e)) for w, e, s in everything if w <= now]
    env = Environment(local_time=now, persons_home=1, persons_total=1)
    window = build_window(states, env, transitions, profile="", start=now - timedelta(hours=2))
    return HomeView(window)


def _state_at(events: Events, entity_id: str, now: datetime, default: str) -> str:
    states = [s for w, e, s in events if e == entity_id and w <= now]
    return states[-1] if states else default


def test_the_windows_first_change_is_a_sign_unless_it_records_the_start() -> None:
    now = TODAY + timedelta(hours=17, minutes=57)
    kitchen = TODAY + timedelta(hours=16, minutes=55)
    events = blip(kitchen, KITCHEN)  # the kitchen's only change in the window
    assert (kitchen, "Kitchen") in window_signs(_view(now, events))
    # A change dated at the window's very start only records the state it began with.
    start = now - timedelta(hours=2)
    assert window_signs(_view(now, [(start, KITCHEN, "on")])) == []


def test_an_arrival_that_is_the_persons_only_change_in_the_window_is_one() -> None:
    now = TODAY + timedelta(hours=17, minutes=58)
    home = TODAY + timedelta(hours=17, minutes=57, seconds=32)
    view = _view(now, [], person=[(home, MARTA, "home")])
    assert came_or_went(view, MARTA, arrivals_only=True) == [(home, False)]
    # Away as the only change is a departure, not an arrival.
    view = _view(now, [], person=[(home, MARTA, "not_home")])
    assert came_or_went(view, MARTA, arrivals_only=True) == []
    assert came_or_went(view, MARTA) == [(home, False)]


def test_a_door_passed_on_the_way_back_out_of_the_wc_leaves_nobody_in_it() -> None:
    baselines = _marta()
    before = TODAY + timedelta(hours=13, minutes=59)
    today = [e for e in _day(TODAY) if e[0] < before]
    # Into the WC at 14:00 and back out at 14:05, then nothing seen anywhere.
    events = today + _visit(TODAY + timedelta(hours=14))
    observe(baselines, events, AREAS)
    out = max(when for when, entity_id, _ in events if entity_id == WC)
    view = _view(out + timedelta(minutes=30), events)
    assert came_back_through(view, baselines) == (out, WC)
    still = still_home(view, baselines)
    assert still is not None
    assert still.area is None  # not "last seen in the WC": judged by the hours
    assert still.door is None


def test_a_door_passed_into_the_wc_and_not_back_is_where_she_is() -> None:
    baselines = _marta()
    before = TODAY + timedelta(hours=13, minutes=59)
    events = [e for e in _day(TODAY) if e[0] < before] + _visit(
        TODAY + timedelta(hours=14), back=False
    )
    observe(baselines, events, AREAS)
    shut = max(when for when, entity_id, _ in events if entity_id == WC)
    view = _view(shut + timedelta(minutes=10), events)
    assert came_back_through(view, baselines) is None
    still = still_home(view, baselines)
    assert still is not None
    assert still.door is not None
    assert still.area == "WC"


def test_by_day_a_door_out_to_the_porch_is_no_trip_she_must_come_back_from() -> None:
    """The same door and the same trips, the door's area named as outside the house (the
    back porch to the yard): by day she may stay out there a while. Home alone with her
    phone inside, the door is judged by her trips back through it, but never under the
    hours' floor of an hour: nothing at 25 min."""
    porch = {**AREAS, WC: "Back porch"}
    baselines = _marta(porch)
    before = TODAY + timedelta(hours=13, minutes=59)
    events = [e for e in _day(TODAY) if e[0] < before] + _visit(
        TODAY + timedelta(hours=14), back=False
    )
    observe(baselines, events, porch)
    shut = max(when for when, entity_id, _ in events if entity_id == WC)
    still = still_home(_view(shut + timedelta(minutes=25), events, areas=porch), baselines)
    assert still is None or still.door is None or still.door.limit >= timedelta(hours=1)
