"""Cost of learning a home's baselines: 14 days of 200 entities, time and memory.

Two measurements, both printed:

1. **The integration's path** (default): a real Home Assistant with the recorder on a
   SQLite file holding the fortnight (rows bulk-inserted into the recorder's own tables,
   as a real recorder would have written them), then exactly what ``BaselineKeeper`` does
   on start: one ``get_significant_states`` query per ``CHUNK`` (6 hours) in the
   recorder's executor, each chunk learned in HA's executor. Wall time, CPU time and the
   peak memory allocated meanwhile (tracemalloc, every thread; a second, untimed pass)
   are printed.
2. **Learning alone** (``--core-only`` skips 1): ``HomeBaselines`` fed the same rows,
   timed untraced; the peak memory from a second pass under tracemalloc (its CPU time,
   several times longer for the tracing, printed beside it).
3. **An analysis with the learned baselines**: the last two hours as the integration's
   window (200 entities' states and their changes), analysed by ``CombinedDetector`` with
   and without the baselines (every baseline check), median of ``--repeats`` runs; then
   each baseline check alone (CPU time; the reference checks read 64 hour profiles and
   10 meters' learned ranges here).

The home: 40 motion sensors, 20 doors, 30 lights, 10 locks, 10 switches, 80 numeric
sensors and 10 power meters of cycling appliances (20 min running, 40 idle) reporting
every minute, 2 persons; people about 07:00-23:00; a weather entity (its temperature an
attribute, every 30 min: read with attributes, as the keeper reads it).

    .venv/bin/python scripts/bench_baselines.py --days 14 --entities 200
"""

from __future__ import annotations

import argparse
import asyncio
from datetime import datetime, timedelta
import gc
import json
from pathlib import Path
import random
import sys
import time
import tracemalloc
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_home import START, ZONE, home, one_day
from bench_recorder_path import bench_recorder

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.models import EntityInfo


def bench_core(infos: list[EntityInfo], days: int, seed: int) -> HomeBaselines:
    """Learning alone, rows generated a day at a time (generation not counted): timed
    without tracing, then the same rows again under tracemalloc for the peak (tracing every
    allocation makes Python several times slower: that pass's time is printed apart)."""
    baselines, total, cpu, _ = _learn_core(infos, days, seed, traced=False)
    _, _, traced_cpu, peak = _learn_core(infos, days, seed, traced=True)
    print(f"learning alone: {total:,} changes in {cpu:.2f} s CPU ({total / cpu:,.0f}/s)")
    print(
        f"  peak allocated, one day's rows included (second pass, tracemalloc): "
        f"{peak / 1e6:.1f} MB; that pass took {traced_cpu:.2f} s CPU"
    )
    text = json.dumps(baselines.as_dict())
    print(
        f"  stored form: {_file_size(baselines.as_dict()) / 1e3:.0f} kB as HA's Store writes "
        f"it (indented JSON), {len(text) / 1e3:.0f} kB as one line"
    )
    for part, value in baselines.as_dict().items():
        if isinstance(value, dict):
            print(f"    {part}: {_file_size(value) / 1e3:.1f} kB")
    loads = _load_times(text)  # what a start-up does: parse it, rebuild the baselines
    print(
        f"  loading it (json + from_dict): median {loads[5] * 1e3:.1f} ms CPU, "
        f"worst {loads[-1] * 1e3:.1f} ms"
    )
    saves = []
    for _ in range(11):  # what each save does in the event loop: build the dict, serialise it
        began = time.process_time()
        _file_size(baselines.as_dict())
        saves.append(time.process_time() - began)
    saves.sort()
    print(
        "  saving it (as_dict + HA's serialisation, in the event loop): "
        f"median {saves[5] * 1e3:.1f} ms CPU"
    )
    # The same baselines in the older stored form (version 1: (day, mean) pairs per hour).
    old = baselines.as_dict()
    old["version"] = 1
    old["profiles"] = {
        "hours": {
            entity: [[list(pair) for pair in values] for values in hours]
            for entity, hours in baselines.profiles.hours.items()
        },
        "open": old["profiles"]["open"],
    }
    text = json.dumps(old)
    began = time.process_time()
    for _ in range(11):
        size = _file_size(old)
    serialise = (time.process_time() - began) / 11
    loads = _load_times(text)
    print(
        f"  the older form (version 1, still read): {size / 1e3:.0f} kB as HA writes it, "
        f"loading it median {loads[5] * 1e3:.1f} ms CPU, serialising it {serialise * 1e3:.1f} ms"
    )
    return baselines


def _learn_core(
    infos: list[EntityInfo], days: int, seed: int, *, traced: bool
) -> tuple[HomeBaselines, int, float, int]:
    """(baselines, changes, CPU seconds of the learning, peak bytes if ``traced``)."""
    from zoneinfo import ZoneInfo

    rng = random.Random(seed)
    baselines = HomeBaselines(ZoneInfo(ZONE))
    baselines.describe(infos)
    cpu = 0.0
    total = 0
    if traced:
        tracemalloc.start()
    for d in range(days):
        rows = one_day(infos, START + timedelta(days=d), rng)
        total += len(rows)
        began = time.process_time()
        for when, entity_id, state in rows:
            baselines.observe(when, entity_id, state)
        baselines.advance(START + timedelta(days=d + 1))
        cpu += time.process_time() - began
        del rows
    peak = 0
    if traced:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    return baselines, total, cpu, peak


def _load_times(text: str) -> list[float]:
    """CPU seconds of 11 loads of the stored text (json + from_dict), sorted."""
    from zoneinfo import ZoneInfo

    loads = []
    for _ in range(11):
        began = time.process_time()
        HomeBaselines.from_dict(json.loads(text), ZoneInfo(ZONE))
        loads.append(time.process_time() - began)
    return sorted(loads)


def _file_size(data: dict[str, Any]) -> int:
    """Bytes of ``data`` as HA's ``Store`` writes it (orjson, indented by two spaces)."""
    from homeassistant.helpers.json import prepare_save_json

    wrapped = {"version": 1, "minor_version": 1, "key": "anomaly_monitor.x", "data": data}
    return len(prepare_save_json(wrapped)[1])


def bench_analysis(
    infos: list[EntityInfo], baselines: HomeBaselines, days: int, seed: int, repeats: int
) -> None:
    """One analysis of the next two hours' window, with and without the baselines."""
    from dataclasses import replace
    from zoneinfo import ZoneInfo

    from custom_components.anomaly_monitor.core.baselines import (
        BASELINE_CHECKS,
        baseline_findings,
    )
    from custom_components.anomaly_monitor.core.baselines.learned_days_kept import count_ahead
    from custom_components.anomaly_monitor.core.combined_detector import CombinedDetector
    from custom_components.anomaly_monitor.core.feedback import FalseAlarms
    from custom_components.anomaly_monitor.core.home import HomeView
    from custom_components.anomaly_monitor.core.home_clock import on_home_clock
    from custom_components.anomaly_monitor.core.models import (
        EntityState,
        Environment,
        Severity,
        Transition,
    )
    from custom_components.anomaly_monitor.core.window import build_window

    zone = ZoneInfo(ZONE)
    day = START + timedelta(days=days)
    now = day + timedelta(hours=12)
    rows = [row for row in one_day(infos, day, random.Random(seed + 1)) if row[0] <= now]
    for when, entity_id, state in rows:  # the baselines are kept up to date before reading
        baselines.observe(when, entity_id, state)
    current: dict[str, tuple[str, datetime]] = {}
    for when, entity_id, state in rows:
        if current.get(entity_id, ("", when))[0] != state:
            current[entity_id] = (state, when)
    snapshot = [
        EntityState(
            info=replace(info, name=info.entity_id),
            state=current.get(info.entity_id, ("off", day))[0],
            last_changed=current.get(info.entity_id, ("off", day))[1],
        )
        for info in infos
    ]
    area = {info.entity_id: info.area for info in infos}
    # On the home's clock, as the watcher records them and the window ends.
    transitions = [
        Transition(on_home_clock(when, zone), entity_id, state, area.get(entity_id))
        for when, entity_id, state in rows
        if when > now - timedelta(hours=2) and entity_id in area
    ]
    env = Environment(
        local_time=on_home_clock(now, zone),
        time_zone=zone,
        weather="cloudy",
        outdoor_temperature=8.0,
        persons_home=1,
        persons_total=2,
    )
    window = build_window(snapshot, env, transitions)
    print(f"analysis: {len(snapshot)} entities, {len(transitions):,} changes in the window")
    _first_analysis(window, baselines, zone)
    began_cpu = time.process_time()
    count_ahead(baselines)  # as the keeper does in the executor once the history is learned
    print(
        f"  the learned days counted ahead (in the executor): "
        f"{1000 * (time.process_time() - began_cpu):.1f} ms CPU"
    )
    for label, learned in (("without baselines", None), ("with the baselines", baselines)):
        detector = CombinedDetector(
            baselines=(lambda b=learned: b) if learned is not None else None
        )
        times, cpu, own = [], [], []  # wall and CPU: on a loaded machine wall time waits
        with Collections() as collections:
            for _ in range(repeats):
                began, began_cpu = time.perf_counter(), time.process_time()
                full = collections.full
                found = detector.findings(window)
                times.append(time.perf_counter() - began)
                cpu.append(time.process_time() - began_cpu)
                own.append(cpu[-1] - (collections.full - full))
        times.sort()
        cpu.sort()
        own.sort()
        print(
            f"  {label}: median {1000 * times[len(times) // 2]:.1f} ms wall, "
            f"{1000 * cpu[len(cpu) // 2]:.1f} ms CPU; worst {1000 * times[-1]:.1f} ms wall, "
            f"{1000 * cpu[-1]:.1f} ms CPU ({len(found)} findings); {collections.says()}, "
            f"without them median {1000 * own[len(own) // 2]:.1f}, worst {1000 * own[-1]:.1f} ms"
        )
    times = []
    for _ in range(repeats):
        began = time.perf_counter()
        home = HomeView(window)  # each analysis builds its view
        found = baseline_findings(home, baselines, Severity.LOW, FalseAlarms())
        times.append(time.perf_counter() - began)
    times.sort()
    print(
        f"  the baseline checks alone ({len(BASELINE_CHECKS)}): median "
        f"{1000 * times[len(times) // 2]:.2f} ms, worst {1000 * times[-1]:.2f} ms, "
        f"findings: {sorted(f.rule for f in found)}"
    )
    for check in BASELINE_CHECKS:  # each alone, CPU time (the machine is shared)
        cpu = []
        for _ in range(repeats):
            home = HomeView(window)
            began_cpu = time.process_time()
            found = list(check(home, baselines))
            cpu.append(time.process_time() - began_cpu)
        cpu.sort()
        print(
            f"    {check.__name__}: median {1000 * cpu[len(cpu) // 2]:.2f} ms CPU, "
            f"worst {1000 * cpu[-1]:.2f} ms ({len(found)} findings)"
        )
    _after_hours_close(infos, baselines, window, day, now, seed=seed)


class Collections:
    """The garbage collector's full collections while in use (``gc.callbacks``): one walks
    every container object of the process (here ~140,000, nearly all of them the imported
    modules' functions, classes and dicts; the learned fortnight adds ~4,500), so its cost
    is the process's, paid by whichever allocation triggers it."""

    def __init__(self) -> None:
        self.full = 0.0  # CPU seconds in full collections
        self.count = 0
        self._began = 0.0

    def __enter__(self) -> Collections:
        gc.callbacks.append(self._seen)
        return self

    def __exit__(self, *_: object) -> None:
        gc.callbacks.remove(self._seen)

    def _seen(self, phase: str, info: dict[str, int]) -> None:
        if info["generation"] != 2:
            return
        if phase == "start":
            self._began = time.process_time()
        else:
            self.full += time.process_time() - self._began
            self.count += 1

    def says(self) -> str:
        """What fell inside the timed analyses."""
        return f"{self.count} full collection(s) inside, {1000 * self.full:.1f} ms CPU"


def full_collection() -> str:
    """The process's tracked objects and what a full collection of them costs (best of 5)."""
    spent = []
    for _ in range(5):
        began = time.process_time()
        gc.collect()
        spent.append(time.process_time() - began)
    objects = len(gc.get_objects())
    return f"{objects:,} tracked objects, a full collection {1000 * min(spent):.1f} ms CPU"


def _first_analysis(window: Any, baselines: HomeBaselines, zone: Any) -> None:
    """The first analysis of a copy of the baselines nothing counted ahead: what an analysis
    would pay if the keeper did not count the learned days in the executor."""
    from custom_components.anomaly_monitor.core.combined_detector import CombinedDetector

    copy = HomeBaselines.from_dict(baselines.as_dict(), zone)
    copy.describe(baselines.infos.values())
    detector = CombinedDetector(baselines=lambda: copy)
    began_cpu = time.process_time()
    detector.findings(window)
    print(
        f"  first analysis, the learned days not counted ahead: "
        f"{1000 * (time.process_time() - began_cpu):.1f} ms CPU"
    )


def _after_hours_close(
    infos: list[EntityInfo],
    baselines: HomeBaselines,
    window: Any,
    day: datetime,
    now: datetime,
    *,
    seed: int,
    hours: int = 8,
) -> None:
    """The same window analysed once after each of the next ``hours`` hours closed (the
    readings of that hour learned): every profiled sensor's hour closes at once."""
    from custom_components.anomaly_monitor.core.combined_detector import CombinedDetector

    rows = [row for row in one_day(infos, day, random.Random(seed + 1)) if row[0] > now]
    detector = CombinedDetector(baselines=lambda: baselines)
    cpu, own, learned = [], [], now
    with Collections() as collections:
        for hour in range(hours):
            until = now + timedelta(hours=hour + 1, minutes=1)  # past the hour closes it
            for when, entity_id, state in rows:
                if learned < when <= until:
                    baselines.observe(when, entity_id, state)
            learned = until
            began_cpu, full = time.process_time(), collections.full
            detector.findings(window)
            cpu.append(time.process_time() - began_cpu)
            own.append(cpu[-1] - (collections.full - full))
    print(
        f"  after each of the next {hours} hours closes (64 sensors' hours at once): "
        f"{', '.join(f'{1000 * c:.1f}' for c in cpu)} ms CPU; "
        f"median {1000 * sorted(cpu)[hours // 2]:.1f}, worst {1000 * max(cpu):.1f}; "
        f"{collections.says()}, without them worst {1000 * max(own):.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--days", type=int, default=14)
    parser.add_argument("--entities", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--core-only", action="store_true", help="skip the recorder path")
    parser.add_argument("--repeats", type=int, default=21, help="analyses timed")
    args = parser.parse_args()
    infos = home(args.entities)
    print(f"home: {len(infos)} entities, {args.days} days (targets: <= 30 s, <= 50 MB)")
    print(f"before learning: {full_collection()}")
    if not args.core_only:
        asyncio.run(bench_recorder(infos, args.days, args.seed))
    baselines = bench_core(infos, args.days, args.seed)
    print(f"with the baselines learned: {full_collection()}")
    bench_analysis(infos, baselines, args.days, args.seed, args.repeats)


if __name__ == "__main__":
    main()
