"""Each power meter's learned runs (core, no Home Assistant): a long run it makes at the
same time of day that stopped part-way, and a daily run expected before a week is learned.
The meters' ids and names say nothing of what they power."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
import json

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.meter_habits import meter_run_missing
from custom_components.anomaly_monitor.core.baselines.meter_runs import MeterRuns, Run
from custom_components.anomaly_monitor.core.baselines.run_cut_short import (
    meter_run_cut_short,
    run_cut_short_due,
)
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.learning_gate import not_held
from custom_components.anomaly_monitor.core.models import EntityInfo, EntityState, Transition

from .core_factories import entity, environment, window
from .test_baselines_long_stays import since, view

DAY0 = datetime(2026, 3, 5, tzinfo=UTC)  # a Thursday
PLUG = "sensor.shellyplusplugs_e86b_power"  # a cycler on a plug, 22:15-07:25 every night
PERSON = "person.a"
INFOS = [EntityInfo(PLUG, "", area="Bedroom", device_class="power", unit="W")]


def learned(nights: int, *, lengths: list[float] | None = None) -> HomeBaselines:
    """``nights`` nightly runs from 22:15 (``lengths`` hours each; 9 h 10 min by default),
    the meter idle at 6 W between them; HA's clock ticks every 15 minutes."""
    baselines = HomeBaselines(UTC)
    baselines.describe(INFOS)
    readings = [(DAY0, "6.0")]
    for night in range(nights):
        start = DAY0 + timedelta(days=night, hours=22, minutes=15)
        hours = lengths[night] if lengths else 9 + 1 / 6
        readings += [(start, "182"), (start + timedelta(minutes=40), "11")]
        readings += [(start + timedelta(hours=hours), "6.0")]
    end = DAY0 + timedelta(days=nights, hours=22)
    moment, index = DAY0, 0
    while moment <= end:
        while index < len(readings) and readings[index][0] <= moment:
            baselines.observe(readings[index][0], PLUG, readings[index][1])
            index += 1
        baselines.advance(moment)
        moment += timedelta(minutes=15)
    return baselines


def tonight(baselines: HomeBaselines, nights: int, stop_after: timedelta) -> datetime:
    """Tonight's run begins at 22:20 and falls to 0 W after ``stop_after``; returns the stop."""
    start = DAY0 + timedelta(days=nights, hours=22, minutes=20)
    baselines.observe(start, PLUG, "175")
    baselines.observe(start + timedelta(minutes=40), PLUG, "12")
    stop = start + stop_after
    baselines.observe(stop, PLUG, "0.0")
    baselines.advance(stop)
    return stop


def plug(state: str, changed: datetime) -> EntityState:
    return since(entity(PLUG, state, area="Bedroom", device_class="power", unit="W"), changed)


def test_a_run_that_fell_idle_part_way_is_told_after_a_quarter_of_an_hour() -> None:
    """One night learned (the second night of the home): tonight's run stops at 02:55."""
    baselines = learned(1)
    stop = tonight(baselines, 1, timedelta(hours=4, minutes=35))
    idle = plug("0.0", stop)
    assert list(meter_run_cut_short(view(stop + timedelta(minutes=10), idle), baselines)) == []
    # The glue analyses when the quarter of an hour is up, not at the next periodic one.
    assert run_cut_short_due(view(stop + timedelta(minutes=10), idle), baselines) == stop + (
        timedelta(minutes=15)
    )
    now = stop + timedelta(minutes=16)
    [finding] = meter_run_cut_short(view(now, idle), baselines)
    assert finding.rule == "meter_run_cut_short"
    assert finding.evidence == (PLUG,)
    assert "began a run at Fri 22:20" in finding.reasoning
    assert "since 02:55" in finding.reasoning
    assert "9 h 10 min or more, until about 07:25" in finding.reasoning
    assert "stopped part-way" in finding.reasoning
    # Judged by this device's own runs: not held while the home's normal is learned (day 2).
    assert not_held([finding], baselines, now, someone_home=True) == [finding]
    # Past the end of the runs before it, the run would be over anyway.
    assert list(meter_run_cut_short(view(stop + timedelta(hours=5), idle), baselines)) == []


def test_a_run_as_long_as_usual_a_short_one_or_a_switch_turned_off_is_not_told() -> None:
    baselines = learned(3)
    stop = tonight(baselines, 3, timedelta(hours=9))  # the usual length
    later = stop + timedelta(minutes=30)
    assert list(meter_run_cut_short(view(later, plug("6.0", stop)), baselines)) == []
    baselines = learned(3)
    stop = tonight(baselines, 3, timedelta(minutes=20))  # too short to be a run begun
    later = stop + timedelta(minutes=30)
    assert list(meter_run_cut_short(view(later, plug("0.0", stop)), baselines)) == []
    # Its own switch turned off (somebody did it, or a timer), or its owner left with it.
    baselines = learned(3)
    stop = tonight(baselines, 3, timedelta(hours=3))
    later = stop + timedelta(minutes=30)
    switch = entity("switch.shellyplusplugs_e86b", "off", area="Bedroom")
    assert list(meter_run_cut_short(view(later, plug("0.0", stop), switch), baselines)) == []
    left = since(entity(PERSON, "not_home"), stop - timedelta(minutes=5))
    assert list(meter_run_cut_short(view(later, plug("0.0", stop), left), baselines)) == []
    [_] = meter_run_cut_short(view(later, plug("0.0", stop)), baselines)


def test_runs_of_varying_length_are_not_judged_and_one_stop_told_before_is_spared() -> None:
    """A charger that stops when the battery is full: 6 h, 2.5 h, 4 h."""
    baselines = learned(3, lengths=[6, 2.5, 4])
    stop = tonight(baselines, 3, timedelta(hours=1, minutes=30))
    later = stop + timedelta(minutes=30)
    assert list(meter_run_cut_short(view(later, plug("0.0", stop)), baselines)) == []
    # Four nights of 9 h and one cut at 3 h (told then): still judged.
    baselines = learned(5, lengths=[9, 9, 3, 9, 9])
    stop = tonight(baselines, 5, timedelta(hours=2))
    later = stop + timedelta(minutes=30)
    [finding] = meter_run_cut_short(view(later, plug("0.0", stop)), baselines)
    assert "each of the 4 runs it began at this time before" in finding.reasoning


def test_a_meter_that_also_runs_short_at_this_time_is_not_judged() -> None:
    """A cooker: an hour's supper from 22:15 each night, once left on for 3 h; tonight's
    usual hour is no run cut short (set 3's stove: told every evening after the one left on)."""
    baselines = learned(4, lengths=[1, 1, 3, 1])
    stop = tonight(baselines, 4, timedelta(hours=1))
    later = stop + timedelta(minutes=30)
    assert list(meter_run_cut_short(view(later, plug("0.0", stop)), baselines)) == []
    baselines = learned(2, lengths=[1, 3])
    stop = tonight(baselines, 2, timedelta(hours=1))
    later = stop + timedelta(minutes=30)
    assert list(meter_run_cut_short(view(later, plug("0.0", stop)), baselines)) == []


def test_runs_survive_storage_and_garbage_is_dropped() -> None:
    baselines = learned(2)
    stored = json.loads(json.dumps(baselines.as_dict()))
    back = HomeBaselines.from_dict(stored, UTC)
    assert list(back.runs.runs[PLUG]) == list(baselines.runs.runs[PLUG])
    assert back.runs.last == baselines.runs.last
    assert back.runs.idle == {PLUG}
    assert back.summary()["meters_with_learned_runs"] == 1
    for garbage in (None, "x", {"runs": {PLUG: "1,2,3"}}, {"runs": {PLUG: "-5,60"}}):
        assert MeterRuns.from_dict(garbage).runs == {}
    # A run a drop of the meter cut is no run learned.
    runs = MeterRuns()
    runs.seed_idle(PLUG)
    runs.reading(PLUG, True, DAY0)
    runs.reading(PLUG, None, DAY0 + timedelta(hours=1))
    runs.reading(PLUG, False, DAY0 + timedelta(hours=2))
    assert runs.last == {}
    assert runs.runs == {}
    # A run whose start is not known (the meter first read running) is none either.
    runs = MeterRuns()
    runs.reading(PLUG, True, DAY0)
    runs.reading(PLUG, False, DAY0 + timedelta(hours=2))
    assert runs.last == {}
    runs.reading(PLUG, True, DAY0 + timedelta(hours=3))
    runs.reading(PLUG, False, DAY0 + timedelta(hours=5))
    assert runs.last[PLUG] == Run(DAY0 + timedelta(hours=3), DAY0 + timedelta(hours=5))


def _pump(days: int, *, start: datetime = DAY0) -> HomeBaselines:
    """A pump on a timer, 09:00-15:00 every day; someone home all along."""
    baselines = HomeBaselines(UTC)
    baselines.describe(INFOS)
    baselines.observe(start, PLUG, "0.0")
    moment = start
    while moment <= start + timedelta(days=days):
        at = moment - start
        if at % timedelta(days=1) == timedelta(hours=9):
            baselines.observe(moment, PLUG, "1140")
        if at % timedelta(days=1) == timedelta(hours=15):
            baselines.observe(moment, PLUG, "0.0")
        baselines.advance(moment)
        moment += timedelta(minutes=15)
    return baselines


def test_a_daily_run_is_expected_from_its_fourth_day_when_the_days_span_the_week() -> None:
    """Thursday to Sunday at 09:00-15:00: on Monday its run is expected (3 idle hours)."""
    baselines = _pump(4)  # Thu, Fri, Sat, Sun learned
    monday = DAY0 + timedelta(days=4)
    idle = plug("0.0", monday - timedelta(hours=9))
    baselines.advance(monday + timedelta(hours=11, minutes=5))
    two_hours = view(monday + timedelta(hours=11, minutes=5), idle)
    assert list(meter_run_missing(two_hours, baselines)) == []  # one hour more, learned thin
    baselines.advance(monday + timedelta(hours=12, minutes=5))
    [finding] = meter_run_missing(view(monday + timedelta(hours=12, minutes=5), idle), baselines)
    assert "on 4 of the 4 days learned it drew power at 09:00 and at 11:00" in finding.reasoning
    # Monday to Thursday learned: nothing is said of a Saturday's (or a Friday's) run yet.
    baselines = _pump(4, start=DAY0 + timedelta(days=4))
    friday = DAY0 + timedelta(days=8)
    idle = plug("0.0", friday - timedelta(hours=9))
    baselines.advance(friday + timedelta(hours=13))
    assert list(meter_run_missing(view(friday + timedelta(hours=13), idle), baselines)) == []
    # Thursday to Saturday learned: a Sunday is not yet known.
    baselines = _pump(3)
    sunday = DAY0 + timedelta(days=3)
    idle = plug("0.0", sunday - timedelta(hours=9))
    baselines.advance(sunday + timedelta(hours=13))
    assert list(meter_run_missing(view(sunday + timedelta(hours=13), idle), baselines)) == []


def test_a_run_its_own_switch_began_is_judged_however_short() -> None:
    """Set 12's pool pump: its relay switched on at 22:19 as every night, the motor drew
    for a minute and tripped its overload; the relay stays on at 0 W. A one-minute run is
    no run begun for a meter alone (before: never told); its own switch, switched on for
    it and on still, says the run was meant to go on. A switch on for days says nothing
    of this run."""
    baselines = learned(3)
    start = DAY0 + timedelta(days=3, hours=22, minutes=20)
    stop = start + timedelta(minutes=1)
    baselines.observe(start, PLUG, "182")
    baselines.observe(stop, PLUG, "0.0")
    baselines.advance(stop)
    later = stop + timedelta(minutes=20)
    relay = since(entity("switch.shellyplusplugs_e86b", "on", area="Bedroom"), start)
    [finding] = meter_run_cut_short(view(later, plug("0.0", stop), relay), baselines)
    assert "its own switch still on" in finding.reasoning
    long_on = since(relay, start - timedelta(days=2))
    assert list(meter_run_cut_short(view(later, plug("0.0", stop), long_on), baselines)) == []
    assert list(meter_run_cut_short(view(later, plug("0.0", stop)), baselines)) == []


def test_a_run_stopped_with_the_grid_is_the_supply_not_the_appliance() -> None:
    """Set 9's load shedding: the grid voltage falls to 0 V at the moment the pump stops
    (on main: told as a run cut short, a false alarm). A supply voltage gone with it and
    gone still explains the stop; the grid back and the meter still idle does not."""
    baselines = learned(3)
    stop = tonight(baselines, 3, timedelta(hours=3))
    later = stop + timedelta(minutes=30)
    grid = "sensor.inverter_grid_voltage"

    def home(*volts: tuple[datetime, str]) -> HomeView:
        states = [
            plug("0.0", stop),
            since(entity(grid, volts[-1][1], device_class="voltage", unit="V"), volts[-1][0]),
        ]
        moves = [Transition(when, grid, value, None) for when, value in volts]
        return HomeView(window(states, environment(later), moves))

    gone = [(stop - timedelta(hours=5), "231.0"), (stop, "0.0")]
    assert list(meter_run_cut_short(home(*gone), baselines)) == []
    # The window holds only the fall (what it read before is older): 0 V since the stop.
    assert list(meter_run_cut_short(home((stop, "0.0")), baselines)) == []
    # A voltage at 0 V since long before (a panel string at night) explains nothing.
    [_] = meter_run_cut_short(home((stop - timedelta(hours=3), "0.0")), baselines)
    back = (stop + timedelta(minutes=20), "229.0")
    [_] = meter_run_cut_short(home(*gone, back), baselines)
