"""Evidence choice in the core: what a rule marks essential stays, labels never change,
and an answer that cannot be read changes nothing."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
import json
from pathlib import Path
from typing import Any

from custom_components.anomaly_monitor.core.llm.backend import (
    FirstToken,
    LLMUnavailableError,
    Message,
)
from custom_components.anomaly_monitor.core.llm.calibration import (
    EvidencePolicy,
    ModelCalibration,
    load_calibration,
    store_calibration,
)
from custom_components.anomaly_monitor.core.llm.evidence_choice import (
    CANDIDATE,
    CONTEXT,
    CandidateOpinion,
    EvidenceRanker,
    apply_choices,
    build_candidate_question,
    choose,
    options_of,
)
from custom_components.anomaly_monitor.core.llm.hybrid_detector import HybridDetector
from custom_components.anomaly_monitor.core.llm.second_opinion import SAMPLED_NO
from custom_components.anomaly_monitor.core.models import Finding, Severity, Verdict

from .llm_windows import gas_leak_window, open_while_away_window

GAS = Finding(
    "hazard_detected",
    ("binary_sensor.kitchen_gas", "light.kitchen_ceiling", "lock.front_door_lock"),
    "Gas detected in the kitchen.",
    "safety_hazard",
    Severity.CRITICAL,
    context=("light.kitchen_ceiling", "lock.front_door_lock"),
    candidates=("sensor.kitchen_temperature", "binary_sensor.kitchen_gas"),
)
DOOR = Finding(
    "entry_left_open",
    ("binary_sensor.front_door",),
    "Front door open for 20 min.",
    "security",
    Severity.MEDIUM,
    candidates=("lock.front_door_lock",),
)
BOTH = EvidencePolicy(drop_below=0.5, add_from=0.5)


def opinions(finding: Finding, answers: dict[str, float | None]) -> list[CandidateOpinion]:
    role = dict.fromkeys(finding.context, CONTEXT) | dict.fromkeys(finding.candidates, CANDIDATE)
    return [
        CandidateOpinion(finding.signature, e, role.get(e, CANDIDATE), p, "logprobs", 0.1)
        for e, p in answers.items()
    ]


def test_options_split_essential_context_and_candidates() -> None:
    options = options_of(GAS)
    assert options.essential == ("binary_sensor.kitchen_gas",)
    assert options.context == ("light.kitchen_ceiling", "lock.front_door_lock")
    # a candidate already in the evidence is not asked about again
    assert options.candidates == ("sensor.kitchen_temperature",)
    assert options.asked == (*options.context, *options.candidates)
    # evidence that is all context: all of it is kept as essential
    only_context = replace(DOOR, context=DOOR.evidence, candidates=())
    assert options_of(only_context).essential == DOOR.evidence
    assert options_of(only_context).asked == ()


def test_a_safety_hazard_keeps_its_essential_evidence_whatever_the_answers() -> None:
    every_no = dict.fromkeys((*GAS.evidence, *GAS.candidates), 0.0)
    chosen = choose(GAS, every_no, BOTH)
    assert chosen.evidence == ("binary_sensor.kitchen_gas",)
    assert chosen.context == ()
    every_yes = dict.fromkeys((*GAS.evidence, *GAS.candidates), 1.0)
    chosen = choose(GAS, every_yes, BOTH)
    assert chosen.evidence == (*GAS.evidence, "sensor.kitchen_temperature")
    # only evidence and context change: the finding is the same anomaly
    assert (chosen.signature, chosen.severity, chosen.rule) == (
        GAS.signature,
        GAS.severity,
        GAS.rule,
    )
    assert chosen.reasoning == GAS.reasoning


def test_thresholds_drop_context_and_add_candidates_separately() -> None:
    answers = {
        "light.kitchen_ceiling": 0.2,
        "lock.front_door_lock": 0.7,
        "sensor.kitchen_temperature": 0.6,
    }
    only_drop = choose(GAS, answers, EvidencePolicy(drop_below=0.5))
    assert only_drop.evidence == ("binary_sensor.kitchen_gas", "lock.front_door_lock")
    only_add = choose(GAS, answers, EvidencePolicy(add_from=0.65))
    assert only_add.evidence == GAS.evidence  # 0.6 < 0.65: not added, nothing dropped
    assert choose(GAS, answers, EvidencePolicy(add_from=0.6)).evidence[-1] == (
        "sensor.kitchen_temperature"
    )
    assert choose(GAS, answers, EvidencePolicy()) is GAS


def test_no_opinion_changes_nothing() -> None:
    unread: dict[str, float | None] = dict.fromkeys((*GAS.evidence, *GAS.candidates))
    assert choose(GAS, unread, BOTH) is GAS
    assert choose(GAS, {}, BOTH) is GAS
    verdict = Verdict.from_findings([GAS, DOOR], "rules")
    assert apply_choices(verdict, opinions(GAS, unread), BOTH) is verdict


def test_labels_and_findings_never_change() -> None:
    verdict = Verdict.from_findings([GAS, DOOR], "rules")
    answers = opinions(GAS, {"light.kitchen_ceiling": 0.1, "lock.front_door_lock": 0.9})
    answers += opinions(DOOR, {"lock.front_door_lock": 0.9})
    refined = apply_choices(verdict, answers, BOTH)
    assert refined.label is verdict.label
    assert [f.signature for f in refined.findings] == [f.signature for f in verdict.findings]
    assert (refined.reasoning, refined.severity, refined.anomaly_type) == (
        verdict.reasoning,
        verdict.severity,
        verdict.anomaly_type,
    )
    assert refined.evidence == (
        "binary_sensor.kitchen_gas",
        "lock.front_door_lock",
        "binary_sensor.front_door",
    )


def test_question_is_about_one_device_after_the_essential_facts() -> None:
    window = gas_leak_window()
    messages = build_candidate_question(GAS, window, "light.kitchen_ceiling")
    text = messages[-1]["content"]
    assert "part of this problem" in text
    data = text.split("<data>", 1)[1].split("</data>", 1)[0]
    asked = data.split("Device asked about:", 1)[1]
    assert "Kitchen" in asked
    # the context asked about is not shown as one of the finding's devices
    assert "light.kitchen_ceiling" not in data.split("Device asked about:", 1)[0]
    # the same finding's questions share everything up to the device line (prompt cache)
    other = build_candidate_question(GAS, window, "lock.front_door_lock")[-1]["content"]
    assert other.split("Device asked about:")[0] == text.split("Device asked about:")[0]


class Scripted:
    """A backend whose answers are given (the core logic under test, not a model)."""

    name = "scripted"

    def __init__(self, tokens: Sequence[FirstToken | Exception], structured: str = "") -> None:
        self.tokens = list(tokens)
        self.structured = structured
        self.schemas: list[Any] = []

    async def async_first_token(
        self,
        messages: Sequence[Message],
        *,
        words: Sequence[str] = (),
        top: int = 5,
        timeout: float = 60.0,
    ) -> FirstToken:
        token = self.tokens.pop(0)
        if isinstance(token, Exception):
            raise token
        return token

    async def async_generate(
        self,
        messages: Sequence[Message],
        *,
        schema: Any = None,
        max_tokens: int = 512,
        timeout: float = 60.0,
    ) -> str:
        self.schemas.append(schema)
        return self.structured

    async def async_close(self) -> None:
        """Nothing to close."""


async def test_ranker_unreadable_and_failed_answers_leave_the_rules_evidence() -> None:
    backend = Scripted(
        [FirstToken("Perhaps"), LLMUnavailableError("down"), FirstToken("I", {"I": -0.01})],
        structured="not json",
    )
    ranker = EvidenceRanker(backend, BOTH, timeout=5)
    verdict = Verdict.from_findings([GAS], "rules")
    refined = await ranker.async_refine(verdict, gas_leak_window())
    assert refined is verdict
    assert [o.entity_id for o in ranker.last_opinions] == [
        "light.kitchen_ceiling",
        "lock.front_door_lock",
        "sensor.kitchen_temperature",
    ]
    assert all(o.p_yes is None and o.source == "none" for o in ranker.last_opinions)
    # unreadable words were asked again with a yes/no enum
    assert backend.schemas[0]["properties"]["answer"]["enum"] == ["yes", "no"]


async def test_ranker_in_the_hybrid_changes_evidence_not_the_label() -> None:
    backend = Scripted([FirstToken("no", {"no": -0.05, "yes": -3.0})] * 2)
    ranker = EvidenceRanker(backend, EvidencePolicy(drop_below=0.5), timeout=5)

    class Fixed:
        name = "rules"

        async def async_analyze(self, window: Any) -> Verdict:
            return Verdict.from_findings([GAS, DOOR], "rules")

    class Down:
        name = "llm"

        async def async_analyze(self, window: Any) -> Verdict:
            raise LLMUnavailableError("down")

    alone = Verdict.from_findings([GAS, DOOR], "rules")
    hybrid = HybridDetector(Fixed(), Down(), evidence_ranker=ranker)  # type: ignore[arg-type]
    verdict = await hybrid.async_analyze(gas_leak_window())
    assert verdict.label is alone.label
    assert [f.signature for f in verdict.findings] == [f.signature for f in alone.findings]
    for before, after in zip(alone.findings, verdict.findings, strict=True):
        assert set(options_of(before).essential) <= set(after.evidence)
    # the policy acts on context only: the candidates are not asked about
    assert [(o.entity_id, o.role) for o in ranker.last_opinions] == [
        ("light.kitchen_ceiling", CONTEXT),
        ("lock.front_door_lock", CONTEXT),
    ]
    # both answered "no": the gas finding keeps only its detector
    assert verdict.evidence == ("binary_sensor.kitchen_gas", "binary_sensor.front_door")


async def test_structured_answer_when_the_backend_has_no_first_token() -> None:
    class NoFirstToken:
        name = "plain"

        def __init__(self) -> None:
            self.schemas: list[Any] = []

        async def async_generate(
            self, messages: Any, *, schema: Any = None, max_tokens: int = 512, timeout: float = 60.0
        ) -> str:
            self.schemas.append(schema)
            return json.dumps({"answer": "no"})

        async def async_close(self) -> None:
            """Nothing to close."""

    backend = NoFirstToken()
    ranker = EvidenceRanker(backend, BOTH, timeout=5)
    (opinion, *_) = await ranker.async_opinions([DOOR], open_while_away_window())
    assert (opinion.p_yes, opinion.source) == (SAMPLED_NO, "structured")


def test_evidence_policy_is_stored_with_the_model(tmp_path: Path) -> None:
    path = tmp_path / "calibration.json"
    store_calibration(ModelCalibration("m", {}, "fit", EvidencePolicy(None, 0.61, "bench")), path)
    store_calibration(ModelCalibration("other"), path)
    loaded = load_calibration("m.gguf", path)
    assert loaded is not None
    assert loaded.evidence == EvidencePolicy(None, 0.61, "bench")
    assert load_calibration("other", path).evidence is None  # type: ignore[union-attr]
    data = json.loads(path.read_text())
    data["models"]["m"]["evidence"] = {"add_from": "lots"}
    path.write_text(json.dumps(data))
    assert load_calibration("m", path) is None  # broken: no calibration, no say
