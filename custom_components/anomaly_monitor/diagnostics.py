"""Diagnostics: what the monitor watches, found and was told, with secrets redacted."""

from __future__ import annotations

from typing import Any

from homeassistant.core import HomeAssistant

from .core.phoneless_residents import has_phoneless_resident
from .flows.role_review import diagnostics_rows, rows_of
from .redaction import redacted_config
from .runtime import AnomalyMonitorConfigEntry


async def async_get_config_entry_diagnostics(
    hass: HomeAssistant, entry: AnomalyMonitorConfigEntry
) -> dict[str, Any]:
    """Everything needed to understand a verdict, without secrets.

    The API key, profile and notify targets are redacted, URLs lose their credentials, and
    the verdict and anomalies are scrubbed once more (model text may echo the profile).
    """
    runtime = entry.runtime_data
    data = runtime.coordinator.current_data()
    baselines = runtime.baselines.summary() if runtime.baselines else None
    if baselines is not None and data.learning is not None:
        # The count and date the *Devices still being learned* sensor shows (persons and
        # trackers are followed, not learned), not a second figure for the same thing.
        baselines["entities_still_learning"] = len(data.learning)
        baselines["learning_until"] = (
            max(data.learning.values()).isoformat() if data.learning else None
        )
    return {
        "entry": {
            "data": redacted_config(entry.data),
            "options": redacted_config(entry.options),
        },
        **data.diagnostics(runtime.coordinator.redactor.data),
        "baselines": baselines,
        # What the monitor takes each device for (ids and roles only, never names).
        "device_roles": diagnostics_rows(rows_of(runtime)),
        "household": _household(entry),
    }


def _household(entry: AnomalyMonitorConfigEntry) -> dict[str, Any]:
    """Whether the running monitor counts on somebody home without a tracked phone, and
    whose word that is: the setting's count, or the profile's (a yes or no; never its text)."""
    coordinator = entry.runtime_data.coordinator
    count = coordinator.phoneless_residents
    return {
        "somebody_without_tracked_phone": has_phoneless_resident(coordinator.profile, count),
        "said_by": "setting" if count is not None else "household profile",
    }
