"""People without a tracker coming and going while every tracker is away (core, no HA).

The home of ``test_away_normal`` without its dog and walker: Alice leaves at 08:00 and
comes back at 17:00 on weekdays. Somebody without a tracker uses a door while she is
out:

- at cold start, somebody already moving about inside opens the front door (a
  grandmother stepping out to the courier): not an entry into the empty home; the same
  door opened into a home where nothing moved is told, as before;
- somebody came in by the back door (no lock) at this time on the same weekday a week
  before (the cleaner on Wednesdays), or at this time on the home's only earlier day
  (the grandfather back from day care): not told; at an hour nobody came in on those
  days it is (a door with a lock, opened without the key at the cleaner's time:
  ``test_away_keyholders``).
"""

from __future__ import annotations

from datetime import timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.recurring_entries import recurring_entry
from custom_components.anomaly_monitor.core.learning_gate import not_held
from custom_components.anomaly_monitor.core.models import Transition

from .test_away_normal import (
    ALICE,
    AREAS,
    BACK,
    BEDROOM,
    DOOR,
    ENTRY_RULE,
    HALL,
    LOCK,
    analyse,
    at,
    lived,
)

WEDNESDAY = 2  # DAY0 is a Monday


def out_all_day(day: int) -> list[Transition]:
    return [Transition(at(day, 8), ALICE, "not_home"), Transition(at(day, 17), ALICE, "home")]


def door_used(day: int, hours: float, door: str = BACK) -> list[Transition]:
    """A door opened for 20 s (the front door with its key), then somebody in the hall."""
    start = at(day, hours)
    area = AREAS[door]
    used = [
        Transition(start, door, "on", area),
        Transition(start + timedelta(seconds=20), door, "off", area),
        Transition(start + timedelta(minutes=1), HALL, "on", "Hall"),
        Transition(start + timedelta(minutes=3), HALL, "off", "Hall"),
    ]
    if door == DOOR:
        used.append(Transition(start - timedelta(seconds=5), LOCK, "unlocked", "Hall"))
    return sorted(used)


def cold_start() -> HomeBaselines:
    baselines = lived(0, out_all_day)
    baselines.watching([*AREAS, ALICE], at(0, 7))  # set up this morning
    baselines.usual.since.clear()
    baselines.watching([*AREAS, ALICE], at(0, 7))
    return baselines


def entries_told(baselines: HomeBaselines, day: int, hours: float, today: list) -> list:
    """The entry findings 10 s after the door was opened (it stands open)."""
    now = at(day, hours) + timedelta(seconds=10)
    shown = sorted(t for t in today if t.when <= now)
    findings = analyse(
        baselines, now, shown, door="on" if any(t.entity_id == DOOR for t in shown) else "off"
    )
    told = not_held(findings, baselines, now, someone_home=False)
    return [f for f in told if f.rule in ENTRY_RULE]


def test_at_cold_start_a_door_opened_by_somebody_moving_inside_is_not_an_entry() -> None:
    inside = [
        Transition(at(0, 9.9), HALL, "on", "Hall"),  # somebody who stayed in, about
        Transition(at(0, 9.95), HALL, "off", "Hall"),
    ]
    today = [Transition(at(0, 8), ALICE, "not_home"), *inside, *door_used(0, 10, DOOR)]
    assert entries_told(cold_start(), 0, 10, today) == []


def test_at_cold_start_a_door_opened_by_somebody_still_moving_behind_it_is_not_an_entry() -> None:
    """Somebody in the bedroom for 10 min (its sensor on all along) opens the back door."""
    inside = [Transition(at(0, 9.8), BEDROOM, "on", "Bedroom")]
    today = [Transition(at(0, 8), ALICE, "not_home"), *inside, *door_used(0, 10)]
    assert entries_told(cold_start(), 0, 10, today) == []


def test_at_cold_start_a_door_opened_into_a_quiet_empty_home_is_pushed() -> None:
    today = [Transition(at(0, 8), ALICE, "not_home"), *door_used(0, 10, DOOR)]
    told = entries_told(cold_start(), 0, 10, today)
    assert told
    assert "still being learned" in told[0].reasoning


def test_the_cleaner_on_wednesdays_is_not_told_the_second_week() -> None:
    def life(day: int) -> list[Transition]:
        if day % 7 >= 5:
            return []
        return sorted(out_all_day(day) + (door_used(day, 9.5) if day == WEDNESDAY else []))

    baselines = lived(WEDNESDAY + 7, life)
    day = WEDNESDAY + 7
    today = sorted(out_all_day(day) + door_used(day, 9.6))
    assert recurring_entry(baselines.away, BACK, at(day, 9.6)) == 1
    assert entries_told(baselines, day, 9.6, today) == []
    # At an hour nobody came in on any day: told.
    later = sorted(out_all_day(day) + door_used(day, 14))
    assert recurring_entry(baselines.away, BACK, at(day, 14)) is None
    assert entries_told(baselines, day, 14, later)


def test_on_the_first_days_an_entry_at_the_time_of_the_first_days_is_not_told() -> None:
    def life(day: int) -> list[Transition]:
        return sorted(out_all_day(day) + door_used(day, 16.7))

    baselines = cold_start()
    for transition in life(0):
        baselines.learn(transition)
    baselines.advance(at(0, 23))
    assert entries_told(baselines, 1, 16.7, life(1)) == []
    # Somebody at 11:00 on the second day, at an hour nobody came in on the first: told.
    other = sorted(out_all_day(1) + door_used(1, 11))
    assert entries_told(baselines, 1, 11, other)


def test_a_time_used_once_in_many_empty_days_is_not_a_habit() -> None:
    def life(day: int) -> list[Transition]:
        if day % 7 >= 5:
            return []
        return sorted(out_all_day(day) + (door_used(day, 16.7) if day == 0 else []))

    baselines = lived(4, life)  # Mon-Thu lived empty, the door used on Monday only
    assert recurring_entry(baselines.away, BACK, at(4, 16.7)) is None
