"""The integration's actions and how they find the monitor a call names.

Who may call what (see the README's security section): ``analyze`` refreshes the
monitor's entities now, and may open anomalies that notify and fire events, so, as HA's
own ``homeassistant.update_entity``, it needs control permission on the monitor's entities
(not a read-only user); ``check_instruction`` runs with the caller's context and needs
their control permission on every entity it would act on (``actions/permissions.py``). Bad input
is an ``InvalidActionInput`` (``actions/errors.py``).
"""

from __future__ import annotations

from homeassistant.config_entries import ConfigEntryState
from homeassistant.core import (
    HomeAssistant,
    ServiceCall,
    ServiceResponse,
    SupportsResponse,
    callback,
)
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import config_validation as cv, entity_registry as er
import voluptuous as vol

from ..anomalies.finding_incident import with_incidents
from ..const import ATTR_CONFIG_ENTRY_ID, CONF_REPLAY, DOMAIN, SERVICE_ANALYZE
from ..runtime import AnomalyMonitorConfigEntry
from .errors import InvalidActionInput
from .permissions import async_require_control

ANALYZE_SCHEMA = vol.Schema({vol.Optional(ATTR_CONFIG_ENTRY_ID): cv.string})


def home_monitors(hass: HomeAssistant) -> list[AnomalyMonitorConfigEntry]:
    """The loaded monitors of the home: a running benchmark replay's entry is not one."""
    return [
        entry
        for entry in hass.config_entries.async_loaded_entries(DOMAIN)
        if not entry.options.get(CONF_REPLAY)
    ]


def loaded_entry_named(hass: HomeAssistant, entry_id: str) -> AnomalyMonitorConfigEntry:
    """The monitor entry ``entry_id``; a translated error unless it exists and is loaded."""
    entry = hass.config_entries.async_get_entry(entry_id)
    if entry is None or entry.domain != DOMAIN:
        raise InvalidActionInput("entry_not_found", entry_id=entry_id)
    if entry.state is not ConfigEntryState.LOADED:
        raise InvalidActionInput("entry_not_loaded", entry_id=entry_id)
    return entry


def loaded_entry(hass: HomeAssistant, call: ServiceCall) -> AnomalyMonitorConfigEntry:
    """The entry the call names, or the only loaded one."""
    entry_id: str | None = call.data.get(ATTR_CONFIG_ENTRY_ID)
    if entry_id is not None:
        return loaded_entry_named(hass, entry_id)
    loaded = home_monitors(hass)
    if not loaded:
        raise InvalidActionInput("no_entry_loaded")
    if len(loaded) > 1:
        raise InvalidActionInput("entry_required", count=str(len(loaded)))
    return loaded[0]


async def _async_analyze(call: ServiceCall) -> ServiceResponse:
    """Analyse the home now and return the verdict."""
    entry = loaded_entry(call.hass, call)
    registry = er.async_get(call.hass)
    own = [e.entity_id for e in er.async_entries_for_config_entry(registry, entry.entry_id)]
    await async_require_control(call.hass, call.context, own)
    coordinator = entry.runtime_data.coordinator
    try:
        result = await coordinator.async_analyze()
    except Exception as err:
        # Translated, scrubbed and without the original chained (HA logs the traceback).
        raise HomeAssistantError(
            translation_domain=DOMAIN,
            translation_key="analysis_failed",
            translation_placeholders={
                "error": coordinator.redactor.text(f"{type(err).__name__}: {err}")[:255]
            },
        ) from None
    coordinator.async_set_updated_data(coordinator.current_data())
    reply = result.as_dict(call.hass.states)
    if not entry.options.get(CONF_REPLAY):  # a replay's anomalies are nobody's incidents
        tracker = coordinator.tracker  # which incident each finding is a part of, open or over
        found = reply["verdict"]["findings"]
        with_incidents(found, tracker.open.values(), tracker.ended.values())
    return reply


@callback
def async_setup_services(hass: HomeAssistant) -> None:
    """Register the actions once, whatever the number of entries."""
    hass.services.async_register(
        DOMAIN,
        SERVICE_ANALYZE,
        _async_analyze,
        schema=ANALYZE_SCHEMA,
        supports_response=SupportsResponse.ONLY,
    )
