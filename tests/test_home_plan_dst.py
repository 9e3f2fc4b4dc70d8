"""The home benchmark's plan across a daylight-saving change: in time order, real times."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest

from benchmark_replay.home.timeline import Change

from .home_scenario_builder import changes, exists_on_the_clock, local, plan_of

ZONE = "Europe/Amsterdam"


def _across(start: str) -> Any:
    def change(data: dict[str, Any]) -> None:
        data["start"] = start
        data["days"] = 4
        data["timezone"] = ZONE
        # Asleep at 02:30: on the spring night that time does not exist, in autumn twice.
        data["household"]["people"][0] = {
            "person": "sam",
            "weekdays": {"wake": "07:00", "leave": "12:30", "return": "13:30", "sleep": "02:30"},
            "jitter": 0,
        }
        data["noise"] = {}
        data["incidents"] = [
            {
                "id": "smoke_in_the_gap",
                "class": "smoke",
                "at": "day 3 02:30",  # 2026-03-29 02:30 does not exist in Amsterdam
                "duration": 10,
                "changes": [{"entity": "binary_sensor.kitchen_smoke", "state": "on"}],
                "expect": "notify",
                "evidence": ["binary_sensor.kitchen_smoke"],
            }
        ]
        data["feedback"] = []

    return change


@pytest.mark.parametrize("start", ["2026-03-27", "2026-10-23"])
def test_plan_across_a_clock_change_is_in_order_and_real(tmp_path: Path, start: str) -> None:
    """Seen: wall-clock arithmetic made 02:xx readings that do not exist and put the
    autumn's repeated hour out of order."""
    scenario, plan = plan_of(tmp_path, _across(start))
    stamps = [step.when.timestamp() for step in plan.steps]
    assert stamps == sorted(stamps)
    unreal = [s for s in plan.steps if not exists_on_the_clock(s.when, ZONE)]
    assert not unreal, unreal[:3]
    # The routine keeps to the home's clock on both sides of the change.
    left = [local(c.when, ZONE) for c in changes(plan, "person.sam", "not_home")]
    assert [(t.hour, t.minute) for t in left] == [(12, 33)] * 4
    assert [t.date() for t in left] == [
        date.fromisoformat(start) + timedelta(days=n) for n in range(4)
    ]
    # The weather reads on the hour, every hour, however long the day.
    weather = [s for s in plan.steps if isinstance(s, Change) and s.entity_id == "weather.home"]
    assert {local(c.when, ZONE).minute for c in weather} <= {0}
    hours = (plan.end - scenario.start) / timedelta(hours=1)
    assert hours == (95 if start.startswith("2026-03") else 97)
    assert local(plan.end, ZONE).hour == 0


def test_a_time_in_the_spring_gap_is_read_an_hour_later(tmp_path: Path) -> None:
    """``day 3 02:30`` on 2026-03-29 is 03:30 summer time, once and in order."""
    _, plan = plan_of(tmp_path, _across("2026-03-27"))
    (smoke, _) = changes(plan, "binary_sensor.kitchen_smoke")
    at = local(smoke.when, ZONE)
    assert (at.date(), at.hour, at.minute) == (date(2026, 3, 29), 3, 30)
