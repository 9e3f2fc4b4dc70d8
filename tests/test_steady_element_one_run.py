"""An element known from one run, on again without a break and left (core, no Home Assistant).

One run learned says little of a load's length; an element drawing its heating load without
a break since it was switched on says what it is. Past half as long again as its only run,
nobody minding it, it is told; a wash (a quarter of an hour of heating, then its motor) or a
load never seen to run before is not. The ids say nothing of what they power.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.heat_load_unattended import (
    heat_load_left_on_unattended,
)
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityInfo

from .core_factories import entity, environment, window
from .test_baselines_long_stays import since

DAY0 = datetime(2026, 3, 2, tzinfo=UTC)
PLUG = "sensor.plug_mini_7c4f_power"
PERSON = "person.a"
OTHER = "person.b"
TODAY = DAY0 + timedelta(days=1)
ON = TODAY + timedelta(hours=7)


def _left(today: list[tuple[timedelta, str]], *, first_run: bool = True) -> HomeBaselines:
    """Yesterday (when ``first_run``) the plug drew 1,180 W 18:00-19:15, its only run; today
    ``today`` (offsets from 07:00, readings), A going out at 07:20, B at home; the clock on to
    10:00."""
    baselines = HomeBaselines(UTC)
    baselines.describe([EntityInfo(PLUG, "", area="Lounge", device_class="power", unit="W")])
    readings = [
        (TODAY + timedelta(hours=6), PERSON, "home"),
        (TODAY + timedelta(hours=6), OTHER, "home"),
    ]
    if first_run:
        readings += [
            (DAY0 + timedelta(hours=18), PLUG, "1180"),
            (DAY0 + timedelta(hours=19, minutes=15), PLUG, "0.0"),
        ]
    readings += [(ON + offset, PLUG, state) for offset, state in today]
    readings.append((ON + timedelta(minutes=20), PERSON, "not_home"))
    readings.sort()
    moment, index = DAY0, 0
    while moment <= TODAY + timedelta(hours=10):
        while index < len(readings) and readings[index][0] <= moment:
            baselines.observe(*readings[index])
            index += 1
        baselines.advance(moment)
        moment += timedelta(minutes=5)
    return baselines


def _at(minutes: int, state: str, changed: timedelta) -> HomeView:
    now = ON + timedelta(minutes=minutes)
    plug = since(entity(PLUG, state, area="Lounge", device_class="power", unit="W"), ON + changed)
    return HomeView(window([plug], environment(now, persons_home=1)))


STEADY = [(timedelta(0), "1180"), (timedelta(minutes=120), "1165")]


def test_a_steady_element_past_half_again_its_only_run_is_told() -> None:
    """On at 07:00, its only run 75 min: at 08:50 (110 min) not yet; at 09:00 (120 min, past
    112.5) told, A who went out at 07:20 still out."""
    baselines = _left(STEADY)
    assert list(heat_load_left_on_unattended(_at(110, "1180", timedelta(0)), baselines)) == []
    [finding] = heat_load_left_on_unattended(_at(125, "1165", timedelta(minutes=120)), baselines)
    assert finding.evidence == (PLUG,)
    assert "somebody went out at 07:20" in finding.reasoning


def test_a_load_never_seen_to_run_is_not_judged_by_one_run() -> None:
    """The same run with no run learned before: nothing says how long it runs here."""
    baselines = _left(STEADY, first_run=False)
    assert (
        list(heat_load_left_on_unattended(_at(125, "1165", timedelta(minutes=120)), baselines))
        == []
    )


def test_a_wash_of_one_run_learned_is_not_an_element_left_on() -> None:
    """A wash heats its water for 15 min, then its motor draws 400 W for two hours: longer
    than its only run, but not an element's steady draw (and under a heating load now)."""
    wash = [
        (timedelta(0), "2000"),
        (timedelta(minutes=15), "400"),
        (timedelta(minutes=100), "2000"),
    ]
    baselines = _left(wash)
    assert (
        list(heat_load_left_on_unattended(_at(125, "2000", timedelta(minutes=100)), baselines))
        == []
    )
