"""``python -m benchmark_replay home --scenario PATH|DIR [--days N] [--seed S] [--out DIR]
[--real-ids [ids|names]]``."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
import json
import multiprocessing
from pathlib import Path
import subprocess
import sys
import time
from typing import Any

from ..monitor_options import parse_option_items
from ..wall_clock import wall_clock
from .scenario import ScenarioError, load_scenario, scenario_files

DEFAULT_OUT = Path("replay-results") / "home"


def build_parser() -> argparse.ArgumentParser:
    """The command line."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmark_replay home",
        description="Run simulated households through a real Home Assistant and score the monitor.",
    )
    parser.add_argument("--scenario", required=True, type=Path, help="scenario file or folder")
    parser.add_argument("--days", type=int, help="simulate this many days (default: the file's)")
    parser.add_argument("--seed", type=int, help="random seed (default: the file's)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="report folder")
    parser.add_argument("--workers", type=int, default=2, help="scenarios run in parallel")
    parser.add_argument(
        "--real-ids",
        nargs="?",
        const="ids",
        choices=("ids", "names"),
        help="rename every entity the way real integrations do (Zigbee2MQTT, ZHA, Tapo, "
        "Shelly, Hue): 'ids' keeps the home's friendly names, 'names' gives the "
        "integrations' default names too (issue #25: the monitor must be name-blind)",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=JSON",
        help="set a monitor option (default: none, every option at its default)",
    )
    return parser


def run_one(
    path: str,
    seed: int | None,
    days: int | None,
    options: dict[str, Any],
    real_ids: str | None = None,
) -> dict[str, Any]:
    """Load, plan, run and score one scenario (in a worker process)."""
    from .real_ids import with_real_ids
    from .runner import HomeRun
    from .scoring import score_run
    from .timeline import build_plan

    cpu = time.process_time()
    scenario = load_scenario(Path(path))
    if real_ids is not None:
        scenario = with_real_ids(scenario, names=real_ids == "names")
    plan = build_plan(scenario, seed=seed, days=days)
    score = score_run(HomeRun(scenario, plan, options).run())
    return score | {"cpu_s": round(time.process_time() - cpu, 1)}


def _commit() -> str:
    try:
        result = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=False,
            cwd=Path(__file__).resolve().parent,
        )
    except OSError:
        return "unknown"
    return result.stdout.strip() or "unknown"


def main(argv: Sequence[str] | None = None) -> int:
    """Validate every scenario first (nothing half-runs), then run and report."""
    args = build_parser().parse_args(argv)
    options = parse_option_items(args.option)
    if args.days is not None and args.days < 1:
        print("error: --days must be >= 1", file=sys.stderr)
        return 2
    try:
        files = scenario_files(args.scenario)
        for path in files:
            load_scenario(path)
    except ScenarioError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    from .report import write
    from .scoring import overall

    started = wall_clock()
    jobs = [(str(p), args.seed, args.days, options, args.real_ids) for p in files]
    workers = max(1, min(args.workers, len(files)))
    print(f"{len(files)} scenario(s), {workers} worker(s); output in {args.out}", file=sys.stderr)
    if workers == 1:
        scores = [run_one(*job) for job in jobs]
    else:
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            scores = list(pool.map(run_one, *zip(*jobs, strict=True)))
    elapsed = wall_clock() - started
    total = overall(scores) | {"elapsed_s": round(elapsed, 1)}
    header = {
        "command": "python -m benchmark_replay home "
        + " ".join(sys.argv[2:] if argv is None else argv),
        "commit": _commit(),
        "options": json.dumps(options) if options else "defaults",
        "elapsed": f"{elapsed:.1f} s with {workers} worker(s)",
    }
    print(write(args.out, scores, total, header))
    return 1 if total["errors"] else 0
