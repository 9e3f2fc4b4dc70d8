"""Cost of each temporal statistic on SmartBench's direct windows (no Home Assistant).

Builds every window of the chosen subsets once (``benchmark_replay.direct``), then runs each
statistic of ``ALL_STATISTICS`` on each window's ``HomeView`` and prints, per statistic, the
mean and worst time per window, slowest first, and the total of all statistics.

    .venv/bin/python scripts/bench_statistics.py --subset cd-tdcs
"""

from __future__ import annotations

import argparse
from pathlib import Path
import sys
import time

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmark_replay.direct import window_for
from benchmark_replay.smartbench_loader import SUBSETS, load_smartbench
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.statistics import ALL_STATISTICS

DEFAULT_DATA = Path("/work/shared/datasets/smartbench")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--subset", action="append", choices=SUBSETS)
    parser.add_argument("--top", type=int, default=12, help="statistics listed (slowest first)")
    args = parser.parse_args()
    loaded = load_smartbench(args.data, args.subset or ["cd-tdcs"])
    windows = [window_for(record.sample)[0] for record in loaded.records]
    windows = [w for w in windows if w.transitions]
    spent: dict[str, list[float]] = {s.__name__: [] for s in ALL_STATISTICS}
    totals: list[float] = []
    for window in windows:
        home = HomeView(window)
        home.history  # noqa: B018 - built once, shared by every statistic as in the detector
        total = 0.0
        for statistic in ALL_STATISTICS:
            started = time.perf_counter()
            for _ in statistic(home):
                pass
            elapsed = time.perf_counter() - started
            spent[statistic.__name__].append(elapsed)
            total += elapsed
        totals.append(total)
    print(f"{len(windows)} windows, {len(ALL_STATISTICS)} statistics")
    print(
        f"all statistics: mean {1000 * sum(totals) / len(totals):.2f} ms, "
        f"worst {1000 * max(totals):.1f} ms per window"
    )
    ranked = sorted(spent.items(), key=lambda item: -sum(item[1]))
    for name, times in ranked[: args.top]:
        print(
            f"  {name:<34} mean {1000 * sum(times) / len(times):7.3f} ms  "
            f"worst {1000 * max(times):7.2f} ms"
        )


if __name__ == "__main__":
    main()
