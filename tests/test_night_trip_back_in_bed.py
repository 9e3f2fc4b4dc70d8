"""A night trip that ends back in a bed lain on is sleep, however brief the room's days.

Deniz (12) goes to bed at 20:30 with a mat under his mattress; his parents are up until
23:00, so after his room every evening the home moves again within minutes, and by day
he only passes through it: the home learned his room as one it always leaves within
minutes (``night_trips``). The night he gets up at 02:30, walks to the hall and back, and
lies down again (his mat on: his room the last sign), the quiet after was a night trip
that never came back and was told two hours later (set 26 c). His mat lain on says he is
back in bed: not told. The same trip with his mat left empty is still judged.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.still_home import still_home
from custom_components.anomaly_monitor.core.baselines.still_where_last_seen import (
    still_where_last_seen,
)
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import Environment, Finding, Transition

from .core_factories import entity, window

ZONE = "Europe/Istanbul"
MAT = "binary_sensor.deniz_bed_occupancy"
KID = "binary_sensor.deniz_room_motion"
HALL = "binary_sensor.hall_motion"
LIVING = "binary_sensor.living_motion"
MUM = "person.mum"
AREAS = {MAT: "Deniz's room", KID: "Deniz's room", HALL: "Hall", LIVING: "Living room"}
CLASSES = {MAT: "occupancy", KID: "motion", HALL: "motion", LIVING: "motion"}
TODAY = datetime(2026, 5, 15, tzinfo=ZoneInfo(ZONE))  # local midnight
DAYS = 10


def _home() -> HomeBaselines:
    baselines = HomeBaselines(ZoneInfo(ZONE))
    baselines.describe(entity(e, "off", area=AREAS[e], device_class=CLASSES[e]).info for e in AREAS)
    start = TODAY - timedelta(days=DAYS)
    baselines.watching(AREAS, start)
    baselines.observe(start, MUM, "home")
    events: list[tuple[datetime, str, str]] = []
    for day in range(DAYS):
        midnight = start + timedelta(days=day)

        def at(hours: float, entity_id: str, state: str, base: datetime = midnight) -> None:
            events.append((base + timedelta(hours=hours), entity_id, state))

        at(7.0, MAT, "off")  # up
        moment = 7.0
        while moment < 23.0:
            sensor = (KID, HALL, LIVING, HALL)[int(moment * 4) % 4]
            at(moment, sensor, "on")
            at(moment + 0.02, sensor, "off")
            moment += 0.25
        at(20.5, KID, "on")
        at(20.51, MAT, "on")  # Deniz to bed; his parents move until 23:00
        at(20.53, KID, "off")
    for when, entity_id, state in sorted(events):
        baselines.observe(when, entity_id, state, AREAS[entity_id])
    return baselines


def _trip(baselines: HomeBaselines, at: datetime, *, back_in_bed: bool) -> list[Transition]:
    """Out of bed at ``at``, to the hall, back to his room (and his bed)."""
    steps = [(0, MAT, "off"), (0.1, KID, "on"), (0.5, HALL, "on"), (1.5, KID, "off")]
    steps += [(3, HALL, "off"), (3.5, KID, "on")]
    if back_in_bed:
        steps.append((4, MAT, "on"))
    steps.append((5, KID, "off"))
    transitions = []
    for minutes, entity_id, state in steps:
        when = at + timedelta(minutes=minutes)
        baselines.observe(when, entity_id, state, AREAS[entity_id])
        transitions.append(Transition(when, entity_id, state))
    return transitions


def _view(now: datetime, transitions: list[Transition], *, mat: str) -> HomeView:
    states = [
        entity(e, mat if e == MAT else "off", area=AREAS[e], device_class=CLASSES[e]) for e in AREAS
    ]
    states.append(entity(MUM, "home"))
    env = Environment(local_time=now, persons_home=1, persons_total=1)
    return HomeView(window(states, env, transitions))


def _told(baselines: HomeBaselines, now: datetime, view: HomeView) -> list[Finding]:
    baselines.advance(now)
    return list(still_where_last_seen(view, baselines))


def test_a_night_trip_back_into_a_bed_lain_on_is_not_told() -> None:
    night = TODAY + timedelta(hours=2, minutes=30)
    baselines = _home()
    trip = _trip(baselines, night, back_in_bed=True)
    for hours in (1, 2, 3):
        now = night + timedelta(hours=hours)
        view = _view(now, trip, mat="on")
        assert _told(baselines, now, view) == []
        still = still_home(view, baselines)
        assert still is None or still.trip is None


def test_the_same_trip_with_the_bed_left_empty_is_still_judged() -> None:
    night = TODAY + timedelta(hours=2, minutes=30)
    baselines = _home()
    trip = _trip(baselines, night, back_in_bed=False)
    now = night + timedelta(hours=1)
    baselines.advance(now)
    still = still_home(_view(now, trip, mat="off"), baselines)
    assert still is not None
    assert still.trip is not None or still.bed is not None
