"""A loopback judge: OpenAI chat completions (and Ollama's /api/chat) that rate explanations.

The reply is chosen by the requested model:
- ``by_text``: reads the detector's reasoning in the prompt: "Smoke" -> 5, "Moisture" -> 4,
  "unavailable" -> prose with no JSON (a reply the parser must reject), else 2;
- ``fenced``: the JSON in a code fence, score as the string "5/5";
- ``bare``: just ``4``;
- ``out_of_range``: ``{"score": 7}``; ``error500``: HTTP 500; ``garbage``: a body that is
  not JSON at all.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
import contextlib
import json
from typing import Any

from aiohttp import web

DETECTOR_MARK = "DETECTOR (a JSON object):"


def detector_part(body: dict[str, Any]) -> dict[str, Any]:
    """The DETECTOR object of the judge's user message."""
    user = str(body["messages"][-1]["content"])
    return dict(json.loads(user.split(DETECTOR_MARK, 1)[1].strip().split("\n\n", 1)[0]))


def detector_reasoning(body: dict[str, Any]) -> str:
    """The detector's reasoning and finding texts (not its device names)."""
    detector = detector_part(body)
    texts = [detector["reasoning"], *(f["text"] for f in detector["other_findings"])]
    return " ".join(texts)


def rate_by_text(detector: str) -> str:
    """The ``by_text`` judge's reply text."""
    if "Smoke" in detector:
        return json.dumps({"score": 5, "why": "Same smoke cause."})
    if "Moisture" in detector:
        return json.dumps({"score": 4, "why": "Leak found, location vague."})
    if "unavailable" in detector:
        return "This explanation looks quite reasonable to me."
    return json.dumps({"score": 2, "why": "Different problem."})


class JudgeServer:
    """Records every request; answers as its model name says."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.url = ""

    def _text(self, body: dict[str, Any]) -> str | None:
        model = body["model"]
        if model == "by_text":
            return rate_by_text(detector_reasoning(body))
        if model == "fenced":
            return 'Verdict:\n```json\n{"Score": "5/5", "Why": "Matches."}\n```'
        if model == "bare":
            return "4"
        if model == "out_of_range":
            return json.dumps({"score": 7, "why": "Very good."})
        return None

    async def chat(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()
        self.requests.append(body)
        if body["model"] == "error500":
            return web.Response(status=500, text="<html>Internal Server Error</html>")
        if body["model"] == "garbage":
            return web.Response(text="{not json", content_type="application/json")
        text = self._text(body)
        return web.json_response({"choices": [{"message": {"role": "assistant", "content": text}}]})

    async def ollama_chat(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()
        self.requests.append(body)
        return web.json_response({"message": {"role": "assistant", "content": self._text(body)}})


@contextlib.asynccontextmanager
async def judge_server() -> AsyncIterator[JudgeServer]:
    """Serve a JudgeServer on 127.0.0.1 (the test needs ``socket_enabled``)."""
    judge = JudgeServer()
    app = web.Application()
    app.router.add_post("/v1/chat/completions", judge.chat)
    app.router.add_post("/api/chat", judge.ollama_chat)
    runner = web.AppRunner(app, shutdown_timeout=0.1, handler_cancellation=True)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    judge.url = f"http://127.0.0.1:{runner.addresses[0][1]}"
    try:
        yield judge
    finally:
        await runner.cleanup()
