"""Build the detector an entry's options ask for."""

from __future__ import annotations

from homeassistant.config_entries import ConfigEntry
from homeassistant.core import HomeAssistant

from .const import CONF_SENSITIVITY, DEFAULT_SENSITIVITY
from .core.combined_detector import CombinedDetector
from .core.detector import Detector


async def async_create_detector(hass: HomeAssistant, entry: ConfigEntry) -> Detector:
    """Semantic rules plus temporal statistics: the embedded default, no model or server."""
    return CombinedDetector(sensitivity=entry.options.get(CONF_SENSITIVITY, DEFAULT_SENSITIVITY))
