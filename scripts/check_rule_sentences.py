"""The state-claim check on the rules' own sentences, over SmartBench's development samples.

A small model mostly restates the rule's sentence ("What the monitor noticed", in friendly
names). If ``state_claims.contradiction`` refutes that sentence, either the rule tells a
state the device does not have (a wording to fix) or the check misreads a sentence (a
false rejection to fix). No model is needed: every finding of every sample is read.

    .venv/bin/python scripts/check_rule_sentences.py [--subset ci] [--show 20]
"""

from __future__ import annotations

import argparse
import asyncio
from collections import Counter
from pathlib import Path
import sys
import time

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmark_replay.direct import window_for
from benchmark_replay.smartbench_loader import SUBSETS, load_smartbench
from custom_components.anomaly_monitor.core.combined_detector import CombinedDetector
from custom_components.anomaly_monitor.core.llm.explanations import EXAMPLE_ANSWER
from custom_components.anomaly_monitor.core.llm.second_opinion import _in_words
from custom_components.anomaly_monitor.core.llm.state_claims import contradiction

DEFAULT_DATA = Path("/work/shared/datasets/smartbench")


async def run(data: Path, subsets: list[str], show: int) -> None:
    records = load_smartbench(data, subsets).records
    rules = CombinedDetector()
    findings = refuted = 0
    by_rule: Counter[str] = Counter()
    shown = 0
    cpu = 0.0
    for record in records:
        window, _ = window_for(record.sample)
        verdict = await rules.async_analyze(window)
        by_id = window.by_id()
        for finding in verdict.findings:
            states = {e: by_id[e] for e in finding.evidence if e in by_id}
            sentence = _in_words(finding.reasoning, states)
            started = time.process_time()
            found = contradiction(sentence, window, finding.evidence)
            cpu += time.process_time() - started
            findings += 1
            if found is None:
                continue
            refuted += 1
            by_rule[finding.rule] += 1
            if shown < show:
                shown += 1
                print(f"--- {record.answer.subset} {finding.rule}: {found}\n{sentence}")
    print(f"\nsamples {len(records)}, findings {findings}, rule sentences refuted {refuted}")
    for rule, count in by_rule.most_common():
        print(f"  {rule}: {count}")
    print(f"check CPU time per sentence: {cpu / max(findings, 1) * 1000:.2f} ms")
    # the answered example of the prompt must pass against its own facts' states
    print(f"example answer: {EXAMPLE_ANSWER!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--subset", action="append", choices=SUBSETS)
    parser.add_argument("--show", type=int, default=20, help="refuted sentences printed")
    args = parser.parse_args()
    asyncio.run(run(args.data, args.subset or list(SUBSETS), args.show))


if __name__ == "__main__":
    main()
