"""An unseen opening shut again at once while the household is home and up (core, no HA).

The balcony door of a flat, never learned unseen at 10:20, is opened for three minutes
(the washing hung out) while the living-room sensor last saw somebody a quarter of an
hour before: a hand shut it, and with somebody tracked home and the household about it is
theirs, so ``unaccompanied_opening`` is not told. The same opening left standing open,
with nobody tracked home, in the small hours, or after two hours without anybody moving,
is still told.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.combined_detector import CombinedDetector
from custom_components.anomaly_monitor.core.models import EntityInfo, Finding, Transition
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity, environment

DAY = datetime(2026, 3, 6, tzinfo=UTC)
DOOR = "binary_sensor.balcony_door"
LIVING = "binary_sensor.living_motion"
HALL = "binary_sensor.hall_motion"
AREAS = {DOOR: "Living", LIVING: "Living", HALL: "Hall"}
CLASSES = {DOOR: "door", LIVING: "motion", HALL: "motion"}


def morning(*, opened: float, open_for: float, last_moved: float) -> list[Transition]:
    """Motion in the hall and the living room every 20 min for an hour until
    ``last_moved`` (hours), then the balcony door opened at ``opened`` for ``open_for``
    (hours) with nobody seen, and motion again 20 min after it."""
    events = [(last_moved - i / 3, s, "on") for i in range(4) for s in (HALL, LIVING)]
    events += [(last_moved - i / 3 + 0.03, s, "off") for i in range(4) for s in (HALL, LIVING)]
    events += [(opened, DOOR, "on"), (opened + open_for, DOOR, "off")]
    events += [(opened + 0.35, LIVING, "on"), (opened + 0.38, LIVING, "off")]
    return sorted(Transition(DAY + timedelta(hours=h), e, s, AREAS[e]) for h, e, s in events)


def unaccompanied(
    today: list[Transition],
    *,
    persons_home: int = 1,
    end_after: timedelta = timedelta(minutes=5),
) -> list[Finding]:
    baselines = HomeBaselines(UTC)
    baselines.describe(EntityInfo(e, "", area=AREAS[e], device_class=CLASSES[e]) for e in AREAS)
    baselines.watching(AREAS, DAY - timedelta(days=7))
    for transition in today:
        baselines.learn(transition)
    now = today[-1].when + end_after
    states = [entity(e, "off", area=AREAS[e], device_class=CLASSES[e]) for e in AREAS]
    detector = CombinedDetector(baselines=lambda: baselines)
    window = build_window(
        states,
        environment(now, persons_home=persons_home),
        today,
        start=today[0].when - timedelta(minutes=1),
    )
    return [f for f in detector.findings(window) if f.rule == "unaccompanied_opening"]


def test_shut_again_at_once_with_the_household_home_and_up_is_theirs() -> None:
    assert unaccompanied(morning(opened=10 + 20 / 60, open_for=0.05, last_moved=10.0)) == []


def test_left_standing_open_is_told() -> None:
    told = unaccompanied(morning(opened=10 + 20 / 60, open_for=0.15, last_moved=10.0))
    assert told
    assert "seldom opens unseen at 10:20" in told[0].reasoning


def test_shut_again_with_nobody_tracked_home_is_told() -> None:
    today = morning(opened=10 + 20 / 60, open_for=0.05, last_moved=10.0)
    assert unaccompanied(today, persons_home=0)


def test_shut_again_in_the_small_hours_is_told() -> None:
    assert unaccompanied(morning(opened=3 + 20 / 60, open_for=0.05, last_moved=3.0))


def test_shut_again_after_two_hours_without_anybody_moving_is_told() -> None:
    assert unaccompanied(morning(opened=10 + 20 / 60, open_for=0.05, last_moved=7.5))


def test_an_opening_made_seconds_ago_is_not_judged_before_its_minutes_are_seen() -> None:
    # The 10:20 opening was shut at once (theirs); the door opened again at the very end of
    # the window: nobody seen *yet*, not shut yet, and not what the rule judged.
    today = morning(opened=10 + 20 / 60, open_for=0.05, last_moved=10.0)
    again = today[-1].when + timedelta(minutes=4, seconds=50)
    today = [*today, Transition(again, DOOR, "on", AREAS[DOOR])]
    assert unaccompanied(today, end_after=timedelta(seconds=10)) == []
