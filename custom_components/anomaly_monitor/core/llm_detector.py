"""A detector that asks an LLM backend to judge the window.

One analysis is one backend call, retried a bounded number of times with exponential
backoff when the backend is unavailable or answers something unusable. When every try
fails the detector raises the last ``LLMError``: the caller (the monitor, or the hybrid
detector) then judges that window with the rules, so no analysis is lost or done twice.

The detector also tracks whether its backend is up, and tells listeners when that
changes, so the integration can raise one repair issue while it is down and clear it
on recovery.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
import logging
import time

from .llm import LLMAuthError, LLMBackend, LLMError, LLMResponseError
from .models import ContextWindow, Verdict
from .parsing import ParsedReply, parse_for_window
from .prompts import (
    SNAPSHOT_EXAMPLES,
    PromptExample,
    PromptForm,
    build_messages,
    choose_form,
    verdict_schema,
)

_LOGGER = logging.getLogger(__name__)

DEFAULT_RETRIES = 2  # so three tries in all
DEFAULT_BACKOFF = 2.0  # seconds before the first retry; doubled each time
MAX_BACKOFF = 30.0
DEFAULT_MAX_TOKENS = 200  # the answer is a short JSON object

StatusListener = Callable[["BackendStatus"], None]


class NoVerdictError(LLMResponseError):
    """The backend answered, but no verdict could be read from the reply."""

    def __init__(self, parsed: ParsedReply) -> None:
        super().__init__(f"No verdict in the model's reply ({parsed.error})")
        self.raw = parsed.raw


@dataclass(frozen=True, slots=True)
class BackendStatus:
    """Whether the backend answered the last analysis, and the error if it did not."""

    available: bool
    error: LLMError | None = None

    @property
    def auth_failed(self) -> bool:
        """The backend rejected the credentials: only the user can fix that (reauth)."""
        return isinstance(self.error, LLMAuthError)

    @property
    def reason(self) -> str:
        """Short text for a repair issue or diagnostics."""
        return str(self.error) if self.error else ""


class LLMDetector:
    """Detector backed by an ``LLMBackend``."""

    def __init__(
        self,
        backend: LLMBackend,
        *,
        name: str = "llm",
        form: PromptForm | None = None,
        examples: Sequence[PromptExample] = (),
        builtin_examples: bool = True,
        suppressed: Sequence[str] = (),
        timeout: float = 60.0,
        max_tokens: int = DEFAULT_MAX_TOKENS,
        retries: int = DEFAULT_RETRIES,
        backoff: float = DEFAULT_BACKOFF,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.backend = backend
        self.name = name
        self.form = form  # None: chosen per window (sequence when it has events)
        self.examples: tuple[PromptExample, ...] = tuple(examples)  # e.g. false alarms
        self.builtin_examples = builtin_examples
        self.suppressed = set(suppressed)
        self.timeout = timeout
        self.max_tokens = max_tokens
        self.retries = max(0, retries)
        self.backoff = backoff
        self._sleep = sleep
        self._listeners: list[StatusListener] = []
        self.status = BackendStatus(available=True)
        self.last_reply: str | None = None  # raw text of the last reply, for diagnostics
        self.last_duration: float | None = None  # seconds the last analysis took

    @property
    def available(self) -> bool:
        """The last analysis got a verdict from the backend (True before the first)."""
        return self.status.available

    def add_status_listener(self, listener: StatusListener) -> Callable[[], None]:
        """Call ``listener`` when the backend goes down, comes back or starts/stops
        rejecting the credentials. Returns a function that removes the listener."""
        self._listeners.append(listener)

        def remove() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return remove

    async def async_analyze(self, window: ContextWindow) -> Verdict:
        """Judge ``window``; raise the last ``LLMError`` when every try failed."""
        form = self.form or choose_form(window)
        builtin = SNAPSHOT_EXAMPLES if self.builtin_examples and form is PromptForm.SNAPSHOT else ()
        messages = build_messages(window, form, examples=(*builtin, *self.examples))
        schema = verdict_schema(window.entity_ids)
        started = time.monotonic()
        error: LLMError | None = None
        for attempt in range(self.retries + 1):
            if attempt:
                await self._sleep(min(MAX_BACKOFF, self.backoff * 2 ** (attempt - 1)))
            try:
                reply = await self.backend.async_generate(
                    messages, schema=schema, max_tokens=self.max_tokens, timeout=self.timeout
                )
            except LLMAuthError as err:
                error = err  # retrying with the same key cannot help
                break
            except LLMError as err:
                error = err
                _LOGGER.debug("Backend %s try %d failed: %s", self.backend.name, attempt + 1, err)
                continue
            self.last_reply = reply
            parsed = parse_for_window(reply, window, self.name)
            if parsed.verdict is None:
                error = NoVerdictError(parsed)
                _LOGGER.debug("Unusable reply from %s: %s", self.backend.name, parsed.error)
                continue
            self.last_duration = time.monotonic() - started
            self._set_status(BackendStatus(available=True))
            return self._apply_suppression(parsed.verdict)
        assert error is not None
        self.last_duration = time.monotonic() - started
        self._set_status(BackendStatus(available=False, error=error))
        raise error

    def _apply_suppression(self, verdict: Verdict) -> Verdict:
        """Drop findings the user marked as false alarms (same signature)."""
        if not verdict.is_anomaly or not self.suppressed:
            return verdict
        kept = tuple(f for f in verdict.findings if f.signature not in self.suppressed)
        if kept:
            return replace(verdict, findings=kept)
        return Verdict.normal(self.name, "Matches a pattern the owner marked as a false alarm.")

    def _set_status(self, status: BackendStatus) -> None:
        changed = (status.available, status.auth_failed) != (
            self.status.available,
            self.status.auth_failed,
        )
        self.status = status
        if not changed:
            return
        if status.available:
            _LOGGER.info("LLM backend %s is answering again", self.backend.name)
        else:
            _LOGGER.warning("LLM backend %s is unavailable: %s", self.backend.name, status.reason)
        for listener in list(self._listeners):
            try:
                listener(status)
            except Exception:  # one broken listener must not stop the others
                _LOGGER.exception("Backend status listener failed")

    async def async_close(self) -> None:
        """Release the backend (worker process, connections)."""
        await self.backend.async_close()
