"""Diagnostics: what the monitor watches, found and was told, with secrets redacted."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from homeassistant.core import HomeAssistant

from .backends import llm_detector_of
from .coordinator import AnomalyMonitorCoordinator
from .core.llm.explanations import Explainer
from .core.llm.second_opinion import SecondOpinionJudge
from .flows.role_review import diagnostics_rows, rows_of
from .redaction import redacted_config
from .runtime import AnomalyMonitorConfigEntry


async def async_get_config_entry_diagnostics(
    hass: HomeAssistant, entry: AnomalyMonitorConfigEntry
) -> dict[str, Any]:
    """Everything needed to understand a verdict, without secrets.

    The API key, profile and notify targets are redacted, URLs lose their credentials, and
    the verdict and anomalies are scrubbed once more (model text may echo the profile).
    """
    coordinator = entry.runtime_data.coordinator
    watcher = coordinator.watcher
    scrub = coordinator.redactor.data
    return {
        "entry": {
            "data": redacted_config(entry.data),
            "options": redacted_config(entry.options),
        },
        "detector": coordinator.detector.name,
        "model": _model_health(coordinator),
        "watched_entities": sorted(watcher.entity_ids),
        "events_seen": watcher.events_seen,
        "buffered_transitions": len(watcher.buffer),
        "dropped_transitions": watcher.buffer.dropped,
        "analyses": coordinator.analyses,
        "last_analysis": scrub(coordinator.data.as_dict()) if coordinator.data else None,
        "open_anomalies": scrub([asdict(a) for a in coordinator.tracker.open.values()]),
        # Over, still taking feedback for a day (their repair issues say so).
        "ended_anomalies": scrub([asdict(a) for a in coordinator.tracker.ended.values()]),
        "false_alarm_patterns": sorted(coordinator.tracker.false_alarms),
        "baselines": keeper.summary() if (keeper := entry.runtime_data.baselines) else None,
        # What the monitor takes each device for (ids and roles only, never names).
        "device_roles": diagnostics_rows(rows_of(entry.runtime_data)),
    }


def _model_health(coordinator: AnomalyMonitorCoordinator) -> dict[str, Any] | None:
    """Whether the model answers, and whether the circuit breaker is skipping it."""
    if (llm := llm_detector_of(coordinator.detector)) is None:
        return None
    return {
        "available": llm.available,
        "failed_analyses_in_a_row": llm.failures,
        "skipped_for_seconds": round(max(0.0, llm.open_until - llm.now()), 1)
        if llm.circuit_open and llm.open_until is not None
        else 0.0,
        "last_duration_seconds": round(llm.last_duration, 3) if llm.last_duration else None,
        "second_opinions": _second_opinions(coordinator),
        "explanations": _explanations(coordinator),
    }


def _explanations(coordinator: AnomalyMonitorCoordinator) -> dict[str, int] | None:
    """How many explanations were shown, and why the others were not (fixed reasons only:
    no model text here)."""
    explainer = getattr(coordinator.detector, "explainer", None)
    if not isinstance(explainer, Explainer):
        return None
    return dict(sorted(explainer.outcomes.items()))


def _second_opinions(coordinator: AnomalyMonitorCoordinator) -> dict[str, Any] | None:
    """Which question families the model may dismiss in, and its last answers."""
    judge = getattr(coordinator.detector, "second_opinion", None)
    if not isinstance(judge, SecondOpinionJudge) or judge.calibration is None:
        return None
    families = judge.calibration.families
    return {
        "model": judge.calibration.model,
        "acting_families": sorted(f for f in families if judge.calibration.acts_on(f)),
        "last": [opinion.as_dict() for opinion in judge.last_opinions],
    }
