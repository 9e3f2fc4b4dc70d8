"""A stay told as trouble teaches no normal (core, no Home Assistant)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.false_alarm_teaching import (
    teach_false_alarm,
)
from custom_components.anomaly_monitor.core.baselines.long_stays import state_longer_than_usual
from custom_components.anomaly_monitor.core.baselines.told_stays import tell_stays
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityInfo, EntityState

from .core_factories import entity, environment, window

DAY0 = datetime(2026, 2, 2, tzinfo=UTC)
PLUG = "switch.plug_3"
DOOR = "binary_sensor.back_door"


def mornings(days: int) -> HomeBaselines:
    """The plug on from 07:30 every morning, until 08:30 on even days and 08:00 on odd ones;
    the back door opened for two minutes at 09:00."""
    baselines = HomeBaselines(UTC)
    baselines.describe([EntityInfo(PLUG, "", area="Study"), EntityInfo(DOOR, "", area="Hall")])
    for day in range(days):
        start = DAY0 + timedelta(days=day)
        baselines.observe(start + timedelta(hours=7, minutes=30), PLUG, "on")
        baselines.observe(start + timedelta(hours=8, minutes=30 * (1 - day % 2)), PLUG, "off")
        baselines.observe(start + timedelta(hours=9), DOOR, "on")
        baselines.observe(start + timedelta(hours=9, minutes=2), DOOR, "off")
    return baselines


def plug_on(now: datetime, since: datetime) -> HomeView:
    state: EntityState = replace(entity(PLUG, "on", area="Study"), last_changed=since)
    return HomeView(window([state], environment(now)))


def left_on_for_five_hours(baselines: HomeBaselines, day: int, *, told: bool) -> None:
    """The plug left on 08:00-13:00 on ``day``, told at 11:30 (when ``told``)."""
    start = DAY0 + timedelta(days=day)
    baselines.observe(start + timedelta(hours=8), PLUG, "on")
    found = list(
        state_longer_than_usual(
            plug_on(start + timedelta(hours=11, minutes=30), start + timedelta(hours=8)), baselines
        )
    )
    assert [f.rule for f in found] == ["state_longer_than_usual"]
    if told:
        tell_stays(baselines.durations, [(f.rule, f.evidence) for f in found])
    baselines.observe(start + timedelta(hours=13), PLUG, "off")


def told_next_day_at_five_hours(baselines: HomeBaselines, day: int) -> bool:
    start = DAY0 + timedelta(days=day)
    baselines.observe(start + timedelta(hours=8), PLUG, "on")
    view = plug_on(start + timedelta(hours=13, minutes=1), start + timedelta(hours=8))
    return bool(list(state_longer_than_usual(view, baselines)))


def test_a_stay_told_as_trouble_does_not_make_the_next_one_as_long_usual() -> None:
    """Six mornings of an hour at most; left on five hours and told: the next day's five
    hours are told again (the told stay raised the morning's longest by half, not to 5 h)."""
    baselines = mornings(6)
    left_on_for_five_hours(baselines, 6, told=True)
    assert baselines.durations.longest(PLUG, "on", DAY0 + timedelta(hours=8))[1] == 90.0
    assert told_next_day_at_five_hours(baselines, 7)


def test_a_stay_not_told_or_called_a_false_alarm_is_learned_as_it_is() -> None:
    """Not told (the homeowner never heard of it), or told and marked "false alarm" while
    it went on: five hours is this plug's morning now."""
    quiet = mornings(6)
    left_on_for_five_hours(quiet, 6, told=False)
    assert not told_next_day_at_five_hours(quiet, 7)

    marked = mornings(6)
    start = DAY0 + timedelta(days=6)
    marked.observe(start + timedelta(hours=8), PLUG, "on")
    tell_stays(marked.durations, [("state_longer_than_usual", (PLUG,))])
    teach_false_alarm(marked, "state_longer_than_usual", (PLUG,), 210.0)
    marked.observe(start + timedelta(hours=13), PLUG, "off")
    assert marked.durations.longest(PLUG, "on", start + timedelta(hours=8))[1] == 300.0


def test_only_a_stay_under_way_of_the_finding_s_devices_is_damped() -> None:
    """A door told as "stayed open" once shut: its closed stay is learned as any; a finding
    of another kind (not a stay) damps nothing."""
    baselines = mornings(6)
    start = DAY0 + timedelta(days=6)
    baselines.observe(start + timedelta(hours=8), PLUG, "on")
    baselines.observe(start + timedelta(hours=9), DOOR, "on")
    baselines.observe(start + timedelta(hours=9, minutes=40), DOOR, "off")
    tell_stays(baselines.durations, [("entry_left_open", (DOOR,))])  # shut: its rest
    tell_stays(baselines.durations, [("no_movement_while_home", (PLUG,))])
    assert baselines.durations.told == {}
