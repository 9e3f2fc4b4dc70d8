"""A power meter's reading as *running* or *idle*, so its cycle can be learned as states.

HA's vocabulary only: a ``sensor`` of device_class ``power``, its unit of measurement. A
compressor, pump or heater draws tens of watts or more when it runs; under
``RUNNING_WATTS`` (standby, electronics at rest) the appliance is idle. The spells are kept
by ``StateDurations`` like any state (``RUNNING``/``IDLE``), which gives the appliance's
cycle: how long it usually runs, and how long it rests between runs.
"""

from __future__ import annotations

from ..rules.appliances import RUNNING_WATTS

RUNNING = "running"
IDLE = "idle"
# HA's power units, in watts (a meter without a unit is taken to read watts).
_WATTS_PER_UNIT = {None: 1.0, "W": 1.0, "kW": 1e3, "MW": 1e6, "GW": 1e9, "mW": 1e-3}


def watts(value: float, unit: str | None) -> float | None:
    """``value`` in watts, or None when the unit is not one of power."""
    factor = _WATTS_PER_UNIT.get(unit)
    return None if factor is None else value * factor


def power_state(value: float, unit: str | None) -> str | None:
    """``RUNNING``, ``IDLE``, or None when the unit is not one of power."""
    reading = watts(value, unit)
    if reading is None:
        return None
    return RUNNING if reading >= RUNNING_WATTS else IDLE
