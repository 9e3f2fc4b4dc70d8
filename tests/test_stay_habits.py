"""A door or lock kept so at this hour by habit, daily or weekly, is not "left" so (core).

Set 9's family leaves the front door on the key from candle lighting on Friday (about
16:20) to Saturday night, every week; on other days it is unlocked for a minute at a time.
The first Friday's stay, 25 h against minutes, is an outlier and was learned a minute and
a half at a time: every Friday it was "unlocked for 1 h, usually at most 1 min". Seen on
the same weekday before, it is a habit; the same hour of a Tuesday is still told.

Set 8's flat leaves its main door open for the breeze on some weekday mornings (about
three hours from 09:15), and opens it for a minute on every other use: on two mornings in
ten, "on most days it is open at most 1 min" told the breeze at 15 min. Open so around
this hour on two other days, it is not "left open"; the same door open at 14:00 is. A
garage door with no stay learned yet is judged by a prior of half an hour (a car out, the
boot unloaded), not a door's 15 min.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.long_stays import state_longer_than_usual
from custom_components.anomaly_monitor.core.baselines.stay_habits import StayHabits
from custom_components.anomaly_monitor.core.baselines.usual_judge import judged_by_usual
from custom_components.anomaly_monitor.core.combined_detector import CombinedDetector
from custom_components.anomaly_monitor.core.finding_kind import FindingKind
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityInfo, Finding, Transition
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity, environment, window
from .test_baselines_long_stays import since, view

SUNDAY = datetime(2026, 10, 18, tzinfo=UTC)  # a Sunday
LOCK = "lock.front_door"
DOOR = "binary_sensor.main_door"
GARAGE = "cover.garage"


def at(day: int, hours: float) -> datetime:
    return SUNDAY + timedelta(days=day, hours=hours)


def shabbat_lock(days: int) -> HomeBaselines:
    """``days`` days from Sunday: unlocked for a minute at 07:25, 14:20 and 16:10, and on
    Fridays from 16:20 to Saturday 18:05."""
    baselines = HomeBaselines(UTC)
    baselines.describe([EntityInfo(LOCK, "", area="Hall")])
    baselines.observe(at(0, 0), LOCK, "locked")
    for day in range(days):
        if day % 7 == 6:  # Saturday: still on the key from Friday
            baselines.observe(at(day, 18 + 5 / 60), LOCK, "locked")
            continue
        for hours in (7 + 25 / 60, 14 + 20 / 60, 16 + 10 / 60):
            baselines.observe(at(day, hours), LOCK, "unlocked")
            baselines.observe(at(day, hours + 1 / 60), LOCK, "locked")
        if day % 7 == 5:
            baselines.observe(at(day, 16 + 20 / 60), LOCK, "unlocked")
    return baselines


def unlocked_judged(day: int) -> list[Finding]:
    """The lock unlocked since 16:25 on ``day``, judged at 17:30."""
    baselines = shabbat_lock(day)
    baselines.observe(at(day, 16 + 25 / 60), LOCK, "unlocked")
    lock = since(entity(LOCK, "unlocked", area="Hall"), at(day, 16 + 25 / 60))
    return list(state_longer_than_usual(view(at(day, 17.5), lock), baselines))


def test_a_lock_on_the_key_every_friday_evening_is_not_told_the_second_friday() -> None:
    # Fails before: the first Friday's 25 h taught 1.5 min; told "usually at most 1 min".
    assert unlocked_judged(12) == []


def test_the_same_hour_of_a_tuesday_is_still_told() -> None:
    [finding] = unlocked_judged(9)
    assert "unlocked for 1 h 05 min, since 16:25" in finding.reasoning


def unlocked_while_away(day: int) -> Finding | None:
    """The lock unlocked since 16:25 on ``day`` and every phone off at 23:30 ("nobody
    home"): ``entry_unsecured_while_away`` as this home's normal judges it."""
    baselines = shabbat_lock(day)
    baselines.observe(at(day, 16 + 25 / 60), LOCK, "unlocked")
    lock = since(entity(LOCK, "unlocked", area="Hall"), at(day, 16 + 25 / 60))
    home = HomeView(window([lock], environment(at(day, 23.5), persons_home=0)))
    kind = FindingKind("entry_unsecured_while_away", "security")
    finding = kind.finding(evidence=(LOCK,), reasoning="Front door is unlocked.", while_away=True)
    return judged_by_usual(finding, baselines, home)


def test_on_the_key_through_the_sabbath_with_the_phones_off_is_no_door_left_unlocked() -> None:
    # Fails before: told "unlocked while nobody is home" on the second Friday night.
    assert unlocked_while_away(12) is None
    assert unlocked_while_away(9) is not None  # a Tuesday: told


def test_the_habit_is_the_same_weekday_or_two_other_days_near_the_hour() -> None:
    habits = StayHabits(UTC)
    habits.state(DOOR, True, at(1, 9.25))
    habits.state(DOOR, False, at(1, 12))
    assert habits.usual(DOOR, at(2, 9.5)) is None  # one other day only
    habit = habits.usual(DOOR, at(8, 9.5))  # that weekday, a week on
    assert habit is not None
    assert habit.weekly
    assert round(habit.minutes) == 165
    habits.state(DOOR, True, at(3, 10))
    habits.state(DOOR, False, at(3, 10.5))
    habit = habits.usual(DOOR, at(4, 9.5))  # two other days: the shorter of the two
    assert habit is not None
    assert not habit.weekly
    assert round(habit.minutes) == 30
    assert habits.usual(DOOR, at(4, 14)) is None  # not around this hour
    stored = StayHabits.from_dict(habits.as_dict(), UTC)
    assert stored.stays == habits.stays


def _door_day(day: int, breeze: bool) -> list[Transition]:
    """The door opened for a minute at 07:30, 12:00 and 18:00, and from 09:15 to 12:05 on
    breezy days."""
    changes = [
        Transition(at(day, hours + shift), DOOR, state, "Living room")
        for hours in (7.5, 12.0, 18.0)
        for shift, state in ((0.0, "on"), (1 / 60, "off"))
    ]
    if breeze:
        changes = [t for t in changes if t.when.hour != 12]
        changes += [
            Transition(at(day, 9.25), DOOR, "on", "Living room"),
            Transition(at(day, 12 + 5 / 60), DOOR, "off", "Living room"),
        ]
    return sorted(changes)


def _left_open(opened: float, minutes: float, entity_id: str, changes: list[Transition]) -> list:
    baselines = HomeBaselines(UTC)
    device_class = "garage" if entity_id == GARAGE else "door"
    baselines.describe([EntityInfo(entity_id, "", area="Living room", device_class=device_class)])
    baselines.watching([entity_id], SUNDAY - timedelta(days=7))
    for transition in changes:
        baselines.learn(transition)
    day = 10
    state = "open" if entity_id == GARAGE else "on"
    today = [Transition(at(day, opened), entity_id, state, "Living room")]
    baselines.learn(today[0])
    now = at(day, opened + minutes / 60)
    baselines.advance(now)
    states = [entity(entity_id, state, area="Living room", device_class=device_class)]
    window = build_window(states, environment(now, persons_home=2), today, start=at(day, 0))
    detector = CombinedDetector(baselines=lambda: baselines)
    return [f for f in detector.findings(window) if f.rule == "entry_left_open"]


def test_a_door_open_for_the_breeze_some_mornings_is_not_left_open() -> None:
    # Fails before: "on most days it is open at most 0 min at this time of day".
    history = [t for day in range(10) for t in _door_day(day, breeze=day in (3, 7))]
    assert _left_open(9.5, 25, DOOR, history) == []


def test_the_same_door_open_in_the_afternoon_is_left_open() -> None:
    history = [t for day in range(10) for t in _door_day(day, breeze=day in (3, 7))]
    [finding] = _left_open(14.0, 25, DOOR, history)
    assert "stayed open for 25 min (from 14:00)" in finding.reasoning


def test_a_garage_door_never_learned_is_judged_by_half_an_hour() -> None:
    # Fails before: the default 15 min of a door told a car put away at 20 min.
    assert _left_open(9.5, 20, GARAGE, []) == []
    [finding] = _left_open(9.5, 35, GARAGE, [])
    assert "the default limit for a garage door or gate judged" in finding.reasoning
