"""A lone motion pass while the household rests is a pet, not a person awake (core).

The household's rest (``DailyRhythm``) is what the night rules read "asleep" from: a dog
walking the hall at night must not end it; a person up in the night (a light, a door,
several rooms, up and about) still does.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.models import EntityInfo

NIGHT = datetime(2026, 2, 3, tzinfo=UTC)  # midnight, a Tuesday
HALL = "binary_sensor.hall_motion"
LIVING = "binary_sensor.living_motion"
HER_ROOM = "binary_sensor.her_room_motion"
HALL_LIGHT = "light.hall"
FRONT = "binary_sensor.front_door"
INFOS = [
    EntityInfo(HALL, "", area="Hall", device_class="motion"),
    EntityInfo(LIVING, "", area="Living room", device_class="motion"),
    EntityInfo(HER_ROOM, "", area="Her room", device_class="motion"),
    EntityInfo(HALL_LIGHT, "", area="Hall"),
    EntityInfo(FRONT, "", area="Hall", device_class="door"),
]


def _at(hours: float) -> datetime:
    return NIGHT + timedelta(hours=hours)


def _pass(baselines: HomeBaselines, sensor: str, when: datetime, minutes: float = 2) -> None:
    baselines.observe(when, sensor, "on")
    baselines.observe(when + timedelta(minutes=minutes), sensor, "off")


def _gone_to_bed() -> HomeBaselines:
    """The evening until 22:00 (the living room moving, the hall light off at bedtime),
    then nobody up."""
    baselines = HomeBaselines(UTC)
    baselines.describe(INFOS)
    baselines.observe(_at(-6), "person.kai", "home")
    baselines.observe(_at(-6), HALL_LIGHT, "off")
    moment = _at(-5)
    while moment < _at(-2):
        _pass(baselines, LIVING, moment, 1)
        moment += timedelta(minutes=10)
    return baselines


def test_a_dog_walking_the_hall_at_night_does_not_end_the_rest() -> None:
    """The dog's passes at 03:15, 04:01, 04:08, 04:20 and 04:42 (one sensor, minutes each,
    nothing else): the household has rested since 22:00 all the same."""
    baselines = _gone_to_bed()
    bedtime = baselines.rhythm.last_move
    for hours in (3.25, 4 + 1 / 60, 4 + 8 / 60, 4 + 20 / 60, 4.7):
        _pass(baselines, HALL, _at(hours))
    rhythm = baselines.rhythm
    assert rhythm.last_move == bedtime
    assert rhythm.resting_since(_at(4.95)) == bedtime
    assert not rhythm.woke_on(rhythm.day_of(_at(4.95)))


def test_the_dog_passing_under_the_hall_light_automation_is_still_the_dog() -> None:
    """The hall light comes on by automation a second after the dog's motion: no hand."""
    baselines = _gone_to_bed()
    bedtime = baselines.rhythm.last_move
    baselines.observe(_at(3.25), HALL, "on")
    baselines.observe(_at(3.25) + timedelta(seconds=1), HALL_LIGHT, "on")
    baselines.observe(_at(3.25) + timedelta(minutes=2), HALL, "off")
    baselines.observe(_at(3.25) + timedelta(minutes=3), HALL_LIGHT, "off")
    assert baselines.rhythm.resting_since(_at(4)) == bedtime


def test_her_way_to_the_door_is_a_person_and_the_rest_before_it_stands() -> None:
    """After the dog's night, she moves in her room at 04:50 and opens the front door at
    04:56: her movement counts from 04:50, and the household had rested until then."""
    baselines = _gone_to_bed()
    bedtime = baselines.rhythm.last_move
    for hours in (3.25, 4 + 1 / 60, 4.7):
        _pass(baselines, HALL, _at(hours))
    _pass(baselines, HER_ROOM, _at(4 + 50 / 60), 3)
    baselines.observe(_at(4 + 56 / 60), FRONT, "on")
    rhythm = baselines.rhythm
    assert rhythm.last_move == _at(4 + 53 / 60)
    assert rhythm.rest_since == bedtime  # the night's rest, then her bout
    assert rhythm.bout_start == _at(4 + 50 / 60)


def test_an_early_riser_switching_the_light_on_wakes_the_house() -> None:
    """05:30 the hall moves and the light is switched on by hand 20 s later; she goes on
    about the hall: the household got up at 05:30."""
    baselines = _gone_to_bed()
    up = _at(5.5)
    baselines.observe(up, HALL, "on")
    baselines.observe(up + timedelta(seconds=20), HALL_LIGHT, "on")
    moment = up + timedelta(minutes=2)
    while moment < up + timedelta(minutes=40):
        baselines.observe(moment, HALL, "off")
        baselines.observe(moment + timedelta(minutes=3), HALL, "on")
        moment += timedelta(minutes=6)
    rhythm = baselines.rhythm
    assert rhythm.woke_on(rhythm.day_of(up))
    assert rhythm.wakes[-1][1] == 5 * 60 + 30


def test_walking_through_rooms_in_the_dark_is_a_person() -> None:
    """No light, no door: the hall, the living room, the hall again within minutes."""
    baselines = _gone_to_bed()
    walk = _at(3)
    _pass(baselines, HALL, walk, 1)
    _pass(baselines, LIVING, walk + timedelta(minutes=2), 2)
    _pass(baselines, HALL, walk + timedelta(minutes=5), 1)
    assert baselines.rhythm.last_move == walk + timedelta(minutes=6)
    assert baselines.rhythm.bout_start == walk


def test_up_and_about_in_one_room_is_a_person() -> None:
    """One sensor only, moving every 15 minutes for an hour: somebody up (a dog's
    passes, minutes each, come an hour or so apart)."""
    baselines = _gone_to_bed()
    start = _at(3)
    bedtime = baselines.rhythm.last_move
    for minutes in range(0, 46, 15):
        _pass(baselines, LIVING, start + timedelta(minutes=minutes), 1)
    assert baselines.rhythm.last_move == bedtime  # four passes: not yet told from a dog
    _pass(baselines, LIVING, start + timedelta(minutes=60), 1)
    assert baselines.rhythm.last_rest == (bedtime, start)  # up since 03:00, not asleep
    assert baselines.rhythm.last_move == start + timedelta(minutes=61)


def test_motion_right_after_a_door_opened_is_a_person() -> None:
    """Somebody comes in through the front door at 03:00: their motion counts at once."""
    baselines = _gone_to_bed()
    baselines.observe(_at(3), FRONT, "on")
    baselines.observe(_at(3) + timedelta(seconds=30), HALL, "on")
    assert baselines.rhythm.last_move == _at(3) + timedelta(seconds=30)


def test_a_restless_bout_then_stillness_is_the_night_going_on() -> None:
    """Up at 03:00 for half an hour (the hall and the living room), then nothing but the
    dog at 05:10: by 06:30 the household's night goes on from 22:00, not a day begun at
    03:00 (nothing else moved to say "back to bed")."""
    baselines = _gone_to_bed()
    bedtime = baselines.rhythm.last_move
    for minutes in range(0, 31, 5):
        _pass(baselines, HALL if minutes % 10 else LIVING, _at(3) + timedelta(minutes=minutes), 2)
    rhythm = baselines.rhythm
    assert rhythm.woke_on(rhythm.day_of(_at(3.5)))  # the bout, so far, is up
    _pass(baselines, HALL, _at(5 + 10 / 60))
    baselines.advance(_at(6.5))
    assert rhythm.resting_since(_at(6.5)) == bedtime
    assert not rhythm.woke_on(rhythm.day_of(_at(6.5)))
