"""A sensor that keeps no person's hours is no person who opened the door half an hour later.

A flat (core, no Home Assistant): Alice and Bob, both tracked, go out together at 16:00 on
the first afternoon the flat was ever empty. Their cat (the profile does not say so in words
the monitor reads) walks the hall and the kitchen day and night: on each of the six days
learned those sensors moved in every hour, whoever was home. At 16:35 the kitchen sensor
sees the cat; at 17:10 the front door opens (a stranger with a card) and the hall sees
him.

- The kitchen at 16:35 is no sign of somebody inside who opened the door at 17:10: the
  opening is from outside (``somebody_in.opened_from_inside`` is None).
- The hall moving three minutes before the door (somebody on their way to it) is still
  somebody inside opening it, round-the-clock sensor or not.
- A sensor that keeps a person's hours (the bathroom, quiet at night) seen at 16:35 is
  somebody inside who stayed, as before: the door at 17:10 is theirs.
- Somebody about inside shows again within a quarter of an hour (a night carer between the
  hall and the patient's room, seen every ten minutes since the others left, last 13 min
  before the door): the round-the-clock hall is them, and they open the door to the next.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.inside_walk import Walk
from custom_components.anomaly_monitor.core.baselines.somebody_in import opened_from_inside
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import Transition

from .core_factories import entity, environment, window

DAY0 = datetime(2027, 3, 15, tzinfo=UTC)
LEARNED_DAYS = 6
ALICE, BOB = "person.alice", "person.bob"
FRONT = "binary_sensor.front_door"
HALL = "binary_sensor.hall_motion"
KITCHEN = "binary_sensor.kitchen_motion"
BATH = "binary_sensor.bathroom_motion"
AREAS = {FRONT: "Hall", HALL: "Hall", KITCHEN: "Kitchen", BATH: "Bathroom"}
CLASSES = {FRONT: "door", HALL: "motion", KITCHEN: "motion", BATH: "motion"}
TODAY = DAY0 + timedelta(days=LEARNED_DAYS)


def at(hours: float, minutes: float = 0) -> datetime:
    return TODAY + timedelta(hours=hours, minutes=minutes)


def _learned() -> HomeBaselines:
    """Six days with both at home: the hall and the kitchen move in every hour (the cat),
    the bathroom only by day."""
    baselines = HomeBaselines(UTC)
    for day in range(LEARNED_DAYS):
        for hour in range(24):
            when = DAY0 + timedelta(days=day, hours=hour, minutes=20)
            baselines.untracked.moved(HALL, when, empty=False)
            baselines.untracked.moved(KITCHEN, when + timedelta(minutes=17), empty=False)
            if 8 <= hour < 22:
                baselines.untracked.moved(BATH, when, empty=False)
    return baselines


def _moved(when: datetime, sensor: str) -> list[Transition]:
    return [
        Transition(when, sensor, "on", AREAS[sensor]),
        Transition(when + timedelta(minutes=1), sensor, "off", AREAS[sensor]),
    ]


def _afternoon(sign_at: datetime, sensor: str, *earlier: datetime) -> HomeView:
    """Both out at 16:00 (the hall seen as they went), ``sensor`` moving at ``sign_at``
    (and at ``earlier``), the front door opened at 17:10."""
    transitions = sorted(
        [
            *(t for when in earlier for t in _moved(when, sensor)),
            *_moved(at(15, 57), HALL),
            Transition(at(15, 59), FRONT, "on", "Hall"),
            Transition(at(15, 59.5), FRONT, "off", "Hall"),
            Transition(at(16), ALICE, "not_home"),
            Transition(at(16), BOB, "not_home"),
            *_moved(sign_at, sensor),
            Transition(at(17, 10), FRONT, "on", "Hall"),
        ],
        key=lambda t: t.when,
    )
    states = [
        entity(e, "on" if e == FRONT else "off", area=AREAS[e], device_class=CLASSES[e])
        for e in AREAS
    ]
    states += [entity(ALICE, "not_home"), entity(BOB, "not_home")]
    now = at(17, 10.2)
    return HomeView(window(states, environment(now, persons_home=0), transitions))


def test_the_cats_round_half_an_hour_before_is_nobody_who_opened_the_door() -> None:
    baselines = _learned()
    assert baselines.untracked.round_the_clock(KITCHEN, at(16, 35)) is not None
    home = _afternoon(at(16, 35), KITCHEN)
    assert opened_from_inside(baselines, home, at(17, 10), FRONT) is None


def test_somebody_on_their_way_to_the_door_opened_it() -> None:
    baselines = _learned()
    home = _afternoon(at(17, 7), HALL)
    inside = opened_from_inside(baselines, home, at(17, 10), FRONT)
    assert inside is not None
    assert inside.last_sign >= at(17, 7)


def test_a_sensor_that_keeps_a_persons_hours_is_somebody_who_stayed_in() -> None:
    baselines = _learned()
    assert baselines.untracked.round_the_clock(BATH, at(16, 35)) is None
    home = _afternoon(at(16, 35), BATH)
    assert opened_from_inside(baselines, home, at(17, 10), FRONT) is not None


def test_somebody_about_inside_opens_the_door_to_the_next() -> None:
    baselines = _learned()
    home = _afternoon(at(16, 57), HALL, at(16, 12), at(16, 24), at(16, 35), at(16, 46))
    assert opened_from_inside(baselines, home, at(17, 10), FRONT) is not None


def test_the_walk_reaches_a_round_the_clock_sign_only_for_a_quarter_hour() -> None:
    walk = Walk()
    walk.sign(at(16, 35), "Kitchen", hourless=True)
    assert walk.from_inside(at(16, 39))
    assert walk.from_inside(at(16, 48))  # somebody about shows within a quarter hour
    assert not walk.from_inside(at(17, 10))
    # A person's sign after it reaches as far as any other.
    walk.sign(at(16, 50), "Bathroom")
    assert walk.from_inside(at(17, 40))


def test_once_the_home_showed_motion_while_empty_its_away_normal_judges() -> None:
    """A home that showed motion while every tracker was away on an earlier day (a mother
    at home without a phone the Thursday before) is read by its away normal, learned from
    those days: the kitchen half an hour before the door is somebody inside, as before."""
    baselines = _learned()
    baselines.untracked.moved(KITCHEN, DAY0 + timedelta(days=2, hours=10), empty=True)
    home = _afternoon(at(16, 35), KITCHEN)
    assert opened_from_inside(baselines, home, at(17, 10), FRONT) is not None
