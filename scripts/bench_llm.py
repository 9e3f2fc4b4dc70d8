"""Per-analysis latency of the local llama.cpp backend (worker process, 2 threads).

Two windows: a ~60-entity snapshot and a compressed multi-day sequence. Each is analysed
``--runs`` times with the clock moved on a minute per run (so the window part of the
prompt is new each time, as in real use), with and without KV-cache reuse of the static
prompt prefix. Prints p50/p95 seconds and tokens in/cached/out.

    .venv/bin/python scripts/bench_llm.py [--model PATH] [--runs 8] [--threads 2]

Without ``--model`` it uses Qwen2.5-Coder-0.5B-Instruct from the test requirements.
"""

from __future__ import annotations

import argparse
import asyncio
from dataclasses import replace
from datetime import timedelta
import os
from pathlib import Path
import statistics
import sys
import time

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from custom_components.anomaly_monitor.backends.llama_cpp import LlamaCppBackend
from custom_components.anomaly_monitor.core.llm.parsing import parse_for_window
from custom_components.anomaly_monitor.core.llm.prompts import (
    SNAPSHOT_EXAMPLES,
    PromptForm,
    build_messages,
    choose_form,
    verdict_schema,
)
from custom_components.anomaly_monitor.core.models import ContextWindow
from tests import gguf_models
from tests.llm_windows import large_snapshot_window, long_sequence_window


def shifted(window: ContextWindow, minutes: int) -> ContextWindow:
    """The same window, analysed ``minutes`` later."""
    env = replace(
        window.environment, local_time=window.environment.local_time + timedelta(minutes=minutes)
    )
    return replace(window, environment=env)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


async def bench(model: str, threads: int, runs: int, max_tokens: int) -> None:
    windows = {"snapshot-60": large_snapshot_window(60), "sequence": long_sequence_window(3)}
    print(f"model: {Path(model).name}, threads: {threads}, runs: {runs}, max_tokens: {max_tokens}")
    print(f"load average before: {os.getloadavg()[0]:.2f} (on {os.cpu_count()} cores)")
    header = (
        f"{'window':<12} {'prefix cache':<12} {'p50 s':>6} {'p95 s':>6} "
        f"{'tok in':>7} {'cached':>7} {'tok out':>7} {'parsed':>7}"
    )
    print(header)
    for label, base in windows.items():
        for cache in (True, False):
            backend = LlamaCppBackend(model, threads=threads, prefix_cache=cache)
            seconds: list[float] = []
            prompt_in: list[int] = []
            cached: list[int] = []
            out: list[int] = []
            parsed = 0
            try:
                for run in range(runs + 1):  # run 0 loads the model and fills the cache
                    window = shifted(base, run)
                    form = choose_form(window)
                    examples = SNAPSHOT_EXAMPLES if form is PromptForm.SNAPSHOT else ()
                    messages = build_messages(window, form, examples=examples)
                    started = time.perf_counter()
                    text = await backend.async_generate(
                        messages,
                        schema=verdict_schema(window.entity_ids),
                        max_tokens=max_tokens,
                        timeout=600,
                    )
                    elapsed = time.perf_counter() - started
                    if run == 0:
                        continue
                    stats = backend.last_stats
                    seconds.append(elapsed)
                    prompt_in.append(int(stats["prompt_tokens"]))
                    cached.append(int(stats["cached_tokens"]))
                    out.append(int(stats["completion_tokens"]))
                    parsed += parse_for_window(text, window).ok
            finally:
                await backend.async_close()
            print(
                f"{label:<12} {'on' if cache else 'off':<12} "
                f"{statistics.median(seconds):>6.2f} {percentile(seconds, 0.95):>6.2f} "
                f"{statistics.mean(prompt_in):>7.0f} {statistics.mean(cached):>7.0f} "
                f"{statistics.mean(out):>7.0f} {parsed:>4}/{runs}"
            )
    print(f"load average after: {os.getloadavg()[0]:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", help="GGUF file (default: Qwen2.5-Coder-0.5B-Instruct)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--runs", type=int, default=8)
    parser.add_argument("--max-tokens", type=int, default=200)
    args = parser.parse_args()
    model = args.model or gguf_models.qwen_05b()
    if model is None:
        sys.exit("No model: pass --model or install requirements_test.txt")
    asyncio.run(bench(str(model), args.threads, args.runs, args.max_tokens))


if __name__ == "__main__":
    main()
