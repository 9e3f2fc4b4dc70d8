"""A presence held on far past every stay it had, nobody else seen: told by the place's stays.

Rose (``test_still_in_room``'s fortnight) is seen by the bathroom's sensor for a minute
or so at a time in the morning (99 stays, the longest 1.2 min). A morning she shuts the
bathroom door behind her and its sensor stays on, nothing else moving anywhere: the
sensor held on is no longer movement (for the room that keeps her) once it passes its own
stays (20 min past the longest, more than 1.5 times it: 21.2 min), and the room that
keeps her is judged by them, sooner
than the home's quiet after the bathroom (40 min). Somebody else seen since, or the
sensor's stays not learned, leave it as it was.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from custom_components.anomaly_monitor.core.baselines.held_on import moving_now
from custom_components.anomaly_monitor.core.baselines.held_past import (
    held_past_due,
    held_past_its_stays,
)
from custom_components.anomaly_monitor.core.baselines.still_in_room import (
    still_in_room_far_longer,
)
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import Environment, Transition

from .core_factories import entity, window
from .test_daily_rhythm import AREAS, BATH, BED, DOOR, HALL, ROSE
from .test_still_in_room import BATH_DOOR, TODAY, _into_the_bathroom, _rose

MORNING = TODAY + timedelta(hours=7, minutes=10)
SHUT = MORNING + timedelta(minutes=3)  # the bathroom door opened, her sensor on, door shut
HELD_LIMIT = timedelta(minutes=1.2 + 20)  # 20 min past the longest (more than 1.5 times it)


def _held_view(
    now: datetime,
    *,
    hall_at: datetime | None = None,
    door_at: datetime | None = None,
    locked: bool = False,
) -> HomeView:
    """The home at ``now``: the bathroom's sensor on since ``SHUT``, its door shut behind
    her; ``hall_at``: somebody seen in the hall then; ``door_at``: the bathroom door opened
    and shut again then."""
    states = [
        entity(e, "off", area=AREAS[e], device_class="door" if e == DOOR else "motion")
        for e in (BED, HALL, DOOR)
    ]
    bath = entity(BATH, "on", area=AREAS[BATH], device_class="occupancy")
    states.append(replace(bath, last_changed=SHUT))
    states.append(entity(BATH_DOOR, "off", area="Bathroom", device_class="door"))
    states.append(entity(ROSE, "home"))
    if locked:  # a lock beside the room's door: a way out of the home, not a bathroom
        states.append(entity("lock.bathroom_door", "locked", area="Bathroom"))
    transitions = [
        Transition(SHUT - timedelta(hours=1), BATH_DOOR, "off"),
        Transition(SHUT - timedelta(hours=1), BATH, "off"),
        Transition(SHUT, BATH_DOOR, "on"),
        Transition(SHUT, BATH, "on"),
        Transition(SHUT + timedelta(seconds=30), BATH_DOOR, "off"),
    ]
    if hall_at is not None:
        transitions += [
            Transition(hall_at, HALL, "on"),
            Transition(hall_at + timedelta(minutes=1), HALL, "off"),
        ]
    if door_at is not None:
        transitions += [
            Transition(door_at, BATH_DOOR, "on"),
            Transition(door_at + timedelta(seconds=20), BATH_DOOR, "off"),
        ]
    env = Environment(local_time=now, persons_home=1, persons_total=1)
    return HomeView(window(states, env, transitions))


def _baselines():
    baselines = _rose()
    _into_the_bathroom(baselines, MORNING - timedelta(minutes=1))
    baselines.observe(SHUT, BATH, "on", AREAS[BATH])
    return baselines


def test_a_presence_held_far_past_its_stays_is_told_by_them() -> None:
    baselines = _baselines()
    learned = baselines.durations.longest(BATH, "on", SHUT)
    assert learned is not None
    assert learned[1] == 1.2  # the fixture's mornings
    bath = _held_view(SHUT + timedelta(minutes=5)).info(BATH)
    assert bath is not None
    early = _held_view(SHUT + timedelta(minutes=5))
    assert not held_past_its_stays(early, baselines, bath, SHUT)  # minutes on: moving
    assert held_past_due(early, baselines) == SHUT + HELD_LIMIT
    before = _held_view(SHUT + HELD_LIMIT - timedelta(minutes=1))
    assert list(still_in_room_far_longer(before, baselines)) == []
    after = _held_view(SHUT + HELD_LIMIT + timedelta(minutes=1))
    assert moving_now(after, baselines, bath)  # as ever for the other stillness judges
    assert held_past_its_stays(after, baselines, bath, SHUT)
    (finding,) = still_in_room_far_longer(after, baselines)
    assert finding.rule == "still_in_room_far_longer"
    assert BATH in finding.evidence
    assert "never read anybody there for more than 1 min (99 stays)" in finding.reasoning


def test_somebody_else_seen_since_keeps_it_movement() -> None:
    baselines = _baselines()
    now = SHUT + HELD_LIMIT + timedelta(minutes=5)
    view = _held_view(now, hall_at=SHUT + timedelta(minutes=10))
    bath = view.info(BATH)
    assert bath is not None
    assert not held_past_its_stays(view, baselines, bath, SHUT)
    assert list(still_in_room_far_longer(view, baselines)) == []
    assert (
        held_past_due(
            _held_view(SHUT + timedelta(minutes=12), hall_at=SHUT + timedelta(minutes=10)),
            baselines,
        )
        is None
    )


def test_stays_not_learned_leave_it_movement() -> None:
    baselines = _baselines()
    baselines.durations.stays.pop(BATH, None)
    view = _held_view(SHUT + HELD_LIMIT + timedelta(minutes=5))
    bath = view.info(BATH)
    assert bath is not None
    assert not held_past_its_stays(view, baselines, bath, SHUT)
    assert held_past_due(view, baselines) is None


def test_its_own_door_used_later_is_somebody_there_moving() -> None:
    """The door they went in by is theirs; the same door used half an hour into the stay
    (a fridge opened in a kitchen full of family) is somebody moving there."""
    baselines = _baselines()
    now = SHUT + HELD_LIMIT + timedelta(minutes=5)
    view = _held_view(now, door_at=SHUT + timedelta(minutes=15))
    bath = view.info(BATH)
    assert bath is not None
    assert not held_past_its_stays(view, baselines, bath, SHUT)
    assert held_past_its_stays(_held_view(now), baselines, bath, SHUT)


def test_a_room_with_a_way_out_keeps_nobody() -> None:
    """A hall with the house door (a lock beside it): the family came home through it, its
    sensor held on is people there, not somebody who cannot leave."""
    baselines = _baselines()
    now = SHUT + HELD_LIMIT + timedelta(minutes=5)
    view = _held_view(now, locked=True)
    bath = view.info(BATH)
    assert bath is not None
    assert not held_past_its_stays(view, baselines, bath, SHUT)
    assert list(still_in_room_far_longer(view, baselines)) == []
