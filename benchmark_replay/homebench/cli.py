"""``python -m benchmark_replay homebench``: score the instruction check on HomeBench.

Examples::

    python -m benchmark_replay homebench --sample 600 --seed 7
    python -m benchmark_replay homebench --all
    python -m benchmark_replay homebench --sample 120 --mode llm --model ~/.cache/…/qwen.gguf
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Sequence
import json
from pathlib import Path
import sys
import time

from .dataset import (
    DEFAULT_ROOT,
    HOMES_FILE,
    TESTS_FILE,
    TYPE_GROUPS,
    load_cases,
    load_homes,
    per_group_sample,
    stratified_sample,
)
from .gold_checks import out_of_range_parts, refused_listed_parts
from .runner import CaseResult, async_run_cases
from .scoring import Scoreboard, TypeScore


def build_parser() -> argparse.ArgumentParser:
    """Command-line options."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmark_replay homebench",
        description="Replay HomeBench instructions through the instruction check.",
    )
    parser.add_argument("--data", type=Path, default=DEFAULT_ROOT, help="HomeBench dataset dir")
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--sample", type=int, default=600, help="stratified sample size")
    size.add_argument("--all", action="store_true", help="every instruction")
    size.add_argument("--per-group", type=int, help="at most N instructions of each type")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--mode", choices=("parser", "hybrid", "llm"), default="parser")
    parser.add_argument("--model", type=Path, help="GGUF model for --mode hybrid/llm")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=180.0, help="seconds per LLM call")
    parser.add_argument("--json", type=Path, help="write per-case results here")
    parser.add_argument(
        "--progress", type=Path, help="append one JSON line per case as it finishes"
    )
    parser.add_argument(
        "--no-assist", action="store_true", help="without Home Assistant's sentence templates"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress dots")
    return parser


def _row(name: str, score: TypeScore) -> str:
    return (
        f"| {name} | {score.cases} | {score.success:.3f} | {score.precision:.3f} | "
        f"{score.recall:.3f} | {score.f1:.3f} | {score.seconds / max(score.cases, 1):.3f} |"
    )


def render(board: Scoreboard, clean: Scoreboard, noise: dict[str, dict[str, int]]) -> str:
    """Markdown tables: scores, scores on cases whose gold agrees with the home, noise counts."""
    head = (
        "| type | n | success | precision | recall | F1 | s/instr |\n|---|---|---|---|---|---|---|"
    )
    lines = ["All sampled instructions:", head]
    lines += [_row(g, s) for g, s in board.rows(TYPE_GROUPS)]
    lines += ["", "Instructions whose expected output agrees with the home's own data:", head]
    lines += [_row(g, s) for g, s in clean.rows(TYPE_GROUPS)]
    lines += [
        "",
        "| type | gold calls outside the home's declared range | gold error_input on a listed "
        "method |",
        "|---|---|---|",
    ]
    for group in TYPE_GROUPS:
        if group in noise:
            counts = noise[group]
            lines.append(f"| {group} | {counts['out_of_range']} | {counts['refused_listed']} |")
    return "\n".join(lines)


async def _async_main(args: argparse.Namespace) -> int:
    from custom_components.anomaly_monitor.core.instructions import PlannerMode

    homes = load_homes(args.data / HOMES_FILE)
    cases = load_cases(args.data / TESTS_FILE)
    if args.per_group is not None:
        cases = per_group_sample(cases, args.per_group, args.seed)
    elif not args.all:
        cases = stratified_sample(cases, args.sample, args.seed)
    mode = PlannerMode(args.mode)
    backend = None
    if mode is not PlannerMode.PARSER:
        if args.model is None:
            print("--mode hybrid/llm needs --model PATH.gguf", file=sys.stderr)
            return 2
        from custom_components.anomaly_monitor.backends.llama_cpp import LlamaCppBackend

        backend = LlamaCppBackend(str(args.model), threads=args.threads)

    def progress(result: CaseResult) -> None:
        if args.progress is not None:
            line = {
                "id": result.case.case_id,
                "group": result.case.group,
                "success": result.success,
                "seconds": round(result.seconds, 3),
                "predicted": result.predicted,
                "expected": result.case.expected,
            }
            with args.progress.open("a", encoding="utf-8") as file:
                file.write(json.dumps(line) + "\n")
        if not args.quiet:
            print("." if result.success else "x", end="", file=sys.stderr, flush=True)

    start = time.perf_counter()
    try:
        board, results = await async_run_cases(
            cases,
            homes,
            mode=mode,
            backend=backend,
            timeout=args.timeout,
            on_result=progress,
            assist=not args.no_assist,
        )
    finally:
        if backend is not None:
            await backend.async_close()
    wall = time.perf_counter() - start
    if not args.quiet:
        print(file=sys.stderr)

    clean = Scoreboard()
    noise: dict[str, dict[str, int]] = {}
    records = []
    for result in results:
        case, home = result.case, homes[result.case.home_id]
        out_of_range = out_of_range_parts(case.expected, home)
        refused_listed = refused_listed_parts(case.expected, result.predicted, home)
        counts = noise.setdefault(case.group, {"out_of_range": 0, "refused_listed": 0})
        counts["out_of_range"] += out_of_range
        counts["refused_listed"] += refused_listed
        if not out_of_range and not refused_listed:
            clean.add(case.group, result.predicted, case.expected, result.seconds)
        records.append(
            {
                "id": case.case_id,
                "type": case.case_type,
                "group": case.group,
                "input": case.instruction,
                "expected": case.expected,
                "predicted": result.predicted,
                "success": result.success,
                "seconds": round(result.seconds, 4),
                "planner": result.planner,
                "reasons": list(result.reasons),
                "gold_out_of_range": out_of_range,
                "gold_refuses_listed": refused_listed,
            }
        )
    print(
        f"HomeBench replay: {len(results)} instructions, {len({c.home_id for c in cases})} homes, "
        f"mode={mode.value}, seed={args.seed}, wall {wall:.1f} s"
    )
    print(render(board, clean, noise))
    if args.json is not None:
        args.json.write_text(json.dumps(records, indent=1), encoding="utf-8")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status."""
    args = build_parser().parse_args(argv)
    if args.sample is not None and args.sample < 1:
        print("--sample must be positive", file=sys.stderr)
        return 2
    try:
        return asyncio.run(_async_main(args))
    except (OSError, ValueError) as err:
        print(f"homebench: {err}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
