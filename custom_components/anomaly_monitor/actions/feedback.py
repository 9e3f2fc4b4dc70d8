"""Actions over the homeowner's false-alarm marks: list them, remove one or all.

Administrators only, like the repair issue's fix flow that makes the marks: a mark decides
what the home is told about.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from homeassistant.core import HomeAssistant, ServiceCall, ServiceResponse, SupportsResponse
from homeassistant.helpers import config_validation as cv
from homeassistant.helpers.service import async_register_admin_service
import voluptuous as vol

from ..anomalies.tracker import mark_key
from ..const import ATTR_CONFIG_ENTRY_ID, DOMAIN
from ..coordinator import AnomalyMonitorCoordinator
from ..core.feedback import FalseAlarm
from .errors import InvalidActionInput
from .services import loaded_entry

SERVICE_LIST_FALSE_ALARMS = "list_false_alarms"
SERVICE_REMOVE_FALSE_ALARM = "remove_false_alarm"
ATTR_FALSE_ALARM_ID = "false_alarm_id"
REMOVE_ALL = "all"

LIST_SCHEMA = vol.Schema({vol.Optional(ATTR_CONFIG_ENTRY_ID): cv.string})
REMOVE_SCHEMA = vol.Schema(
    {vol.Optional(ATTR_CONFIG_ENTRY_ID): cv.string, vol.Required(ATTR_FALSE_ALARM_ID): cv.string}
)


def describe_mark(mark: FalseAlarm, coordinator: AnomalyMonitorCoordinator) -> dict[str, Any]:
    """What a false alarm says, for the action's response and the options flow."""
    rule, _, subject = mark.signature.partition(":")
    expires = mark.expires_at(coordinator.tracker.mark_lifetime)
    return {
        "false_alarm_id": mark_key(mark),
        "rule": rule,
        # Every rule that told the marked incident: none of them tells it again.
        "rules": [m.rule for m in coordinator.tracker.marked_with(mark)],
        "subject": subject,
        "anomaly_type": mark.anomaly_type,
        "evidence": list(mark.evidence),
        "reasoning": coordinator.redactor.text(mark.reasoning),
        "magnitude": mark.magnitude,
        "marked_at": mark.marked_at,
        "expires_at": expires.isoformat() if isinstance(expires, datetime) else None,
    }


async def _async_list(call: ServiceCall) -> ServiceResponse:
    """Every false-alarm mark of a monitor, newest first."""
    coordinator = loaded_entry(call.hass, call).runtime_data.coordinator
    return {"false_alarms": [describe_mark(m, coordinator) for m in coordinator.tracker.marks()]}


async def _async_remove(call: ServiceCall) -> None:
    """Forget one mark (or every mark with ``all``): its pattern is reported again."""
    coordinator = loaded_entry(call.hass, call).runtime_data.coordinator
    wanted: str = call.data[ATTR_FALSE_ALARM_ID]
    if wanted == REMOVE_ALL:
        coordinator.async_clear_false_alarms()
    elif not coordinator.async_remove_false_alarm(wanted):
        raise InvalidActionInput("false_alarm_not_found", false_alarm_id=wanted)


def async_setup_feedback_services(hass: HomeAssistant) -> None:
    """Register the two actions once, whatever the number of entries."""
    async_register_admin_service(
        hass,
        DOMAIN,
        SERVICE_LIST_FALSE_ALARMS,
        _async_list,
        LIST_SCHEMA,
        supports_response=SupportsResponse.ONLY,
    )
    async_register_admin_service(
        hass, DOMAIN, SERVICE_REMOVE_FALSE_ALARM, _async_remove, REMOVE_SCHEMA
    )
