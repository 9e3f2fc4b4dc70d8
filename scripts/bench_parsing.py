"""How long parsing one LLM reply takes, over the seeded fuzz corpus of tests/fuzz_replies.py.

Prints p50/p99/max per reply (and the slowest case's kind), for replies up to 1 MB judged
against a 500-entity window: the parser runs on Home Assistant's event loop, so its worst
case is what matters. Run: .venv/bin/python scripts/bench_parsing.py [--replies N] [--seed S]
"""

from __future__ import annotations

import argparse
from pathlib import Path
import statistics
import sys
import time

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from custom_components.anomaly_monitor.core.llm.entity_matching import EntityMatcher
from custom_components.anomaly_monitor.core.llm.parsing import parse_reply
from tests.fuzz_replies import GENERATORS, corpus, window_ids

RETIME_ABOVE = 0.005  # seconds


def _cpu_time(reply: object, ids: list[str], names: dict[str, str]) -> float:
    started = time.thread_time()
    parse_reply(reply, ids, names=names)
    return time.thread_time() - started


def main() -> None:
    """Parse the corpus and print the timing figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--replies", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--entities", type=int, default=500)
    args = parser.parse_args()
    ids = window_ids(args.entities)
    names = {eid: eid.partition(".")[2].replace("_", " ").title() for eid in ids}
    started = time.thread_time()
    EntityMatcher(ids, names).match("sensor.not_in_the_window")  # builds the fuzzy index
    cold = time.thread_time() - started
    wall: list[tuple[float, int]] = []
    cpu: list[float] = []
    largest = 0
    for case, reply in corpus(args.replies, args.seed, args.entities):
        largest = max(largest, len(reply) if isinstance(reply, str) else 0)
        started, started_cpu = time.perf_counter(), time.thread_time()
        parse_reply(reply, ids, names=names)
        cpu.append(time.thread_time() - started_cpu)
        wall.append((time.perf_counter() - started, case))
    print(
        f"replies: {len(wall)} (seed {args.seed}, window of {args.entities} entities, "
        f"largest reply {largest:,} chars)"
    )
    for what, values in (("wall", [t for t, _ in wall]), ("cpu", cpu)):
        quantile = statistics.quantiles(values, n=100)
        print(
            f"{what:4}  p50 {quantile[49] * 1e3:.3f} ms   p99 {quantile[98] * 1e3:.3f} ms   "
            f"max {max(values) * 1e3:.3f} ms"
        )
    # A single slow run can be a garbage collection or a busy machine: re-time those replies.
    slow = [(cpu[i], case) for i, (_, case) in enumerate(wall) if cpu[i] > RETIME_ABOVE]
    replies = dict(corpus(args.replies, args.seed, args.entities)) if slow else {}
    for seconds, case in slow:
        best = min(_cpu_time(replies[case], ids, names) for _ in range(3))
        print(f"case {case}: {seconds * 1e3:.3f} ms cpu; best of 3 re-runs {best * 1e3:.3f} ms")
    _worst, case = max(wall)
    kind = GENERATORS[case % len(GENERATORS)].__name__.strip("_")
    print(f"slowest (wall): case {case} ({kind})")
    print(
        f"cpu once per new set of entities (matcher and fuzzy index, {args.entities} "
        f"entities): {cold * 1e3:.3f} ms"
    )


if __name__ == "__main__":
    main()
