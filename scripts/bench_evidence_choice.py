"""Evidence choice on SmartBench development samples: AL with and without model ranking.

For a seeded stratified set (``--limit`` CI + ``--limit`` CD, the same selection as
``python -m benchmark_replay smartbench --subset ci|cd --limit N --seed S``), the rules
and statistics judge each window (the direct replay path). For every finding, each entity
the rule is unsure of - its context (may be dropped) and its candidates (may be added),
``core/llm/evidence_choice.py`` - becomes one question "Is <device> part of this problem?"
to a GGUF model in the integration's llama.cpp worker (2 threads, the same cap per
analysis as the hybrid). P(yes) comes from the first token's log-probabilities. Printed:

- AL (evidence overlap of the anomalous samples) and F1 per subset for rules + statistics
  alone, for an oracle that keeps exactly the asked entities that are in the truth (the
  ceiling of this design), and for the model's answers under thresholds chosen on one
  half of the samples (split by key hash) and applied to the other (cross-fit), and the
  in-sample best (optimistic); F1 is asserted unchanged (labels are never touched);
- the threshold grid (AL by drop-below and add-from);
- seconds per question and added seconds per analysis (p50/p95), load before and after.

Answers are cached in ``OUT/answers.jsonl``; ``--store`` writes the cross-fit-agreed
thresholds into ``core/llm/second_opinion_calibration.json`` only if they raise AL on both
halves (else it stores "never").

    .venv/bin/python scripts/bench_evidence_choice.py --model-path M.gguf [--limit 100]
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Callable
import hashlib
import json
import os
from pathlib import Path
import sys
import time
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmark_replay.cli import SUBSET_CHOICES
from benchmark_replay.direct import window_for
from benchmark_replay.replay import select
from benchmark_replay.smartbench_loader import load_smartbench
from custom_components.anomaly_monitor.backends.llama_cpp import LlamaCppBackend
from custom_components.anomaly_monitor.core.combined_detector import CombinedDetector
from custom_components.anomaly_monitor.core.llm.calibration import (
    EvidencePolicy,
    ModelCalibration,
    load_calibration,
    model_key,
    store_calibration,
)
from custom_components.anomaly_monitor.core.llm.evidence_choice import (
    CandidateOpinion,
    EvidenceRanker,
    apply_choices,
    build_candidate_question,
)
from custom_components.anomaly_monitor.core.llm.second_opinion import (
    ANSWER_WORDS,
    yes_probability,
)
from custom_components.anomaly_monitor.core.models import Verdict

DEFAULT_DATA = Path("/work/shared/datasets/smartbench")
ASK_EVERYTHING = EvidencePolicy(drop_below=0.0, add_from=1.0)  # to list what is asked


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))]


async def ask_all(args: argparse.Namespace, model: str, out: Path) -> list[dict[str, Any]]:
    """One row per sample: verdict, mapping, truth and the answers about its entities."""
    cache_path = out / "answers.jsonl"
    cache: dict[str, dict[str, Any]] = {}
    if cache_path.exists():
        for line in cache_path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            cache[row["cache_key"]] = row
    backend = None if args.dry_run else LlamaCppBackend(str(args.model_path), threads=args.threads)
    rules = CombinedDetector()
    lister = EvidenceRanker(backend, ASK_EVERYTHING)  # type: ignore[arg-type]
    rows: list[dict[str, Any]] = []
    try:
        with cache_path.open("a", encoding="utf-8") as sink:
            records = [
                record
                for subset in ("ci", "cd")
                for record in select(
                    load_smartbench(args.data, SUBSET_CHOICES[subset]).records,
                    args.limit,
                    args.seed,
                )
            ]
            for index, record in enumerate(records):
                window, scene = window_for(record.sample)
                verdict = await rules.async_analyze(window)
                answers: list[dict[str, Any]] = []
                for finding, entity_id, role in lister.wanted(verdict.findings):
                    messages = build_candidate_question(finding, window, entity_id)
                    digest = hashlib.sha256(json.dumps(messages).encode()).hexdigest()[:16]
                    key = f"{model}|{record.answer.key}|{finding.signature}|{entity_id}|{digest}"
                    if key not in cache and backend is not None:
                        started = time.perf_counter()
                        token = await backend.async_first_token(
                            messages, words=ANSWER_WORDS, timeout=600
                        )
                        cache[key] = {
                            "cache_key": key,
                            "p_yes": yes_probability(token.logprobs),
                            "text": token.text,
                            "seconds": time.perf_counter() - started,
                            **{
                                k: backend.last_stats.get(k)
                                for k in ("prompt_tokens", "cached_tokens")
                            },
                        }
                        sink.write(json.dumps(cache[key]) + "\n")
                        sink.flush()
                    answers.append(
                        {
                            "signature": finding.signature,
                            "entity_id": entity_id,
                            "role": role,
                            "truth": bool(
                                scene.mapping.devices_for([entity_id]) & record.answer.evidence
                            ),
                            **cache.get(key, {"p_yes": None, "seconds": None}),
                        }
                    )
                rows.append(
                    {
                        "key": record.answer.key,
                        "subset": "ci" if record.answer.subset == "ci" else "cd",
                        "anomalous": record.answer.is_anomaly,
                        "truth": record.answer.evidence,
                        "verdict": verdict,
                        "devices": scene.mapping.devices_for,
                        "answers": answers,
                    }
                )
                print(f"\r{index + 1}/{len(records)} samples", end="", file=sys.stderr, flush=True)
    finally:
        if backend is not None:
            await backend.async_close()
    print(file=sys.stderr)
    return rows


def opinions_of(
    row: dict[str, Any], score: Callable[[dict[str, Any]], float | None]
) -> list[CandidateOpinion]:
    return [
        CandidateOpinion(a["signature"], a["entity_id"], a["role"], score(a), "logprobs", 0.0)
        for a in row["answers"]
    ]


def model_score(answer: dict[str, Any]) -> float | None:
    return answer["p_yes"]


def oracle_score(answer: dict[str, Any]) -> float | None:
    return 1.0 if answer["truth"] else 0.0


def scores(
    rows: list[dict[str, Any]],
    policy: EvidencePolicy,
    score: Callable[[dict[str, Any]], float | None],
) -> dict[str, tuple[float, float]]:
    """(AL, F1) per subset and over all, the verdicts' evidence chosen by ``policy``."""
    result: dict[str, tuple[float, float]] = {}
    for subset in ("ci", "cd", "all"):
        chosen = [r for r in rows if subset in ("all", r["subset"])]
        tp = fp = fn = 0
        overlaps: list[float] = []
        for row in chosen:
            verdict: Verdict = row["verdict"]
            refined = apply_choices(verdict, opinions_of(row, score), policy)
            assert refined.label is verdict.label  # F1 cannot change: labels are the rules'
            assert len(refined.findings) == len(verdict.findings)
            flagged = refined.is_anomaly
            tp += row["anomalous"] and flagged
            fp += (not row["anomalous"]) and flagged
            fn += row["anomalous"] and not flagged
            if row["anomalous"]:
                predicted = row["devices"](refined.evidence) if flagged else frozenset()
                truth = row["truth"]
                overlaps.append(
                    len(truth & predicted) / len(truth | predicted) if flagged and truth else 0.0
                )
        f1 = 2 * tp / (2 * tp + fp + fn) if tp else 0.0
        result[subset] = (sum(overlaps) / len(overlaps) if overlaps else 0.0, f1)
    return result


def grid(rows: list[dict[str, Any]], role: str) -> list[float | None]:
    """None (never act) and a threshold just above each distinct P(yes) of that role."""
    values = sorted(
        {
            a["p_yes"]
            for r in rows
            for a in r["answers"]
            if a["role"] == role and a["p_yes"] is not None
        }
    )
    return [None, *values[:1], *(v + 1e-9 for v in values)]  # the first acts on every one


def best(rows: list[dict[str, Any]]) -> tuple[EvidencePolicy, float]:
    """The thresholds with the highest AL on ``rows`` (ties: the one acting least)."""
    base = scores(rows, EvidencePolicy(), model_score)["all"][0]
    chosen, top = EvidencePolicy(), base
    for drop in grid(rows, "context"):
        for add in grid(rows, "candidate"):
            policy = EvidencePolicy(drop, add)
            value = scores(rows, policy, model_score)["all"][0]
            if value > top + 1e-9:
                chosen, top = policy, value
    return chosen, top


def shown(policy: EvidencePolicy) -> str:
    def cell(value: float | None) -> str:
        return "never" if value is None else f"{value:.3f}"

    return f"drop below {cell(policy.drop_below)}, add from {cell(policy.add_from)}"


def line(label: str, values: dict[str, tuple[float, float]]) -> str:
    cells = " | ".join(f"{values[s][0]:.3f} | {values[s][1]:.3f}" for s in ("ci", "cd", "all"))
    return f"| {label} | {cells} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model-path", type=Path)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--limit", type=int, default=100, help="samples per subset (ci, cd)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--dry-run", action="store_true", help="count the questions only")
    parser.add_argument("--store", action="store_true", help="store the cross-fit thresholds")
    args = parser.parse_args()
    if args.model_path is None:
        from tests.gguf_models import qwen_05b

        args.model_path = qwen_05b()
    model = model_key(str(args.model_path))
    out = args.out or Path("replay-results") / f"evidence-choice-{model}"
    out.mkdir(parents=True, exist_ok=True)
    load_before = os.getloadavg()
    started = time.perf_counter()
    rows = asyncio.run(ask_all(args, model, out))
    elapsed = time.perf_counter() - started
    load_after = os.getloadavg()
    asked = [a for r in rows for a in r["answers"]]
    print(
        f"model: {model}, threads: {args.threads}, seed {args.seed}, "
        f"{args.limit} CI + {args.limit} CD"
    )
    print(
        f"load average (1/5/15 min) before: {' '.join(f'{x:.2f}' for x in load_before)}, "
        f"after: {' '.join(f'{x:.2f}' for x in load_after)} on {os.cpu_count()} cores; "
        f"{elapsed:.0f} s wall (cached answers are not re-asked)"
    )
    by_role = {role: [a for a in asked if a["role"] == role] for role in ("context", "candidate")}
    print(
        f"questions: {len(asked)} in {sum(1 for r in rows if r['answers'])} analyses "
        + ", ".join(
            f"{role} {len(items)} ({sum(a['truth'] for a in items)} in the truth)"
            for role, items in by_role.items()
        )
        + f"; without a yes/no opinion: {sum(1 for a in asked if a['p_yes'] is None)}"
    )
    if args.dry_run:
        return
    from custom_components.anomaly_monitor.core.llm.calibration import auroc

    for role, items in by_role.items():
        pos = [a["p_yes"] for a in items if a["truth"] and a["p_yes"] is not None]
        neg = [a["p_yes"] for a in items if not a["truth"] and a["p_yes"] is not None]
        value = auroc(pos, neg)
        print(
            f"AUROC of P(yes), {role} in truth vs not: "
            f"{'-' if value is None else f'{value:.3f}'} ({len(pos)} / {len(neg)})"
        )

    def half(row: dict[str, Any]) -> int:
        return hashlib.sha256(row["key"].encode()).digest()[0] % 2

    folds = {fold: best([r for r in rows if half(r) != fold])[0] for fold in (0, 1)}
    crossfit_rows = [(r, folds[half(r)]) for r in rows]

    def crossfit(subset_rows: list[dict[str, Any]]) -> dict[str, tuple[float, float]]:
        # each half under the thresholds fitted on the other half
        merged: dict[str, tuple[float, float]] = {}
        parts = [[r for r, _ in crossfit_rows if half(r) == fold] for fold in (0, 1)]
        total = {s: [0.0, 0] for s in ("ci", "cd", "all")}
        for fold, part in enumerate(parts):
            for subset in ("ci", "cd", "all"):
                anomalous = sum(
                    1 for r in part if r["anomalous"] and subset in ("all", r["subset"])
                )
                total[subset][0] += scores(part, folds[fold], model_score)[subset][0] * anomalous
                total[subset][1] += anomalous
        base = scores(subset_rows, EvidencePolicy(), model_score)
        for subset, (al_sum, n) in total.items():
            merged[subset] = (al_sum / n if n else 0.0, base[subset][1])
        return merged

    in_sample, _ = best(rows)
    print("\n| view | CI AL | CI F1 | CD AL | CD F1 | all AL | all F1 |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    print(line("rules + statistics", scores(rows, EvidencePolicy(), model_score)))
    print(
        line(
            "oracle (ceiling of the asked entities)",
            scores(rows, EvidencePolicy(0.5, 0.5), oracle_score),
        )
    )
    print(line(f"model, cross-fit ({shown(folds[0])} / {shown(folds[1])})", crossfit(rows)))
    print(line(f"model, in-sample best ({shown(in_sample)})", scores(rows, in_sample, model_score)))
    print("\n## Grid (all samples): AL by drop-below (rows) and add-from (columns)\n")
    adds = grid(rows, "candidate")[:: max(1, len(grid(rows, "candidate")) // 8)]
    print(
        "| drop \\ add | " + " | ".join("never" if a is None else f"{a:.3f}" for a in adds) + " |"
    )
    for drop in grid(rows, "context")[:: max(1, len(grid(rows, "context")) // 8)]:
        cells = [scores(rows, EvidencePolicy(drop, a), model_score)["all"][0] for a in adds]
        print(
            f"| {'never' if drop is None else f'{drop:.3f}'} | "
            + " | ".join(f"{c:.3f}" for c in cells)
            + " |"
        )

    seconds = [a["seconds"] for a in asked if a.get("seconds") is not None]
    per_analysis = [sum(a.get("seconds") or 0 for a in r["answers"]) for r in rows if r["answers"]]
    prompt = [a["prompt_tokens"] for a in asked if a.get("prompt_tokens")]
    cached = [a["cached_tokens"] for a in asked if a.get("cached_tokens") is not None]
    print(
        f"\nseconds per question: p50 {percentile(seconds, 0.5):.2f}, "
        f"p95 {percentile(seconds, 0.95):.2f} (n {len(seconds)}); added per analysis with a "
        f"question: p50 {percentile(per_analysis, 0.5):.2f}, "
        f"p95 {percentile(per_analysis, 0.95):.2f} (n {len(per_analysis)} of {len(rows)})"
    )
    if prompt:
        print(
            f"prompt tokens per question p50 {percentile(prompt, 0.5):.0f}, "
            f"cached p50 {percentile(cached, 0.5):.0f}"
        )
    if args.store:
        base = scores(rows, EvidencePolicy(), model_score)
        gained = (
            crossfit(rows)["all"][0] > base["all"][0] and folds[0] == folds[1] and folds[0].acts
        )
        policy = folds[0] if gained else EvidencePolicy()
        policy = EvidencePolicy(
            policy.drop_below,
            policy.add_from,
            f"bench_evidence_choice.py, {args.limit} CI + {args.limit} CD, seed {args.seed}, "
            f"cross-fit AL {crossfit(rows)['all'][0]:.3f} vs {base['all'][0]:.3f}",
        )
        stored = load_calibration(model) or ModelCalibration(model)
        store_calibration(ModelCalibration(stored.model, stored.families, stored.measured, policy))
        print(f"\nstored evidence policy of {model}: {policy.as_dict()}")


if __name__ == "__main__":
    main()
