"""Fixtures for tests that run a real hass with the recorder (history written and read back).

A test module imports the three fixtures; pytest takes fixtures from the module's globals, and the
autouse one replaces conftest's so the recorder's database is ready before hass starts.
"""

from __future__ import annotations

from collections.abc import Iterator
import logging
from typing import Any

from homeassistant.core import HomeAssistant
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.anomaly_monitor.const import (
    CONF_HISTORY_DAYS,
    CONF_INCLUDE_ENTITIES,
    CONF_USE_EXPOSED,
    DOMAIN,
)


@pytest.fixture
def quiet_sqlalchemy() -> Iterator[None]:
    """The test plugin sets SQLAlchemy's engine logger to INFO at import, which prints
    every statement the recorder runs into the test output: WARNING while these run."""
    engine = logging.getLogger("sqlalchemy.engine")
    level = engine.level
    engine.setLevel(logging.WARNING)
    yield
    engine.setLevel(level)


@pytest.fixture(autouse=True)
def auto_enable_custom_integrations(
    quiet_sqlalchemy: None, recorder_mock: Any, enable_custom_integrations: None
) -> None:
    """The recorder's database must be ready before hass starts (overrides conftest's)."""


@pytest.fixture
def recorder_config() -> dict[str, Any]:
    """Commit at once, so history written in the test can be read back."""
    return {"commit_interval": 0}


async def setup_learning_monitor(
    hass: HomeAssistant, watched: list[str], days: int = 14
) -> MockConfigEntry:
    """A monitor watching ``watched`` only, learning ``days`` of the recorder's history on
    start; set up and its history read (background tasks awaited)."""
    entry = MockConfigEntry(
        domain=DOMAIN,
        title="Home",
        options={
            CONF_USE_EXPOSED: False,
            CONF_INCLUDE_ENTITIES: watched,
            CONF_HISTORY_DAYS: days,
        },
    )
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done(wait_background_tasks=True)
    return entry
