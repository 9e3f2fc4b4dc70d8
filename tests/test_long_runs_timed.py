"""A meter kept by a timer, well known, running far past it: any motor or element (core).

Set 12's roof-tank transfer pump (771 W on a Shelly's default id) fills the tank in 14 min,
run after run; its float valve stuck, it ran four hours, never told (only a heating load,
1 kW or more, was judged). Set 12's kettle boils in 3 min; it did not switch itself off and
drew 2 kW for 22 min, never told (no run was judged under an hour). A meter whose runs all
last about as long, known from five runs, is judged against them whatever it drives, above
a compressor's draw, from 15 min on.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.long_runs import (
    appliance_running_far_longer,
    running_far_longer_due,
)
from custom_components.anomaly_monitor.core.models import EntityInfo, Finding

from .core_factories import entity
from .test_baselines_long_stays import since, view

MONDAY = datetime(2027, 1, 11, tzinfo=UTC)
PUMP = "sensor.shellyplus1pm_c4d8d5b2e3f4_switch_0_power"
KETTLE = "sensor.tapo_p110_current_consumption"


def _learned(meter: str, watts: str, minutes: float, runs: int, rest: str = "0.0") -> HomeBaselines:
    """``runs`` runs of ``minutes``, two a day at 09:00 and 15:00, drawing ``watts``."""
    baselines = HomeBaselines(UTC)
    baselines.describe([EntityInfo(meter, "", area="Roof", device_class="power", unit="W")])
    for n in range(runs):
        start = MONDAY + timedelta(days=n // 2, hours=9 + 6 * (n % 2))
        baselines.observe(start, meter, watts)
        baselines.observe(start + timedelta(minutes=minutes), meter, rest)
    return baselines


def _running(
    baselines: HomeBaselines, meter: str, watts: str, start: datetime, minutes: float
) -> list[Finding]:
    """The findings ``minutes`` into a run begun at ``start``."""
    baselines.observe(start, meter, watts)
    state = since(entity(meter, watts, device_class="power", unit="W", area="Roof"), start)
    home = view(start + timedelta(minutes=minutes), state)
    return list(appliance_running_far_longer(home, baselines))


def test_a_pump_past_twice_its_timed_run_is_told() -> None:
    """Eleven runs of 18 min at 771 W: told past 36 min (twice: a motor's run is its
    tank's), not before; before this change never (under a heating load), then at three
    times (set 24 d: a stuck float told 54 min into the overflow)."""
    baselines = _learned(PUMP, "768", 18, 11)
    start = MONDAY + timedelta(days=6, hours=9, minutes=10)
    assert _running(baselines, PUMP, "771", start, 35) == []
    state = since(entity(PUMP, "771", device_class="power", unit="W", area="Roof"), start)
    assert running_far_longer_due(view(start + timedelta(minutes=35), state), baselines) == (
        start + timedelta(minutes=36)
    )
    [finding] = appliance_running_far_longer(view(start + timedelta(minutes=37), state), baselines)
    assert finding.rule == "left_on_past_its_routine"
    assert "at most 18 min (learned from 6 runs, in the morning)" in finding.reasoning
    assert "a timer or a fixed routine" in finding.reasoning
    assert "never drew this little" not in finding.reasoning


def test_a_timed_run_drawing_less_than_every_run_is_told_past_its_longest() -> None:
    """Set 24 b: a 1,050 W tank pump of 22-min runs, no water to lift, whines at 640 W:
    told once past 22 min (its reading held ten minutes), not at three times its run. The
    same run at its usual draw waits for three times (a 1 kW load may be an element)."""
    baselines = _learned(PUMP, "1050", 22, 11)
    start = MONDAY + timedelta(days=6, hours=9)
    baselines.observe(start, PUMP, "1050")
    weak_at = start + timedelta(minutes=5)
    weak = replace(
        since(entity(PUMP, "640", device_class="power", unit="W", area="Roof"), start),
        last_changed=weak_at,
    )
    assert (
        list(appliance_running_far_longer(view(weak_at + timedelta(minutes=9), weak), baselines))
        == []
    )
    assert running_far_longer_due(view(weak_at + timedelta(minutes=9), weak), baselines) == (
        start + timedelta(minutes=22)
    )
    [finding] = appliance_running_far_longer(view(start + timedelta(minutes=23), weak), baselines)
    assert finding.rule == "left_on_past_its_routine"
    assert "never drew this little while running" in finding.reasoning
    usual = since(entity(PUMP, "1050", device_class="power", unit="W", area="Roof"), start)
    assert (
        list(appliance_running_far_longer(view(start + timedelta(minutes=60), usual), baselines))
        == []
    )


def test_a_kettle_far_past_its_boil_is_told_from_a_quarter_of_an_hour() -> None:
    """Six boils of 3 min at 2.1 kW: drawing for 16 min is told (three times its boil is
    9 min; the timed floor 15 min), 14 min is not."""
    baselines = _learned(KETTLE, "2140", 3, 6)
    start = MONDAY + timedelta(days=4, hours=7, minutes=45)
    assert _running(baselines, KETTLE, "2150", start, 14) == []
    [finding] = _running(baselines, KETTLE, "2150", start, 16)
    assert "at most 3 min" in finding.reasoning


def test_a_timer_known_from_few_runs_or_a_small_load_is_judged_as_before() -> None:
    """Five runs of a 300 W load (a compressor's or electronics' draw): not told at 2 h; a
    kettle of three boils only past the hour."""
    start = MONDAY + timedelta(days=6, hours=9, minutes=10)
    baselines = _learned(PUMP, "300", 14, 6)
    assert _running(baselines, PUMP, "300", start, 120) == []
    baselines = _learned(KETTLE, "2140", 3, 3)
    assert _running(baselines, KETTLE, "2150", start, 50) == []
    assert len(_running(baselines, KETTLE, "2150", start, 61)) == 1


def test_a_motor_of_a_few_runs_alike_is_judged_past_twice_its_longest() -> None:
    """Set 49 b: a roof-tank pump of 14-min fills (742 W), three by the third morning, its
    float stuck: it ran three hours, never told (a motor was judged only by a timer known
    from five runs, or at a weak draw). Runs alike, from two, say what its run is: told
    past half an hour (twice 14 min, the motor's floor), not before. Set 49 a: a 410-W plug
    on a schedule, two mornings of 3 h, left on all day: told past 6 h, not before. One run
    says nothing; runs of every length (10 and 40 min) are no routine."""
    start = MONDAY + timedelta(days=2, hours=6, minutes=55)
    baselines = _learned(PUMP, "742", 14, 3)
    assert _running(baselines, PUMP, "751", start, 29) == []
    [finding] = _running(baselines, PUMP, "751", start, 31)
    assert finding.rule == "left_on_past_its_routine"
    assert "at most 14 min (learned from 3 runs, at any time of day)" in finding.reasoning
    baselines = _learned(PUMP, "410", 180, 2)
    assert _running(baselines, PUMP, "409", start, 359) == []
    assert len(_running(baselines, PUMP, "409", start, 361)) == 1
    assert _running(_learned(PUMP, "742", 14, 1), PUMP, "751", start, 240) == []
    baselines = HomeBaselines(UTC)
    baselines.describe([EntityInfo(PUMP, "", area="Roof", device_class="power", unit="W")])
    for day, minutes in ((0, 10), (1, 40)):
        begun = MONDAY + timedelta(days=day, hours=9)
        baselines.observe(begun, PUMP, "742")
        baselines.observe(begun + timedelta(minutes=minutes), PUMP, "0.0")
    assert _running(baselines, PUMP, "751", start, 240) == []


def test_a_pump_run_by_hand_for_half_an_hour_is_its_households() -> None:
    """Twelve tank-pump runs of 1.5 min (toilets, showers), then the garden watered from
    the tank for 18 min (set 14, the home's third evening): no fault, not told. Past half
    an hour it is (a split pipe, a stuck float)."""
    baselines = _learned(PUMP, "640", 1.5, 12)
    start = MONDAY + timedelta(days=6, hours=9, minutes=10)
    assert _running(baselines, PUMP, "655", start, 18) == []
    assert _running(baselines, PUMP, "655", start, 29) == []
    [finding] = _running(baselines, PUMP, "655", start, 31)
    assert finding.rule == "left_on_past_its_routine"


def test_a_pump_of_three_short_runs_is_known_by_them() -> None:
    """Set 15: a sump pump of 1.5-min runs (540 W), three by the third day, its float
    jammed: running 3 h, never told (a timer known from five runs). A motor whose runs are
    all a few minutes is known from three: told past half an hour. Three runs of 14 min are
    judged past twice their longest (``test_a_motor_of_a_few_runs_alike_...``); one run
    says nothing yet."""
    baselines = _learned(PUMP, "540", 1.5, 3)
    start = MONDAY + timedelta(days=2, hours=12, minutes=40)
    assert _running(baselines, PUMP, "548", start, 29) == []
    [finding] = _running(baselines, PUMP, "548", start, 31)
    assert finding.rule == "left_on_past_its_routine"
    assert "(learned from 3 runs, at any time of day)" in finding.reasoning
    baselines = _learned(PUMP, "540", 1.5, 1)
    assert _running(baselines, PUMP, "548", start, 120) == []


def _misting(rest: str) -> HomeBaselines:
    """Eight 30-s runs at 27 W (a misting pump, twice a day), resting at ``rest``."""
    return _learned(PUMP, "27", 0.5, 8, rest)


def _dry_run(baselines: HomeBaselines, start: datetime, minutes: float) -> list[Finding]:
    """27 W for 7 min from ``start``, then 9 W: the findings ``minutes`` into it."""
    baselines.observe(start, PUMP, "27")
    baselines.observe(start + timedelta(minutes=7), PUMP, "9")
    state = since(entity(PUMP, "9", device_class="power", unit="W", area="Roof"), start)
    home = view(start + timedelta(minutes=minutes), replace(state, last_changed=start))
    return list(appliance_running_far_longer(home, baselines))


def test_a_small_pump_of_short_runs_running_on_at_a_few_watts_is_told() -> None:
    """Set 19 c: a misting pump of 30-s runs at 27 W, its pressure switch stuck, runs
    7 min at 27 W and then whines dry at 9 W for two hours. 9 W is drawing for a meter
    that rests at 0 W, and a pump whose every run is half a minute running for half an
    hour is stuck whatever its watts: told past 30 min. Before: never (9 W under the
    10 W running gate, 27 W under a compressor's)."""
    start = MONDAY + timedelta(days=5, hours=12)
    assert _dry_run(_misting("0.0"), start, 29) == []
    [finding] = _dry_run(_misting("0.0"), start, 31)
    assert finding.rule == "left_on_past_its_routine"
    assert "has drawn 9 W for 31 min" in finding.reasoning
    # Walk of session 27: its 30-s runs read "it runs for at most 0 min".
    assert "it runs for at most 30 s (learned from 4 runs" in finding.reasoning


def test_a_meter_resting_at_a_few_watts_or_of_long_runs_is_not_drawing_there() -> None:
    """The same runs on a meter whose rest reads 8 W (electronics on standby): 9 W is its
    rest, not a run. A charger's long runs (hours at 15 W, then 9 W trickle): not judged
    (a few watts on a meter of long runs is no pump left on)."""
    start = MONDAY + timedelta(days=5, hours=12)
    assert _dry_run(_misting("8.0"), start, 120) == []
    baselines = _learned(PUMP, "15", 180, 8)
    assert _dry_run(baselines, start, 600) == []


def test_a_meter_at_rest_now_is_no_run_whatever_was_learned() -> None:
    """A kettle left drawing, then HA restarted and the meter came back at 0 W with the
    reading missed by the learned run (walk31): "has drawn 0 W for 17 min" was told. A
    meter at rest now has no run under way."""
    baselines = _learned(KETTLE, "2140", 3, 6)
    start = MONDAY + timedelta(days=4, hours=7, minutes=45)
    baselines.observe(start, KETTLE, "2150")  # the run as last learned: still under way
    state = since(entity(KETTLE, "0.0", device_class="power", unit="W", area="Roof"), start)
    home = view(start + timedelta(minutes=17), state)
    assert list(appliance_running_far_longer(home, baselines)) == []
    assert running_far_longer_due(home, baselines) is None
    # Drawing, the same run is told (the check is the reading, nothing else).
    drawing = since(entity(KETTLE, "2150", device_class="power", unit="W", area="Roof"), start)
    [finding] = appliance_running_far_longer(
        view(start + timedelta(minutes=17), drawing), baselines
    )
    assert "has drawn 2150 W for 17 min" in finding.reasoning


def test_a_tank_pump_filling_as_long_as_it_does_at_night_is_not_left_on_by_day() -> None:
    """Set 28: a tank pump kicked on by the taps for 3 min (eight runs by day) fills the
    tanks for 35 min when the mains water comes at night (two fills learned). A fill at
    15:10 is no pump left on at 40 min (before: told at 30, the day's timer's floor); past
    half as long again as any run it made (52.5 min), it is, and says its longest."""
    baselines = HomeBaselines(UTC)
    baselines.describe([EntityInfo(PUMP, "", area="Roof", device_class="power", unit="W")])
    for day in range(4):
        runs = [(9, "780", 3), (15, "780", 3)] + ([(2, "820", 35)] if day in (1, 2) else [])
        for hour, watts, minutes in sorted(runs):
            begun = MONDAY + timedelta(days=day, hours=hour)
            baselines.observe(begun, PUMP, watts)
            baselines.observe(begun + timedelta(minutes=minutes), PUMP, "0.0")
    start = MONDAY + timedelta(days=5, hours=15, minutes=10)
    assert _running(baselines, PUMP, "820", start, 40) == []
    [finding] = _running(baselines, PUMP, "820", start, 53)
    assert finding.rule == "left_on_past_its_routine"
    assert "at most 3 min (learned from 4 runs, in the afternoon)" in finding.reasoning
    assert "its longest run at any hour lasted 35 min" in finding.reasoning


def test_a_pump_of_two_runs_drawing_far_less_is_told_past_its_longest() -> None:
    """Set 29: a roof-tank pump, two mornings of 35 min at 520 W (no timer yet: three runs
    make one), runs dry at 395 W, under a compressor's draw: told past 35 min (never
    before: a motor was judged only by a timer well known). At its usual draw it is
    past twice its runs (70 min), not before."""
    baselines = _learned(PUMP, "520", 35, 2)
    start = MONDAY + timedelta(days=2, hours=6, minutes=33)
    assert _running(baselines, PUMP, "395", start, 34) == []
    [finding] = _running(baselines, PUMP, "395", start, 36)
    assert finding.rule == "left_on_past_its_routine"
    assert "at most 35 min (learned from 2 runs, at any time of day)" in finding.reasoning
    assert "never drew this little while running" in finding.reasoning
    baselines = _learned(PUMP, "520", 35, 2)
    assert _running(baselines, PUMP, "521", start, 69) == []
    baselines = _learned(PUMP, "520", 35, 2)
    assert len(_running(baselines, PUMP, "521", start, 71)) == 1
