"""Setting up a model backend reads no file in Home Assistant's event loop.

Seen in a live hass (``hass -c``): "Detected blocking call to open ... inside the event
loop by custom integration 'anomaly_monitor'" for the GGUF file's magic (the backend's
check) and for the second opinions' calibration file (building the hybrid detector).
"""

from __future__ import annotations

import logging
from pathlib import Path

from homeassistant import block_async_io
from homeassistant.core import HomeAssistant
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.anomaly_monitor.backends import async_validate_backend
from custom_components.anomaly_monitor.backends.llama_cpp import is_available
from custom_components.anomaly_monitor.const import (
    BACKEND_LLAMA_CPP,
    CONF_BACKEND,
    CONF_DETECTOR,
    CONF_MODEL_PATH,
    DETECTOR_HYBRID,
    DOMAIN,
)
from custom_components.anomaly_monitor.core.llm.backend import LLMUnavailableError
from custom_components.anomaly_monitor.core.llm.hybrid_detector import HybridDetector

from .helpers import monitor_options, set_calm_home


@pytest.fixture
def loop_protection(
    disable_block_async_io: None,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """HA's protection as in a running Home Assistant (file reads included, which it
    skips under tests): a blocking call is logged (a warning once, then at debug level)."""
    monkeypatch.setattr(block_async_io, "_IN_TESTS", False)
    caplog.set_level(logging.DEBUG, logger="homeassistant.util.loop")
    block_async_io.enable()


def _blocking(caplog: pytest.LogCaptureFixture) -> list[str]:
    # (the test's own file writes are the test's)
    return [m[:300] for m in caplog.messages if "blocking call" in m and "anomaly_monitor/" in m]


async def test_checking_a_model_file_does_not_block_the_loop(
    hass: HomeAssistant, tmp_path: Path, loop_protection: None, caplog: pytest.LogCaptureFixture
) -> None:
    if not is_available():
        pytest.skip("llama-cpp-python is not installed")
    not_gguf = tmp_path / "model.gguf"
    not_gguf.write_bytes(b"not a model")
    with pytest.raises(LLMUnavailableError, match="not a GGUF"):
        await async_validate_backend(
            hass, {CONF_BACKEND: BACKEND_LLAMA_CPP, CONF_MODEL_PATH: str(not_gguf)}
        )
    assert _blocking(caplog) == []


async def test_setting_up_a_hybrid_monitor_does_not_block_the_loop(
    hass: HomeAssistant, tmp_path: Path, loop_protection: None, caplog: pytest.LogCaptureFixture
) -> None:
    """The hybrid detector looks up the model's calibration on setup (the model itself is
    only started by the first analysis that asks it)."""
    set_calm_home(hass)
    model = tmp_path / "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf"  # a calibrated name
    model.write_bytes(b"GGUF" + b"\0" * 64)
    entry = MockConfigEntry(
        domain=DOMAIN,
        data={CONF_BACKEND: BACKEND_LLAMA_CPP, CONF_MODEL_PATH: str(model)},
        options=monitor_options(**{CONF_DETECTOR: DETECTOR_HYBRID}),
    )
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    assert isinstance(entry.runtime_data.coordinator.detector, HybridDetector)
    assert _blocking(caplog) == []
