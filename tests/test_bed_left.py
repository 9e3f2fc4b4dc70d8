"""Out of bed in the night and nothing since: the bed sensor says she is not asleep in it.

Nan (a week learned) is in a hospital bed with a mat under the mattress: in bed from 21:00
to 07:00, a sensor sees somebody every quarter of an hour by day, nothing at night. The
night she slides out of bed at 02:50 (the mat empty, a minute of movement in her room,
then nothing) is told 40 min after her last movement, naming the mat; before, the quiet
was taken for sleep (the bedroom is where the night follows) until the morning.

Not told: the same trip that ends back in bed; a bed its sleeper leaves for the day at
05:00 (an early riser: left for hours at that time of day); a bed whose night trips last
half an hour waits past them. A bed whose sleeper gets up for the day at 05:30 (left for
hours in the night quarter too) and goes out of it and back within minutes every night at
02:00 is judged by those trips: her fall at 02:50 is told 20 min after she left it. A
phone that drops to ``unknown`` for minutes and comes back home is no arrival (it voided
the quiet), while a real arrival still is.
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
from custom_components.anomaly_monitor.core.models import (
    EntityState,
    Environment,
    Finding,
    Transition,
)

from .core_factories import entity, window

ZONE = "Asia/Hong_Kong"
MAT = "binary_sensor.nan_bed_mat"
ROOM = "binary_sensor.nan_room_motion"
HALL = "binary_sensor.hall_motion"
KITCHEN = "binary_sensor.kitchen_motion"
SON = "person.son"
AREAS = {MAT: "Nan's room", ROOM: "Nan's room", HALL: "Hall", KITCHEN: "Kitchen"}
CLASSES = {MAT: "occupancy", ROOM: "occupancy", HALL: "motion", KITCHEN: "motion"}
TODAY = datetime(2026, 9, 17, tzinfo=ZoneInfo(ZONE))  # local midnight
DAYS = 7


def _nan(*, up_at: float = 7.0, trip: float | None = None) -> HomeBaselines:
    """A week of Nan's days before ``TODAY``: out of bed at ``up_at`` (hours); ``trip``:
    every night at 02:00 out of bed for that many minutes, then back in it."""
    baselines = HomeBaselines(ZoneInfo(ZONE))
    baselines.describe(entity(e, "off", area=AREAS[e], device_class=CLASSES[e]).info for e in AREAS)
    start = TODAY - timedelta(days=DAYS)
    baselines.watching(AREAS, start)
    baselines.observe(start, SON, "home")
    events: list[tuple[datetime, str, str]] = []
    for day in range(DAYS):
        midnight = start + timedelta(days=day)

        def at(hours: float, entity_id: str, state: str, base: datetime = midnight) -> None:
            events.append((base + timedelta(hours=hours), entity_id, state))

        if trip is not None:
            at(2.0, MAT, "off")
            at(2.01, ROOM, "on")
            at(2.05, ROOM, "off")
            at(2.0 + trip / 60, ROOM, "on")
            at(2.0 + trip / 60 + 0.01, MAT, "on")
            at(2.0 + trip / 60 + 0.05, ROOM, "off")
        at(up_at, MAT, "off")
        moment, sensors = max(up_at, 7.0), (ROOM, HALL, KITCHEN)
        while moment < 20.9:
            sensor = sensors[int(moment * 4) % 3]
            at(moment, sensor, "on")
            at(moment + 0.03, sensor, "off")
            moment += 0.25
        at(21.0, ROOM, "on")
        at(21.05, MAT, "on")  # to bed
        at(21.1, ROOM, "off")
    for when, entity_id, state in sorted(events):
        baselines.observe(when, entity_id, state, AREAS.get(entity_id))
    return baselines


def _slides_out(baselines: HomeBaselines, at: datetime) -> datetime:
    """Out of bed, a minute of movement in her room, then nothing: her last movement."""
    for minutes, entity_id, state in [(0, MAT, "off"), (0.2, ROOM, "on"), (3, ROOM, "off")]:
        baselines.observe(at + timedelta(minutes=minutes), entity_id, state, AREAS[entity_id])
    return at + timedelta(minutes=3)


def _view(
    now: datetime,
    *,
    mat: str = "off",
    son: str = "home",
    transitions: list[Transition] | None = None,
    extra: list[EntityState] | None = None,
) -> HomeView:
    states = [
        entity(e, mat if e == MAT else "off", area=AREAS[e], device_class=CLASSES[e]) for e in AREAS
    ]
    states += extra or []  # sensors of a test's own
    states.append(entity(SON, son))
    env = Environment(local_time=now, persons_home=1, persons_total=1)
    return HomeView(window(states, env, transitions or []))


def _told(baselines: HomeBaselines, now: datetime, **view: object) -> list[Finding]:
    baselines.advance(now)
    return list(still_where_last_seen(_view(now, **view), baselines))  # type: ignore[arg-type]


def test_out_of_bed_in_the_night_and_nothing_since_is_told_after_40_min() -> None:
    baselines = _nan()
    night = TODAY + timedelta(hours=2, minutes=50)
    still = _slides_out(baselines, night)  # 02:53
    due = still_where_last_seen_due(_view(night + timedelta(minutes=10)), baselines)
    assert due == still + timedelta(minutes=40)
    assert _told(baselines, still + timedelta(minutes=39)) == []
    (finding,) = _told(baselines, still + timedelta(minutes=41))
    assert finding.rule == "still_in_room_far_longer"
    assert finding.evidence == (MAT, ROOM)
    assert "last seen in Nan's room 41 min ago (at 02:53)" in finding.reasoning
    assert "Nan Bed Mat was left at 02:50 and nobody has lain on it since" in finding.reasoning
    assert "it has not been left at this time of day before" in finding.reasoning


def test_back_in_bed_or_a_bed_left_for_the_day_is_not_told() -> None:
    night = TODAY + timedelta(hours=2, minutes=50)
    # Back in bed after the commode: asleep, whatever the quiet after it.
    baselines = _nan()
    still = _slides_out(baselines, night)
    baselines.observe(still + timedelta(minutes=2), MAT, "on", AREAS[MAT])
    for hours in (1, 2, 3):
        assert _told(baselines, still + timedelta(hours=hours), mat="on") == []
    # An early riser, out of bed for the day at 05:00 every day (the night quarter's bed
    # stays empty for hours): her getting up, then sitting still unseen, is no trip.
    early = _nan(up_at=5.0)
    dawn = TODAY + timedelta(hours=5)
    still = _slides_out(early, dawn)
    for minutes in (41, 90):
        assert _told(early, still + timedelta(minutes=minutes)) == []


def test_a_bed_whose_night_trips_are_long_waits_past_them() -> None:
    baselines = _nan(trip=30)  # out of bed half an hour every night at 02:00
    night = TODAY + timedelta(hours=2, minutes=50)
    still = _slides_out(baselines, night)
    assert _told(baselines, still + timedelta(minutes=45)) == []  # a trip's 30 min + 20
    (finding,) = _told(baselines, still + timedelta(minutes=51))
    assert "when it was left at this time of day it was empty for at most 30 min" in (
        finding.reasoning
    )


def test_a_bed_left_for_the_day_at_half_past_five_is_still_judged_by_its_night_trips() -> None:
    baselines = _nan(up_at=5.5, trip=9)  # the day begins in the night quarter; trips at 02:00
    night = TODAY + timedelta(hours=2, minutes=50)
    _slides_out(baselines, night)  # 02:53
    seen = [  # the window shows the bed left, and what moved since
        Transition(night, MAT, "off"),
        Transition(night + timedelta(minutes=0.2), ROOM, "on"),
        Transition(night + timedelta(minutes=3), ROOM, "off"),
    ]
    assert _told(baselines, night + timedelta(minutes=19), transitions=seen) == []
    (finding,) = _told(baselines, night + timedelta(minutes=21), transitions=seen)
    assert finding.evidence == (MAT, ROOM)
    assert "whoever left it was back in it within 9 min (6 times on 6 days)" in finding.reasoning
    # Her trip that ends back in bed is no fall; without the night trips learned, her
    # getting up at 05:30 and sitting still is no trip either (the early riser above).
    baselines = _nan(up_at=5.5, trip=9)
    still = _slides_out(baselines, night)
    baselines.observe(still + timedelta(minutes=4), MAT, "on", AREAS[MAT])
    back = [*seen, Transition(still + timedelta(minutes=4), MAT, "on")]
    assert _told(baselines, night + timedelta(minutes=40), mat="on", transitions=back) == []


def test_a_phone_blinking_to_unknown_is_no_arrival_but_an_arrival_is() -> None:
    night = TODAY + timedelta(hours=2, minutes=50)
    blink = night + timedelta(minutes=20)
    baselines = _nan()
    still = _slides_out(baselines, night)
    baselines.observe(blink, SON, "unknown")
    baselines.observe(blink + timedelta(minutes=7), SON, "home")
    seen = [
        Transition(blink, SON, "unknown"),
        Transition(blink + timedelta(minutes=7), SON, "home"),
    ]
    (finding,) = _told(baselines, still + timedelta(minutes=41), transitions=seen)
    assert MAT in finding.evidence
    # The son really comes home (away, then home, in the window): somebody came.
    baselines = _nan()
    still = _slides_out(baselines, night)
    baselines.observe(blink, SON, "not_home")
    baselines.observe(blink + timedelta(minutes=7), SON, "home")
    came = [
        Transition(blink, SON, "not_home"),
        Transition(blink + timedelta(minutes=7), SON, "home"),
    ]
    assert _told(baselines, still + timedelta(minutes=41), transitions=came) == []
