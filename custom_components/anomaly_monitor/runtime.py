"""What a loaded entry owns, kept in its typed runtime data."""

from __future__ import annotations

from dataclasses import dataclass

from homeassistant.config_entries import ConfigEntry

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
