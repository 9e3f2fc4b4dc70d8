"""What usually follows what, learned home-wide (core, no Home Assistant): a well pump's
meter starting and the roof tank's level rising, found from co-occurrence across areas,
and the break told when the level does not rise (``usual_effect_missing``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
import json

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.follow_up_missing import (
    usual_effect_missing,
)
from custom_components.anomaly_monitor.core.baselines.follow_ups import FollowUps
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityInfo, EntityState

from .core_factories import entity, environment, window

DAY0 = datetime(2026, 2, 2, tzinfo=UTC)
# Plain names: the pair is found from what follows what, never from words.
PUMP, TANK = "sensor.sonoff_1_power", "sensor.ultrasonic_2"
ROOM = "sensor.lounge_temperature"  # warms after the 06:40 run, and at 18:00 on its own
INFOS = [
    EntityInfo(PUMP, "", area="Yard", device_class="power", unit="W"),
    EntityInfo(TANK, "", area="Attic", unit="%"),
    EntityInfo(ROOM, "", area="Lounge", device_class="temperature", unit="°C"),
]
RUNS = (6 + 40 / 60, 14.5)  # the float switch calls the pump twice a day


def at(day: int, hours: float, seconds: float = 0.0) -> datetime:
    return DAY0 + timedelta(days=day, hours=hours, seconds=seconds)


def habits(days: int) -> HomeBaselines:
    """``days`` days: each run, the level reads 63 just before the pump starts, the pump
    draws for 17 min and the level reads 97 12 s after it stops; the lounge warms after
    the morning run (the heating's timer) and again at 18:00 (the stove), cools at night."""
    baselines = HomeBaselines(UTC)
    baselines.describe(INFOS)
    for day in range(days):
        baselines.observe(at(day, 0), PUMP, "0.0")
        baselines.observe(at(day, 0), ROOM, "18.0")
        for start in RUNS:
            baselines.observe(at(day, start, -6), TANK, "63")
            baselines.observe(at(day, start), PUMP, "760.0")
            baselines.observe(at(day, start, 1020), PUMP, "0.0")
            baselines.observe(at(day, start, 1032), TANK, "97")
        baselines.observe(at(day, 7), ROOM, "19.5")
        baselines.observe(at(day, 12), ROOM, "18.2")
        baselines.observe(at(day, 18), ROOM, "20.0")
        baselines.observe(at(day, 23), ROOM, "18.0")
        baselines.advance(at(day + 1, 0))
    return baselines


def stall(baselines: HomeBaselines, day: int) -> None:
    """The pump's capacitor fails: it hums for 2 min and cuts out; the level keeps falling."""
    baselines.observe(at(day, 0), PUMP, "0.0")
    baselines.observe(at(day, RUNS[0]), PUMP, "1430.0")
    baselines.observe(at(day, RUNS[0]), TANK, "71")
    baselines.observe(at(day, RUNS[0], 120), PUMP, "0.0")


def view(now: datetime, pump: str, tank: str) -> HomeView:
    states: list[EntityState] = [
        entity(PUMP, pump, area="Yard", device_class="power", unit="W"),
        entity(TANK, tank, area="Attic", unit="%"),
    ]
    return HomeView(window(states, environment(now)))


def test_what_follows_a_meter_is_learned_across_areas_and_the_coincidence_is_not() -> None:
    follow = habits(12).follow_ups
    pair = follow.pairs[(PUMP, TANK)]
    assert (pair.onsets, pair.ups, pair.ups_alone) == (24, 24, 0)
    assert pair.delay_up == 1032.0
    assert pair.direction(10, 0.9) == 1
    # The lounge warmed after every morning run, but as often with no run at all.
    lounge = follow.pairs.get((PUMP, ROOM))
    assert lounge is None or lounge.direction(10, 0.9) == 0


def test_a_pump_whose_tank_does_not_rise_is_told_past_three_times_its_delay() -> None:
    baselines = habits(12)
    stall(baselines, 12)
    # 3 x 17 min 12 s = 51.6 min: at 40 min it is not yet told.
    assert list(usual_effect_missing(view(at(12, RUNS[0], 2400), "0.0", "71"), baselines)) == []
    baselines.advance(at(12, RUNS[0], 3600))
    (finding,) = usual_effect_missing(view(at(12, RUNS[0], 3600), "0.0", "71"), baselines)
    assert finding.rule == "usual_effect_missing"
    assert finding.evidence == (PUMP, TANK)
    assert "began drawing power at 06:40 (1 h 00 min ago)" in finding.reasoning
    assert "has not risen since (97 then, 71 % now)" in finding.reasoning
    assert "within 17 min of that (24 of 24 times learned)" in finding.reasoning
    # Past its reach the onset is counted as a miss once, and still told.
    baselines.advance(at(12, RUNS[0], 2 * 3600))
    assert [f.rule for f in usual_effect_missing(view(at(12, 9), "0.0", "56"), baselines)] == [
        "usual_effect_missing"
    ]
    # It stalls again and again: one break, counted once, the pair still trusted.
    baselines.observe(at(12, 10), PUMP, "1420.0")
    baselines.observe(at(12, 10, 120), PUMP, "0.0")
    baselines.advance(at(12, 12))
    pair = baselines.follow_ups.pairs[(PUMP, TANK)]
    assert (pair.onsets, pair.ups) == (25, 24)
    assert list(usual_effect_missing(view(at(12, 12), "0.0", "39"), baselines))
    # The pump is repaired: the tank fills, the break is over.
    baselines.observe(at(12, 13), PUMP, "760.0")
    baselines.observe(at(12, 13, 1032), TANK, "96")
    assert list(usual_effect_missing(view(at(12, 13, 1100), "0.0", "96"), baselines)) == []


def test_nothing_is_told_before_the_pair_is_learned_nor_from_a_full_tank() -> None:
    baselines = habits(4)  # 8 runs: not yet an expectation (10 wanted)
    stall(baselines, 4)
    baselines.advance(at(4, 9))
    assert list(usual_effect_missing(view(at(4, 9), "0.0", "71"), baselines)) == []
    # Learned, but the tank is full: it never rose from this high, it cannot now.
    baselines = habits(12)
    baselines.observe(at(12, 5), TANK, "100")
    baselines.observe(at(12, RUNS[0]), PUMP, "760.0")
    baselines.observe(at(12, RUNS[0], 60), PUMP, "0.0")
    baselines.advance(at(12, 9))
    assert list(usual_effect_missing(view(at(12, 9), "0.0", "100"), baselines)) == []


def test_the_stored_form_is_small_and_keeps_the_pair_and_its_break() -> None:
    baselines = habits(12)
    stall(baselines, 12)
    baselines.advance(at(12, 9))
    stored = baselines.follow_ups.as_dict()
    assert len(json.dumps(stored)) < 600
    again = HomeBaselines.from_dict(json.loads(json.dumps(baselines.as_dict())), UTC)
    assert again.follow_ups.pairs[(PUMP, TANK)] == baselines.follow_ups.pairs[(PUMP, TANK)]
    assert again.follow_ups.broken == baselines.follow_ups.broken
    assert [f.evidence for f in usual_effect_missing(view(at(12, 9), "0.0", "56"), again)] == [
        (PUMP, TANK)
    ]
    # Garbage is dropped, never raised.
    for junk in (None, [], {"version": 1, "pairs": [["a", "b", -1, 0, 0, 0, 0, 0, 0, 0, 0]]}):
        assert FollowUps.from_dict(junk).pairs == {}


def test_a_compressor_cycling_within_the_reach_learns_nothing_from_its_cut_short_onsets() -> None:
    """A freezer starting every hour (within the 90 min an onset is followed): its onsets
    are cut short by the next one. Counting only those after which something moved, the
    lounge that warms after one in four would read as "always follows"."""
    freezer = "sensor.plug_7_power"
    baselines = HomeBaselines(UTC)
    baselines.describe(
        [*INFOS, EntityInfo(freezer, "", area="Garage", device_class="power", unit="W")]
    )
    level = 18.0
    for hour in range(14 * 24):
        start = DAY0 + timedelta(hours=hour)
        baselines.observe(start, freezer, "80.0")
        baselines.observe(start + timedelta(minutes=20), freezer, "0.0")
        level = level + 0.6 if hour % 4 == 0 else 18.0
        baselines.observe(start + timedelta(minutes=40), ROOM, f"{level:.1f}")
        baselines.advance(start + timedelta(hours=1))
    lounge = baselines.follow_ups.pairs.get((freezer, ROOM))
    assert lounge is None or lounge.direction(5, 0.9) == 0


RAD = "sensor.tapo_p100_3_current_consumption"
AIR = "sensor.zigbee_9_temperature"


def _thermostat_days(days: int) -> HomeBaselines:
    """A radiator on its own thermostat, six times a day: the room reads 19.8 °C 2 min after
    it starts (the cold that started it, read late), 20.9 °C after it stops. Learned: the
    room "falls" after the radiator starts."""
    baselines = HomeBaselines(UTC)
    baselines.describe(
        [
            EntityInfo(RAD, "", area="Ben room", device_class="power", unit="W"),
            EntityInfo(AIR, "", area="Ben room", device_class="temperature", unit="°C"),
        ]
    )
    for cycle in range(days * 6):
        start = DAY0 + timedelta(hours=4 * cycle)
        baselines.observe(start, RAD, "0.0")
        baselines.observe(start + timedelta(minutes=5), AIR, "20.9")
        baselines.observe(start + timedelta(minutes=70), RAD, "650.0")
        baselines.observe(start + timedelta(minutes=72), AIR, "19.8")
        baselines.advance(start + timedelta(hours=4))
    return baselines


def _room(now: datetime, rad: str, air: str) -> HomeView:
    states: list[EntityState] = [
        entity(RAD, rad, area="Ben room", device_class="power", unit="W"),
        entity(AIR, air, area="Ben room", device_class="temperature", unit="°C"),
    ]
    return HomeView(window(states, environment(now)))


def test_an_effect_begun_past_anything_the_cause_moved_it_to_is_not_missing() -> None:
    """Set 29: the radiator unplugged all night, the room down to 13.3 °C; plugged back in,
    it warms the room to 20.4 °C. The learned "fall" (never under 19.8 °C after a start)
    cannot come from 13.3: not told (before: "has not fallen since (13.3 then, 20.4 now)").
    Begun at 20.9 °C, the same start with no fall is told."""
    baselines = _thermostat_days(8)
    night = DAY0 + timedelta(days=8)
    assert baselines.follow_ups.pairs[(RAD, AIR)].direction(10, 0.9) == -1
    baselines.observe(night, RAD, "0.0")
    baselines.observe(night + timedelta(hours=9), AIR, "13.3")
    plugged = night + timedelta(hours=9, minutes=40)
    baselines.observe(plugged, RAD, "660.0")
    baselines.observe(plugged + timedelta(minutes=40), AIR, "20.4")
    now = plugged + timedelta(minutes=78)
    baselines.advance(now)
    assert list(usual_effect_missing(_room(now, "660.0", "20.4"), baselines)) == []
    baselines = _thermostat_days(8)
    baselines.observe(night, RAD, "0.0")
    baselines.observe(night + timedelta(hours=9), AIR, "20.9")
    baselines.observe(plugged, RAD, "660.0")
    baselines.advance(now)
    [finding] = usual_effect_missing(_room(now, "660.0", "20.9"), baselines)
    assert "has not fallen since (20.9 then, 20.9 °C now)" in finding.reasoning
