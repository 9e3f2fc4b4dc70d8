"""Fix flow of an anomaly's repair issue: acknowledge it, or mark it as a false alarm."""

from __future__ import annotations

from typing import Any

from homeassistant import data_entry_flow
from homeassistant.components.repairs import RepairsFlow
from homeassistant.config_entries import ConfigEntryState
from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir

from .const import DOMAIN
from .coordinator import AnomalyMonitorCoordinator
from .runtime import AnomalyMonitorConfigEntry


class AnomalyRepairFlow(RepairsFlow):
    """Asks the homeowner what to do about one anomaly."""

    def __init__(self, entry_id: str, anomaly_id: str) -> None:
        self.entry_id = entry_id
        self.anomaly_id = anomaly_id

    def _coordinator(self) -> AnomalyMonitorCoordinator | None:
        entry: AnomalyMonitorConfigEntry | None = self.hass.config_entries.async_get_entry(
            self.entry_id
        )
        if entry is None or entry.state is not ConfigEntryState.LOADED:
            return None
        return entry.runtime_data.coordinator

    async def async_step_init(
        self, user_input: dict[str, str] | None = None
    ) -> data_entry_flow.FlowResult:
        """Offer the two choices, saying what each does (the issue's words and evidence)."""
        issue = ir.async_get(self.hass).async_get_issue(
            DOMAIN, f"anomaly_{self.entry_id}_{self.anomaly_id}"
        )
        return self.async_show_menu(
            step_id="init",
            menu_options=["acknowledge", "false_alarm"],
            description_placeholders=dict(issue.translation_placeholders or {}) if issue else None,
        )

    async def async_step_acknowledge(
        self, user_input: dict[str, Any] | None = None
    ) -> data_entry_flow.FlowResult:
        """Seen: keep watching, do not ask again while it lasts."""
        if (coordinator := self._coordinator()) is None:
            return self.async_abort(reason="not_loaded")
        coordinator.async_acknowledge(self.anomaly_id)
        return self.async_create_entry(data={})

    async def async_step_false_alarm(
        self, user_input: dict[str, Any] | None = None
    ) -> data_entry_flow.FlowResult:
        """Not a problem: suppress this pattern from now on."""
        if (coordinator := self._coordinator()) is None:
            return self.async_abort(reason="not_loaded")
        coordinator.async_mark_false_alarm(self.anomaly_id)
        return self.async_create_entry(data={})


async def async_create_fix_flow(
    hass: HomeAssistant, issue_id: str, data: dict[str, str | int | float | None] | None
) -> RepairsFlow:
    """Create the fix flow of an anomaly issue."""
    data = data or {}
    return AnomalyRepairFlow(str(data.get("entry_id", "")), str(data.get("anomaly_id", "")))
