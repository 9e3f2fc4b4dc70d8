"""Any Home Assistant AI Task entity: reuses the LLM the user already set up in HA.

Everything goes through the public ``ai_task.generate_data`` action, with the answer's JSON
schema given as an action ``structure`` (fields with selectors). Home Assistant builds its
own schema from that (voluptuous before 2026.3, probatio since), so nothing here imports
the ``ai_task`` integration: a home without it loads this integration fine and the config
flow says the backend is unavailable. AI Task entities get no device-control tools.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
import json
import logging
import traceback
from typing import Any

from homeassistant.const import ATTR_SUPPORTED_FEATURES
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import HomeAssistantError

from ..core.llm.backend import LLMResponseError, LLMUnavailableError, Message
from ..core.llm.prompts import flatten_messages

_LOGGER = logging.getLogger(__name__)

NAME = "ai_task"
AI_TASK_DOMAIN = "ai_task"
SERVICE_GENERATE_DATA = "generate_data"
# AITaskEntityFeature.GENERATE_DATA, a stable public flag value.
FEATURE_GENERATE_DATA = 1
TASK_NAME = "Anomaly Monitor analysis"
MAX_REPLY_CHARS = 1024 * 1024


def _field_selector(spec: Mapping[str, Any]) -> dict[str, Any]:
    """The selector for one JSON-schema property (strings, enums and lists of them)."""
    if spec.get("type") == "array":
        items = spec.get("items") or {}
        if items.get("enum"):
            return {"select": {"options": list(items["enum"]), "multiple": True}}
        return {"text": {"multiple": True}}
    if spec.get("enum"):
        return {"select": {"options": list(spec["enum"])}}
    if spec.get("type") == "boolean":
        return {"boolean": {}}
    if spec.get("type") in ("number", "integer"):
        return {"number": {"mode": "box"}}
    return {"text": {}}


def structure_from_schema(schema: Mapping[str, Any]) -> dict[str, Any]:
    """The ``generate_data`` action's ``structure`` equivalent to the flat answer ``schema``."""
    required = set(schema.get("required", ()))
    structure: dict[str, Any] = {}
    for key, spec in schema.get("properties", {}).items():
        field: dict[str, Any] = {"required": key in required, "selector": _field_selector(spec)}
        if spec.get("description"):
            field["description"] = spec["description"]
        structure[key] = field
    return structure


class AITaskMissingError(LLMUnavailableError):
    """The AI Task integration itself is not set up (no AI integration configured)."""


def ai_task_loaded(hass: HomeAssistant) -> bool:
    """Whether Home Assistant's AI Task integration is set up and offers its action."""
    return hass.services.has_service(AI_TASK_DOMAIN, SERVICE_GENERATE_DATA)


class AITaskBackend:
    """Runs the ``ai_task.generate_data`` action on one AI Task entity."""

    name = NAME

    def __init__(self, hass: HomeAssistant, entity_id: str) -> None:
        self.hass = hass
        self.entity_id = entity_id

    async def async_generate(
        self,
        messages: Sequence[Message],
        *,
        schema: Mapping[str, Any] | None = None,
        max_tokens: int = 512,  # the entity's integration decides its own limit
        timeout: float = 60.0,
    ) -> str:
        """One data-generation task; the structured result as JSON text."""
        if not ai_task_loaded(self.hass):
            raise LLMUnavailableError("Home Assistant's AI Task integration is not loaded")
        data: dict[str, Any] = {
            "task_name": TASK_NAME,
            "entity_id": self.entity_id,
            "instructions": flatten_messages(messages),
        }
        if schema is not None:
            data["structure"] = structure_from_schema(schema)
        try:
            async with asyncio.timeout(timeout):
                response = await self.hass.services.async_call(
                    AI_TASK_DOMAIN,
                    SERVICE_GENERATE_DATA,
                    data,
                    blocking=True,
                    return_response=True,
                )
        except TimeoutError as err:
            raise LLMUnavailableError(
                f"{self.entity_id} did not answer within {timeout:g} s"
            ) from err
        except HomeAssistantError as err:
            raise LLMUnavailableError(f"{self.entity_id} failed: {err}") from err
        except Exception as err:  # a buggy third-party integration must not stop the monitor
            # Where it broke, without its message: that may quote the prompt (the profile).
            _LOGGER.debug(
                "AI Task entity %s raised %s at:\n%s",
                self.entity_id,
                type(err).__name__,
                "".join(traceback.format_tb(err.__traceback__)),
            )
            raise LLMResponseError(f"{self.entity_id} failed unexpectedly: {err!r}") from err
        answer = (response or {}).get("data")
        if isinstance(answer, str):
            text = answer
        else:
            try:
                text = json.dumps(answer, ensure_ascii=False, default=str)
            except (TypeError, ValueError, RecursionError) as err:
                raise LLMResponseError(f"{self.entity_id} returned data that is not JSON") from err
        if len(text) > MAX_REPLY_CHARS:  # as the HTTP backends: a verdict is a few hundred
            raise LLMResponseError(f"{self.entity_id} answered with more than 1 MB")
        return text

    async def async_validate(self) -> None:
        """AI Task is loaded and the entity exists and can generate data."""
        if not ai_task_loaded(self.hass):
            raise AITaskMissingError("Home Assistant's AI Task integration is not loaded")
        state = self.hass.states.get(self.entity_id)
        if state is None or state.domain != AI_TASK_DOMAIN:
            raise LLMUnavailableError(f"AI Task entity {self.entity_id} not found")
        if not int(state.attributes.get(ATTR_SUPPORTED_FEATURES) or 0) & FEATURE_GENERATE_DATA:
            raise LLMUnavailableError(f"AI Task entity {self.entity_id} cannot generate data")

    async def async_close(self) -> None:
        """Nothing to release."""
