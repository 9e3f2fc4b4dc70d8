"""Not up, told by a contact's first use of the day (core, no Home Assistant): an untracked
grandmother's bedroom door opens at about ten to seven every day; one morning it stays shut
while her grandson (the only tracker) is up and about. The ids say nothing of the rooms."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.daily_routines import quarter_of
from custom_components.anomaly_monitor.core.baselines.detectors import baseline_findings
from custom_components.anomaly_monitor.core.baselines.first_use_missed import (
    first_use_at,
    first_use_missed,
)
from custom_components.anomaly_monitor.core.baselines.first_use_night import slept_here
from custom_components.anomaly_monitor.core.feedback import FalseAlarms
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityInfo, EntityState, Severity

from .core_factories import entity, environment, steps, window
from .lived_home import ticked

DAY0 = datetime(2027, 1, 11, tzinfo=UTC)  # a Monday
DOOR = "binary_sensor.0x00158d0001_contact"  # her bedroom door: rests open by day
DRAWER = "binary_sensor.0x00158d0002_contact"  # in her room: opened a moment each morning
FRONT = "binary_sensor.0x00158d0003_contact"  # the way the household comes and goes
HALL = "binary_sensor.0x00158d0004_occupancy"
PERSON = "person.b"
ROOM, HALLWAY = "Room 3", "Room 1"
INFOS = [
    EntityInfo(DOOR, "Door 1", area=ROOM, device_class="door"),
    EntityInfo(DRAWER, "Contact 2", area=ROOM, device_class="door"),
    EntityInfo(FRONT, "Door 3", area=HALLWAY, device_class="door"),
    EntityInfo(HALL, "Occupancy 4", area=HALLWAY, device_class="occupancy"),
]


def _minute(day: int, base: int, spread: int) -> int:
    return base + (day * 7) % (2 * spread + 1) - spread


def lived(
    days: int,
    away: frozenset[int] = frozenset(),
    no_drawer: frozenset[int] = frozenset(),
    leaves: frozenset[int] = frozenset(),
) -> HomeBaselines:
    """``days`` days: her door opened at 06:50 ± 10 and shut at 22:30, a night trip at
    ~02:30 on most nights, the drawer at 08:10 ± 15; the grandson (tracked) leaves by the
    front door at ~08:50 (half an hour after her drawer at the latest: the drawer is no
    way out) and is back at 18:30. ``away``: days everybody is away (nothing used, the
    tracker out); ``no_drawer``: days the drawer is not used; ``leaves``: days she leaves
    at ten for the night (her door shut then, nothing of her room after)."""
    baselines = HomeBaselines(UTC)
    baselines.describe(INFOS)
    events: list[tuple[datetime, str, str]] = []
    for day in range(days):
        start = DAY0 + timedelta(days=day)
        if day in away:
            events += [(start + timedelta(hours=1), PERSON, "not_home")]
            events += [(start + timedelta(hours=23, minutes=50), PERSON, "home")]
            continue
        at = start + timedelta(minutes=_minute(day, 6 * 60 + 50, 10))
        if day % 4:
            trip = start + timedelta(hours=2, minutes=20 + day % 20)
            events += [(trip, DOOR, "on"), (trip + timedelta(minutes=5), DOOR, "off")]
        events += [(at, DOOR, "on"), (at + timedelta(minutes=1), HALL, "on")]
        events += [(at + timedelta(minutes=3), HALL, "off")]
        drawer = start + timedelta(minutes=_minute(day, 8 * 60 + 10, 15))
        if day not in no_drawer:
            events += [(drawer, DRAWER, "on"), (drawer + timedelta(seconds=30), DRAWER, "off")]
        leave = start + timedelta(hours=8, minutes=50)
        events += [(leave - timedelta(minutes=1), FRONT, "on"), (leave, FRONT, "off")]
        events += [(leave + timedelta(minutes=1), PERSON, "not_home")]
        back = start + timedelta(hours=18, minutes=30)
        events += [(back, FRONT, "on"), (back + timedelta(minutes=1), FRONT, "off")]
        events += [(back + timedelta(minutes=2), PERSON, "home")]
        bedtime = timedelta(hours=10 if day in leaves else 22, minutes=30)
        events += [(start + bedtime, DOOR, "off")]
    baselines.observe(DAY0, PERSON, "home")
    baselines.observe(DAY0, DOOR, "off")
    ticked(baselines, events, DAY0, DAY0 + timedelta(days=days))
    return baselines


def _states(door: str = "off") -> list[EntityState]:
    return [
        entity(DOOR, door, area=ROOM, device_class="door"),
        entity(DRAWER, "off", area=ROOM, device_class="door"),
        entity(FRONT, "off", area=HALLWAY, device_class="door"),
        entity(HALL, "off", area=HALLWAY, device_class="occupancy"),
    ]


def at(now: datetime, events: list[tuple[float, str, str]], home: int = 1) -> HomeView:
    """The view at ``now``; ``events``: (minutes after the morning's midnight, id, state)."""
    midnight = now.replace(hour=0, minute=0, second=0)
    transitions = steps(midnight, events)
    return HomeView(window(_states(), environment(now, persons_home=home), transitions))


def test_her_door_not_opened_by_its_usual_time_is_told_once_with_a_tracker_home() -> None:
    """Ten days learned; the eleventh morning her door stays shut. Her grandson moves in
    the hall at 07:30 (the household is up, ``getting_up`` has nothing to say): at 07:40,
    within the margin, nothing; at 08:05 told, on her room, with her door. Fails before: no
    rule judged a contact's first use."""
    baselines = lived(10)
    morning = [(7 * 60 + 30, HALL, "on"), (7 * 60 + 32, HALL, "off")]
    today = DAY0 + timedelta(days=10)
    assert (
        list(first_use_missed(at(today + timedelta(hours=7, minutes=40), morning), baselines)) == []
    )
    now = today + timedelta(hours=8, minutes=5)
    found = baseline_findings(at(now, morning), baselines, Severity.LOW, FalseAlarms())
    [finding] = [f for f in found if f.rule == "routine_missed"]
    assert finding.evidence == (DOOR,)
    assert finding.subject == DOOR  # her door: a later finding about it is this trouble
    assert "is opened by 07:00 on 10 of the 10 days" in finding.reasoning


def test_told_with_no_tracker_home_while_somebody_moves_but_not_in_an_empty_home() -> None:
    """At 09:20 the grandson has left (08:50) and the hall moved after: somebody is in, she
    is told about (her drawer late too: one finding for her room). With nothing moved
    since he left: nobody to be up."""
    baselines = lived(10)
    today = DAY0 + timedelta(days=10)
    now = today + timedelta(hours=10, minutes=20)
    left = [(8 * 60 + 51, PERSON, "not_home")]
    moved = [*left, (9 * 60 + 40, HALL, "on"), (9 * 60 + 41, HALL, "off")]
    assert list(first_use_missed(at(now, left, home=0), baselines)) == []
    [finding] = first_use_missed(at(now, moved, home=0), baselines)
    assert set(finding.evidence) == {DOOR, DRAWER}
    # Once told, the morning's notice stands (no second notice when it comes back).
    assert list(first_use_missed(at(now, left, home=0), baselines)) == [finding]


def test_not_told_the_morning_after_a_night_she_spent_elsewhere() -> None:
    """Her door is open every evening until she shuts it at bedtime. On the eleventh day
    she leaves at half past ten for a night at her daughter's (no tracker; her grandson,
    tracked, sleeps at home and is up at 07:30): the next morning her door and drawer
    stay shut, and nothing is told; she had slept at home the night before her other
    mornings. Fails before: told at 08:05 (set 17 d, the night in Rabat)."""
    today = DAY0 + timedelta(days=11)
    morning = [(7 * 60 + 30, HALL, "on"), (7 * 60 + 32, HALL, "off")]
    now = today + timedelta(hours=9, minutes=30)
    assert list(first_use_missed(at(now, morning), lived(11, leaves=frozenset({10})))) == []
    [finding] = first_use_missed(at(now, morning), lived(11))
    assert set(finding.evidence) == {DOOR, DRAWER}


def test_nothing_when_she_is_up_in_her_room_or_her_door_opened_late() -> None:
    """Her drawer opened at 07:20 (she is up, the door still shut) and her door opened
    at 07:50: neither is told. The front door, the way out, is never a first use."""
    baselines = lived(10)
    today = DAY0 + timedelta(days=10)
    now = today + timedelta(hours=8, minutes=30)
    up = [(7 * 60 + 20, DRAWER, "on"), (7 * 60 + 21, DRAWER, "off")]
    assert list(first_use_missed(at(now, up), baselines)) == []
    baselines.observe(today + timedelta(hours=7, minutes=50), DOOR, "on")
    baselines.observe(today + timedelta(hours=8, minutes=0), DOOR, "off")
    baselines.advance(now)
    assert list(first_use_missed(at(now, []), baselines)) == []


def test_a_few_days_learned_or_days_away_are_no_routine() -> None:
    """Six days used are too few; days away in the middle do not count as days she was
    not up (the door was used on none of them)."""
    today = DAY0 + timedelta(days=6)
    now = today + timedelta(hours=8, minutes=30)
    assert list(first_use_missed(at(now, []), lived(6))) == []
    away = frozenset({2, 3, 4})
    baselines = lived(13, away=away)
    now = DAY0 + timedelta(days=13, hours=8, minutes=5)
    [finding] = first_use_missed(at(now, []), baselines)
    assert "on 10 of the 10 days it was used" in finding.reasoning


def test_a_weekday_the_contact_is_not_used_keeps_its_weekly_exception() -> None:
    """The drawer is used on weekdays only: on the second Saturday (its first Saturday a
    week ago was watched and it was not used) nothing is told about it; her door, used
    every day, is still told that morning, and only once: one notice a morning."""
    weekends = frozenset(d for d in range(14) if d % 7 in (5, 6))
    baselines = lived(12, no_drawer=weekends)
    saturday = DAY0 + timedelta(days=12)
    now = saturday + timedelta(hours=10)
    [finding] = first_use_missed(at(now, []), baselines)
    assert finding.evidence == (DOOR,)


def test_a_drawer_alone_needs_somebody_home_overnight() -> None:
    """Her drawer, kept in the morning only, says nothing of her evenings: then the home
    must show somebody overnight. The household left at five in the afternoon, her door
    left open, and came back at nine: nobody slept here (an open door all night is no
    sign). On an ordinary night (her door shut at half past ten) somebody did."""
    ordinary = lived(11)
    away = lived(10)
    evening = DAY0 + timedelta(days=10)
    for when, entity_id, state in [
        (evening + timedelta(hours=6, minutes=50), DOOR, "on"),
        (evening + timedelta(hours=17), PERSON, "not_home"),
    ]:
        away.observe(when, entity_id, state)
    morning = DAY0 + timedelta(days=11)
    band = morning + timedelta(hours=7, minutes=45)
    for baselines in (ordinary, away):
        baselines.advance(morning + timedelta(hours=8))
    routines = away.routines
    slot, day = quarter_of(band, UTC)
    first = first_use_at(routines, DRAWER, slot + 2, day)
    assert first is not None
    view = at(morning + timedelta(hours=8), [])
    assert not slept_here(view, routines, [DRAWER], band, first.days)
    assert slept_here(view, ordinary.routines, [DRAWER], band, first.days)
