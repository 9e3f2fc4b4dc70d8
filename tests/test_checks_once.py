"""In LLM mode one analysis runs the checks (rules, statistics, baselines) once: their
findings are told before the model answers, handed to the model step, and stand when the
model fails - a real hass and a real loopback OpenAI-compatible server."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
import time
from typing import Any

from homeassistant.core import HomeAssistant
import pytest

from custom_components.anomaly_monitor.const import (
    BACKEND_OPENAI,
    CONF_BACKEND,
    CONF_BASE_URL,
    CONF_DETECTOR,
    CONF_MODEL,
    CONF_REQUEST_TIMEOUT,
    DETECTOR_HYBRID,
    DETECTOR_LLM,
)
from custom_components.anomaly_monitor.core.models import ContextWindow, Verdict

from .fault_server import FaultServer, fault_server
from .helpers import ALICE, FRONT_LOCK, set_calm_home, setup_monitor


@pytest.fixture
async def server(socket_enabled: None) -> AsyncIterator[FaultServer]:
    async with fault_server(FRONT_LOCK) as running:
        yield running


async def _wait_for(condition, seconds: float = 10.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.02)


@pytest.mark.parametrize(
    ("detector", "model", "told"),
    [
        (DETECTOR_HYBRID, "answers", True),  # the rules decide, the model words
        (DETECTOR_HYBRID, "error500", True),
        # The model judges; an unlocked door is not urgent, so its "normal" stands.
        (DETECTOR_LLM, "says_normal", False),
        (DETECTOR_LLM, "error500", True),  # the model fails: the checks' verdict stands
    ],
)
async def test_one_analysis_runs_the_checks_once(
    hass: HomeAssistant, server: FaultServer, detector: str, model: str, told: bool
) -> None:
    set_calm_home(hass)
    hass.states.async_set(ALICE, "not_home", {"friendly_name": "Alice"})
    hass.states.async_set(FRONT_LOCK, "unlocked", {"friendly_name": "Front door"})
    options: dict[str, Any] = {
        CONF_DETECTOR: detector,
        CONF_BACKEND: BACKEND_OPENAI,
        CONF_BASE_URL: f"{server.url}/v1",
        CONF_MODEL: model,
        CONF_REQUEST_TIMEOUT: 30,
    }
    entry = await setup_monitor(hass, **options)
    coordinator = entry.runtime_data.coordinator
    await _wait_for(lambda: coordinator.analyses >= 1)  # the first analysis, at start
    await hass.async_block_till_done()
    checks = coordinator.fallback
    assert checks is not None
    assert checks is not coordinator.detector
    runs: list[ContextWindow] = []
    judge = checks.async_analyze

    async def counting(window: ContextWindow) -> Verdict:
        runs.append(window)
        return await judge(window)

    checks.async_analyze = counting  # type: ignore[method-assign]
    asked = len(server.requests)
    coordinator.judge.forget()  # the same window, judged anew
    result = await coordinator.async_analyze()

    assert len(runs) == 1
    assert len(server.requests) > asked  # the model was asked (and answered or failed)
    assert (FRONT_LOCK in result.verdict.evidence) is told
    assert len(coordinator.tracker.open) == int(told)
