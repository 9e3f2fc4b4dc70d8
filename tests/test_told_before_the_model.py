"""A finding the model cannot take back is told at once; the model's words follow - a real
hass, a slow real loopback server (it answers only when let)."""

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
    CONF_LLM_MAY_DISMISS,
    CONF_MODEL,
    CONF_REQUEST_TIMEOUT,
    DETECTOR_HYBRID,
    DOMAIN,
)
from custom_components.anomaly_monitor.core.llm.explanations import JOINER
from custom_components.anomaly_monitor.core.llm.hybrid_detector import HybridDetector

from .fault_server import FaultServer, fault_server
from .helpers import ALICE, FRONT_LOCK, set_calm_home, setup_monitor

EXPLANATION = "The Front door is unlocked while nobody is home. Lock it from the app."


@pytest.fixture
async def server(socket_enabled: None) -> AsyncIterator[FaultServer]:
    async with fault_server(FRONT_LOCK) as running:
        yield running


def _notifications(hass: HomeAssistant) -> list[str]:
    from homeassistant.components.persistent_notification import (
        _async_get_or_create_notifications,
    )

    return [
        str(n["message"]).replace("\\", "")
        for key, n in _async_get_or_create_notifications(hass).items()
        if key.startswith(DOMAIN)
    ]


async def _wait_for(condition, seconds: float = 10.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.02)


def _away_and_unlocked(hass: HomeAssistant) -> None:
    set_calm_home(hass)
    hass.states.async_set(ALICE, "not_home", {"friendly_name": "Alice"})
    hass.states.async_set(FRONT_LOCK, "unlocked", {"friendly_name": "Front door"})


def _options(server: FaultServer, **more: Any) -> dict[str, Any]:
    return {
        CONF_DETECTOR: DETECTOR_HYBRID,
        CONF_BACKEND: BACKEND_OPENAI,
        CONF_BASE_URL: f"{server.url}/v1",
        CONF_MODEL: "gate",  # answers only once the test opens the gate
        CONF_REQUEST_TIMEOUT: 60,
        **more,
    }


async def test_shown_at_once_and_explained_when_the_model_answers(
    hass: HomeAssistant, server: FaultServer
) -> None:
    server.explanation = EXPLANATION
    _away_and_unlocked(hass)
    entry = await setup_monitor(hass, **_options(server))
    coordinator = entry.runtime_data.coordinator
    assert isinstance(coordinator.detector, HybridDetector)
    assert coordinator.detector.rules_decide
    await _wait_for(lambda: len(server.requests) == 1)  # the model is being asked
    await _wait_for(lambda: bool(_notifications(hass)))
    (message,) = _notifications(hass)
    assert "Front door" in message  # the rule's own words, before the model answered
    assert "The model agrees" not in message
    assert coordinator.analyses == 0  # the analysis is still waiting for the model

    server.gate.set()
    await _wait_for(lambda: coordinator.analyses == 1)
    await hass.async_block_till_done()
    (message,) = _notifications(hass)  # the same notification, reworded in place
    assert f"{JOINER} {EXPLANATION}" in message
    # The model's own "The model sees smoke." names nothing of the unlocked door: an
    # agreement is checked as an explanation is, and this one is not shown.
    assert "The model agrees" not in message
    assert len(coordinator.tracker.open) == 1


async def test_a_model_that_may_dismiss_is_waited_for(
    hass: HomeAssistant, server: FaultServer
) -> None:
    """With ``llm_may_dismiss`` the model may take a medium finding back: it is asked first."""
    _away_and_unlocked(hass)
    entry = await setup_monitor(hass, **_options(server, **{CONF_LLM_MAY_DISMISS: True}))
    coordinator = entry.runtime_data.coordinator
    assert not coordinator.detector.rules_decide
    await _wait_for(lambda: len(server.requests) == 1)
    await asyncio.sleep(0.2)
    assert _notifications(hass) == []
    server.gate.set()
    await _wait_for(lambda: coordinator.analyses == 1)
    await hass.async_block_till_done()
    assert len(_notifications(hass)) == 1
