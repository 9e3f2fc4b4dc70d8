"""Scale of the history replay: a synthetic recorder database, replayed by the CLI.

Writes ``--days`` x ``--entities`` of a home into HA's own recorder schema
(``benchmark_replay/history/synthetic.py``: motion, doors, windows, temperatures,
humidities, power meters, lights and switches in rooms of ten, ~110 rows per entity and
day, so 90 days x 300 entities is ~3 M rows), then runs
``python -m benchmark_replay history --db FILE --config DIR --out DIR`` in a child process
and prints its rows/s, wall time, CPU time and peak RSS (the child's ``ru_maxrss``).
Targets (issue 26): 90 days x 300 entities in <= 10 min and <= 300 MB on 2 cores.

    .venv/bin/python scripts/bench_history.py --days 90 --entities 300
    .venv/bin/python scripts/bench_history.py --days 7 --entities 300   # then extrapolate
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
import resource
import subprocess
import sys
import tempfile
import time

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmark_replay.history.synthetic import write_config, write_history  # noqa: E402


def main() -> int:
    """Generate, replay, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=90)
    parser.add_argument("--entities", type=int, default=300)
    parser.add_argument("--db", type=Path, help="keep the database here (default: a temp file)")
    parser.add_argument("--jobs", type=int, default=1, help="the replay's --jobs (parts by time)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-history-") as folder:
        database = args.db or Path(folder) / "home-assistant_v2.db"
        database.unlink(missing_ok=True)
        started = time.perf_counter()
        rows = write_history(database, days=args.days, entities=args.entities)
        written = time.perf_counter() - started
        size = database.stat().st_size / 1e6
        print(f"database: {rows} rows, {size:.0f} MB, written in {written:.1f} s", flush=True)
        config = write_config(Path(folder) / "config", args.entities)  # rooms of 10
        out = Path(folder) / "report"
        command = [
            sys.executable, "-m", "benchmark_replay", "history",
            "--db", str(database), "--config", str(config), "--out", str(out),
            "--no-progress", "--jobs", str(args.jobs),
        ]  # fmt: skip
        started = time.perf_counter()
        result = subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=False)
        wall = time.perf_counter() - started
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        peak = usage.ru_maxrss / 1024  # kB -> MB
        cpu = usage.ru_utime + usage.ru_stime  # the child's CPU: steadier than wall when busy
        if result.returncode != 0:
            print(result.stderr[-3000:], file=sys.stderr)
            return 1
        report = json.loads((out / "report.json").read_text())
        replayed = report["history"]["rows_replayed"]
        print(
            json.dumps(
                {
                    "days": args.days,
                    "entities": args.entities,
                    "jobs": args.jobs,
                    "rows": replayed,
                    "wall_s": round(wall, 1),
                    "replay_s": report["run"]["wall_s"],
                    "rows_per_s": round(replayed / wall),
                    "cpu_s": round(cpu, 1),
                    "rows_per_cpu_s": round(replayed / cpu),
                    "peak_rss_mb": round(peak),
                    "notifications": report["notifications"],
                    "timer_steps": report["run"]["timer_steps"],
                    "parts": report["run"]["parts"],  # each part's rows, wall and CPU
                }
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
