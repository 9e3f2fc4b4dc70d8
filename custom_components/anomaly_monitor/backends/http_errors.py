"""Map HTTP failures of LLM servers onto the LLMError family, with messages a user can act on."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
import json
from typing import Any

import aiohttp

from ..core.llm.backend import LLMAuthError, LLMResponseError, LLMUnavailableError

# Error bodies can be huge HTML pages: keep a hint, not the page.
_BODY_HINT_LENGTH = 200
# A chat reply is a few kB: more than this is not read (streamed, so never held in memory).
MAX_REPLY_BYTES = 1024 * 1024
# Of an error page, only the start is read: enough for the hint.
MAX_ERROR_BYTES = 16 * 1024
_READ_CHUNK = 64 * 1024


class HTTPRequestError(LLMResponseError):
    """A 4xx answer other than auth: the request itself was refused."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


def body_hint(body: str) -> str:
    """The start of ``body`` on one line, for an error message (cut before normalising)."""
    return " ".join(body[: _BODY_HINT_LENGTH * 4].split())[:_BODY_HINT_LENGTH]


def error_for_status(status: int, body: str, url: str) -> Exception:
    """The LLMError for an HTTP error status."""
    hint = body_hint(body)
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
    except ValueError as err:  # e.g. credentials in the URL and an API key header at once
        raise LLMResponseError(f"Request to {url} could not be made: {err}") from err


async def read_body(response: aiohttp.ClientResponse, limit: int) -> tuple[str, bool]:
    """At most ``limit`` bytes of the body, decoded, and whether there was more."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.content.iter_chunked(_READ_CHUNK):
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            break
    data = b"".join(chunks)
    charset = response.charset or "utf-8"
    try:
        text = data[:limit].decode(charset, errors="replace")
    except LookupError:  # a charset Python does not know
        text = data[:limit].decode("utf-8", errors="replace")
    return text, size > limit


async def _read_reply(response: aiohttp.ClientResponse, url: str) -> str:
    """The body of a reply, or the LLMError its status or size calls for."""
    if response.status >= 400:
        body, _ = await read_body(response, MAX_ERROR_BYTES)
        raise error_for_status(response.status, body, url)
    body, too_big = await read_body(response, MAX_REPLY_BYTES)
    if too_big:
        raise LLMResponseError(f"{url} answered with more than {MAX_REPLY_BYTES // 1024} kB")
    return body


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
        body = await _read_reply(response, url)
    return decode_json(body, url)


async def get_json(
    session: aiohttp.ClientSession, url: str, *, headers: dict[str, str], timeout: float
) -> Any:
    """GET ``url`` and return the decoded JSON reply; raise an LLMError otherwise."""
    async with (
        mapped_errors(url, timeout),
        session.get(url, headers=headers, timeout=aiohttp.ClientTimeout(total=timeout)) as response,
    ):
        body = await _read_reply(response, url)
    return decode_json(body, url)


def decode_json(body: str, url: str) -> Any:
    """The JSON in ``body``, or LLMResponseError naming the server."""
    try:
        return json.loads(body)
    except (ValueError, RecursionError) as err:  # deep nesting ("[[[[...") is invalid too
        raise LLMResponseError(f"{url} answered with invalid JSON: {body_hint(body)!r}") from err
