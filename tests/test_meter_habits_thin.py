"""A meter's learned day from its first days (core, no Home Assistant): a load drawn
around the clock that stops on the first weekend day, and a load left on past its longest
run at hours it never drew at while nobody is home. The ids say nothing of what they power."""

from __future__ import annotations

from datetime import datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.meter_habits import (
    meter_drawing_at_unusual_hours,
    meter_run_missing,
)
from custom_components.anomaly_monitor.core.home import HomeView

from .core_factories import environment, window
from .test_baselines_long_stays import view
from .test_meter_habits import DAY0, HOB, PERSON, RELAY, fed, hob, relay


def _drawn_all_day(baselines: HomeBaselines, day: datetime) -> None:
    """The relay draws a little around the clock, its reading moving now and then
    (a heat-trace cable on its thermostat in deep cold)."""
    for hour in range(0, 24, 3):
        baselines.observe(day + timedelta(hours=hour), RELAY, "124" if hour % 2 else "117")


def test_a_load_drawn_around_the_clock_that_stops_on_a_saturday_is_told() -> None:
    """Monday to Friday learned: its first Saturday is no new kind of day for a load that
    never stops (set 16's heat trace tripped at 03:20 on day 6). Before: nothing was
    expected of a Saturday until one was learned."""
    saturday = DAY0 + timedelta(days=5)
    baselines = fed(5, each=_drawn_all_day, until=saturday + timedelta(hours=3))
    baselines.observe(saturday + timedelta(hours=3, minutes=20), RELAY, "0.0")
    baselines.advance(saturday + timedelta(hours=7, minutes=5))
    cold = relay("0.0", saturday + timedelta(hours=3, minutes=20))
    [finding] = meter_run_missing(view(saturday + timedelta(hours=7, minutes=5), cold), baselines)
    assert finding.evidence == (RELAY,)
    assert "did not come" in finding.reasoning
    # The hob (cooks at noon and at six) stopping on a Saturday is still judged by its days.
    idle = hob("0.4", saturday + timedelta(hours=12, minutes=30))
    assert list(meter_run_missing(view(saturday + timedelta(hours=19), idle), baselines)) == []


def _warmed_at_night(baselines: HomeBaselines, day: datetime) -> None:
    """The plug warms a bed 20:40-06:10 (high, then low)."""
    baselines.observe(day + timedelta(hours=20, minutes=40), HOB, "82")
    baselines.observe(day + timedelta(hours=21, minutes=50), HOB, "41")
    baselines.observe(day + timedelta(hours=30, minutes=10), HOB, "0.0")


def test_left_on_past_its_longest_run_into_hours_never_drawn_in_an_empty_home() -> None:
    """Four nights learned; on the fifth morning it is not switched off and everybody
    leaves (set 16's electric blanket). Told once it has drawn half an hour at hours it
    never drew at in the days learned, nobody home. Before: a week was needed."""
    morning = DAY0 + timedelta(days=4)
    on = morning - timedelta(hours=3, minutes=20)  # last night's 20:40
    baselines = fed(3, each=_warmed_at_night, until=on - timedelta(minutes=10))
    baselines.observe(on, HOB, "82")
    baselines.observe(on + timedelta(minutes=70), HOB, "41")
    baselines.observe(morning + timedelta(hours=6, minutes=5), HOB, "83")
    moment = on
    while moment <= morning + timedelta(hours=8, minutes=45):
        if moment == morning + timedelta(hours=7, minutes=30):
            baselines.observe(moment, PERSON, "not_home")
        baselines.advance(moment)
        moment += timedelta(minutes=15)
    now = morning + timedelta(hours=8, minutes=45)
    warm = hob("83", on)
    empty = HomeView(window([warm], environment(now, persons_home=0)))
    [finding] = meter_drawing_at_unusual_hours(empty, baselines)
    assert finding.evidence == (HOB,)
    assert "in the 4 days learned, it never drew power" in finding.reasoning
    # Somebody home and up: three days say too little; nothing is told yet.
    assert list(meter_drawing_at_unusual_hours(view(now, warm), baselines)) == []
