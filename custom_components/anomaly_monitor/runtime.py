"""What a loaded entry owns, kept in its typed runtime data."""

from __future__ import annotations

from dataclasses import dataclass

from homeassistant.config_entries import ConfigEntry
from homeassistant.core import HomeAssistant

from .backends import llm_detector_of
from .backends.detection import async_create_detectors
from .coordinator import AnomalyMonitorCoordinator
from .core.llm.backend import LLMBackend
from .recorder.baseline_keeper import BaselineKeeper

type AnomalyMonitorConfigEntry = ConfigEntry[AnomalyMonitorRuntimeData]


@dataclass(slots=True)
class AnomalyMonitorRuntimeData:
    """Everything a loaded entry owns."""

    coordinator: AnomalyMonitorCoordinator
    backend: LLMBackend | None = None  # also plans instructions (check_instruction)
    baselines: BaselineKeeper | None = None  # the home's learned normal


async def async_build_runtime(
    hass: HomeAssistant, entry: AnomalyMonitorConfigEntry
) -> AnomalyMonitorRuntimeData:
    """Everything a homeowner's monitor owns, built at once (nothing runs yet: the
    coordinator starts it, ``AnomalyMonitorCoordinator.async_start``).

    The home's learned normal is read by every detector kind and by the coordinator (what
    waits while it is learned, what a false-alarm mark teaches it)."""
    keeper = BaselineKeeper(hass, entry)
    detector, fallback = await async_create_detectors(hass, entry, keeper.current)
    llm = llm_detector_of(detector)
    return AnomalyMonitorRuntimeData(
        coordinator=AnomalyMonitorCoordinator(hass, entry, detector, fallback, keeper),
        backend=llm.backend if llm else None,
        baselines=keeper,
    )
