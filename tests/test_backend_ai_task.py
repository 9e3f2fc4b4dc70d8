"""The AI Task backend against a real ``ai_task`` entity of a test integration.

The test entity does what an LLM integration does with a structure: it converts it to a
JSON schema with HA's own serializer, "answers" with data that fits that schema, and
the structure validates the answer.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
import logging
import re
from typing import Any

from homeassistant import config_entries
from homeassistant.components.ai_task import AITaskEntity, AITaskEntityFeature, GenDataTask
from homeassistant.components.ai_task.task import GenDataTaskResult
from homeassistant.components.conversation import ChatLog
from homeassistant.config_entries import ConfigEntry, ConfigFlow
from homeassistant.const import Platform
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import llm
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback
from homeassistant.setup import async_setup_component
import pytest
from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    MockModule,
    MockPlatform,
    mock_config_flow,
    mock_integration,
    mock_platform,
)

from custom_components.anomaly_monitor.backends import (
    async_validate_backend,
    create_backend,
    create_detector,
    llm_detector_of,
)
from custom_components.anomaly_monitor.backends.ai_task import AITaskBackend
from custom_components.anomaly_monitor.const import (
    BACKEND_AI_TASK,
    CONF_AI_TASK_ENTITY,
    CONF_BACKEND,
    CONF_DETECTOR,
    CONF_INCLUDE_ENTITIES,
    CONF_PROFILE,
    CONF_USE_EXPOSED,
    DETECTOR_HYBRID,
    DETECTOR_LLM,
    DOMAIN,
)
from custom_components.anomaly_monitor.core.llm.backend import LLMResponseError, LLMUnavailableError
from custom_components.anomaly_monitor.core.llm.calibration import EvidencePolicy
from custom_components.anomaly_monitor.core.llm.detector import LLMDetector
from custom_components.anomaly_monitor.core.llm.evidence_choice import EvidenceRanker
from custom_components.anomaly_monitor.core.llm.explanations import FOREIGN, JOINER
from custom_components.anomaly_monitor.core.llm.hybrid_detector import HybridDetector
from custom_components.anomaly_monitor.core.llm.prompts import verdict_schema
from custom_components.anomaly_monitor.core.llm.second_opinion import (
    SAMPLED_NO,
    SAMPLED_YES,
    async_ask,
    build_question,
)
from custom_components.anomaly_monitor.core.models import Finding, Label, Severity, Verdict
from custom_components.anomaly_monitor.core.rule_detector import RuleDetector
from custom_components.anomaly_monitor.redaction import (
    PROFILE_REPLACEMENT,
    RedactingBackend,
    Redactor,
)

from .helpers import SMOKE, analyze, monitor_options, set_calm_home
from .llm_windows import gas_leak_window, normal_window, open_while_away_window

try:  # HA >= 2026.3 builds its schemas with probatio; LLM integrations convert them so
    from probatio import to_openapi
except ImportError:  # older HA: voluptuous
    from voluptuous_openapi import convert as to_openapi

TEST_DOMAIN = "anomaly_llm_test_task"
ENTITY_ID = f"ai_task.{TEST_DOMAIN}"
_DOMAIN_LINE = re.compile(r"^([a-z_]+): (.*)$", re.MULTILINE)
_ALARMING_STATES = {"detected", "wet"}


def alarming_entities(window: str) -> list[str]:
    """Ids whose state reads detected or wet, from the prompt's ``domain: obj=state; ...``."""
    found = []
    for domain, members in _DOMAIN_LINE.findall(window):
        for member in members.split("; "):
            head, _, value = member.rpartition("=")
            if value in _ALARMING_STATES:
                found.append(f"{domain}.{head.split(' ')[0]}")
    return found


class RuleOfThumbTaskEntity(AITaskEntity):
    """An AI Task entity whose 'model' flags sensors that read detected or wet."""

    _attr_name = TEST_DOMAIN
    _attr_unique_id = TEST_DOMAIN
    _attr_supported_features = AITaskEntityFeature.GENERATE_DATA

    def __init__(self) -> None:
        self.tasks: list[GenDataTask] = []
        self.schemas: list[dict[str, Any]] = []
        self.fail_with: Exception | None = None
        self.oversized = False  # answer with a 2 MB reasoning
        # Asked without a structure (an explanation for the homeowner): plain text.
        self.explanation = "The Kitchen Gas in the Kitchen detects gas. Open the windows and leave."
        self.answer = "yes"  # to yes/no questions

    async def _async_generate_data(self, task: GenDataTask, chat_log: ChatLog) -> GenDataTaskResult:
        self.tasks.append(task)
        if self.fail_with is not None:
            raise self.fail_with
        if task.structure is None:
            return GenDataTaskResult(
                conversation_id=chat_log.conversation_id, data=self.explanation
            )
        schema = to_openapi(task.structure, custom_serializer=llm.selector_serializer)
        self.schemas.append(schema)
        if "answer" in schema["properties"]:  # a yes/no question: the answer is a select
            return GenDataTaskResult(
                conversation_id=chat_log.conversation_id,
                data=task.structure({"answer": self.answer}),
            )
        allowed = set(schema["properties"]["evidence"]["items"].get("enum", []))
        # Only the window itself counts: the built-in examples come before it.
        window = task.instructions.rsplit("<data>", 1)[-1]
        evidence = [entity for entity in alarming_entities(window) if entity in allowed]
        data = {
            "label": "anomaly" if evidence else "normal",
            "evidence": evidence,
            "anomaly_type": "safety_hazard" if evidence else "none",
            "severity": "critical" if evidence else "none",
            "reasoning": "A sensor reports danger." if evidence else "All quiet.",
            "recommendation": "",
        }
        if self.oversized:
            data["reasoning"] = "x" * 2_000_000
        return GenDataTaskResult(
            conversation_id=chat_log.conversation_id, data=task.structure(data)
        )


class _TestFlow(ConfigFlow):
    """The test integration's (unused) config flow: HA wants one for config entries."""


@pytest.fixture
async def task_entity(hass: HomeAssistant) -> AsyncIterator[RuleOfThumbTaskEntity]:
    """A loaded test integration with one AI Task entity."""
    entity = RuleOfThumbTaskEntity()

    async def setup_entry(hass: HomeAssistant, entry: ConfigEntry) -> bool:
        await hass.config_entries.async_forward_entry_setups(entry, [Platform.AI_TASK])
        return True

    async def setup_platform(
        hass: HomeAssistant, entry: ConfigEntry, add: AddConfigEntryEntitiesCallback
    ) -> None:
        add([entity])

    assert await async_setup_component(hass, "homeassistant", {})
    mock_integration(hass, MockModule(TEST_DOMAIN, async_setup_entry=setup_entry))
    mock_platform(hass, f"{TEST_DOMAIN}.ai_task", MockPlatform(async_setup_entry=setup_platform))
    mock_platform(hass, f"{TEST_DOMAIN}.config_flow")
    assert await async_setup_component(hass, "ai_task", {})
    with mock_config_flow(TEST_DOMAIN, _TestFlow):
        entry = MockConfigEntry(domain=TEST_DOMAIN)
        entry.add_to_hass(hass)
        assert await hass.config_entries.async_setup(entry.entry_id)
        await hass.async_block_till_done()
        assert hass.states.get(ENTITY_ID) is not None
        yield entity


CONFIG = {CONF_BACKEND: BACKEND_AI_TASK, CONF_AI_TASK_ENTITY: ENTITY_ID}


async def test_structure_reaches_the_entity_as_an_enum_schema(
    hass: HomeAssistant, task_entity: RuleOfThumbTaskEntity
) -> None:
    backend = create_backend(hass, CONFIG)
    assert isinstance(backend, AITaskBackend)
    detector = LLMDetector(backend)
    window = gas_leak_window()
    verdict = await detector.async_analyze(window)
    assert verdict.label is Label.ANOMALY
    assert verdict.evidence == ("binary_sensor.kitchen_gas",)
    schema = task_entity.schemas[0]
    assert sorted(schema["properties"]["evidence"]["items"]["enum"]) == sorted(window.entity_ids)
    assert schema["properties"]["label"]["enum"] == ["normal", "anomaly"]
    assert set(schema["required"]) >= {"label", "evidence", "reasoning"}
    assert task_entity.tasks[0].llm_api is None  # no device-control tools
    assert (await detector.async_analyze(normal_window())).label is Label.NORMAL


async def test_validation_and_failures(
    hass: HomeAssistant, task_entity: RuleOfThumbTaskEntity
) -> None:
    await async_validate_backend(hass, CONFIG)
    with pytest.raises(LLMUnavailableError, match="not found"):
        await async_validate_backend(hass, {**CONFIG, CONF_AI_TASK_ENTITY: "ai_task.missing"})
    task_entity.fail_with = HomeAssistantError("cloud quota exceeded")
    detector = LLMDetector(create_backend(hass, CONFIG), retries=1, backoff=0)
    with pytest.raises(LLMUnavailableError, match="cloud quota exceeded"):
        await detector.async_analyze(gas_leak_window())
    assert not detector.available
    assert len(task_entity.tasks) == 2  # one retry


async def test_hybrid_detector_from_entry_config(
    hass: HomeAssistant, task_entity: RuleOfThumbTaskEntity
) -> None:
    rules = RuleDetector()
    detector = create_detector(hass, {**CONFIG, CONF_DETECTOR: DETECTOR_HYBRID}, rules)
    llm_detector = llm_detector_of(detector)
    assert llm_detector is not None
    verdict = await detector.async_analyze(gas_leak_window())
    assert verdict.detector == "hybrid"
    assert "binary_sensor.kitchen_gas" in verdict.evidence
    assert create_detector(hass, CONFIG, rules) is rules  # no detector option: rules
    # the model's plain-text explanation (generate_data without a structure) joins the
    # finding once checked against its facts
    assert task_entity.tasks[-1].structure is None
    assert verdict.findings[0].reasoning.endswith(f"{JOINER} {task_entity.explanation}")
    # one naming a device outside the evidence is not used: the rule's words stay
    task_entity.explanation = "The Front Door is open. Close the Front Door Lock."
    detector = create_detector(hass, {**CONFIG, CONF_DETECTOR: DETECTOR_HYBRID}, rules)
    verdict = await detector.async_analyze(gas_leak_window())
    assert JOINER not in verdict.reasoning
    assert isinstance(detector, HybridDetector)
    assert detector.explainer is not None
    assert [e.reason for e in detector.explainer.last] == [FOREIGN]


async def test_a_crashing_entity_quoting_the_prompt_leaks_nothing(
    hass: HomeAssistant, task_entity: RuleOfThumbTaskEntity, caplog: pytest.LogCaptureFixture
) -> None:
    """A third-party entity whose exception quotes the prompt (with the household profile):
    a scrubbed backend failure, and the debug log says where it broke but not what it said."""
    caplog.set_level(logging.DEBUG)
    profile = "Priya works night shifts at the Zephyr Foundry until dawn."
    window = replace(gas_leak_window(), profile=profile)
    task_entity.fail_with = RuntimeError(f"cannot handle the prompt: {profile}")
    detector = llm_detector_of(
        create_detector(
            hass, {**CONFIG, CONF_DETECTOR: DETECTOR_LLM, CONF_PROFILE: profile}, RuleDetector()
        )
    )
    assert isinstance(detector, LLMDetector)
    detector.backoff = 0
    with pytest.raises(LLMResponseError) as err:
        await detector.async_analyze(window)
    assert "RuntimeError" in str(err.value)
    assert PROFILE_REPLACEMENT in str(err.value)
    assert "raised RuntimeError at:" in caplog.text  # the traceback's frames are logged
    assert "Zephyr" not in caplog.text
    assert "Zephyr" not in str(err.value)


async def test_monitor_sets_up_without_ai_task_and_the_flow_says_why(hass: HomeAssistant) -> None:
    """No AI integration in this home: the integration loads, ai_task stays unloaded, and
    the AI Task backend form names the problem before and after it is filled in."""
    set_calm_home(hass)
    result = await hass.config_entries.flow.async_init(
        DOMAIN, context={"source": config_entries.SOURCE_USER}
    )
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"],
        {
            "name": "Home",
            CONF_USE_EXPOSED: False,
            CONF_INCLUDE_ENTITIES: [SMOKE],
            CONF_DETECTOR: DETECTOR_HYBRID,
        },
    )
    assert result["step_id"] == "hybrid"  # what the model may change, then the backend
    result = await hass.config_entries.flow.async_configure(result["flow_id"], {})
    assert result["type"] is FlowResultType.MENU
    assert "ai_task" not in hass.config.components
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {"next_step_id": "ai_task"}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {"base": "ai_task_missing"}
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_AI_TASK_ENTITY: ENTITY_ID}
    )
    assert result["errors"] == {"base": "ai_task_missing"}
    assert not hass.config_entries.async_entries(DOMAIN)
    assert "ai_task" not in hass.config.components  # nothing pulled it in

    with pytest.raises(LLMUnavailableError, match="AI Task integration is not loaded"):
        await async_validate_backend(hass, CONFIG)
    detector = LLMDetector(create_backend(hass, CONFIG), retries=0, backoff=0)
    with pytest.raises(LLMUnavailableError, match="AI Task integration is not loaded"):
        await detector.async_analyze(gas_leak_window())


async def test_entry_with_ai_task_backend_loads_and_falls_back_without_ai_task(
    hass: HomeAssistant,
) -> None:
    """An AI Task monitor in a home whose AI integration is gone: setup succeeds and the
    rules judge the windows while the backend is unavailable."""
    set_calm_home(hass)
    hass.states.async_set(SMOKE, "on", {"device_class": "smoke", "friendly_name": "Kitchen smoke"})
    entry = MockConfigEntry(
        domain=DOMAIN,
        title="Home",
        data=CONFIG,
        options=monitor_options(**{CONF_DETECTOR: DETECTOR_HYBRID}),
    )
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    assert entry.state is config_entries.ConfigEntryState.LOADED
    assert "ai_task" not in hass.config.components
    response = await analyze(hass, entry)
    assert response["verdict"]["label"] == "anomaly"
    assert SMOKE in response["verdict"]["evidence"]


async def test_an_oversized_answer_is_a_backend_failure(
    hass: HomeAssistant, task_entity: RuleOfThumbTaskEntity
) -> None:
    """Like the HTTP backends' 1 MB cap: a 2 MB answer is not handed on to be scrubbed."""
    task_entity.oversized = True
    backend = create_backend(hass, CONFIG)
    with pytest.raises(LLMResponseError, match="more than 1 MB"):
        await backend.async_generate(
            [{"role": "user", "content": "<data>all calm</data>"}],
            schema=verdict_schema([SMOKE]),
        )


async def test_yes_no_questions_get_a_select_answer(
    hass: HomeAssistant, task_entity: RuleOfThumbTaskEntity
) -> None:
    """Second opinions and evidence questions: AI Task gives no log-probabilities, so the
    answer is a structure with one select (yes/no), read as a sampled answer."""
    config = {**CONFIG, CONF_PROFILE: "Alice lives alone"}
    backend = RedactingBackend(create_backend(hass, config), Redactor.from_config(config))
    window = open_while_away_window()
    door = Finding(
        "entry_left_open",
        ("binary_sensor.front_door",),
        "Front door open for 20 min.",
        "security",
        Severity.MEDIUM,
        candidates=("lock.front_door_lock",),
    )
    task_entity.answer = "no"
    assert await async_ask(backend, build_question(door, window), timeout=10) == (
        SAMPLED_NO,
        "structured",
    )
    schema = task_entity.schemas[-1]
    assert schema["properties"]["answer"]["enum"] == ["yes", "no"]
    assert schema["required"] == ["answer"]
    task_entity.answer = "yes"
    ranker = EvidenceRanker(backend, EvidencePolicy(add_from=0.5), timeout=10)
    verdict = await ranker.async_refine(Verdict.from_findings([door], "rules"), window)
    assert [(o.p_yes, o.source) for o in ranker.last_opinions] == [(SAMPLED_YES, "structured")]
    assert verdict.evidence == ("binary_sensor.front_door", "lock.front_door_lock")
    assert verdict.label is Label.ANOMALY
    # a failing entity is no opinion: the rules' evidence stands
    task_entity.fail_with = HomeAssistantError("cloud quota exceeded")
    verdict = await ranker.async_refine(Verdict.from_findings([door], "rules"), window)
    assert verdict.evidence == door.evidence
    assert ranker.last_opinions[0].p_yes is None
