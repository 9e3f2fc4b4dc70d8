"""Config and options flows: what to watch, how often, and who to tell."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from homeassistant.config_entries import (
    SOURCE_RECONFIGURE,
    ConfigFlow,
    ConfigFlowResult,
    OptionsFlowWithReload,
)
from homeassistant.const import CONF_API_KEY, CONF_NAME
from homeassistant.core import callback
from homeassistant.helpers import selector
import voluptuous as vol

from .const import (
    BACKEND_AI_TASK,
    BACKEND_LLAMA_CPP,
    BACKEND_OLLAMA,
    BACKEND_OPENAI,
    CONF_BACKEND,
    CONF_DETECTOR,
    CONF_NOTIFY,
    CONF_REPLAY,
    CONF_REVIEW_ROLES,
    CONF_ROLES,
    CONF_USE_EXPOSED,
    CONF_WATCH_SAFETY,
    DEFAULT_DETECTOR,
    DETECTOR_HYBRID,
    DETECTOR_RULES,
    DOMAIN,
)
from .dev_replay.entry import REPLAY_UNIQUE_ID, async_clear_stale_replays, replay_requested
from .flows.backend_forms import (
    BACKEND_MENU,
    SECRET,
    async_check_backend,
    backend_missing,
    backend_schema,
    llama_placeholders,
)
from .flows.false_alarm_form import (
    CONF_FORGET,
    false_alarm_choices,
    false_alarms_schema,
    forget_false_alarms,
)
from .flows.learning_text import async_history_text, async_learning_text
from .flows.option_forms import (
    HYBRID_SCHEMA,
    SECTIONS,
    answered,
    coverage_placeholders,
    flatten,
    nest,
    options_schema,
)
from .flows.role_review import (
    RoleRow,
    async_role_labels,
    corrected_roles,
    roles_schema,
    rows_of,
    rows_text,
    with_review_box,
)

DEFAULT_NAME = "Anomaly Monitor"


class AnomalyMonitorConfigFlow(ConfigFlow, domain=DOMAIN):
    """Set up a monitor from the UI; an LLM backend is optional and checked before saving."""

    VERSION = 1

    def __init__(self) -> None:
        self._title = DEFAULT_NAME
        self._options: dict[str, Any] = {}

    async def async_step_user(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """Name the monitor and choose what it watches; the rest sits in sections."""
        if user_input is not None and user_input.get(CONF_REPLAY):
            return await self._async_create_replay_entry(user_input)
        if user_input is not None:
            self._title = user_input[CONF_NAME]
            self._options = flatten({k: v for k, v in user_input.items() if k != CONF_NAME})
            detector = self._options.get(CONF_DETECTOR, DEFAULT_DETECTOR)
            if detector == DETECTOR_RULES:
                return self.async_create_entry(title=self._title, data={}, options=self._options)
            if detector == DETECTOR_HYBRID:
                return await self.async_step_hybrid()
            return await self.async_step_backend()
        schema = vol.Schema(
            {vol.Required(CONF_NAME, default=DEFAULT_NAME): selector.TextSelector()}
        ).extend(options_schema(self.hass).schema)
        # Only for benchmark_replay (dev_replay/entry.py). Not the show_advanced_options property:
        # deprecated in HA 2026.10 and True for everyone there.
        if replay_requested(self.context):
            schema = schema.extend(
                {vol.Optional(CONF_REPLAY, default=False): selector.BooleanSelector()}
            )
        return self.async_show_form(
            step_id="user",
            data_schema=schema,
            description_placeholders=coverage_placeholders(self.hass, {}),
        )

    async def _async_create_replay_entry(self, user_input: dict[str, Any]) -> ConfigFlowResult:
        """One replay at a time; an abandoned replay's entry is removed first."""
        if not await async_clear_stale_replays(self.hass):
            return self.async_abort(reason="replay_running")
        await self.async_set_unique_id(REPLAY_UNIQUE_ID)
        self._abort_if_unique_id_configured()
        options = flatten({k: v for k, v in user_input.items() if k != CONF_NAME})
        options.pop(CONF_NOTIFY, None)
        return self.async_create_entry(
            title=user_input[CONF_NAME],
            data={},
            options=options | {CONF_USE_EXPOSED: False, CONF_WATCH_SAFETY: False},
        )

    async def async_step_hybrid(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """How much say the model gets next to the rules (off: small models are no judges)."""
        if user_input is not None:
            self._options.update(user_input)
            return await self.async_step_backend()
        return self.async_show_form(step_id="hybrid", data_schema=HYBRID_SCHEMA)

    async def async_step_backend(
        self, user_input: dict[str, Any] | None = None
    ) -> ConfigFlowResult:
        """Which LLM backend to use."""
        return self.async_show_menu(step_id="backend", menu_options=BACKEND_MENU)

    async def async_step_reconfigure(
        self, user_input: dict[str, Any] | None = None
    ) -> ConfigFlowResult:
        """Change the LLM backend, its URL or model."""
        return await self.async_step_backend()

    async def async_step_llama_cpp(
        self, user_input: dict[str, Any] | None = None
    ) -> ConfigFlowResult:
        """A GGUF model run by llama.cpp in a worker process."""
        return await self._async_backend_step(BACKEND_LLAMA_CPP, user_input)

    async def async_step_openai(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """An OpenAI-compatible server (llama.cpp server, vLLM, LM Studio, OpenAI)."""
        return await self._async_backend_step(BACKEND_OPENAI, user_input)

    async def async_step_ollama(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """An Ollama server."""
        return await self._async_backend_step(BACKEND_OLLAMA, user_input)

    async def async_step_ai_task(
        self, user_input: dict[str, Any] | None = None
    ) -> ConfigFlowResult:
        """An AI Task entity already configured in Home Assistant."""
        return await self._async_backend_step(BACKEND_AI_TASK, user_input)

    async def _async_backend_step(
        self, backend: str, user_input: dict[str, Any] | None
    ) -> ConfigFlowResult:
        reconfiguring = self.source == SOURCE_RECONFIGURE
        current: Mapping[str, Any] = self._get_reconfigure_entry().data if reconfiguring else {}
        if current.get(CONF_BACKEND) != backend:
            current = {}
        errors: dict[str, str] = {}
        if (missing := backend_missing(self.hass, backend)) is not None:
            errors["base"] = missing  # said at once, not only after the form is filled in
        if user_input is not None:
            data = {CONF_BACKEND: backend, **user_input}
            config = {**self._options, **data}
            if reconfiguring:
                config = {**self._get_reconfigure_entry().options, **data}
            if (error := await async_check_backend(self.hass, config)) is None:
                if reconfiguring:
                    return self.async_update_reload_and_abort(
                        self._get_reconfigure_entry(), data=data
                    )
                return self.async_create_entry(title=self._title, data=data, options=self._options)
            errors["base"] = error
        return self.async_show_form(
            step_id=backend,
            data_schema=self.add_suggested_values_to_schema(
                backend_schema(backend, current), user_input or {}
            ),
            errors=errors,
            description_placeholders=llama_placeholders() if backend == BACKEND_LLAMA_CPP else None,
        )

    async def async_step_reauth(self, entry_data: Mapping[str, Any]) -> ConfigFlowResult:
        """The backend rejected the API key."""
        return await self.async_step_reauth_confirm()

    async def async_step_reauth_confirm(
        self, user_input: dict[str, Any] | None = None
    ) -> ConfigFlowResult:
        """Ask for a new API key and check it."""
        entry = self._get_reauth_entry()
        errors: dict[str, str] = {}
        if user_input is not None:
            data = {**entry.data, CONF_API_KEY: user_input[CONF_API_KEY]}
            error = await async_check_backend(self.hass, {**entry.options, **data})
            if error is None:
                return self.async_update_reload_and_abort(entry, data=data)
            errors["base"] = error
        return self.async_show_form(
            step_id="reauth_confirm",
            data_schema=vol.Schema({vol.Required(CONF_API_KEY): SECRET}),
            errors=errors,
            description_placeholders={"backend": str(entry.data.get(CONF_BACKEND))},
        )

    @staticmethod
    @callback
    def async_get_options_flow(config_entry: Any) -> AnomalyMonitorOptionsFlow:
        """Change any option later; the entry reloads to apply it."""
        return AnomalyMonitorOptionsFlow()


class AnomalyMonitorOptionsFlow(OptionsFlowWithReload):
    """Change what is watched, how often, and who is told: the setup form again."""

    def __init__(self) -> None:
        self._options: dict[str, Any] = {}
        self._review_roles = False
        self._role_rows: list[RoleRow] = []

    async def async_step_init(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """The setup form, filled with the current values."""
        errors: dict[str, str] = {}
        if user_input is not None:
            # Options this form does not show are kept as they are.
            self._options = answered(self.config_entry.options, flatten(user_input))
            self._review_roles = bool(self._options.pop(CONF_REVIEW_ROLES, False))
            detector = self._options.get(CONF_DETECTOR, DEFAULT_DETECTOR)
            if detector != DETECTOR_RULES and not self.config_entry.data.get(CONF_BACKEND):
                errors[CONF_DETECTOR] = "backend_required"
            elif detector == DETECTOR_HYBRID:
                return await self.async_step_hybrid()
            else:
                return await self.async_step_roles()
        return self.async_show_form(
            step_id="init",
            data_schema=self.add_suggested_values_to_schema(
                with_review_box(options_schema(self.hass), SECTIONS),
                nest(user_input or self.config_entry.options),
            ),
            errors=errors,
            description_placeholders=coverage_placeholders(self.hass, self.config_entry.options)
            | {
                "learning": await async_learning_text(self.hass, self.config_entry.entry_id),
                "history": await async_history_text(self.hass, self.config_entry.entry_id),
            },
        )

    async def async_step_hybrid(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """The hybrid detector's two switches."""
        if user_input is not None:
            self._options |= user_input
            return await self.async_step_roles()
        return self.async_show_form(
            step_id="hybrid",
            data_schema=self.add_suggested_values_to_schema(HYBRID_SCHEMA, self._options),
        )

    async def async_step_roles(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """What the monitor takes each watched device for, to correct (when asked for)."""
        if user_input is None:
            runtime = getattr(self.config_entry, "runtime_data", None)
            if not self._review_roles or runtime is None:
                return await self.async_step_false_alarms()
            self._role_rows = rows_of(runtime)
            if not self._role_rows:
                return await self.async_step_false_alarms()
            return self.async_show_form(
                step_id="roles",
                data_schema=roles_schema(self._role_rows),
                description_placeholders={
                    "devices": rows_text(self._role_rows, await async_role_labels(self.hass))
                },
            )
        stored = self.config_entry.options.get(CONF_ROLES)
        self._options[CONF_ROLES] = corrected_roles(
            self._role_rows, user_input, stored if isinstance(stored, Mapping) else None
        )
        return await self.async_step_false_alarms()

    async def async_step_false_alarms(
        self, user_input: dict[str, Any] | None = None
    ) -> ConfigFlowResult:
        """The false-alarm marks, to forget any of them (shown only when there are some)."""
        marks = false_alarm_choices(self.hass, self.config_entry)
        if user_input is None and marks:
            return self.async_show_form(
                step_id="false_alarms", data_schema=false_alarms_schema(marks)
            )
        forget_false_alarms(self.config_entry, (user_input or {}).get(CONF_FORGET, []))
        return self.async_create_entry(data=self._options)
