"""``python -m benchmark_replay smartbench --data DIR ...``: score a detector on SmartBench."""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
import json
import os
from pathlib import Path
import sys
import time
from typing import Any

from .ac_judge import (
    DEFAULT_TIMEOUT as JUDGE_TIMEOUT,
    JUDGE_BACKENDS,
    JudgeOptions,
    attach_ac,
    judge_requests,
    run_judge,
)
from .monitor_options import parse_option_items
from .outputs import summary_markdown, write_plots, write_samples
from .progress import Progress
from .remote_ha import RemoteHASetupError
from .replay import answers_by_key, fingerprint, jobs_for, read_cache, run_all, select
from .scoring import SampleScore, report
from .smartbench_loader import SUBSETS, Answer, Record, SmartBenchError, load_smartbench
from .wall_clock import wall_clock

SUBSET_CHOICES = {
    "all": SUBSETS,
    "ci": ("ci",),
    "cd": ("cd-argus", "cd-tdcs"),
    "cd-argus": ("cd-argus",),
    "cd-tdcs": ("cd-tdcs",),
}


def build_parser() -> argparse.ArgumentParser:
    """The command line."""
    parser = argparse.ArgumentParser(prog="python -m benchmark_replay")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser(
        "home",
        add_help=False,
        help="lived-in home benchmark (see: python -m benchmark_replay home --help)",
    )
    commands.add_parser(
        "homebench",
        add_help=False,
        help="check HomeBench instructions (see: python -m benchmark_replay homebench --help)",
    )
    commands.add_parser(
        "history",
        add_help=False,
        help="replay a home's recorded history (see: python -m benchmark_replay history --help)",
    )
    sb = commands.add_parser("smartbench", help="replay SmartBench samples and score them")
    sb.add_argument("--data", required=True, type=Path, help="SmartBench folder")
    sb.add_argument("--subset", choices=sorted(SUBSET_CHOICES), default="all")
    sb.add_argument("--limit", type=int, help="seeded stratified sample of this many samples")
    sb.add_argument("--seed", type=int, default=0)
    sb.add_argument("--workers", type=int, default=1, help="processes (one Home Assistant each)")
    sb.add_argument(
        "--mode",
        choices=("ha", "direct"),
        default="ha",
        help="ha: through the integration in a real in-process HA (scored); "
        "direct: core rules on windows built without HA (fast iteration)",
    )
    sb.add_argument(
        "--ha-url",
        help="score in a running HA, in a replay monitor the replay creates and removes "
        "(never touches the home; see docs/benchmarks.md)",
    )
    sb.add_argument(
        "--token",
        help="an administrator's long-lived access token for --ha-url (default: $HA_TOKEN)",
    )
    sb.add_argument("--detector", choices=("rules", "llm", "hybrid"), default="rules")
    sb.add_argument("--sensitivity", choices=("low", "medium", "high"), default="medium")
    sb.add_argument("--backend", help="LLM backend (llama_cpp, openai, ollama, ai_task)")
    sb.add_argument("--model", help="model name (openai/ollama backends)")
    sb.add_argument("--model-path", help="GGUF file (llama_cpp backend)")
    sb.add_argument("--base-url", help="server URL (openai/ollama backends)")
    sb.add_argument("--threads", type=int, help="llama.cpp threads")
    sb.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=JSON",
        help="any other entry option, e.g. --option request_timeout=120",
    )
    judge = sb.add_argument_group(
        "AC score", "an LLM judge rates the reasoning of flagged anomalies (see ac_judge.py)"
    )
    judge.add_argument("--judge-backend", choices=JUDGE_BACKENDS, help="enables the AC score")
    judge.add_argument("--judge-model", help="model name (openai/ollama judge)")
    judge.add_argument("--judge-model-path", help="GGUF file (llama_cpp judge)")
    judge.add_argument("--judge-base-url", help="server URL (openai/ollama judge)")
    judge.add_argument("--judge-threads", type=int, default=2, help="llama.cpp threads")
    judge.add_argument(
        "--judge-timeout", type=float, default=JUDGE_TIMEOUT, help="seconds per judgement"
    )
    judge.add_argument(
        "--judge-api-key-env",
        default="JUDGE_API_KEY",
        metavar="VAR",
        help="environment variable holding the judge's API key, if it needs one",
    )
    sb.add_argument("--out", type=Path, help="output folder (default replay-results/...)")
    sb.add_argument("--fresh", action="store_true", help="ignore cached predictions")
    sb.add_argument("--no-plots", action="store_true")
    sb.add_argument("--no-progress", action="store_true")
    return parser


def entry_options(args: argparse.Namespace) -> dict[str, Any]:
    """The monitor's options for this run (per-sample options are added by the runner)."""
    options: dict[str, Any] = {"detector": args.detector, "sensitivity": args.sensitivity}
    for flag, key in (
        ("backend", "backend"),
        ("model", "model"),
        ("model_path", "model_path"),
        ("base_url", "base_url"),
        ("threads", "threads"),
    ):
        if getattr(args, flag) is not None:
            options[key] = getattr(args, flag)
    options.update(parse_option_items(args.option))
    return options


def judge_options(args: argparse.Namespace) -> JudgeOptions | None:
    """The AC judge's options, or None without ``--judge-backend``; bad ones exit clearly."""
    if not args.judge_backend:
        return None
    options = JudgeOptions(
        backend=args.judge_backend,
        model=args.judge_model,
        model_path=args.judge_model_path,
        base_url=args.judge_base_url,
        threads=args.judge_threads,
        api_key=os.environ.get(args.judge_api_key_env) or None,
        timeout=args.judge_timeout,
    )
    try:
        options.check()
    except ValueError as err:
        raise SystemExit(f"error: {err}") from err
    return options


def run_smartbench(args: argparse.Namespace) -> int:
    """Load, select, replay (resuming from the cache), score and write everything."""
    mode = "dev-ha" if args.ha_url else args.mode
    token = args.token or os.environ.get("HA_TOKEN")
    if args.ha_url and not token:
        print(
            "error: --ha-url needs --token (or $HA_TOKEN): a long-lived access token",
            file=sys.stderr,
        )
        return 2
    if args.ha_url and args.workers > 1:
        print("note: --ha-url replays with one worker (one replay monitor)", file=sys.stderr)
        args.workers = 1
    judge = judge_options(args)
    try:
        loaded = load_smartbench(args.data, SUBSET_CHOICES[args.subset])
    except SmartBenchError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    for problem in loaded.errors:
        print(f"skipped: {problem}", file=sys.stderr)
    records = select(loaded.records, args.limit, args.seed)
    options = entry_options(args)
    remote = {"url": args.ha_url, "token": token}
    out = args.out or Path("replay-results") / f"smartbench-{mode}-{args.detector}"
    out.mkdir(parents=True, exist_ok=True)
    stamp = fingerprint(mode, options)
    cache_path = out / "predictions.jsonl"
    cached = {} if args.fresh else read_cache(cache_path, stamp)
    todo = [job for job in jobs_for(records) if job.key not in cached]
    predictions = {key: cached[key] for key in (r.answer.key for r in records) if key in cached}
    print(
        f"{len(records)} samples ({args.subset}), {len(predictions)} cached, "
        f"{len(todo)} to run in {mode} mode with {args.workers} worker(s); output in {out}",
        file=sys.stderr,
    )
    progress = Progress(len(todo), enabled=not args.no_progress)
    started, cpu_started = wall_clock(), time.process_time()
    with cache_path.open("a", encoding="utf-8") as cache:

        def keep(record: dict[str, Any]) -> None:
            record["fingerprint"] = stamp
            predictions[str(record["key"])] = record
            cache.write(json.dumps(record, ensure_ascii=False) + "\n")
            cache.flush()

        try:
            run_all(
                todo,
                mode=mode,
                options=options,
                remote=remote,
                workers=args.workers,
                on_result=keep,
                progress=progress,
            )
        except RemoteHASetupError as err:
            progress.close()
            print(f"error: {err}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            progress.close()
            print(
                f"interrupted: {len(predictions)} samples done and cached in {cache_path}; "
                "run again to resume",
                file=sys.stderr,
            )
            return 130
        finally:
            progress.close()
    elapsed, cpu = wall_clock() - started, time.process_time() - cpu_started

    answers = answers_by_key(records)
    scores, rows = score_predictions(answers, predictions)
    judge_line = None
    if judge is not None:
        scores, judge_line = judge_scores(
            judge, records, predictions, scores, rows, out=out, progress=not args.no_progress
        )
    result = report(scores)
    header = {
        "data": str(args.data),
        "subset": args.subset,
        "samples": f"{len(records)} (limit {args.limit}, seed {args.seed})"
        if args.limit
        else str(len(records)),
        "mode": mode,
        "options": json.dumps(options, sort_keys=True),
        "workers": args.workers,
        "wall time": f"{elapsed:.1f} s for {len(todo)} replayed samples",
        # Steadier than wall time on a shared machine; worker processes are not counted.
        "CPU time of this process": f"{cpu:.2f} s",
        "fingerprint": stamp,
    }
    if judge_line is not None:
        header["AC judge"] = judge_line
    summary = summary_markdown(result, header)
    model_scores, _ = score_predictions(answers, predictions, model=True)
    model_result = report(model_scores) if any(s.error is None for s in model_scores) else None
    if model_result is not None:
        # A hybrid run also records its LLM's own verdicts: that is the LLM-only score.
        summary += "\n" + summary_markdown(
            model_result, {"view": MODEL_VIEW} | {k: header[k] for k in ("subset", "samples")}
        )
    write_samples(out / "samples.jsonl", rows)
    (out / "metrics.json").write_text(
        json.dumps(
            {"header": header, **result.as_dict()}
            | ({"model_alone": model_result.as_dict()} if model_result else {}),
            indent=2,
        ),
        encoding="utf-8",
    )
    (out / "summary.md").write_text(summary, encoding="utf-8")
    if not args.no_plots:
        write_plots(out, result, scores)
    print(summary)
    failed = sum(1 for s in scores if s.failed)
    if failed:
        print(
            f"error: {failed} of {len(scores)} samples failed and are not scored (their error "
            f"is in {out / 'samples.jsonl'}); run again to retry them",
            file=sys.stderr,
        )
        return 1
    return 0


def judge_scores(
    judge: JudgeOptions,
    records: Sequence[Record],
    predictions: Mapping[str, Mapping[str, Any]],
    scores: list[SampleScore],
    rows: list[dict[str, Any]],
    *,
    out: Path,
    progress: bool,
) -> tuple[list[SampleScore], str]:
    """Judge the flagged anomalies (cached in ``out``) and put their AC on the scores.

    The reference reasoning is read here, on the scoring side, and goes to the judge only.
    """
    references = {r.answer.key: r.answer.reasoning for r in records}
    requests = judge_requests(scores, references, predictions)
    bar = Progress(len(requests), enabled=progress)
    started = wall_clock()
    try:
        run = run_judge(requests, judge, out / "ac_judgements.jsonl", on_done=bar.advance)
    finally:
        bar.close()
    failed = sum(1 for j in run.judgements.values() if j.score is None)
    print(
        f"AC judge: {len(requests)} flagged anomalies, {run.cached} cached, {run.asked} asked, "
        f"{failed} unrated, {wall_clock() - started:.1f} s",
        file=sys.stderr,
    )
    line = f"{judge.describe()}, fingerprint {judge.fingerprint()}"
    return attach_ac(scores, rows, run.judgements), line


MODEL_VIEW = (
    "the LLM alone: its own verdicts inside the hybrid run (a failed model call counts "
    "as a missed answer, predicted normal, and is in the errors column)"
)


def score_predictions(
    answers: Mapping[str, Answer],
    predictions: Mapping[str, Mapping[str, Any]],
    *,
    model: bool = False,
) -> tuple[list[SampleScore], list[dict[str, Any]]]:
    """Scores and output rows per sample; ``model`` scores the hybrid's LLM verdicts."""
    scores: list[SampleScore] = []
    rows: list[dict[str, Any]] = []
    for key in sorted(answers):
        answer, prediction = answers[key], predictions.get(key, {"error": "not run"})
        if model:
            verdict = prediction.get("model_verdict") or {}
            devices = prediction.get("model_predicted_devices") or ()
            error = prediction.get("error") or prediction.get("model_error")
            if not verdict and not error:
                error = "no model verdict"
        else:
            verdict = prediction.get("verdict") or {}
            devices = prediction.get("predicted_devices") or ()
            error = prediction.get("error")
        window = prediction.get("window") or {}
        score = SampleScore(
            key=key,
            subset=answer.subset,
            anomaly_type=answer.anomaly_type,
            is_anomaly=answer.is_anomaly,
            predicted_anomaly=verdict.get("label") == "anomaly",
            truth_devices=answer.evidence,
            predicted_devices=frozenset(devices),
            raw_tokens=int(window.get("raw_tokens") or 0),
            tokens=int(window.get("tokens") or 0),
            seconds=float(prediction.get("seconds") or 0.0),
            error=error,
            failed=bool(prediction.get("error")),
        )
        scores.append(score)
        rows.append(
            score.as_dict()
            | {
                "subtype": answer.subtype,
                "evidence_entities": prediction.get("evidence_entities", []),
                "verdict": verdict,
                "window": window,
            }
            | (
                {"model_verdict": prediction["model_verdict"]}
                if "model_verdict" in prediction
                else {}
            )
        )
    return scores, rows


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["home"]:
        from .home.cli import main as home_main

        return home_main(arguments[1:])
    if arguments[:1] == ["history"]:
        from .history.cli import main as history_main

        return history_main(arguments[1:])
    if arguments[:1] == ["homebench"]:
        from .homebench.cli import main as homebench_main

        return homebench_main(arguments[1:])
    args = build_parser().parse_args(arguments)
    if args.command == "smartbench":
        return run_smartbench(args)
    return 2
