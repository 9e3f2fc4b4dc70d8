"""SmartBench's AC score: an LLM judge rates the detector's explanation against the reference.

The dataset README defines AC as a judge's 1–5 rating of a detector's reasoning against
the sample's reference ``reasoning``, a rating of 4 or more counting as a valid
attribution; it gives no rubric, so ours is in ``ac_prompt.py``. The judge is any of the
integration's own backends (OpenAI-compatible, Ollama, llama.cpp), built here without
Home Assistant. It runs on the scoring side after the replay: the reference reasoning
reaches the judge only, never the detector or HA.

Both texts are untrusted (the reference comes from a data file, the explanation partly
from an LLM): they are passed as JSON-quoted data, and the judge is told to ignore any
instructions inside them (``ac_prompt.py``). A reply is parsed tolerantly; a bad reply
or a failed call is recorded as an error and the sample gets no AC score — judging never
stops the run. Judgements are cached in the output folder under a key made of the sample
key, a fingerprint of the judge's options and prompt, and the full judged text, so a
rerun only judges what changed. Errors are not cached: a rerun asks again.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
import contextlib
from dataclasses import asdict, dataclass, replace
import hashlib
import json
from pathlib import Path
import time
from typing import Any

from custom_components.anomaly_monitor.core.llm.backend import (
    LLMBackend,
    LLMError,
    LLMUnavailableError,
)

from .ac_prompt import (
    JUDGE_SCHEMA,
    SYSTEM_PROMPT,
    JudgeRequest,
    build_messages,
    explanation_text,
    parse_judgement,
)
from .scoring import AC_MISSED, SampleScore

JUDGE_BACKENDS = ("openai", "ollama", "llama_cpp")
DEFAULT_TIMEOUT = 120.0
DEFAULT_MAX_TOKENS = 160
# A judge that is down fails every sample the same way: stop asking after this many.
MAX_CONSECUTIVE_UNAVAILABLE = 5
# The judge's raw reply kept with a judgement.
MAX_RAW_CHARS = 1000


@dataclass(frozen=True, slots=True)
class JudgeOptions:
    """Which model judges, and how; the API key is kept out of every fingerprint."""

    backend: str
    model: str | None = None
    model_path: str | None = None
    base_url: str | None = None
    threads: int = 2
    api_key: str | None = None
    timeout: float = DEFAULT_TIMEOUT
    max_tokens: int = DEFAULT_MAX_TOKENS

    def check(self) -> None:
        """Raise ``ValueError`` with a clear message if the options cannot work."""
        if self.backend not in JUDGE_BACKENDS:
            raise ValueError(f"judge backend must be one of {', '.join(JUDGE_BACKENDS)}")
        if self.backend == "llama_cpp" and not self.model_path:
            raise ValueError("the llama_cpp judge needs --judge-model-path (a GGUF file)")
        if self.backend in ("openai", "ollama") and not self.model:
            raise ValueError(f"the {self.backend} judge needs --judge-model")

    def describe(self) -> str:
        """One line for the summary (no key)."""
        if self.backend == "llama_cpp":
            return f"llama_cpp {Path(str(self.model_path)).name} ({self.threads} threads)"
        return f"{self.backend} {self.model} at {self.base_url or 'the default URL'}"

    def fingerprint(self) -> str:
        """Hash of everything that can change a judgement: options, prompt and schema."""
        settings = {
            "backend": self.backend,
            "model": self.model if self.backend != "llama_cpp" else None,
            "model_path": self.model_path if self.backend == "llama_cpp" else None,
            "base_url": self.base_url if self.backend != "llama_cpp" else None,
            "max_tokens": self.max_tokens,
            "system": SYSTEM_PROMPT,
            "schema": JUDGE_SCHEMA,
        }
        return hashlib.sha256(json.dumps(settings, sort_keys=True).encode()).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class Judgement:
    """The judge's answer for one sample: a score, or why there is none."""

    key: str
    cache_key: str
    score: int | None
    why: str = ""
    error: str | None = None
    raw: str = ""
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        """JSON form for the cache."""
        return asdict(self)


def cache_key(request: JudgeRequest, judge_fingerprint: str) -> str:
    """Sample key + judge fingerprint + everything the judge reads."""
    material = json.dumps(
        [request.key, judge_fingerprint, request.reference, request.explanation],
        ensure_ascii=False,
    )
    return hashlib.sha256(material.encode()).hexdigest()[:24]


async def async_judge(
    backend: LLMBackend, request: JudgeRequest, key: str, options: JudgeOptions
) -> Judgement:
    """Ask ``backend`` once; a failed call or an unusable reply becomes an error, not a raise."""
    started = time.perf_counter()
    try:
        text = await backend.async_generate(
            build_messages(request),
            schema=JUDGE_SCHEMA,
            max_tokens=options.max_tokens,
            timeout=options.timeout,
        )
    except LLMError as err:
        failure = f"{type(err).__name__}: {err}"
        return Judgement(request.key, key, None, error=failure, seconds=_since(started))
    except Exception as err:  # a long benchmark must survive a backend bug
        failure = f"unexpected {type(err).__name__}: {err}"
        return Judgement(request.key, key, None, error=failure, seconds=_since(started))
    score, why, problem = parse_judgement(text)
    return Judgement(
        request.key,
        key,
        score,
        why=why,
        error=problem,
        raw=text[:MAX_RAW_CHARS],
        seconds=_since(started),
    )


@contextlib.asynccontextmanager
async def open_backend(options: JudgeOptions) -> AsyncIterator[LLMBackend]:
    """The judge's backend, built the way the integration builds it but without HA."""
    from custom_components.anomaly_monitor.const import DEFAULT_OLLAMA_URL, DEFAULT_OPENAI_URL

    if options.backend == "llama_cpp":
        from custom_components.anomaly_monitor.backends.llama_cpp import LlamaCppBackend

        local = LlamaCppBackend(str(options.model_path), threads=options.threads)
        try:
            yield local
        finally:
            await local.async_close()
        return
    import aiohttp

    async with aiohttp.ClientSession() as session:
        from custom_components.anomaly_monitor.backends.ollama import OllamaBackend
        from custom_components.anomaly_monitor.backends.openai_compat import (
            OpenAICompatBackend,
        )

        kind: type[OpenAICompatBackend] | type[OllamaBackend]
        kind, default_url = (
            (OpenAICompatBackend, DEFAULT_OPENAI_URL)
            if options.backend == "openai"
            else (OllamaBackend, DEFAULT_OLLAMA_URL)
        )
        backend = kind(
            session, options.base_url or default_url, str(options.model), options.api_key
        )
        try:
            yield backend
        finally:
            await backend.async_close()


def read_judgements(path: Path) -> dict[str, Judgement]:
    """Cached successful judgements by cache key; damaged lines are skipped."""
    cached: dict[str, Judgement] = {}
    if not path.is_file():
        return cached
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            item = json.loads(line)
            judgement = Judgement(**item)
        except (json.JSONDecodeError, TypeError):
            continue  # a line cut short by an interrupted run, or an older format
        if judgement.error is None and judgement.score is not None:
            cached[judgement.cache_key] = judgement
    return cached


@dataclass(slots=True)
class JudgeRun:
    """What a judging pass did: judgements by sample key, and how many came from the cache."""

    judgements: dict[str, Judgement]
    cached: int
    asked: int


async def async_judge_all(
    requests: Sequence[JudgeRequest],
    options: JudgeOptions,
    cache_path: Path,
    *,
    on_done: Callable[[int], None] | None = None,
) -> JudgeRun:
    """Judge every request not in the cache, one at a time, appending to the cache."""
    judge_print = options.fingerprint()
    cached = read_judgements(cache_path)
    result: dict[str, Judgement] = {}
    todo: list[tuple[JudgeRequest, str]] = []
    for request in requests:
        key = cache_key(request, judge_print)
        if key in cached:
            result[request.key] = replace(cached[key], key=request.key)
        else:
            todo.append((request, key))
    run = JudgeRun(result, cached=len(result), asked=0)
    if on_done is not None and run.cached:
        on_done(run.cached)
    if not todo:
        return run
    unavailable = 0
    async with open_backend(options) as backend:
        with cache_path.open("a", encoding="utf-8") as cache:
            for request, key in todo:
                if unavailable >= MAX_CONSECUTIVE_UNAVAILABLE:
                    error = f"not asked: the judge failed {unavailable} times in a row"
                    result[request.key] = Judgement(request.key, key, None, error=error)
                else:
                    judgement = await async_judge(backend, request, key, options)
                    run.asked += 1
                    result[request.key] = judgement
                    down = (judgement.error or "").startswith(LLMUnavailableError.__name__)
                    unavailable = unavailable + 1 if down else 0
                    cache.write(json.dumps(judgement.as_dict(), ensure_ascii=False) + "\n")
                    cache.flush()
                if on_done is not None:
                    on_done(1)
    return run


def judge_requests(
    scores: Sequence[SampleScore],
    references: Mapping[str, str],
    predictions: Mapping[str, Mapping[str, Any]],
) -> list[JudgeRequest]:
    """A request for every anomalous sample the detector flagged without a replay error."""
    requests: list[JudgeRequest] = []
    for score in scores:
        if not (score.is_anomaly and score.predicted_anomaly) or score.error:
            continue
        prediction = predictions.get(score.key) or {}
        explanation = explanation_text(
            prediction.get("verdict") or {}, prediction.get("predicted_devices") or ()
        )
        requests.append(JudgeRequest(score.key, references.get(score.key, ""), explanation))
    return requests


def attach_ac(
    scores: Sequence[SampleScore],
    rows: Sequence[dict[str, Any]],
    judgements: Mapping[str, Judgement],
) -> list[SampleScore]:
    """Scores with their AC, and ``ac``/``ac_why``/``ac_error`` added to each output row.

    Anomalous and flagged: the judge's score (none if the judge failed). Anomalous but
    missed, or its replay failed: ``AC_MISSED`` (no attribution at all). Normal: none.
    """
    scored: list[SampleScore] = []
    for score, row in zip(scores, rows, strict=True):
        if not score.is_anomaly:
            scored.append(score)
            continue
        judgement = judgements.get(score.key)
        if not score.predicted_anomaly or score.error:
            updated = replace(score, ac=AC_MISSED)
        elif judgement is None:
            updated = replace(score, ac_error="not judged")
        elif judgement.score is None:
            updated = replace(score, ac_error=judgement.error or "no score")
        else:
            updated = replace(score, ac=float(judgement.score))
        row["ac"] = updated.ac
        row["ac_error"] = updated.ac_error
        if judgement is not None and judgement.why:
            row["ac_why"] = judgement.why
        scored.append(updated)
    return scored


def run_judge(
    requests: Sequence[JudgeRequest],
    options: JudgeOptions,
    cache_path: Path,
    *,
    on_done: Callable[[int], None] | None = None,
) -> JudgeRun:
    """Synchronous entry point for the CLI."""
    return asyncio.run(async_judge_all(requests, options, cache_path, on_done=on_done))


def _since(started: float) -> float:
    return round(time.perf_counter() - started, 3)
