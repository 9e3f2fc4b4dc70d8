"""Air unhealthy to breathe for everybody: the one level every home shares.

The US EPA's "unhealthy" breakpoints (AQI 151+; PM in µg/m³): not the sensitive groups'
level, the one at which the air harms anyone breathing it. Read by the air-quality check
(``baselines/air_quality``), by the watcher (a reading entering it is analysed at once)
and by the smoke detector's check (smoke and such air at once are one smoke).
"""

from __future__ import annotations

from .models import EntityState

UNHEALTHY = {"pm25": 55.5, "pm10": 255.0, "aqi": 151.0}


def unhealthy_level(device_class: object) -> float | None:
    """The unhealthy level of an air-quality device class; None for anything else."""
    return UNHEALTHY.get(device_class) if isinstance(device_class, str) else None


def reads_unhealthy(state: EntityState) -> bool:
    """An air-quality sensor reading air unhealthy for everybody now."""
    level = unhealthy_level(state.info.device_class)
    return level is not None and state.number is not None and state.number >= level
