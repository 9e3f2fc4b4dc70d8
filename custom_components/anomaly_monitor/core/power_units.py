"""A power meter's reading in watts, and the load at which an appliance runs.

HA's vocabulary only: a ``sensor`` of device_class ``power`` and its unit of measurement.
"""

from __future__ import annotations

# A compressor, pump or heater draws tens of watts or more when it runs; below this the
# appliance is idle (standby, electronics at rest) or dead.
RUNNING_WATTS = 10.0
# HA's power units, in watts (a meter without a unit is taken to read watts).
_WATTS_PER_UNIT = {None: 1.0, "W": 1.0, "kW": 1e3, "MW": 1e6, "GW": 1e9, "mW": 1e-3}


def watts(value: float, unit: str | None) -> float | None:
    """``value`` in watts, or None when the unit is not one of power."""
    factor = _WATTS_PER_UNIT.get(unit)
    return None if factor is None else value * factor
