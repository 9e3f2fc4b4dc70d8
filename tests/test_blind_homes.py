"""The blind homes (benchmark_replay/home/blind/) stay valid as the scenario format evolves.

They are a held-out test set: these tests check only that they load, plan and say what they
are, never what the monitor makes of them.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from benchmark_replay.home.scenario import load_scenario
from benchmark_replay.home.timeline import Change, build_plan

BLIND = Path(__file__).parent.parent / "benchmark_replay" / "home" / "blind"
HOMES = sorted(BLIND.glob("*.yaml"))


def test_four_blind_homes_and_a_readme_that_names_them() -> None:
    """Four homes, each named in the README, which forbids tuning on them."""
    assert len(HOMES) == 4
    readme = (BLIND / "README.md").read_text(encoding="utf-8")
    assert "Do not tune detection on these homes" in readme
    for path in HOMES:
        assert path.name in readme


@pytest.mark.parametrize("path", HOMES, ids=lambda p: p.stem)
def test_blind_home_plans_in_time_order(path: Path) -> None:
    """Each home loads, its plan is in time order from start to end, every incident is in
    the run, and each has something to tell, something to keep quiet and an either case."""
    scenario = load_scenario(path)
    plan = build_plan(scenario)
    moments = [step.when for step in plan.steps]
    assert moments == sorted(moments)
    assert moments[0] >= scenario.start
    assert moments[-1] < scenario.start + timedelta(days=scenario.days + 1)
    assert plan.stats["skipped_incidents"] == 0
    expects = {i["expect"] for i in scenario.data["incidents"]}
    assert expects == {"notify", "quiet", "either"}
    habit_changes = [s for s in plan.steps if isinstance(s, Change) and s.source == "habit"]
    assert habit_changes, "a lived-in home has habits"
