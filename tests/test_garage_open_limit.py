"""A garage door open half an hour with the household at home is no door "left open" (core).

Set 9's Finnish garage is opened for a minute or two each morning; on a sauna morning
it stands open 30 min while Pertti warms the car, and on set 7's FIFO home Dean works in
the garage 25 min with its door up. Told at 15 min ("at most 2 min on most days"), both
were false alarms; every garage left open in the sets stood open for hours (overnight,
forgotten after practice). A garage door or gate is "left open" only past an hour, as the
other garage checks judge it; a front door of the same home is judged as before.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.combined_detector import CombinedDetector
from custom_components.anomaly_monitor.core.models import EntityInfo, Finding, Transition
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity, environment

DAY0 = datetime(2027, 1, 11, tzinfo=UTC)
GARAGE = "cover.garage"
FRONT = "binary_sensor.front_door"
AREAS = {GARAGE: "Garage", FRONT: "Hall"}
TODAY = 10


def _states(door: str, state: str) -> tuple[str, str]:
    if door == GARAGE:
        return door, "open" if state == "on" else "closed"
    return door, state


def at(day: int, hours: float, door: str, state: str) -> Transition:
    entity_id, reported = _states(door, state)
    return Transition(DAY0 + timedelta(days=day, hours=hours), entity_id, reported, AREAS[door])


def told_at(minutes: float) -> list[Finding]:
    """``entry_left_open`` ``minutes`` after both doors opened at 10:00 on ``TODAY``; on
    every earlier day each was opened for 2 min at 08:00."""
    baselines = HomeBaselines(UTC)
    baselines.describe(
        [
            EntityInfo(GARAGE, "", area="Garage", device_class="garage"),
            EntityInfo(FRONT, "", area="Hall", device_class="door"),
        ]
    )
    baselines.watching(AREAS, DAY0 - timedelta(days=1))
    before = [
        at(day, 8 + shift, door, state)
        for day in range(TODAY)
        for door in AREAS
        for shift, state in ((0.0, "on"), (2 / 60, "off"))
    ]
    today = [at(TODAY, 10.0, GARAGE, "on"), at(TODAY, 10.0, FRONT, "on")]
    for transition in sorted(before) + today:
        baselines.learn(transition)
    now = DAY0 + timedelta(days=TODAY, hours=10, minutes=minutes)
    baselines.advance(now)
    states = [
        entity(GARAGE, "open", area="Garage", device_class="garage"),
        entity(FRONT, "on", area="Hall", device_class="door"),
    ]
    detector = CombinedDetector(baselines=lambda: baselines)
    window = build_window(
        states, environment(now, persons_home=2), today, start=DAY0 + timedelta(days=TODAY)
    )
    return [f for f in detector.findings(window) if f.rule == "entry_left_open"]


def test_a_garage_door_open_half_an_hour_is_not_left_open() -> None:
    # Fails before: the garage was told at 30 min with the front door.
    assert [f.evidence[0] for f in told_at(30)] == [FRONT]


def test_a_garage_door_open_past_an_hour_is() -> None:
    told = told_at(65)
    assert sorted(f.evidence[0] for f in told) == sorted([GARAGE, FRONT])
    garage = next(f for f in told if f.evidence[0] == GARAGE)
    assert "stayed open for 65 min (from 10:00), and still is" in garage.reasoning
