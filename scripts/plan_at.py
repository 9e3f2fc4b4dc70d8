"""Print a home's planned state changes between two times (no Home Assistant, seconds).

The seeded plan (``build_plan``) is what the replay writes into HA: reading it shows what
really happened around an incident or a false alarm (who came and went, which door, which
sensor) before replaying anything.

Usage (from the repository):
    python scripts/plan_at.py benchmark_replay/home/blind51/b_*.yaml \
        2027-05-18T00:00+01:00 2027-05-18T09:00+01:00 [ENTITY_PART]

Times are printed on the home's clock. Numeric sensors and the weather are left out
unless ENTITY_PART names them.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
import sys

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmark_replay.home.effects import Change
from benchmark_replay.home.scenario import load_scenario
from benchmark_replay.home.timeline import build_plan


def main(argv: list[str]) -> int:
    if len(argv) < 3:
        print(__doc__)
        return 2
    scenario = load_scenario(Path(argv[0]))
    plan = build_plan(scenario)
    start, end = datetime.fromisoformat(argv[1]), datetime.fromisoformat(argv[2])
    part = argv[3] if len(argv) > 3 else ""
    for step in plan.steps:
        if not isinstance(step, Change) or not start <= step.when <= end:
            continue
        if part not in step.entity_id:
            continue
        if not part and step.entity_id.startswith(("sensor.", "weather.")):
            continue
        local = step.when.astimezone(scenario.tz)  # the home's own clock
        print(local.strftime("%m-%d %a %H:%M:%S"), step.entity_id, step.state)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
