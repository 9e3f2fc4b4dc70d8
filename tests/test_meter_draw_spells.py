"""A meter's runs joined across its thermostat's rests (core, no Home Assistant): a heater
cycling for hours is one long draw, a fridge's cycle is not joined. The ids say nothing of
what the meters power."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.draw_spells import spell_key
from custom_components.anomaly_monitor.core.baselines.meter_habits import (
    meter_drawing_at_unusual_hours,
)
from custom_components.anomaly_monitor.core.baselines.power import RUNNING
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityInfo

from .core_factories import environment, window
from .test_meter_habits import DAY0, HOB, PERSON, RELAY, fed, hob

# The plug's evening: on 25, rest 20, on 25, rest 25, on 55 (a radiator while he studies).
EVENING = ((0, "1480"), (25, "3"), (45, "1475"), (70, "3"), (95, "1490"), (150, "0"))
THURSDAY = DAY0 + timedelta(days=10)


def _radiator_evenings(baselines: HomeBaselines, day: datetime) -> None:
    start = day + timedelta(hours=18, minutes=30)
    for minutes, watts in EVENING:
        baselines.observe(start + timedelta(minutes=minutes), HOB, watts)


def _cycling_from(baselines: HomeBaselines, start: datetime, until: datetime) -> str:
    """On 40 min, rest 15, from ``start`` to ``until``; the reading at ``until``."""
    moment, reading = start, "1485"
    while moment <= until:
        baselines.observe(moment, HOB, "1485")
        reading = "1485"
        if moment + timedelta(minutes=40) <= until:
            baselines.observe(moment + timedelta(minutes=40), HOB, "3")
            reading = "3"
        moment += timedelta(minutes=55)
    return reading


def _day_of_cycling(empty_at: datetime | None, until: datetime) -> tuple[HomeBaselines, str]:
    start = THURSDAY + timedelta(hours=7, minutes=20)
    baselines = fed(10, each=_radiator_evenings, until=start - timedelta(minutes=5))
    if empty_at is not None:
        baselines.observe(empty_at, PERSON, "not_home")
    reading = _cycling_from(baselines, start, until)
    baselines.advance(until)
    return baselines, reading


def _last_start(until: datetime) -> datetime:
    start = THURSDAY + timedelta(hours=7, minutes=20)
    return start + timedelta(minutes=55 * ((until - start) // timedelta(minutes=55)))


def test_a_heater_cycling_all_day_in_an_empty_home_is_one_long_draw() -> None:
    """Ten evenings learned (its longest run 55 min, its evening 2 h 30 min of runs and
    rests). A Thursday it is left on at 07:20 and cycles 40 on, 15 off in the empty home
    (set 17's oil radiator in the boy's room). Before: each run ended at 40 min, shorter
    than its evening runs, and it was never told."""
    now = THURSDAY + timedelta(hours=10, minutes=5)
    baselines, reading = _day_of_cycling(THURSDAY + timedelta(hours=7, minutes=40), now)
    state = hob(reading, _last_start(now))
    empty = HomeView(window([state], environment(now, persons_home=0)))
    [finding] = meter_drawing_at_unusual_hours(empty, baselines)
    assert finding.evidence == (HOB,)
    assert "since 07:20" in finding.reasoning
    # Told while it runs, its draw is one of its runs, not the spell's (walk 41: "Iron plug
    # power has drawn 1,200 W since Fri 19:00 (9 h 41 min)" of an iron on its heel).
    assert "has drawn 1,485 W on and off since 07:20" in finding.reasoning
    # At 09:00 it has cycled 1 h 40 min, no longer than its evenings: not yet.
    early = THURSDAY + timedelta(hours=9)
    baselines, reading = _day_of_cycling(THURSDAY + timedelta(hours=7, minutes=40), early)
    state = hob(reading, _last_start(early))
    empty = HomeView(window([state], environment(early, persons_home=0)))
    assert list(meter_drawing_at_unusual_hours(empty, baselines)) == []


def test_resting_between_its_runs_the_draw_goes_on() -> None:
    """Told while it runs, still found while its thermostat rests (no end and a new
    notification at every rest); the rest longer than the run before ends it."""
    now = THURSDAY + timedelta(hours=10, minutes=55)  # on 10:05-10:45, resting since
    baselines, reading = _day_of_cycling(THURSDAY + timedelta(hours=7, minutes=40), now)
    assert reading == "3"
    resting = hob("3", now - timedelta(minutes=10))
    empty = HomeView(window([resting], environment(now, persons_home=0)))
    [finding] = meter_drawing_at_unusual_hours(empty, baselines)
    assert "power on and off" in finding.reasoning
    # A rest is judged as the spell stood when it began: at 10:00 (resting since 09:50,
    # 2 h 30 min of runs, no longer than its evenings) nothing is made (a washer done).
    ten = THURSDAY + timedelta(hours=10)
    before, reading = _day_of_cycling(THURSDAY + timedelta(hours=7, minutes=40), ten)
    assert reading == "3"
    still = HomeView(
        window([hob("3", ten - timedelta(minutes=10))], environment(ten, persons_home=0))
    )
    assert list(meter_drawing_at_unusual_hours(still, before)) == []
    later = now + timedelta(minutes=45)  # off at the wall: no run came in 55 min
    baselines.observe(now + timedelta(minutes=5), HOB, "0")
    baselines.advance(later)
    switched_off = hob("0", now + timedelta(minutes=5))
    off = HomeView(window([switched_off], environment(later, persons_home=0)))
    assert list(meter_drawing_at_unusual_hours(off, baselines)) == []


def test_its_usual_evening_and_someone_awake_at_home_are_not_told_early() -> None:
    """Its evening cycling is its usual (learned as spells of 2 h 30 min); cycling by day
    with someone home and up is watched for ``LONG_HOLD`` (3 h) first."""
    evening = THURSDAY + timedelta(hours=18, minutes=30)
    baselines = fed(10, each=_radiator_evenings, until=evening)
    for minutes, watts in EVENING[:5]:
        baselines.observe(evening + timedelta(minutes=minutes), HOB, watts)
    now = evening + timedelta(minutes=140)
    baselines.advance(now)
    state = hob("1490", evening + timedelta(minutes=95))
    empty = HomeView(window([state], environment(now, persons_home=0)))
    assert list(meter_drawing_at_unusual_hours(empty, baselines)) == []
    before = THURSDAY + timedelta(hours=10, minutes=10)  # 2 h 50 min, longer than its evenings
    baselines, reading = _day_of_cycling(None, before)
    state = hob(reading, _last_start(before))
    home = HomeView(window([state], environment(before, persons_home=1)))
    assert list(meter_drawing_at_unusual_hours(home, baselines)) == []
    late = THURSDAY + timedelta(hours=10, minutes=25)
    baselines, reading = _day_of_cycling(None, late)
    home = HomeView(window([hob(reading, _last_start(late))], environment(late, persons_home=1)))
    [finding] = meter_drawing_at_unusual_hours(home, baselines)
    assert "since 07:20" in finding.reasoning


def _fridge(baselines: HomeBaselines, day: datetime) -> None:
    """Runs 20 min, rests 40, around the clock."""
    for slot in range(24):
        start = day + timedelta(hours=slot)
        baselines.observe(start, RELAY, "90")
        baselines.observe(start + timedelta(minutes=20), RELAY, "1")


def test_a_fridge_rests_longer_than_it_runs_its_runs_are_its_spells() -> None:
    baselines = fed(3, each=_fridge)
    runs, longest_run = baselines.durations.whole_record(RELAY, RUNNING)
    spells, longest = baselines.durations.whole_record(spell_key(RELAY), RUNNING)
    assert spells == runs - 1  # the spell under way is not yet over
    assert longest == longest_run == 20
    evenings = fed(3, each=_radiator_evenings)
    assert evenings.durations.whole_record(spell_key(HOB), RUNNING) == (2, 150)


def _washer_mornings(baselines: HomeBaselines, day: datetime) -> None:
    """One load a morning: 10:00-11:15."""
    baselines.observe(day + timedelta(hours=10), HOB, "2000")
    baselines.observe(day + timedelta(hours=10, minutes=15), HOB, "300")
    baselines.observe(day + timedelta(hours=11, minutes=15), HOB, "0.5")


def test_two_loads_back_to_back_are_two_runs_not_a_long_draw() -> None:
    """A washer run twice in a row at night, the home empty (set 17 a's washer told at
    23:40 with the runs joined): a thermostat repeats, two loads are judged each as a run."""
    night = THURSDAY + timedelta(hours=21)
    baselines = fed(10, each=_washer_mornings, until=night - timedelta(minutes=5))
    for minutes, watts in ((0, "2000"), (15, "300"), (75, "0.5"), (90, "2000"), (105, "300")):
        baselines.observe(night + timedelta(minutes=minutes), HOB, watts)
    now = night + timedelta(minutes=160)
    baselines.advance(now)
    second = hob("300", night + timedelta(minutes=105))
    empty = HomeView(window([second], environment(now, persons_home=0)))
    assert list(meter_drawing_at_unusual_hours(empty, baselines)) == []


def _ironing_wednesdays(baselines: HomeBaselines, day: datetime) -> None:
    """An iron's hour on Wednesdays at 18:30: the sole heats 1.5 min every 5 min."""
    if day.weekday() != 2:
        return
    start = day + timedelta(hours=18, minutes=30)
    for burst in range(12):
        baselines.observe(start + timedelta(minutes=5 * burst), HOB, "1150")
        baselines.observe(start + timedelta(minutes=5 * burst + 1.5), HOB, "0")


def _held_from(baselines: HomeBaselines, start: datetime, until: datetime, draw: str) -> str:
    """The element holds its temperature: on 1.5 min every 12 from ``start``."""
    moment, reading = start, draw
    while moment <= until:
        baselines.observe(moment, HOB, draw)
        reading = draw
        if moment + timedelta(minutes=1.5) <= until:
            baselines.observe(moment + timedelta(minutes=1.5), HOB, "0")
            reading = "0"
        moment += timedelta(minutes=12)
    return reading


def test_an_element_holding_its_temperature_is_one_draw_though_it_rests_longer() -> None:
    """An iron left standing on its heel on a Saturday evening heats 1.5 min in 12 all night
    in the empty flat (set 34 Sevilla's plancha, on a plug under its maker's id). Each rest
    is longer than the run before: before, every burst was a run of its own, 1.5 min, and
    nothing was ever told. Its restarts draw what the runs before drew: one spell."""
    saturday = DAY0 + timedelta(days=12)
    start = saturday + timedelta(hours=20, minutes=40)
    baselines = fed(12, each=_ironing_wednesdays, until=start - timedelta(minutes=5))
    baselines.observe(start + timedelta(minutes=20), PERSON, "not_home")
    now = start + timedelta(hours=2, minutes=25)
    reading = _held_from(baselines, start, now, "1150")
    baselines.advance(now)
    spells, longest = baselines.durations.whole_record(spell_key(HOB), RUNNING)
    assert spells >= 1  # each Wednesday's hour is one spell, its last burst ending at 56.5 min
    assert longest == 56.5
    last = start + timedelta(minutes=12 * ((now - start) // timedelta(minutes=12)))
    empty = HomeView(window([hob(reading, last)], environment(now, persons_home=0)))
    [finding] = meter_drawing_at_unusual_hours(empty, baselines)
    assert "since 20:40" in finding.reasoning


def test_a_restart_at_another_draw_after_a_long_rest_is_another_use() -> None:
    """A kettle boiled at 2000 W, then 40 min later a toaster oven at 1300 W on the same plug, then
    the kettle again: no element restarting at its own draw, so every run is its own."""
    baselines = HomeBaselines(UTC)
    baselines.describe([EntityInfo(HOB, "", area="Kitchen", device_class="power", unit="W")])
    moment = DAY0 + timedelta(hours=7)
    for draw in ("2000", "1300", "2000", "1300"):
        baselines.observe(moment, HOB, draw)
        baselines.observe(moment + timedelta(minutes=3), HOB, "0")
        moment += timedelta(minutes=40)
    baselines.advance(moment)
    # Three ended (the last is under way), each a run of 3 min.
    assert baselines.durations.whole_record(spell_key(HOB), RUNNING) == (3, 3)
