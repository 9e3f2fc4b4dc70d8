"""Ollama's native chat API, with the answer constrained by ``format`` (a JSON schema).

Second opinions ask for one token with ``logprobs: true, top_logprobs: N`` (Ollama
0.12.11 and later); an older server ignores those fields and its sampled word counts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
import contextlib
from typing import Any

from ..core.llm.backend import FirstToken, LLMResponseError, Message
from .http_chat import HTTPChatBackend, token_logprobs

NAME = "ollama"
DEFAULT_URL = "http://localhost:11434"


def _count(value: Any) -> int:
    """A token count from the reply; anything that is not one counts as 0."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


class OllamaBackend(HTTPChatBackend):
    """Talks to ``{base_url}/api/chat`` with ``stream: false``."""

    name = NAME

    async def async_generate(
        self,
        messages: Sequence[Message],
        *,
        schema: Mapping[str, Any] | None = None,
        max_tokens: int = 512,
        timeout: float = 60.0,
    ) -> str:
        """One chat turn; the reply's text."""
        payload = self._chat(
            messages, stream=False, options={"temperature": 0, "num_predict": max_tokens}
        )
        if schema is not None:
            payload["format"] = dict(schema)
        url = f"{self.base_url}/api/chat"
        data = await self._post(url, payload, timeout)
        try:
            content = data["message"]["content"]
        except (KeyError, TypeError) as err:
            raise LLMResponseError(f"{url} answered without message.content") from err
        if not isinstance(content, str) or not content.strip():
            raise LLMResponseError(f"{url} answered with an empty message")
        self.last_usage = {
            "prompt_tokens": _count(data.get("prompt_eval_count")),
            "completion_tokens": _count(data.get("eval_count")),
        }
        return content

    async def async_first_token(
        self,
        messages: Sequence[Message],
        *,
        words: Sequence[str] = (),
        top: int = 5,
        timeout: float = 60.0,
    ) -> FirstToken:
        """One token, with its top log-probabilities where the server gives them."""
        payload = self._chat(
            messages,
            stream=False,
            options={"temperature": 0, "num_predict": 1},
            logprobs=True,
            top_logprobs=max(1, min(20, top)),
        )
        data = await self._post(f"{self.base_url}/api/chat", payload, timeout)
        text = ""
        with contextlib.suppress(KeyError, TypeError):
            content = data["message"]["content"]
            text = content[:200] if isinstance(content, str) else ""
        return FirstToken(text, _first_logprobs(data))

    async def async_validate(self, timeout: float = 30.0) -> None:
        """The server answers and has the model pulled."""
        url = f"{self.base_url}/api/tags"
        data = await self._get(url, timeout)
        models = data.get("models") if isinstance(data, dict) else None
        if not isinstance(models, list):
            raise LLMResponseError(f"{url} is not an Ollama server (no model list)")
        names = {str(m.get("name", "")) for m in models if isinstance(m, dict)}
        names |= {str(m.get("model", "")) for m in models if isinstance(m, dict)}
        wanted = self.model if ":" in self.model else f"{self.model}:latest"
        if self.model not in names and wanted not in names:
            raise LLMResponseError(
                f"Ollama has no model {self.model!r}; run `ollama pull {self.model}` "
                f"(available: {', '.join(sorted(n for n in names if n)) or 'none'})"
            )


def _first_logprobs(data: Any) -> dict[str, float] | None:
    try:
        first = data["logprobs"][0]
    except (KeyError, IndexError, TypeError):
        return None
    return token_logprobs(first)
