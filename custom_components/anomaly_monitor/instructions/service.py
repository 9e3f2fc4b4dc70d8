"""The ``anomaly_monitor.check_instruction`` action: plan an instruction, refuse what the home
cannot do, and optionally run only the valid calls.

Planning reads the instruction with the deterministic parser and, when the named (or only)
monitor has an LLM backend, asks the LLM about the clauses the parser cannot read. Every
planned call is checked against the area registry, the entity registry, supported_features
and the entity's own ranges and options before it is returned or executed.
"""

from __future__ import annotations

from collections.abc import Callable
import logging
from typing import Any

from homeassistant.config_entries import ConfigEntry
from homeassistant.const import ATTR_AREA_ID, ATTR_DEVICE_ID, ATTR_ENTITY_ID
from homeassistant.core import (
    Context,
    HomeAssistant,
    ServiceCall,
    ServiceResponse,
    SupportsResponse,
    callback,
)
from homeassistant.exceptions import HomeAssistantError, Unauthorized
from homeassistant.helpers import config_validation as cv
import voluptuous as vol

from ..actions.errors import InvalidActionInput
from ..actions.permissions import async_require_control
from ..actions.services import home_monitors, loaded_entry_named
from ..const import ATTR_CONFIG_ENTRY_ID, DOMAIN
from ..core.instructions import InstructionPlan, PlannerMode, async_plan_instruction
from ..core.instructions.clauses import MAX_INSTRUCTION_LENGTH
from ..core.llm.backend import LLMBackend, LLMError
from .assist import async_assist_reader, async_speaker_area
from .home import async_build_home_capabilities

_LOGGER = logging.getLogger(__name__)

SERVICE_CHECK_INSTRUCTION = "check_instruction"
ATTR_INSTRUCTION = "instruction"
ATTR_EXECUTE = "execute"
ATTR_LANGUAGE = "language"  # of HA's sentence templates (default: HA's language)
PLANNER_TIMEOUT = 60.0

# Targets a call may name besides the planned entity: never taken from planned data, so
# the permission check sees every entity a call acts on.
_TARGET_KEYS = (ATTR_ENTITY_ID, ATTR_DEVICE_ID, ATTR_AREA_ID, "floor_id", "label_id")

CHECK_INSTRUCTION_SCHEMA = vol.Schema(
    {
        # Empty or too long: a translated error from the handler, not voluptuous' text.
        vol.Required(ATTR_INSTRUCTION): cv.string,
        vol.Optional(ATTR_EXECUTE, default=False): cv.boolean,
        # Where the request comes from (an Assist satellite's area, or its device's).
        vol.Optional(ATTR_AREA_ID): cv.string,
        vol.Optional(ATTR_DEVICE_ID): cv.string,
        vol.Optional(ATTR_LANGUAGE): cv.string,
        vol.Optional(ATTR_CONFIG_ENTRY_ID): cv.string,
    }
)

# How to find the LLM backend of the monitor a call names (None: no monitor is loaded or
# several are and none was named); the integration may pass its own.
BackendGetter = Callable[[ConfigEntry | None], LLMBackend | None]


def default_backend_getter(entry: ConfigEntry | None) -> LLMBackend | None:
    """The ``backend`` the entry's runtime data exposes, if it is an LLM backend."""
    if entry is None:
        return None
    runtime = getattr(entry, "runtime_data", None)
    backend = getattr(runtime, "backend", None)
    return backend if isinstance(backend, LLMBackend) else None


def _entry_for(
    hass: HomeAssistant, entry_id: str | None, backend_getter: BackendGetter
) -> ConfigEntry | None:
    """The named entry (it must exist and be loaded); unnamed, the one loaded monitor with a
    model (an error when several have one), else the only loaded one, else none."""
    if entry_id is not None:
        return loaded_entry_named(hass, entry_id)
    loaded = home_monitors(hass)
    with_model = [entry for entry in loaded if backend_getter(entry) is not None]
    if len(with_model) > 1:
        raise InvalidActionInput("entry_required", count=str(len(loaded)))
    if with_model:
        return with_model[0]
    return loaded[0] if len(loaded) == 1 else None


def _instruction(call: ServiceCall) -> str:
    """The call's instruction; a translated error when it is empty or too long."""
    instruction: str = call.data[ATTR_INSTRUCTION]
    if not instruction.strip():
        raise InvalidActionInput("instruction_empty")
    if len(instruction) > MAX_INSTRUCTION_LENGTH:
        raise InvalidActionInput("instruction_too_long", max_length=str(MAX_INSTRUCTION_LENGTH))
    return instruction


async def _async_execute(
    hass: HomeAssistant, plan: InstructionPlan, context: Context
) -> list[dict[str, Any]]:
    """Run the valid calls one by one as the caller; a failing call does not stop the others.

    The caller must be allowed to control every target before anything runs.
    """
    await async_require_control(hass, context, {op.entity_id for op in plan.operations})
    results = []
    for operation in plan.operations:
        domain, _, service = operation.service.partition(".")
        result: dict[str, Any] = {"entity_id": operation.entity_id, "service": operation.service}
        data = {k: v for k, v in operation.data.items() if k not in _TARGET_KEYS}
        try:
            await hass.services.async_call(
                domain,
                service,
                {**data, ATTR_ENTITY_ID: operation.entity_id},
                blocking=True,
                context=context,
            )
            result["success"] = True
        except Unauthorized:
            raise  # the service's own permission check refused: the caller must know
        except (HomeAssistantError, vol.Invalid, ValueError) as err:
            _LOGGER.warning(
                "Planned call %s on %s failed: %s", operation.service, operation.entity_id, err
            )
            result.update(success=False, error=str(err)[:255])
        results.append(result)
    return results


def plan_response(plan: InstructionPlan) -> dict[str, Any]:
    """The part of the response that describes the plan."""
    return {
        "instruction": plan.instruction,
        "planner": plan.planner,
        "operations": [op.as_dict() for op in plan.operations],
        "refused": [part.as_dict() for part in plan.refused],
    }


@callback
def async_register_instruction_service(
    hass: HomeAssistant, backend_getter: BackendGetter = default_backend_getter
) -> None:
    """Register ``anomaly_monitor.check_instruction`` (idempotent)."""

    async def _async_check(call: ServiceCall) -> ServiceResponse:
        instruction = _instruction(call)
        entry = _entry_for(hass, call.data.get(ATTR_CONFIG_ENTRY_ID), backend_getter)
        backend = backend_getter(entry)
        area_id = async_speaker_area(
            hass, call.data.get(ATTR_AREA_ID), call.data.get(ATTR_DEVICE_ID)
        )
        capabilities = async_build_home_capabilities(hass)
        assist = await async_assist_reader(
            hass, capabilities, language=call.data.get(ATTR_LANGUAGE), area_id=area_id
        )
        try:
            plan = await async_plan_instruction(
                instruction,
                capabilities,
                backend=backend,
                mode=PlannerMode.HYBRID,
                timeout=PLANNER_TIMEOUT,
                assist=assist,
            )
        except (ValueError, LLMError) as err:
            raise InvalidActionInput("instruction_invalid", error=str(err)[:255]) from err
        response = plan_response(plan)
        response["executed"] = bool(call.data[ATTR_EXECUTE])
        if call.data[ATTR_EXECUTE]:
            response["results"] = await _async_execute(hass, plan, call.context)
        return response

    hass.services.async_register(
        DOMAIN,
        SERVICE_CHECK_INSTRUCTION,
        _async_check,
        schema=CHECK_INSTRUCTION_SCHEMA,
        supports_response=SupportsResponse.OPTIONAL,
    )
