"""A complete use of an inner contact is a sign of somebody inside (core).

The home of ``test_rests_open_way_in``: Alice goes out at 08:00; her mother, who carries
no phone, stays in, and no motion sensor sees her. The bathroom door rests open and is
shut for a few minutes at each use. Shut at 10:00 and reopened at 10:06 while Alice is
out, it shows somebody inside: the front door opened by her at 10:20 is no entry, also
with a dog in the profile. A door only shut (a blip), shut for 40 min, or shut across a
gap in watching shows nobody; and a front door whose lock stayed locked was forced,
whoever used the bathroom.
"""

from __future__ import annotations

from datetime import timedelta

from custom_components.anomaly_monitor.core.baselines.home_baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.somebody_in import (
    inside_now,
    opened_from_inside,
)
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityInfo, Transition
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity, environment
from .test_rests_open_way_in import (
    ALICE,
    AREAS,
    BATH,
    FRONT,
    at,
    bathroom_used,
    door,
    lived,
    morning,
)

LOCK = "lock.0x00158d0004aa0b1c"
DOG = "Alice and her mother, and Bruno the dog."


def _home(
    baselines: HomeBaselines,
    today: list[Transition],
    now_hours: float,
    *,
    lock: str | None = None,
    profile: str = "",
    transitions: bool = True,
) -> HomeView:
    """What happened ``today`` learned as it happened, and the window at ``now_hours``
    (a safety check's, with the current states only, unless ``transitions``)."""
    now = at(6, now_hours)
    for transition in sorted(today):
        if transition.when <= now:
            baselines.learn(transition)
    start = now - timedelta(hours=5)
    shown = sorted(t for t in today if start <= t.when <= now)
    latest = {t.entity_id: t.state for t in shown}
    states = [entity(e, latest.get(e, "off"), area=AREAS[e], device_class="door") for e in AREAS]
    states.append(entity(ALICE, "not_home"))
    if lock is not None:
        states.append(entity(LOCK, lock, area=AREAS[FRONT]))
    env = environment(now, persons_home=0)
    window = build_window(states, env, shown if transitions else [], profile=profile, start=start)
    return HomeView(window)


def _front_opened(minutes_after_ten: float) -> list[Transition]:
    return [door(at(6, 10) + timedelta(minutes=minutes_after_ten), FRONT, "on")]


def test_the_bathroom_door_used_while_alice_is_out_shows_somebody_inside() -> None:
    baselines = lived(6)
    home = _home(baselines, morning(6) + bathroom_used(at(6, 10)), 10.2)
    assert inside_now(baselines, home) is not None


def test_the_front_door_opened_after_it_is_opened_from_inside() -> None:
    baselines = lived(6)
    today = morning(6) + bathroom_used(at(6, 10)) + _front_opened(20)
    home = _home(baselines, today, 10 + 21 / 60)
    assert opened_from_inside(baselines, home, at(6, 10) + timedelta(minutes=20), FRONT)


def test_with_a_dog_the_bathroom_door_is_still_a_person() -> None:
    baselines = lived(6)
    home = _home(baselines, morning(6) + bathroom_used(at(6, 10)), 10.2, profile=DOG)
    assert inside_now(baselines, home) is not None


def test_a_safety_check_reads_it_from_the_spells_record() -> None:
    baselines = lived(6)
    today = morning(6) + bathroom_used(at(6, 10)) + _front_opened(20)
    home = _home(baselines, today, 10 + 20 / 60, transitions=False)
    assert opened_from_inside(baselines, home, at(6, 10) + timedelta(minutes=20), FRONT)


def test_a_door_shut_and_not_reopened_is_no_sign() -> None:
    baselines = lived(6)
    today = [*morning(6), door(at(6, 10), BATH, "off")]
    assert inside_now(baselines, _home(baselines, today, 10.1)) is None


def test_a_door_shut_for_long_is_no_use_of_the_room() -> None:
    baselines = lived(6)
    home = _home(baselines, morning(6) + bathroom_used(at(6, 10), minutes=40), 10.75)
    assert inside_now(baselines, home) is None


def test_a_use_across_a_gap_in_watching_is_no_sign() -> None:
    baselines = lived(6)
    baselines.unwatched = (at(6, 10) + timedelta(minutes=2), at(6, 10) + timedelta(minutes=4))
    home = _home(baselines, morning(6) + bathroom_used(at(6, 10)), 10.2)
    assert inside_now(baselines, home) is None


def test_a_front_door_whose_lock_stayed_locked_was_forced() -> None:
    baselines = lived(6)
    baselines.describe([*baselines.infos.values(), EntityInfo(LOCK, "", area=AREAS[FRONT])])
    today = morning(6) + bathroom_used(at(6, 10)) + _front_opened(20)
    when = at(6, 10) + timedelta(minutes=20)
    for transitions in (True, False):
        fresh = lived(6)
        fresh.describe(list(baselines.infos.values()))
        home = _home(fresh, today, 10 + 21 / 60, lock="locked", transitions=transitions)
        assert opened_from_inside(fresh, home, when, FRONT) is None
    fresh = lived(6)
    fresh.describe(list(baselines.infos.values()))
    home = _home(fresh, today, 10 + 21 / 60, lock="unlocked")
    assert opened_from_inside(fresh, home, when, FRONT) is not None
