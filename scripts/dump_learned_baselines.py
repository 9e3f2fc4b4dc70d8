"""The stored form of baselines learned from known inputs, to compare two versions of the
learning code (a speed-up must learn exactly the same normal).

Learns, without Home Assistant, (1) the generated home of ``bench_baselines.py`` (200
entities, ``--days`` days) and (2) every home of the given home-benchmark folders, fed
their planned changes (routine, incidents, noise) in time order, advanced every 6 hours
(as the keeper's recorder chunks), and stored and reloaded halfway (a restart). Writes
one JSON file: {home: ``HomeBaselines.as_dict()``}, keys sorted.

    .venv/bin/python scripts/dump_learned_baselines.py --out /tmp/a.json
    (other checkout) ... --out /tmp/b.json && cmp /tmp/a.json /tmp/b.json
"""

from __future__ import annotations

import argparse
from datetime import timedelta
import json
from pathlib import Path
import random
import sys
from typing import Any
from zoneinfo import ZoneInfo

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_home import START, ZONE, home, one_day

from benchmark_replay.home.effects import Change
from benchmark_replay.home.scenario import load_scenario, scenario_files
from benchmark_replay.home.timeline import build_plan
from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.models import EntityInfo

STEP = timedelta(hours=6)


def bench_home(days: int) -> dict[str, Any]:
    """The bench's generated home, learned as ``bench_baselines.py`` learns it."""
    infos = home(200)
    rng = random.Random(7)
    baselines = HomeBaselines(ZoneInfo(ZONE))
    baselines.describe(infos)
    for d in range(days):
        if d == days // 2:
            baselines = _restarted(baselines, infos)
        for when, entity_id, state in one_day(infos, START + timedelta(days=d), rng):
            baselines.observe(when, entity_id, state)
        baselines.advance(START + timedelta(days=d + 1))
    return baselines.as_dict()


def scenario_home(path: Path) -> dict[str, Any]:
    """One home-benchmark home, its plan's changes learned in time order."""
    scenario = load_scenario(path)
    plan = build_plan(scenario)
    data = scenario.data["home"]
    infos = [
        EntityInfo(
            e["entity_id"],
            e.get("name", ""),
            e.get("area"),
            e.get("device_class"),
            e.get("unit"),
        )
        for e in data["entities"]
    ]
    weather = data["weather"].get("entity_id")
    baselines = HomeBaselines(scenario.tz)
    baselines.describe(infos)
    baselines.watching([info.entity_id for info in infos], scenario.start)
    for entity_id, (state, _) in plan.initial.items():
        baselines.seed_reading(entity_id, state, scenario.start)
    changes = [step for step in plan.steps if isinstance(step, Change)]
    due = scenario.start + STEP
    half = changes[len(changes) // 2].when if changes else None
    for change in changes:
        while change.when >= due:
            baselines.advance(due)
            due += STEP
        if change.when == half:
            baselines, half = _restarted(baselines, infos), None
        if change.entity_id == weather:
            temperature = (change.attributes or {}).get("temperature")
            baselines.outdoor(
                float(temperature) if isinstance(temperature, int | float) else None,
                change.when,
            )
            continue
        baselines.observe(change.when, change.entity_id, change.state)
    baselines.advance(plan.end)
    return baselines.as_dict()


def _restarted(baselines: HomeBaselines, infos: list[EntityInfo]) -> HomeBaselines:
    again = HomeBaselines.from_dict(json.loads(json.dumps(baselines.as_dict())), baselines.zone)
    again.describe(infos)
    return again


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--days", type=int, default=14, help="the bench home's days")
    parser.add_argument(
        "--homes",
        nargs="*",
        default=[f"benchmark_replay/home/{name}/" for name in ("scenarios", "blind", "blind2")],
    )
    args = parser.parse_args()
    learned = {"bench_home": bench_home(args.days)}
    for folder in args.homes:
        for path in scenario_files(Path(folder)):
            learned[f"{Path(folder).name}/{path.name}"] = scenario_home(path)
            print(f"learned {path}", flush=True)
    args.out.write_text(json.dumps(learned, sort_keys=True, indent=1))
    print(f"{len(learned)} homes -> {args.out}")


if __name__ == "__main__":
    main()
