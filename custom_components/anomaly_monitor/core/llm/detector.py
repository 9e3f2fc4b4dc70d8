"""A detector that asks an LLM backend to judge the window.

One analysis is one backend call, retried a bounded number of times with exponential
backoff when the backend is unavailable or answers something unusable. ``timeout`` bounds
the whole analysis - every try, and the backoff between them - so a hanging backend costs
at most that long. When every try fails the detector raises an ``LLMError``, whatever the
backend or the parser raised (only cancellation passes through): the caller (the monitor,
or the hybrid detector) then judges that window with the rules, so no analysis is lost.

A circuit breaker stops asking a backend that keeps failing: after ``failures_to_open``
failed analyses in a row the model is skipped (``CircuitOpenError`` at once, the rules
judge) for ``cool_down`` seconds; then one analysis tries it once (half-open). Success
closes the circuit; failure opens it again for twice as long, up to ``MAX_COOL_DOWN``.

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
from typing import Any

from ..feedback import is_hazard
from ..models import ContextWindow, Verdict
from .backend import (
    LLMAuthError,
    LLMBackend,
    LLMError,
    LLMResponseError,
    LLMUnavailableError,
    Message,
)
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
# A retry is not started with less time than this left in the analysis' budget.
MIN_TRY_SECONDS = 1.0
# A backend that ignores its timeout is cut off this long after it.
TIMEOUT_GRACE = 1.0
DEFAULT_FAILURES_TO_OPEN = 3
DEFAULT_COOL_DOWN = 300.0
MAX_COOL_DOWN = 1800.0

StatusListener = Callable[["BackendStatus"], None]


class NoVerdictError(LLMResponseError):
    """The backend answered, but no verdict could be read from the reply."""

    def __init__(self, parsed: ParsedReply) -> None:
        super().__init__(f"No verdict in the model's reply ({parsed.error})")
        self.raw = parsed.raw


class CircuitOpenError(LLMUnavailableError):
    """The backend failed repeatedly: it is not asked until the cool-down is over."""


def unexpected_error(backend: str, err: Exception) -> LLMResponseError:
    """A backend or parser bug (anything not an ``LLMError``) as a backend failure."""
    return LLMResponseError(f"{backend} failed unexpectedly: {type(err).__name__}: {err}"[:300])


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
        failures_to_open: int = DEFAULT_FAILURES_TO_OPEN,
        cool_down: float = DEFAULT_COOL_DOWN,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        clock: Callable[[], float] = time.monotonic,
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
        self._clock = clock
        self.failures_to_open = max(1, failures_to_open)
        self.base_cool_down = cool_down
        self.cool_down = cool_down  # doubles after each failed half-open try
        self.failures = 0  # failed analyses in a row
        self.open_until: float | None = None  # clock time the circuit half-opens at
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

    def now(self) -> float:
        """The detector's clock (monotonic seconds)."""
        return self._clock()

    @property
    def circuit_open(self) -> bool:
        """The model is being skipped after repeated failures."""
        return self.open_until is not None and self._clock() < self.open_until

    async def async_analyze(self, window: ContextWindow) -> Verdict:
        """Judge ``window``; raise an ``LLMError`` when the model gave no verdict in time."""
        started = self._clock()
        if self.open_until is not None and started < self.open_until:
            raise CircuitOpenError(
                f"{self.backend.name} skipped for {self.open_until - started:.0f} s after "
                f"{self.failures} failed analyses"
            )
        half_open = self.open_until is not None
        try:
            verdict = await self._async_ask(window, started, tries=1 if half_open else None)
        except LLMError as err:
            self.last_duration = self._clock() - started
            self._failed(err, half_open)
            raise
        self.last_duration = self._clock() - started
        self.failures, self.open_until, self.cool_down = 0, None, self.base_cool_down
        self._set_status(BackendStatus(available=True))
        return verdict

    async def _async_ask(self, window: ContextWindow, started: float, tries: int | None) -> Verdict:
        """Tries within the budget; the verdict, or the last error."""
        form = self.form or choose_form(window)
        builtin = SNAPSHOT_EXAMPLES if self.builtin_examples and form is PromptForm.SNAPSHOT else ()
        messages = build_messages(window, form, examples=(*builtin, *self.examples))
        schema = verdict_schema(window.entity_ids)
        deadline = started + self.timeout
        error: LLMError = LLMUnavailableError(f"{self.backend.name} was not asked: no time left")
        for attempt in range(tries or self.retries + 1):
            if attempt:
                delay = min(MAX_BACKOFF, self.backoff * 2 ** (attempt - 1))
                if self._clock() + delay + MIN_TRY_SECONDS > deadline:
                    break  # the budget is spent: the rules judge now rather than later
                await self._sleep(delay)
            remaining = deadline - self._clock() if attempt else self.timeout
            if remaining < MIN_TRY_SECONDS and attempt:
                break
            try:
                reply = await self._async_generate(messages, schema, max(remaining, 0.1))
            except LLMAuthError as err:
                raise err from None  # retrying with the same key cannot help
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
            return self._apply_suppression(parsed.verdict)
        raise error

    async def _async_generate(
        self, messages: list[Message], schema: dict[str, Any], timeout: float
    ) -> str:
        """One backend call, cut off at ``timeout`` even if the backend ignores it."""
        try:
            async with asyncio.timeout(timeout + TIMEOUT_GRACE):
                return await self.backend.async_generate(
                    messages, schema=schema, max_tokens=self.max_tokens, timeout=timeout
                )
        except LLMError:
            raise
        except TimeoutError as err:
            raise LLMUnavailableError(
                f"{self.backend.name} did not answer within {timeout:g} s"
            ) from err
        except Exception as err:  # a backend bug is a backend failure, not a failed analysis
            _LOGGER.debug("Backend %s raised", self.backend.name, exc_info=True)
            raise unexpected_error(self.backend.name, err) from err

    def _failed(self, error: LLMError, half_open: bool) -> None:
        """Count a failed analysis; open the circuit after enough of them."""
        self.failures += 1
        if half_open:
            self.cool_down = min(MAX_COOL_DOWN, self.cool_down * 2)
        if half_open or self.failures >= self.failures_to_open:
            self.open_until = self._clock() + self.cool_down
            _LOGGER.debug(
                "Backend %s skipped for %.0f s after %d failed analyses",
                self.backend.name,
                self.cool_down,
                self.failures,
            )
        self._set_status(BackendStatus(available=False, error=error))

    def _apply_suppression(self, verdict: Verdict) -> Verdict:
        """Drop findings the user marked as false alarms (same signature); never a safety
        hazard (a mark on "gas sensor glitch" must not hide the gas leak)."""
        if not verdict.is_anomaly or not self.suppressed:
            return verdict
        kept = tuple(
            f
            for f in verdict.findings
            if f.signature not in self.suppressed or is_hazard(f.anomaly_type, f.severity)
        )
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
