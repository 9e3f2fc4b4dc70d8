"""A cycling appliance that stopped for a good reason is not told (core, no Home Assistant):
it no longer cycled lately, its switch was turned off, the heating was switched off."""

from __future__ import annotations

from datetime import timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.cycles import cycle_stopped

from .core_factories import entity
from .test_baselines_long_stays import DAY0, METER, habits, since, view

STOPPED = DAY0 + timedelta(days=5, hours=10, minutes=20)  # the last run ended
NOW = STOPPED + timedelta(hours=3)


def stopped(baselines: HomeBaselines) -> HomeBaselines:
    """Day 5: the freezer cycles until 10:20, then draws standby power only."""
    day = DAY0 + timedelta(days=5)
    for hour in range(11):
        baselines.observe(day + timedelta(hours=hour), METER, "85.0")
        baselines.observe(day + timedelta(hours=hour, minutes=20), METER, "1.5")
    baselines.observe(STOPPED, METER, "0.0")
    return baselines


def meter() -> object:
    return since(entity(METER, "0.0", area="Garage", device_class="power", unit="W"), STOPPED)


def test_the_notification_says_what_to_check() -> None:
    [finding] = cycle_stopped(view(NOW, meter()), stopped(habits(5)))
    assert "started at least 24 times a day on each of the last 3 days" in finding.reasoning
    assert "nothing was switched off" in finding.reasoning
    assert "plugged in" in finding.recommendation
    assert "circuit breaker" in finding.recommendation
    assert "mark this as a false alarm" in finding.recommendation


def test_an_appliance_that_no_longer_cycled_lately_is_not_judged() -> None:
    """Cycling day and night on days 0-1, then running for hours with short rests (a
    dehumidifier in a damp spell: four starts a day): its learned cycle still says it
    rests at most 40 min, but it did not cycle on each of the last three days."""
    baselines = habits(2)
    moment = DAY0 + timedelta(days=2)
    while moment < STOPPED:
        baselines.observe(moment, METER, "85.0")
        baselines.observe(moment + timedelta(hours=5, minutes=30), METER, "1.5")
        moment += timedelta(hours=6)
    baselines.observe(STOPPED, METER, "1.5")
    cycle = baselines.durations.stays[METER]
    assert max(bucket[2] for bucket in cycle["idle"]) == 40.0  # the cycle is still learned
    assert list(cycle_stopped(view(NOW, meter()), baselines)) == []
    # The same with the last three days cycling: told.
    assert [f.rule for f in cycle_stopped(view(NOW, meter()), stopped(habits(5)))] == [
        "cycle_stopped"
    ]


def test_an_appliance_switched_off_at_its_plug_is_not_told() -> None:
    """Switched off as its last run ended, or 30 min into its rest (it would have started
    again within 40 min): the person did it (the plug has been off for 4 h before: off
    3 h is no longer than its habit, ``test_cycle_plug_off.py``)."""
    baselines = stopped(habits(5))
    day = DAY0 + timedelta(days=1)
    baselines.observe(day + timedelta(hours=9), "switch.garage_plug", "on")
    baselines.observe(day + timedelta(hours=12), "switch.garage_plug", "off")
    baselines.observe(day + timedelta(hours=16), "switch.garage_plug", "on")
    for moment in (STOPPED, STOPPED + timedelta(minutes=30)):
        plug = since(entity("switch.garage_plug", "off", area="Garage"), moment)
        assert list(cycle_stopped(view(NOW, meter(), plug), baselines)) == []
    # A switch of another room, one turned off hours before, or long after the appliance
    # should have started again, explains nothing.
    late = STOPPED + timedelta(hours=2)
    others = [
        since(entity("switch.desk", "off", area="Study"), STOPPED),
        since(entity("switch.garage_plug", "off", area="Garage"), STOPPED - timedelta(hours=2)),
        since(entity("switch.garage_plug", "off", area="Garage"), late),
        # a switch still on, in the same room: the appliance stopped by itself
        since(entity("switch.garage_plug", "on", area="Garage"), STOPPED),
    ]
    for other in others:
        assert [f.rule for f in cycle_stopped(view(NOW, meter(), other), baselines)] == [
            "cycle_stopped"
        ]


def test_a_pump_that_stops_with_the_heating_is_not_told() -> None:
    """The thermostat (in another room) switched off when the pump stopped: the end of
    the heating season; a thermostat only idle, or off since long before, explains nothing."""
    baselines = stopped(habits(5))
    off = since(entity("climate.living_room", "off", area="Living room"), STOPPED)
    assert list(cycle_stopped(view(NOW, meter(), off), baselines)) == []
    idle = since(entity("climate.living_room", "heat", area="Living room"), STOPPED)
    long_off = since(
        entity("climate.living_room", "off", area="Living room"), STOPPED - timedelta(days=2)
    )
    for other in (idle, long_off):
        assert list(cycle_stopped(view(NOW, meter(), other), baselines))


def test_recent_starts_are_bounded_and_hostile_data_dropped() -> None:
    baselines = habits(10)
    days = baselines.recent.days[METER]
    assert len(days) == 7
    assert [count for _, count in days] == [24] * 7
    stored = HomeBaselines.from_dict(
        {
            "version": 2,
            "recent_starts": {
                METER: "739000,24,739001,x",
                "sensor.a": "739000,24," * 40,
                "sensor.b": "739000,2.5",
                "sensor.c": 5,
                "sensor.d": "739001,3,739000,4",
            },
        },
        DAY0.tzinfo,
    )
    assert set(stored.recent.days) == {"sensor.d"}
    assert list(stored.recent.days["sensor.d"]) == [[739001, 3]]  # out of order: dropped


def test_a_switch_that_only_came_back_with_ha_excuses_nothing() -> None:
    """A power cut stops HA and trips the freezer's outlet: when HA starts again, every
    entity reads a fresh ``last_changed``, the washer plug beside it "off since" the restart.
    The home knows the plug has been off since the day before: the freezer is told."""
    baselines = stopped(habits(5))
    baselines.observe(STOPPED - timedelta(days=1), "switch.garage_plug", "on")
    baselines.observe(STOPPED - timedelta(days=1) + timedelta(hours=2), "switch.garage_plug", "off")
    restarted = since(entity("switch.garage_plug", "off", area="Garage"), STOPPED)
    assert [f.rule for f in cycle_stopped(view(NOW, meter(), restarted), baselines)] == [
        "cycle_stopped"
    ]
    # Turned off as the freezer stopped, and the home saw it: still the person's doing.
    baselines.observe(STOPPED - timedelta(minutes=5), "switch.garage_plug", "on")
    baselines.observe(STOPPED, "switch.garage_plug", "off")
    assert list(cycle_stopped(view(NOW, meter(), restarted), baselines)) == []


def test_a_spell_across_home_assistant_s_downtime_is_judged_by_what_was_watched() -> None:
    """Set 11: the fridge idle when HA went down (a power cut, 1 h 35 min), idle again when
    it came back: told 8 min after the restart, as "no power for 2 h 23 min", though it had
    cycled unseen. Across the gap the spell is told only once it was also watched, since
    HA came back, for the cycle's longest rest (40 min): then a freezer whose plug stayed
    off after the power cut is told, with the gap in its words."""
    baselines = stopped(habits(5))
    down, back = STOPPED + timedelta(minutes=10), NOW - timedelta(minutes=10)
    baselines.unwatched = (down, back)
    restarted = since(entity(METER, "0.0", area="Garage", device_class="power", unit="W"), back)
    assert list(cycle_stopped(view(NOW, restarted), baselines)) == []
    later = NOW + timedelta(minutes=31)
    [finding] = cycle_stopped(view(later, restarted), baselines)
    assert "has drawn almost no power for 3 h 31 min (before Home Assistant was down" in (
        finding.reasoning
    )
    assert "and for 41 min since)" in finding.reasoning
    # Without the gap (watched all along), told at once as before.
    baselines.unwatched = None
    assert [f.rule for f in cycle_stopped(view(NOW, restarted), baselines)] == ["cycle_stopped"]


def test_nothing_runs_through_home_assistant_s_downtime_unseen() -> None:
    """Running when HA went down and when it came back: the fridge stopped and started
    unseen (or had no power); "without a break for 3 h" is not known, so not told."""
    baselines = habits(5)
    day = DAY0 + timedelta(days=5)
    for hour in range(10):
        baselines.observe(day + timedelta(hours=hour), METER, "85.0")
        baselines.observe(day + timedelta(hours=hour, minutes=20), METER, "1.5")
    baselines.observe(STOPPED, METER, "85.0")  # a run began at 10:20
    back = NOW - timedelta(minutes=10)
    running = since(entity(METER, "85.0", area="Garage", device_class="power", unit="W"), back)
    assert [f.rule for f in cycle_stopped(view(NOW, running), baselines)] == ["cycle_stopped"]
    baselines.unwatched = (STOPPED + timedelta(minutes=10), back)
    assert list(cycle_stopped(view(NOW, running), baselines)) == []
