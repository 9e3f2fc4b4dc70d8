"""What the HTTP chat backends (OpenAI-compatible, Ollama) share: session, URL, model, key."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import aiohttp

from ..core.llm.backend import Message
from .http_errors import get_json, post_json


class HTTPChatBackend:
    """A chat server reached over HA's shared aiohttp session, with an optional API key."""

    @staticmethod
    def normalise_url(url: str) -> str:
        """The server's base URL as requests are built on it."""
        return url.strip().rstrip("/")

    def __init__(
        self,
        session: aiohttp.ClientSession,
        base_url: str,
        model: str,
        api_key: str | None = None,
    ) -> None:
        self._session = session  # shared: never closed here
        self.base_url = self.normalise_url(base_url)
        self.model = model
        self._api_key = api_key  # Ollama: for one behind an authenticating proxy
        self.last_usage: dict[str, int] = {}

    def _chat(self, messages: Sequence[Message], **fields: Any) -> dict[str, Any]:
        """A chat request's body: the model, the messages, then ``fields`` in order."""
        return {"model": self.model, "messages": [dict(m) for m in messages], **fields}

    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self._api_key}"} if self._api_key else {}

    async def _post(self, url: str, payload: dict[str, Any], timeout: float) -> Any:
        return await post_json(
            self._session, url, payload, headers=self._headers(), timeout=timeout
        )

    async def _get(self, url: str, timeout: float) -> Any:
        return await get_json(self._session, url, headers=self._headers(), timeout=timeout)

    async def async_close(self) -> None:
        """Nothing to release: the session is Home Assistant's shared one."""


def token_logprobs(first: Any) -> dict[str, float] | None:
    """``{token: logprob}`` of one reply token and its ``top_logprobs`` alternatives.

    OpenAI-compatible servers and Ollama describe a token the same way:
    ``{"token", "logprob", "top_logprobs": [{"token", "logprob"}, ...]}``. Anything
    malformed is left out; nothing usable is ``None``.
    """
    if not isinstance(first, dict):
        return None
    scored: dict[str, float] = {}
    candidates = first.get("top_logprobs")
    for item in [*(candidates if isinstance(candidates, list) else [])[:20], first]:
        if not isinstance(item, dict):
            continue
        token, logprob = item.get("token"), item.get("logprob")
        if isinstance(logprob, bool) or not isinstance(logprob, int | float):
            continue
        if isinstance(token, str):
            scored.setdefault(token[:40], float(logprob))
    return scored or None
