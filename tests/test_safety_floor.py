"""The rules' floor under detector ``llm``: urgent findings stand whatever the model says."""

from __future__ import annotations

import json

import pytest

from custom_components.anomaly_monitor.core.combined_detector import CombinedDetector
from custom_components.anomaly_monitor.core.llm.backend import LLMUnavailableError
from custom_components.anomaly_monitor.core.llm.detector import LLMDetector
from custom_components.anomaly_monitor.core.models import Finding, Severity
from custom_components.anomaly_monitor.core.safety_floor import SafetyFloorDetector, is_urgent

from .llm_windows import gas_leak_window, normal_window
from .test_llm_detector import ScriptedBackend

NORMAL = json.dumps({"label": "normal", "evidence": [], "reasoning": "Cooking, all fine."})
GAS_LOW = json.dumps(
    {
        "label": "anomaly",
        "evidence": ["binary_sensor.kitchen_gas"],
        "severity": "low",
        "reasoning": "Some gas.",
    }
)


def floored(*replies: str | Exception) -> SafetyFloorDetector:
    return SafetyFloorDetector(
        LLMDetector(ScriptedBackend(*replies), retries=0), CombinedDetector()
    )


async def test_a_model_that_says_normal_cannot_silence_a_gas_alarm() -> None:
    verdict = await floored(NORMAL).async_analyze(gas_leak_window())
    assert verdict.is_anomaly
    assert verdict.detector == "llm"
    assert verdict.evidence[0] == "binary_sensor.kitchen_gas"
    assert verdict.severity is Severity.CRITICAL
    assert "The model answered normal." in verdict.reasoning


async def test_a_weaker_model_finding_on_the_same_device_gives_way() -> None:
    verdict = await floored(GAS_LOW).async_analyze(gas_leak_window())
    assert [f.rule for f in verdict.findings] == ["hazard_detected"]
    assert "The model agrees: Some gas." in verdict.reasoning


async def test_without_hazard_the_model_judges_alone() -> None:
    verdict = await floored(NORMAL).async_analyze(normal_window())
    assert not verdict.is_anomaly
    assert verdict.reasoning == "Cooking, all fine."


async def test_a_failing_model_is_raised_for_the_callers_fallback() -> None:
    with pytest.raises(LLMUnavailableError):
        await floored(LLMUnavailableError("down")).async_analyze(gas_leak_window())


@pytest.mark.parametrize(
    ("anomaly_type", "severity", "urgent"),
    [
        ("safety_hazard", Severity.HIGH, True),
        ("safety_hazard", Severity.MEDIUM, False),  # a window open in the rain
        ("security", Severity.CRITICAL, True),
        ("security", Severity.HIGH, False),
    ],
)
def test_what_is_urgent(anomaly_type: str, severity: Severity, urgent: bool) -> None:
    finding = Finding("r", ("binary_sensor.x",), "x", anomaly_type, severity)
    assert is_urgent(finding) is urgent
