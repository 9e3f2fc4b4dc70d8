"""An element on its thermostat, left on, judged by the spells the home learned of it (core,
no Home Assistant): a water heater switched back on and forgotten reheats in short bursts
all morning; an oven left on at night is one draw past midnight. The ids say nothing of
what the meters power."""

from __future__ import annotations

from datetime import datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.long_runs import (
    appliance_running_far_longer,
)
from custom_components.anomaly_monitor.core.baselines.meter_habits import (
    meter_drawing_at_unusual_hours,
)
from custom_components.anomaly_monitor.core.home import HomeView

from .core_factories import environment, window
from .test_meter_habits import DAY0, HOB, PERSON, fed, hob

THURSDAY = DAY0 + timedelta(days=10)


def _mornings(baselines: HomeBaselines, day: datetime) -> None:
    """Heats up 06:40-07:02, rests, reheats 07:40-07:46: one spell of 66 min a morning."""
    start = day + timedelta(hours=6, minutes=40)
    for minutes, watts in ((0, "2000"), (22, "0"), (60, "2000"), (66, "0")):
        baselines.observe(start + timedelta(minutes=minutes), HOB, watts)


def _left_on(until: datetime) -> tuple[HomeBaselines, str, datetime]:
    """Thursday it is switched back on: a reheat of 6 min every 40 from 06:40 (the reading
    at ``until`` and when it last changed)."""
    start = THURSDAY + timedelta(hours=6, minutes=40)
    baselines = fed(10, each=_mornings, until=start - timedelta(minutes=5))
    moment, reading, changed = start, "2000", start
    while moment <= until:
        baselines.observe(moment, HOB, "2000")
        reading, changed = "2000", moment
        if moment + timedelta(minutes=6) <= until:
            baselines.observe(moment + timedelta(minutes=6), HOB, "0")
            reading, changed = "0", moment + timedelta(minutes=6)
        moment += timedelta(minutes=40)
    baselines.advance(until)
    return baselines, reading, changed


def test_a_heater_reheating_in_bursts_far_longer_than_its_spells_is_told() -> None:
    """Every burst (6 min) is shorter than its every heat-up (22 min): judged by its runs it
    was never told (set 35 b's geyser, told 5 h 39 min later as an odd hour's draw). Its
    mornings are spells of 66 min: three times that (3 h 18 min) is too long."""
    before = THURSDAY + timedelta(hours=9, minutes=50)  # 3 h 10 min
    baselines, reading, changed = _left_on(before)
    home = HomeView(window([hob(reading, changed)], environment(before, persons_home=1)))
    assert list(appliance_running_far_longer(home, baselines)) == []
    now = THURSDAY + timedelta(hours=10, minutes=10)  # 3 h 30 min, resting since 10:06
    baselines, reading, changed = _left_on(now)
    assert reading == "0"  # resting between two bursts: the spell goes on
    home = HomeView(window([hob(reading, changed)], environment(now, persons_home=1)))
    [finding] = appliance_running_far_longer(home, baselines)
    assert finding.evidence == (HOB,)
    assert "on and off" in finding.reasoning
    assert "since 06:40" in finding.reasoning
    assert "at most 1 h 06 min" in finding.reasoning


def test_its_usual_morning_is_not_told() -> None:
    """A morning like every other (heat-up and one reheat) stays under its spells."""
    start = THURSDAY + timedelta(hours=6, minutes=40)
    baselines = fed(10, each=_mornings, until=start - timedelta(minutes=5))
    _mornings(baselines, THURSDAY)
    for minutes in (30, 70, 200):
        now = start + timedelta(minutes=minutes)
        baselines.advance(now)
        reading = "2000" if minutes == 70 else "0"
        home = HomeView(window([hob(reading, now)], environment(now, persons_home=1)))
        assert list(appliance_running_far_longer(home, baselines)) == []


def _afternoons(baselines: HomeBaselines, day: datetime) -> None:
    """Used every afternoon at 15:00 for half an hour, never in the evening or at night."""
    baselines.observe(day + timedelta(hours=15), HOB, "1250")
    baselines.observe(day + timedelta(hours=15, minutes=30), HOB, "0")


def test_an_element_left_on_at_night_is_one_draw_past_midnight() -> None:
    """An oven left on at 21:30, holding 200 degrees (7 min on, 6 off) in the empty flat.
    Past midnight the evening it has drawn through is a day kept: judged by it, the hour
    before midnight read as one it draws at and the finding was over at 00:19 (set 35 c:
    told again at 01:06 by another rule). The spell is judged by the days before it."""
    night = DAY0 + timedelta(days=8)  # eight days learned: one evening more is past ``RARE``
    start = night + timedelta(hours=21, minutes=30)
    baselines = fed(8, each=_afternoons, until=start - timedelta(minutes=5))
    baselines.observe(start - timedelta(minutes=1), PERSON, "not_home")
    found = []
    moment = start
    for tick in range(40):  # to 01:50
        baselines.observe(moment, HOB, "1250")
        baselines.observe(moment + timedelta(minutes=7), HOB, "0")
        moment += timedelta(minutes=13)
        if tick % 3 == 2:
            now = moment - timedelta(minutes=1)
            baselines.advance(now)
            state = hob("0", moment - timedelta(minutes=6))
            empty = HomeView(window([state], environment(now, persons_home=0)))
            found.append((now, list(meter_drawing_at_unusual_hours(empty, baselines))))
    told = [now for now, findings in found if findings]
    assert told
    assert told[0] < start + timedelta(hours=1)
    # From the first finding on, every analysis still finds it: before and after midnight.
    assert all(findings for now, findings in found if now >= told[0])
    assert found[-1][0] > night + timedelta(days=1, hours=1)


def _timer_days(baselines: HomeBaselines, day: datetime) -> None:
    """A pump on its timer, 09:00-15:00 every day, at 1.1 kW."""
    baselines.observe(day + timedelta(hours=9), HOB, "1140")
    baselines.observe(day + timedelta(hours=15), HOB, "0")


def test_long_runs_an_hour_apart_are_runs_not_a_thermostats_bursts() -> None:
    """The timer's run, then a night's run an hour after it (a pool shock-dosed), then the
    timer's run again an hour after that: restarts at one draw within the hour, joined as
    one spell of 24 h, but each run is as long as its spells or longer. Told at 09:09 as
    "on and off for 24 h" (set 7 a), it is no element holding a temperature."""
    baselines = fed(10, each=_timer_days, until=THURSDAY + timedelta(hours=8))
    _timer_days(baselines, THURSDAY)
    baselines.observe(THURSDAY + timedelta(hours=16), HOB, "1138")
    baselines.observe(THURSDAY + timedelta(hours=32), HOB, "0")
    baselines.observe(THURSDAY + timedelta(hours=33), HOB, "1140")
    now = THURSDAY + timedelta(hours=33, minutes=10)
    baselines.advance(now)
    start = THURSDAY + timedelta(hours=33)
    home = HomeView(window([hob("1140", start)], environment(now, persons_home=1)))
    assert list(appliance_running_far_longer(home, baselines)) == []


def _boils(baselines: HomeBaselines, day: datetime) -> None:
    """A kettle: three boils of 3 min a day (07:00, 12:00, 18:00), at 2.1 kW."""
    for hour in (7, 12, 18):
        baselines.observe(day + timedelta(hours=hour), HOB, "2150")
        baselines.observe(day + timedelta(hours=hour, minutes=3), HOB, "0")


def _stuck(until: datetime) -> tuple[HomeBaselines, str, datetime]:
    """Thursday 09:45 its switch sticks: it boils 10 min, cuts out 5 min, boils again."""
    start = THURSDAY + timedelta(hours=9, minutes=45)
    baselines = fed(10, each=_boils, until=start - timedelta(minutes=5))
    morning = THURSDAY + timedelta(hours=7)  # its usual boil: hours before, not joined
    baselines.observe(morning, HOB, "2150")
    baselines.observe(morning + timedelta(minutes=3), HOB, "0")
    moment, reading, changed = start, "2150", start
    while moment <= until:
        baselines.observe(moment, HOB, "2150")
        reading, changed = "2150", moment
        if moment + timedelta(minutes=10) <= until:
            baselines.observe(moment + timedelta(minutes=10), HOB, "0")
            reading, changed = "0", moment + timedelta(minutes=10)
        moment += timedelta(minutes=15)
    baselines.advance(until)
    return baselines, reading, changed


def test_a_kettle_boiling_on_and_off_past_its_every_boil_is_told() -> None:
    """Each 10-min boil is longer than its every spell (3 min) but no run long runs can
    tell (under the quarter-hour floor of a timed meter): the spell was not judged (its
    burst "a run, longer than every spell") and set 24 a's stuck kettle was never told.
    Its spell is judged as an element left on: past the hour, not before."""
    before = THURSDAY + timedelta(hours=10, minutes=40)  # 55 min
    baselines, reading, changed = _stuck(before)
    home = HomeView(window([hob(reading, changed)], environment(before, persons_home=1)))
    assert list(appliance_running_far_longer(home, baselines)) == []
    now = THURSDAY + timedelta(hours=10, minutes=58)  # 1 h 13 min, resting since 10:55
    baselines, reading, changed = _stuck(now)
    assert reading == "0"
    home = HomeView(window([hob(reading, changed)], environment(now, persons_home=1)))
    [finding] = appliance_running_far_longer(home, baselines)
    assert "on and off" in finding.reasoning
    assert "since 09:45" in finding.reasoning
