"""What saving the learned state costs in HA's event loop, part by part.

``BaselineKeeper`` saves with ``Store.async_delay_save``: when the delay runs out, HA calls
``as_dict`` in the event loop and serialises the result (``prepare_save_json``) before the
executor writes the file. This learns the bench home (``bench_home``: 200 entities, 14
days, as ``bench_baselines.py --core-only``) and prints, CPU time, median of ``--repeats``:

- a save with nothing learned since the last one (the steady cost: each part's stored
  form rebuilt from what it holds),
- a save after ten more minutes of the home's changes (what a real save follows: the
  keeper saves at most every ``SAVE_DELAY``),
- each part's ``as_dict`` alone, largest first.

    .venv/bin/python scripts/bench_save.py --days 14 --entities 200
"""

from __future__ import annotations

import argparse
from datetime import timedelta
from pathlib import Path
import random
import sys
import time
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_home import START, ZONE, home, one_day

from custom_components.anomaly_monitor.core.baselines import HomeBaselines


def _serialised(data: dict[str, Any]) -> int:
    from homeassistant.helpers.json import prepare_save_json

    wrapped = {"version": 1, "minor_version": 1, "key": "anomaly_monitor.x", "data": data}
    return len(prepare_save_json(wrapped)[1])


def _median_ms(times: list[float]) -> str:
    times = sorted(times)
    return f"median {times[len(times) // 2] * 1e3:.2f} ms, worst {times[-1] * 1e3:.2f} ms"


def main() -> None:
    from zoneinfo import ZoneInfo

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=14)
    parser.add_argument("--entities", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=11)
    args = parser.parse_args()

    infos = home(args.entities)
    rng = random.Random(args.seed)
    baselines = HomeBaselines(ZoneInfo(ZONE))
    baselines.describe(infos)
    for d in range(args.days):
        for when, entity_id, state in one_day(infos, START + timedelta(days=d), rng):
            baselines.observe(when, entity_id, state)
        baselines.advance(START + timedelta(days=d + 1))
    # One more day's rows, fed ten minutes at a time between saves (not timed).
    extra = sorted(one_day(infos, START + timedelta(days=args.days), rng))
    print(f"learned {args.days} days x {args.entities} entities; first save packs everything:")
    began = time.process_time()
    size = _serialised(baselines.as_dict())
    print(f"  first save: {(time.process_time() - began) * 1e3:.1f} ms CPU, {size / 1e3:.0f} kB")

    steady: list[float] = []
    for _ in range(args.repeats):
        began = time.process_time()
        _serialised(baselines.as_dict())
        steady.append(time.process_time() - began)
    print(f"  save, nothing learned since: {_median_ms(steady)} CPU")

    after: list[float] = []
    rows = iter(extra)
    row = next(rows, None)
    for step in range(1, args.repeats + 1):
        until = START + timedelta(days=args.days, minutes=10 * step)
        while row is not None and row[0] < until:
            baselines.observe(*row)
            row = next(rows, None)
        baselines.advance(until)
        began = time.process_time()
        _serialised(baselines.as_dict())
        after.append(time.process_time() - began)
    print(f"  save after 10 more minutes of changes: {_median_ms(after)} CPU")

    stored = baselines.as_dict()
    parts: list[tuple[float, str]] = []
    for name in stored:
        part = getattr(baselines, _ATTRIBUTES.get(name, name), None)
        if part is None or not hasattr(part, "as_dict"):
            continue
        times = []
        for _ in range(args.repeats):
            began = time.process_time()
            part.as_dict()
            times.append(time.process_time() - began)
        parts.append((sorted(times)[len(times) // 2], name))
    print("  as_dict per part (median, CPU):")
    for cost, name in sorted(parts, reverse=True)[:12]:
        print(f"    {name}: {cost * 1e3:.2f} ms")


# Stored key -> HomeBaselines attribute, where they differ.
_ATTRIBUTES = {
    "recent_starts": "recent",
    "usual_use": "usual",
    "stay_habits": "habits",
    "away_normal": "away",
    "lonely_openings": "lonely",
    "untracked_life": "untracked",
    "usual_drops": "drops",
    "supply_outages": "supply",
    "meter_hours": "meters",
    "daily_routines": "routines",
    "meter_runs": "runs",
    "level_spells": "spells",
    "level_falls": "falls",
    "used_from_inside": "inside",
}


if __name__ == "__main__":
    main()
