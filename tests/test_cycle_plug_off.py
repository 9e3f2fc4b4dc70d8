"""A cycling appliance stopped by its switch is excused only as long as the switch has
been off before, and a rest is judged by the appliance's rests, not by its one longest
(core, no Home Assistant).

Set 20: a child switched the freezer's plug off at 11:20, told 21 h later when the plug
came back on (the excuse held all night); a fridge plug left off after a night's power
cut, told only once it was back on; a fridge whose rests are 30-45 min, idle with a dead
start relay, told at 4 h 43 (three times its one rest of 1 h 34)."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.cycles import (
    cycle_stopped,
    cycle_stopped_due,
)
from custom_components.anomaly_monitor.core.models import Severity

from .core_factories import entity
from .test_baselines_cycle_reasons import STOPPED, meter, stopped
from .test_baselines_long_stays import DAY0, METER, habits, since, view

PLUG = "switch.garage_plug"
MIN1, MIN5 = timedelta(minutes=1), timedelta(minutes=5)


def plug_off() -> object:
    return since(entity(PLUG, "off", area="Garage"), STOPPED)


def test_a_plug_never_off_before_is_told_gently_at_once() -> None:
    """Never seen off in five days: told at the analysis of its change (set 23: a fridge
    plug back off after a power cut, told 2 h later, when the cycle's own limit passed),
    not left to the freezer's rest limit (2 h); in words that say the switch did it."""
    baselines = stopped(habits(5))
    now = view(STOPPED, meter(), plug_off())
    [finding] = cycle_stopped(now, baselines)
    assert finding.evidence == (PLUG, METER)
    assert f"{PLUG} was switched off at 10:20" in finding.reasoning
    assert "it was never switched off before in the days learned" in finding.reasoning
    assert "draws almost no power since" in finding.reasoning
    assert finding.severity == Severity.HIGH  # as the stop itself: never off before
    assert "switch it back on" in finding.recommendation
    assert "mark this as a false alarm" in finding.recommendation
    assert cycle_stopped_due(now, baselines) is None  # told now, nothing left to wait for
    [later] = cycle_stopped(view(STOPPED + timedelta(hours=3), meter(), plug_off()), baselines)
    assert f"{PLUG} has been switched off since 10:20, for 3 h" in later.reasoning
    assert "has drawn almost no power for 3 h" in later.reasoning


def test_another_switch_of_its_room_never_off_before_is_not_told_at_once() -> None:
    """A gas valve of the same room shut (never off before) as the freezer rests: not the
    freezer's plug, nothing is told at once; the freezer is judged by its cycle (2 h)."""
    # Fails before: any switch of the area, never off before, was told at once as its plug.
    baselines = stopped(habits(5))
    valve = since(entity("switch.gas_valve", "off", area="Garage"), STOPPED)
    assert list(cycle_stopped(view(STOPPED, meter(), valve), baselines)) == []
    assert cycle_stopped_due(view(STOPPED, meter(), valve), baselines) is not None
    [finding] = cycle_stopped(view(STOPPED + timedelta(minutes=125), meter(), valve), baselines)
    assert finding.evidence[0] == "switch.gas_valve"


def test_a_plug_off_unrelated_to_the_stop_is_no_first_off() -> None:
    """The plug of the freezer's area turned off hours after it stopped is not what
    stopped it: the freezer is judged by its cycle (told at its limit, 2 h)."""
    baselines = stopped(habits(5))
    late = since(entity(PLUG, "off", area="Garage"), STOPPED + timedelta(minutes=90))
    assert (
        list(cycle_stopped(view(STOPPED + timedelta(minutes=91), meter(), late), baselines)) == []
    )
    [finding] = cycle_stopped(view(STOPPED + timedelta(minutes=125), meter(), late), baselines)
    assert "nothing was switched off when it stopped" in finding.reasoning


def test_a_plug_is_excused_as_long_as_it_has_been_off_before() -> None:
    """Off for 5 h once (defrosting): off 3 h now is its habit; off 6 h is not."""
    baselines = stopped(habits(5))
    day = DAY0 + timedelta(days=1)
    baselines.observe(day + timedelta(hours=9), PLUG, "on")
    baselines.observe(day + timedelta(hours=10), PLUG, "off")
    baselines.observe(day + timedelta(hours=15), PLUG, "on")
    assert (
        list(cycle_stopped(view(STOPPED + timedelta(hours=3), meter(), plug_off()), baselines))
        == []
    )
    # Due when the plug's off stay passes its longest, not at the freezer's own limit.
    soon = view(STOPPED + timedelta(minutes=30), meter(), plug_off())
    assert cycle_stopped_due(soon, baselines) == STOPPED + timedelta(hours=5)
    [finding] = cycle_stopped(view(STOPPED + timedelta(hours=6), meter(), plug_off()), baselines)
    assert "it was off once before, never longer than 5 h 00 min" in (finding.reasoning)
    assert finding.severity == Severity.MEDIUM  # gently: it has been off on purpose


def test_a_thermostat_turned_off_still_excuses_its_pump_for_the_season() -> None:
    baselines = stopped(habits(5))
    off = since(entity("climate.living_room", "off", area="Living room"), STOPPED)
    later = view(STOPPED + timedelta(days=3), meter(), off)
    assert list(cycle_stopped(later, baselines)) == []
    assert cycle_stopped_due(view(STOPPED + timedelta(minutes=30), meter(), off), baselines) is None
    # The pump's plug switched off with it: the season still explains it.
    assert (
        list(cycle_stopped(view(STOPPED + timedelta(days=3), meter(), off, plug_off()), baselines))
        == []
    )


def with_one_long_rest() -> HomeBaselines:
    """As ``stopped``, but on day 5 the freezer rested 95 min once, 06:20-07:55 (the door
    shut after a big shop), then ran until 08:20."""
    baselines = habits(5)
    day = DAY0 + timedelta(days=5)
    for hour in range(11):
        if hour != 7:
            baselines.observe(day + timedelta(hours=hour), METER, "85.0")
        else:
            baselines.observe(day + timedelta(hours=hour, minutes=55), METER, "85.0")
        baselines.observe(day + timedelta(hours=hour, minutes=20), METER, "1.5")
    baselines.observe(STOPPED, METER, "0.0")
    return baselines


def test_one_long_rest_does_not_set_the_limit_three_times_over() -> None:
    """Rests of 40 min, once 95: idle is told past one and a half times that one rest
    (2 h 22 min 30 s), not past three times it (4 h 45)."""
    baselines = with_one_long_rest()
    assert max(bucket[2] for bucket in baselines.durations.stays[METER]["idle"]) == 95.0
    limit = timedelta(minutes=142.5)
    assert cycle_stopped_due(view(STOPPED + timedelta(minutes=30), meter()), baselines) == (
        STOPPED + limit
    )
    assert list(cycle_stopped(view(STOPPED + limit, meter()), baselines)) == []
    [finding] = cycle_stopped(view(STOPPED + limit + timedelta(minutes=1), meter()), baselines)
    assert "usually starts again within 1 h 35 min" in finding.reasoning


def test_a_rest_within_three_times_the_usual_is_not_told() -> None:
    """Rests of 40 min: the limit is three times their mean, 2 h; at 1 h 55 not told."""
    baselines = stopped(habits(5))
    assert list(cycle_stopped(view(STOPPED + timedelta(minutes=115), meter()), baselines)) == []
    assert list(cycle_stopped(view(STOPPED + timedelta(minutes=125), meter()), baselines))


def _on_relay(state: object, device: str = "relay") -> object:
    """``state`` as an entity of one registry device (a two-channel relay)."""
    return replace(state, info=replace(state.info, device=device))  # type: ignore[attr-defined]


def test_on_a_two_channel_relay_the_meters_own_channel_is_the_first_off() -> None:
    """walk30: the fridge's channel turned off at the rest, the lamp's channel off since a
    few minutes before it: the fridge's own switch is told, never the lamp's."""
    baselines = stopped(habits(5))
    own = _on_relay(since(entity(PLUG, "off", area="Garage"), STOPPED))
    lamp = _on_relay(since(entity("switch.garage_lamp", "off", area="Garage"), STOPPED - MIN5))
    fridge = _on_relay(meter())
    [finding] = cycle_stopped(view(STOPPED + MIN1, lamp, fridge, own), baselines)
    assert finding.evidence == (PLUG, METER)
    assert finding.severity == Severity.HIGH
    # The fridge's own channel on: its rest is a rest, whatever the lamp's channel does.
    on = _on_relay(since(entity(PLUG, "on", area="Garage"), DAY0))
    assert list(cycle_stopped(view(STOPPED + MIN1, lamp, fridge, on), baselines)) == []


def test_a_switch_still_being_learned_is_no_first_off() -> None:
    """A light switch of the fridge's room, watched since this morning, turned off minutes
    before the compressor's ordinary rest: no days learned say it is never off, so the
    rest is judged by the fridge's own cycle (not told at once, high)."""
    baselines = stopped(habits(5))
    light = "switch.garage_light"
    baselines.watching([light], STOPPED - timedelta(hours=3))
    off = since(entity(light, "off", area="Garage"), STOPPED - MIN5)
    assert list(cycle_stopped(view(STOPPED + MIN1, meter(), off), baselines)) == []
    assert cycle_stopped_due(view(STOPPED + MIN1, meter(), off), baselines) != STOPPED - MIN5
