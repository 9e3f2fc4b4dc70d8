"""Into the WC by day, the door still shut, only the dog moving since: told by the door.

Marta lives alone with her dog (a fortnight learned): by day the hall and the kitchen see
her every 15 minutes; the WC has a door sensor and no motion sensor; the dog has the run
of the living room, whose sensor moves every half hour day and night. Three times a day
and once in the night she goes into the WC and comes out four minutes later. The
afternoon she faints in there, the dog moves in the living room at 14:20 and 14:50 as it
always does: before, each of its moves was "somebody moving" and ended the trip through
the door (set 35 c: Fernanda behind the bathroom door, Pipoca in the sala, told at 12:07
by the door left open after her mother found her). The living room's sensor keeps no
person's hours (it moves at nearly every hour, the night's included), and the way back
out of the WC is its door, still shut: told 20 min after the door shut, saying what moved.

Not told so: a door this home never passes at night (to the patio, the yard: she may
stay out there), a living room that keeps a person's hours (it moves only by day: somebody's),
and the dog's room moving as the door was passed or right after (she may have walked in).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.still_where_last_seen import (
    still_where_last_seen,
    still_where_last_seen_due,
)
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import Environment, Transition
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity
from .lived_home import Events, blip, lived, observe, through_a_door

ZONE = "Europe/Warsaw"
HALL = "binary_sensor.hall_motion"
KITCHEN = "binary_sensor.kitchen_motion"
LIVING = "binary_sensor.living_motion"
WC = "binary_sensor.wc_door"
MARTA = "person.marta"
AREAS = {HALL: "Hall", KITCHEN: "Kitchen", LIVING: "Living room", WC: "WC"}
CLASSES = {HALL: "motion", KITCHEN: "motion", LIVING: "motion", WC: "door"}
TODAY = datetime(2026, 7, 20, tzinfo=ZoneInfo(ZONE))  # a Monday, local midnight
DAYS = 14
VISITS = (10.0, 14.0, 19.0)  # hours of the day she goes to the WC


def _visit(at: datetime, *, back: bool = True) -> Events:
    """The hall sees her, into the WC and shut; out four minutes later (``back``)."""
    return through_a_door(at, HALL, WC, back=back)


def _living(midnight: datetime, *, round_the_clock: bool) -> Events:
    """The living room at :20 and :50 of every hour (the dog), or only 07-22 (a person)."""
    hours = range(24) if round_the_clock else range(7, 22)
    return [
        event
        for hour in hours
        for minute in (20, 50)
        for event in blip(midnight + timedelta(hours=hour, minutes=minute), LIVING)
    ]


def _day(midnight: datetime, *, round_the_clock: bool = True, night_trips: bool = True) -> Events:
    """Up 07:00-22:00, the hall or kitchen every 15 min except 45 min after each visit."""
    events: Events = []
    visits = [midnight + timedelta(hours=h) for h in VISITS]
    moment = midnight + timedelta(hours=7, minutes=5)
    while moment < midnight + timedelta(hours=22):
        if not any(v <= moment < v + timedelta(minutes=45) for v in visits):
            events += blip(moment, KITCHEN if moment.minute % 30 else HALL)
        moment += timedelta(minutes=15)
    for visit in visits:
        events += _visit(visit)
    if night_trips:  # the WC at 02:35 every night (``_visit``'s hall blip, then the door)
        events += _visit(midnight + timedelta(hours=2, minutes=35))
    return events + _living(midnight, round_the_clock=round_the_clock)


def _marta(*, round_the_clock: bool = True, night_trips: bool = True) -> HomeBaselines:
    start = TODAY - timedelta(days=DAYS)
    days = (
        _day(start + timedelta(days=d), round_the_clock=round_the_clock, night_trips=night_trips)
        for d in range(DAYS)
    )
    return lived(ZONE, AREAS, CLASSES, MARTA, start=start, days=days)


def _afternoon(
    baselines: HomeBaselines, *, round_the_clock: bool = True, dog_at: float = 20
) -> tuple[datetime, Events]:
    """Today up to 14:00 as usual, into the WC at 14:00 and not out; the living room at
    14:``dog_at`` and 14:50. When the WC door shut."""
    before = TODAY + timedelta(hours=13, minutes=59)
    events = [e for e in _day(TODAY, round_the_clock=round_the_clock) if e[0] < before]
    events += _visit(TODAY + timedelta(hours=14), back=False)
    for minute in (dog_at, 50):
        events += blip(TODAY + timedelta(hours=14, minutes=minute), LIVING)
    observe(baselines, events, AREAS)
    return max(when for when, entity_id, _ in events if entity_id == WC), events


def _view(now: datetime, events: Events) -> HomeView:
    states = [
        entity(e, _state_at(events, e, now), area=AREAS[e], device_class=CLASSES[e]) for e in AREAS
    ]
    states.append(entity(MARTA, "home"))
    transitions = [Transition(w, e, s, AREAS[e]) for w, e, s in sorted(events) if w <= now]
    env = Environment(local_time=now, persons_home=1, persons_total=1)
    window = build_window(states, env, transitions, profile="", start=now - timedelta(hours=2))
    return HomeView(window)


def _state_at(events: Events, entity_id: str, now: datetime) -> str:
    states = [s for w, e, s in sorted(events) if e == entity_id and w <= now]
    return states[-1] if states else "off"


def test_only_the_dog_moving_since_the_wc_door_shut_is_told_by_the_door() -> None:
    baselines = _marta()
    assert baselines.untracked.round_the_clock(LIVING, TODAY + timedelta(hours=14)) is not None
    assert baselines.untracked.round_the_clock(HALL, TODAY + timedelta(hours=14)) is None
    shut, events = _afternoon(baselines)
    assert shut == TODAY + timedelta(hours=14, minutes=1, seconds=6)
    due = still_where_last_seen_due(
        _view(shut + timedelta(minutes=19, seconds=30), events), baselines
    )
    assert due == shut + timedelta(minutes=20)
    (finding,) = still_where_last_seen(_view(shut + timedelta(minutes=21), events), baselines)
    assert finding.rule == "still_in_room_far_longer"
    assert f"since then only {LIVING} moved" in finding.reasoning
    assert f"Somebody went through {WC} and shut it" in finding.reasoning
    # The dog's sensor reading on right now is not somebody moving now.
    on = shut + timedelta(minutes=49, seconds=20)
    assert _state_at(events, LIVING, on) == "on"
    (finding,) = still_where_last_seen(_view(on, events), baselines)
    assert f"since then only {LIVING} moved" in finding.reasoning


def test_a_door_never_passed_at_night_is_not_read_so() -> None:
    """The same door used by day only (to the patio, the yard): she may be out there,
    pottering, while the dog moves inside; its trips are not read through the dog."""
    baselines = _marta(night_trips=False)
    shut, events = _afternoon(baselines)
    assert list(still_where_last_seen(_view(shut + timedelta(minutes=21), events), baselines)) == []


def test_a_room_with_a_persons_hours_or_moving_right_after_the_door_is_not_read_so() -> None:
    # The living room moves only by day: a person's room, so she may be there.
    baselines = _marta(round_the_clock=False)
    shut, events = _afternoon(baselines, round_the_clock=False)
    assert list(still_where_last_seen(_view(shut + timedelta(minutes=21), events), baselines)) == []
    # The dog's room moved a minute after the door shut, or as she passed it: she may have
    # walked in there.
    for dog_at in (2, 1):
        baselines = _marta()
        shut, events = _afternoon(baselines, dog_at=dog_at)
        later = _view(shut + timedelta(minutes=21), events)
        assert list(still_where_last_seen(later, baselines)) == []


def test_at_night_only_the_dog_moving_since_the_wc_door_shut_is_told_by_the_door() -> None:
    """Her nightly 02:35 trip, and tonight she does not come out; the dog moves at 02:50
    and 03:20 as every night: no person's move (set 37 c: a girl fainted behind the
    bathroom door at 02:27, the cat in the lounge at 02:42; nothing told until her mother
    found her)."""
    # Fails before: by night the dog's motion was read as her coming back.
    baselines = _marta()
    before = TODAY + timedelta(hours=2, minutes=34)
    events = [e for e in _day(TODAY) if e[0] < before and e[1] != LIVING]
    events += _living(TODAY, round_the_clock=True)[:4]  # 00:20 - 01:50
    events += _visit(TODAY + timedelta(hours=2, minutes=35), back=False)
    for minute in (50, 80):
        events += blip(TODAY + timedelta(hours=2, minutes=minute), LIVING)
    observe(baselines, sorted(events), AREAS)
    shut = max(when for when, entity_id, _ in events if entity_id == WC)
    (finding,) = still_where_last_seen(_view(shut + timedelta(minutes=21), events), baselines)
    assert finding.rule == "still_in_room_far_longer"
    assert f"since then only {LIVING} moved" in finding.reasoning
