"""Faults a homeowner expects told whatever was learned (core).

A lock that reports ``jammed``; a motorised cover that set out to close and stopped
part-way far longer than its moves take; a sensor with no band of its own (a glucose
monitor, a tank level) reading far beyond everything it ever read, on either side — a new
lowest is judged against the lowest learned before it, as a new highest always was.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.cover_part_way import (
    cover_stopped_part_way,
)
from custom_components.anomaly_monitor.core.baselines.far_beyond_range import (
    reading_far_beyond_its_range,
)
from custom_components.anomaly_monitor.core.baselines.ranges import NumericRanges
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.learning_gate import held_while_learning
from custom_components.anomaly_monitor.core.models import (
    EntityInfo,
    EntityState,
    Severity,
    Transition,
)
from custom_components.anomaly_monitor.core.rules import ALL_RULES
from custom_components.anomaly_monitor.core.rules.lock_jammed import LOCK_JAMMED, lock_jammed
from custom_components.anomaly_monitor.core.rules.supply_lost import supply_lost
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity, environment, home, window

DAY0 = datetime(2026, 4, 6, tzinfo=UTC)
MIN = timedelta(minutes=1)
SUGAR = "sensor.blood_sugar"
SUGAR_INFO = EntityInfo(SUGAR, "Blood Sugar", unit="mg/dL")
SHUTTER = "cover.shop_shutter"
SHUTTER_INFO = EntityInfo(SHUTTER, "Shop shutter", area="Shop", device_class="shutter")


def _lock(state: str, since: datetime) -> EntityState:
    lock = entity("lock.front_door", state, area="Hall")
    return EntityState(lock.info, state, last_changed=since)


def test_a_jammed_lock_is_told_and_more_urgently_while_away() -> None:
    since = datetime(2026, 11, 12, 14, 0, tzinfo=UTC)
    now = since + 10 * MIN
    away = list(lock_jammed(home([_lock("jammed", since)], environment(now, persons_home=0))))
    assert [f.rule for f in away] == ["lock_jammed"]
    assert away[0].evidence == ("lock.front_door",)
    assert away[0].severity == Severity.HIGH
    assert "nobody is home" in away[0].reasoning
    at_home = list(lock_jammed(home([_lock("jammed", since)], environment(now))))
    assert [f.severity for f in at_home] == [Severity.MEDIUM]
    assert away[0].recommendation.startswith("Nobody is home:")
    # Where somebody lives without a phone, only the phones are known away (walk 53).
    phoneless = build_window(
        [_lock("jammed", since)], environment(now, persons_home=0), [], phoneless_residents=1
    )
    (told,) = lock_jammed(HomeView(phoneless))
    assert "nobody is home" not in told.reasoning
    assert "every tracked phone is away" in told.reasoning
    assert told.recommendation.startswith("Every tracked phone is away, but somebody")
    assert told.severity == Severity.HIGH
    # A motor's retry that finished within a minute, and a locked lock: nothing.
    assert list(lock_jammed(home([_lock("jammed", now - MIN)], environment(now)))) == []
    assert list(lock_jammed(home([_lock("locked", since)], environment(now)))) == []
    assert lock_jammed in ALL_RULES


def test_a_new_lowest_settles_like_a_new_highest() -> None:
    """Before: the lowest was learned at once, so a reading was never below its range."""
    ranges = NumericRanges()
    ranges.reading(SUGAR, 120.0, DAY0)
    ranges.reading(SUGAR, 45.0, DAY0 + timedelta(hours=1))
    ranges.reading(SUGAR, 130.0, DAY0 + timedelta(hours=2))  # the hypo is over
    assert ranges.usual(SUGAR, DAY0 + timedelta(hours=2))[3] == 120.0
    assert ranges.usual(SUGAR, DAY0 + timedelta(hours=7))[3] == 120.0
    assert ranges.usual(SUGAR, DAY0 + timedelta(hours=8))[3] == 45.0
    assert ranges.usual(SUGAR)[3] == 45.0  # everything learned
    again = NumericRanges.from_dict(ranges.as_dict())
    assert again.as_dict() == ranges.as_dict()
    assert NumericRanges.from_dict({SUGAR: [3, 85.0, 1.0, 80.0, 90.0, 0.0, 90.0, 0.0]}).usual(
        SUGAR
    ) == (3, 85.0, 1.0, 80.0, 90.0)  # stored before: still read


def _sugar_days(days: int) -> HomeBaselines:
    """A reading every 10 minutes between 100 and 190 mg/dL (a day's meals)."""
    baselines = HomeBaselines(UTC)
    baselines.describe([SUGAR_INFO])
    for step in range(days * 144):
        when = DAY0 + 10 * step * MIN
        baselines.observe(when, SUGAR, f"{100 + (step * 7) % 91}")
    baselines.advance(DAY0 + timedelta(days=days))
    return baselines


def _sugar_view(readings: list[tuple[datetime, str]]) -> HomeView:
    transitions = [Transition(when, SUGAR, value) for when, value in readings]
    state = EntityState(SUGAR_INFO, readings[-1][1], last_changed=readings[-1][0])
    return HomeView(window([state], environment(readings[-1][0]), transitions))


def test_a_night_hypo_far_below_everything_read_is_told_promptly() -> None:
    baselines = _sugar_days(2)
    start = DAY0 + timedelta(days=2, hours=3, minutes=20)
    readings = [(start - 10 * MIN, "104"), (start, "69"), (start + 10 * MIN, "61")]
    for when, value in readings:
        baselines.observe(when, SUGAR, value)  # learned live before each analysis
    assert list(reading_far_beyond_its_range(_sugar_view(readings[:2]), baselines)) == []
    found = list(reading_far_beyond_its_range(_sugar_view(readings), baselines))
    assert [f.rule for f in found] == ["reading_far_beyond_its_range"]
    assert found[0].evidence == (SUGAR,)
    assert "reads 61 mg/dL, far below anything it read before" in found[0].reasoning
    assert found[0].magnitude == -39.0
    # Within its range, or a little under it (a margin of a quarter of its span): nothing.
    mild = [(start, "90"), (start + 10 * MIN, "88")]
    for when, value in mild:
        baselines.observe(when, SUGAR, value)
    assert list(reading_far_beyond_its_range(_sugar_view(mild), baselines)) == []


def test_too_little_learned_or_a_counter_is_not_judged() -> None:
    baselines = _sugar_days(1)
    start = DAY0 + timedelta(days=1, hours=3)
    readings = [(start, "40"), (start + 10 * MIN, "41")]
    assert list(reading_far_beyond_its_range(_sugar_view(readings), _sugar_days(1))) == []
    baselines = _sugar_days(3)
    transitions = [Transition(when, SUGAR, value) for when, value in readings]
    counter = EntityState(
        SUGAR_INFO, "41", {"state_class": "total_increasing"}, last_changed=readings[-1][0]
    )
    view = HomeView(window([counter], environment(readings[-1][0]), transitions))
    assert list(reading_far_beyond_its_range(view, baselines)) == []


def _shutter(state: str, position: int, since: datetime) -> EntityState:
    return EntityState(SHUTTER_INFO, state, {"current_position": position}, last_changed=since)


def _shutter_view(now: datetime, moves: list[tuple[datetime, str]], position: int) -> HomeView:
    transitions = [Transition(when, SHUTTER, state, "Shop") for when, state in moves]
    state = _shutter(moves[-1][1], position, moves[-1][0])
    return HomeView(window([state], environment(now), transitions))


def test_a_shutter_stopped_part_way_while_closing_is_told() -> None:
    baselines = HomeBaselines(UTC)
    baselines.describe([SHUTTER_INFO])
    stopped = DAY0 + timedelta(hours=22)
    moves = [(stopped - MIN, "closing"), (stopped, "open")]

    def found_at(after: timedelta, moves: list, position: int) -> list:
        return list(
            cover_stopped_part_way(_shutter_view(stopped + after, moves, position), baselines)
        )

    assert found_at(10 * MIN, moves, 45) == []
    found = found_at(30 * MIN, moves, 45)
    assert [f.rule for f in found] == ["cover_stopped_part_way"]
    assert found[0].evidence == (SHUTTER,)
    assert "was closing and stopped at 45 %" in found[0].reasoning
    # Opened to a shade position, or closed but reporting "open" at its end: not stuck.
    opened = [(stopped - MIN, "opening"), (stopped, "open")]
    assert found_at(120 * MIN, opened, 50) == []
    assert found_at(120 * MIN, moves, 100) == []


def test_an_excursion_still_going_on_does_not_teach_itself() -> None:
    """A grey tank filling all day past its usual top: before, its 93 % of noon was learned
    by 18:00 and its 100 % at night was no longer beyond its range."""
    tank = "sensor.grey_tank"
    ranges = NumericRanges()
    day = DAY0 + timedelta(days=3)
    ranges.reading(tank, 4.0, DAY0)
    ranges.reading(tank, 79.0, DAY0 + timedelta(days=1))
    ranges.reading(tank, 86.0, day + timedelta(hours=7))
    ranges.reading(tank, 93.0, day + timedelta(hours=11))
    ranges.reading(tank, 100.0, day + timedelta(hours=18))
    assert ranges.usual(tank, day + timedelta(hours=18))[4] == 79.0
    assert ranges.usual(tank, day + timedelta(hours=30))[4] == 79.0
    assert ranges.usual(tank, day + timedelta(hours=31))[4] == 100.0  # a day after it began
    # A level that stays beyond is learned a day after it began at most.
    for hour in range(8, 32):
        ranges.reading(
            "sensor.moved", 10.0 if hour == 8 else 20.0 + hour % 2, DAY0 + hour * 60 * MIN
        )
    assert ranges.usual("sensor.moved", DAY0 + timedelta(hours=31))[4] == 10.0
    assert ranges.usual("sensor.moved", DAY0 + timedelta(hours=33))[4] == 21.0
    again = NumericRanges.from_dict(ranges.as_dict())
    assert again.as_dict() == ranges.as_dict()


def _meters(now: datetime, drops: dict[str, float], switch_off: bool = False) -> HomeView:
    """Power meters drawing until each drops to 0 W ``drops[meter]`` minutes before ``now``."""
    start = now - timedelta(minutes=60)
    states, transitions = [], []
    for meter, ago in drops.items():
        volts = meter.endswith("voltage")
        info = EntityInfo(
            meter, meter, device_class="voltage" if volts else "power", unit="V" if volts else "W"
        )
        dropped = now - ago * MIN
        transitions += [
            Transition(start, meter, "121.0" if volts else "85.0"),
            Transition(dropped, meter, "0.0"),
        ]
        states.append(EntityState(info, "0.0", last_changed=dropped))
    if switch_off:
        plug = next(iter(drops)).removesuffix("_power").replace("sensor.", "switch.")
        transitions.append(Transition(now - next(iter(drops.values())) * MIN, plug, "off"))
        states.append(EntityState(EntityInfo(plug, plug), "off"))
    transitions.sort(key=lambda t: t.when)
    return HomeView(window(states, environment(now), transitions))


def test_many_meters_falling_to_nothing_at_once_is_the_supply_not_an_appliance() -> None:
    now = datetime(2027, 1, 21, 13, 0, tzinfo=UTC)
    together = {
        "sensor.fridge_power": 20,
        "sensor.freezer_power": 20.2,
        "sensor.router_power": 20.5,
    }
    found = list(supply_lost(_meters(now, together)))
    assert [f.rule for f in found] == ["supply_lost"]
    assert set(found[0].evidence) == set(together)
    assert found[0].severity == Severity.HIGH
    # One meter alone, meters that fell apart, or just now: an appliance, not the supply.
    assert list(supply_lost(_meters(now, {"sensor.fridge_power": 20}))) == []
    apart = {"sensor.fridge_power": 20, "sensor.freezer_power": 35, "sensor.router_power": 50}
    assert list(supply_lost(_meters(now, apart))) == []
    assert list(supply_lost(_meters(now, dict.fromkeys(together, 2)))) == []
    # A supply voltage gone with one meter says so.
    shore = {"sensor.pedestal_voltage": 30, "sensor.pedestal_power": 30}
    found = list(supply_lost(_meters(now, shore)))
    assert found[0].evidence == ("sensor.pedestal_voltage", "sensor.pedestal_power")
    # A plug switched off by a scene with the others: two left, not enough.
    assert list(supply_lost(_meters(now, together, switch_off=True))) == []
    assert supply_lost in ALL_RULES


def test_what_a_device_reports_of_itself_is_not_held_while_the_home_is_learned() -> None:
    """A lock that says it is jammed needs nothing of this home's normal: on the first day,
    with somebody home (medium), it is pushed, not held until the lock is learned (the
    lead's walk: held on a fresh install). A medium finding of the home's normal waits."""
    lock, hall = "lock.front_door", "binary_sensor.hall_motion"
    set_up = datetime(2026, 4, 6, 9, 0, tzinfo=UTC)
    baselines = HomeBaselines(UTC)
    baselines.describe(
        [
            EntityInfo(lock, "Front door", area="Hall"),
            EntityInfo(hall, "Hall motion", area="Hall", device_class="motion"),
        ]
    )
    baselines.watching([lock, hall], set_up)
    now = set_up + timedelta(hours=1)
    jammed = LOCK_JAMMED.finding(evidence=(lock,), reasoning="Front door reports it is jammed.")
    assert jammed.severity is Severity.MEDIUM
    assert not held_while_learning(jammed, baselines, now, someone_home=True)
    # The same finding from a rule that asks the home's normal (a lock unlocked longer
    # than usual) waits.
    learned_normal = replace(jammed, rule="state_longer_than_usual")
    assert held_while_learning(learned_normal, baselines, now, someone_home=True)
