"""``anomaly_monitor.replay_sample``: judge one replayed sample in a replay entry.

Admin only. The call carries the sample's entry options, its areas, the states present
before the monitor starts (``before``), the state changes it watches (``steps``, each at
its own time) and the clock to analyse at. A state is ``[entity_id, state, n, timestamp]``
with its attributes at index ``n`` of ``attributes`` (traces repeat a few attribute sets
thousands of times). The entry is unloaded, given the options,
loaded again (the call waits for it, bounded) and the verdict is returned, so a client
never races a reload. Calls a client pipelines run one after another, in arrival order.
It only ever touches a replay entry (see dev_replay/entry.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
import math
from typing import Any

from homeassistant.config_entries import ConfigEntry, ConfigEntryState
from homeassistant.core import HomeAssistant, ServiceCall, ServiceResponse, SupportsResponse
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import config_validation as cv
from homeassistant.helpers.service import async_register_admin_service
from homeassistant.util import dt as dt_util
import voluptuous as vol

from ..actions.errors import InvalidActionInput
from ..const import ATTR_CONFIG_ENTRY_ID, CONF_NOTIFY, CONF_REPLAY, DOMAIN, SERVICE_REPLAY_SAMPLE
from ..core.detector import Detector
from ..core.llm.hybrid_detector import HybridDetector
from .entry import ReplayCoordinator, is_replay_entry
from .home import ReplaySession, replay_session

# Longest wait for a replay entry to load (a local model may start with it).
LOAD_TIMEOUT = 120.0


def _states(value: Any) -> list[tuple[str, str, int, float]]:
    """``[[entity_id, state, attributes index, timestamp], ...]``, checked cheaply.

    A trace has thousands of states: a voluptuous schema per state would cost more than
    judging the sample. The timestamp is the POSIX time HA's ``async_set`` takes.
    """
    if not isinstance(value, list):
        raise vol.Invalid("expected a list of [entity_id, state, attributes, timestamp]")
    states = []
    for item in value:
        if not (
            isinstance(item, list)
            and len(item) == 4
            and isinstance(item[0], str)
            and isinstance(item[1], str)
            and isinstance(item[2], int)
            and isinstance(item[3], int | float)
            and math.isfinite(item[3])
        ):
            raise vol.Invalid(f"not [entity_id, state, attributes, timestamp]: {item!r:.100}")
        states.append((item[0], item[1], item[2], float(item[3])))
    return states


REPLAY_SAMPLE_SCHEMA = vol.Schema(
    {
        vol.Required(ATTR_CONFIG_ENTRY_ID): cv.string,
        vol.Required("options"): dict,
        vol.Optional("areas", default={}): {cv.string: vol.Any(None, cv.string)},
        vol.Optional("attributes", default=[]): [dict],
        vol.Optional("before", default=[]): _states,
        vol.Optional("steps", default=[]): _states,
        vol.Required("at"): cv.datetime,
        vol.Optional("latitude"): vol.Coerce(float),
    }
)


def model_verdict(detector: Detector) -> dict[str, Any]:
    """The LLM's own verdict inside a hybrid detector, so one run scores both.

    The hybrid asks its LLM detector exactly as the LLM-only configuration does; only the
    merge differs. A model that failed is recorded as its error.
    """
    if not isinstance(detector, HybridDetector):
        return {}
    if detector.last_llm_error is not None:
        return {"model_error": str(detector.last_llm_error)}
    verdict = detector.last_llm_verdict
    return {"model_verdict": verdict.as_dict()} if verdict is not None else {}


async def _async_replay_sample(call: ServiceCall) -> ServiceResponse:
    hass = call.hass
    entry_id: str = call.data[ATTR_CONFIG_ENTRY_ID]
    entry = hass.config_entries.async_get_entry(entry_id)
    if entry is None or not is_replay_entry(entry):
        raise InvalidActionInput("not_a_replay_entry", entry_id=entry_id)
    session = replay_session(hass, entry_id)
    session.begin()
    try:
        async with session.lock:  # pipelined calls wait their turn, never interleave
            return await _async_judge_sample(hass, entry, session, call.data)
    finally:
        session.end()


async def _async_judge_sample(
    hass: HomeAssistant, entry: ConfigEntry, session: ReplaySession, data: Mapping[str, Any]
) -> ServiceResponse:
    """Reload the entry with the sample's options, feed its states, analyse at its clock."""
    if hass.config_entries.async_get_entry(entry.entry_id) is not entry:
        # Removed while this call waited its turn (the client stopped the replay).
        raise InvalidActionInput("not_a_replay_entry", entry_id=entry.entry_id)
    if entry.state is not ConfigEntryState.NOT_LOADED:
        await hass.config_entries.async_unload(entry.entry_id)
    options = {k: v for k, v in data["options"].items() if k != CONF_NOTIFY}
    hass.config_entries.async_update_entry(entry, options=options | {CONF_REPLAY: True})
    _start_sample(session, data)
    try:
        async with asyncio.timeout(LOAD_TIMEOUT):
            await hass.config_entries.async_setup(entry.entry_id)
    except TimeoutError:
        pass  # reported below with the state it is stuck in
    if entry.state is not ConfigEntryState.LOADED:
        raise HomeAssistantError(
            translation_domain=DOMAIN,
            translation_key="replay_not_loaded",
            translation_placeholders={
                "state": entry.state.value,
                "reason": str(entry.reason or "-"),
            },
        )
    coordinator = entry.runtime_data.coordinator
    assert isinstance(coordinator, ReplayCoordinator)
    for item in data["steps"]:
        if (change := _set(session, data, item)) is not None:
            coordinator.watcher.record(*change)
    session.clock = dt_util.as_utc(data["at"])
    result = await coordinator.async_analyze()
    return result.as_dict(session.states) | model_verdict(coordinator.detector)


def _start_sample(session: ReplaySession, data: Mapping[str, Any]) -> None:
    """A new home: no states but those present before the monitor starts."""
    session.states.clear()
    session.clock = None
    session.areas = dict(data["areas"])
    session.latitude = data.get("latitude")
    for item in data["before"]:
        _set(session, data, item)


def _set(session: ReplaySession, data: Mapping[str, Any], item: tuple[str, str, int, float]) -> Any:
    entity_id, state, attributes, timestamp = item
    table = data["attributes"]
    if not 0 <= attributes < len(table):
        raise InvalidActionInput(
            "replay_invalid_state", entity_id=entity_id, error=f"no attributes {attributes}"
        )
    try:
        return session.states.set(entity_id, state, table[attributes], timestamp)
    except HomeAssistantError as err:  # an invalid entity id or state
        raise InvalidActionInput(
            "replay_invalid_state", entity_id=entity_id, error=str(err)
        ) from err


def async_register_replay_service(hass: HomeAssistant) -> None:
    """Register ``anomaly_monitor.replay_sample`` (admin users only), once: only a replay
    entry's set-up calls this, and the last one's removal takes it away."""
    if hass.services.has_service(DOMAIN, SERVICE_REPLAY_SAMPLE):
        return
    async_register_admin_service(
        hass,
        DOMAIN,
        SERVICE_REPLAY_SAMPLE,
        _async_replay_sample,
        schema=REPLAY_SAMPLE_SCHEMA,
        supports_response=SupportsResponse.ONLY,
    )
