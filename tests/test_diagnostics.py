"""Diagnostics show the monitor's state with personal data redacted."""

from __future__ import annotations

from datetime import datetime, timedelta

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


async def test_the_window_s_times_are_told_in_one_time_zone(hass: HomeAssistant) -> None:
    """A live walk's diagnostics read the window as "start": "...06:22:58+00:00", "end":
    "...09:22:58+01:00" (UTC, then HA's local time): both, and the analysis, in UTC."""
    await hass.config.async_set_time_zone("Europe/Amsterdam")
    set_calm_home(hass)
    entry = await setup_monitor(hass)
    response = await analyze(hass, entry)
    window = response["window"]
    times = [window["start"], window["end"], response["analysed_at"]]
    assert all(t.endswith("+00:00") for t in times), times
    start, end = (datetime.fromisoformat(t) for t in times[:2])
    assert abs(end - start - timedelta(minutes=120)) < timedelta(seconds=1)  # its length
