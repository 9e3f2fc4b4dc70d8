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
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import selector
import voluptuous as vol

from .backend_forms import (
    BACKEND_MENU,
    SECRET,
    async_check_backend,
    backend_missing,
    backend_schema,
    llama_placeholders,
)
from .const import (
    BACKEND_AI_TASK,
    BACKEND_LLAMA_CPP,
    BACKEND_OLLAMA,
    BACKEND_OPENAI,
    CONF_BACKEND,
    CONF_DETECTOR,
    CONF_EXCLUDE_ENTITIES,
    CONF_INCLUDE_AREAS,
    CONF_INCLUDE_DOMAINS,
    CONF_INCLUDE_ENTITIES,
    CONF_INTERVAL,
    CONF_LLM_MAY_ADD,
    CONF_LLM_MAY_DISMISS,
    CONF_NOTIFY,
    CONF_PROFILE,
    CONF_REPLAY,
    CONF_SENSITIVITY,
    CONF_USE_EXPOSED,
    CONF_WATCH_SAFETY,
    CONF_WEATHER_ENTITY,
    CONF_WINDOW,
    DEFAULT_DETECTOR,
    DEFAULT_INTERVAL,
    DEFAULT_SENSITIVITY,
    DEFAULT_USE_EXPOSED,
    DEFAULT_WATCH_SAFETY,
    DEFAULT_WINDOW,
    DETECTOR_RULES,
    DETECTORS,
    DOMAIN,
    SENSITIVITIES,
)
from .coverage import life_safety_sensors, names_of, offered_domains, resolve_watched
from .replay_entry import REPLAY_UNIQUE_ID, async_clear_stale_replays
from .surfaces import escape_markdown

DEFAULT_NAME = "Anomaly Monitor"
# Up to a year, so long traces can be replayed; memory is capped separately.
MAX_WINDOW_MINUTES = 366 * 24 * 60

_MINUTES = selector.NumberSelectorConfig(
    min=1, max=24 * 60, step=1, unit_of_measurement="min", mode=selector.NumberSelectorMode.BOX
)


def _options_schema(hass_domains: list[str]) -> vol.Schema:
    """Every monitoring option, shared by the config and options flows."""
    return vol.Schema(
        {
            vol.Required(
                CONF_WATCH_SAFETY, default=DEFAULT_WATCH_SAFETY
            ): selector.BooleanSelector(),
            vol.Required(CONF_USE_EXPOSED, default=DEFAULT_USE_EXPOSED): selector.BooleanSelector(),
            vol.Optional(CONF_INCLUDE_ENTITIES, default=[]): selector.EntitySelector(
                selector.EntitySelectorConfig(multiple=True)
            ),
            vol.Optional(CONF_INCLUDE_DOMAINS, default=[]): selector.SelectSelector(
                selector.SelectSelectorConfig(
                    options=hass_domains, multiple=True, custom_value=True, sort=True
                )
            ),
            vol.Optional(CONF_INCLUDE_AREAS, default=[]): selector.AreaSelector(
                selector.AreaSelectorConfig(multiple=True)
            ),
            vol.Optional(CONF_EXCLUDE_ENTITIES, default=[]): selector.EntitySelector(
                selector.EntitySelectorConfig(multiple=True)
            ),
            vol.Required(CONF_INTERVAL, default=DEFAULT_INTERVAL): vol.All(
                selector.NumberSelector(_MINUTES), vol.Coerce(int), vol.Range(min=1, max=24 * 60)
            ),
            vol.Required(CONF_WINDOW, default=DEFAULT_WINDOW): vol.All(
                selector.NumberSelector(
                    selector.NumberSelectorConfig(
                        min=5,
                        max=MAX_WINDOW_MINUTES,
                        step=1,
                        unit_of_measurement="min",
                        mode=selector.NumberSelectorMode.BOX,
                    )
                ),
                vol.Coerce(int),
                vol.Range(min=5, max=MAX_WINDOW_MINUTES),
            ),
            vol.Optional(CONF_PROFILE, default=""): selector.TextSelector(
                selector.TextSelectorConfig(multiline=True)
            ),
            vol.Optional(CONF_WEATHER_ENTITY): selector.EntitySelector(
                selector.EntitySelectorConfig(domain="weather")
            ),
            vol.Optional(CONF_NOTIFY, default=[]): selector.SelectSelector(
                selector.SelectSelectorConfig(options=[], multiple=True, custom_value=True)
            ),
            vol.Required(CONF_SENSITIVITY, default=DEFAULT_SENSITIVITY): selector.SelectSelector(
                selector.SelectSelectorConfig(
                    options=list(SENSITIVITIES), translation_key=CONF_SENSITIVITY
                )
            ),
            vol.Required(CONF_DETECTOR, default=DEFAULT_DETECTOR): selector.SelectSelector(
                selector.SelectSelectorConfig(
                    options=list(DETECTORS), translation_key=CONF_DETECTOR
                )
            ),
            vol.Required(CONF_LLM_MAY_DISMISS, default=False): selector.BooleanSelector(),
            vol.Required(CONF_LLM_MAY_ADD, default=False): selector.BooleanSelector(),
        }
    )


def _notify_targets(hass_services: Mapping[str, Any], hass_entities: list[str]) -> list[str]:
    """Notify services and entities the homeowner can pick."""
    legacy = [f"notify.{name}" for name in hass_services if name not in ("send_message",)]
    return sorted(set(legacy) | set(hass_entities))


class AnomalyMonitorConfigFlow(ConfigFlow, domain=DOMAIN):
    """Set up a monitor from the UI; an LLM backend is optional and checked before saving."""

    VERSION = 1

    def __init__(self) -> None:
        self._title = DEFAULT_NAME
        self._options: dict[str, Any] = {}

    async def async_step_user(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """Name the monitor, choose what it watches and which detector judges."""
        schema = self._schema().extend(
            {vol.Required(CONF_NAME, default=DEFAULT_NAME): selector.TextSelector()}
        )
        if self.show_advanced_options:  # benchmark_replay's entry (replay_entry.py)
            schema = schema.extend(
                {vol.Optional(CONF_REPLAY, default=False): selector.BooleanSelector()}
            )
        if user_input is not None and user_input.get(CONF_REPLAY):
            return await self._async_create_replay_entry(user_input)
        if user_input is not None:
            self._title = user_input[CONF_NAME]
            self._options = {k: v for k, v in user_input.items() if k != CONF_NAME}
            if self._options.get(CONF_DETECTOR, DEFAULT_DETECTOR) == DETECTOR_RULES:
                return self.async_create_entry(title=self._title, data={}, options=self._options)
            return await self.async_step_backend()
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
        options = {k: v for k, v in user_input.items() if k not in (CONF_NAME, CONF_NOTIFY)}
        return self.async_create_entry(
            title=user_input[CONF_NAME],
            data={},
            options=options | {CONF_USE_EXPOSED: False, CONF_WATCH_SAFETY: False},
        )

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

    def _schema(self) -> vol.Schema:
        return _with_notify_options(self.hass, _options_schema(_domains(self.hass)))

    @staticmethod
    @callback
    def async_get_options_flow(config_entry: Any) -> AnomalyMonitorOptionsFlow:
        """Change any option later; the entry reloads to apply it."""
        return AnomalyMonitorOptionsFlow()


class AnomalyMonitorOptionsFlow(OptionsFlowWithReload):
    """Change what is watched, how often, and who is told."""

    async def async_step_init(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """One form with every option, filled with the current values."""
        schema = _with_notify_options(self.hass, _options_schema(_domains(self.hass)))
        errors: dict[str, str] = {}
        if (
            user_input is not None
            and user_input.get(CONF_DETECTOR, DEFAULT_DETECTOR) != DETECTOR_RULES
            and not self.config_entry.data.get(CONF_BACKEND)
        ):
            errors[CONF_DETECTOR] = "backend_required"
        elif user_input is not None:
            # Options this form does not show are kept as they are.
            shown = {str(key) for key in schema.schema}
            kept = {k: v for k, v in self.config_entry.options.items() if k not in shown}
            return self.async_create_entry(data=kept | user_input)
        return self.async_show_form(
            step_id="init",
            data_schema=self.add_suggested_values_to_schema(
                schema, user_input or self.config_entry.options
            ),
            errors=errors,
            description_placeholders=coverage_placeholders(self.hass, self.config_entry.options),
        )


def _domains(hass: Any) -> list[str]:
    return offered_domains(hass)


def coverage_placeholders(hass: HomeAssistant, options: Mapping[str, Any]) -> dict[str, str]:
    """How many entities ``options`` watch, and which alarms the home has."""
    alarms = life_safety_sensors(hass)
    return {
        "watched": str(len(resolve_watched(hass, options))),
        "hazards": escape_markdown(names_of(alarms)) if alarms else "-",
    }


def _with_notify_options(hass: Any, schema: vol.Schema) -> vol.Schema:
    """Fill the notify target choices from what this HA has."""
    targets = _notify_targets(
        hass.services.async_services_for_domain("notify"), hass.states.async_entity_ids("notify")
    )
    return schema.extend(
        {
            vol.Optional(CONF_NOTIFY, default=[]): selector.SelectSelector(
                selector.SelectSelectorConfig(options=targets, multiple=True, custom_value=True)
            )
        }
    )
