"""How the entry's model is doing, for diagnostics (fixed words and counts: no model text)."""

from __future__ import annotations

from typing import Any

from ..core.detector import Detector
from ..core.llm.explanations import Explainer
from ..core.llm.second_opinion import SecondOpinionJudge
from . import llm_detector_of


def model_health(detector: Detector) -> dict[str, Any] | None:
    """Whether the model answers, and whether the circuit breaker is skipping it (None:
    no model)."""
    if (llm := llm_detector_of(detector)) is None:
        return None
    return {
        "available": llm.available,
        "failed_analyses_in_a_row": llm.failures,
        "skipped_for_seconds": round(max(0.0, llm.open_until - llm.now()), 1)
        if llm.circuit_open and llm.open_until is not None
        else 0.0,
        "last_duration_seconds": round(llm.last_duration, 3) if llm.last_duration else None,
        "second_opinions": _second_opinions(detector),
        "explanations": _explanations(detector),
    }


def _explanations(detector: Detector) -> dict[str, int] | None:
    """How many explanations were shown, and why the others were not (fixed reasons only:
    no model text here)."""
    explainer = getattr(detector, "explainer", None)
    if not isinstance(explainer, Explainer):
        return None
    return dict(sorted(explainer.outcomes.items()))


def _second_opinions(detector: Detector) -> dict[str, Any] | None:
    """Which question families the model may dismiss in, and its last answers."""
    judge = getattr(detector, "second_opinion", None)
    if not isinstance(judge, SecondOpinionJudge) or judge.calibration is None:
        return None
    families = judge.calibration.families
    return {
        "model": judge.calibration.model,
        "acting_families": sorted(f for f in families if judge.calibration.acts_on(f)),
        "last": [opinion.as_dict() for opinion in judge.last_opinions],
    }
