"""The monitor set up in an in-process Home Assistant as a homeowner has it (the home
benchmark and the history replay start every HA instance this way)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from homeassistant.config_entries import ConfigEntry
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component

from custom_components.anomaly_monitor.const import DOMAIN


async def async_start_monitor(
    hass: HomeAssistant, options: Mapping[str, Any], title: str = "Home"
) -> None:
    """Set up HA's ``homeassistant`` integration and the monitor; add the monitor's entry
    with ``options`` unless the config folder already has one (a restart)."""
    # Always loaded in a real HA; it keeps the Assist exposure settings.
    if not await async_setup_component(hass, "homeassistant", {}):
        raise RuntimeError("homeassistant failed to set up")
    if not await async_setup_component(hass, DOMAIN, {}):
        raise RuntimeError("anomaly_monitor failed to set up")
    if hass.config_entries.async_entries(DOMAIN):
        return
    await hass.config_entries.async_add(user_entry(DOMAIN, title, options))


def user_entry(domain: str, title: str, options: Mapping[str, Any]) -> ConfigEntry:
    """A config entry of ``domain`` as the user adds it."""
    return ConfigEntry(
        data={},
        discovery_keys=MappingProxyType({}),
        domain=domain,
        minor_version=1,
        options=dict(options),
        source="user",
        subentries_data=None,
        title=title,
        unique_id=None,
        version=1,
    )
