"""A night trip out of the room somebody sleeps in, in a home without a bed sensor.

Nan's room has only a door sensor. Every night at 02:00 she opens it, the kitchen sees her
a minute later, and her door moves again six minutes after (back in her room): the room's
night trips (``RoomReturns``) come back within 6 min. By day the kitchen and the hall see
somebody every quarter of an hour (the kitchen is left within minutes at every quarter);
the lounge is sat in for two hours every evening.

Told: the night she opens her door at 02:50, is seen in the kitchen at 02:51, and nothing
moves after: 20 min after the kitchen saw her (twice 6 min and 10 more is under the
20-min floor), naming the room she left and her trips. Not told: the trip that comes back
to her room (asleep), a trip to the lounge (somebody sleepless sits there), a quiet begun
by somebody moving long after the trip's limit (the family up, not her stop), nor a room
whose door only ever opens and shuts again within seconds (no walk anywhere).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.room_returns import RoomReturns
from custom_components.anomaly_monitor.core.baselines.still_where_last_seen import (
    still_where_last_seen,
)
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import Environment, Finding, Transition

from .core_factories import entity, window
from .lived_home import lived, walked

ZONE = ZoneInfo("Europe/London")
DOOR = "binary_sensor.nan_door"
KITCHEN = "binary_sensor.kitchen_motion"
HALL = "binary_sensor.hall_motion"
LOUNGE = "binary_sensor.lounge_motion"
SON = "person.son"
AREAS = {DOOR: "Nan's room", KITCHEN: "Kitchen", HALL: "Hall", LOUNGE: "Lounge"}
CLASSES = {DOOR: "door", KITCHEN: "motion", HALL: "motion", LOUNGE: "motion"}
TODAY = datetime(2026, 11, 12, tzinfo=ZONE)  # local midnight
DAYS = 8


def _home(back: float = 2.1) -> HomeBaselines:
    """``DAYS`` days of the household before ``TODAY`` (see the module); ``back``: the hour
    her door moves again after each night's trip."""
    start = TODAY - timedelta(days=DAYS)
    events: list[tuple[datetime, str, str]] = []
    for day in range(DAYS):
        midnight = start + timedelta(days=day)

        def at(hours: float, entity_id: str, state: str, base: datetime = midnight) -> None:
            events.append((base + timedelta(hours=hours), entity_id, state))

        at(2.0, DOOR, "on")
        at(2.005, DOOR, "off")
        at(2.02, KITCHEN, "on")
        at(2.05, KITCHEN, "off")
        at(back, DOOR, "on")  # back in her room 6 min after the kitchen
        at(back + 0.005, DOOR, "off")
        moment, sensors = 7.0, (KITCHEN, HALL)
        while moment < 18.0:
            sensor = sensors[int(moment * 4) % 2]
            at(moment, sensor, "on")
            at(moment + 0.03, sensor, "off")
            moment += 0.25
        at(18.0, LOUNGE, "on")  # the evening on the sofa
        at(18.05, LOUNGE, "off")
        at(20.0, LOUNGE, "on")
        at(20.05, LOUNGE, "off")
        at(20.5, KITCHEN, "on")
        at(20.55, KITCHEN, "off")
        at(21.0, DOOR, "on")  # to bed
        at(21.005, DOOR, "off")
    return lived(str(ZONE), AREAS, CLASSES, SON, start=start, days=[events])


def _walk(
    baselines: HomeBaselines, night: datetime, steps: list[tuple[float, str, str]]
) -> list[Transition]:
    return walked(baselines, night, steps, AREAS)


def _told(baselines: HomeBaselines, now: datetime, seen: list[Transition]) -> list[Finding]:
    baselines.advance(now)
    states = [entity(e, "off", area=AREAS[e], device_class=CLASSES[e]) for e in AREAS]
    states.append(entity(SON, "home"))
    env = Environment(local_time=now, persons_home=1, persons_total=1)
    view = HomeView(window(states, env, seen))
    return list(still_where_last_seen(view, baselines))  # type: ignore[arg-type]


OUT_TO_THE_KITCHEN = [(0, DOOR, "on"), (0.3, DOOR, "off"), (1, KITCHEN, "on"), (2, KITCHEN, "off")]


def test_her_rooms_trips_are_learned_per_quarter_and_stored() -> None:
    baselines = _home()
    returns = baselines.room_quiet.returns
    learned = returns.learned("Nan's room", TODAY + timedelta(hours=2))
    assert learned is not None
    # The first night had no rest before it.
    assert (round(learned.longest.total_seconds() / 60, 1), learned.days) == (4.8, DAYS - 1)
    # The morning's first steps and the rooms nobody sleeps in teach no trip.
    assert returns.learned("Nan's room", TODAY + timedelta(hours=8)) is None
    assert returns.learned("Kitchen", TODAY + timedelta(hours=2)) is None
    again = RoomReturns.from_dict(returns.as_dict(), ZONE)
    assert again.learned("Nan's room", TODAY + timedelta(hours=2)) == learned
    malformed = {"trips": {"x": [[["a", 1, 1]], [], [], []]}, "trip": ["x", "no time", None]}
    kept = RoomReturns.from_dict(malformed, ZONE)
    assert list(kept.trips["x"][0]) == []
    assert kept.trip is None
    assert RoomReturns.from_dict("garbage", ZONE).trips == {}


def test_out_to_the_kitchen_and_nothing_since_is_told_20_min_after() -> None:
    baselines = _home()
    night = TODAY + timedelta(hours=2, minutes=50)
    seen = _walk(baselines, night, OUT_TO_THE_KITCHEN)
    assert _told(baselines, night + timedelta(minutes=20), seen) == []
    (finding,) = _told(baselines, night + timedelta(minutes=22), seen)
    assert finding.rule == "still_in_room_far_longer"
    assert "last seen in Kitchen" in finding.reasoning
    assert "somebody left Nan's room at 02:51 and has not been back in it since" in (
        finding.reasoning
    )
    assert "back within 4 min" in finding.reasoning


def test_back_in_her_room_or_up_in_the_lounge_is_not_told() -> None:
    night = TODAY + timedelta(hours=2, minutes=50)
    baselines = _home()
    seen = _walk(baselines, night, [*OUT_TO_THE_KITCHEN, (7, DOOR, "on"), (7.3, DOOR, "off")])
    assert _told(baselines, night + timedelta(minutes=40), seen) == []
    # Sleepless, to the lounge (sat in for hours every evening): not a trip's stop.
    baselines = _home()
    seen = _walk(baselines, night, [(0, DOOR, "on"), (0.3, DOOR, "off"), (1, LOUNGE, "on")])
    seen += _walk(baselines, night, [(2, LOUNGE, "off")])
    assert _told(baselines, night + timedelta(minutes=40), seen) == []


def test_a_quiet_begun_past_the_trips_limit_is_somebody_up_not_her_stop() -> None:
    baselines = _home()
    night = TODAY + timedelta(hours=2, minutes=50)
    seen = _walk(baselines, night, OUT_TO_THE_KITCHEN)
    # Somebody in the hall 25 min later (past her 20-min limit), then nothing.
    seen += _walk(baselines, night, [(25, HALL, "on"), (26, HALL, "off")])
    assert _told(baselines, night + timedelta(minutes=45), seen) == []


def test_a_door_only_ever_opened_and_shut_again_within_seconds_teaches_no_walk() -> None:
    # Every night her door opens, the kitchen's sensor fires, and the door moves again 18 s
    # after (a glance out, the milk from the step): no walk anywhere, no trip to judge by.
    baselines = _home(back=2.02 + 0.3 / 60)
    learned = baselines.room_quiet.returns.learned("Nan's room", TODAY + timedelta(hours=2))
    assert learned is not None
    assert learned.longest < timedelta(minutes=1)
    night = TODAY + timedelta(hours=2, minutes=50)
    seen = _walk(baselines, night, OUT_TO_THE_KITCHEN)
    for finding in _told(baselines, night + timedelta(minutes=25), seen):
        assert "has not been back in it since" not in finding.reasoning
