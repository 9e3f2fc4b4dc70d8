"""Both clock changes of a year, in three zones: order, durations, learning and words.

The integration hands the core every instant on the home's clock (``core.home_clock``):
the local time with the offset in force at that moment. On the morning the clocks go
back a local hour is lived twice, and on the morning they go forward one is skipped;
transitions must still order and subtract as the instants they are, while the hours
learned and the words a homeowner reads stay those of the home's clock.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import NamedTuple
from zoneinfo import ZoneInfo

import pytest

from custom_components.anomaly_monitor.core.baselines.activity import ActivityProfile
from custom_components.anomaly_monitor.core.baselines.clock import hour_of_day
from custom_components.anomaly_monitor.core.baselines.durations import StateDurations
from custom_components.anomaly_monitor.core.buffer import TransitionBuffer
from custom_components.anomaly_monitor.core.home_clock import on_home_clock
from custom_components.anomaly_monitor.core.models import EntityState, Environment, Transition
from custom_components.anomaly_monitor.core.statistics.away_openings import (
    window_opened_while_away,
)
from custom_components.anomaly_monitor.core.statistics.durations import entry_left_open

from .core_factories import entity, home


class ClockChange(NamedTuple):
    zone: str
    at: datetime  # the instant (UTC) the clocks change
    before: timedelta  # the home's offset just before
    after: timedelta  # and just after


def _change(zone: str, at: datetime, before: float, after: float) -> ClockChange:
    return ClockChange(zone, at, timedelta(hours=before), timedelta(hours=after))


# The clocks go back: the local hour before ``at`` is lived again after it.
AUTUMN = [
    _change("Europe/Berlin", datetime(2026, 10, 25, 1, 0, tzinfo=UTC), 2, 1),  # 03:00 -> 02:00
    _change("America/New_York", datetime(2026, 11, 1, 6, 0, tzinfo=UTC), -4, -5),  # 02 -> 01
    _change("Australia/Sydney", datetime(2026, 4, 4, 16, 0, tzinfo=UTC), 11, 10),  # 03 -> 02
]
# The clocks go forward: the local hour from the change on is skipped.
SPRING = [
    _change("Europe/Berlin", datetime(2026, 3, 29, 1, 0, tzinfo=UTC), 1, 2),  # 02:00 -> 03:00
    _change("America/New_York", datetime(2026, 3, 8, 7, 0, tzinfo=UTC), -5, -4),  # 02 -> 03
    _change("Australia/Sydney", datetime(2026, 10, 3, 16, 0, tzinfo=UTC), 10, 11),  # 02 -> 03
]
BOTH = [pytest.param(c, id=f"{c.zone}-autumn") for c in AUTUMN] + [
    pytest.param(c, id=f"{c.zone}-spring") for c in SPRING
]
WINDOW = "binary_sensor.lounge_window"
DOOR = "binary_sensor.front_door"
PERSON = "person.alice"


def _clock(change: ClockChange, minutes: float) -> datetime:
    """``minutes`` after the change (negative: before), as the watcher records it."""
    return on_home_clock(change.at + timedelta(minutes=minutes), ZoneInfo(change.zone))


def _env(change: ClockChange, minutes: float, *, persons_home: int) -> Environment:
    return Environment(
        local_time=_clock(change, minutes),
        persons_home=persons_home,
        persons_total=1,
        time_zone=ZoneInfo(change.zone),
    )


def _hhmm(change: ClockChange, minutes: float) -> str:
    return f"{(change.at + timedelta(minutes=minutes)).astimezone(ZoneInfo(change.zone)):%H:%M}"


@pytest.mark.parametrize("change", [pytest.param(c, id=c.zone) for c in AUTUMN + SPRING])
def test_the_changes_are_where_the_tests_say(change: ClockChange) -> None:
    zone = ZoneInfo(change.zone)
    assert (change.at - timedelta(minutes=1)).astimezone(zone).utcoffset() == change.before
    assert change.at.astimezone(zone).utcoffset() == change.after


@pytest.mark.parametrize("change", [pytest.param(c, id=c.zone) for c in AUTUMN])
def test_a_window_opened_in_the_repeated_hour_is_after_the_leaving(change: ClockChange) -> None:
    """Alice leaves at :45 of the first pass of the repeated hour; the window opens at
    :05 of the second, 20 min later (earlier on the wall): opened while away."""
    transitions = [
        Transition(_clock(change, -15), PERSON, "not_home"),
        Transition(_clock(change, 5), WINDOW, "on", "Lounge"),
    ]
    assert _hhmm(change, 5) < _hhmm(change, -15)  # the wall clock reads it the other way
    states = [
        entity(PERSON, "not_home"),
        entity(WINDOW, "on", area="Lounge", device_class="window"),
    ]
    view = home(states, _env(change, 10, persons_home=0), transitions)
    (finding,) = window_opened_while_away(view)
    assert f"opened at {_hhmm(change, 5)} while nobody was home" in finding.reasoning


@pytest.mark.parametrize("change", [pytest.param(c, id=c.zone) for c in AUTUMN])
def test_the_buffer_keeps_the_repeated_hour_in_the_order_it_was_lived(
    change: ClockChange,
) -> None:
    """A change read back from the recorder is put among the watcher's in time order."""
    buffer = TransitionBuffer(window=timedelta(hours=3), max_size=100)
    lived = [_clock(change, m) for m in (-50, -20, 10, 40)]  # :10, :40, :10 again, :40 again
    for when in (lived[0], lived[2], lived[3]):
        buffer.append(Transition(when, DOOR, "on"))
    buffer.insert(Transition(lived[1], DOOR, "off"))
    held = [t.when for t in buffer.snapshot(_clock(change, 45))]
    assert held == lived


@pytest.mark.parametrize("change", BOTH)
def test_a_door_open_across_the_change_is_open_as_long_as_it_was(change: ClockChange) -> None:
    """Opened 10 min before the change, closed 20 min after: 30 min, whatever the wall
    clock says (an hour more in spring, an hour less, or negative, in autumn)."""
    transitions = [
        Transition(_clock(change, -10), DOOR, "on", "Hall"),
        Transition(_clock(change, 20), DOOR, "off", "Hall"),
    ]
    states = [entity(DOOR, "off", area="Hall", device_class="door")]
    view = home(states, _env(change, 30, persons_home=1), transitions)
    (finding,) = entry_left_open(view)
    assert finding.reasoning == f"{DOOR} stayed open for 30 min (from {_hhmm(change, -10)})."


@pytest.mark.parametrize("change", BOTH)
def test_a_door_open_since_before_the_window_says_since_when_on_the_home_clock(
    change: ClockChange,
) -> None:
    """Open since before the change and no change in the window: HA's ``last_changed``
    (UTC) is told on the home's clock of that moment, not of now."""
    opened = change.at - timedelta(minutes=25)
    door = EntityState(
        info=entity(DOOR, "on", area="Hall", device_class="door").info,
        state="on",
        last_changed=opened,
    )
    view = home([door], _env(change, 20, persons_home=1), [])
    (finding,) = entry_left_open(view)
    assert finding.reasoning == (
        f"{DOOR} stayed open for 45 min (from {_hhmm(change, -25)}), and still is."
    )


@pytest.mark.parametrize("change", BOTH)
def test_a_stay_across_the_change_is_learned_as_long_as_it_was(change: ClockChange) -> None:
    durations = StateDurations(ZoneInfo(change.zone))
    durations.state(DOOR, "on", _clock(change, -10))
    durations.state(DOOR, "off", _clock(change, 20))
    assert durations.whole_record(DOOR, "on") == (1, 30.0)


@pytest.mark.parametrize("change", BOTH)
def test_a_habit_at_half_past_is_learned_at_its_hour_on_both_sides_of_the_change(
    change: ClockChange,
) -> None:
    """Motion every night at :30 of the hour before the change, for a week on each side:
    the same local hour every night, on the home's clock as the watcher records it."""
    zone = ZoneInfo(change.zone)
    # The local hour just before the change (its first pass, in autumn).
    hour = (change.at - timedelta(minutes=30)).astimezone(zone).hour
    nights = [
        on_home_clock(
            datetime.combine(
                change.at.astimezone(zone).date() + timedelta(days=day),
                datetime.min.time().replace(hour=hour, minute=30),
                zone,
            ),
            zone,
        )
        for day in range(-7, 8)
    ]
    profile = ActivityProfile(zone)
    for night in nights:
        assert night.hour == hour == hour_of_day(night, zone)
        profile.activity(night, "Hall")
    assert profile.rate_of_day("Hall", hour, spread=0)[0] == len(nights)
    assert profile.rate_of_day("Hall", (hour + 1) % 24, spread=0)[0] == 0


@pytest.mark.parametrize("change", [pytest.param(c, id=c.zone) for c in AUTUMN])
def test_the_repeated_hour_is_read_as_the_home_clock_reads_it(change: ClockChange) -> None:
    """Both passes of the repeated hour read the same hour of the day, and the offset of
    each moment: the second pass is an hour after the first."""
    first, second = _clock(change, -30), _clock(change, 30)
    assert f"{first:%H:%M}" == f"{second:%H:%M}"
    assert second - first == timedelta(hours=1)
    assert (first.utcoffset(), second.utcoffset()) == (change.before, change.after)


def test_a_time_is_put_on_the_home_clock_once() -> None:
    """A time already on the home's clock is kept as it is (the checks read hours of the
    watcher's times); any other aware time is converted, also one whose offset is the
    home's (London's winter clock is UTC's: a UTC time of its summer is an hour off)."""
    london, berlin = ZoneInfo("Europe/London"), ZoneInfo("Europe/Berlin")
    winter = on_home_clock(datetime(2026, 1, 10, 14, 0, tzinfo=UTC), london)
    assert on_home_clock(winter, london) is winter
    assert f"{winter:%H:%M}" == "14:00"
    summer = datetime(2026, 7, 10, 14, 0, tzinfo=UTC)
    assert f"{on_home_clock(summer, london):%H:%M}" == "15:00"
    assert f"{on_home_clock(winter, berlin):%H:%M}" == "15:00"
    naive = datetime(2026, 7, 10, 14, 0)
    assert on_home_clock(naive, london) is naive


def test_no_check_takes_the_home_zone_from_the_window_clock() -> None:
    """``Environment.local_time`` carries a fixed offset: the zone from its ``tzinfo`` is
    wrong on the other side of a change (``Environment.zone`` is the home's)."""
    package = Path(on_home_clock.__code__.co_filename).parents[1]
    readers = [
        str(path.relative_to(package))
        for path in package.rglob("*.py")
        if "local_time.tzinfo" in path.read_text(encoding="utf-8")
    ]
    assert readers == ["core/models.py"]  # the ``zone`` property's fallback
