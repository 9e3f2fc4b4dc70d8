"""The hour-close analyses of ``bench_baselines.py``'s home, timed or profiled.

The fortnight is learned as ``bench_baselines.py --core-only`` learns it (without its
traced second pass), then the two-hour window is analysed: ``--window`` times without the
baselines (the window's rules and statistics alone), and once after each of the next 8
hours closes (the hour's readings learned) with them. Prints the CPU time of each, and
with ``--profile`` a cProfile of the hour-close analyses (cumulative and own time).
``--findings FILE`` writes every analysis's findings (rule, evidence, reasoning,
magnitude), to compare two commits' output.

    .venv/bin/python scripts/prof_hourclose.py [--profile] [--findings out.txt]
"""

from __future__ import annotations

import argparse
import cProfile
from datetime import timedelta
import gc
from pathlib import Path
import pstats
import random
import sys
import time
from typing import Any
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_baselines as bench
import bench_home

from custom_components.anomaly_monitor.core.combined_detector import CombinedDetector


def _said(findings: list[Any]) -> str:
    return "\n".join(
        f"{f.rule}|{f.evidence}|{f.reasoning}|{f.magnitude!r}|{f.severity}" for f in findings
    )


def _parts(window: Any, repeats: int) -> None:
    """CPU of the parts the daily statistics and the follow-up links read, each on a fresh
    view (what one analysis pays), median and spread of ``repeats``."""
    from custom_components.anomaly_monitor.core.home import HomeView
    from custom_components.anomaly_monitor.core.statistics import daily_profile, followups

    profiled = daily_profile.PROFILE_DEVICE_CLASSES

    def numbers(home: HomeView) -> None:
        for entity_id in home.history:
            home.numbers(entity_id)

    def changes(home: HomeView) -> None:
        for entity_id in home.history:
            home.changes(entity_id)

    def by_day(home: HomeView) -> None:  # the readings already parsed (``numbers``)
        for entity_id in home.history_of("sensor", *profiled):
            daily_profile.readings_by_day(home, entity_id)

    def links(home: HomeView) -> None:  # the changes already made (``changes``)
        followups.follow_up_links(home)

    parts = (
        ("HomeView.numbers, every entity", numbers, None),
        ("HomeView.changes, every entity", changes, None),
        ("readings_by_day, profiled sensors (numbers made)", by_day, numbers),
        ("follow-up links (changes made)", links, changes),
        ("daily_profile_shift, whole", lambda h: list(daily_profile.daily_profile_shift(h)), None),
        ("missing_follow_up, whole", lambda h: list(followups.missing_follow_up(h)), None),
    )
    for label, part, before in parts:
        cpu = []
        for _ in range(repeats):
            home = HomeView(window)
            if before is not None:
                before(home)
            began = time.process_time()
            part(home)
            cpu.append(time.process_time() - began)
        cpu.sort()
        print(
            f"  {label}: median {1000 * cpu[len(cpu) // 2]:.2f} ms CPU "
            f"(quartiles {1000 * cpu[len(cpu) // 4]:.2f}-{1000 * cpu[3 * len(cpu) // 4]:.2f})"
        )


def _time_each_check(timed: dict[str, float]) -> None:
    """Wrap every window check and baseline check so its CPU adds up in ``timed``."""
    from custom_components.anomaly_monitor.core import checks as checks_module
    from custom_components.anomaly_monitor.core.baselines import detectors

    def timing(check: Any, label: str) -> Any:
        def timed_check(home: Any) -> list[Any]:
            began = time.process_time()
            found = list(check(home))
            timed[label] = timed.get(label, 0.0) + time.process_time() - began
            return found

        return timed_check

    plain_run = checks_module.run_checks

    def run_checks(checks: Any, *args: Any) -> Any:
        wrapped = [timing(c, f"check {getattr(c, '__name__', c)}") for c in checks]
        return plain_run(wrapped, *args)

    checks_module.run_checks = run_checks  # type: ignore[assignment]
    detectors.run_checks = run_checks  # type: ignore[assignment]
    for name in ("_home", "window_findings", "_with_baselines"):
        plain = getattr(CombinedDetector, name)
        setattr(CombinedDetector, name, _timed_method(plain, f"whole {name}", timed))


def _timed_method(plain: Any, label: str, timed: dict[str, float]) -> Any:
    def method(*args: Any) -> Any:
        began = time.process_time()
        result = plain(*args)
        timed[label] = timed.get(label, 0.0) + time.process_time() - began
        return result

    return method


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--window", type=int, default=15, help="window-only analyses timed")
    parser.add_argument("--findings", type=Path, help="write the findings here")
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--parts", type=int, default=0, help="time the window's parts N times")
    parser.add_argument("--checks", action="store_true", help="time each check at the closes")
    args = parser.parse_args()
    infos = bench_home.home(200)
    baselines, *_ = bench._learn_core(infos, 14, 1, traced=False)
    captured: dict[str, Any] = {}

    def hours_close(*args: Any, **_: Any) -> None:
        _, _, captured["window"], captured["day"], captured["now"] = args

    # bench_analysis builds the window and keeps the baselines up to date to its hour; its
    # own timings are skipped (one repeat) and the hour-close step is run here instead.
    with mock.patch.object(bench, "_after_hours_close", hours_close):
        bench.bench_analysis(infos, baselines, 14, 1, 1)
    window, now, day = captured["window"], captured["now"], captured["day"]
    said: list[str] = []
    alone = CombinedDetector()
    cpu = []
    for _ in range(args.window):
        gc.collect()
        began = time.process_time()
        found = alone.findings(window)
        cpu.append(time.process_time() - began)
    said.append(_said(found))
    cpu.sort()
    print(
        f"window alone ({args.window}): median {1000 * cpu[len(cpu) // 2]:.1f} ms CPU, "
        f"best {1000 * cpu[0]:.1f}, worst {1000 * cpu[-1]:.1f}"
    )
    if args.parts:
        _parts(window, args.parts)
    rows = [row for row in bench_home.one_day(infos, day, random.Random(2)) if row[0] > now]
    detector = CombinedDetector(baselines=lambda: baselines)
    timed: dict[str, float] = {}
    if args.checks:
        _time_each_check(timed)
    profile = cProfile.Profile(time.process_time)  # CPU: the machine is shared
    closes, learned = [], now
    for hour in range(8):
        until = now + timedelta(hours=hour + 1, minutes=1)
        for when, entity_id, state in rows:
            if learned < when <= until:
                baselines.observe(when, entity_id, state)
        learned = until
        gc.collect()
        began = time.process_time()
        if args.profile:
            profile.enable()
        found = detector.findings(window)
        if args.profile:
            profile.disable()
        closes.append(time.process_time() - began)
        said.append(_said(found))
    print(
        "after each of 8 hours closes: "
        f"{', '.join(f'{1000 * c:.1f}' for c in closes)} ms CPU; "
        f"median {1000 * sorted(closes)[4]:.1f}, worst {1000 * max(closes):.1f}"
        + (" (profiled)" if args.profile else "")
    )
    if timed:
        print("each check's CPU over the 8 hour closes (in their order, sharing as they do):")
        for label, spent in sorted(timed.items(), key=lambda item: -item[1])[: args.top]:
            print(f"  {1000 * spent / 8:7.2f} ms per close  {label}")
    if args.findings:
        args.findings.write_text("\n====\n".join(said) + "\n")
    if args.profile:
        stats = pstats.Stats(profile)
        stats.sort_stats("cumulative").print_stats(args.top)
        stats.sort_stats("tottime").print_stats(args.top // 2)


if __name__ == "__main__":
    main()
