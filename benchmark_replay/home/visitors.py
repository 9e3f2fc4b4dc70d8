"""Visitors: untracked people at regular times (a carer, a cleaner, a dog-sitter).

They have no person or tracker and come whether or not the household is home: on each
of their days they arrive around ``at`` (unlocking and opening the door as the household
does), stay a while, move about (the first ``motion`` sensor sees them step in and go
out, in between each fires at ``motion_per_hour``), and leave the same way. Each visitor
draws from its own random stream. Pure Python (no Home Assistant).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
import random
from typing import Any

from .effects import Change, Effects, entrance, poisson_motion
from .presence import Interval, jitter_offset
from .scenario import Scenario

STEP_IN = timedelta(seconds=40)  # after the door opens, the first sensor sees them
STEP_IN_CLEARS = timedelta(minutes=3)
WAY_OUT = timedelta(minutes=1)  # and again on their way out, as the household's leaving


def visitor_changes(scenario: Scenario) -> list[Change]:
    """Every visit's changes over the run (source ``visitor``), in time order."""
    out = Effects()
    for index, visitor in enumerate(scenario.data["household"]["visitors"]):
        rng = random.Random(f"{scenario.data['seed']}-visitors-{index}")
        for day in scenario.dates(visitor["days"]):
            arrive = scenario.local(day, visitor["at"]) + jitter_offset(rng, visitor["jitter"])
            leave = arrive + timedelta(minutes=rng.uniform(*visitor["stay"]))
            _visit(visitor, Interval(arrive, leave), out, rng)
    changes = [Change(c.when, c.entity_id, c.state, c.attributes, "visitor") for c in out.changes]
    return sorted(changes, key=lambda c: c.when)


def _visit(visitor: Mapping[str, Any], stay: Interval, out: Effects, rng: random.Random) -> None:
    door = {k: visitor[k] for k in ("door", "lock") if k in visitor}
    if "door" in door:
        entrance(door, stay.start, out)
        entrance(door, stay.end, out)
    sensors = visitor["motion"]
    if not sensors:
        return
    out.add(stay.start + STEP_IN, sensors[0], "on")
    out.add(stay.start + STEP_IN + STEP_IN_CLEARS, sensors[0], "off")
    inside = Interval(stay.start + STEP_IN + STEP_IN_CLEARS, stay.end - WAY_OUT)
    for sensor in sensors:
        poisson_motion(sensor, [inside], visitor["motion_per_hour"], out, rng)
    out.add(stay.end - WAY_OUT, sensors[0], "on")
    out.add(stay.end + WAY_OUT, sensors[0], "off")
