"""A motorised garage door (a ``cover``, as ratgdo, Meross or myQ report it) left open is
judged like a garage door contact, learned like one, and told in the first days once
open longer than an hour (core, no Home Assistant)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.learning_gate import held_while_learning
from custom_components.anomaly_monitor.core.models import EntityInfo, EntityState
from custom_components.anomaly_monitor.core.statistics.durations import entry_left_open

from .core_factories import entity, environment, home, steps

DAY0 = datetime(2026, 10, 26, tzinfo=UTC)
COVER = "cover.ratgdov25i_4b1c3a_door"  # an opener's id words: nothing says "garage"
HALL = "binary_sensor.hall_door"  # an interior door that reads "door"


def _cover(state: str, since: datetime) -> EntityState:
    return replace(entity(COVER, state, area="Garage", device_class="garage"), last_changed=since)


def _cycle() -> list[tuple[float, str, str]]:
    """One trip: opening, open, closing, closed over two minutes."""
    return [
        (0, COVER, "opening"),
        (0.25, COVER, "open"),
        (1.6, COVER, "closing"),
        (2, COVER, "closed"),
    ]


def test_a_cover_garage_door_open_for_long_is_found_and_a_trip_is_not() -> None:
    start = DAY0 + timedelta(days=1, hours=18)
    trip = steps(start, _cycle())
    done = home(
        [_cover("closed", start + timedelta(minutes=2))],
        environment(start + timedelta(minutes=30)),
        trip,
    )
    assert list(entry_left_open(done)) == []
    # Open at 18:55 (a trip's opening and open joined), still open at 19:40: told.
    events = [(0, COVER, "opening"), (0.25, COVER, "open")]
    opened = start + timedelta(minutes=55)
    view = home(
        [_cover("open", opened)], environment(opened + timedelta(minutes=45)), steps(opened, events)
    )
    [finding] = entry_left_open(view)
    assert finding.evidence == (COVER,)
    assert "45 min (from 18:55)" in finding.reasoning


def _learning_baselines() -> HomeBaselines:
    baselines = HomeBaselines(UTC)
    baselines.describe(
        [
            EntityInfo(COVER, "ratgdov25i-4b1c3a Door", area="Garage", device_class="garage"),
            EntityInfo(HALL, "Hall door", area="Hall", device_class="door"),
        ]
    )
    baselines.observe(DAY0, COVER, "closed")
    baselines.observe(DAY0, HALL, "off")
    return baselines


def test_in_the_first_days_a_garage_door_open_over_an_hour_is_pushed_an_interior_door_waits() -> (
    None
):
    baselines = _learning_baselines()
    now = DAY0 + timedelta(days=1, hours=20)
    opened = now - timedelta(minutes=75)
    baselines.observe(opened, COVER, "open")  # learned live, as the window shows it
    garage = home([_cover("open", opened)], environment(now), steps(opened, [(0, COVER, "open")]))
    [finding] = entry_left_open(garage)
    assert not held_while_learning(finding, baselines, now, someone_home=True)
    # Open 40 min: still held while the garage door is learned.
    early = home(
        [_cover("open", opened)],
        environment(opened + timedelta(minutes=40)),
        steps(opened, [(0, COVER, "open")]),
    )
    [short] = entry_left_open(early)
    assert held_while_learning(short, baselines, now, someone_home=True)
    # A "door" contact open 75 min may be an interior door: it waits for its normal.
    hall = replace(entity(HALL, "on", area="Hall", device_class="door"), last_changed=opened)
    [door] = entry_left_open(home([hall], environment(now), steps(opened, [(0, HALL, "on")])))
    assert held_while_learning(door, baselines, now, someone_home=True)


def test_a_cover_open_stay_is_learned_as_one_stay_from_opening_to_closed() -> None:
    baselines = _learning_baselines()
    for day in range(4):
        start = DAY0 + timedelta(days=day, hours=7)
        for minutes, _, state in _cycle():
            baselines.observe(start + timedelta(minutes=minutes), COVER, state)
    usual = baselines.usual.usual_open(COVER, DAY0 + timedelta(days=4, hours=7))
    assert usual is not None
    minutes, days = usual
    assert minutes == 2.0  # opening -> closed, not the last leg (closing -> closed)
    assert days == 4
