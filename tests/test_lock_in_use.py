"""A lock left unlocked while guests come and go is in use, not "unlocked far longer
than usual"; one unlocked for a single passage and forgotten is still told (core, no
Home Assistant)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from custom_components.anomaly_monitor.core.baselines import (
    HomeBaselines,
    lock_in_use as lock_in_use_module,
)
from custom_components.anomaly_monitor.core.baselines.long_stays import state_longer_than_usual
from custom_components.anomaly_monitor.core.baselines.unlocked_at_rest import unlocked_while_asleep
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityInfo

from .core_factories import entity, environment, steps, window

DAY0 = datetime(2026, 10, 26, tzinfo=UTC)
LOCK = "lock.z_wave_lock_3"  # ids that say nothing
DOOR = "binary_sensor.lumi_contact_7"
MOTION = "binary_sensor.hue_motion_sensor_1_motion"


def _home(days: int, door_class: str = "door") -> HomeBaselines:
    """``days`` days: the lock unlocked 3 min at 07:30, 16:40 and 18:00, the door opened
    once each time; movement every 10 min from 07:00 to 23:00."""
    baselines = HomeBaselines(UTC)
    baselines.describe(
        [
            EntityInfo(LOCK, "Front Door Deadbolt", area="Entry"),
            EntityInfo(DOOR, "Front door", area="Entry", device_class=door_class),
            EntityInfo(MOTION, "Hall motion", area="Entry", device_class="motion"),
        ]
    )
    for day in range(days):
        start = DAY0 + timedelta(days=day)
        baselines.observe(start, LOCK, "locked")
        baselines.observe(start, DOOR, "off")
        for hour, minute in ((7, 30), (16, 40), (18, 0)):
            moment = start + timedelta(hours=hour, minutes=minute)
            baselines.observe(moment, LOCK, "unlocked")
            baselines.observe(moment + timedelta(seconds=20), DOOR, "on")
            baselines.observe(moment + timedelta(minutes=1), DOOR, "off")
            baselines.observe(moment + timedelta(minutes=3), LOCK, "locked")
        for step in range(7 * 6, 23 * 6):
            baselines.observe(start + timedelta(minutes=10 * step), MOTION, "on")
            baselines.observe(start + timedelta(minutes=10 * step + 1), MOTION, "off")
    return baselines


def _evening(
    door_opened: tuple[float, ...], *, left_open: bool = False, door_class: str = "door"
) -> list[str]:
    """Day 6: the lock unlocked at 18:30, its door opened ``door_opened`` minutes after
    (the last one standing open still, ``left_open``); what ``state_longer_than_usual``
    tells at 19:35 (unlocked 65 min)."""
    baselines = _home(6, door_class)
    unlocked = DAY0 + timedelta(days=6, hours=18, minutes=30)
    now = unlocked + timedelta(minutes=65)
    baselines.observe(unlocked, LOCK, "unlocked")
    events: list[tuple[float, str, str]] = [(0, LOCK, "unlocked")]
    for minutes in door_opened:
        baselines.observe(unlocked + timedelta(minutes=minutes), DOOR, "on")
        events.append((minutes, DOOR, "on"))
        if left_open and minutes == door_opened[-1]:
            continue
        baselines.observe(unlocked + timedelta(minutes=minutes + 0.5), DOOR, "off")
        events.append((minutes + 0.5, DOOR, "off"))
    # The hall's sensor sees somebody pass every 10 min (on a minute each time).
    events += [(m + d, MOTION, s) for m in range(2, 65, 10) for d, s in ((0, "on"), (1, "off"))]
    lock = replace(entity(LOCK, "unlocked", area="Entry"), last_changed=unlocked)
    door = replace(
        entity(DOOR, "on" if left_open else "off", area="Entry", device_class=door_class),
        last_changed=unlocked + timedelta(minutes=door_opened[-1]) if left_open else now,
    )
    motion = entity(MOTION, "on", area="Entry", device_class="motion")
    view = HomeView(
        window(
            [lock, door, motion],
            environment(now, persons_home=2),
            steps(unlocked - timedelta(minutes=55), [(m + 55, e, s) for m, e, s in events]),
        )
    )
    return [f.reasoning for f in state_longer_than_usual(view, baselines)]


def test_a_lock_left_unlocked_while_guests_arrive_is_in_use() -> None:
    """Unlocked at 18:30 for the first guests, the door opened again at 18:44 and 19:05:
    people coming and going, not a lock forgotten (its stays are 3 min)."""
    assert _evening((0.2, 14, 35)) == []


def test_a_lock_unlocked_for_one_passage_and_forgotten_is_still_told() -> None:
    """Out with the bins at 18:30 and back at 18:33, the lock left: told at an hour."""
    [told] = _evening((0.2, 3))
    assert "has been unlocked for 1 h 05 min" in told


def test_a_door_opened_again_and_left_standing_open_is_no_passage() -> None:
    """Unlocked at 18:30, the door opened again at 19:20 and standing open since (come
    in and left ajar on the latch): no passage that says the lock is in use; told, so the
    door's own finding joins the lock's incident rather than being told after its clear."""
    [told] = _evening((0.2, 50), left_open=True)
    assert "has been unlocked for 1 h 05 min" in told
    assert _evening((0.2, 50)) == []  # the same passage shut again: in use
    assert _evening((0.2, 64), left_open=True) == []  # a guest in the doorway a minute


def test_a_lock_whose_door_reads_as_a_generic_opening_is_read_by_its_passage() -> None:
    """The hall's contact paired with HA's generic ``opening`` class: no entry door by
    class, so the door the lock keeps is the one opened right after each unlock. Guests
    through it at 18:44 and 19:05: in use; one passage and the lock forgotten: told."""
    assert _evening((0.2, 14, 35), door_class="opening") == []
    [told] = _evening((0.2, 3), door_class="opening")
    assert "has been unlocked for 1 h 05 min" in told


def test_a_contact_opened_minutes_after_the_unlock_is_not_its_door() -> None:
    """The contact first opened 5 min after the unlock (not the passage the key was
    turned for): the lock's door is not known, and the lock is told as before."""
    [told] = _evening((5, 14, 35), door_class="opening")
    assert "has been unlocked for 1 h 05 min" in told


LIVING = "binary_sensor.lumi_presence_2"


def test_a_party_past_midnight_in_a_room_held_occupied_is_not_the_household_asleep() -> None:
    """The front door unlocked at 21:00 for a party, guests through it until 22:30; the
    living room's presence sensor (on a few minutes at a time on other evenings) held on
    since 21:02, no new motion since 23:00. At 00:55 nobody is asleep: neither the day's
    rule nor the night's tells the lock."""
    baselines = _home(6)
    baselines.describe_one(EntityInfo(LIVING, "Living presence", "Living", "occupancy"))
    for day in range(6):
        evening = DAY0 + timedelta(days=day, hours=20)
        baselines.observe(evening, LIVING, "on")
        baselines.observe(evening + timedelta(minutes=3), LIVING, "off")
    unlocked = DAY0 + timedelta(days=6, hours=21)
    tonight = [(unlocked, LOCK, "unlocked"), (unlocked + timedelta(minutes=2), LIVING, "on")]
    for minutes in (1, 25, 48, 90):
        tonight.append((unlocked + timedelta(minutes=minutes), DOOR, "on"))
        tonight.append((unlocked + timedelta(minutes=minutes, seconds=30), DOOR, "off"))
    for step in range(7 * 6, 23 * 6):  # the day's movement in the hall, until 23:00
        moved = DAY0 + timedelta(days=6, minutes=10 * step)
        tonight += [(moved, MOTION, "on"), (moved + timedelta(minutes=1), MOTION, "off")]
    for when, entity_id, state in sorted(tonight):
        baselines.observe(when, entity_id, state)
    now = DAY0 + timedelta(days=7, minutes=55)
    baselines.advance(now)
    lock = replace(entity(LOCK, "unlocked", area="Entry"), last_changed=unlocked)
    door = replace(
        entity(DOOR, "off", area="Entry", device_class="door"),
        last_changed=unlocked + timedelta(minutes=90),
    )
    living = replace(
        entity(LIVING, "on", area="Living", device_class="occupancy"),
        last_changed=unlocked + timedelta(minutes=2),
    )
    motion = replace(
        entity(MOTION, "off", area="Entry", device_class="motion"),
        last_changed=now - timedelta(hours=2),
    )
    view = HomeView(window([lock, door, living, motion], environment(now, persons_home=2)))
    assert list(state_longer_than_usual(view, baselines)) == []
    assert list(unlocked_while_asleep(view, baselines)) == []
    # The same night with the living room's sensor clear: the household is asleep.
    clear = replace(living, state="off")
    [told] = unlocked_while_asleep(
        HomeView(window([lock, door, clear, motion], environment(now, persons_home=2))),
        baselines,
    )
    assert "asleep since 22:51" in told.reasoning


SITTING = "binary_sensor.aqara_presence_4"


def _afternoon(held: float, *, rooms: int = 1, cleared: float | None = None) -> HomeView:
    """Day 6: the lock unlocked at 13:00 for relatives (the door opened once, at 13:00);
    ``rooms`` presence sensors held on since 13:02 (until ``cleared`` min after the unlock,
    when given); the view ``held`` min after 13:02."""
    unlocked = DAY0 + timedelta(days=6, hours=13)
    now = unlocked + timedelta(minutes=2 + held)
    state = "on" if cleared is None else "off"
    states = [
        replace(entity(LOCK, "unlocked", area="Entry"), last_changed=unlocked),
        replace(entity(DOOR, "off", area="Entry", device_class="door"), last_changed=unlocked),
    ]
    events: list[tuple[float, str, str]] = [(0, LOCK, "unlocked"), (0.2, DOOR, "on")]
    events.append((0.5, DOOR, "off"))
    for room in range(rooms):
        sensor = f"{SITTING}_{room}"
        states.append(entity(sensor, state, area=f"Room {room}", device_class="occupancy"))
        events.append((2, sensor, "on"))
        if cleared is not None:
            events.append((cleared, sensor, "off"))
    return HomeView(
        window(
            states,
            environment(now, persons_home=2),
            steps(unlocked - timedelta(minutes=5), [(m + 5, e, s) for m, e, s in events]),
        )
    )


def _learned_with_rooms(rooms: int) -> HomeBaselines:
    baselines = _home(6)
    for room in range(rooms):
        sensor = f"{SITTING}_{room}"
        baselines.describe_one(EntityInfo(sensor, "Presence", f"Room {room}", "occupancy"))
        for day in range(6):
            afternoon = DAY0 + timedelta(days=day, hours=13, minutes=30)
            baselines.observe(afternoon, sensor, "on")
            baselines.observe(afternoon + timedelta(minutes=3), sensor, "off")
    return baselines


def test_a_lock_unlocked_while_people_stay_in_a_room_is_in_use() -> None:
    """Unlocked at 13:00 for the relatives, who sit in the living room (its sensor held on
    since 13:02, on other afternoons 3 min at a time): at 14:05 nobody forgot the lock.
    The same hour with the room cleared at 13:12 (somebody passing, then gone) is told."""
    assert list(state_longer_than_usual(_afternoon(63), _learned_with_rooms(1))) == []
    [told] = state_longer_than_usual(_afternoon(63, cleared=12), _learned_with_rooms(1))
    assert "has been unlocked for 1 h 05 min" in told.reasoning


def test_a_lock_used_again_after_the_household_rest_began_is_in_use(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A night of coming and going (a sensor held on for hours makes no new motion, so the
    rest read from motion began at 22:04): the door opened at 03:30, after that rest
    began, is somebody up. A lock whose door last opened before the rest is not in use."""
    unlocked = DAY0 + timedelta(days=6, hours=22)
    rest = unlocked + timedelta(minutes=4)
    monkeypatch.setattr(lock_in_use_module, "asleep_since", lambda home, baselines: rest)
    baselines = _home(6)
    lock = replace(entity(LOCK, "unlocked", area="Entry"), last_changed=unlocked)

    def in_use(last_opened: timedelta) -> bool:
        now = unlocked + timedelta(hours=6, minutes=5)
        door = replace(
            entity(DOOR, "off", area="Entry", device_class="door"),
            last_changed=unlocked + last_opened,
        )
        events = [(0.0, LOCK, "unlocked"), (0.2, DOOR, "on"), (0.5, DOOR, "off")]
        minutes = last_opened.total_seconds() / 60
        events += [(minutes, DOOR, "on"), (minutes + 0.5, DOOR, "off")]
        view = HomeView(
            window(
                [lock, door],
                environment(now, persons_home=2),
                steps(unlocked - timedelta(minutes=5), [(m + 5, e, s) for m, e, s in events]),
            )
        )
        return lock_in_use_module.lock_in_use(view, baselines, lock, unlocked)

    assert in_use(timedelta(hours=5, minutes=30))  # 03:30, after the rest began
    assert not in_use(timedelta(minutes=3))  # out to the bins at 22:03 and back


PERSON = "person.person_2"


def _back_home(hour: int, *, arrived: bool) -> list[str]:
    """Day 6: the lock unlocked at ``hour``:35 and its door opened once, then nothing; a
    person came home from away a minute before (``arrived``) or was home all along. What
    ``state_longer_than_usual`` tells 65 min after the unlock."""
    baselines = _home(6)
    unlocked = DAY0 + timedelta(days=6, hours=hour, minutes=35)
    now = unlocked + timedelta(minutes=65)
    baselines.observe(unlocked - timedelta(hours=5), PERSON, "home")
    if arrived:  # out since the morning, back a minute before the unlock
        baselines.observe(unlocked - timedelta(hours=4), PERSON, "not_home")
        baselines.observe(unlocked - timedelta(minutes=1), PERSON, "home")
    events: list[tuple[float, str, str]] = [(0, LOCK, "unlocked"), (0.2, DOOR, "on")]
    events.append((0.5, DOOR, "off"))
    states = [
        replace(entity(LOCK, "unlocked", area="Entry"), last_changed=unlocked),
        replace(entity(DOOR, "off", area="Entry", device_class="door"), last_changed=unlocked),
        entity(PERSON, "home"),
    ]
    view = HomeView(
        window(
            states,
            environment(now, persons_home=2),
            steps(unlocked - timedelta(minutes=30), [(m + 30, e, s) for m, e, s in events]),
        )
    )
    return [f.reasoning for f in state_longer_than_usual(view, baselines)]


def test_a_lock_unlocked_for_one_of_the_household_coming_home_is_theirs_by_day() -> None:
    """Back from the morning's procession at 10:34, the door left on the latch for the
    relatives due at lunch: nobody unknown came in, and whoever turned it is home and up.
    The same lock turned with nobody coming home (somebody untracked going out) is told."""
    assert _back_home(10, arrived=True) == []
    [told] = _back_home(10, arrived=False)
    assert "has been unlocked for 1 h 05 min" in told


def test_a_lock_left_after_coming_home_is_judged_in_the_hours_the_home_rests(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The hours this home rests at (``lock_floor``) judge any lock from its unlock, the
    one a person came home by too."""
    monkeypatch.setattr(lock_in_use_module, "lock_floor", lambda *args: timedelta(minutes=20))
    [told] = _back_home(10, arrived=True)
    assert "has been unlocked for 1 h 05 min" in told


def test_one_of_the_household_coming_back_through_the_door_is_no_guest() -> None:
    """Unlocked at 18:30 to go down to the pharmacy, back at 18:49 (the person's return,
    the door opened a minute after), the lock left: forgotten, told at the hour. The same
    evening with a guest through the door at 18:49 (nobody of the household back then)
    is the door in use."""
    unlocked = DAY0 + timedelta(days=6, hours=18, minutes=30)

    def told(returned: bool) -> list[str]:
        baselines = _home(6)
        baselines.observe(unlocked - timedelta(hours=5), PERSON, "home")
        if returned:
            baselines.observe(unlocked + timedelta(minutes=3), PERSON, "not_home")
            baselines.observe(unlocked + timedelta(minutes=18), PERSON, "home")
        now = unlocked + timedelta(minutes=65)
        events: list[tuple[float, str, str]] = [(0, LOCK, "unlocked"), (0.2, DOOR, "on")]
        events += [(0.5, DOOR, "off"), (19, DOOR, "on"), (19.5, DOOR, "off")]
        states = [
            replace(entity(LOCK, "unlocked", area="Entry"), last_changed=unlocked),
            replace(
                entity(DOOR, "off", area="Entry", device_class="door"),
                last_changed=unlocked + timedelta(minutes=19.5),
            ),
            entity(PERSON, "home"),
        ]
        view = HomeView(
            window(
                states,
                environment(now, persons_home=2),
                steps(unlocked - timedelta(minutes=30), [(m + 30, e, s) for m, e, s in events]),
            )
        )
        return [f.reasoning for f in state_longer_than_usual(view, baselines)]

    [forgotten] = told(returned=True)
    assert "has been unlocked for 1 h 05 min" in forgotten
    assert told(returned=False) == []


def test_a_guests_passage_before_one_of_the_household_came_home_is_not_forgotten() -> None:
    """Unlocked at 18:30 for the first guests, a guest through the door at 18:41, one of
    the household home through it at 18:49; the window of the analysis at 19:35 begins
    after the guest's passage. The door's last opening is the return (no guest), but the
    one before it, kept by the baselines, is: the lock is in use. With no guest before the
    return (out to the pharmacy and back) it is forgotten and told."""
    unlocked = DAY0 + timedelta(days=6, hours=18, minutes=30)

    def told(guest: bool) -> list[str]:
        baselines = _home(6)
        seen = [(-300.0, PERSON, "home"), (0.0, LOCK, "unlocked"), (3.0, PERSON, "not_home")]
        seen.append((18.0, PERSON, "home"))
        for minutes in [0.2, 11.0, 19.0] if guest else [0.2, 19.0]:
            seen += [(minutes, DOOR, "on"), (minutes + 0.5, DOOR, "off")]
        for minutes, entity_id, state in sorted(seen):
            baselines.observe(unlocked + timedelta(minutes=minutes), entity_id, state)
        now = unlocked + timedelta(minutes=65)
        events = [(19.0, DOOR, "on"), (19.5, DOOR, "off")]
        states = [
            replace(entity(LOCK, "unlocked", area="Entry"), last_changed=unlocked),
            replace(
                entity(DOOR, "off", area="Entry", device_class="door"),
                last_changed=unlocked + timedelta(minutes=19.5),
            ),
            entity(PERSON, "home"),
        ]
        start = unlocked + timedelta(minutes=16)  # after the guest's passage
        view = HomeView(
            window(
                states,
                environment(now, persons_home=2),
                steps(start, [(m - 16, e, s) for m, e, s in events]),
            )
        )
        return [f.reasoning for f in state_longer_than_usual(view, baselines)]

    assert told(guest=True) == []
    [forgotten] = told(guest=False)
    assert "has been unlocked for 1 h 05 min" in forgotten
