"""An appliance kept by a timer or a fixed routine, left on: judged from a few stays (core).

Set 9's Finnish block heater (a Shelly on its default id) comes on two hours before the
morning drive on weekdays; on the fourth morning the car is not taken and it stays on all
day. Three stays were learned, too few for ``state_longer_than_usual`` (ten, or six at six
times the longest): never told. Stays that all last about as long are a timer or a fixed
routine, and three times that is no longer what the timer does. The same for a power meter
drawing a heating load (set 9's salon hood dryer, 25 min per client). A device used for
as long as each use needs (stays of every length) is judged as before.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.false_alarm_teaching import (
    forget_false_alarm,
    teach_false_alarm,
)
from custom_components.anomaly_monitor.core.baselines.long_runs import (
    appliance_running_far_longer,
    running_far_longer_due,
)
from custom_components.anomaly_monitor.core.baselines.long_stays import (
    long_stay_due,
    state_longer_than_usual,
)
from custom_components.anomaly_monitor.core.baselines.timed_stays import timed_stays
from custom_components.anomaly_monitor.core.learning_gate import not_held
from custom_components.anomaly_monitor.core.models import EntityInfo

from .core_factories import entity
from .test_baselines_long_stays import since, view

MONDAY = datetime(2027, 1, 11, tzinfo=UTC)
HEATER = "switch.shellyplus1pm_441793a1b2c3_switch_0"
HEATER_POWER = "sensor.shellyplus1pm_441793a1b2c3_switch_0_power"
DRYER = "sensor.shellyplug_s_c8c9a3b4d5e6_power"
INFOS = [
    EntityInfo(HEATER, "", area="Yard", device="block_heater"),
    EntityInfo(
        HEATER_POWER, "", area="Yard", device_class="power", unit="W", device="block_heater"
    ),
    EntityInfo(DRYER, "", area="Salon", device_class="power", unit="W"),
]
ON_AT = timedelta(hours=6, minutes=55)


def mornings(minutes: tuple[int, ...]) -> HomeBaselines:
    """One morning a day from Monday: the heater on at 06:55 for each of ``minutes``."""
    baselines = HomeBaselines(UTC)
    baselines.describe(INFOS)
    for day, length in enumerate(minutes):
        on = MONDAY + timedelta(days=day) + ON_AT
        baselines.observe(on, HEATER, "on")
        baselines.observe(on + timedelta(seconds=5), HEATER_POWER, "528")
        baselines.observe(on + timedelta(minutes=length), HEATER, "off")
        baselines.observe(on + timedelta(minutes=length, seconds=5), HEATER_POWER, "0.0")
    return baselines


def left_on(baselines: HomeBaselines, day: int) -> tuple[datetime, list[object]]:
    """The heater switched on at 06:55 of ``day`` and not off: (when, its states)."""
    on = MONDAY + timedelta(days=day) + ON_AT
    baselines.observe(on, HEATER, "on")
    baselines.observe(on + timedelta(seconds=5), HEATER_POWER, "531")
    states = [
        since(entity(HEATER, "on", area="Yard"), on),
        since(entity(HEATER_POWER, "531", device_class="power", unit="W", area="Yard"), on),
    ]
    return on, states


def test_a_timed_heater_left_on_is_told_after_three_times_its_stay_with_its_meter() -> None:
    """Three stays of 1 h 58 min (on main: too few, never told): at 5 h 50 not yet,
    past 5 h 54 told, naming the switch and the meter drawing behind it."""
    baselines = mornings((118, 118, 118))
    on, states = left_on(baselines, 3)
    home = view(on + timedelta(hours=5, minutes=50), *states)
    assert list(state_longer_than_usual(home, baselines)) == []
    assert long_stay_due(home, baselines) == on + timedelta(minutes=354)
    [finding] = state_longer_than_usual(view(on + timedelta(minutes=355), *states), baselines)
    assert finding.rule == "left_on_past_its_routine"
    assert finding.evidence == (HEATER, HEATER_POWER)
    assert finding.subject == HEATER
    assert "on for 5 h 55 min, since 06:55" in finding.reasoning
    assert "at most 1 h 58 min (learned from 3 stays, in the morning)" in finding.reasoning
    assert "each about as long (a timer or a fixed routine)" in finding.reasoning


def test_stays_of_every_length_are_no_timer() -> None:
    """By hand, 40 min to 2 h: three stays say nothing (as before), all day untold by
    this rule until ten are learned."""
    baselines = mornings((40, 118, 75))
    assert timed_stays(baselines.durations, HEATER, "on", MONDAY + ON_AT) is None
    on, states = left_on(baselines, 3)
    assert list(state_longer_than_usual(view(on + timedelta(hours=9), *states), baselines)) == []


def test_a_timer_marked_normal_or_once_left_on_is_judged_as_before() -> None:
    """What the homeowner marked normal (a false alarm on a 6 h stay) stands: the device
    is no longer judged by its timer."""
    baselines = mornings((118, 118, 118))
    baselines.usual.taught.setdefault(HEATER, {})["stay"] = 360.0
    on, states = left_on(baselines, 3)
    assert list(state_longer_than_usual(view(on + timedelta(hours=9), *states), baselines)) == []
    # Two stays are no timer yet.
    on, states = left_on(mornings((118, 118)), 2)
    assert (
        list(state_longer_than_usual(view(on + timedelta(hours=9), *states), mornings((118, 118))))
        == []
    )


def test_a_dryer_meter_on_for_an_hour_past_its_runs_is_told() -> None:
    """A hood dryer drawing 1.15 kW for 25 min per client, three clients learned: drawing
    for more than 1 h 15 min (three times its run, never under an hour) is told."""
    baselines = HomeBaselines(UTC)
    baselines.describe(INFOS)
    day = MONDAY + timedelta(days=1)
    for hour in (9.5, 11.0, 15.5):
        start = day + timedelta(hours=hour)
        baselines.observe(start, DRYER, "1148")
        baselines.observe(start + timedelta(minutes=25), DRYER, "0.0")
    left = day + timedelta(hours=19, minutes=20)
    baselines.observe(left, DRYER, "1150")
    dryer = since(entity(DRYER, "1150", device_class="power", unit="W", area="Salon"), left)
    home = view(left + timedelta(minutes=70), dryer)
    assert list(appliance_running_far_longer(home, baselines)) == []
    assert running_far_longer_due(home, baselines) == left + timedelta(minutes=75)
    [finding] = appliance_running_far_longer(view(left + timedelta(minutes=76), dryer), baselines)
    assert finding.evidence == (DRYER,)
    assert "at most 25 min (learned from 3 runs, at any time of day)" in finding.reasoning


def test_a_stay_marked_normal_is_not_told_again_while_it_lasts() -> None:
    """Ten mornings alike; left on, told past three times its stay and marked "false
    alarm" at once (the homeowner wants it on today): the mark teaches a 6 h stay, and
    three times that (18 h) told the same stay again on main (set 8's water heater was
    told again at 12 h after its mark). Now the stay under way is not told again; the
    next one is judged by what was taught."""
    baselines = mornings((118,) * 10)
    on, states = left_on(baselines, 10)
    [finding] = state_longer_than_usual(view(on + timedelta(minutes=360), *states), baselines)
    assert teach_false_alarm(
        baselines, finding.rule, finding.evidence, finding.magnitude, on + timedelta(hours=6)
    )
    for hours in (7, 12, 19, 30):
        home = view(on + timedelta(hours=hours), *states)
        assert list(state_longer_than_usual(home, baselines)) == []
    # The next morning's stay: judged at three times the taught 6 h.
    baselines.observe(on + timedelta(hours=31), HEATER, "off")
    on, states = left_on(baselines, 12)
    assert long_stay_due(view(on + timedelta(hours=1), *states), baselines) == on + timedelta(
        hours=18
    )
    assert forget_false_alarm(baselines, finding.rule, finding.evidence)
    assert baselines.usual.taught_value(HEATER, "stay_since") is None


def test_judged_by_its_own_routine_it_is_pushed_while_the_home_is_learned() -> None:
    """Set 9's salon hood dryer, on the home's second day: three clients' runs of 25 min
    learned, blowing since the last client left. Judged against its own runs, it is not
    held by the learning gate (before: held until the third day, never told); the rules
    that need a longer record still wait."""
    baselines = HomeBaselines(UTC)
    baselines.describe(INFOS)
    day = MONDAY + timedelta(days=1)
    baselines.watching([DRYER], MONDAY)
    for hour in (9.5, 11.0, 15.5):
        start = day + timedelta(hours=hour)
        baselines.observe(start, DRYER, "1148")
        baselines.observe(start + timedelta(minutes=25), DRYER, "0.0")
    left = day + timedelta(hours=19, minutes=20)
    baselines.observe(left, DRYER, "1150")
    now = left + timedelta(minutes=76)
    assert baselines.learning(DRYER, now)
    dryer = since(entity(DRYER, "1150", device_class="power", unit="W", area="Salon"), left)
    [finding] = appliance_running_far_longer(view(now, dryer), baselines)
    assert not_held([finding], baselines, now, someone_home=True) == [finding]
    other = replace(finding, rule="appliance_running_far_longer")
    assert not_held([other], baselines, now, someone_home=True) == []


OVEN = "sensor.horno_estado_de_funcionamiento"


def test_an_operation_state_held_past_its_programme_is_told_but_not_its_rest() -> None:
    """Set 8's oven reports its operation state (HA's ``enum`` class): ``run`` 42 min a
    time, ``finished`` 2 min, then ``inactive`` (its rest). Left in ``run`` (before: no
    check judged an enum state), told past three times its programme; the state it rests in
    is never judged, nor a state whose stays vary."""
    baselines = HomeBaselines(UTC)
    baselines.describe([EntityInfo(OVEN, "", area="Kitchen", device_class="enum")])
    baselines.observe(MONDAY, OVEN, "inactive")
    for day in range(4):
        start = MONDAY + timedelta(days=day, hours=20, minutes=45)
        baselines.observe(start, OVEN, "run")
        baselines.observe(start + timedelta(minutes=42), OVEN, "finished")
        baselines.observe(start + timedelta(minutes=44), OVEN, "inactive")
    left = MONDAY + timedelta(days=4, hours=20, minutes=40)
    baselines.observe(left, OVEN, "run")
    oven = since(entity(OVEN, "run", device_class="enum", area="Kitchen"), left)
    assert list(state_longer_than_usual(view(left + timedelta(minutes=125), oven), baselines)) == []
    [finding] = state_longer_than_usual(view(left + timedelta(minutes=127), oven), baselines)
    assert finding.rule == "left_on_past_its_routine"
    assert finding.evidence == (OVEN,)
    assert "in its state 'run' for 2 h 07 min, since 20:40" in finding.reasoning
    # Its rest, however long, is not judged.
    rest = since(entity(OVEN, "inactive", device_class="enum", area="Kitchen"), left)
    assert list(state_longer_than_usual(view(left + timedelta(days=2), rest), baselines)) == []
    # A state whose stays vary (a phone's activity, by how long each walk is) is no timer.
    baselines.observe(left + timedelta(hours=3), OVEN, "inactive")
    for day, minutes in enumerate((10, 45, 90)):
        start = MONDAY + timedelta(days=5 + day, hours=9)
        baselines.observe(start, OVEN, "walking")
        baselines.observe(start + timedelta(minutes=minutes), OVEN, "inactive")
    walking = since(entity(OVEN, "walking", device_class="enum"), left + timedelta(days=8))
    home = view(left + timedelta(days=8, hours=6), walking)
    assert list(state_longer_than_usual(home, baselines)) == []
