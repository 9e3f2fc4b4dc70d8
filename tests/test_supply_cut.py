"""Plugs and relays gone at one moment while Home Assistant stays up (on an inverter): a
power cut, told by what it costs (a freezer cycling day and night, without power past its
own rest limit), not as devices "offline together" at their grace (core, no Home
Assistant). Mylapore, set 30: the feeder cut took the water heater's, the pump's and the
fridge's plugs for five hours; told at 30 min as six devices offline."""

from __future__ import annotations

from datetime import timedelta

from custom_components.anomaly_monitor.core.baselines.supply_cut import cut_devices
from custom_components.anomaly_monitor.core.baselines.usual_judge import judged_by_usual
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import AnomalyType, Finding, Severity

from .core_factories import entity, environment, window
from .test_baselines_cycle_reasons import STOPPED, stopped
from .test_baselines_long_stays import METER, WASHER, habits, since, view

CUT = STOPPED + timedelta(minutes=10)
LOCK = "lock.front"


def _offline(*entities: str) -> Finding:
    return Finding(
        rule="device_unavailable",
        evidence=entities,
        reasoning="… went offline together and cannot be read right now.",
        anomaly_type=AnomalyType.DEVICE_MALFUNCTION,
        severity=Severity.MEDIUM,
        recommendation="Check the device's power, battery and connection.",
    )


def _states(*entities: str) -> list[object]:
    classes = {METER: "power", WASHER: "power"}
    return [
        since(
            entity(e, "unavailable", area="Garage", device_class=classes.get(e), unit="W"),
            CUT,
        )
        for e in entities
    ]


def test_a_cut_is_told_only_for_the_freezer_past_its_own_rest_limit() -> None:
    """The freezer rests 40 min between runs: nothing at 1 h, told by name at 2 h 10 min
    (three times its rests), the washer beside it named as gone at the same moment.
    Fails before: the two meters were told together at the half-hour grace."""
    baselines = stopped(habits(5))
    finding = _offline(METER, WASHER)
    early = view(CUT + timedelta(hours=1), *_states(METER, WASHER))
    assert judged_by_usual(finding, baselines, early) is None
    late = view(CUT + timedelta(hours=2, minutes=10), *_states(METER, WASHER))
    told = judged_by_usual(finding, baselines, late)
    assert told is not None
    assert told.evidence == (METER,)
    assert "has had no power since 10:30 (2 h 10 min)" in told.reasoning
    assert "a power cut" in told.reasoning
    assert "never rested longer than 40 min" in told.reasoning


def test_a_cut_of_loads_that_rest_for_hours_is_not_told() -> None:
    """The washer alone with another load of hours-long rests: nothing to tell for the cut."""
    baselines = stopped(habits(5))
    other = "sensor.plug_9_power"
    finding = _offline(WASHER, other)
    states = [*_states(WASHER), since(entity(other, "unavailable", device_class="power"), CUT)]
    assert judged_by_usual(finding, baselines, view(CUT + timedelta(hours=6), *states)) is None


def test_a_protective_device_or_one_device_is_no_cut() -> None:
    lock = since(entity(LOCK, "unavailable", area="Hall"), CUT)
    home = view(CUT + timedelta(hours=1), *_states(METER, WASHER), lock)
    assert cut_devices(_offline(METER, WASHER, LOCK), home) is None
    assert cut_devices(_offline(METER), home) is None
    assert cut_devices(_offline(METER, WASHER), home) is not None


def test_a_cut_in_an_empty_home_is_not_held_for_its_cost() -> None:
    """Everybody away: nobody knows of the cut, so it is judged as devices offline (the
    outage rules' grace), never held back as a cut until the freezer's rest limit. Fails
    before: the freezer's cut text at 2 h 10 min whoever was home."""
    baselines = stopped(habits(5))
    finding = _offline(METER, WASHER)
    states = _states(METER, WASHER)
    late = HomeView(
        window(states, environment(CUT + timedelta(hours=2, minutes=10), persons_home=0))
    )
    assert late.nobody_home
    told = judged_by_usual(finding, baselines, late)
    assert told is None or "a power cut" not in told.reasoning
