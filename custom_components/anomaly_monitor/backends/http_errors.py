"""Map HTTP failures of LLM servers onto the LLMError family, with messages a user can act on."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
import json
from typing import Any

import aiohttp

from ..core.llm import LLMAuthError, LLMResponseError, LLMUnavailableError

# Error bodies can be huge HTML pages: keep a hint, not the page.
_BODY_HINT_LENGTH = 200


class HTTPRequestError(LLMResponseError):
    """A 4xx answer other than auth: the request itself was refused."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


def error_for_status(status: int, body: str, url: str) -> Exception:
    """The LLMError for an HTTP error status."""
    hint = " ".join(body.split())[:_BODY_HINT_LENGTH]
    if status in (401, 403):
        return LLMAuthError(f"{url} rejected the API key (HTTP {status}): {hint}")
    if status in (408, 429) or status >= 500:
        return LLMUnavailableError(f"{url} is unavailable (HTTP {status}): {hint}")
    if status == 404:
        return HTTPRequestError(
            f"{url} not found (HTTP 404), check the URL and model: {hint}", status
        )
    return HTTPRequestError(f"{url} refused the request (HTTP {status}): {hint}", status)


@asynccontextmanager
async def mapped_errors(url: str, timeout: float) -> AsyncIterator[None]:
    """Turn connection errors and timeouts inside the block into LLMUnavailableError."""
    try:
        yield
    except TimeoutError as err:
        raise LLMUnavailableError(f"{url} did not answer within {timeout:g} s") from err
    except aiohttp.ClientConnectionError as err:
        raise LLMUnavailableError(f"Cannot connect to {url}: {err}") from err
    except aiohttp.ClientError as err:
        raise LLMUnavailableError(f"Request to {url} failed: {err}") from err


async def post_json(
    session: aiohttp.ClientSession,
    url: str,
    payload: dict[str, Any],
    *,
    headers: dict[str, str],
    timeout: float,
) -> Any:
    """POST ``payload`` and return the decoded JSON reply; raise an LLMError otherwise."""
    async with (
        mapped_errors(url, timeout),
        session.post(
            url, json=payload, headers=headers, timeout=aiohttp.ClientTimeout(total=timeout)
        ) as response,
    ):
        body = await response.text()
        if response.status >= 400:
            raise error_for_status(response.status, body, url)
    return decode_json(body, url)


async def get_json(
    session: aiohttp.ClientSession, url: str, *, headers: dict[str, str], timeout: float
) -> Any:
    """GET ``url`` and return the decoded JSON reply; raise an LLMError otherwise."""
    async with (
        mapped_errors(url, timeout),
        session.get(url, headers=headers, timeout=aiohttp.ClientTimeout(total=timeout)) as response,
    ):
        body = await response.text()
        if response.status >= 400:
            raise error_for_status(response.status, body, url)
    return decode_json(body, url)


def decode_json(body: str, url: str) -> Any:
    """The JSON in ``body``, or LLMResponseError naming the server."""
    try:
        return json.loads(body)
    except ValueError as err:
        snippet = " ".join(body.split())[:_BODY_HINT_LENGTH]
        raise LLMResponseError(f"{url} answered with invalid JSON: {snippet!r}") from err
