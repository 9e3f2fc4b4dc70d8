"""Small scenarios for the home benchmark's plan tests: the short test flat, changed."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import yaml

from benchmark_replay.home.scenario import Scenario, load_scenario
from benchmark_replay.home.timeline import Change, Plan, build_plan

FIXTURE = Path(__file__).parent / "fixtures" / "home" / "short_home.yaml"


def short_home() -> dict[str, Any]:
    """The two-day test flat as a mapping to change."""
    data: dict[str, Any] = yaml.safe_load(FIXTURE.read_text())
    return data


def write(tmp_path: Path, data: dict[str, Any], name: str = "home.yaml") -> Path:
    """The mapping as a scenario file."""
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False))
    return path


def plan_of(tmp_path: Path, change: Callable[[dict[str, Any]], None]) -> tuple[Scenario, Plan]:
    """Load the short flat with ``change`` applied and build its plan."""
    data = short_home()
    change(data)
    scenario = load_scenario(write(tmp_path, data))
    return scenario, build_plan(scenario)


def changes(plan: Plan, entity_id: str, state: str | None = None) -> list[Change]:
    """The plan's changes of one entity (to one state)."""
    return [
        s
        for s in plan.steps
        if isinstance(s, Change)
        and s.entity_id == entity_id
        and (state is None or s.state == state)
    ]


def local(moment: datetime, zone: str) -> datetime:
    """A moment on the home's clock."""
    return moment.astimezone(ZoneInfo(zone))


def exists_on_the_clock(moment: datetime, zone: str) -> bool:
    """Is the moment's wall-clock reading one the home's clock really shows?

    A reading in the spring gap (02:30 on the change's night) turns into another one when
    it goes to UTC and back.
    """
    tz = ZoneInfo(zone)
    wall = moment if moment.tzinfo is tz else moment.astimezone(tz)
    back = wall.astimezone(UTC).astimezone(tz)
    return back.replace(tzinfo=None) == wall.replace(tzinfo=None)
