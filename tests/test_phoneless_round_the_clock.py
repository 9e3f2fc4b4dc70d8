"""What moves at all hours while every tracker is away is a pet's, unless the profile says
who stays in (``phoneless_residents.people_move_at_any_hour``, ``somebody_in``), or the
options' count of people living here without a tracked phone does.

Alice is away for a week's work trip. Her mother (no phone) and her brother live in the
house: the living room and the bedroom move every three hours, day and night, in every
part of the day the house is "empty". ``AwayNormal.moves_at_any_hour`` takes that for a
dog's, so the home was never read as lived in while the trackers are away and the away
judge could not see them. With a profile that says the mother has no phone and names no
pet, the same motion is people: the home is lived in while the trackers are away. With a
dog in the profile, or no word of anybody without a phone, it is read as before.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.lived_while_away import lived_while_away
from custom_components.anomaly_monitor.core.baselines.somebody_in import opened_from_inside
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityInfo, Transition
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity, environment

DAY0 = datetime(2026, 3, 2, tzinfo=UTC)
ALICE = "person.alice"
LIVING = "binary_sensor.living_room_motion"
BEDROOM = "binary_sensor.bedroom_motion"
BACK_DOOR = "binary_sensor.back_door"
AREAS = {LIVING: "Living Room", BEDROOM: "Bedroom"}
MOTHER = "I travel for work; my mother (80, no phone) and my brother live here."


def _at(hours: float) -> datetime:
    return DAY0 + timedelta(hours=hours)


def _away_for_days(days: int) -> HomeBaselines:
    baselines = HomeBaselines(UTC)
    infos = [EntityInfo(e, "", area=AREAS[e], device_class="motion") for e in AREAS]
    door = EntityInfo(BACK_DOOR, "Back door", area="Kitchen", device_class="door")
    baselines.describe([*infos, door, EntityInfo(ALICE, "Alice")])
    baselines.watching([*AREAS, BACK_DOOR, ALICE], DAY0 - timedelta(days=1))
    baselines.learn(Transition(DAY0, ALICE, "home"))
    baselines.learn(Transition(DAY0, BACK_DOOR, "off", "Kitchen"))
    baselines.learn(Transition(_at(0.5), ALICE, "not_home"))
    for hour in range(1, days * 24, 3):
        for sensor, area in AREAS.items():
            baselines.learn(Transition(_at(hour), sensor, "on", area))
            baselines.learn(Transition(_at(hour + 0.05), sensor, "off", area))
        if hour % 24 == 22:
            baselines.advance(_at(hour))
    return baselines


def _home(
    now: datetime,
    profile: str,
    today: tuple[Transition, ...] = (),
    phoneless_residents: int | None = None,
) -> HomeView:
    states = [entity(e, "off", area=AREAS[e], device_class="motion") for e in AREAS]
    states.append(entity(BACK_DOOR, "on" if today else "off", area="Kitchen", device_class="door"))
    states.append(entity(ALICE, "not_home"))
    env = environment(now, persons_home=0)
    start = now - timedelta(hours=2)
    return HomeView(
        build_window(
            states,
            env,
            list(today),
            profile=profile,
            start=start,
            phoneless_residents=phoneless_residents,
        )
    )


def test_round_the_clock_motion_is_the_phoneless_mother_the_profile_names() -> None:
    baselines = _away_for_days(5)
    now = _at(5 * 24 + 11)
    assert baselines.away.moves_at_any_hour(LIVING, now) is not None  # read as a pet's
    assert not lived_while_away(baselines, _home(now, ""))
    assert lived_while_away(baselines, _home(now, MOTHER))


def test_the_options_count_says_it_without_a_word_in_the_profile() -> None:
    """The homeowner who answered "People who live here without a tracked phone: 1" and
    wrote no profile is read as the profile's "my mother has no phone" is."""
    baselines = _away_for_days(5)
    now = _at(5 * 24 + 11)
    assert lived_while_away(baselines, _home(now, "", phoneless_residents=1))
    assert not lived_while_away(baselines, _home(now, "We have a dog.", phoneless_residents=1))


def test_the_options_count_wins_over_the_profile() -> None:
    """0 is the homeowner's answer that everybody here carries a tracked phone: the
    profile's words (written before the mother got one) no longer count."""
    baselines = _away_for_days(5)
    now = _at(5 * 24 + 11)
    assert not lived_while_away(baselines, _home(now, MOTHER, phoneless_residents=0))
    assert lived_while_away(baselines, _home(now, MOTHER, phoneless_residents=None))


def test_with_a_dog_in_the_profile_it_may_be_the_dog() -> None:
    baselines = _away_for_days(5)
    now = _at(5 * 24 + 11)
    assert not lived_while_away(baselines, _home(now, MOTHER + " We have a dog."))


def test_round_the_clock_motion_before_a_door_at_night_is_still_no_sign() -> None:
    """Lived in, yet the living room moving at 02:50 and the back door opened at 02:52 is
    an opening from outside, as before: motion that keeps no hours tells no more who moved
    before a door (a man over the wall) than it did."""
    baselines = _away_for_days(5)
    moved, opened = _at(5 * 24 + 2 + 50 / 60), _at(5 * 24 + 2 + 52 / 60)
    today = (
        Transition(moved, LIVING, "on", "Living Room"),
        Transition(opened, BACK_DOOR, "on", "Kitchen"),
    )
    for transition in today:
        baselines.learn(transition)
    home = _home(opened + timedelta(minutes=1), MOTHER, today)
    assert lived_while_away(baselines, home)
    assert opened_from_inside(baselines, home, opened, BACK_DOOR) is None
