"""Not up in her own room: the room somebody sleeps by, still past the hour it first moves
on most mornings, while the rest of the home is up.

Abuela's room (a fortnight learned): she gets up for the church at about 05:20 on every
weekday (Saturdays she sleeps till eight), is about in the evening, and goes
to the bathroom at night on some nights. Her daughter is up in the kitchen at five to bake.
The weekday morning nothing moves in her room is told at 07:00 (her usual first hour on
weekdays, 05:00-06:00, and an hour's margin), and not before; not when she moved this
morning, nor when her room showed nobody since the evening before (a night away), nor
when nobody else is up either (``getting_up`` judges the household's rest), nor in a room
nobody sleeps by.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.room_mornings import room_not_up
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityInfo, Environment, Transition
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity

ZONE = ZoneInfo("Africa/Addis_Ababa")
ROOM = "binary_sensor.0x54ef44100087c1d3_occupancy"
DOOR = "binary_sensor.room_door"
KITCHEN = "binary_sensor.kitchen_motion"
AREAS = {ROOM: "Emama room", DOOR: "Emama room", KITCHEN: "Kitchen"}
CLASSES: dict[str, str | None] = {ROOM: "motion", DOOR: "door", KITCHEN: "motion"}
TODAY = datetime(2026, 9, 25, tzinfo=ZONE)
DAYS = 14

Events = list[tuple[datetime, str]]


def _day(midnight: datetime, day: int, *, lie_ins: int = 1) -> Events:
    hour = timedelta(hours=1)
    room = [midnight + 20.5 * hour] + ([midnight + 1.5 * hour] if day % 2 else [])
    late = day % 7 in range(1, 1 + lie_ins)  # Saturday's lie-in (TODAY a Friday), or more
    room.append(midnight + (8 if late else 5.33) * hour)
    kitchen = [midnight + h * hour for h in (5.0, 5.5, 6.0, 7.0, 9.0, 13.0, 19.0)]
    return [(w, ROOM) for w in room] + [(w, KITCHEN) for w in kitchen]


def _learned(today: Events, *, away_last_night: bool = False, lie_ins: int = 1) -> HomeBaselines:
    baselines = HomeBaselines(ZONE)
    baselines.describe(EntityInfo(e, "", area=AREAS[e], device_class=CLASSES[e]) for e in AREAS)
    events: Events = []
    for day in range(DAYS):
        events += _day(TODAY - timedelta(days=DAYS - day), day, lie_ins=lie_ins)
    if away_last_night:  # out from the afternoon before: her room not seen since
        events = [(w, e) for w, e in events if e != ROOM or w < TODAY - timedelta(hours=12)]
    for when, sensor in sorted([*events, *today]):
        baselines.observe(when, sensor, "on", AREAS[sensor])
        baselines.observe(when + timedelta(minutes=2), sensor, "off", AREAS[sensor])
    return baselines


def _view(now: datetime, today: Events) -> HomeView:
    states = [entity(e, "off", area=AREAS[e], device_class=CLASSES[e]) for e in AREAS]
    transitions = [
        Transition(w + timedelta(minutes=m), e, s, AREAS[e])
        for w, e in today
        for m, s in ((0, "on"), (2, "off"))
        if w + timedelta(minutes=m) <= now
    ]
    env = Environment(local_time=now, persons_home=1, persons_total=1)
    ordered = sorted(transitions, key=lambda t: t.when)
    return HomeView(build_window(states, env, ordered, start=now - timedelta(hours=2)))


def _today(*, room_at: float | None = None, evening: bool = True, up: bool = True) -> Events:
    hour = timedelta(hours=1)
    events: Events = [(TODAY - 3.5 * hour, ROOM)] if evening else []
    if room_at is not None:
        events.append((TODAY + room_at * hour, ROOM))
    if up:
        events += [(TODAY + h * hour, KITCHEN) for h in (5.0, 5.5, 6.0, 6.5)]
    return events


def test_her_room_still_past_its_usual_first_hour_is_told() -> None:
    today = _today()
    baselines = _learned(today)
    assert list(room_not_up(_view(TODAY + timedelta(hours=6, minutes=59), today), baselines)) == []
    (finding,) = room_not_up(_view(TODAY + timedelta(hours=7, minutes=5), today), baselines)
    assert finding.rule == "still_in_room_far_longer"
    assert finding.evidence == (ROOM, DOOR)
    assert "Nothing has moved in Emama room this morning" in finding.reasoning
    assert "on most of the 10 weekdays learned it moved by 06:00" in finding.reasoning


def test_up_away_the_night_nobody_up_or_nobody_sleeps_there_is_not_told() -> None:
    later = TODAY + timedelta(hours=7, minutes=30)
    for today in (
        _today(room_at=5.6),  # up, a little late
        _today(up=False),  # nobody else up either: the household's rest
    ):
        assert list(room_not_up(_view(later, today), _learned(today))) == []
    today = _today(evening=False)  # not seen since the day before: a night away
    assert list(room_not_up(_view(later, today), _learned(today, away_last_night=True))) == []
    # The kitchen never moves in the small hours: nobody sleeps by it.
    today = [(TODAY - timedelta(hours=3.5), ROOM), (TODAY + timedelta(hours=5.4), ROOM)]
    assert list(room_not_up(_view(later, today), _learned(today))) == []


def test_mornings_that_spread_wait_as_long_again() -> None:
    # Up at 08:00 on two weekdays in ten (Mondays) as well: most by 09:00, the median at
    # five; told three hours past 09:00, not one.
    today = _today()
    baselines = _learned(today, lie_ins=3)
    assert list(room_not_up(_view(TODAY + timedelta(hours=11, minutes=30), today), baselines)) == []
    (finding,) = room_not_up(_view(TODAY + timedelta(hours=12, minutes=5), today), baselines)
    assert "it moved by 09:00" in finding.reasoning


def test_a_room_without_a_door_of_its_own_is_not_judged(monkeypatch: pytest.MonkeyPatch) -> None:
    # The same sensor and habits, but no door contact in its area: a hall or a living room,
    # whose first movement is whoever of the household passes.
    monkeypatch.setitem(AREAS, DOOR, "Hall")
    today = _today()
    baselines = _learned(today)
    assert list(room_not_up(_view(TODAY + timedelta(hours=7, minutes=5), today), baselines)) == []


def test_an_entrance_hall_is_no_room_of_ones_own(monkeypatch: pytest.MonkeyPatch) -> None:
    # The door in the area is beside a lock: the front door, and the area the entrance hall
    # (set 6's Lyon house on a Sunday morning).
    monkeypatch.setitem(AREAS, "lock.front_door", AREAS[DOOR])
    monkeypatch.setitem(CLASSES, "lock.front_door", None)
    today = _today()
    baselines = _learned(today)
    assert list(room_not_up(_view(TODAY + timedelta(hours=7, minutes=5), today), baselines)) == []
