"""Semantic rules over a home's snapshot, written in Home Assistant's vocabulary.

A rule is a function ``rule(home) -> Iterable[Finding]``. Rules reason about domain,
device_class, unit, area, occupancy and time, never about a particular home's names,
so they work in any home. One module per family.

A finding that is a matter of degree carries a ``magnitude`` (each rule's docstring says
what it measures), so a false-alarm mark suppresses only findings no more extreme than
the marked one. Rules about a kind of situation leave it ``None``: a hazard detected, a
door open or unlocked while away, an alarm disarmed or triggered, a camera off, HVAC
against its mode or heating and cooling at once or with a window open, a device
unavailable, a leak alarm on a dry floor, motion while away.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..home import HomeView
from ..models import Finding
from .appliances import fridge_stopped_cycling
from .device_health import (
    detector_contradicts_level,
    device_unavailable,
    leak_alarm_without_water,
    opening_contradicts_angle,
    outlet_off_but_drawing_power,
)
from .hvac import (
    heating_and_cooling_in_one_area,
    hvac_action_contradicts_mode,
    hvac_not_responding,
    hvac_overshooting_target,
    hvac_with_opening_open,
)
from .left_unlocked import left_unlocked_while_away
from .lock_jammed import lock_jammed
from .occupancy import appliance_active_while_away, motion_while_away
from .physical import reading_outside_physical_range, room_temperature_out_of_line
from .room_extremes import room_heat_fire_risk, room_too_cold, room_too_hot
from .safety import hazard_detected, hazard_level_without_alarm, window_open_in_wet_weather
from .security import (
    alarm_disarmed_while_away,
    alarm_triggered_without_cause,
    entry_unsecured_while_away,
    garage_open_while_protected,
    surveillance_off_while_away,
)
from .supply_lost import supply_lost

Rule = Callable[[HomeView], Iterable[Finding]]

ALL_RULES: tuple[Rule, ...] = (
    # safety
    hazard_detected,
    hazard_level_without_alarm,
    room_heat_fire_risk,
    room_too_hot,
    room_too_cold,
    window_open_in_wet_weather,
    # security
    left_unlocked_while_away,  # before the entrance rule: of equal findings, it leads
    entry_unsecured_while_away,
    alarm_disarmed_while_away,
    surveillance_off_while_away,
    garage_open_while_protected,
    alarm_triggered_without_cause,
    lock_jammed,
    # hvac
    hvac_action_contradicts_mode,
    hvac_overshooting_target,
    hvac_not_responding,
    heating_and_cooling_in_one_area,
    hvac_with_opening_open,
    # physical
    reading_outside_physical_range,
    room_temperature_out_of_line,
    # device health
    device_unavailable,
    fridge_stopped_cycling,
    opening_contradicts_angle,
    outlet_off_but_drawing_power,
    detector_contradicts_level,
    leak_alarm_without_water,
    supply_lost,
    # occupancy
    motion_while_away,
    appliance_active_while_away,
)

__all__ = ["ALL_RULES", "Rule"]
