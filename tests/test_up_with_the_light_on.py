"""Up a while before the door: a light switched on and left on says so, however seldom the
motion sensors saw him.

Somebody up for an early shift with the living-room light on, seen by its sensor only now
and then (a still spell of eleven minutes between), is no one walking from sleep to the
door: the walk-out waits for a phone to leave and the door to be locked behind
(``went_out_at_night`` then leaves a member off to work alone).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines.asleep_way_out import up_a_while
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import Transition
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity, environment

LIGHT = "light.living_room"
MOTION = "binary_sensor.living_room_motion"
DOOR = "binary_sensor.front_door"
OPENED = datetime(2026, 7, 4, 19, 59, 43, tzinfo=UTC)


def view(changes: list[Transition], light_now: str) -> HomeView:
    states = [
        entity(LIGHT, light_now, area="Living room"),
        entity(MOTION, "on", area="Living room", device_class="motion"),
        entity(DOOR, "on", area="Hall", device_class="door"),
    ]
    start = OPENED - timedelta(hours=2)
    window = build_window(states, environment(OPENED, persons_home=3), changes, start=start)
    return HomeView(window)


def seen(*minutes_before: float) -> list[Transition]:
    """The living-room sensor on for a minute, that many minutes before the door."""
    events: list[Transition] = []
    for minutes in minutes_before:
        on = OPENED - timedelta(minutes=minutes)
        events += [
            Transition(on, MOTION, "on"),
            Transition(on + timedelta(minutes=1), MOTION, "off"),
        ]
    return events


def test_seen_seldom_with_the_room_lit_for_half_an_hour_is_up() -> None:
    moves = seen(24, 21, 7, 5, 1)
    assert not up_a_while(view(moves, "off"), OPENED)  # the motion alone: from sleep
    lit = [Transition(OPENED - timedelta(minutes=28), LIGHT, "on"), *moves]
    assert up_a_while(view(sorted(lit), "on"), OPENED)


def test_a_light_switched_on_just_before_or_off_again_is_not() -> None:
    moves = seen(2, 1)
    just_lit = [Transition(OPENED - timedelta(minutes=4), LIGHT, "on"), *moves]
    assert not up_a_while(view(sorted(just_lit), "on"), OPENED)  # on the way to the door
    off_again = [
        Transition(OPENED - timedelta(minutes=40), LIGHT, "on"),
        Transition(OPENED - timedelta(minutes=35), LIGHT, "off"),
        *moves,
    ]
    assert not up_a_while(view(sorted(off_again), "off"), OPENED)  # back to bed
    # On since the evening (no change in the window): a light left on, nobody up.
    assert not up_a_while(view(moves, "on"), OPENED)
