"""Any Home Assistant AI Task entity: reuses the LLM the user already set up in HA.

The answer's JSON schema is turned into an AI Task ``structure`` (a voluptuous schema of
selectors), which the entity's integration turns back into its own structured output.
AI Task entities get no device-control tools (no ``llm_api`` is passed).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
import json
import logging
import traceback
from typing import Any

from homeassistant.components import ai_task
from homeassistant.components.ai_task import AITaskEntityFeature
from homeassistant.components.ai_task.const import DATA_COMPONENT
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import selector
import voluptuous as vol

from ..core.llm import LLMResponseError, LLMUnavailableError, Message
from ..core.prompts import flatten_messages

_LOGGER = logging.getLogger(__name__)

NAME = "ai_task"
TASK_NAME = "Anomaly Monitor analysis"


def _field_selector(spec: Mapping[str, Any]) -> selector.Selector[Any]:
    """The selector for one JSON-schema property (strings, enums and lists of them)."""
    if spec.get("type") == "array":
        items = spec.get("items") or {}
        if items.get("enum"):
            return selector.SelectSelector(
                selector.SelectSelectorConfig(options=list(items["enum"]), multiple=True)
            )
        return selector.TextSelector(selector.TextSelectorConfig(multiple=True))
    if spec.get("enum"):
        return selector.SelectSelector(selector.SelectSelectorConfig(options=list(spec["enum"])))
    if spec.get("type") == "boolean":
        return selector.BooleanSelector()
    if spec.get("type") in ("number", "integer"):
        return selector.NumberSelector(
            selector.NumberSelectorConfig(mode=selector.NumberSelectorMode.BOX)
        )
    return selector.TextSelector()


def structure_from_schema(schema: Mapping[str, Any]) -> vol.Schema:
    """An AI Task ``structure`` equivalent to the (flat) answer ``schema``."""
    required = set(schema.get("required", ()))
    fields: dict[vol.Marker, selector.Selector[Any]] = {}
    for key, spec in schema.get("properties", {}).items():
        marker = vol.Required if key in required else vol.Optional
        fields[marker(key, description=spec.get("description"))] = _field_selector(spec)
    return vol.Schema(fields, extra=vol.PREVENT_EXTRA)


class AITaskBackend:
    """Runs ``ai_task.async_generate_data`` on one AI Task entity."""

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
        structure = structure_from_schema(schema) if schema is not None else None
        try:
            async with asyncio.timeout(timeout):
                result = await ai_task.async_generate_data(
                    self.hass,
                    task_name=TASK_NAME,
                    entity_id=self.entity_id,
                    instructions=flatten_messages(messages),
                    structure=structure,
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
        data = result.data
        if isinstance(data, str):
            return data
        try:
            return json.dumps(data, ensure_ascii=False, default=str)
        except (TypeError, ValueError) as err:
            raise LLMResponseError(f"{self.entity_id} returned data that is not JSON") from err

    async def async_validate(self) -> None:
        """The entity exists, is loaded and can generate data."""
        component = self.hass.data.get(DATA_COMPONENT)
        entity = component.get_entity(self.entity_id) if component is not None else None
        if entity is None:
            raise LLMUnavailableError(f"AI Task entity {self.entity_id} not found")
        if AITaskEntityFeature.GENERATE_DATA not in entity.supported_features:
            raise LLMUnavailableError(f"AI Task entity {self.entity_id} cannot generate data")

    async def async_close(self) -> None:
        """Nothing to release."""
