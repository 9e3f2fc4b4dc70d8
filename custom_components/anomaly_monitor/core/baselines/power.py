"""A power meter's reading as *running* or *idle*, so its cycle can be learned as states.

HA's vocabulary only: a ``sensor`` of device_class ``power``, its unit of measurement. A
compressor, pump or heater draws tens of watts or more when it runs; under
``RUNNING_WATTS`` (standby, electronics at rest) the appliance is idle. The spells are kept
by ``StateDurations`` like any state (``RUNNING``/``IDLE``), which gives the appliance's
cycle: how long it usually runs, and how long it rests between runs.
"""

from __future__ import annotations

from ..power_units import RUNNING_WATTS, watts

__all__ = [
    "HEATING_WATTS",
    "IDLE",
    "RUNNING",
    "heating_key",
    "power_state",
    "running_key",
    "watts",
]

RUNNING = "running"
IDLE = "idle"
# A heating element's draw (a heater, a hob, a washer heating its water): electronics and
# compressors draw far less.
HEATING_WATTS = 1000.0


def heating_key(entity_id: str) -> str:
    """Where ``StateDurations`` keeps a meter's heating spells (drawing ``HEATING_WATTS``
    without a break), apart from its runs: a washer heats its water for 15 min of a wash."""
    return f"{entity_id}#heating"


def running_key(entity_id: str) -> str:
    """Where ``NumericRanges`` keeps a meter's draws while it runs, apart from its readings
    at rest (``running_draw``)."""
    return f"{entity_id}#running"


def power_state(value: float, unit: str | None) -> str | None:
    """``RUNNING``, ``IDLE``, or None when the unit is not one of power."""
    reading = watts(value, unit)
    if reading is None:
        return None
    return RUNNING if reading >= RUNNING_WATTS else IDLE
