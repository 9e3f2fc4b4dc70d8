"""Feedback experiment: false-alarm marks become suppressions; does FPR drop, recall hold?

A homeowner marks a false alarm; the integration stores the signatures of its findings
(rule + evidence entity ids) and passes them to the detector as ``suppressed``. Here,
on the direct (HA-free) windows: run the detector once, pick k of the false alarms on
normal samples (seeded), mark their signatures, and score the detector with those
suppressions on every *other* sample. Printed per k: FPR and recall, overall and per
subset, so a suppression that also hides real anomalies shows up as lost recall.

    .venv/bin/python scripts/eval_feedback.py
    .venv/bin/python scripts/eval_feedback.py --subset cd-argus --seeds 5
"""

from __future__ import annotations

import argparse
import asyncio
from collections import defaultdict
from pathlib import Path
import random
import sys

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmark_replay.direct import window_for
from benchmark_replay.smartbench_loader import SUBSETS, load_smartbench
from custom_components.anomaly_monitor.core.combined_detector import CombinedDetector
from custom_components.anomaly_monitor.core.models import ContextWindow, Verdict

DEFAULT_DATA = Path("/work/shared/datasets/smartbench")
KS = (0, 5, 10, 20)


def _rates(rows: list[tuple[bool, bool]]) -> tuple[float, float, int, int]:
    """(FPR, recall, normals, anomalies) of (truth, predicted) pairs."""
    normals = [p for t, p in rows if not t]
    anomalies = [p for t, p in rows if t]
    fpr = sum(normals) / len(normals) if normals else 0.0
    recall = sum(anomalies) / len(anomalies) if anomalies else 0.0
    return fpr, recall, len(normals), len(anomalies)


async def _verdicts(detector: CombinedDetector, windows: list[ContextWindow]) -> list[Verdict]:
    return [await detector.async_analyze(w) for w in windows]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--subset", action="append", choices=SUBSETS)
    parser.add_argument("--seeds", type=int, default=3, help="repeat with this many seeds")
    args = parser.parse_args()

    loaded = load_smartbench(args.data, args.subset or SUBSETS)
    records = loaded.records
    windows = [window_for(r.sample)[0] for r in records]
    truth = [r.answer.is_anomaly for r in records]
    subsets = [r.answer.subset for r in records]
    base = asyncio.run(_verdicts(CombinedDetector(), windows))
    false_alarms = [i for i, v in enumerate(base) if v.is_anomaly and not truth[i]]
    print(f"{len(records)} samples, {len(false_alarms)} false alarms without feedback\n")
    print(f"{'k':>3} {'seed':>4} {'marks':>5} {'scope':<10} {'FPR':>6} {'recall':>7}  n/a")

    for k in KS:
        for seed in range(args.seeds if k else 1):
            marked = random.Random(seed).sample(false_alarms, min(k, len(false_alarms)))
            suppressed = {f.signature for i in marked for f in base[i].findings}
            detector = CombinedDetector(suppressed=suppressed)
            rest = [i for i in range(len(records)) if i not in set(marked)]
            verdicts = asyncio.run(_verdicts(detector, [windows[i] for i in rest]))
            groups: dict[str, list[tuple[bool, bool]]] = defaultdict(list)
            for i, verdict in zip(rest, verdicts, strict=True):
                groups["all"].append((truth[i], verdict.is_anomaly))
                groups[subsets[i]].append((truth[i], verdict.is_anomaly))
            for scope, rows in groups.items():
                fpr, recall, normals, anomalies = _rates(rows)
                print(
                    f"{k:>3} {seed:>4} {len(suppressed):>5} {scope:<10} {fpr:>6.3f} "
                    f"{recall:>7.3f}  {normals}/{anomalies}"
                )
        print()


if __name__ == "__main__":
    main()
