"""Config and options flows: what to watch, how often, and who to tell."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from homeassistant.config_entries import ConfigFlow, ConfigFlowResult, OptionsFlowWithReload
from homeassistant.const import CONF_NAME
from homeassistant.core import callback
from homeassistant.helpers import selector
import voluptuous as vol

from .const import (
    CONF_EXCLUDE_ENTITIES,
    CONF_INCLUDE_AREAS,
    CONF_INCLUDE_DOMAINS,
    CONF_INCLUDE_ENTITIES,
    CONF_INTERVAL,
    CONF_NOTIFY,
    CONF_PROFILE,
    CONF_SENSITIVITY,
    CONF_USE_EXPOSED,
    CONF_WEATHER_ENTITY,
    CONF_WINDOW,
    DEFAULT_INTERVAL,
    DEFAULT_SENSITIVITY,
    DEFAULT_USE_EXPOSED,
    DEFAULT_WINDOW,
    DOMAIN,
    SENSITIVITIES,
)

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
        }
    )


def _notify_targets(hass_services: Mapping[str, Any], hass_entities: list[str]) -> list[str]:
    """Notify services and entities the homeowner can pick."""
    legacy = [f"notify.{name}" for name in hass_services if name not in ("send_message",)]
    return sorted(set(legacy) | set(hass_entities))


class AnomalyMonitorConfigFlow(ConfigFlow, domain=DOMAIN):
    """Set up a monitor from the UI."""

    VERSION = 1

    async def async_step_user(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """Name the monitor and choose what it watches."""
        schema = self._schema().extend(
            {vol.Required(CONF_NAME, default=DEFAULT_NAME): selector.TextSelector()}
        )
        if user_input is not None:
            options = {k: v for k, v in user_input.items() if k != CONF_NAME}
            return self.async_create_entry(title=user_input[CONF_NAME], data={}, options=options)
        return self.async_show_form(step_id="user", data_schema=schema)

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
        if user_input is not None:
            # Options this form does not show (detector, backend) are kept as they are.
            shown = {str(key) for key in schema.schema}
            kept = {k: v for k, v in self.config_entry.options.items() if k not in shown}
            return self.async_create_entry(data=kept | user_input)
        return self.async_show_form(
            step_id="init",
            data_schema=self.add_suggested_values_to_schema(schema, self.config_entry.options),
        )


def _domains(hass: Any) -> list[str]:
    return sorted({entity_id.partition(".")[0] for entity_id in hass.states.async_entity_ids()})


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
