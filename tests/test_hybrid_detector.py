"""HybridDetector: rules always run; the LLM confirms, and dismisses or adds only if allowed."""

from __future__ import annotations

from homeassistant.core import HomeAssistant
import pytest

from custom_components.anomaly_monitor.backends import create_detector
from custom_components.anomaly_monitor.core.llm.backend import LLMError, LLMUnavailableError
from custom_components.anomaly_monitor.core.llm.hybrid_detector import HybridDetector
from custom_components.anomaly_monitor.core.llm.parsing import parse_reply
from custom_components.anomaly_monitor.core.models import ContextWindow, Finding, Severity, Verdict
from custom_components.anomaly_monitor.core.rule_detector import RuleDetector

from .llm_windows import gas_leak_window, normal_window, open_while_away_window


class Fixed:
    """A detector with a fixed answer (or a fixed failure)."""

    def __init__(self, name: str, answer: Verdict | LLMError) -> None:
        self.name = name
        self.answer = answer
        self.calls = 0

    async def async_analyze(self, window: ContextWindow) -> Verdict:
        self.calls += 1
        if isinstance(self.answer, LLMError):
            raise self.answer
        return self.answer


def rule_hit(severity: Severity, entity: str = "binary_sensor.front_door") -> Verdict:
    finding = Finding("some_rule", (entity,), "Rule says so.", "security", severity)
    return Verdict.from_findings([finding], "rules")


def llm_says(text: str) -> Verdict:
    ids = ("binary_sensor.front_door", "lock.front_door_lock", "sensor.kitchen_temperature")
    verdict = parse_reply(text, ids).verdict
    assert verdict is not None
    return verdict


NORMAL = '{"label": "normal"}'


async def test_llm_failure_leaves_the_real_rule_verdict() -> None:
    rules = RuleDetector()
    hybrid = HybridDetector(rules, Fixed("llm", LLMUnavailableError("down")))
    verdict = await hybrid.async_analyze(gas_leak_window())
    expected = await rules.async_analyze(gas_leak_window())
    assert verdict.is_anomaly
    assert verdict.evidence == expected.evidence
    assert verdict.detector == "hybrid"
    assert isinstance(hybrid.last_llm_error, LLMUnavailableError)


async def test_critical_rule_finding_stands_against_the_llm() -> None:
    hybrid = HybridDetector(
        RuleDetector(), Fixed("llm", llm_says(NORMAL)), dismiss_up_to=Severity.MEDIUM
    )
    verdict = await hybrid.async_analyze(gas_leak_window())
    assert verdict.is_anomaly
    assert "binary_sensor.kitchen_gas" in verdict.evidence


@pytest.mark.parametrize(
    ("llm_text", "kept"),
    [
        (NORMAL, False),  # rejected
        ('{"label": "anomaly", "evidence": ["binary_sensor.front_door"]}', True),  # confirmed
    ],
)
async def test_minor_rule_finding_needs_the_llm_to_agree_when_it_may_dismiss(
    llm_text: str, kept: bool
) -> None:
    hybrid = HybridDetector(
        Fixed("rules", rule_hit(Severity.MEDIUM)),
        Fixed("llm", llm_says(llm_text)),
        dismiss_up_to=Severity.MEDIUM,
    )
    verdict = await hybrid.async_analyze(normal_window())
    assert verdict.is_anomaly is kept


@pytest.mark.parametrize(
    ("severity", "added"), [("low", False), ("medium", False), ("high", True), ("critical", True)]
)
async def test_llm_only_adds_serious_anomalies(severity: str, added: bool) -> None:
    text = (
        '{"label": "anomaly", "evidence": ["lock.front_door_lock"], '
        f'"severity": "{severity}", "reasoning": "Unlocked at night."}}'
    )
    hybrid = HybridDetector(
        Fixed("rules", Verdict.normal("rules")),
        Fixed("llm", llm_says(text)),
        add_min_severity=Severity.HIGH,
    )
    verdict = await hybrid.async_analyze(normal_window())
    assert verdict.is_anomaly is added
    if added:
        assert verdict.evidence == ("lock.front_door_lock",)
        assert verdict.findings[0].rule == "llm"


async def test_adding_can_be_switched_off_and_alarms_never_increase() -> None:
    high = llm_says(
        '{"label": "anomaly", "evidence": ["lock.front_door_lock"], "severity": "high"}'
    )
    hybrid = HybridDetector(
        Fixed("rules", Verdict.normal("rules")), Fixed("llm", high), add_min_severity=None
    )
    assert not (await hybrid.async_analyze(normal_window())).is_anomaly
    # Over every combination, with adding off, hybrid alarms are a subset of rule alarms.
    for rule_verdict in (Verdict.normal("rules"), rule_hit(Severity.LOW), rule_hit(Severity.HIGH)):
        for llm_verdict in (llm_says(NORMAL), high):
            combined = HybridDetector(
                Fixed("r", rule_verdict), Fixed("l", llm_verdict), add_min_severity=None
            ).combine(rule_verdict, llm_verdict)
            assert not combined.is_anomaly or rule_verdict.is_anomaly


async def test_both_detectors_run_once_per_analysis() -> None:
    rules = Fixed("rules", rule_hit(Severity.HIGH))
    llm = Fixed("llm", llm_says(NORMAL))
    await HybridDetector(rules, llm).async_analyze(normal_window())
    assert (rules.calls, llm.calls) == (1, 1)


async def test_by_default_the_llm_only_confirms_and_explains() -> None:
    """Default policy: labels are the rules' own; an agreeing model adds its sentence."""
    normal, agree = (
        llm_says(NORMAL),
        llm_says(
            '{"label": "anomaly", "evidence": ["binary_sensor.front_door"], "severity": "critical",'
            ' "reasoning": "The door is open at night."}'
        ),
    )
    other = llm_says(
        '{"label": "anomaly", "evidence": ["lock.front_door_lock"], "severity": "critical"}'
    )
    for rule_verdict in (Verdict.normal("rules"), rule_hit(Severity.MEDIUM)):
        for llm_verdict in (normal, agree, other):
            combined = HybridDetector(Fixed("r", rule_verdict), Fixed("l", llm_verdict)).combine(
                rule_verdict, llm_verdict
            )
            assert combined.is_anomaly is rule_verdict.is_anomaly
            assert combined.evidence == rule_verdict.evidence
    kept = HybridDetector(Fixed("r", rule_hit(Severity.MEDIUM)), Fixed("l", agree))
    verdict = await kept.async_analyze(open_while_away_window())
    assert verdict.reasoning == "Rule says so. The model agrees: The door is open at night."
    # Shown to the homeowner, so checked as an explanation is: the door reads closed here.
    assert (await kept.async_analyze(normal_window())).reasoning == "Rule says so."
    # A model that cites other devices does not put its words on the rules' finding.
    unrelated = HybridDetector(Fixed("r", rule_hit(Severity.MEDIUM)), Fixed("l", other))
    assert (await unrelated.async_analyze(normal_window())).reasoning == "Rule says so."


@pytest.mark.parametrize(
    ("options", "dismiss", "add"),
    [
        ({}, None, None),
        ({"llm_may_dismiss": True}, Severity.MEDIUM, None),
        ({"llm_may_add": True}, None, Severity.HIGH),
    ],
)
async def test_entry_options_set_what_the_model_may_change(
    hass: HomeAssistant, options: dict[str, bool], dismiss: Severity | None, add: Severity | None
) -> None:
    config = {
        "detector": "hybrid",
        "backend": "openai",
        "base_url": "http://127.0.0.1:9",
        "model": "m",
    }
    detector = create_detector(hass, config | options, RuleDetector())
    assert isinstance(detector, HybridDetector)
    assert (detector.dismiss_up_to, detector.add_min_severity) == (dismiss, add)
