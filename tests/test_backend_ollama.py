"""Ollama backend against a loopback server speaking /api/chat and /api/tags."""

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
from custom_components.anomaly_monitor.const import (
    BACKEND_OLLAMA,
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

ANSWER = {"label": "anomaly", "evidence": ["binary_sensor.kitchen_gas"], "severity": "critical"}


class OllamaServer:
    """A loopback Ollama server; the model name picks the behaviour."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.url = ""
        self.require_key: str | None = None

    def _denied(self, request: web.Request) -> web.Response | None:
        if (
            self.require_key
            and request.headers.get("Authorization") != f"Bearer {self.require_key}"
        ):
            return web.Response(status=401, text="unauthorized")
        return None

    async def tags(self, request: web.Request) -> web.Response:
        if denied := self._denied(request):
            return denied
        return web.json_response({"models": [{"name": "qwen2.5:0.5b", "model": "qwen2.5:0.5b"}]})

    async def chat(self, request: web.Request) -> web.Response:
        if denied := self._denied(request):
            return denied
        body = await request.json()
        self.requests.append(body)
        model = body["model"]
        if model == "error500":
            return web.Response(status=500, text="model crashed")
        if model == "slow":
            await asyncio.sleep(5)
        if model == "malformed":
            return web.Response(text="not json at all")
        if model == "missing":
            return web.json_response({"error": "model 'missing' not found"}, status=404)
        return web.json_response(
            {
                "model": model,
                "message": {"role": "assistant", "content": json.dumps(ANSWER)},
                "done": True,
                "prompt_eval_count": 250,
                "eval_count": 30,
            }
        )


@pytest.fixture
async def server(socket_enabled: None) -> AsyncIterator[OllamaServer]:
    ollama = OllamaServer()
    app = web.Application()
    app.router.add_post("/api/chat", ollama.chat)
    app.router.add_get("/api/tags", ollama.tags)
    runner = web.AppRunner(app, shutdown_timeout=0.1, handler_cancellation=True)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    ollama.url = f"http://127.0.0.1:{runner.addresses[0][1]}/"
    yield ollama
    await runner.cleanup()


def config(server: OllamaServer, model: str) -> dict[str, Any]:
    return {CONF_BACKEND: BACKEND_OLLAMA, CONF_BASE_URL: server.url, CONF_MODEL: model}


async def test_chat_with_format_schema(hass: HomeAssistant, server: OllamaServer) -> None:
    backend = create_backend(hass, config(server, "qwen2.5:0.5b"))
    window = gas_leak_window()
    verdict = await LLMDetector(backend).async_analyze(window)
    assert verdict.evidence == ("binary_sensor.kitchen_gas",)
    body = server.requests[0]
    assert body["stream"] is False
    assert body["format"]["properties"]["evidence"]["items"]["enum"] == sorted(window.entity_ids)
    assert body["options"]["temperature"] == 0
    assert backend.last_usage == {"prompt_tokens": 250, "completion_tokens": 30}


@pytest.mark.parametrize(
    ("model", "error", "match"),
    [
        ("error500", LLMUnavailableError, "HTTP 500"),
        ("malformed", LLMResponseError, "invalid JSON"),
        ("missing", LLMResponseError, "HTTP 404"),
        ("slow", LLMUnavailableError, "did not answer"),
    ],
)
async def test_faults(
    hass: HomeAssistant, server: OllamaServer, model: str, error: type[Exception], match: str
) -> None:
    backend = create_backend(hass, config(server, model))
    with pytest.raises(error, match=match):
        await backend.async_generate([{"role": "user", "content": "hi"}], timeout=0.3)


async def test_validation(hass: HomeAssistant, server: OllamaServer) -> None:
    await async_validate_backend(hass, config(server, "qwen2.5:0.5b"))
    with pytest.raises(LLMResponseError, match="ollama pull llama3"):
        await async_validate_backend(hass, config(server, "llama3"))
    server.require_key = "secret"
    with pytest.raises(LLMAuthError):
        await async_validate_backend(hass, config(server, "qwen2.5:0.5b"))
    await async_validate_backend(hass, {**config(server, "qwen2.5:0.5b"), CONF_API_KEY: "secret"})
    with pytest.raises(LLMUnavailableError, match="Cannot connect"):
        await async_validate_backend(
            hass, {**config(server, "qwen2.5:0.5b"), CONF_BASE_URL: "http://127.0.0.1:9"}
        )
