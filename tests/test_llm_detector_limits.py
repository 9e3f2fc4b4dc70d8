"""LLMDetector's limits: any backend exception is an LLMError, one time budget per analysis,
and a circuit breaker that skips a failing backend, then tries it again (half-open)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from custom_components.anomaly_monitor.core.llm.backend import (
    LLMError,
    LLMResponseError,
    LLMUnavailableError,
    Message,
)
from custom_components.anomaly_monitor.core.llm.detector import (
    CircuitOpenError,
    LLMDetector,
)

from .llm_windows import gas_leak_window
from .test_llm_detector import GAS, ScriptedBackend


class Clock:
    """A monotonic clock the test moves by hand; sleeping moves it too."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, delay: float) -> None:
        self.slept.append(delay)
        self.now += delay


class RaisingBackend(ScriptedBackend):
    """Raises what a buggy backend or library might: not an LLMError."""

    def __init__(self, error: BaseException) -> None:
        super().__init__()
        self.error = error

    async def async_generate(self, messages: Sequence[Message], **kwargs: Any) -> str:
        self.calls.append(dict(kwargs))
        raise self.error


class SlowBackend(ScriptedBackend):
    """Takes ``seconds`` of the test clock per call, then fails (a server timing out)."""

    def __init__(self, clock: Clock, seconds: float) -> None:
        super().__init__()
        self.clock, self.seconds = clock, seconds

    async def async_generate(
        self,
        messages: Sequence[Message],
        *,
        schema: Mapping[str, Any] | None = None,
        max_tokens: int = 512,
        timeout: float = 60.0,
    ) -> str:
        self.calls.append({"t": timeout})
        self.clock.now += min(self.seconds, timeout)
        raise LLMUnavailableError("did not answer")


@pytest.mark.parametrize(
    "error",
    [
        RecursionError("maximum recursion depth exceeded"),
        TypeError("unhashable type: 'dict'"),
        ValueError("Cannot combine AUTHORIZATION header with credentials in URL"),
        KeyError("choices"),
        TimeoutError(),
    ],
    ids=lambda e: type(e).__name__,
)
async def test_any_backend_exception_is_a_backend_failure(error: Exception) -> None:
    backend = RaisingBackend(error)
    clock = Clock()
    llm = LLMDetector(backend, sleep=clock.sleep, clock=clock, retries=1, backoff=1.0)
    with pytest.raises(LLMError) as caught:
        await llm.async_analyze(gas_leak_window())
    assert isinstance(caught.value, LLMResponseError | LLMUnavailableError)
    assert not llm.available
    assert len(backend.calls) == 2  # retried like any failure


async def test_cancellation_is_not_swallowed() -> None:
    backend = RaisingBackend(asyncio.CancelledError())
    llm = LLMDetector(backend)
    with pytest.raises(asyncio.CancelledError):
        await llm.async_analyze(gas_leak_window())


async def test_a_backend_that_ignores_its_timeout_is_cut_off() -> None:
    class Hanging(ScriptedBackend):
        async def async_generate(self, messages: Sequence[Message], **kwargs: Any) -> str:
            await asyncio.sleep(3600)
            return GAS

    llm = LLMDetector(Hanging(), timeout=0.05, retries=0)
    with pytest.raises(LLMUnavailableError, match="did not answer"):
        await asyncio.wait_for(llm.async_analyze(gas_leak_window()), timeout=5)


async def test_retries_and_backoff_share_one_budget() -> None:
    """Three tries of a 60 s timeout plus backoff would be ~186 s; the budget is 60 s."""
    clock = Clock()
    backend = SlowBackend(clock, seconds=25.0)
    llm = LLMDetector(backend, timeout=60.0, retries=2, backoff=2.0, sleep=clock.sleep, clock=clock)
    with pytest.raises(LLMUnavailableError):
        await llm.async_analyze(gas_leak_window())
    assert llm.last_duration is not None
    assert llm.last_duration <= 60.0
    # 25 s, 2 s backoff, 25 s, 4 s backoff, then only the 4 s left of the budget.
    assert [c["t"] for c in backend.calls] == [60.0, 33.0, 4.0]
    assert clock.slept == [2.0, 4.0]


async def test_circuit_opens_skips_the_model_then_half_opens() -> None:
    clock = Clock()
    backend = ScriptedBackend(*(LLMUnavailableError("HTTP 500") for _ in range(4)), GAS)
    llm = LLMDetector(
        backend, retries=0, failures_to_open=3, cool_down=60.0, sleep=clock.sleep, clock=clock
    )
    for _ in range(3):
        with pytest.raises(LLMUnavailableError, match="HTTP 500"):
            await llm.async_analyze(gas_leak_window())
    assert llm.circuit_open
    with pytest.raises(CircuitOpenError):
        await llm.async_analyze(gas_leak_window())
    assert len(backend.calls) == 3  # skipped: the backend was not asked
    assert "HTTP 500" in llm.status.reason  # the repair issue keeps the real cause

    clock.now += 61  # half-open: one try, it fails: open again, twice as long
    with pytest.raises(LLMUnavailableError, match="HTTP 500"):
        await llm.async_analyze(gas_leak_window())
    assert len(backend.calls) == 4
    clock.now += 61
    with pytest.raises(CircuitOpenError):
        await llm.async_analyze(gas_leak_window())

    clock.now += 60  # 121 s later: half-open again, and it answers: closed
    assert (await llm.async_analyze(gas_leak_window())).is_anomaly
    assert not llm.circuit_open
    assert llm.available
    assert llm.failures == 0
    assert llm.cool_down == 60.0
