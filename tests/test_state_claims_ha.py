"""A model's explanation that gets a device's state wrong is not shown - a real hass, a real
loopback OpenAI-compatible server, the notification the homeowner reads."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component
import pytest
from pytest_homeassistant_custom_component.components.diagnostics import (
    get_diagnostics_for_config_entry,
)
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.anomaly_monitor.const import (
    BACKEND_OPENAI,
    CONF_BACKEND,
    CONF_BASE_URL,
    CONF_DETECTOR,
    CONF_MODEL,
    CONF_REQUEST_TIMEOUT,
    DETECTOR_HYBRID,
    DOMAIN,
)
from custom_components.anomaly_monitor.core.llm import explanations as ex
from custom_components.anomaly_monitor.core.llm.hybrid_detector import HybridDetector

from .fault_server import FaultServer, fault_server
from .helpers import LIVING_TEMP, SMOKE, analyze, set_calm_home, setup_monitor

SMOKE_ATTRIBUTES = {"device_class": "smoke", "friendly_name": "Kitchen smoke"}
# The detector reads smoke: "reads clear" refutes it, "reports smoke" agrees.
WRONG = "Kitchen smoke reads clear, but the home may not be safe. Leave now and call for help."
RIGHT = "Kitchen smoke reports smoke in the home. Leave now and call for help."


@pytest.fixture
async def server(socket_enabled: None) -> AsyncIterator[FaultServer]:
    async with fault_server(SMOKE) as running:
        yield running


def _notification(hass: HomeAssistant) -> dict[str, Any]:
    from homeassistant.components.persistent_notification import (
        _async_get_or_create_notifications,
    )

    (notification,) = [
        n for key, n in _async_get_or_create_notifications(hass).items() if key.startswith(DOMAIN)
    ]
    return dict(notification)


async def test_a_wrong_state_is_not_shown_a_right_one_is(
    hass: HomeAssistant, hass_client: ClientSessionGenerator, server: FaultServer
) -> None:
    assert await async_setup_component(hass, "diagnostics", {})
    set_calm_home(hass)
    entry = await setup_monitor(
        hass,
        **{
            CONF_DETECTOR: DETECTOR_HYBRID,
            CONF_BACKEND: BACKEND_OPENAI,
            CONF_BASE_URL: f"{server.url}/v1",
            CONF_MODEL: "explains",
            CONF_REQUEST_TIMEOUT: 10,
        },
    )
    detector = entry.runtime_data.coordinator.detector
    assert isinstance(detector, HybridDetector)
    assert detector.explainer is not None
    server.explanation = WRONG
    hass.states.async_set(SMOKE, "on", SMOKE_ATTRIBUTES)
    await hass.async_block_till_done()

    await analyze(hass, entry)
    (explanation,) = detector.explainer.last
    assert explanation.raw == WRONG
    assert explanation.reason == ex.WRONG_STATE
    message = _notification(hass)["message"].replace("\\", "")  # markdown escapes
    assert "Smoke detected" in message  # the rule's words and the model's agreement stand
    assert "The model sees smoke." in message
    assert ex.JOINER not in message
    assert "reads clear" not in message

    # Another change, another analysis: the model now gets the state right, and it is shown.
    server.explanation = RIGHT
    hass.states.async_set(LIVING_TEMP, "21.7", {"unit_of_measurement": "°C"})
    await hass.async_block_till_done()
    await analyze(hass, entry)
    (explanation,) = detector.explainer.last
    assert explanation.reason == ""
    message = _notification(hass)["message"].replace("\\", "")
    assert f"{ex.JOINER} {RIGHT}" in message
    assert "reads clear" not in message
    # diagnostics count them: one shown, one not shown for the wrong state (no model text)
    diagnostics = await get_diagnostics_for_config_entry(hass, hass_client, entry)
    assert diagnostics["model"]["explanations"] == {"shown": 1, ex.WRONG_STATE: 1}
    assert "reads clear" not in str(diagnostics)
