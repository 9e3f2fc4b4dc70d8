"""Arrivals from outside, learned whoever is home (``day_arrivals``).

Set 47: a lodger who does his laundry in the basement on Wednesdays and Saturdays at
about 11:00, through the side door, with the family home; the one Saturday the family is
away he was told as an entry into an empty home "never used at 10:40". The away rules
learned the entries of an empty home only. A door opened with nothing moving in its room
before it, no phone coming or going, and somebody moving inside after it is somebody
coming in, whoever is home then; on two days of the same kind it is a way in at that time.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.day_arrivals import DayArrivals
from custom_components.anomaly_monitor.core.models import EntityInfo, Transition

DOOR = "binary_sensor.side_door"
KITCHEN = "binary_sensor.kitchen_motion"
BASEMENT = "binary_sensor.basement_motion"
KASIA = "person.kasia"
AREAS = {DOOR: "Kitchen", KITCHEN: "Kitchen", BASEMENT: "Basement"}
CLASSES = {DOOR: "door", KITCHEN: "motion", BASEMENT: "motion"}
DAY0 = datetime(2027, 2, 1, tzinfo=UTC)  # a Monday


def at(day: int, hour: float) -> datetime:
    return DAY0 + timedelta(days=day, hours=hour)


def pulse(sensor: str, when: datetime, minutes: float = 1) -> list[Transition]:
    return [
        Transition(when, sensor, "on"),
        Transition(when + timedelta(minutes=minutes), sensor, "off"),
    ]


def lodger(day: int, hour: float) -> list[Transition]:
    """The side door from outside, then the basement a minute later."""
    return [
        *pulse(DOOR, at(day, hour), 0.3),
        *pulse(BASEMENT, at(day, hour) + timedelta(minutes=1)),
    ]


def household(day: int, hour: float) -> list[Transition]:
    """Somebody in the kitchen walks to the side door and steps out."""
    return [*pulse(KITCHEN, at(day, hour) - timedelta(minutes=1)), *pulse(DOOR, at(day, hour), 0.3)]


def learned(events: list[Transition], days: int) -> HomeBaselines:
    """Kasia home all along (her phone never changes); ``events`` over ``days`` days."""
    baselines = HomeBaselines(UTC)
    infos = [EntityInfo(e, e, area=AREAS[e], device_class=CLASSES[e]) for e in AREAS]
    baselines.describe([*infos, EntityInfo(KASIA, "Kasia")])
    baselines.watching([*AREAS, KASIA], DAY0 - timedelta(days=7))
    baselines.learn(Transition(DAY0, KASIA, "home"))
    for transition in sorted(events):
        baselines.learn(transition)
    baselines.advance(at(days, 0))
    return baselines


def test_a_lodger_coming_in_on_two_wednesdays_with_somebody_home_is_learned() -> None:
    # Wednesdays 2 and 9 at 11:00 and 11:20: an entry at 10:40 on Friday 11 fits both.
    baselines = learned([*lodger(2, 11.0), *lodger(9, 11.33)], 11)
    arrivals = baselines.lonely.arrivals
    assert arrivals.arrival_days(DOOR, at(11, 10.67)) == 2
    assert arrivals.arrival_days(DOOR, at(11, 14.67)) is None  # not at 14:40
    # Two weekdays make no habit of a Saturday; a third day of any kind does.
    assert arrivals.arrival_days(DOOR, at(12, 10.67)) is None
    again = learned([*lodger(2, 11.0), *lodger(5, 11.1), *lodger(9, 11.33)], 12)
    assert again.lonely.arrivals.arrival_days(DOOR, at(12, 10.67)) == 3


def test_one_day_is_no_habit() -> None:
    baselines = learned(lodger(2, 11.0), 5)
    assert baselines.lonely.arrivals.arrival_days(DOOR, at(5, 11.0)) is None


def test_the_household_walking_to_the_door_is_no_arrival() -> None:
    # The same door at the same hours, opened by somebody who moved in the kitchen first.
    events = [*household(2, 11.0), *household(3, 11.0), *household(4, 11.0)]
    events += [t for d in (2, 3, 4) for t in pulse(BASEMENT, at(d, 11.02))]
    baselines = learned(events, 6)
    assert baselines.lonely.arrivals.arrival_days(DOOR, at(6, 11.0)) is None


def test_an_opening_nothing_follows_is_no_arrival() -> None:
    # Opened from outside on three days but nobody moved inside after it (a parcel, a
    # neighbour calling through the door): nobody came in.
    events = [t for d in (2, 3, 4) for t in pulse(DOOR, at(d, 11.0), 0.3)]
    baselines = learned(events, 6)
    assert baselines.lonely.arrivals.arrival_days(DOOR, at(6, 11.0)) is None


def test_a_tracked_arrival_is_theirs() -> None:
    # Kasia's phone comes home with the door on three days: her, not somebody untracked.
    events: list[Transition] = []
    for d in (2, 3, 4):
        events += [Transition(at(d, 10.9), KASIA, "not_home"), *lodger(d, 11.0)]
        events.append(Transition(at(d, 11.05), KASIA, "home"))
    baselines = learned(events, 6)
    assert baselines.lonely.arrivals.arrival_days(DOOR, at(6, 11.0)) is None


def test_stored_and_read_back_damaged_doors_dropped() -> None:
    arrivals = DayArrivals(UTC)
    arrivals.arrivals[DOOR] = [1.0, 2.0]
    data = arrivals.as_dict()
    data[123] = "1,2"  # type: ignore[index]
    data["binary_sensor.x"] = "garbage"
    back = DayArrivals.from_dict(data, UTC)
    assert back.arrivals == {DOOR: [1.0, 2.0]}
    assert DayArrivals.from_dict("nonsense", UTC).arrivals == {}


def test_the_son_back_from_school_is_no_entry_the_day_the_phones_are_away() -> None:
    """Alice is home on Tuesday and Wednesday when somebody without a tracker comes in by
    the back door at 13:50; on Thursday she is out from 08:00 to 17:00. The same arrival is
    not told; the back door opened at 10:30 that day still is."""
    from .test_away_normal import BACK as BACK_DOOR, at as day_at, lived
    from .test_untracked_entries import door_used, entries_told, out_all_day

    def life(day: int) -> list[Transition]:
        if day in (1, 2):
            return door_used(day, 13.83)  # Alice home: only the son's arrival
        return out_all_day(day) if day % 7 < 5 else []

    thursday = 3
    baselines = lived(thursday, life)
    assert baselines.lonely.arrivals.arrival_days(BACK_DOOR, day_at(thursday, 13.75)) == 2
    arrival = sorted(out_all_day(thursday) + door_used(thursday, 13.75))
    assert entries_told(baselines, thursday, 13.75, arrival) == []
    stranger = sorted(out_all_day(thursday) + door_used(thursday, 10.5))
    assert entries_told(lived(thursday, life), thursday, 10.5, stranger)


def test_the_back_door_left_standing_open_at_that_hour_is_no_arrival() -> None:
    """The same hour as the son's arrival, but the back door is forced and left standing
    open, the house empty: not his arrival once it has stood open past an arrival's
    minutes (set 28: a Carnival Tuesday break-in told 28 min later as a door left open)."""
    from .test_away_normal import BACK as BACK_DOOR, analyse, at as day_at, lived
    from .test_untracked_entries import ENTRY_RULE, door_used, not_held, out_all_day

    def life(day: int) -> list[Transition]:
        if day in (1, 2):
            return door_used(day, 13.83)
        return out_all_day(day) if day % 7 < 5 else []

    thursday = 3
    forced = [
        t for t in door_used(thursday, 13.75) if not (t.entity_id == BACK_DOOR and t.state == "off")
    ]
    today = sorted(out_all_day(thursday) + forced)

    def told(minutes: float) -> list:
        baselines = lived(thursday, life)
        now = day_at(thursday, 13.75) + timedelta(minutes=minutes)
        findings = analyse(baselines, now, [t for t in today if t.when <= now])
        kept = not_held(findings, baselines, now, someone_home=False)
        return [f for f in kept if f.rule in ENTRY_RULE]

    assert told(0.2) == []  # the first seconds: the son's arrival as on other days
    assert told(10)  # standing open 10 min: no arrival of his
