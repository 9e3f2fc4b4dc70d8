"""Feedback experiment: false-alarm marks become suppressions; does FPR drop, recall hold?

A homeowner marks a false alarm; the integration stores a mark per finding: its
signature (rule + subject, the entity or area that is wrong) and its magnitude (how far
past its threshold it was), and the detector suppresses later findings of that signature
only while they are no more extreme than the mark (``core/feedback.py``, margin
``MARGIN``). Here, on the direct (HA-free) windows: run the detector once, pick k of the
false alarms on normal samples (seeded), mark their findings (not the safety hazards: the
integration never marks those, their false alarm dismisses one occurrence), and score the
detector with those marks on every *other* sample. Printed per k and seed: FPR and
recall, overall and per subset, for the marks with their degree ("degree") and, for
comparison, for the same marks by signature alone ("exact", the behaviour before
magnitudes), so a suppression that also hides real anomalies shows up as lost recall.

    .venv/bin/python scripts/eval_feedback.py
    .venv/bin/python scripts/eval_feedback.py --subset cd-argus --seeds 5 --margin 1.5
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
from custom_components.anomaly_monitor.core.feedback import (
    MARGIN,
    FalseAlarm,
    FalseAlarms,
    is_hazard,
)
from custom_components.anomaly_monitor.core.models import ContextWindow, Finding, Verdict

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


class _MarginMarks(FalseAlarms):
    """Marks judged with another margin than the integration's (``--margin``)."""

    def __init__(self, marks: list[FalseAlarm], margin: float) -> None:
        super().__init__(marks)
        self.margin = margin

    def covers(self, finding: Finding, margin: float = MARGIN) -> bool:
        return super().covers(finding, self.margin)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--subset", action="append", choices=SUBSETS)
    parser.add_argument("--seeds", type=int, default=3, help="repeat with this many seeds")
    parser.add_argument(
        "--margin", type=float, default=MARGIN, help=f"mark margin (integration: {MARGIN})"
    )
    args = parser.parse_args()

    loaded = load_smartbench(args.data, args.subset or SUBSETS)
    records = loaded.records
    windows = [window_for(r.sample)[0] for r in records]
    truth = [r.answer.is_anomaly for r in records]
    subsets = [r.answer.subset for r in records]
    base = asyncio.run(_verdicts(CombinedDetector(), windows))
    false_alarms = [i for i, v in enumerate(base) if v.is_anomaly and not truth[i]]
    print(
        f"{len(records)} samples, {len(false_alarms)} false alarms without feedback, "
        f"margin {args.margin:g}\n"
    )
    print(
        f"{'k':>3} {'seed':>4} {'marks':>5} {'graded':>6} {'scope':<10} "
        f"{'FPR exact':>9} {'recall exact':>12} {'FPR degree':>10} {'recall degree':>13}  n/a"
    )

    for k in KS:
        for seed in range(args.seeds if k else 1):
            marked = random.Random(seed).sample(false_alarms, min(k, len(false_alarms)))
            marks = [
                FalseAlarm.of(f)
                for i in marked
                for f in base[i].findings
                if not is_hazard(f.anomaly_type, f.severity)
            ]
            degree = _MarginMarks(marks, args.margin)
            exact = FalseAlarms(m.signature for m in marks)
            graded = sum(1 for m in degree.values() if m.magnitude is not None)
            rest = [i for i in range(len(records)) if i not in set(marked)]
            rest_windows = [windows[i] for i in rest]
            scored = [
                asyncio.run(_verdicts(CombinedDetector(suppressed=marks_), rest_windows))
                for marks_ in (exact, degree)
            ]
            groups: dict[str, list[tuple[bool, bool, bool]]] = defaultdict(list)
            for i, by_exact, by_degree in zip(rest, *scored, strict=True):
                row = (truth[i], by_exact.is_anomaly, by_degree.is_anomaly)
                groups["all"].append(row)
                groups[subsets[i]].append(row)
            for scope, rows in groups.items():
                fpr_e, recall_e, normals, anomalies = _rates([(t, e) for t, e, _ in rows])
                fpr_d, recall_d, _, _ = _rates([(t, d) for t, _, d in rows])
                print(
                    f"{k:>3} {seed:>4} {len(degree):>5} {graded:>6} {scope:<10} "
                    f"{fpr_e:>9.3f} {recall_e:>12.3f} {fpr_d:>10.3f} {recall_d:>13.3f}  "
                    f"{normals}/{anomalies}"
                )
        print()


if __name__ == "__main__":
    main()
