"""Build the detector an entry asks for, and follow the health of its LLM backend."""

from __future__ import annotations

from collections.abc import Callable

from homeassistant.config_entries import ConfigEntry
from homeassistant.core import CALLBACK_TYPE, HomeAssistant, callback
from homeassistant.helpers import issue_registry as ir

from ..const import CONF_BACKEND, CONF_SENSITIVITY, DEFAULT_SENSITIVITY, DOMAIN
from ..core.baselines import HomeBaselines
from ..core.combined_detector import CombinedDetector
from ..core.detector import Detector
from ..core.llm.calibration import read_calibration_file
from ..core.llm.detector import BackendStatus
from ..redaction import Redactor
from . import create_detector, llm_detector_of


async def async_create_detectors(
    hass: HomeAssistant,
    entry: ConfigEntry,
    baselines: Callable[[], HomeBaselines | None] | None = None,
) -> tuple[Detector, Detector]:
    """The detector the entry asks for, and rules + statistics to fall back on.

    Rules and statistics need no model or server; with an LLM configured they still judge
    every window the model cannot. With ``baselines`` (the home's learned normal, shared by
    every detector kind) they read the window in HA's executor, never the event loop's.
    """
    rules = CombinedDetector(
        sensitivity=entry.options.get(CONF_SENSITIVITY, DEFAULT_SENSITIVITY),
        baselines=baselines,
        offload=hass.async_add_executor_job if baselines is not None else None,
    )
    if entry.data.get(CONF_BACKEND):
        # The model's calibration is looked up while the detector is built: read off the loop.
        await hass.async_add_executor_job(read_calibration_file)
    return create_detector(hass, {**entry.data, **entry.options}, rules), rules


def backend_issue_id(entry: ConfigEntry) -> str:
    """Id of the repair issue raised while an entry's LLM backend is down."""
    return f"backend_unavailable_{entry.entry_id}"


@callback
def async_follow_backend(
    hass: HomeAssistant, entry: ConfigEntry, detector: Detector
) -> CALLBACK_TYPE | None:
    """One repair issue while the backend stays down, reauth on rejected credentials."""
    llm = llm_detector_of(detector)
    if llm is None:
        return None
    redactor = Redactor.from_config({**entry.data, **entry.options})

    @callback
    def _status_changed(status: BackendStatus) -> None:
        if status.available:
            ir.async_delete_issue(hass, DOMAIN, backend_issue_id(entry))
            return
        if status.auth_failed:
            entry.async_start_reauth(hass)
        ir.async_create_issue(
            hass,
            DOMAIN,
            backend_issue_id(entry),
            is_fixable=False,
            severity=ir.IssueSeverity.ERROR,
            translation_key="backend_unavailable",
            translation_placeholders={
                "title": entry.title,
                "backend": str(entry.data.get(CONF_BACKEND)),
                "reason": redactor.text(status.reason),
            },
        )

    return llm.add_status_listener(_status_changed)


async def async_close_detector(detector: Detector) -> None:
    """Stop a local model's worker process and close connections."""
    if (llm := llm_detector_of(detector)) is not None:
        await llm.async_close()
