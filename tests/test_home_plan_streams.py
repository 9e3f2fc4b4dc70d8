"""The home benchmark's random streams: a local change to a home stays local.

A night incident that needs somebody home leaves a sleeping household asleep, and
changing one day of a home re-draws that day alone (every draw has its own named stream).
"""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path
from typing import Any

from benchmark_replay.home.timeline import Change

from .home_scenario_builder import changes, local, plan_of

ZONE = "Europe/Amsterdam"
MONDAY = date(2026, 1, 5)
MOTION = ("binary_sensor.hall_motion", "binary_sensor.living_motion")


def _week(data: dict[str, Any]) -> None:
    """A week with Sam's routine (jittered), motion and noise; no incidents."""
    data["days"] = 7
    data["household"]["people"][0]["weekdays"] = {
        "wake": "07:00",
        "leave": "08:30",
        "return": "17:30",
        "sleep": "23:00",
    }
    data["incidents"] = []
    data["feedback"] = []


def _night_check(at: str, duration: int = 20) -> dict[str, Any]:
    """A quiet night event that needs somebody home (the smoke detector's self-test)."""
    return {
        "id": "self_test",
        "class": "sensor_test",
        "at": at,
        "duration": duration,
        "while": "home",
        "expect": "quiet",
        "changes": [{"entity": "binary_sensor.kitchen_smoke", "state": "on"}],
    }


def _by_day(items: list[Change]) -> dict[date, list[tuple[str, str]]]:
    out: dict[date, list[tuple[str, str]]] = {}
    for c in items:
        out.setdefault(local(c.when, ZONE).date(), []).append((c.when.isoformat(), c.state))
    return out


def test_a_night_incident_while_home_does_not_wake_the_sleeping_household(
    tmp_path: Path,
) -> None:
    def change(data: dict[str, Any]) -> None:
        _week(data)
        data["incidents"] = [_night_check("day 3 03:00")]

    scenario, plan = plan_of(tmp_path, change)
    start = scenario.at((3, local(scenario.start, ZONE).time().replace(hour=3)))
    night = [
        c
        for sensor in MOTION
        for c in changes(plan, sensor, "on")
        if start - timedelta(minutes=30) <= c.when <= start + timedelta(hours=1)
    ]
    assert not night  # nobody got up: the house stays still around the check


def test_a_daytime_incident_while_home_brings_an_absent_person_back(tmp_path: Path) -> None:
    def change(data: dict[str, Any]) -> None:
        _week(data)
        data["incidents"] = [_night_check("day 3 12:00", duration=60)]

    scenario, plan = plan_of(tmp_path, change)
    noon = scenario.at((3, local(scenario.start, ZONE).time().replace(hour=12)))
    before = [c for c in changes(plan, "person.sam") if c.when <= noon]
    assert before[-1].state == "home"  # out at work otherwise: forced home for it


def test_changing_one_day_re_draws_that_day_alone(tmp_path: Path) -> None:
    """A daytime incident on Thursday forces Sam home: Thursday's motion changes, the
    other days' motion, lights, fridge and trackers are drawn exactly as before."""

    def plain(data: dict[str, Any]) -> None:
        _week(data)

    def with_incident(data: dict[str, Any]) -> None:
        _week(data)
        data["incidents"] = [_night_check("day 4 12:00", duration=60)]

    _, first = plan_of(tmp_path, plain)
    _, second = plan_of(tmp_path, with_incident)
    thursday = MONDAY + timedelta(days=3)
    for entity in (*MOTION, "light.living_room", "sensor.fridge_power", "person.sam"):
        a, b = _by_day(changes(first, entity)), _by_day(changes(second, entity))
        for day in set(a) | set(b):
            if day != thursday:
                assert a.get(day) == b.get(day), (entity, day)
    thursday_motion = [_by_day(changes(p, MOTION[1])).get(thursday) for p in (first, second)]
    assert thursday_motion[0] != thursday_motion[1]  # Sam home at noon: the sensor sees him
