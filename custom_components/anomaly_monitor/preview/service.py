"""``anomaly_monitor.preview``: what the current options would have told about the last days.

Admin only (it reads the whole home's history). It replays the last ``days`` (1-30) of
this home's recorder through the monitor's own code (:mod:`.run`) and returns
every notification it would have sent, per day, entity and rule, without notifying,
pushing, raising a repair issue or firing an event. One preview at a time: it runs for
seconds to minutes, reading the recorder a few hours at a time, while HA serves everybody
else.
"""

from __future__ import annotations

from homeassistant.core import HomeAssistant, ServiceCall, ServiceResponse, SupportsResponse
from homeassistant.helpers import config_validation as cv
from homeassistant.helpers.service import async_register_admin_service
from homeassistant.util.hass_dict import HassKey
import voluptuous as vol

from ..actions.errors import InvalidActionInput
from ..actions.services import loaded_entry
from ..const import ATTR_CONFIG_ENTRY_ID, DOMAIN
from .run import PreviewRun

SERVICE_PREVIEW = "preview"
ATTR_DAYS = "days"
DEFAULT_PREVIEW_DAYS = 7
MAX_PREVIEW_DAYS = 30
PREVIEW_RUNNING: HassKey[bool] = HassKey(f"{DOMAIN}_preview_running")

PREVIEW_SCHEMA = vol.Schema(
    {
        vol.Optional(ATTR_CONFIG_ENTRY_ID): cv.string,
        vol.Optional(ATTR_DAYS, default=DEFAULT_PREVIEW_DAYS): vol.All(
            vol.Coerce(int), vol.Range(min=1, max=MAX_PREVIEW_DAYS)
        ),
    }
)


async def _async_preview(call: ServiceCall) -> ServiceResponse:
    hass = call.hass
    entry = loaded_entry(hass, call)
    if "recorder" not in hass.config.components:
        raise InvalidActionInput("preview_no_recorder")
    if hass.data.get(PREVIEW_RUNNING):
        raise InvalidActionInput("preview_running")
    hass.data[PREVIEW_RUNNING] = True
    try:
        result = await PreviewRun(hass, entry, call.data[ATTR_DAYS]).async_run()
    finally:
        hass.data[PREVIEW_RUNNING] = False
    return result.as_dict()


def async_register_preview_service(hass: HomeAssistant) -> None:
    """Register ``anomaly_monitor.preview`` (administrators only)."""
    async_register_admin_service(
        hass,
        DOMAIN,
        SERVICE_PREVIEW,
        _async_preview,
        schema=PREVIEW_SCHEMA,
        supports_response=SupportsResponse.ONLY,
    )
