"""The protocol every LLM backend implements, and the errors it raises."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

# A chat message: {"role": "system" | "user" | "assistant", "content": str}.
Message = Mapping[str, str]


class LLMError(Exception):
    """A backend could not produce a reply."""


class LLMAuthError(LLMError):
    """The backend rejected our credentials (HTTP 401/403)."""


class LLMUnavailableError(LLMError):
    """The backend is down, refused the connection, timed out or answered 5xx."""


class LLMResponseError(LLMError):
    """The backend answered, but not with something we can use."""


@runtime_checkable
class LLMBackend(Protocol):
    """Generates one reply for a chat, optionally constrained to a JSON schema."""

    name: str

    async def async_generate(
        self,
        messages: Sequence[Message],
        *,
        schema: Mapping[str, Any] | None = None,
        max_tokens: int = 512,
        timeout: float = 60.0,
    ) -> str:
        """Return the reply text. Raise an ``LLMError`` subclass on failure."""

    async def async_close(self) -> None:
        """Release connections, processes and other resources."""


@dataclass(frozen=True, slots=True)
class FirstToken:
    """The first token a model would answer with, and what it thought of the alternatives.

    ``logprobs`` maps token text to its log-probability (the top few, plus any token the
    request asked about); ``None`` when the backend gives only the sampled text.
    """

    text: str
    logprobs: Mapping[str, float] | None = None


@runtime_checkable
class FirstTokenBackend(Protocol):
    """A backend that can score a one-word answer instead of sampling a long one."""

    async def async_first_token(
        self,
        messages: Sequence[Message],
        *,
        words: Sequence[str] = (),
        top: int = 5,
        timeout: float = 60.0,
    ) -> FirstToken:
        """The first answer token with log-probabilities for ``words`` and the ``top`` ones."""
