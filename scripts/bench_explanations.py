"""Homeowner explanations on SmartBench development samples: how many pass the check, and cost.

For a seeded stratified set (``--limit`` CI + ``--limit`` CD samples, the same selection as
``python -m benchmark_replay smartbench --subset ci|cd --limit N --seed S``), the rules and
statistics judge each window (the direct replay path); for every *anomalous* sample, the
findings the hybrid would explain (``Explainer.wanted``: most severe first, at most
``MAX_EXPLANATIONS``) are explained by a GGUF model in the integration's llama.cpp worker
(2 threads), and each reply goes through ``explanations.check``. Printed:

- the share of explanations that pass, and the reasons for the others;
- seconds per explanation and added seconds per analysis (p50/p95);
- prompt, cached and generated tokens (p50/max), so a quiet machine's time can be estimated;
- the load average before and after; ``--show`` examples verbatim.

Replies are cached in ``OUT/explanations.jsonl`` (per model, sample, finding and prompt),
so a rerun only asks what is new (and re-checks every cached reply with the current check).

    .venv/bin/python scripts/bench_explanations.py --model-path M.gguf [--limit 50]
"""

from __future__ import annotations

import argparse
import asyncio
from collections import Counter
import hashlib
import json
import os
from pathlib import Path
import sys
import time
from typing import Any, TextIO

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmark_replay.cli import SUBSET_CHOICES
from benchmark_replay.direct import window_for
from benchmark_replay.replay import select
from benchmark_replay.smartbench_loader import Record, load_smartbench
from custom_components.anomaly_monitor.backends.llama_cpp import LlamaCppBackend
from custom_components.anomaly_monitor.core.combined_detector import CombinedDetector
from custom_components.anomaly_monitor.core.llm.explanations import (
    MAX_TOKENS,
    WRONG_STATE,
    Explainer,
    build_explanation_prompt,
    check,
    first_sentences,
)
from custom_components.anomaly_monitor.core.llm.state_claims import contradiction

DEFAULT_DATA = Path("/work/shared/datasets/smartbench")


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))]


def anomalous_records(data: Path, limit: int, seed: int) -> list[Record]:
    """The anomalous samples of the selection, CI and CD alternating (a run cut short by
    ``--minutes`` still covers both)."""
    per_subset = []
    for subset in ("ci", "cd"):
        records = load_smartbench(data, SUBSET_CHOICES[subset]).records
        per_subset.append([r for r in select(records, limit, seed) if r.answer.is_anomaly])
    ci, cd = per_subset
    mixed = [r for pair in zip(ci, cd, strict=False) for r in pair]
    shorter = min(len(ci), len(cd))
    return mixed + ci[shorter:] + cd[shorter:]


def read_cache(path: Path) -> dict[str, dict[str, Any]]:
    if not path.exists():
        return {}
    rows = (json.loads(line) for line in path.read_text(encoding="utf-8").splitlines())
    return {row["cache_key"]: row for row in rows}


async def explain_all(
    backend: LlamaCppBackend,
    model: str,
    records: list[Record],
    cache: dict[str, dict[str, Any]],
    out: TextIO,
    *,
    stop_at: float,
) -> list[dict[str, Any]]:
    """One row per anomalous sample: the explanations of the findings the hybrid explains.

    Past ``stop_at`` (``time.monotonic()``) nothing new is asked: the samples done so far
    are reported (the run says how many); ``--minutes 0.01`` re-reports the cached ones."""
    rules = CombinedDetector()
    explainer = Explainer(backend)
    rows: list[dict[str, Any]] = []
    for index, record in enumerate(records):
        window, _ = window_for(record.sample)
        verdict = await rules.async_analyze(window)
        items = []
        for finding in explainer.wanted(verdict.findings):
            messages = build_explanation_prompt(finding, window)
            digest = hashlib.sha256(json.dumps(messages).encode()).hexdigest()[:16]
            key = f"{model}|{record.answer.key}|{finding.signature}|{digest}"
            if key not in cache and time.monotonic() > stop_at:
                print(f"\nstopped by --minutes after {index} samples", file=sys.stderr)
                return rows  # only samples whose explanations were all asked
            if key not in cache:
                started = time.perf_counter()
                reply = await backend.async_generate(messages, max_tokens=MAX_TOKENS, timeout=600)
                cache[key] = {
                    "cache_key": key,
                    "reply": reply,
                    "seconds": time.perf_counter() - started,
                    **{
                        k: backend.last_stats.get(k)
                        for k in ("prompt_tokens", "cached_tokens", "completion_tokens")
                    },
                }
                out.write(json.dumps(cache[key]) + "\n")
                out.flush()
            row = dict(cache[key])
            row["text"], row["reason"] = check(row["reply"], finding, window)
            if row["reason"] == WRONG_STATE:  # which claim, for reading the rejections
                said = first_sentences(row["reply"]) or ""
                row["claim"] = str(contradiction(said, window, finding.evidence))
            row["rule"] = finding.rule
            row["facts"] = messages[-1]["content"]
            items.append(row)
        rows.append({"key": record.answer.key, "subset": record.answer.subset, "items": items})
        print(f"\r{index + 1}/{len(records)} samples", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return rows


def report(rows: list[dict[str, Any]], show: int, wrong_states: bool = False) -> None:
    items = [item for row in rows for item in row["items"]]
    passed = [i for i in items if i["text"] is not None]
    print(
        f"anomalous samples done: {len(rows)}, with findings explained: "
        f"{sum(bool(r['items']) for r in rows)}, explanations asked: {len(items)}"
    )
    if not items:
        return
    print(f"pass the check: {len(passed)}/{len(items)} = {len(passed) / len(items):.2f}")
    for reason, count in Counter(i["reason"] for i in items if i["text"] is None).most_common():
        print(f"  rejected, {reason}: {count}")
    per = [i["seconds"] for i in items]
    added = [sum(i["seconds"] for i in r["items"]) for r in rows if r["items"]]
    print(f"seconds per explanation p50 {percentile(per, 0.5):.2f} p95 {percentile(per, 0.95):.2f}")
    print(
        f"added seconds per analysis p50 {percentile(added, 0.5):.2f} "
        f"p95 {percentile(added, 0.95):.2f} (analyses with a finding: {len(added)})"
    )
    for field in ("prompt_tokens", "cached_tokens", "completion_tokens"):
        values = [float(i[field] or 0) for i in items]
        print(f"{field} p50 {percentile(values, 0.5):.0f} max {max(values):.0f}")
    print("\nexamples (first of each sample, in order):")
    for row in [r for r in rows if r["items"]][:show]:
        item = row["items"][0]
        verdict = "PASS" if item["text"] is not None else f"REJECTED ({item['reason']})"
        print(f"--- {row['subset']} {item['rule']}: {verdict}")
        print(item["facts"].split("</data>")[0].replace("<data>\n", ""))
        print(f"reply: {item['reply']!r}")
        if item["text"] is not None:
            print(f"shown: {item['text']}")
    if wrong_states:
        print(f"\nevery rejection '{WRONG_STATE}':")
        for row in rows:
            for item in (i for i in row["items"] if i["reason"] == WRONG_STATE):
                print(f"--- {row['key']} {item['rule']}: {item['claim']}")
                print(item["facts"].split("</data>")[0].replace("<data>\n", ""))
                print(f"reply: {item['reply']!r}")


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"{one:.2f} (5 min {five:.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model-path", type=Path, required=True)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--limit", type=int, default=50, help="samples per subset (ci, cd)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--show", type=int, default=5, help="examples printed verbatim")
    parser.add_argument("--out", type=Path, help="cache directory (replay-results/...)")
    parser.add_argument("--minutes", type=float, default=0, help="stop asking after (0: never)")
    parser.add_argument(
        "--wrong-states", action="store_true", help="print every state-claim rejection"
    )
    args = parser.parse_args()
    model = args.model_path.name.removesuffix(".gguf")
    out_dir = args.out or Path("replay-results") / f"explanations-{model}"
    out_dir.mkdir(parents=True, exist_ok=True)
    cache_path = out_dir / "explanations.jsonl"
    stop_at = time.monotonic() + args.minutes * 60 if args.minutes else float("inf")
    records = anomalous_records(args.data, args.limit, args.seed)
    print(
        f"model: {model}, threads: {args.threads}, max_tokens: {MAX_TOKENS}, "
        f"{args.limit} CI + {args.limit} CD, seed {args.seed}"
    )
    print(f"load average before: {load()} on {os.cpu_count()} cores")

    async def run() -> list[dict[str, Any]]:
        backend = LlamaCppBackend(str(args.model_path), threads=args.threads)
        try:
            with cache_path.open("a", encoding="utf-8") as out:
                cache = read_cache(cache_path)
                return await explain_all(backend, model, records, cache, out, stop_at=stop_at)
        finally:
            await backend.async_close()

    rows = asyncio.run(run())
    print(f"load average after: {load()}")
    report(rows, args.show, args.wrong_states)


if __name__ == "__main__":
    main()
