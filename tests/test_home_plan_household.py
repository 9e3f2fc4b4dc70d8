"""The home benchmark's household features: habits, visitors, per-day routines, pets, lights.

Each test builds the plan of the short test flat with one feature and checks what it makes.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from pathlib import Path
from typing import Any

import pytest

from benchmark_replay.home.scenario import ScenarioError, load_scenario
from benchmark_replay.home.timeline import Change, Plan

from .home_scenario_builder import changes, local, plan_of, short_home, write

ZONE = "Europe/Amsterdam"
MONDAY = date(2026, 1, 5)


def _entity(data: dict[str, Any], entity_id: str, **extra: Any) -> None:
    data["home"]["entities"].append({"entity_id": entity_id, **extra})


def _week(data: dict[str, Any], **routine: str) -> None:
    """A week; Sam keeps ``routine`` (no jitter) every day; no noise, no incidents."""
    data["days"] = 7
    data["household"]["people"][0] = {
        "person": "sam",
        "weekdays": {"wake": "07:00", "leave": "08:00", "return": "18:00", "sleep": "23:00"}
        | routine,
        "jitter": 0,
    }
    data["noise"] = {}
    data["incidents"] = []
    data["feedback"] = []


def _on_day(items: list[Change], day: date) -> list[Change]:
    return [c for c in items if local(c.when, ZONE).date() == day]


def _home_at(plan: Plan, moment: datetime) -> bool:
    before = [c for c in changes(plan, "person.sam") if c.when <= moment]
    return not before or before[-1].state == "home"


def test_a_habit_with_repeat_runs_count_times_within_the_gap(tmp_path: Path) -> None:
    """Cupboards opened 3-8 times while cooking, 0.2-2 min between two openings."""

    def change(data: dict[str, Any]) -> None:
        _week(data)
        _entity(data, "binary_sensor.cupboard", device_class="door", area="Kitchen")
        data["household"]["habits"] = [
            {
                "name": "cooking",
                "at": "18:30",
                "jitter": 0,
                "when": "awake",
                "repeat": {"count": [3, 8], "gap": [0.2, 2]},
                "steps": [
                    {"entity": "binary_sensor.cupboard", "state": "on"},
                    {"entity": "binary_sensor.cupboard", "state": "off", "after": 0.1},
                ],
            }
        ]

    _, plan = plan_of(tmp_path, change)
    cupboard = changes(plan, "binary_sensor.cupboard")
    counts = []
    for offset in range(7):
        day = _on_day(cupboard, MONDAY + timedelta(days=offset))
        opened = [c for c in day if c.state == "on"]
        assert 3 <= len(opened) <= 8
        assert local(opened[0].when, ZONE).time() == time(18, 30)
        assert all(c.source == "habit" for c in day)
        closed = [c for c in day if c.state == "off"]
        for shut, reopened in zip(closed, opened[1:], strict=False):
            gap = (reopened.when - shut.when).total_seconds() / 60
            assert 0.2 <= gap <= 2
        counts.append(len(opened))
    assert len(set(counts)) > 1  # drawn each time, not one fixed burst


def test_a_habit_keeps_to_when_person_and_probability(tmp_path: Path) -> None:
    """A night-time trip while Sam sleeps; nothing 'asleep' at 15:00; p=0 never; a habit
    'away' while Sam is out."""

    def step(entity: str) -> list[dict[str, Any]]:
        return [{"entity": entity, "state": "on"}, {"entity": entity, "state": "off", "after": 3}]

    def change(data: dict[str, Any]) -> None:
        _week(data)
        for name in ("night", "afternoon", "never", "out"):
            _entity(data, f"binary_sensor.{name}")
        toilet = {"name": "toilet", "person": "sam", "at": ["03:10"], "when": "asleep"}
        nap = {"name": "nap", "at": "15:00", "when": "asleep"}
        never = {"name": "never", "at": "19:00", "probability": 0}
        robot = {"name": "robot", "at": "11:00", "when": "away", "days": "weekdays"}
        data["household"]["habits"] = [
            toilet | {"steps": step("binary_sensor.night")},
            nap | {"steps": step("binary_sensor.afternoon")},
            never | {"steps": step("binary_sensor.never")},
            robot | {"steps": step("binary_sensor.out")},
        ]

    _, plan = plan_of(tmp_path, change)
    night = changes(plan, "binary_sensor.night", "on")
    assert len(night) == 7
    for trip in night:
        assert 2 <= local(trip.when, ZONE).hour <= 3
        assert _home_at(plan, trip.when)
    assert not changes(plan, "binary_sensor.afternoon")
    assert not changes(plan, "binary_sensor.never")
    out = changes(plan, "binary_sensor.out", "on")
    assert [local(c.when, ZONE).weekday() for c in out] == [0, 1, 2, 3, 4]
    assert not any(_home_at(plan, c.when) for c in out)


def test_a_visitor_comes_while_the_household_is_away(tmp_path: Path) -> None:
    """The carer unlocks, opens the door and moves about on Mon/Wed/Fri at ten, Sam out."""

    def change(data: dict[str, Any]) -> None:
        _week(data)
        data["household"]["visitors"] = [
            {
                "name": "carer",
                "days": ["mon", "wed", "fri"],
                "at": "10:00",
                "stay": [45, 70],
                "door": "binary_sensor.front_door",
                "lock": "lock.front_door",
                "motion": ["binary_sensor.hall_motion", "binary_sensor.living_motion"],
            }
        ]

    _, plan = plan_of(tmp_path, change)
    door = changes(plan, "binary_sensor.front_door", "on")
    for offset in range(7):
        day = MONDAY + timedelta(days=offset)
        late_morning = [c for c in _on_day(door, day) if 9 <= local(c.when, ZONE).hour < 12]
        if day.weekday() not in (0, 2, 4):
            assert not late_morning
            continue
        arrive, leave = late_morning
        ten = local(arrive.when, ZONE).replace(hour=10, minute=0, second=0, microsecond=0)
        assert abs(local(arrive.when, ZONE) - ten) <= timedelta(minutes=15, seconds=8)
        assert timedelta(minutes=45) <= leave.when - arrive.when <= timedelta(minutes=71)
        assert not _home_at(plan, arrive.when)
        assert arrive.source == "visitor"
        unlocks = [c.when for c in changes(plan, "lock.front_door", "unlocked")]
        assert arrive.when - timedelta(seconds=8) in unlocks
        hall = changes(plan, "binary_sensor.hall_motion", "on")
        assert [c for c in hall if arrive.when < c.when < leave.when]


def test_a_routine_of_its_own_overrides_weekdays_on_that_day(tmp_path: Path) -> None:
    """On Wednesdays Sam goes out at nine; the other days at eight."""

    def change(data: dict[str, Any]) -> None:
        _week(data)
        data["household"]["people"][0]["wed"] = {
            "wake": "06:00", "leave": "09:00", "return": "10:00", "sleep": "22:00"
        }  # fmt: skip

    _, plan = plan_of(tmp_path, change)
    left = [local(c.when, ZONE) for c in changes(plan, "person.sam", "not_home")]
    assert [(t.weekday(), t.hour, t.minute) for t in left] == [
        (day, 9 if day == 2 else 8, 3) for day in range(7)
    ]


def test_per_day_routines_need_every_day(tmp_path: Path) -> None:
    """Without weekdays every day needs its own routine; a missing one is named."""
    data = short_home()
    day = {"wake": "07:00", "sleep": "23:00"}
    data["household"]["people"][0] = {"person": "sam"} | dict.fromkeys(("mon", "tue", "wed"), day)
    with pytest.raises(ScenarioError, match=r"people\[0\]\.weekdays: .*missing thu, fri, sat"):
        load_scenario(write(tmp_path, data))
    data["household"]["people"][0] |= dict.fromkeys(("thu", "fri", "sat", "sun"), day)
    assert load_scenario(write(tmp_path, data)).data["household"]["people"][0]["sun"]


@pytest.mark.parametrize("goes_along", [True, False])
def test_a_pet_that_leaves_with_the_household(tmp_path: Path, goes_along: bool) -> None:
    """The dog goes along: no pet motion while Sam is out (and there is without it)."""

    def change(data: dict[str, Any]) -> None:
        _week(data)
        _entity(data, "binary_sensor.dog_bed", device_class="motion", area="Living room")
        data["household"]["effects"]["pets"] = {
            "motion": ["binary_sensor.dog_bed"],
            "per_hour": 3,
            "leaves_with_household": goes_along,
        }

    _, plan = plan_of(tmp_path, change)
    dog = changes(plan, "binary_sensor.dog_bed", "on")
    while_out = [c for c in dog if not _home_at(plan, c.when)]
    assert dog
    assert bool(while_out) is not goes_along


def test_motion_lights_follow_incident_motion_not_blocked_motion(tmp_path: Path) -> None:
    """An intruder's motion at night switches the hall light; a dead living-room sensor's
    blocked routine motion does not switch the living-room light."""

    def change(data: dict[str, Any]) -> None:
        _week(data)
        data["days"] = 2
        _entity(data, "light.hall", area="Hallway")
        _entity(data, "light.sofa", area="Living room")
        data["household"]["effects"]["motion_lights"] = [
            {"motion": "binary_sensor.hall_motion", "light": "light.hall"},
            {"motion": "binary_sensor.living_motion", "light": "light.sofa"},
        ]
        data["incidents"] = [
            {"id": "intruder", "class": "motion_away", "at": "day 1 21:00", "while": "away",
             "duration": 30, "expect": "notify", "evidence": ["binary_sensor.hall_motion"],
             "changes": [{"entity": "binary_sensor.hall_motion", "state": "on"},
                         {"entity": "binary_sensor.hall_motion", "state": "off", "after": 5}]},
            {"id": "dead_sensor", "class": "sensor_stuck", "at": "day 2 18:00", "while": "home",
             "duration": 300, "expect": "quiet",
             "changes": [{"entity": "binary_sensor.living_motion", "state": "off"}]},
        ]  # fmt: skip

    scenario, plan = plan_of(tmp_path, change)
    intruder = scenario.at((1, time(21, 0)))
    soon = intruder + timedelta(minutes=10)
    hall = [c for c in changes(plan, "light.hall") if intruder <= c.when <= soon]
    assert [c.state for c in hall] == ["on", "off"]
    assert hall[0].when - intruder <= timedelta(seconds=2)
    assert hall[1].when - intruder == timedelta(minutes=7)  # off 2 min after the motion cleared
    dead = scenario.at((2, time(18, 0)))
    over = dead + timedelta(hours=5)
    sofa = [c for c in changes(plan, "light.sofa", "on") if dead < c.when < over]
    assert not sofa
    assert changes(plan, "light.sofa", "on")  # it does follow the sensor's routine otherwise
