"""Diagnostics show the monitor's state with personal data redacted."""

from __future__ import annotations

from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.components.diagnostics import (
    get_diagnostics_for_config_entry,
)
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.anomaly_monitor.const import (
    CONF_MODEL_PATH,
    CONF_NOTIFY,
    CONF_PROFILE,
    DOMAIN,
)

from .helpers import SMOKE, analyze, monitor_options, set_calm_home, setup_monitor


async def test_diagnostics_redact_profile_and_targets(
    hass: HomeAssistant, hass_client: ClientSessionGenerator
) -> None:
    """The household profile and notify targets never leave in diagnostics."""
    assert await async_setup_component(hass, "diagnostics", {})
    set_calm_home(hass)
    entry = await setup_monitor(
        hass, **{CONF_PROFILE: "two adults, night shifts", CONF_NOTIFY: ["notify.phone"]}
    )
    hass.states.async_set(SMOKE, "on", {"device_class": "smoke"})
    await analyze(hass, entry)
    diagnostics = await get_diagnostics_for_config_entry(hass, hass_client, entry)
    assert diagnostics["entry"]["options"][CONF_PROFILE] == "**REDACTED**"
    assert diagnostics["entry"]["options"][CONF_NOTIFY] == "**REDACTED**"
    assert "night shifts" not in str(diagnostics)
    assert diagnostics["detector"] == "rules+statistics"
    assert SMOKE in diagnostics["watched_entities"]
    assert diagnostics["last_analysis"]["verdict"]["evidence"] == [SMOKE]
    assert len(diagnostics["open_anomalies"]) == 1


async def test_diagnostics_name_the_model_file_without_its_folder(
    hass: HomeAssistant, hass_client: ClientSessionGenerator
) -> None:
    """A local model's folder may name a person (/home/zoe-r/...): only the file shows."""
    assert await async_setup_component(hass, "diagnostics", {})
    set_calm_home(hass)
    entry = MockConfigEntry(
        domain=DOMAIN,
        title="Home",
        data={CONF_MODEL_PATH: "/home/zoe-r/models/qwen2.5-0.5b-instruct-q4_k_m.gguf"},
        options=monitor_options(),
    )
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    diagnostics = await get_diagnostics_for_config_entry(hass, hass_client, entry)
    assert diagnostics["entry"]["data"] == {CONF_MODEL_PATH: "qwen2.5-0.5b-instruct-q4_k_m.gguf"}
    assert "zoe-r" not in str(diagnostics)
