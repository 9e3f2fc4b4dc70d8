"""Shared fixtures: every test may load the custom integration."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def auto_enable_custom_integrations(enable_custom_integrations: None) -> None:
    """Let the real hass load custom_components/anomaly_monitor."""
