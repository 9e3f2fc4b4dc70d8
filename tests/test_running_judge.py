"""A heat appliance on since before the window, as its learned stays judge it."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.running_judge import judged_run
from custom_components.anomaly_monitor.core.statistics.durations import heat_appliance_left_on

from .core_factories import entity, environment, home

IRON = "switch.hair_iron"
METER = "sensor.hair_iron_power"
DAY0 = datetime(2025, 3, 10, tzinfo=UTC)
ON_AT = DAY0 + timedelta(days=2, hours=7)


def _view(now: datetime):
    iron = replace(entity(IRON, "on", area="Bedroom"), last_changed=ON_AT)
    return home([iron], environment(now))


def _finding(now: datetime):
    (finding,) = heat_appliance_left_on(_view(now))
    return finding


def test_an_iron_used_and_switched_off_before_is_told_when_left_on() -> None:
    baselines = HomeBaselines(UTC)
    for day in range(2):
        used = DAY0 + timedelta(days=day, hours=7)
        baselines.durations.state(IRON, "on", used)
        baselines.durations.state(IRON, "off", used + timedelta(minutes=14))
    now = ON_AT + timedelta(hours=3, minutes=10)
    judged = judged_run(_finding(now), IRON, baselines, _view(now))
    assert judged is not None
    assert judged.rule == "heat_appliance_left_on"


def test_a_heater_never_seen_off_is_kept_on_not_left_on() -> None:
    baselines = HomeBaselines(UTC)
    now = ON_AT + timedelta(hours=3, minutes=10)
    assert judged_run(_finding(now), IRON, baselines, _view(now)) is None


def test_a_water_heater_kept_on_for_days_is_not_left_on() -> None:
    """Its one stay on lasted four days: on since this afternoon is how it is kept."""
    baselines = HomeBaselines(UTC)
    baselines.durations.state(IRON, "on", DAY0 - timedelta(days=4))
    baselines.durations.state(IRON, "off", DAY0)
    baselines.durations.state(IRON, "on", DAY0 + timedelta(minutes=21))
    baselines.durations.state(IRON, "off", DAY0 + timedelta(days=1))
    now = ON_AT + timedelta(hours=3, minutes=10)
    assert judged_run(_finding(now), IRON, baselines, _view(now)) is None


def test_while_the_home_is_learned_a_plug_on_since_it_was_first_seen_is_not_told() -> None:
    """The first day: a water heater kept on, on since the monitor first saw it; no use of
    it is known, so it is not told as left on 3 h later (set 30's first night)."""
    from custom_components.anomaly_monitor.core.baselines.usual_judge import judged_by_usual

    baselines = HomeBaselines(UTC)
    baselines.watching([IRON], ON_AT)
    now = ON_AT + timedelta(hours=3, minutes=10)
    assert baselines.learning(IRON, now)
    assert judged_by_usual(_finding(now), baselines, _view(now)) is None


def test_an_aquarium_heater_kept_on_for_days_is_not_left_on_at_its_longest() -> None:
    """Two known stays on of days each (set 6 Toronto's aquarium heater: 95 h at most):
    on 143 h now is past 1.5 times its longest, but a heater kept on for days is kept on,
    not left on; only uses each under the rule's own limit make a spell from before the
    window a forgotten one."""
    baselines = HomeBaselines(UTC)
    start = DAY0 - timedelta(days=9)
    baselines.durations.state(IRON, "on", start)
    baselines.durations.state(IRON, "off", start + timedelta(hours=95))
    baselines.durations.state(IRON, "on", start + timedelta(hours=95, minutes=10))
    baselines.durations.state(IRON, "off", start + timedelta(hours=150))
    now = ON_AT + timedelta(hours=150)
    assert judged_run(_finding(now), IRON, baselines, _view(now)) is None


def _view_with_meter(now: datetime, watts: str):
    iron = replace(entity(IRON, "on", area="Bedroom"), last_changed=ON_AT)
    meter = entity(METER, watts, area="Bedroom", device_class="power", unit="W")
    return home([iron, meter], environment(now))


def _meter_watched(drew_daily: bool) -> HomeBaselines:
    """The iron's own meter, read from day 0 on; drawing every morning or never before."""
    baselines = HomeBaselines(UTC)
    baselines.watching([IRON, METER], DAY0)
    meters = baselines.meters
    meters.power(METER, False, DAY0)
    for day in range(2):
        if drew_daily:
            used = DAY0 + timedelta(days=day, hours=7)
            meters.advance(used)
            meters.power(METER, True, used)
            meters.power(METER, False, used + timedelta(minutes=40))
        meters.advance(DAY0 + timedelta(days=day + 1))
    meters.advance(ON_AT)
    meters.power(METER, True, ON_AT)
    baselines.durations.state(IRON, "on", ON_AT)
    return baselines


def test_an_iron_never_used_before_is_told_when_left_on_after_resting_for_days() -> None:
    """No use of it is known (its switch-on on the third morning is its first), but its
    own meter drew at no hour of the two days watched before: used now and then, not kept
    on; the rule's own limit judges the spell from before the window."""
    now = ON_AT + timedelta(hours=3, minutes=10)
    view = _view_with_meter(now, "1150")
    (finding,) = heat_appliance_left_on(view)
    assert judged_run(finding, IRON, _meter_watched(drew_daily=False), view) is not None
    # A water heater whose meter heats every day is kept on, its switch-on no use.
    assert judged_run(finding, IRON, _meter_watched(drew_daily=True), view) is None


def test_a_heater_switched_back_on_after_a_short_rest_is_kept_on() -> None:
    """Its one stay learned is 21 min off (its days on were longer than a stay is kept):
    switched back on, it is kept on, whatever the rest before the watch."""
    baselines = HomeBaselines(UTC)
    baselines.watching([IRON], DAY0)
    baselines.durations.state(IRON, "off", ON_AT - timedelta(minutes=21))
    baselines.durations.state(IRON, "on", ON_AT)
    now = ON_AT + timedelta(hours=3, minutes=10)
    assert judged_run(_finding(now), IRON, baselines, _view(now)) is None
