"""Quick offline scoring of the core detectors on SmartBench, without Home Assistant.

Builds each sample's window with ``benchmark_replay.direct`` (the same entity mapping as
the in-HA replay), runs a detector and prints accuracy, precision, recall, F1, FPR and
AL per subset and per anomaly type. ``--show fp|fn|al`` lists the samples to inspect.

    .venv/bin/python scripts/eval_direct.py --detector combined
    .venv/bin/python scripts/eval_direct.py --subset ci --show fp --type safety_hazard
    .venv/bin/python scripts/eval_direct.py --subset cd-tdcs --without motion_held_on
    .venv/bin/python scripts/eval_direct.py --ids neutral          # ids -> sensor.device_0017
    .venv/bin/python scripts/eval_direct.py --compare-ids          # original | neutral | +names
    .venv/bin/python scripts/eval_direct.py --compare-ids --devices  # with HA device links
    .venv/bin/python scripts/eval_direct.py --dump /tmp/verdicts.json  # every verdict, for diffs
"""

from __future__ import annotations

import argparse
import asyncio
from collections import defaultdict
from dataclasses import asdict, dataclass
import json
from pathlib import Path
import sys
import time

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmark_replay.device_groups import with_devices
from benchmark_replay.direct import window_for
from benchmark_replay.neutral_ids import neutralise
from benchmark_replay.smartbench_loader import SUBSETS, Record, load_smartbench
from custom_components.anomaly_monitor.core.combined_detector import (
    CombinedDetector,
)
from custom_components.anomaly_monitor.core.models import Verdict
from custom_components.anomaly_monitor.core.rule_detector import RuleDetector
from custom_components.anomaly_monitor.core.statistics import (
    ALL_STATISTICS,
    StatisticsDetector,
)

DEFAULT_DATA = Path("/work/shared/datasets/smartbench")


@dataclass(slots=True)
class Outcome:
    """One sample's result."""

    record: Record
    verdict: Verdict
    predicted: frozenset[str]

    @property
    def al(self) -> float:
        truth = self.record.answer.evidence
        if not self.verdict.is_anomaly or not truth:
            return 0.0
        return len(truth & self.predicted) / len(truth | self.predicted)


def _metrics(outcomes: list[Outcome]) -> dict[str, float]:
    tp = sum(1 for o in outcomes if o.record.answer.is_anomaly and o.verdict.is_anomaly)
    fn = sum(1 for o in outcomes if o.record.answer.is_anomaly and not o.verdict.is_anomaly)
    fp = sum(1 for o in outcomes if not o.record.answer.is_anomaly and o.verdict.is_anomaly)
    tn = sum(1 for o in outcomes if not o.record.answer.is_anomaly and not o.verdict.is_anomaly)
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    anomalies = [o for o in outcomes if o.record.answer.is_anomaly]
    return {
        "n": len(outcomes),
        "acc": (tp + tn) / len(outcomes) if outcomes else 0.0,
        "prec": precision,
        "rec": recall,
        "f1": f1,
        "fpr": fp / (fp + tn) if fp + tn else 0.0,
        "al": sum(o.al for o in anomalies) / len(anomalies) if anomalies else 0.0,
        "fp": fp,
        "fn": fn,
    }


def _row(name: str, m: dict[str, float]) -> str:
    return (
        f"{name:<44} n={int(m['n']):>4} acc={m['acc']:.3f} P={m['prec']:.3f} R={m['rec']:.3f} "
        f"F1={m['f1']:.3f} FPR={m['fpr']:.3f} AL={m['al']:.3f} fp={int(m['fp'])} fn={int(m['fn'])}"
    )


def _detector(
    name: str, sensitivity: str, without: list[str]
) -> RuleDetector | StatisticsDetector | CombinedDetector:
    if name == "rules":
        return RuleDetector(sensitivity=sensitivity)
    # Ablation: the statistics named in --without are left out.
    kept = tuple(s for s in ALL_STATISTICS if s.__name__ not in without)
    if name == "stats":
        return StatisticsDetector(kept, sensitivity=sensitivity)
    detector = CombinedDetector(sensitivity=sensitivity)
    detector.statistics.checks = kept
    return detector


IDS_VARIANTS = ("original", "neutral", "neutral-names")


async def _run(args: argparse.Namespace, ids: str = "original") -> list[Outcome]:
    loaded = load_smartbench(args.data, args.subset or SUBSETS)
    for error in loaded.errors:
        print("load error:", error, file=sys.stderr)
    detector = _detector(args.detector, args.sensitivity, args.without)
    outcomes: list[Outcome] = []
    started = time.perf_counter()
    for record in loaded.records:
        window, scene = window_for(record.sample)
        if args.devices:
            window, _ = with_devices(window)  # before renaming: grouped by the dataset's names
        back = None
        if ids != "original":
            # Issue #16 part 4: what do the words in ids (and names) carry?
            window, back = neutralise(window, names=ids == "neutral-names")
        verdict = await detector.async_analyze(window)
        evidence = back.originals(verdict.evidence) if back else verdict.evidence
        predicted = scene.mapping.devices_for(evidence)
        outcomes.append(Outcome(record, verdict, predicted))
    elapsed = time.perf_counter() - started
    links = ", device links" if args.devices else ""
    print(f"{len(outcomes)} samples in {elapsed:.1f} s ({args.detector}, ids {ids}{links})")
    return outcomes


def _groups(outcomes: list[Outcome]) -> dict[str, list[Outcome]]:
    """Per subset, both CD subsets, and per subset:anomaly type."""
    groups: dict[str, list[Outcome]] = defaultdict(list)
    for outcome in outcomes:
        groups[outcome.record.answer.subset].append(outcome)
    groups["cd (both)"] = [o for o in outcomes if o.record.answer.subset != "ci"]
    for outcome in sorted(outcomes, key=lambda o: o.record.answer.subset):
        answer = outcome.record.answer
        groups[f"{answer.subset}:{answer.anomaly_type}"[:44]].append(outcome)
    return groups


def _fired(outcomes: list[Outcome]) -> dict[str, int]:
    """How many samples each finding (rule or statistic) spoke on."""
    counts: dict[str, int] = defaultdict(int)
    for outcome in outcomes:
        for rule in {finding.rule for finding in outcome.verdict.findings}:
            counts[rule] += 1
    return counts


def _compare_ids(args: argparse.Namespace) -> None:
    """F1/FPR/AL with original ids, neutral ids, and neutral ids and names, side by side."""
    runs = {ids: asyncio.run(_run(args, ids)) for ids in IDS_VARIANTS}
    groups = {ids: _groups(outcomes) for ids, outcomes in runs.items()}
    print("\n== F1 / FPR / AL: original ids | neutral ids | neutral ids + names")
    for name, items in groups["original"].items():
        cells = []
        for ids in IDS_VARIANTS:
            m = _metrics(groups[ids][name])
            cells.append(f"{m['f1']:.3f} / {m['fpr']:.3f} / {m['al']:.3f}")
        mark = "" if len(set(cells)) == 1 else "  *"
        print(f"{name:<44} n={len(items):>4}  " + "  |  ".join(cells) + mark)
    fired = {ids: _fired(outcomes) for ids, outcomes in runs.items()}
    print("\n== samples each finding spoke on (only those that change)")
    for rule in sorted(set().union(*fired.values())):
        counts = [fired[ids].get(rule, 0) for ids in IDS_VARIANTS]
        if len(set(counts)) > 1:
            print(f"{rule:<44} " + " | ".join(f"{c:>4}" for c in counts))


def _dump(outcomes: list[Outcome], path: Path) -> None:
    """Every verdict in full, keyed by sample, in a stable order."""
    verdicts = {
        outcome.record.answer.key: asdict(outcome.verdict)
        for outcome in sorted(outcomes, key=lambda o: o.record.answer.key)
    }
    path.write_text(json.dumps(verdicts, indent=1, sort_keys=True, default=str) + "\n")
    print(f"{len(verdicts)} verdicts written to {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--subset", action="append", choices=SUBSETS)
    parser.add_argument("--detector", choices=("rules", "stats", "combined"), default="combined")
    parser.add_argument("--sensitivity", default="medium")
    parser.add_argument("--show", choices=("fp", "fn", "al"), action="append", default=[])
    parser.add_argument("--type", help="only list samples of this anomaly type/subtype")
    parser.add_argument("--limit", type=int, default=40)
    parser.add_argument(
        "--without", action="append", default=[], help="leave this statistic out (ablation)"
    )
    parser.add_argument(
        "--ids",
        choices=IDS_VARIANTS,
        default="original",
        help="rename every entity to <domain>.device_<n> (and its name to 'Device n')",
    )
    parser.add_argument(
        "--compare-ids", action="store_true", help="all three --ids variants side by side"
    )
    parser.add_argument(
        "--devices",
        action="store_true",
        help="link a meter or level to its switch or detector as one HA device (direct only)",
    )
    parser.add_argument(
        "--dump",
        type=Path,
        help="write every sample's full verdict as JSON (to compare two versions byte for byte)",
    )
    args = parser.parse_args()
    if args.compare_ids:
        _compare_ids(args)
        return
    outcomes = asyncio.run(_run(args, args.ids))
    if args.dump:
        _dump(outcomes, args.dump)

    by_subset: dict[str, list[Outcome]] = defaultdict(list)
    by_type: dict[tuple[str, str], list[Outcome]] = defaultdict(list)
    for outcome in outcomes:
        answer = outcome.record.answer
        by_subset[answer.subset].append(outcome)
        by_type[(answer.subset, answer.anomaly_type)].append(outcome)
    print("\n== per subset")
    for subset, items in by_subset.items():
        print(_row(subset, _metrics(items)))
    cd = [o for o in outcomes if o.record.answer.subset != "ci"]
    if cd:
        print(_row("cd (both)", _metrics(cd)))
    print("\n== per anomaly type")
    for (subset, kind), items in sorted(by_type.items()):
        print(_row(f"{subset}:{kind}"[:44], _metrics(items)))

    for show in args.show:
        print(f"\n== {show}")
        shown = 0
        for outcome in outcomes:
            answer = outcome.record.answer
            if args.type and args.type not in (answer.anomaly_type, answer.subtype):
                continue
            if show == "fp" and not (not answer.is_anomaly and outcome.verdict.is_anomaly):
                continue
            if show == "fn" and not (answer.is_anomaly and not outcome.verdict.is_anomaly):
                continue
            if show == "al" and not (answer.is_anomaly and outcome.verdict.is_anomaly):
                continue
            if show == "al" and outcome.al >= 0.999:
                continue
            shown += 1
            if shown > args.limit:
                break
            print(f"- {answer.key} [{answer.anomaly_type}/{answer.subtype}]")
            if show == "al":
                truth = answer.evidence
                print(f"    AL={outcome.al:.2f} missing={sorted(truth - outcome.predicted)}")
                print(f"    extra={sorted(outcome.predicted - truth)}")
            for finding in outcome.verdict.findings:
                print(f"    {finding.rule} {finding.severity} {list(finding.evidence)}")
                print(f"      {finding.reasoning[:200]}")


if __name__ == "__main__":
    main()
