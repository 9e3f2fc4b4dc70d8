"""The blind homes (benchmark_replay/home/blind*/) stay valid as the format evolves.

They are held-out test sets: these tests check only that they load, plan and say what they
are, never what the monitor makes of them.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from benchmark_replay.home.scenario import load_scenario
from benchmark_replay.home.timeline import Change, build_plan

HOME = Path(__file__).parent.parent / "benchmark_replay" / "home"
# Each held-out folder and how many homes it holds.
SETS = {
    HOME / "blind": 4,
    HOME / "blind2": 3,
    HOME / "blind3": 4,
    HOME / "blind5": 4,
    HOME / "blind6": 4,
    HOME / "blind7": 4,
}
HOMES = sorted(path for folder in SETS for path in folder.glob("*.yaml"))


@pytest.mark.parametrize("folder", sorted(SETS), ids=lambda p: p.name)
def test_blind_set_has_its_homes_and_a_readme_that_names_them(folder: Path) -> None:
    """Each set has its homes, each named in its README, which forbids tuning on them."""
    homes = sorted(folder.glob("*.yaml"))
    assert len(homes) == SETS[folder]
    readme = (folder / "README.md").read_text(encoding="utf-8")
    assert "Do not tune detection on these homes" in readme
    for path in homes:
        assert path.name in readme


@pytest.mark.parametrize("path", HOMES, ids=lambda p: f"{p.parent.name}/{p.stem}")
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


@pytest.mark.parametrize("path", sorted((HOME / "blind2").glob("*.yaml")), ids=lambda p: p.stem)
def test_blind2_home_has_safety_feedback_and_late_feedback(path: Path) -> None:
    """The second set's brief: safety incidents, both kinds of feedback, some given hours
    after the incident ended, and untracked people (visitors)."""
    scenario = load_scenario(path)
    plan = build_plan(scenario)
    spans = {span.id: span for span in plan.incidents}
    safety = [s for s in spans.values() if s.spec["class"] in ("smoke", "carbon_monoxide", "leak")]
    assert safety
    actions = {item["action"] for item in scenario.data["feedback"]}
    assert {"acknowledge", "false_alarm"} <= actions
    late = [
        item
        for item in scenario.data["feedback"]
        if scenario.at(item["at"]) - spans[item["incident"]].end > timedelta(hours=1)
    ]
    assert late, "some feedback is given hours after the incident"
    visits = [s for s in plan.steps if isinstance(s, Change) and s.source == "visitor"]
    assert visits, "somebody without a tracker comes in"
