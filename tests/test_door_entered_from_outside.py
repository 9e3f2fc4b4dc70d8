"""A door opened from outside at night, where its room lives at night but nobody comes in.

Set 36: a back door tried at 02:55 (the dog in the living room, the porch's door used at
01:09 and 03:35 on the Fourth of July night by a son slipping out and back with his
phone) and a kitchen door forced at 02:20 (the kitchen's motion sensor busy all night)
were never told: ``entry_at_an_unused_hour`` only asked whether the door's *area* had any
activity at that hour. The household's own night use of a door comes from inside (motion
towards it first, or a phone leaving or coming home with it); a stranger's comes first,
at an hour nobody of this home ever came in so (``outside_entries``).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.lonely_openings import LonelyOpenings
from custom_components.anomaly_monitor.core.baselines.outside_entries import OutsideEntries
from custom_components.anomaly_monitor.core.combined_detector import CombinedDetector
from custom_components.anomaly_monitor.core.models import EntityInfo, Finding, Transition
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity, environment

DOOR = "binary_sensor.kitchen_door"
KITCHEN = "binary_sensor.kitchen_motion"
HALL = "binary_sensor.hall_motion"
BEA = "person.bea"
BED = "binary_sensor.bed_occupancy"
AREAS = {DOOR: "Kitchen", KITCHEN: "Kitchen", HALL: "Hall"}
CLASSES = {DOOR: "door", KITCHEN: "motion", HALL: "motion", BED: "occupancy"}
WITH_BED = {**AREAS, BED: "Bedroom"}
DAY0 = datetime(2026, 3, 2, tzinfo=UTC)
RULE = "entry_at_an_unused_hour"


def at(day: int, hour: float) -> datetime:
    return DAY0 + timedelta(days=day, hours=hour)


def pulse(sensor: str, when: datetime, minutes: float = 2) -> list[Transition]:
    return [
        Transition(when, sensor, "on"),
        Transition(when + timedelta(minutes=minutes), sensor, "off"),
    ]


def day_of_life(day: int, night: str) -> list[Transition]:
    """Up 7-23 (the hall every 20 min, the kitchen door to the yard by day), the dog in
    the kitchen through the night; ``night``: what the door sees in the small hours."""
    events: list[Transition] = []
    for hour in range(7, 23):
        for minute in (0.1, 0.43, 0.76):
            events += pulse(HALL, at(day, hour + minute), 3)
    for hour in (9.5, 13.5, 17.5):
        events += pulse(DOOR, at(day, hour), 0.5)
    for hour in (0.5, 1.6, 2.2, 2.9, 3.6, 4.4):  # the dog turning over in the kitchen
        events += pulse(KITCHEN, at(day + 1, hour))
    if night == "shift":  # the lodger back from his shift, no phone tracked: in first
        events += pulse(DOOR, at(day + 1, 2.5), 0.5)
        events += pulse(KITCHEN, at(day + 1, 2.505), 1)
    if night == "dog out":  # Bea down the hall, lets the dog out and in again
        events += pulse(HALL, at(day + 1, 2.45), 1)
        events += pulse(DOOR, at(day + 1, 2.5), 0.5)
        events += pulse(HALL, at(day + 1, 2.58), 1)
        events += pulse(DOOR, at(day + 1, 2.6), 0.5)
    return sorted(events)


def lived(
    days: int, night: str = "", on_day: int | None = None, areas: dict[str, str] = AREAS
) -> HomeBaselines:
    """``areas`` with the bed: somebody lies in it every night, 22:30 to 06:30."""
    baselines = HomeBaselines(UTC)
    infos = [EntityInfo(e, e, area=areas[e], device_class=CLASSES[e]) for e in areas]
    baselines.describe([*infos, EntityInfo(BEA, "Bea")])
    baselines.watching([*areas, BEA], DAY0 - timedelta(days=7))
    baselines.learn(Transition(DAY0, BEA, "home"))
    for day in range(days):
        nights = pulse(BED, at(day, 22.5), 8 * 60) if BED in areas else []
        life = day_of_life(day, night if on_day in (None, day) else "")
        for transition in sorted([*life, *nights]):
            baselines.learn(transition)
        baselines.advance(at(day + 1, 6))
    return baselines


def analyse(
    baselines: HomeBaselines, now: datetime, today: list[Transition], areas: dict[str, str] = AREAS
) -> list[Finding]:
    """The combined detector's findings of the rule at ``now`` (a 2 h window)."""
    start = now - timedelta(hours=2)
    for transition in sorted(t for t in today if t.when <= now):
        baselines.learn(transition)
    shown = sorted(t for t in today if start <= t.when <= now)
    baselines.advance(now)
    latest = {t.entity_id: t.state for t in shown}
    held = {BED: "on"}  # in bed since before the window
    states = [
        entity(e, latest.get(e, held.get(e, "off")), area=areas[e], device_class=CLASSES[e])
        for e in areas
    ]
    states.append(entity(BEA, "home"))
    detector = CombinedDetector(baselines=lambda: baselines)
    window = build_window(states, environment(now, persons_home=1), shown, start=start)
    return [f for f in detector.findings(window) if f.rule == RULE]


def forced(day: int, hour: float) -> list[Transition]:
    """The door first, then the room behind it (the dog roused, or the man stepping in)."""
    return [
        Transition(at(day, hour), DOOR, "on"),
        *pulse(KITCHEN, at(day, hour) + timedelta(seconds=20)),
    ]


def test_a_door_forced_where_the_room_lives_at_night_is_told() -> None:
    baselines = lived(7)
    now = at(8, 2.75) + timedelta(seconds=30)
    (finding,) = analyse(baselines, now, forced(8, 2.75))
    assert finding.evidence[0] == DOOR
    assert KITCHEN in finding.evidence
    assert "nobody has come in by" in finding.reasoning
    assert "between 01:00 and 04:00" in finding.reasoning


def test_a_door_this_home_is_entered_by_at_night_is_not_news() -> None:
    """The lodger comes in by it at 02:30 on the nights learned: at 02:45 it is his."""
    assert not analyse(lived(7, "shift"), at(8, 2.77), forced(8, 2.75))


def test_the_households_own_night_use_is_its_hour_but_a_one_off_is_not() -> None:
    """Bea lets the dog out every night at 02:30, walking down the hall first: the door is
    the household's at that hour, and an opening at 03:15 is left alone. Let out on one
    night only (a one-off, as a son's outing), the hour is not the household's: told."""
    assert not analyse(lived(7, "dog out"), at(8, 3.27), forced(8, 3.25))
    assert analyse(lived(7, "dog out", on_day=2), at(8, 3.27), forced(8, 3.25))


def test_somebody_who_went_out_by_a_door_coming_back_is_no_entry() -> None:
    """Bea took the rubbish out at 02:10 (down the hall, out the door) and comes back in at
    02:45, first through the door: the one who went out, not a stranger."""
    out = [*pulse(HALL, at(8, 2.15), 1), *pulse(DOOR, at(8, 2.17), 0.5)]
    assert not analyse(lived(7), at(8, 2.77), [*out, *forced(8, 2.75)])


def test_too_few_nights_learned_says_nothing() -> None:
    assert not analyse(lived(3), at(4, 2.77), forced(4, 2.75))


def test_a_phone_coming_home_with_the_door_is_no_entry_learned() -> None:
    entries = OutsideEntries(UTC)
    entries.opened(DOOR, at(0, 2.5))  # nothing moving inside before it
    entries.presence(at(0, 2.6))  # Bea's phone home six minutes on: hers
    entries.opened(DOOR, at(1, 2.5))
    entries.advance(at(1, 3))
    entries.opened(DOOR, at(2, 14))  # by day: not kept
    entries.advance(at(2, 15))
    assert entries.nights_entered(DOOR, at(3, 2.5), {1, 2, 3}) == 1
    # The night being judged does not teach itself.
    assert entries.nights_entered(DOOR, at(1, 2.6), {1, 2, 3}) == 0


def test_the_entries_are_stored_and_damaged_ones_dropped() -> None:
    lonely = LonelyOpenings(UTC)
    lonely.opened(DOOR, at(0, 2.5))
    lonely.advance(at(0, 3))
    again = LonelyOpenings.from_dict(lonely.as_dict(), UTC)
    assert again.entries.nights_entered(DOOR, at(3, 2.5), {2}) == 1
    stored = lonely.as_dict()
    stored["entries"] = {DOOR: "x,1", "binary_sensor." + "x" * 300: "5"}
    assert not LonelyOpenings.from_dict(stored, UTC).entries.entries


def test_the_one_who_went_out_tonight_coming_back_is_no_entry() -> None:
    """Bea's son walks down the hall and out by the kitchen door at 00:50 (nothing moves
    inside after him) and comes back through it at 03:25: his return, not a stranger.
    The dog let out and in again at 00:50 is a trip: at 03:25 the door is news."""
    out = [*pulse(HALL, at(8, 0.82), 1), *pulse(DOOR, at(8, 0.84), 0.3)]
    assert not analyse(lived(7), at(8, 3.45), [*out, *forced(8, 3.42)])
    trip = [*out, *pulse(HALL, at(8, 0.9), 1), *pulse(DOOR, at(8, 0.92), 0.3)]
    assert analyse(lived(7), at(8, 3.45), [*trip, *forced(8, 3.42)])


def test_guests_leaving_after_a_sensor_held_on_all_evening_is_no_entry() -> None:
    """Friends over for the match: the kitchen's sensor held on from 21:00 until 00:44,
    then the door at 00:45 as the last of them goes: somebody was inside until then."""
    held = [Transition(at(7, 21), KITCHEN, "on"), Transition(at(8, 0.73), KITCHEN, "off")]
    assert not analyse(lived(7), at(8, 0.77), [*held, *forced(8, 0.75)])
    ended = [Transition(at(7, 21), KITCHEN, "on"), Transition(at(7, 22.5), KITCHEN, "off")]
    assert analyse(lived(7), at(8, 0.77), [*ended, *forced(8, 0.75)])


def test_a_door_with_nobody_seen_inside_after_it_is_no_entry() -> None:
    """The last guest lets herself out at 02:45: the door opens, nothing inside moves after
    it (nobody came in). The same door with the kitchen moving at once is told."""
    left = [Transition(at(8, 2.75), DOOR, "on"), Transition(at(8, 2.76), DOOR, "off")]
    assert not analyse(lived(7), at(8, 2.8), left)
    assert analyse(lived(7), at(8, 2.8), forced(8, 2.75))


def test_somebody_asleep_in_bed_as_the_door_is_forced_is_nobody_up_by_it() -> None:
    """Set 39: a shutter forced at 02:30 while the grandfather slept in his ground-floor
    room, his bed sensor on all night: a bed held on is somebody lying there, not somebody
    up by the door (``held_on.lain_on``). Got up minutes before (the bed left), it is."""
    baselines = lived(7, areas=WITH_BED)
    today = pulse(BED, at(7, 22.5), 8 * 60)[:1]
    (finding,) = analyse(baselines, at(8, 2.77), [*today, *forced(8, 2.75)], WITH_BED)
    assert finding.evidence[0] == DOOR
    up = [*today, Transition(at(8, 2.72), BED, "off")]
    assert not analyse(lived(7, areas=WITH_BED), at(8, 2.77), [*up, *forced(8, 2.75)], WITH_BED)
