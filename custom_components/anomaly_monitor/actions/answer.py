"""Answer an anomaly by its id: ``acknowledge`` it, or ``mark_false_alarm``.

The repair issue's fix flow answers an anomaly while its issue is shown: while it lasts
and a day after it is over. A notification is often read later than that (set 27: a
water heater element told left on, acknowledged 31 hours after it cleared, and nothing
took the answer). These actions take the same answers by the anomaly's id (the
``anomaly_id`` of its ``anomaly_detected`` event, written at the foot of its
notification), open, over, or over for up to ``ANSWERABLE_FOR``, and do what the fix flow
does: acknowledged, the same trouble coming back is not told again; a false alarm marks
its pattern (a safety hazard's only this occurrence).

Who may answer: the caller needs control permission on the devices the anomaly names
(``actions/permissions.py``, the rule of Home Assistant's own entity actions); a household
member who may switch the water heater may say they saw it, a read-only user may not. An
id no loaded monitor knows (mistyped, or forgotten since) is a translated error; an
acknowledgement of one acknowledged already and over since is taken again, as done
(``already_answered``), by a caller who may act on the monitor's entry.
"""

from __future__ import annotations

from homeassistant.core import HomeAssistant, ServiceCall, ServiceResponse, SupportsResponse
from homeassistant.helpers import config_validation as cv
import voluptuous as vol

from ..anomalies.open_anomaly import OpenAnomaly
from ..const import ATTR_CONFIG_ENTRY_ID, DOMAIN
from ..runtime import AnomalyMonitorConfigEntry
from .errors import InvalidActionInput
from .permissions import async_require_control
from .services import home_monitors, loaded_entry_named

SERVICE_ACKNOWLEDGE = "acknowledge"
SERVICE_MARK_FALSE_ALARM = "mark_false_alarm"
ATTR_ANOMALY_ID = "anomaly_id"

ANSWER_SCHEMA = vol.Schema(
    {
        vol.Required(ATTR_ANOMALY_ID): vol.All(cv.string, vol.Strip, vol.Lower),
        vol.Optional(ATTR_CONFIG_ENTRY_ID): cv.string,
    }
)


def _answerable(entry: AnomalyMonitorConfigEntry, key: str) -> OpenAnomaly | None:
    tracker = entry.runtime_data.coordinator.tracker
    return tracker.by_key(key) or tracker.ended_by_key(key)


def _monitors(call: ServiceCall) -> list[AnomalyMonitorConfigEntry]:
    """The monitor the call names, or every loaded one."""
    entry_id: str | None = call.data.get(ATTR_CONFIG_ENTRY_ID)
    return [loaded_entry_named(call.hass, entry_id)] if entry_id else home_monitors(call.hass)


def _find(call: ServiceCall) -> tuple[AnomalyMonitorConfigEntry, OpenAnomaly]:
    """The monitor holding the anomaly the call names, and the anomaly."""
    key: str = call.data[ATTR_ANOMALY_ID]
    entries = _monitors(call)
    for entry in entries:
        if (anomaly := _answerable(entry, key)) is not None:
            return entry, anomaly
    raise InvalidActionInput("anomaly_not_found", anomaly_id=key)


async def _async_acknowledged_before(call: ServiceCall) -> ServiceResponse | None:
    """An acknowledgement of an anomaly acknowledged already (and forgotten since it
    ended): the same answer again, done, for a caller who may control what it named; None
    when no monitor took one for that id."""
    key: str = call.data[ATTR_ANOMALY_ID]
    entries = _monitors(call)
    for entry in entries:
        if (named := entry.runtime_data.coordinator.tracker.answered(key)) is not None:
            devices = [e for e in named if call.hass.states.get(e) is not None]
            await async_require_control(call.hass, call.context, devices)
            return {"anomaly_id": key, "answer": SERVICE_ACKNOWLEDGE, "already_answered": True}
    return None


async def _async_answer(call: ServiceCall, answer: str) -> ServiceResponse:
    try:
        entry, anomaly = _find(call)
    except InvalidActionInput:
        if (
            answer == SERVICE_ACKNOWLEDGE
            and (again := await _async_acknowledged_before(call)) is not None
        ):
            return again
        raise
    await async_require_control(call.hass, call.context, _devices(call.hass, anomaly))
    coordinator = entry.runtime_data.coordinator
    if answer == SERVICE_ACKNOWLEDGE:
        coordinator.async_acknowledge(anomaly.key)
    else:
        coordinator.async_mark_false_alarm(anomaly.key)
    return {
        "anomaly_id": anomaly.key,
        "answer": answer,
        "over": anomaly.ended is not None,
        # A hazard's false alarm dismisses this occurrence only: the next is told.
        "hazard": anomaly.hazard,
    }


def _devices(hass: HomeAssistant, anomaly: OpenAnomaly) -> list[str]:
    """The entities the anomaly names that exist in the home (the home as a whole or an
    area is no entity)."""
    named = dict.fromkeys((anomaly.subject, *anomaly.shown_evidence))
    return [e for e in named if hass.states.get(e) is not None]


async def _async_acknowledge(call: ServiceCall) -> ServiceResponse:
    """Seen: not asked again, and the same trouble is not told again while it lasts."""
    return await _async_answer(call, SERVICE_ACKNOWLEDGE)


async def _async_mark_false_alarm(call: ServiceCall) -> ServiceResponse:
    """Normal here: closed, and its pattern no longer reported (a hazard: this time)."""
    return await _async_answer(call, SERVICE_MARK_FALSE_ALARM)


def async_setup_answer_services(hass: HomeAssistant) -> None:
    """Register the two actions once, whatever the number of entries."""
    for name, handler in (
        (SERVICE_ACKNOWLEDGE, _async_acknowledge),
        (SERVICE_MARK_FALSE_ALARM, _async_mark_false_alarm),
    ):
        hass.services.async_register(
            DOMAIN,
            name,
            handler,
            schema=ANSWER_SCHEMA,
            supports_response=SupportsResponse.OPTIONAL,
        )
