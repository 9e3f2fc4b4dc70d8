"""A meter that never rests is no appliance somebody switched on (core).

Set 13: a Deye inverter's load output (460-880 W, day and night, never idle), watched once
every power meter was, was told three times as "appliances draw power while nobody is
home". A meter seen for a day or more without one idle reading (an inverter's load, a
whole home's meter, a server's plug) says nothing of anyone in; a load that rests does.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.combined_detector import CombinedDetector
from custom_components.anomaly_monitor.core.models import EntityInfo, Finding, Transition
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity, environment

DAY0 = datetime(2026, 6, 8, tzinfo=UTC)
BEA = "person.bea"
LOAD = "sensor.deye_load_power"


def _findings(rests: bool) -> list[Finding]:
    baselines = HomeBaselines(UTC)
    baselines.describe(
        [EntityInfo(LOAD, "Deye Load Power", area="Store", device_class="power", unit="W"),
         EntityInfo(BEA, "Bea")]
    )  # fmt: skip
    baselines.watching([LOAD, BEA], DAY0 - timedelta(days=7))
    baselines.learn(Transition(DAY0, BEA, "home"))
    for step in range(3 * 48):
        when = DAY0 + timedelta(minutes=30 * step)
        idle = rests and not 18 <= when.hour < 22  # an evening load
        value = "0.0" if idle else ("460" if step % 2 else "880")
        baselines.learn(Transition(when, LOAD, value, "Store"))
        baselines.advance(when)
    now = DAY0 + timedelta(days=3, hours=11, minutes=30)
    shown = [Transition(now - timedelta(hours=2), BEA, "not_home")]
    shown.append(Transition(now - timedelta(minutes=30), LOAD, "720", "Store"))
    for transition in shown:
        baselines.learn(transition)
    baselines.advance(now)
    states = [entity(LOAD, "720", area="Store", device_class="power", unit="W")]
    states.append(entity(BEA, "not_home"))
    window = build_window(
        states, environment(now, persons_home=0), shown, start=now - timedelta(hours=5)
    )
    detector = CombinedDetector(baselines=lambda: baselines)
    return [f for f in detector.findings(window) if f.rule == "appliance_active_while_away"]


def test_a_meter_that_never_rests_is_not_a_sign_of_anyone_in() -> None:
    assert _findings(rests=False) == []


def test_a_load_that_rests_is_still_told() -> None:
    assert len(_findings(rests=True)) == 1
