"""One person's fixed point, told by her room's motion (core, no Home Assistant): an
untracked grandmother prays at dawn in her room, 05:40 ± 10 every day, and goes to the
bathroom some nights at about half past two; her son (tracked) is up at six on some days
and at eight on others. One morning her room stays still while he is about. The ids say
nothing of the rooms."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.first_use_missed import first_use_missed
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityInfo, EntityState

from .core_factories import entity, environment, steps, window
from .lived_home import Events, ticked

DAY0 = datetime(2027, 1, 10, tzinfo=UTC)  # a Sunday
ROOM_MOTION = "binary_sensor.0x00158d0001_occupancy"
HALL = "binary_sensor.0x00158d0002_occupancy"
FRONT = "binary_sensor.0x00158d0003_contact"
PERSON = "person.b"
ROOM, HALLWAY = "Room 3", "Room 1"


INFOS = [
    EntityInfo(ROOM_MOTION, "Motion 1", area=ROOM, device_class="motion"),
    EntityInfo(HALL, "Occupancy 2", area=HALLWAY, device_class="occupancy"),
    EntityInfo(FRONT, "Door 3", area=HALLWAY, device_class="door"),
]


def _minute(day: int, base: int, spread: int) -> int:
    return base + (day * 37) % (2 * spread + 1) - spread


def lived(
    days: int,
    *,
    base: int = 5 * 60 + 40,
    spread: int = 10,
    turns: bool = False,
    early: bool = False,
    skip: frozenset[int] = frozenset(),
) -> HomeBaselines:
    """``days`` days: her room moves at ``base`` ± ``spread`` minutes for 20 min, at 12:30
    and 19:30; a night trip at ~02:30 on most nights (``turns``: her sensor also sees her
    turn over in the hour before it, 04:20-05:20; ``early``: her room moves at 05:20 too;
    ``skip``: days without the band); the hall moves at 06:10 on weekdays and 08:10 at
    weekends (her son up), he leaves by the front door at 09:00, back at 17:00."""
    baselines = HomeBaselines(UTC)
    baselines.describe(INFOS)
    events: Events = []
    for day in range(days):
        start = DAY0 + timedelta(days=day)

        def moves(minute: int, length: int, entity_id: str, start: datetime = start) -> Events:
            at = start + timedelta(minutes=minute)
            return [(at, entity_id, "on"), (at + timedelta(minutes=length), entity_id, "off")]

        if day % 3:
            events += moves(150 + day % 20, 6, ROOM_MOTION)
        if turns:
            events += moves(4 * 60 + 20 + day * 13 % 60, 1, ROOM_MOTION)
        if early:
            events += moves(5 * 60 + 20, 10, ROOM_MOTION)
        if day not in skip:
            events += moves(_minute(day, base, spread), 20, ROOM_MOTION)
        events += moves(
            6 * 60 + 10 if (DAY0 + timedelta(days=day)).weekday() < 5 else 8 * 60 + 10, 3, HALL
        )
        events += moves(12 * 60 + 30, 10, ROOM_MOTION)
        events += moves(19 * 60 + 30, 10, ROOM_MOTION)
        leave, back = start + timedelta(hours=9), start + timedelta(hours=17)
        events += [(leave - timedelta(minutes=1), FRONT, "on"), (leave, FRONT, "off")]
        events += [(leave + timedelta(minutes=1), PERSON, "not_home")]
        events += [(back, FRONT, "on"), (back + timedelta(minutes=1), FRONT, "off")]
        events += [(back + timedelta(minutes=2), PERSON, "home")]
    baselines.observe(DAY0, PERSON, "home")
    ticked(baselines, events, DAY0, DAY0 + timedelta(days=days))
    return baselines


LOCK = "lock.0x00158d0004_lock"
LIGHT = "light.0x00158d0005_light"


def _states(locked_room: bool) -> list[EntityState]:
    lock = [entity(LOCK, "locked", area=ROOM)] if locked_room else []
    return [
        entity(ROOM_MOTION, "off", area=ROOM, device_class="motion"),
        entity(HALL, "off", area=HALLWAY, device_class="occupancy"),
        entity(FRONT, "off", area=HALLWAY, device_class="door"),
        entity(LIGHT, "off", area=HALLWAY),
        *lock,
    ]


def at(
    now: datetime, events: list[tuple[float, str, str]], *, locked_room: bool = False, home: int = 1
) -> HomeView:
    """The view at ``now``; ``events``: (minutes after the morning's midnight, id, state)."""
    midnight = now.replace(hour=0, minute=0, second=0)
    transitions = steps(midnight, events)
    return HomeView(window(_states(locked_room), environment(now, persons_home=home), transitions))


SON_UP = [(6 * 60 + 20, HALL, "on"), (6 * 60 + 23, HALL, "off")]
# Up at 04:20, back in her room at 04:30, then still (a night trip, a low sugar).
NIGHT = [(4 * 60 + 20, ROOM_MOTION, "on"), (4 * 60 + 32, ROOM_MOTION, "off")]


def test_her_room_still_past_its_dawn_band_is_told_while_her_son_is_up() -> None:
    """Six days learned; the seventh her room moves at 04:20 and then not at all, her son
    up at 06:20. At 06:30, within the margin, nothing; at 06:50 told, about her room.
    Fails before: a motion sensor's first movement of the day was never a first use."""
    baselines = lived(6)
    today = DAY0 + timedelta(days=6)
    events = NIGHT + SON_UP
    assert (
        list(first_use_missed(at(today + timedelta(hours=6, minutes=30), events), baselines)) == []
    )
    [finding] = first_use_missed(at(today + timedelta(hours=6, minutes=50), events), baselines)
    assert finding.rule == "routine_missed"
    assert finding.evidence == (ROOM_MOTION,)
    assert "Room 3 has moved by 06:00 on 6 of the 6 days learned" in finding.reasoning
    assert "while others in the home are up" in finding.reasoning


def test_nothing_while_nobody_else_is_up_or_when_she_moved() -> None:
    """With the hall still (the household asleep too: ``getting_up``'s), or her room
    moving at 06:05 (late prayer, she is up), nothing is told. With no tracker home
    (somebody moving) nothing either (the room's person may be out with them); with
    the hall light switched on by her son (no sensor saw him), told."""
    baselines = lived(6)
    now = DAY0 + timedelta(days=6, hours=6, minutes=50)
    assert list(first_use_missed(at(now, NIGHT), baselines)) == []
    # No tracker home: the household out, the room's person may be with them.
    assert list(first_use_missed(at(now, NIGHT + SON_UP, home=0), baselines)) == []
    # No sensor saw him, but he switched the hall light on: somebody else is up.
    [lit] = first_use_missed(at(now, [*NIGHT, (6 * 60 + 20, LIGHT, "on")]), baselines)
    assert "while others in the home are up" in lit.reasoning
    baselines.routines.first_told = None
    late = [(6 * 60 + 5, ROOM_MOTION, "on"), (6 * 60 + 20, ROOM_MOTION, "off")]
    baselines.observe(now - timedelta(minutes=45), ROOM_MOTION, "on")
    baselines.observe(now - timedelta(minutes=30), ROOM_MOTION, "off")
    baselines.advance(now)
    assert list(first_use_missed(at(now, NIGHT + late + SON_UP), baselines)) == []


def test_too_few_days_a_wide_band_or_a_sleeper_seen_turning_are_no_fixed_point() -> None:
    """Five days are too few; a room whose first movement spreads over an hour and a half
    (06:00 ± 45) is no fixed point; a sensor that sees her turn over in the hour before
    her band has no first movement of the day."""
    assert (
        list(
            first_use_missed(
                at(DAY0 + timedelta(days=5, hours=6, minutes=50), NIGHT + SON_UP), lived(5)
            )
        )
        == []
    )
    now = DAY0 + timedelta(days=6, hours=7, minutes=50)
    wide = lived(6, base=6 * 60, spread=45)
    assert list(first_use_missed(at(now, NIGHT + SON_UP), wide)) == []
    now = DAY0 + timedelta(days=6, hours=6, minutes=50)
    assert list(first_use_missed(at(now, NIGHT + SON_UP), lived(6, turns=True))) == []


def test_a_room_with_a_lock_is_a_way_in_not_her_room() -> None:
    """The same room with a lock in it (a door to the yard): its first movement is
    whoever comes or goes, not told; without the lock, told."""
    baselines = lived(6)
    now = DAY0 + timedelta(days=6, hours=6, minutes=50)
    assert list(first_use_missed(at(now, NIGHT + SON_UP, locked_room=True), baselines)) == []
    assert len(list(first_use_missed(at(now, NIGHT + SON_UP), baselines))) == 1


def test_a_band_after_the_morning_began_or_one_skipped_now_and_then_is_none() -> None:
    """Her room at eleven every day, after her church at 05:20, is no first movement of
    the morning; a dawn band skipped on one morning of ten (a walk to the temple on most
    days) is a choice, not a fixed point."""
    later = lived(6, base=11 * 60, early=True)
    now = DAY0 + timedelta(days=6, hours=12, minutes=25)
    early = [(5 * 60 + 20, ROOM_MOTION, "on"), (5 * 60 + 30, ROOM_MOTION, "off")]
    son = [(11 * 60 + 30, HALL, "on"), (11 * 60 + 33, HALL, "off")]
    assert list(first_use_missed(at(now, early + son), later)) == []
    now = DAY0 + timedelta(days=10, hours=6, minutes=50)
    assert list(first_use_missed(at(now, NIGHT + SON_UP), lived(10, skip=frozenset({5})))) == []
    assert len(list(first_use_missed(at(now, NIGHT + SON_UP), lived(10)))) == 1


def test_not_after_the_household_was_out_since_her_band() -> None:
    """Her son out from 05:44 to 06:16 (every tracker away through a whole quarter since
    her band began): the household's morning changed, hers perhaps with it; not told."""
    baselines = lived(6)
    today = DAY0 + timedelta(days=6)
    baselines.observe(today + timedelta(hours=5, minutes=44), PERSON, "not_home")
    baselines.observe(today + timedelta(hours=6, minutes=16), PERSON, "home")
    now = today + timedelta(hours=6, minutes=50)
    baselines.advance(now)
    assert list(first_use_missed(at(now, NIGHT + SON_UP), baselines)) == []
    assert len(list(first_use_missed(at(now, NIGHT + SON_UP), lived(6)))) == 1
