"""Readings that never move or never stop (core, no Home Assistant): a roof tank's level
that moved every day and holds one value for two days (a frosted gauge), and a load that
drew on every reading seen now at rest (a heat cable failed, a concentrator switched
off). The ids and names say nothing of what the sensors measure."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.frozen_readings import (
    reading_frozen_far_longer_than_ever,
)
from custom_components.anomaly_monitor.core.baselines.reading_holds import ReadingHolds
from custom_components.anomaly_monitor.core.baselines.steady_load_stopped import (
    steady_load_stopped,
)
from custom_components.anomaly_monitor.core.models import EntityInfo, EntityState, Finding

from .core_factories import entity
from .test_baselines_long_stays import since, view

DAY0 = datetime(2026, 3, 2, tzinfo=UTC)
LEVEL = "sensor.node_4a_level"
PUMP = "sensor.node_4b_power"
PERSON = "person.resident"
# The pump fills the tank at 07:00; the household draws it at 12, 16 and 21 h and in
# the night (minutes after midnight, value); the longest hold is the night's, 01:00-07:00.
DAY = ((420, "78"), (428, "88"), (436, "96"), (720, "84"), (960, "77"))
NIGHT = ((1260, "74"), (1500, "71"))  # 21:00 and 01:00 (the next day)


def _pump(baselines: HomeBaselines, day: datetime) -> None:
    baselines.observe(day + timedelta(hours=7), PUMP, "740")
    baselines.observe(day + timedelta(hours=7, minutes=25), PUMP, "0")


def _tank_days(days: int, *, away: range = range(0)) -> HomeBaselines:
    """``days`` days of fills and draws; away (nothing drawn) on the days in ``away``."""
    baselines = HomeBaselines(UTC)
    baselines.describe(
        [
            EntityInfo(LEVEL, "Roof level", area="Roof", unit="%"),
            EntityInfo(PUMP, "Pump", area="Yard", device_class="power", unit="W"),
        ]
    )
    baselines.observe(DAY0, PERSON, "home")
    baselines.observe(DAY0 + timedelta(hours=1), LEVEL, "71")
    baselines.observe(DAY0, PUMP, "0")
    for number in range(days):
        day = DAY0 + timedelta(days=number)
        if number in away:
            if number - 1 not in away:
                baselines.observe(day, PERSON, "not_home")
            baselines.advance(day + timedelta(hours=12))
            continue
        if number - 1 in away:
            baselines.observe(day, PERSON, "home")
        _pump(baselines, day)
        for minutes, value in (*DAY, *NIGHT):
            baselines.observe(day + timedelta(minutes=minutes), LEVEL, value)
        baselines.advance(day + timedelta(hours=23))
    return baselines


def _judged(now: datetime, state: EntityState, baselines: HomeBaselines) -> list[Finding]:
    return list(reading_frozen_far_longer_than_ever(view(now, state), baselines))


def _level(state: str, changed: datetime) -> EntityState:
    return since(entity(LEVEL, state, area="Roof", unit="%"), changed)


def _frozen_day(*, pump: bool) -> tuple[HomeBaselines, datetime]:
    """Six days learned; frosted at 09:00 on day 6 at 64 %, a radio drop overnight (back
    with the same value: no change); the pump runs at 07:00 on day 7 (or not)."""
    baselines = _tank_days(6)
    day = DAY0 + timedelta(days=6)
    _pump(baselines, day)
    for minutes, value in DAY[:3]:
        baselines.observe(day + timedelta(minutes=minutes), LEVEL, value)
    baselines.observe(day + timedelta(hours=9), LEVEL, "64")
    baselines.advance(day + timedelta(hours=20))
    baselines.observe(day + timedelta(hours=22), LEVEL, "unavailable")
    baselines.observe(day + timedelta(hours=22, minutes=10), LEVEL, "64")
    next_day = day + timedelta(days=1)
    if pump:
        _pump(baselines, next_day)
    return baselines, next_day


def test_a_level_that_moved_every_day_and_holds_one_value_far_longer_is_told() -> None:
    """The longest hold was the night's 6 h. With no pump run since it froze: 4 × (24 h),
    so at 08:45 on day 7 (23 h 45) not yet, at 09:15 told. Once the pump that always
    moved it has run (07:00) and the level did not move, 2 × is enough: at 08:00 the run
    is too recent to judge (``REACH``), at 08:45 told, the run cited."""
    stuck = _level("64", DAY0 + timedelta(days=6, hours=22, minutes=10))
    baselines, day = _frozen_day(pump=False)
    baselines.advance(day + timedelta(hours=8, minutes=45))
    assert _judged(day + timedelta(hours=8, minutes=45), stuck, baselines) == []
    baselines.advance(day + timedelta(hours=9, minutes=15))
    [finding] = _judged(day + timedelta(hours=9, minutes=15), stuck, baselines)
    assert finding.rule == "reading_frozen_far_longer_than_ever"
    assert finding.evidence == (LEVEL,)
    assert "read 64 % without a change since Sun 09:00" in finding.reasoning
    assert "never held one value longer than 6 h 00 min" in finding.reasoning
    assert "ran at" not in finding.reasoning
    baselines, day = _frozen_day(pump=True)
    baselines.advance(day + timedelta(hours=8))
    assert _judged(day + timedelta(hours=8), stuck, baselines) == []
    baselines.advance(day + timedelta(hours=8, minutes=45))
    [finding] = _judged(day + timedelta(hours=8, minutes=45), stuck, baselines)
    assert "Pump ran at 07:00 and it did not move" in finding.reasoning


def test_its_usual_days_a_cold_start_and_an_outage_are_silent() -> None:
    """The level's own night; three days learned only (too little); a sensor unavailable
    for hours that comes back with its old value holds anew."""
    baselines = _tank_days(6)
    day = DAY0 + timedelta(days=6)
    baselines.advance(day + timedelta(hours=6))
    night = _level("71", day + timedelta(hours=1))
    assert _judged(day + timedelta(hours=6), night, baselines) == []
    young = _tank_days(2)
    day = DAY0 + timedelta(days=2)
    young.observe(day + timedelta(hours=9), LEVEL, "64")
    young.advance(day + timedelta(days=2))
    stuck = _level("64", day + timedelta(hours=9))
    assert _judged(day + timedelta(days=2), stuck, young) == []
    dropped = _tank_days(6)
    day = DAY0 + timedelta(days=6)
    dropped.observe(day + timedelta(hours=9), LEVEL, "64")
    dropped.observe(day + timedelta(hours=20), LEVEL, "unavailable")
    dropped.observe(day + timedelta(hours=30), LEVEL, "64")  # ten hours later
    dropped.advance(day + timedelta(hours=34))
    back = _level("64", day + timedelta(hours=30))
    assert _judged(day + timedelta(hours=34), back, dropped) == []


def test_a_level_nobody_draws_while_the_family_is_away_is_not_frozen() -> None:
    """Away days 6-8: the tank holds 71 % from 01:00 on day 6 for three days. Nobody was
    home: nothing drew from it."""
    baselines = _tank_days(9, away=range(6, 9))
    now = DAY0 + timedelta(days=8, hours=20)
    baselines.advance(now)
    held = _level("71", DAY0 + timedelta(days=6, hours=1))
    assert list(reading_frozen_far_longer_than_ever(view(now, held), baselines)) == []


def test_holds_bridge_short_drops_and_survive_storage() -> None:
    holds = ReadingHolds()
    holds.presence(True, DAY0)
    for hours, value in ((0, 5.0), (3, 6.0), (4, None), (4.5, 6.0), (10, 5.0), (11, None)):
        holds.reading(LEVEL, value, DAY0 + timedelta(hours=hours))
    holds.presence(False, DAY0 + timedelta(hours=12))
    stored = ReadingHolds.from_dict(holds.as_dict())
    for learned in (holds, stored):
        hold = learned.of(LEVEL)
        assert hold is not None
        assert hold.longest == 7 * 3600  # 03:00-10:00, across the half-hour drop
        assert hold.changes == 2
        assert hold.lowest == 5.0
        assert hold.lost == (DAY0 + timedelta(hours=11)).timestamp()  # a drop under way
        assert learned.home_time((DAY0 + timedelta(hours=20)).timestamp()) == 12 * 3600
    assert ReadingHolds.from_dict({"holds": {LEVEL: "x 1 2", 3: "1"}}).holds == {}


HEAT = "sensor.relay_9c_power"
RELAY = "switch.relay_9c"


def _steady(hours: int, draw: str = "182") -> HomeBaselines:
    baselines = HomeBaselines(UTC)
    info = EntityInfo(HEAT, "", area="Crawl", device_class="power", unit="W", device="d1")
    baselines.describe([info])
    baselines.seed_reading(HEAT, draw, DAY0)  # unchanged since set-up
    baselines.advance(DAY0 + timedelta(hours=hours))
    return baselines


def _meter(state: str, changed: datetime) -> EntityState:
    meter = entity(HEAT, state, area="Crawl", device_class="power", unit="W")
    return since(replace(meter, info=replace(meter.info, device="d1")), changed)


def _relay(state: str) -> EntityState:
    relay = entity(RELAY, state, area="Crawl")
    return replace(relay, info=replace(relay.info, device="d1"))


def test_a_load_that_never_rested_at_rest_with_its_switch_on_is_told_at_once() -> None:
    """182 W from set-up for two days; at 02:10 it reads 0 W, its relay still on."""
    baselines = _steady(50)
    stop = DAY0 + timedelta(hours=50, minutes=10)
    now = stop + timedelta(minutes=1)
    # Not learned yet (the baselines learn in batches), then learned: told either way.
    for learned in (False, True):
        if learned:
            baselines.observe(stop, HEAT, "0")
            baselines.advance(now)
        [finding] = steady_load_stopped(view(now, _meter("0", stop), _relay("on")), baselines)
        assert finding.rule == "steady_load_stopped"
        assert finding.evidence == (HEAT, RELAY)
        assert "reads nothing since 02:10 though its switch is still on" in finding.reasoning
        assert "never resting" in finding.reasoning
    assert "thermostat" in finding.recommendation  # a 182 W heat cable has one
    # Read after midnight, the stop says its day (a bare "02:10" names no day).
    later = now + timedelta(hours=23)
    [next_day] = steady_load_stopped(view(later, _meter("0", stop), _relay("on")), baselines)
    assert f"reads nothing since {stop:%a} 02:10 though" in next_day.reasoning
    off = steady_load_stopped(view(now, _meter("0", stop), _relay("off")), baselines)
    assert "its switch was turned off" in next(off).reasoning


def test_a_small_steady_load_unplugged_is_told_and_its_standby_dip_is_not() -> None:
    """An air mattress's pump at 9.5 W day and night for a week (under the 10 W a load
    "runs" at): unplugged, 0 W, its plug still on, it is told at once. Reading 5 W (a
    half of its least, not a rest) it is not, nor is a standby of 1.5 W that goes to 0."""
    pump = _steady(7 * 24, "9.5")
    stop = DAY0 + timedelta(days=7, minutes=10)
    now = stop + timedelta(minutes=1)
    [finding] = steady_load_stopped(view(now, _meter("0", stop), _relay("on")), pump)
    assert finding.evidence == (HEAT, RELAY)
    assert "reads nothing since" in finding.reasoning
    assert "in the 7 days seen, never resting" in finding.reasoning
    # A 9.5 W pump has no thermostat to trip: unplugged is what to check.
    assert "unplugged" in finding.recommendation
    assert "thermostat" not in finding.recommendation
    assert list(steady_load_stopped(view(now, _meter("5", stop), _relay("on")), pump)) == []
    standby = _steady(7 * 24, "1.5")
    assert list(steady_load_stopped(view(now, _meter("0", stop), _relay("on")), standby)) == []


def test_on_a_two_channel_relay_the_meters_own_channel_is_named() -> None:
    """One registry device, two switches (a relay's channels) and a meter per channel: the
    stopped meter's own channel is still on (a failed heater), the other channel is off
    for the night. It is told with its own switch, as still on (walk29)."""
    meter_id, own, other = (
        "sensor.relay_9d_switch_1_power",
        "switch.relay_9d_switch_1",
        ("switch.relay_9d_switch_0"),
    )
    baselines = HomeBaselines(UTC)
    baselines.describe([EntityInfo(meter_id, "", device_class="power", unit="W", device="d2")])
    baselines.seed_reading(meter_id, "150", DAY0)
    stop = DAY0 + timedelta(days=12, hours=1)
    baselines.advance(stop)
    meter = entity(meter_id, "0", device_class="power", unit="W")
    meter = since(replace(meter, info=replace(meter.info, device="d2")), stop)
    switches = [entity(e, state) for e, state in ((other, "off"), (own, "on"))]
    switches = [replace(s, info=replace(s.info, device="d2")) for s in switches]
    [finding] = steady_load_stopped(view(stop, meter, *switches), baselines)
    assert finding.evidence == (meter_id, own)
    assert "though its switch is still on" in finding.reasoning
    assert "in the 12 days seen" in finding.reasoning


def test_diagnostics_count_the_held_readings_and_name_none() -> None:
    """The stored holds show in diagnostics as a count only: no id, value or time."""
    baselines = _steady(50)
    summary = baselines.summary()
    assert summary["readings_with_holds"] == 1
    assert HEAT not in str(summary)
    assert "182" not in str(summary)
    back = HomeBaselines.from_dict(baselines.as_dict(), UTC)
    assert back.summary()["readings_with_holds"] == 1


def test_a_load_seen_a_few_hours_or_that_rested_before_is_not_told() -> None:
    """Ten hours seen: too little to call it steady. A heater that rested once (its
    thermostat) and rests again is no steady load."""
    young = _steady(10)
    stop = DAY0 + timedelta(hours=10)
    assert list(steady_load_stopped(view(stop, _meter("0", stop), _relay("on")), young)) == []
    cycling = _steady(30)
    cycling.observe(DAY0 + timedelta(hours=30), HEAT, "0")
    cycling.observe(DAY0 + timedelta(hours=31), HEAT, "182")
    stop = DAY0 + timedelta(hours=40)
    cycling.observe(stop, HEAT, "0")
    assert list(steady_load_stopped(view(stop, _meter("0", stop), _relay("on")), cycling)) == []
    unavailable = _meter("unavailable", stop)
    assert list(steady_load_stopped(view(stop, unavailable, _relay("on")), _steady(40))) == []


def test_a_hold_under_way_survives_a_restart_through_the_stored_baselines() -> None:
    """Stored mid-hold and read back (a restart): the frozen reading is still told, its
    hold counted from when it froze, not from the restart."""
    baselines, day = _frozen_day(pump=False)
    baselines.advance(day)
    restored = HomeBaselines.from_dict(baselines.as_dict(), UTC)
    restored.describe(baselines.infos.values())
    restored.observe(day + timedelta(hours=1), LEVEL, "unknown")  # the restart's no-state
    restored.observe(day + timedelta(hours=1, minutes=3), LEVEL, "64")
    restored.advance(day + timedelta(hours=9, minutes=15))
    stuck = _level("64", day + timedelta(hours=1, minutes=3))
    [finding] = _judged(day + timedelta(hours=9, minutes=15), stuck, restored)
    assert "since Sun 09:00" in finding.reasoning


def test_a_meter_on_no_switch_of_its_own_is_not_judged() -> None:
    """A meter with no switch on its device (a home's grid import: it rests when the sun
    covers the home) is not a load of its own."""
    baselines = _steady(50)
    stop = DAY0 + timedelta(hours=50)
    assert list(steady_load_stopped(view(stop, _meter("0", stop)), baselines)) == []


HEATER = "sensor.node_4c_power"


def test_a_heater_switched_on_before_each_evening_draw_is_not_cited() -> None:
    """A heater on at 20:50 every evening, ten minutes before the 21:00 draw: the level
    falls after it every time, and as often without it. No cause of the level: the frozen
    reading is told at 4 ×, no run cited."""
    baselines = _tank_days(0)
    baselines.describe_one(EntityInfo(HEATER, "Heater", device_class="power", unit="W"))
    for number in range(7):
        day = DAY0 + timedelta(days=number)
        _pump(baselines, day)
        for minutes, value in (*DAY, *NIGHT):
            if minutes == 1260:
                baselines.observe(day + timedelta(hours=20, minutes=50), HEATER, "1500")
                baselines.observe(day + timedelta(hours=22), HEATER, "0")
            if number < 6 or minutes < 540:
                baselines.observe(day + timedelta(minutes=minutes), LEVEL, value)
        if number == 6:
            baselines.observe(day + timedelta(hours=9), LEVEL, "64")
        baselines.advance(day + timedelta(hours=23))
    stuck = _level("64", DAY0 + timedelta(days=6, hours=9))
    now = DAY0 + timedelta(days=7, hours=6)  # 21 h: 2 × its longest hold would be enough
    baselines.advance(now)
    assert _judged(now, stuck, baselines) == []
    now = DAY0 + timedelta(days=7, hours=9, minutes=15)  # 24 h 15: 4 ×
    baselines.advance(now)
    [finding] = _judged(now, stuck, baselines)
    assert "ran at" not in finding.reasoning
