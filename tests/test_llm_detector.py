"""LLMDetector: prompt + schema to the backend, bounded retries, status for the repair issue."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
import json
from typing import Any

import pytest

from custom_components.anomaly_monitor.core.llm.backend import (
    LLMAuthError,
    LLMBackend,
    LLMError,
    LLMResponseError,
    LLMUnavailableError,
    Message,
)
from custom_components.anomaly_monitor.core.llm.detector import (
    BackendStatus,
    LLMDetector,
    NoVerdictError,
)
from custom_components.anomaly_monitor.core.llm.prompts import false_alarm_example_from_states
from custom_components.anomaly_monitor.core.models import Label

from .llm_windows import gas_leak_window, toggle_storm_window

GAS = json.dumps(
    {
        "label": "anomaly",
        "evidence": ["binary_sensor.kitchen_gas"],
        "anomaly_type": "safety_hazard",
        "severity": "critical",
        "reasoning": "Gas detected in the kitchen.",
        "recommendation": "Ventilate.",
    }
)


class ScriptedBackend:
    """Plays back replies or errors in order and records what it was asked."""

    name = "scripted"

    def __init__(self, *script: str | LLMError) -> None:
        self.script = list(script)
        self.calls: list[dict[str, Any]] = []
        self.closed = False

    async def async_generate(
        self,
        messages: Sequence[Message],
        *,
        schema: Mapping[str, Any] | None = None,
        max_tokens: int = 512,
        timeout: float = 60.0,
    ) -> str:
        self.calls.append(
            {"messages": list(messages), "schema": schema, "max_tokens": max_tokens, "t": timeout}
        )
        item = self.script.pop(0)
        if isinstance(item, LLMError):
            raise item
        return item

    async def async_close(self) -> None:
        self.closed = True


class Sleeps:
    """Records backoff delays instead of waiting them out."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, delay: float) -> None:
        self.delays.append(delay)


def detector(backend: ScriptedBackend, **kwargs: Any) -> tuple[LLMDetector, Sleeps]:
    sleeps = Sleeps()
    assert isinstance(backend, LLMBackend)
    return LLMDetector(backend, sleep=sleeps, backoff=1.0, **kwargs), sleeps


async def test_sends_window_and_schema_and_returns_verdict() -> None:
    backend = ScriptedBackend(GAS)
    llm, sleeps = detector(backend, timeout=12)
    window = gas_leak_window()
    verdict = await llm.async_analyze(window)
    assert verdict.label is Label.ANOMALY
    assert verdict.evidence == ("binary_sensor.kitchen_gas",)
    assert verdict.detector == "llm"
    call = backend.calls[0]
    assert call["schema"]["properties"]["evidence"]["items"]["enum"] == sorted(window.entity_ids)
    assert call["t"] == 12
    assert "binary_sensor: kitchen_gas=detected" in call["messages"][-1]["content"]
    assert sleeps.delays == []
    assert llm.available
    assert llm.last_reply == GAS


async def test_retries_with_backoff_then_succeeds() -> None:
    backend = ScriptedBackend(LLMUnavailableError("connection refused"), "no json here", GAS)
    llm, sleeps = detector(backend, retries=2)
    verdict = await llm.async_analyze(gas_leak_window())
    assert verdict.is_anomaly
    assert len(backend.calls) == 3
    assert sleeps.delays == [1.0, 2.0]


async def test_gives_up_after_bounded_retries_and_reports_down_then_up() -> None:
    backend = ScriptedBackend(*(LLMUnavailableError("HTTP 500") for _ in range(3)), GAS)
    llm, _sleeps = detector(backend, retries=2)
    seen: list[BackendStatus] = []
    unsubscribe = llm.add_status_listener(seen.append)
    with pytest.raises(LLMUnavailableError, match="HTTP 500"):
        await llm.async_analyze(gas_leak_window())
    assert len(backend.calls) == 3
    assert not llm.available
    assert [s.available for s in seen] == [False]
    assert "HTTP 500" in seen[0].reason
    assert await llm.async_analyze(gas_leak_window())
    assert [s.available for s in seen] == [False, True]
    unsubscribe()
    await llm.async_close()
    assert backend.closed


async def test_auth_error_is_not_retried() -> None:
    backend = ScriptedBackend(LLMAuthError("HTTP 401"))
    llm, _sleeps = detector(backend, retries=3)
    seen: list[BackendStatus] = []
    llm.add_status_listener(seen.append)
    with pytest.raises(LLMAuthError):
        await llm.async_analyze(gas_leak_window())
    assert len(backend.calls) == 1
    assert seen[0].auth_failed


async def test_unparseable_replies_end_in_no_verdict_with_raw_text() -> None:
    backend = ScriptedBackend("I cannot help with that.", "Still no.")
    llm, _ = detector(backend, retries=1)
    with pytest.raises(NoVerdictError) as caught:
        await llm.async_analyze(gas_leak_window())
    assert isinstance(caught.value, LLMResponseError)
    assert caught.value.raw == "Still no."
    assert not llm.available


async def test_false_alarm_marks_suppress_and_teach_but_never_hide_a_hazard() -> None:
    example = false_alarm_example_from_states({"binary_sensor.kitchen_gas": "on"})
    glitch = json.loads(GAS) | {"anomaly_type": "device_malfunction", "severity": "medium"}
    backend = ScriptedBackend(json.dumps(glitch), GAS)
    llm, _ = detector(backend, examples=[example], suppressed=["llm:binary_sensor.kitchen_gas"])
    verdict = await llm.async_analyze(gas_leak_window())
    assert verdict.label is Label.NORMAL
    contents = [m["content"] for m in backend.calls[0]["messages"]]
    assert example.situation in contents
    # The same signature told as gas is a safety hazard: no mark hides it.
    verdict = await llm.async_analyze(gas_leak_window())
    assert (verdict.label, verdict.anomaly_type) == (Label.ANOMALY, "safety_hazard")


async def test_sequence_windows_use_the_sequence_prompt() -> None:
    backend = ScriptedBackend('{"label": "anomaly", "evidence": ["light.hall"]}')
    llm, _ = detector(backend)
    verdict = await llm.async_analyze(toggle_storm_window())
    assert verdict.evidence == ("light.hall",)
    messages = backend.calls[0]["messages"]
    assert "behaviour over time" in messages[0]["content"]
    assert len(messages) == 2  # built-in examples are for the snapshot form only
