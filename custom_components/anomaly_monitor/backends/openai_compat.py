"""OpenAI-compatible chat completions: OpenAI, llama.cpp server, vLLM, LM Studio, ...

The answer is constrained with ``response_format: json_schema``. Servers that reject
that field (HTTP 400) are asked again once without it, and not sent it afterwards;
the parser copes with the unconstrained reply. Second opinions ask for one token with
``logprobs: true, top_logprobs: N`` in the same way: a server that refuses them (400) is
asked without, and its sampled word is the answer from then on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit

from ..core.llm.backend import FirstToken, LLMResponseError, Message
from .http_chat import HTTPChatBackend, token_logprobs
from .http_errors import HTTPRequestError

NAME = "openai"
# What ``_post_unless_refused`` answers for a request the server rejected (HTTP 400).
REFUSED = object()


def normalise_base_url(url: str) -> str:
    """``http://host:8080`` -> ``http://host:8080/v1``; a URL with a path is kept as given."""
    url = url.strip().rstrip("/")
    if not urlsplit(url).path:
        url += "/v1"
    return url


class OpenAICompatBackend(HTTPChatBackend):
    """Talks to ``{base_url}/chat/completions``."""

    name = NAME

    normalise_url = staticmethod(normalise_base_url)
    schema_supported = True  # until a server refuses json_schema (then per instance)
    logprobs_supported = True  # until a server refuses logprobs (then per instance)

    async def async_generate(
        self,
        messages: Sequence[Message],
        *,
        schema: Mapping[str, Any] | None = None,
        max_tokens: int = 512,
        timeout: float = 60.0,
    ) -> str:
        """One chat completion; the reply's text."""
        payload = self._chat(messages, max_tokens=max_tokens, temperature=0, stream=False)
        url = f"{self.base_url}/chat/completions"
        if schema is not None and self.schema_supported:
            response_format = {
                "type": "json_schema",
                "json_schema": {"name": "verdict", "schema": dict(schema), "strict": False},
            }
            data = await self._post_unless_refused(
                url, payload | {"response_format": response_format}, timeout
            )
            if data is REFUSED:
                # An older server that does not know json_schema: ask without it.
                self.schema_supported = False
                data = await self._post(url, payload, timeout)
        else:
            data = await self._post(url, payload, timeout)
        return self._content(data, url)

    async def async_first_token(
        self,
        messages: Sequence[Message],
        *,
        words: Sequence[str] = (),
        top: int = 5,
        timeout: float = 60.0,
    ) -> FirstToken:
        """One token, with the server's top log-probabilities for it where it gives them.

        ``words`` cannot be asked for by name here: the top ``top`` (at most 20) have to
        hold them, which they do for a model answering yes or no.
        """
        payload = self._chat(messages, max_tokens=1, temperature=0, stream=False)
        url = f"{self.base_url}/chat/completions"
        if self.logprobs_supported:
            logprobs = {"logprobs": True, "top_logprobs": max(1, min(20, top))}
            data = await self._post_unless_refused(url, payload | logprobs, timeout)
            if data is REFUSED:
                self.logprobs_supported = False
                data = await self._post(url, payload, timeout)
        else:
            data = await self._post(url, payload, timeout)
        return FirstToken(_first_text(data), _first_logprobs(data))

    async def _post_unless_refused(self, url: str, payload: dict[str, Any], timeout: float) -> Any:
        """The reply, or ``REFUSED`` when the server rejects the request (HTTP 400): an
        older server that does not know one of its fields."""
        try:
            return await self._post(url, payload, timeout)
        except HTTPRequestError as err:
            if err.status != 400:
                raise
        return REFUSED

    def _content(self, data: Any, url: str) -> str:
        try:
            message = data["choices"][0]["message"]
            content = message.get("content")
        except (KeyError, IndexError, TypeError, AttributeError) as err:
            raise LLMResponseError(f"{url} answered without choices[0].message") from err
        if not isinstance(content, str) or not content.strip():
            raise LLMResponseError(f"{url} answered with an empty message")
        usage = data.get("usage") if isinstance(data, dict) else None
        if isinstance(usage, dict):
            self.last_usage = {k: v for k, v in usage.items() if isinstance(v, int)}
        return content

    async def async_validate(self, timeout: float = 30.0) -> None:
        """A one-token completion: checks URL, key and model in one request."""
        await self.async_generate(
            [{"role": "user", "content": "Reply with OK."}], max_tokens=1, timeout=timeout
        )


def _first_text(data: Any) -> str:
    """The reply's text, or "" when there is none (no opinion, not an error)."""
    try:
        content = data["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        return ""
    return content[:200] if isinstance(content, str) else ""


def _first_logprobs(data: Any) -> dict[str, float] | None:
    try:
        first = data["choices"][0]["logprobs"]["content"][0]
    except (KeyError, IndexError, TypeError):
        return None
    return token_logprobs(first)
