"""Scored second opinions on SmartBench development samples: separation, calibration, latency.

For a seeded stratified evaluation set (``--limit`` CI + ``--limit`` CD samples, the same
selection as ``python -m benchmark_replay smartbench --subset ci|cd --limit N --seed S``)
and a disjoint held-in set of the same size (``--calibration-seed``), the rules and
statistics judge each window (the direct replay path), and every finding they are unsure
about (``second_opinion.is_eligible``) becomes one yes/no question to a GGUF model in the
integration's llama.cpp worker (2 threads). P(yes) comes from the first token's
log-probabilities. Printed:

- AUROC of P(yes) between findings of anomalous and of normal samples (evaluation set),
  overall, per subset and per question family;
- the calibration fitted per family on the held-in set (Platt + dismissal threshold) and
  what applying it does on the evaluation set: recall and FPR of rules + statistics
  alone against the calibrated hybrid;
- the curve: recall and FPR on the evaluation set when every eligible finding under one
  raw P(yes) threshold is dismissed;
- seconds per question and added seconds per analysis (p50/p95), prompt tokens, cached
  tokens, and the load average before and after.

Opinions are cached in ``OUT/opinions.jsonl`` (per model, sample, finding and prompt), so a
rerun only asks what is new. ``--store`` writes the calibration into
``core/llm/second_opinion_calibration.json`` under the model's name.

    .venv/bin/python scripts/bench_second_opinion.py --model-path M.gguf [--limit 100] [--store]
"""

from __future__ import annotations

import argparse
import asyncio
from collections import defaultdict
import hashlib
import json
import os
from pathlib import Path
import statistics
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
from custom_components.anomaly_monitor.core.llm.calibration import (
    ModelCalibration,
    auroc,
    fit_family,
    model_key,
    store_calibration,
)
from custom_components.anomaly_monitor.core.llm.second_opinion import (
    ANSWER_WORDS,
    SAMPLED_YES,
    build_question,
    family_of,
    is_eligible,
    sampled_answer,
    yes_probability,
)

DEFAULT_DATA = Path("/work/shared/datasets/smartbench")


def choose_sets(
    data: Path, limit: int, seed: int, calibration_seed: int
) -> dict[str, list[Record]]:
    """Evaluation set and a disjoint held-in set, each ``limit`` CI + ``limit`` CD."""
    sets: dict[str, list[Record]] = {"eval": [], "held-in": []}
    for subset in ("ci", "cd"):
        records = load_smartbench(data, SUBSET_CHOICES[subset]).records
        chosen = select(records, limit, seed)
        keys = {r.answer.key for r in chosen}
        rest = [r for r in records if r.answer.key not in keys]
        sets["eval"].extend(chosen)
        sets["held-in"].extend(select(rest, limit, calibration_seed))
    return sets


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))]


def read_cache(path: Path) -> dict[str, dict[str, Any]]:
    """Opinions asked before, by cache key."""
    if not path.exists():
        return {}
    rows = (json.loads(line) for line in path.read_text(encoding="utf-8").splitlines())
    return {row["cache_key"]: row for row in rows}


async def ask_all(
    backend: LlamaCppBackend,
    model: str,
    records: list[Record],
    cache: dict[str, dict[str, Any]],
    out: TextIO,
    *,
    with_examples: bool,
) -> list[dict[str, Any]]:
    """One row per sample: its findings, and an opinion for each eligible one."""
    rules = CombinedDetector()
    rows: list[dict[str, Any]] = []
    for index, record in enumerate(records):
        window, _ = window_for(record.sample)
        verdict = await rules.async_analyze(window)
        findings = []
        for finding in verdict.findings:
            item: dict[str, Any] = {
                "signature": finding.signature,
                "family": family_of(finding),
                "severity": finding.severity.value,
                "eligible": is_eligible(finding),
            }
            if item["eligible"]:
                messages = build_question(finding, window, with_examples=with_examples)
                digest = hashlib.sha256(json.dumps(messages).encode()).hexdigest()[:16]
                cache_key = f"{model}|{record.answer.key}|{finding.signature}|{digest}"
                if cache_key not in cache:
                    started = time.perf_counter()
                    token = await backend.async_first_token(
                        messages, words=ANSWER_WORDS, timeout=600
                    )
                    p_yes = yes_probability(token.logprobs)
                    cache[cache_key] = {
                        "cache_key": cache_key,
                        "p_yes": p_yes,
                        "sampled": sampled_answer(token.text),
                        "text": token.text,
                        "seconds": time.perf_counter() - started,
                        **{
                            k: backend.last_stats.get(k) for k in ("prompt_tokens", "cached_tokens")
                        },
                    }
                    out.write(json.dumps(cache[cache_key]) + "\n")
                    out.flush()
                item.update(cache[cache_key])
            findings.append(item)
        rows.append(
            {
                "key": record.answer.key,
                "subset": "ci" if record.answer.subset == "ci" else "cd",
                "anomalous": record.answer.is_anomaly,
                "findings": findings,
            }
        )
        print(f"\r{index + 1}/{len(records)} samples", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return rows


async def ask_sets(
    args: argparse.Namespace, model: str, sets: dict[str, list[Record]], cache_path: Path
) -> dict[str, list[dict[str, Any]]]:
    backend = LlamaCppBackend(str(args.model_path), threads=args.threads)
    cache = read_cache(cache_path)
    try:
        with cache_path.open("a", encoding="utf-8") as out:
            return {
                name: await ask_all(
                    backend, model, records, cache, out, with_examples=args.examples
                )
                for name, records in sets.items()
            }
    finally:
        await backend.async_close()


def agrees(finding: dict[str, Any]) -> bool:
    """Whether the greedy word and P(yes) >= 0.5 say the same."""
    if finding["p_yes"] is None:
        return False
    return (finding["p_yes"] >= 0.5) == (finding["sampled"] == SAMPLED_YES)


def opinions(rows: list[dict[str, Any]]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    return [(r, f) for r in rows for f in r["findings"] if f["eligible"] and f["p_yes"] is not None]


def calibrate(rows: list[dict[str, Any]], model: str, measured: str) -> ModelCalibration:
    by_family: dict[str, tuple[list[float], list[bool]]] = defaultdict(lambda: ([], []))
    for row, finding in opinions(rows):
        by_family[finding["family"]][0].append(finding["p_yes"])
        by_family[finding["family"]][1].append(row["anomalous"])
    families = {name: fit_family(ps, labels) for name, (ps, labels) in by_family.items()}
    return ModelCalibration(model, families, measured)


def rates(rows: list[dict[str, Any]], dismissed: Any) -> dict[str, tuple[float, float, int, int]]:
    """Per subset: recall, FPR, anomalous n, normal n when ``dismissed(finding)`` are dropped."""
    result: dict[str, tuple[float, float, int, int]] = {}
    for subset in ("ci", "cd", "all"):
        chosen = [r for r in rows if subset in ("all", r["subset"])]
        flagged = {r["key"]: any(not dismissed(f) for f in r["findings"]) for r in chosen}
        pos = [r for r in chosen if r["anomalous"]]
        neg = [r for r in chosen if not r["anomalous"]]
        recall = sum(flagged[r["key"]] for r in pos) / len(pos) if pos else float("nan")
        fpr = sum(flagged[r["key"]] for r in neg) / len(neg) if neg else float("nan")
        result[subset] = (recall, fpr, len(pos), len(neg))
    return result


def report_auroc(rows: list[dict[str, Any]]) -> None:
    groups: dict[str, tuple[list[float], list[float]]] = defaultdict(lambda: ([], []))
    for row, finding in opinions(rows):
        for name in ("all", f"subset {row['subset']}", f"family {finding['family']}"):
            groups[name][0 if row["anomalous"] else 1].append(finding["p_yes"])
    print("| group | findings of anomalous samples | of normal samples | AUROC of P(yes) |")
    print("|---|---:|---:|---:|")
    for name in sorted(groups, key=lambda n: (n != "all", n)):
        pos, neg = groups[name]
        value = auroc(pos, neg)
        shown = "-" if value is None else f"{value:.3f}"
        print(f"| {name} | {len(pos)} | {len(neg)} | {shown} |")


def print_rates(label: str, values: dict[str, tuple[float, float, int, int]]) -> None:
    cells = " | ".join(f"{values[s][0]:.3f} | {values[s][1]:.3f}" for s in ("ci", "cd", "all"))
    print(f"| {label} | {cells} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model-path", type=Path)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--limit", type=int, default=100, help="samples per subset (ci, cd)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--calibration-seed", type=int, default=1)
    parser.add_argument(
        "--held-in",
        choices=("separate", "crossfit"),
        default="separate",
        help="separate: fit on a disjoint set of the same size; crossfit: fit on one half "
        "of the evaluation set (split by key), apply to the other, and the other way round",
    )
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--out", type=Path)
    parser.add_argument(
        "--examples", action="store_true", help="questions after the two answered examples"
    )
    parser.add_argument("--store", action="store_true", help="store the fitted calibration")
    args = parser.parse_args()
    if args.model_path is None:
        from tests.gguf_models import qwen_05b

        args.model_path = qwen_05b()
    model = model_key(str(args.model_path))
    out = args.out or Path("replay-results") / f"second-opinion-{model}"
    out.mkdir(parents=True, exist_ok=True)
    sets = choose_sets(args.data, args.limit, args.seed, args.calibration_seed)
    if args.held_in == "crossfit":
        del sets["held-in"]
    load_before = os.getloadavg()
    started = time.perf_counter()
    rows = asyncio.run(ask_sets(args, model, sets, out / "opinions.jsonl"))
    elapsed = time.perf_counter() - started
    load_after = os.getloadavg()

    evaluation = rows["eval"]
    held_in = rows.get("held-in") or evaluation
    print(
        f"model: {model}, threads: {args.threads}, seed {args.seed} (held-in seed "
        f"{args.calibration_seed}), {args.limit} CI + {args.limit} CD per set"
    )
    print(
        f"load average (1/5/15 min) before: {' '.join(f'{x:.2f}' for x in load_before)}, "
        f"after: {' '.join(f'{x:.2f}' for x in load_after)} on {os.cpu_count()} cores; "
        f"{elapsed:.0f} s wall (cached opinions are not re-asked)"
    )
    every = evaluation if held_in is evaluation else evaluation + held_in
    asked = [f for r in every for f in r["findings"] if f["eligible"]]
    unread = sum(1 for f in asked if f["p_yes"] is None)
    print(
        f"findings asked: {len(asked)} ({unread} without a yes/no opinion); "
        f"sampled answer agrees with P(yes) >= 0.5: "
        f"{sum(1 for f in asked if agrees(f))}/{len(asked) - unread}"
    )
    print("\n## Separation (evaluation set)\n")
    report_auroc(evaluation)
    if held_in is not evaluation:
        print("\n## Separation (held-in set)\n")
        report_auroc(held_in)

    how = (
        f"{len(held_in)} held-in SmartBench dev samples (seed {args.calibration_seed}, "
        f"{args.limit} CI + {args.limit} CD, disjoint from the seed-{args.seed} evaluation set)"
        if args.held_in == "separate"
        else f"all {len(held_in)} SmartBench dev samples (seed {args.seed}, {args.limit} CI + "
        f"{args.limit} CD); the figures in docs/llm.md cross-fit halves of them"
    )
    calibration = calibrate(held_in, model, f"{how}, {args.threads} threads")
    print("\n## Calibration fitted on the held-in set\n")
    print("| family | n anomalous | n normal | AUROC | a | b | threshold |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, fam in sorted(calibration.families.items()):
        value = "-" if fam.auroc is None else f"{fam.auroc:.3f}"
        threshold = "none (no say)" if fam.threshold is None else f"{fam.threshold:.3f}"
        counts = f"{fam.n_pos} | {fam.n_neg} | {value}"
        print(f"| {name} | {counts} | {fam.a:.3f} | {fam.b:.3f} | {threshold} |")

    def half(row: dict[str, Any]) -> int:
        return hashlib.sha256(row["key"].encode()).digest()[0] % 2

    fold_of: dict[int, ModelCalibration] = {}
    if args.held_in == "crossfit":
        for fold in (0, 1):
            fold_of[fold] = calibrate([r for r in evaluation if half(r) != fold], model, "")
            print(
                f"\nfold {fold} (fitted on the other half): "
                + ", ".join(
                    f"{n} threshold {'-' if f.threshold is None else f'{f.threshold:.3f}'}"
                    for n, f in sorted(fold_of[fold].families.items())
                )
            )
    fold_by_signature = {
        id(f): fold_of.get(half(r), calibration) for r in evaluation for f in r["findings"]
    }

    def calibrated_dismiss(finding: dict[str, Any]) -> bool:
        chosen = fold_by_signature.get(id(finding), calibration)
        return bool(
            finding["eligible"]
            and finding.get("p_yes") is not None
            and chosen.dismisses(finding["family"], finding["p_yes"])
        )

    print("\n## Labels on the evaluation set\n")
    print("| view | CI recall | CI FPR | CD recall | CD FPR | all recall | all FPR |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    print_rates("rules + statistics", rates(evaluation, lambda f: False))
    print_rates(
        f"calibrated hybrid ({args.held_in} held-in fit)", rates(evaluation, calibrated_dismiss)
    )
    print("\n## Curve: dismiss every eligible finding with raw P(yes) < t (evaluation set)\n")
    print("| t | CI recall | CI FPR | CD recall | CD FPR | all recall | all FPR |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    # P(yes) of a small model sits in a narrow band: step through the normal samples'
    # findings (each t dismisses one more of them) rather than a fixed grid.
    normal_scores = sorted({f["p_yes"] for r, f in opinions(evaluation) if not r["anomalous"]})
    for t in [0.0, *(score + 1e-9 for score in normal_scores)]:
        print_rates(
            f"{t:.3f}",
            rates(
                evaluation,
                lambda f, t=t: bool(
                    f["eligible"] and f.get("p_yes") is not None and f["p_yes"] < t
                ),
            ),
        )

    print("\n## Cost (every analysis asked about)\n")
    per_question = [f["seconds"] for f in asked if f.get("seconds") is not None]
    per_analysis = [
        sum(f.get("seconds") or 0 for f in r["findings"] if f["eligible"]) for r in every
    ]
    with_question = [s for s in per_analysis if s > 0]
    prompt = [f["prompt_tokens"] for f in asked if f.get("prompt_tokens")]
    cached = [f["cached_tokens"] for f in asked if f.get("cached_tokens") is not None]
    print(
        f"seconds per question: p50 {percentile(per_question, 0.5):.2f}, "
        f"p95 {percentile(per_question, 0.95):.2f} (n {len(per_question)})"
    )
    print(
        f"added seconds per analysis, every eligible finding asked: p50 "
        f"{percentile(per_analysis, 0.5):.2f} over all {len(per_analysis)} analyses, p50 "
        f"{percentile(with_question, 0.5):.2f} / p95 {percentile(with_question, 0.95):.2f} "
        f"over the {len(with_question)} with a question"
    )
    if prompt:
        print(
            f"prompt tokens per question: p50 {statistics.median(prompt):.0f}, max {max(prompt)}; "
            f"cached from the previous question: p50 {statistics.median(cached):.0f}"
        )
    if args.store:
        store_calibration(calibration)
        print(f"\nstored the calibration of {model}")


if __name__ == "__main__":
    main()
