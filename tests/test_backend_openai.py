"""OpenAI-compatible backend against a loopback chat-completions server.

The server's behaviour is chosen by the requested model: well-formed, fenced, malformed,
slow, 500, a server that rejects json_schema, and 401 for a wrong key.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
import json
from typing import Any

from aiohttp import web
from homeassistant.const import CONF_API_KEY
from homeassistant.core import HomeAssistant
import pytest

from custom_components.anomaly_monitor.backends import async_validate_backend, create_backend
from custom_components.anomaly_monitor.backends.openai_compat import normalise_base_url
from custom_components.anomaly_monitor.const import (
    BACKEND_OPENAI,
    CONF_BACKEND,
    CONF_BASE_URL,
    CONF_MODEL,
)
from custom_components.anomaly_monitor.core.llm.backend import (
    LLMAuthError,
    LLMResponseError,
    LLMUnavailableError,
)
from custom_components.anomaly_monitor.core.llm.detector import LLMDetector

from .llm_windows import gas_leak_window

KEY = "sk-test"
ANSWER = {
    "label": "anomaly",
    "evidence": ["binary_sensor.kitchen_gas"],
    "anomaly_type": "safety_hazard",
    "severity": "critical",
    "reasoning": "Gas detected.",
    "recommendation": "Ventilate.",
}


class ChatServer:
    """A loopback OpenAI chat-completions server that records requests."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.fail_next = 0  # answer 500 this many times first
        self.url = ""

    async def chat(self, request: web.Request) -> web.StreamResponse:
        if request.headers.get("Authorization") != f"Bearer {KEY}":
            return web.json_response({"error": {"message": "bad key"}}, status=401)
        body = await request.json()
        self.requests.append(body)
        model = body["model"]
        if self.fail_next > 0:
            self.fail_next -= 1
            return web.json_response({"error": "overloaded"}, status=500)
        if model == "error500":
            return web.Response(status=500, text="<html>Internal Server Error</html>")
        if model == "slow":
            await asyncio.sleep(5)
        if model == "malformed":
            return web.Response(text='{"choices": [', content_type="application/json")
        if model == "no_choices":
            return web.json_response({"object": "chat.completion"})
        if model == "old_server" and "response_format" in body:
            return web.json_response({"error": "unknown field response_format"}, status=400)
        content = json.dumps(ANSWER)
        if model in ("fenced", "old_server"):
            content = f"Here you go:\n```json\n{content}\n```"
        return web.json_response(
            {
                "choices": [{"message": {"role": "assistant", "content": content}}],
                "usage": {"prompt_tokens": 321, "completion_tokens": 42},
            }
        )


@pytest.fixture
async def server(socket_enabled: None) -> AsyncIterator[ChatServer]:
    chat = ChatServer()
    app = web.Application()
    app.router.add_post("/v1/chat/completions", chat.chat)
    runner = web.AppRunner(app, shutdown_timeout=0.1, handler_cancellation=True)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    chat.url = f"http://127.0.0.1:{port}"
    yield chat
    await runner.cleanup()


def config(server: ChatServer, model: str, key: str = KEY) -> dict[str, Any]:
    return {
        CONF_BACKEND: BACKEND_OPENAI,
        CONF_BASE_URL: server.url,  # no path: /v1 is added
        CONF_MODEL: model,
        CONF_API_KEY: key,
    }


def test_base_url_normalisation() -> None:
    assert normalise_base_url("http://h:8080/") == "http://h:8080/v1"
    assert normalise_base_url("https://api.example/v1") == "https://api.example/v1"
    assert normalise_base_url("http://h/openai/v1/") == "http://h/openai/v1"


async def test_well_formed_reply_with_json_schema(hass: HomeAssistant, server: ChatServer) -> None:
    backend = create_backend(hass, config(server, "good"))
    window = gas_leak_window()
    verdict = await LLMDetector(backend).async_analyze(window)
    assert verdict.evidence == ("binary_sensor.kitchen_gas",)
    body = server.requests[0]
    assert body["temperature"] == 0
    schema = body["response_format"]["json_schema"]["schema"]
    assert schema["properties"]["evidence"]["items"]["enum"] == sorted(window.entity_ids)
    assert body["messages"][0]["role"] == "system"
    assert backend.last_usage == {"prompt_tokens": 321, "completion_tokens": 42}


async def test_fenced_reply_and_server_without_json_schema(
    hass: HomeAssistant, server: ChatServer
) -> None:
    fenced = await LLMDetector(create_backend(hass, config(server, "fenced"))).async_analyze(
        gas_leak_window()
    )
    assert fenced.is_anomaly
    backend = create_backend(hass, config(server, "old_server"))
    detector = LLMDetector(backend)
    assert (await detector.async_analyze(gas_leak_window())).is_anomaly
    assert not backend.schema_supported  # remembered: the next request is sent plain
    await detector.async_analyze(gas_leak_window())
    assert "response_format" not in server.requests[-1]


@pytest.mark.parametrize(
    ("model", "error", "match"),
    [
        ("error500", LLMUnavailableError, "HTTP 500"),
        ("malformed", LLMResponseError, "invalid JSON"),
        ("no_choices", LLMResponseError, "without choices"),
        ("slow", LLMUnavailableError, "did not answer within 0.3 s"),
    ],
)
async def test_faults_map_to_llm_errors(
    hass: HomeAssistant, server: ChatServer, model: str, error: type[Exception], match: str
) -> None:
    backend = create_backend(hass, config(server, model))
    with pytest.raises(error, match=match):
        await backend.async_generate([{"role": "user", "content": "hi"}], timeout=0.3)


async def test_wrong_key_is_an_auth_error(hass: HomeAssistant, server: ChatServer) -> None:
    with pytest.raises(LLMAuthError, match="HTTP 401"):
        await async_validate_backend(hass, config(server, "good", key="wrong"))
    await async_validate_backend(hass, config(server, "good"))
    assert server.requests[-1]["max_tokens"] == 1


async def test_connection_refused_is_unavailable(hass: HomeAssistant, server: ChatServer) -> None:
    cfg = config(server, "good")
    cfg[CONF_BASE_URL] = "http://127.0.0.1:9/v1"  # discard port: nothing listens
    with pytest.raises(LLMUnavailableError, match="Cannot connect"):
        await async_validate_backend(hass, cfg)


async def test_detector_retries_a_flaky_server(hass: HomeAssistant, server: ChatServer) -> None:
    server.fail_next = 2
    detector = LLMDetector(create_backend(hass, config(server, "good")), retries=2, backoff=0.01)
    assert (await detector.async_analyze(gas_leak_window())).is_anomaly
    assert len(server.requests) == 3
    server.fail_next = 3
    with pytest.raises(LLMUnavailableError):
        await detector.async_analyze(gas_leak_window())
    assert not detector.available
