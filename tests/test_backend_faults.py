"""Every way an LLM server can fail ends in the rules' verdict and a repair issue, never in a
failed analysis: a real hass, a loopback server, the OpenAI-compatible and Ollama backends."""

from __future__ import annotations

from collections.abc import AsyncIterator

from homeassistant.const import CONF_API_KEY
from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir
import pytest

from custom_components.anomaly_monitor.const import (
    BACKEND_OLLAMA,
    BACKEND_OPENAI,
    CONF_BACKEND,
    CONF_BASE_URL,
    CONF_DETECTOR,
    CONF_MODEL,
    CONF_REQUEST_TIMEOUT,
    DETECTOR_HYBRID,
    DETECTOR_LLM,
    DOMAIN,
)
from custom_components.anomaly_monitor.diagnostics import async_get_config_entry_diagnostics

from .fault_server import FaultServer, fault_server
from .helpers import SMOKE, analyze, set_calm_home, setup_monitor

FAULTS = (
    "error500",
    "error401",
    "hang",
    "reset",
    "huge",
    "deep_body",
    "deep_reply",
    "wrong_types",
)


@pytest.fixture
async def server(socket_enabled: None) -> AsyncIterator[FaultServer]:
    async with fault_server(SMOKE) as running:
        yield running


async def _monitor_with(
    hass: HomeAssistant, server: FaultServer, backend: str, model: str, detector: str, **extra: str
):  # type: ignore[no-untyped-def]
    set_calm_home(hass)
    hass.states.async_set(SMOKE, "on", {"device_class": "smoke", "friendly_name": "Kitchen smoke"})
    url = server.url + ("/v1" if backend == BACKEND_OPENAI else "")
    return await setup_monitor(
        hass,
        **{
            CONF_DETECTOR: detector,
            CONF_BACKEND: backend,
            CONF_BASE_URL: extra.pop("url", url),
            CONF_MODEL: model,
            CONF_REQUEST_TIMEOUT: 1,
            **extra,
        },
    )


@pytest.mark.parametrize("backend", [BACKEND_OPENAI, BACKEND_OLLAMA])
@pytest.mark.parametrize("fault", FAULTS)
async def test_fault_ends_in_the_rules_verdict_and_a_repair_issue(
    hass: HomeAssistant, server: FaultServer, backend: str, fault: str
) -> None:
    entry = await _monitor_with(hass, server, backend, fault, DETECTOR_HYBRID)
    response = await analyze(hass, entry)
    verdict = response["verdict"]
    assert verdict["label"] == "anomaly"
    assert SMOKE in verdict["evidence"]
    assert "The model agrees" not in verdict["reasoning"]  # the rules judged alone
    assert server.requests, "the backend was asked"
    issue = ir.async_get(hass).async_get_issue(DOMAIN, f"backend_unavailable_{entry.entry_id}")
    assert issue is not None
    assert entry.runtime_data.coordinator.last_update_success
    assert server.hanging == 0 or fault == "hang"


@pytest.mark.parametrize("backend", [BACKEND_OPENAI, BACKEND_OLLAMA])
@pytest.mark.parametrize("fault", ["error500", "deep_reply", "hang"])
async def test_llm_only_falls_back_to_the_rules(
    hass: HomeAssistant, server: FaultServer, backend: str, fault: str
) -> None:
    entry = await _monitor_with(hass, server, backend, fault, DETECTOR_LLM)
    verdict = (await analyze(hass, entry))["verdict"]
    assert verdict["label"] == "anomaly"
    assert SMOKE in verdict["evidence"]
    assert verdict["detector"] != "llm"
    assert ir.async_get(hass).async_get_issue(DOMAIN, f"backend_unavailable_{entry.entry_id}")


async def test_credentials_in_the_url_and_an_api_key_are_a_backend_failure(
    hass: HomeAssistant, server: FaultServer
) -> None:
    host = server.url.removeprefix("http://")
    entry = await _monitor_with(
        hass,
        server,
        BACKEND_OPENAI,
        "good",
        DETECTOR_HYBRID,
        url=f"http://user:secret@{host}/v1",
        **{CONF_API_KEY: "sk-key"},
    )
    verdict = (await analyze(hass, entry))["verdict"]
    assert verdict["label"] == "anomaly"
    assert SMOKE in verdict["evidence"]
    assert ir.async_get(hass).async_get_issue(DOMAIN, f"backend_unavailable_{entry.entry_id}")


@pytest.mark.parametrize("backend", [BACKEND_OPENAI, BACKEND_OLLAMA])
@pytest.mark.parametrize("model", ["lots", "stray"])
async def test_odd_but_usable_replies_are_the_models_verdict(
    hass: HomeAssistant, server: FaultServer, backend: str, model: str
) -> None:
    """Counters of the wrong type, a stray fragment before the answer: the answer counts."""
    entry = await _monitor_with(hass, server, backend, model, DETECTOR_HYBRID)
    verdict = (await analyze(hass, entry))["verdict"]
    assert verdict["evidence"] == [SMOKE]
    assert "The model agrees: The model sees smoke." in verdict["reasoning"]
    assert (
        ir.async_get(hass).async_get_issue(DOMAIN, f"backend_unavailable_{entry.entry_id}") is None
    )


async def test_circuit_breaker_skips_a_failing_backend(
    hass: HomeAssistant, server: FaultServer
) -> None:
    """Three failed analyses (the first at start-up): the fourth does not ask the server."""
    entry = await _monitor_with(hass, server, BACKEND_OPENAI, "error500", DETECTOR_HYBRID)
    await analyze(hass, entry)
    await analyze(hass, entry)
    asked = len(server.requests)
    assert asked == 3
    verdict = (await analyze(hass, entry))["verdict"]
    assert len(server.requests) == asked  # skipped: the rules judged at once
    assert SMOKE in verdict["evidence"]
    model = (await async_get_config_entry_diagnostics(hass, entry))["model"]
    assert model["available"] is False
    assert model["failed_analyses_in_a_row"] == 3
    assert 290 < model["skipped_for_seconds"] <= 300
