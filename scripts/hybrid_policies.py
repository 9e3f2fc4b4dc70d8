"""What each hybrid policy gives, from one hybrid replay and one rules-only replay.

A hybrid replay records, per sample, the LLM's own verdict next to the merged one
(``model_verdict`` in ``predictions.jsonl``); a rules-only replay of the same code records
the rules' verdict. ``HybridDetector.combine`` - the integration's own merge - is applied
to the two for every policy the entry's options offer (the LLM may dismiss medium/low rule
findings: ``llm_may_dismiss``; may add high/critical ones: ``llm_may_add``), so one LLM
run scores them all. Printed: n, recall, FPR, F1, AL per subset and policy.

    .venv/bin/python scripts/hybrid_policies.py \
        --rules replay-results/smartbench-ha-rules --hybrid replay-results/llm-hybrid-ci
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
import sys
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmark_replay.home_scene import scene_for
from benchmark_replay.scoring import SampleScore, report
from benchmark_replay.smartbench_loader import load_smartbench
from custom_components.anomaly_monitor.core.llm.hybrid_detector import HybridDetector
from custom_components.anomaly_monitor.core.models import Finding, Label, Severity, Verdict

DEFAULT_DATA = Path("/work/shared/datasets/smartbench")
POLICIES: dict[str, tuple[Severity | None, Severity | None]] = {
    "hybrid (default: confirm and explain)": (None, None),
    "hybrid + llm_may_add": (None, Severity.HIGH),
    "hybrid + llm_may_dismiss": (Severity.MEDIUM, None),
    "hybrid + both": (Severity.MEDIUM, Severity.HIGH),
}


def verdict_of(data: dict[str, Any], detector: str) -> Verdict:
    """A Verdict back from its ``as_dict`` form."""
    findings = tuple(
        Finding(
            rule=str(f.get("rule") or detector),
            evidence=tuple(f.get("evidence") or ()),
            reasoning=str(f.get("reasoning") or ""),
            anomaly_type=str(f.get("anomaly_type") or ""),
            severity=Severity(f.get("severity") or "medium"),
        )
        for f in data.get("findings") or ()
    )
    label = Label(data.get("label") or "normal")
    if label is Label.ANOMALY and findings:
        return Verdict.from_findings(findings, detector)
    return Verdict(label=label, evidence=tuple(data.get("evidence") or ()), detector=detector)


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", type=Path, required=True, help="rules-only replay folder")
    parser.add_argument("--hybrid", type=Path, required=True, help="hybrid replay folder")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = parser.parse_args()

    rules = {row["key"]: row["verdict"] for row in _lines(args.rules / "samples.jsonl")}
    hybrid = {row["key"]: row for row in _lines(args.hybrid / "predictions.jsonl")}
    records = {
        r.answer.key: r for r in load_smartbench(args.data).records if r.answer.key in hybrid
    }
    views: dict[str, list[SampleScore]] = {"rules + statistics": [], "LLM alone": []}
    views.update({name: [] for name in POLICIES})
    for key, record in sorted(records.items()):
        mapping = scene_for(record.sample).mapping
        rule_verdict = verdict_of(rules[key], "rules")
        model = hybrid[key].get("model_verdict")
        model_verdict = verdict_of(model, "llm") if model else None
        answers: dict[str, Verdict | None] = {
            "rules + statistics": rule_verdict,
            "LLM alone": model_verdict,
        }
        for name, (dismiss, add) in POLICIES.items():
            merge = HybridDetector(None, None, dismiss_up_to=dismiss, add_min_severity=add)  # type: ignore[arg-type]
            answers[name] = (
                merge.combine(rule_verdict, model_verdict) if model_verdict else rule_verdict
            )
        for name, verdict in answers.items():
            answer = record.answer
            views[name].append(
                SampleScore(
                    key=key,
                    subset=answer.subset,
                    anomaly_type=answer.anomaly_type,
                    is_anomaly=answer.is_anomaly,
                    predicted_anomaly=bool(verdict and verdict.is_anomaly),
                    truth_devices=answer.evidence,
                    predicted_devices=mapping.devices_for(verdict.evidence if verdict else ()),
                    error=None if verdict else "model failed",
                )
            )
    print("| view | subset | n | recall | FPR | F1 | AL | model errors |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for name, scores in views.items():
        result = report(scores)
        for subset, m in [("all", result.overall), *sorted(result.subsets.items())]:
            fpr = "-" if m.fpr is None else f"{m.fpr:.3f}"
            al = "-" if m.al is None else f"{m.al:.3f}"
            print(
                f"| {name} | {subset} | {m.n} | {m.recall:.3f} | {fpr} | {m.f1:.3f} | {al} "
                f"| {m.errors} |"
            )


if __name__ == "__main__":
    main()
