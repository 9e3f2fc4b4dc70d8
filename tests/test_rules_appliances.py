"""A fridge or freezer whose compressor stopped cycling; a fridge running is not 'in use'."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from custom_components.anomaly_monitor.core.rules.appliances import fridge_stopped_cycling
from custom_components.anomaly_monitor.core.rules.occupancy import appliance_active_while_away

from .core_factories import entity, environment, home, steps

START = datetime(2025, 3, 12, 6, 0)
FRIDGE = entity(
    "sensor.kitchen_fridge_power", "0.0", area="Kitchen", device_class="power", unit="W"
)


def _at(minutes: float) -> datetime:
    return START + timedelta(minutes=minutes)


def test_a_fridge_silent_for_two_hours_is_told_a_resting_one_is_not() -> None:
    cycling = [(m, FRIDGE.entity_id, "85" if m % 60 == 0 else "1.5") for m in range(0, 181, 20)]
    resting = steps(START, [*cycling, (190, FRIDGE.entity_id, "1.2")])
    fridge = replace(FRIDGE, state="1.2", last_changed=_at(190))
    assert not list(fridge_stopped_cycling(home([fridge], environment(_at(235)), resting)))
    # Dead at 180: one reading of 0 W, then nothing.
    dead = steps(START, [*cycling, (185, FRIDGE.entity_id, "0.0")])
    fridge = replace(FRIDGE, last_changed=_at(185))
    assert not list(fridge_stopped_cycling(home([fridge], environment(_at(280)), dead)))
    (finding,) = fridge_stopped_cycling(home([fridge], environment(_at(306)), dead))
    assert finding.evidence == (FRIDGE.entity_id,)
    assert finding.magnitude is not None
    assert finding.magnitude >= 120
    # A meter that is not a fridge's (a washer) idles for days.
    washer = entity("sensor.washer_power", "0.0", area="Utility", device_class="power")
    washer = replace(washer, last_changed=_at(0))
    assert not list(fridge_stopped_cycling(home([washer], environment(_at(600)))))


def test_a_fridge_compressor_is_not_an_appliance_in_use_while_away() -> None:
    running = replace(FRIDGE, state="130")
    assert not list(appliance_active_while_away(home([running], environment(persons_home=0))))
    oven = entity("sensor.oven_power", "2400", area="Kitchen", device_class="power", unit="W")
    assert list(appliance_active_while_away(home([running, oven], environment(persons_home=0))))
