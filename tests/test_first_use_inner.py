"""Not up only by a contact used from inside (core, no Home Assistant): a yard door a
helper comes in by at night and leaves by at ten, a gate opened as the household drives
out, a WC used on the night's trips are no one's getting up; each one morning not used
by its usual time is told by nobody. The ids say nothing of the rooms."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.first_use_missed import first_use_missed
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityInfo, EntityState

from .core_factories import entity, environment, steps, window
from .lived_home import Events, ticked

DAY0 = datetime(2027, 3, 1, tzinfo=UTC)  # a Monday
CONTACT = "binary_sensor.0x00158d0001_contact"  # the yard door, the gate, the WC door
FRONT = "binary_sensor.0x00158d0003_contact"  # the way the household comes and goes
HALL = "binary_sensor.0x00158d0004_occupancy"
A, B, C = "person.a", "person.b", "person.c"
ROOM, HALLWAY = "Room 5", "Room 1"
INFOS = [
    EntityInfo(CONTACT, "Door 1", area=ROOM, device_class="door"),
    EntityInfo(FRONT, "Door 3", area=HALLWAY, device_class="door"),
    EntityInfo(HALL, "Occupancy 4", area=HALLWAY, device_class="occupancy"),
]


def _jitter(day: int, spread: int) -> int:
    return (day * 7) % (2 * spread + 1) - spread


def _use(at: datetime, entity_id: str = CONTACT, minutes: float = 1) -> Events:
    return [(at, entity_id, "on"), (at + timedelta(minutes=minutes), entity_id, "off")]


def lived(days: int, day_of: Callable[[int, datetime], Events]) -> HomeBaselines:
    """``days`` days of ``day_of(day, midnight)``; the hall moves at 06:40 every day."""
    baselines = HomeBaselines(UTC)
    baselines.describe(INFOS)
    events: Events = []
    for day in range(days):
        start = DAY0 + timedelta(days=day)
        events += _use(start + timedelta(hours=6, minutes=40), HALL, 3)
        events += day_of(day, start)
    for person in (A, B, C):
        baselines.observe(DAY0, person, "home")
    baselines.observe(DAY0, CONTACT, "off")
    ticked(baselines, events, DAY0, DAY0 + timedelta(days=days))
    return baselines


def at(now: datetime, events: list[tuple[float, str, str]]) -> HomeView:
    """The view at ``now`` with the household home; ``events``: minutes after midnight."""
    midnight = now.replace(hour=0, minute=0, second=0)
    states: list[EntityState] = [
        entity(CONTACT, "off", area=ROOM, device_class="door"),
        entity(FRONT, "off", area=HALLWAY, device_class="door"),
        entity(HALL, "off", area=HALLWAY, device_class="occupancy"),
    ]
    return HomeView(window(states, environment(now, persons_home=2), steps(midnight, events)))


def helper(day: int, start: datetime) -> Events:
    """A helper with no tracker comes in by the yard door at 02:45 and leaves by it at
    ten; another comes at 12:45 and leaves at half past six."""
    hour = timedelta(hours=1)
    return [
        *_use(start + 2 * hour + timedelta(minutes=45 + _jitter(day, 5))),
        *_use(start + 10 * hour + timedelta(minutes=_jitter(day, 10))),
        *_use(start + 12 * hour + timedelta(minutes=45)),
        *_use(start + 18 * hour + timedelta(minutes=30 + _jitter(day, 5))),
    ]


def test_a_yard_door_a_helper_comes_in_by_at_night_is_no_first_use() -> None:
    """Twelve days: the yard door opened at 02:45 and at ten every day. On the thirteenth
    the helper stays on: at 11:15 nothing is told (the door's ten o'clock use is a
    departure, not its first of the day). Fails before: told as somebody not up (set 6 d,
    a bakery's yard door)."""
    baselines = lived(12, helper)
    today = DAY0 + timedelta(days=12)
    night = [(2 * 60 + 46, CONTACT, "on"), (2 * 60 + 47, CONTACT, "off")]
    morning = [*night, (6 * 60 + 40, HALL, "on"), (6 * 60 + 43, HALL, "off")]
    assert (
        list(first_use_missed(at(today + timedelta(hours=11, minutes=15), morning), baselines))
        == []
    )


def gate(day: int, start: datetime) -> Events:
    """A drives out by the gate at seven and back at half past five; B and C leave and
    come back by the front door; neighbours open the gate at noon and three."""
    hour, minute = timedelta(hours=1), timedelta(minutes=1)
    out = start + 7 * hour + _jitter(day, 5) * minute
    home_at = start + 17 * hour + 30 * minute
    return [
        *_use(out),
        (out + 5 * minute, A, "not_home"),
        *_use(start + 12 * hour),
        *_use(start + 15 * hour),
        *_use(home_at - 5 * minute),
        (home_at, A, "home"),
        *_use(start + 8 * hour + 29 * minute, FRONT),
        (start + 8 * hour + 30 * minute, B, "not_home"),
        *_use(start + 18 * hour - minute, FRONT),
        (start + 18 * hour, B, "home"),
        *_use(start + 9 * hour - minute, FRONT),
        (start + 9 * hour, C, "not_home"),
        *_use(start + 16 * hour - minute, FRONT),
        (start + 16 * hour, C, "home"),
    ]


def test_a_gate_opened_as_the_household_drives_out_is_a_way_not_a_first_use() -> None:
    """The gate opens at seven, five minutes before A's tracker leaves, and again as A
    comes back: half its openings come with a departure or an arrival (not most of the
    household's comings and goings: B and C use the front door). On a holiday A stays
    in: at 08:15 nothing is told. Fails before: told (set 14 d, a yard gate)."""
    baselines = lived(12, gate)
    assert not baselines.inside.came_and_went_by(CONTACT)
    assert not baselines.inside.seldom_a_way(CONTACT)
    today = DAY0 + timedelta(days=12)
    morning = [(6 * 60 + 40, HALL, "on"), (6 * 60 + 43, HALL, "off")]
    assert (
        list(first_use_missed(at(today + timedelta(hours=8, minutes=15), morning), baselines)) == []
    )


def wc(day: int, start: datetime, trips: bool = True) -> Events:
    """The WC door, shut between uses: a trip in the night on three nights in four
    (``trips``), the morning's use at seven, and in the afternoon."""
    hour = timedelta(hours=1)
    night = _use(start + 2 * hour + timedelta(minutes=30 + day % 20), minutes=4)
    return [
        *(night if day % 4 and trips else []),
        *_use(start + 7 * hour + timedelta(minutes=_jitter(day, 10)), minutes=6),
        *_use(start + 15 * hour, minutes=5),
    ]


def test_a_door_shut_between_uses_and_used_in_the_night_has_no_first_use_of_the_morning() -> None:
    """The WC door used at seven every morning, after a trip at half past two on most
    nights: its seven o'clock use is not the first of the day. Not used by 08:15 one
    morning (the night's trip made): nothing is told. A door that rests open by day
    (her bedroom door, ``test_first_use_missed``) is told with the same trips in the
    night. Without the night's trips, its seven o'clock use is its first, and told.
    Fails before: told (sets 7 and 8, a WC door)."""
    today = DAY0 + timedelta(days=12)
    now = today + timedelta(hours=8, minutes=15)
    morning = [(150, CONTACT, "on"), (154, CONTACT, "off"), (400, HALL, "on"), (403, HALL, "off")]
    assert list(first_use_missed(at(now, morning), lived(12, wc))) == []
    quiet = lived(12, lambda day, start: wc(day, start, trips=False))
    [finding] = first_use_missed(at(now, morning[2:]), quiet)
    assert finding.evidence == (CONTACT,)
