"""A loopback LLM server that fails in every way a real one can, by requested model name.

Serves OpenAI's ``/v1/chat/completions`` and Ollama's ``/api/chat``. Models:
``error500``, ``error401``, ``hang`` (never answers), ``reset`` (drops the connection
mid-body), ``huge`` (a 50 MB body), ``deep_body`` (200k ``[`` as the HTTP body),
``deep_reply`` (valid HTTP JSON whose message is 200k ``[``), ``wrong_types`` (the message
content is a number), ``lots`` (a valid answer with ``"prompt_eval_count": "lots"``),
``stray`` (``{{}}`` before a valid answer), ``says_normal`` (always "normal"), ``gate``
(answers once ``gate`` is set); anything else answers ``answer()``.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
import contextlib
import json
from typing import Any

from aiohttp import web

from custom_components.anomaly_monitor.core.llm.explanations import SYSTEM as EXPLAIN_SYSTEM

HUGE_BYTES = 50 * 1024 * 1024
DEEP = "[" * 200_000


def answer(entity_id: str) -> dict[str, Any]:
    """The model's verdict: an anomaly citing ``entity_id``."""
    return {
        "label": "anomaly",
        "evidence": [entity_id],
        "anomaly_type": "safety_hazard",
        "severity": "critical",
        "reasoning": "The model sees smoke.",
        "recommendation": "Leave the house.",
    }


class FaultServer:
    """Records requests; fails as the model name asks."""

    def __init__(self, cited: str) -> None:
        self.cited = cited
        self.requests: list[dict[str, Any]] = []
        self.url = ""
        self.hanging = 0  # requests currently held open by "hang"
        self.gate = asyncio.Event()  # the "gate" model answers once this is set
        # What any model answers when asked for a homeowner explanation (None: as above).
        self.explanation: str | None = None

    async def _fault(self, request: web.Request, model: str) -> web.StreamResponse | None:
        if model == "error500":
            return web.Response(status=500, text="<html>" + "Internal error " * 5000 + "</html>")
        if model == "error401":
            return web.json_response({"error": "bad key"}, status=401)
        if model == "hang":
            self.hanging += 1
            try:
                await asyncio.sleep(3600)
            finally:
                self.hanging -= 1
        if model == "gate":
            await self.gate.wait()
        if model == "deep_body":
            return web.Response(text=DEEP, content_type="application/json")
        if model in ("reset", "huge"):
            response = web.StreamResponse(headers={"Content-Type": "application/json"})
            if model == "reset":
                response.content_length = 10_000
            await response.prepare(request)
            with contextlib.suppress(ConnectionError):
                if model == "reset":
                    await response.write(b'{"choices": [{"message": {"content": "{\\"label')
                    assert request.transport is not None
                    request.transport.close()
                    return response
                chunk = b" " * (1024 * 1024)
                for _ in range(HUGE_BYTES // len(chunk)):
                    await response.write(chunk)
                await response.write_eof()
            return response
        return None

    def _content(self, model: str) -> Any:
        text = json.dumps(answer(self.cited))
        if model == "deep_reply":
            return DEEP
        if model == "wrong_types":
            return 42
        if model == "stray":
            return "{{}} " + text
        if model == "says_normal":
            return json.dumps({"label": "normal", "evidence": [], "reasoning": "All is calm."})
        return text

    async def openai(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()
        self.requests.append(body)
        if (fault := await self._fault(request, body["model"])) is not None:
            return fault
        content = self._content(body["model"])
        if self.explanation is not None and body["messages"][0]["content"] == EXPLAIN_SYSTEM:
            content = self.explanation
        message = {"role": "assistant", "content": content}
        usage: Any = {"prompt_tokens": "lots"} if body["model"] == "lots" else {}
        return web.json_response({"choices": [{"message": message}], "usage": usage})

    async def ollama(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()
        self.requests.append(body)
        if (fault := await self._fault(request, body["model"])) is not None:
            return fault
        reply: dict[str, Any] = {
            "message": {"role": "assistant", "content": self._content(body["model"])},
            "prompt_eval_count": "lots" if body["model"] == "lots" else 120,
            "eval_count": None,
        }
        return web.json_response(reply)


@contextlib.asynccontextmanager
async def fault_server(cited: str) -> AsyncIterator[FaultServer]:
    """Run a ``FaultServer`` on a free loopback port; no handler task outlives it."""
    server = FaultServer(cited)
    app = web.Application()
    app.router.add_post("/v1/chat/completions", server.openai)
    app.router.add_post("/api/chat", server.ollama)
    runner = web.AppRunner(app, handler_cancellation=True, shutdown_timeout=0.1)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    server.url = f"http://127.0.0.1:{runner.addresses[0][1]}"
    try:
        yield server
    finally:
        await runner.cleanup()
