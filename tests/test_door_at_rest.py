"""A door held open in the hours the home rests is news in minutes: one this home always
shuts within a minute, open with nothing moving by it, at 10 min rather than at the hour's
floor; any door open with the whole household still (asleep) for 45 min, rather than at
three times the longest night stay learned from parties and late returns. By day the
learned limits stand (core, no Home Assistant)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.long_stays import (
    long_stay_due,
    state_longer_than_usual,
)
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityInfo, Transition

from .core_factories import entity, environment, window

DAY0 = datetime(2026, 10, 5, tzinfo=UTC)
DOOR = "binary_sensor.contact_7"  # an id that says nothing
MOTION = "binary_sensor.pir_3"


def _home(night_minutes: float) -> HomeBaselines:
    """Seven days: the door open a minute at 07:30 and 12:30, and at 03:00 a minute on
    most nights, ``night_minutes`` on two (a toilet trip through the yard; a late return)."""
    baselines = HomeBaselines(UTC)
    baselines.describe([EntityInfo(DOOR, "Back door", area="Porch", device_class="door")])
    for day in range(7):
        start = DAY0 + timedelta(days=day)
        night = night_minutes if day in (1, 4) else 1.0
        for at, minutes in ((3.0, night), (7.5, 1.0), (12.5, 1.0)):
            baselines.observe(start + timedelta(hours=at), DOOR, "on")
            baselines.observe(start + timedelta(hours=at, minutes=minutes), DOOR, "off")
    return baselines


def _told(
    baselines: HomeBaselines,
    since: datetime,
    after: timedelta,
    moved: timedelta | None = None,
    persons_home: int = 2,
) -> list[str]:
    """The door open since ``since``, judged ``after`` it; ``moved``: a motion sensor in
    the bedroom went off that long after the door opened (somebody going back to bed)."""
    door = replace(entity(DOOR, "on", area="Porch", device_class="door"), last_changed=since)
    motion = entity(MOTION, "off", area="Bedroom", device_class="motion")
    transitions = [Transition(since, DOOR, "on")]  # the window holds its opening
    if moved is not None:
        transitions += [
            Transition(since, MOTION, "on"),
            Transition(since + moved, MOTION, "off"),
        ]
    env = environment(since + after, persons_home=persons_home)
    home = HomeView(window((door, motion), env, transitions))
    return [f.reasoning for f in state_longer_than_usual(home, baselines)]


def test_a_door_always_shut_at_once_held_open_at_night_is_told_in_minutes() -> None:
    baselines = _home(1.0)
    night = DAY0 + timedelta(days=7, hours=3, minutes=10)
    assert _told(baselines, night, timedelta(minutes=9)) == []
    (told,) = _told(baselines, night, timedelta(minutes=11))
    assert "open for 11 min, since 03:10" in told
    assert "the hour this household sleeps" in told


def test_a_door_left_open_by_the_last_ones_out_does_not_say_they_sleep() -> None:
    """Walk 45: the household went out at night past the hall's sensor, the front door left
    open; at 10 min it read "It is the hour this household sleeps" with everybody out."""
    baselines = _home(1.0)
    night = DAY0 + timedelta(days=7, hours=3, minutes=10)
    (told,) = _told(baselines, night, timedelta(minutes=11), persons_home=0)
    assert "open for 11 min, since 03:10" in told
    assert "sleeps" not in told
    assert "Everybody has gone out, and nothing has moved by it since." in told


def test_by_day_the_hour_of_everyday_use_stands() -> None:
    baselines = _home(1.0)
    day = DAY0 + timedelta(days=7, hours=12, minutes=40)
    assert _told(baselines, day, timedelta(minutes=45)) == []
    assert len(_told(baselines, day, timedelta(minutes=61))) == 1


def test_a_door_open_long_at_night_here_is_told_once_the_household_is_asleep() -> None:
    """Open 30 min on two nights learned (late returns): three times that would be 90
    min; with nothing moving anywhere since 03:15, the household is asleep: 45 min after."""
    baselines = _home(30.0)
    night = DAY0 + timedelta(days=7, hours=3, minutes=10)
    moved = timedelta(minutes=5)
    assert _told(baselines, night, timedelta(minutes=49), moved) == []
    (told,) = _told(baselines, night, timedelta(minutes=51), moved)
    assert "open for 51 min, since 03:10" in told
    door = replace(entity(DOOR, "on", area="Porch", device_class="door"), last_changed=night)
    motion = entity(MOTION, "off", area="Bedroom", device_class="motion")
    home = HomeView(
        window(
            (door, motion),
            environment(night + timedelta(minutes=20)),
            [
                Transition(night, DOOR, "on"),
                Transition(night, MOTION, "on"),
                Transition(night + moved, MOTION, "off"),
            ],
        )
    )
    assert long_stay_due(home, baselines) == night + moved + timedelta(minutes=45)


def test_somebody_moving_in_the_home_keeps_the_learned_night_limit() -> None:
    """The household still up (a motion sensor reads somebody now): a late return's door
    is judged by its learned stays, three times 30 min."""
    baselines = _home(30.0)
    night = DAY0 + timedelta(days=7, hours=3, minutes=10)
    door = replace(entity(DOOR, "on", area="Porch", device_class="door"), last_changed=night)
    motion = entity(MOTION, "on", area="Bedroom", device_class="motion")
    for after, told in ((timedelta(minutes=60), 0), (timedelta(minutes=91), 1)):
        opened = [Transition(night, DOOR, "on")]
        home = HomeView(window((door, motion), environment(night + after), opened))
        assert len(list(state_longer_than_usual(home, baselines))) == told


def test_a_window_that_does_not_hold_the_opening_keeps_the_learned_limit() -> None:
    """What moved by the door since it opened is unknown: the learned stays judge."""
    baselines = _home(1.0)
    night = DAY0 + timedelta(days=7, hours=3, minutes=10)
    door = replace(entity(DOOR, "on", area="Porch", device_class="door"), last_changed=night)
    later = [Transition(night + timedelta(minutes=5), MOTION, "off")]
    home = HomeView(window((door,), environment(night + timedelta(minutes=15)), later))
    assert list(state_longer_than_usual(home, baselines)) == []
