"""A motion sensor in a door's room that never sees the people who use the door (a camera
over the street) does not keep the door "attended": held open at night, the door is told
at its quick-door limit while that sensor sees the street. One that sees every passage
still attends it (core, no Home Assistant)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.door_watchers import (
    MIN_OPENINGS,
    blind_to_door,
)
from custom_components.anomaly_monitor.core.baselines.long_stays import state_longer_than_usual
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityInfo, Transition

from .core_factories import entity, environment, window

DAY0 = datetime(2026, 6, 1, tzinfo=UTC)
DOOR = "binary_sensor.contact_4"  # ids that say nothing
SENSOR = "binary_sensor.motion_9"
DAYS = 8


def _home(sees_passages: bool) -> HomeBaselines:
    """``DAYS`` days: the door opened a minute at 03:00, 07:30 and 12:30; the sensor of its
    room on a minute at 10:00 and 16:00 (passers-by), and, when it ``sees_passages``,
    half a minute after each opening too."""
    baselines = HomeBaselines(UTC)
    baselines.describe(
        [
            EntityInfo(DOOR, "Street door", area="Zaguan", device_class="door"),
            EntityInfo(SENSOR, "Zaguan motion", area="Zaguan", device_class="motion"),
        ]
    )
    events: list[tuple[datetime, str, str]] = [(DAY0, DOOR, "off"), (DAY0, SENSOR, "off")]
    for day in range(DAYS):
        start = DAY0 + timedelta(days=day)
        for hours in (3.0, 7.5, 12.5):
            opened = start + timedelta(hours=hours)
            events += [(opened, DOOR, "on"), (opened + timedelta(minutes=1), DOOR, "off")]
            if sees_passages:
                seen = opened + timedelta(seconds=30)
                events += [(seen, SENSOR, "on"), (seen + timedelta(minutes=1), SENSOR, "off")]
        for hours in (10.0, 16.0):
            seen = start + timedelta(hours=hours)
            events += [(seen, SENSOR, "on"), (seen + timedelta(minutes=1), SENSOR, "off")]
    for when, entity_id, state in sorted(events):
        baselines.observe(when, entity_id, state)
        baselines.advance(when)
    return baselines


def _told_at(baselines: HomeBaselines, minutes: float) -> list[str]:
    """Night ``DAYS``: somebody on the sensor from 03:09 to 03:16, the door open since
    03:10; what ``state_longer_than_usual`` tells ``minutes`` after it opened."""
    opened = DAY0 + timedelta(days=DAYS, hours=3, minutes=10)
    now = opened + timedelta(minutes=minutes)
    door = replace(entity(DOOR, "on", area="Zaguan", device_class="door"), last_changed=opened)
    sensor = entity(SENSOR, "off", area="Zaguan", device_class="motion")
    transitions = [
        Transition(opened - timedelta(minutes=1), SENSOR, "on"),
        Transition(opened, DOOR, "on"),
        Transition(opened + timedelta(minutes=6), SENSOR, "off"),
    ]
    home = HomeView(window((door, sensor), environment(now), transitions))
    return [f.reasoning for f in state_longer_than_usual(home, baselines)]


def test_a_sensor_that_never_sees_the_door_used_is_learned_blind_to_it() -> None:
    blind, watching = _home(False), _home(True)
    assert blind.relations.pairs[(DOOR, SENSOR)].onsets >= MIN_OPENINGS
    assert blind_to_door(blind, DOOR, SENSOR)
    assert not blind_to_door(watching, DOOR, SENSOR)


def test_a_door_held_open_at_night_is_told_while_a_street_camera_moves() -> None:
    """The sensor that never saw the door used does not attend it: 10 min, told."""
    baselines = _home(False)
    assert _told_at(baselines, 9) == []
    (told,) = _told_at(baselines, 11)
    assert "open for 11 min, since 03:10" in told


def test_a_sensor_that_sees_every_passage_still_attends_the_door() -> None:
    """The same night by a sensor that sees each passage: somebody by the door for six of
    its eleven minutes, so its clock runs from the last movement there."""
    baselines = _home(True)
    assert _told_at(baselines, 11) == []
    assert len(_told_at(baselines, 17)) == 1
