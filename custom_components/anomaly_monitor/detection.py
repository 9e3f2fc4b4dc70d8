"""Build the detector an entry's options ask for."""

from __future__ import annotations

from homeassistant.config_entries import ConfigEntry
from homeassistant.core import HomeAssistant

from .const import CONF_SENSITIVITY, DEFAULT_SENSITIVITY
from .core.detector import Detector
from .core.rule_detector import RuleDetector


async def async_create_detector(hass: HomeAssistant, entry: ConfigEntry) -> Detector:
    """The rule-based detector: the embedded default that needs no model or server."""
    return RuleDetector(sensitivity=entry.options.get(CONF_SENSITIVITY, DEFAULT_SENSITIVITY))
