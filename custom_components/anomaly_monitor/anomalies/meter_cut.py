"""A power or current meter at rest: its last change is when it was cut.

A thermometer's last change says nothing of when its problem began (it drifts on); a
meter that reads no draw and has not changed since was switched off, unplugged or cut
then (set 13: the dehumidifier smoking, unplugged three minutes after the alarm).
"""

from __future__ import annotations

from ..core.current_as_power import EUROPEAN_MAINS_VOLTS
from ..core.models import EntityState
from ..core.power_units import RUNNING_WATTS, watts

_AMPS_PER_UNIT = {None: 1.0, "A": 1.0, "mA": 1e-3}


def cut_meter(state: EntityState) -> bool:
    """A sensor of power (or current) reading less than an appliance runs at."""
    value = state.number
    if value is None or state.domain != "sensor":
        return False
    unit = state.info.unit
    if state.info.device_class == "power":
        drawn = watts(value, unit)
    elif state.info.device_class == "current" and unit in _AMPS_PER_UNIT:
        drawn = value * _AMPS_PER_UNIT[unit] * EUROPEAN_MAINS_VOLTS
    else:
        return False
    return drawn is not None and drawn < RUNNING_WATTS
