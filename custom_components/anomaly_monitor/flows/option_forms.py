"""The monitoring options' forms, shared by the config and options flows.

What to watch comes first; timing, notifications and the household sit in collapsed
sections; the hybrid detector's two switches have their own step. Options are stored flat
in ``entry.options`` (the sections only group the form).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import section
from homeassistant.helpers import selector
import voluptuous as vol

from ..const import (
    CONF_DETECTOR,
    CONF_EXCLUDE_ENTITIES,
    CONF_FALSE_ALARM_DAYS,
    CONF_HISTORY_DAYS,
    CONF_INCLUDE_AREAS,
    CONF_INCLUDE_DOMAINS,
    CONF_INCLUDE_ENTITIES,
    CONF_INTERVAL,
    CONF_LLM_MAY_ADD,
    CONF_LLM_MAY_DISMISS,
    CONF_NOTIFY,
    CONF_PHONELESS,
    CONF_PROFILE,
    CONF_SENSITIVITY,
    CONF_USE_EXPOSED,
    CONF_WATCH_SAFETY,
    CONF_WEATHER_ENTITY,
    CONF_WINDOW,
    DEFAULT_DETECTOR,
    DEFAULT_FALSE_ALARM_DAYS,
    DEFAULT_HISTORY_DAYS,
    DEFAULT_INTERVAL,
    DEFAULT_SENSITIVITY,
    DEFAULT_USE_EXPOSED,
    DEFAULT_WATCH_SAFETY,
    DEFAULT_WINDOW,
    DETECTORS,
    MAX_FALSE_ALARM_DAYS,
    MAX_HISTORY_DAYS,
    MAX_INTERVAL,
    MAX_PHONELESS,
    MAX_WINDOW,
    MIN_INTERVAL,
    MIN_WINDOW,
    SENSITIVITIES,
)
from ..live.coverage import life_safety_sensors, names_of, offered_domains, resolve_watched
from ..markdown_text import escape_markdown

SECTION_ANALYSIS = "analysis"
SECTION_NOTIFICATIONS = "notifications"
SECTION_HOUSEHOLD = "household"
# Which options each collapsed section holds.
SECTIONS: Mapping[str, tuple[str, ...]] = {
    SECTION_ANALYSIS: (CONF_INTERVAL, CONF_WINDOW, CONF_HISTORY_DAYS),
    SECTION_NOTIFICATIONS: (CONF_SENSITIVITY, CONF_NOTIFY, CONF_FALSE_ALARM_DAYS),
    SECTION_HOUSEHOLD: (CONF_PROFILE, CONF_PHONELESS, CONF_WEATHER_ENTITY),
}
# Fields with no default: left empty, they are unset (nobody counted: the profile says who
# lives here without a phone; no weather entity: the first one is used). The frontend sends
# every section with its current values, so a field it leaves out was emptied.
UNSET_WHEN_EMPTY = (CONF_PHONELESS, CONF_WEATHER_ENTITY)
# Bounds of the numbers (minutes), enforced by the form and by validation.
_BOUNDS = {
    CONF_INTERVAL: (MIN_INTERVAL, MAX_INTERVAL),
    CONF_WINDOW: (MIN_WINDOW, MAX_WINDOW),
    CONF_FALSE_ALARM_DAYS: (1, MAX_FALSE_ALARM_DAYS),
    CONF_HISTORY_DAYS: (0, MAX_HISTORY_DAYS),
    CONF_PHONELESS: (0, MAX_PHONELESS),
}


def _minutes(low: int, high: int, unit: str = "min") -> vol.All:
    return vol.All(
        selector.NumberSelector(
            selector.NumberSelectorConfig(
                min=low,
                max=high,
                step=1,
                unit_of_measurement=unit,
                mode=selector.NumberSelectorMode.BOX,
            )
        ),
        vol.Coerce(int),
        vol.Range(min=low, max=high),
    )


def _people(high: int) -> vol.All:
    """A number of people: whole, from none to ``high``."""
    return vol.All(
        selector.NumberSelector(
            selector.NumberSelectorConfig(
                min=0, max=high, step=1, mode=selector.NumberSelectorMode.BOX
            )
        ),
        vol.Coerce(int),
        vol.Range(min=0, max=high),
    )


def options_schema(hass: HomeAssistant) -> vol.Schema:
    """Every monitoring option but the hybrid switches: what to watch first, then sections."""
    collapsed = {"collapsed": True}
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
                    options=offered_domains(hass), multiple=True, custom_value=True, sort=True
                )
            ),
            vol.Optional(CONF_INCLUDE_AREAS, default=[]): selector.AreaSelector(
                selector.AreaSelectorConfig(multiple=True)
            ),
            vol.Optional(CONF_EXCLUDE_ENTITIES, default=[]): selector.EntitySelector(
                selector.EntitySelectorConfig(multiple=True)
            ),
            vol.Required(CONF_DETECTOR, default=DEFAULT_DETECTOR): selector.SelectSelector(
                selector.SelectSelectorConfig(
                    options=list(DETECTORS), translation_key=CONF_DETECTOR
                )
            ),
            vol.Required(SECTION_ANALYSIS, default={}): section(
                vol.Schema(
                    {
                        vol.Required(CONF_INTERVAL, default=DEFAULT_INTERVAL): _minutes(
                            MIN_INTERVAL, MAX_INTERVAL
                        ),
                        vol.Required(CONF_WINDOW, default=DEFAULT_WINDOW): _minutes(
                            MIN_WINDOW, MAX_WINDOW
                        ),
                        vol.Required(CONF_HISTORY_DAYS, default=DEFAULT_HISTORY_DAYS): _minutes(
                            0, MAX_HISTORY_DAYS, unit="d"
                        ),
                    }
                ),
                collapsed,
            ),
            vol.Required(SECTION_NOTIFICATIONS, default={}): section(
                vol.Schema(
                    {
                        vol.Required(
                            CONF_SENSITIVITY, default=DEFAULT_SENSITIVITY
                        ): selector.SelectSelector(
                            selector.SelectSelectorConfig(
                                options=list(SENSITIVITIES), translation_key=CONF_SENSITIVITY
                            )
                        ),
                        vol.Optional(CONF_NOTIFY, default=[]): selector.SelectSelector(
                            selector.SelectSelectorConfig(
                                options=notify_targets(hass), multiple=True, custom_value=True
                            )
                        ),
                        vol.Required(
                            CONF_FALSE_ALARM_DAYS, default=DEFAULT_FALSE_ALARM_DAYS
                        ): _minutes(1, MAX_FALSE_ALARM_DAYS, unit="d"),
                    }
                ),
                collapsed,
            ),
            vol.Required(SECTION_HOUSEHOLD, default={}): section(
                vol.Schema(
                    {
                        vol.Optional(CONF_PROFILE, default=""): selector.TextSelector(
                            selector.TextSelectorConfig(multiline=True)
                        ),
                        vol.Optional(CONF_PHONELESS): _people(MAX_PHONELESS),
                        vol.Optional(CONF_WEATHER_ENTITY): selector.EntitySelector(
                            selector.EntitySelectorConfig(domain="weather")
                        ),
                    }
                ),
                collapsed,
            ),
        }
    )


HYBRID_SCHEMA = vol.Schema(
    {
        vol.Required(CONF_LLM_MAY_DISMISS, default=False): selector.BooleanSelector(),
        vol.Required(CONF_LLM_MAY_ADD, default=False): selector.BooleanSelector(),
    }
)


def flatten(user_input: Mapping[str, Any]) -> dict[str, Any]:
    """The form's answer as stored options: the sections' fields at the top level."""
    flat: dict[str, Any] = {}
    for key, value in user_input.items():
        if key in SECTIONS and isinstance(value, Mapping):
            flat.update(value)
        else:
            flat[key] = value
    return flat


def answered(stored: Mapping[str, Any], answer: Mapping[str, Any]) -> dict[str, Any]:
    """The options after the options form's ``answer`` (flat): what it does not show kept,
    what it shows replaced, an emptied field without a default unset."""
    options = {**stored, **answer}
    for key in UNSET_WHEN_EMPTY:
        if key not in answer:
            options.pop(key, None)
    return options


def nest(options: Mapping[str, Any]) -> dict[str, Any]:
    """Stored options as the form's suggested values; numbers brought into today's bounds.

    Entries made before the bounds existed may hold, say, a year-long window: the form
    suggests the nearest allowed value rather than one it would refuse.
    """
    nested: dict[str, Any] = {name: {} for name in SECTIONS}
    owner = {key: name for name, keys in SECTIONS.items() for key in keys}
    for key, stored in options.items():
        value = stored
        if key in _BOUNDS and isinstance(stored, int | float):
            low, high = _BOUNDS[key]
            value = min(max(int(stored), low), high)
        if key in owner:
            nested[owner[key]][key] = value
        else:
            nested[key] = value
    return nested


def notify_targets(hass: HomeAssistant) -> list[str]:
    """Notify services and entities the homeowner can pick."""
    services = hass.services.async_services_for_domain("notify")
    legacy = {f"notify.{name}" for name in services if name != "send_message"}
    return sorted(legacy | set(hass.states.async_entity_ids("notify")))


def coverage_placeholders(hass: HomeAssistant, options: Mapping[str, Any]) -> dict[str, str]:
    """How many entities ``options`` watch, and which alarms the home has."""
    alarms = life_safety_sensors(hass)
    return {
        "watched": str(len(resolve_watched(hass, options))),
        "hazards": escape_markdown(names_of(alarms)) if alarms else "-",
    }
