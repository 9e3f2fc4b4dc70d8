"""Cooking appliances running while nobody moves: what both cooker checks start from.

``cooking_at_an_unusual_hour`` and ``cooker_left_on`` ask the same first question: which
cooking appliances (``device_roles``: the homeowner, its name as a hint) have drawn power
for at least a while, with someone home and no motion sensor seeing anybody for a while
(in the window, and the last movement the baselines learned beyond it; a bed sensor held
on is somebody in bed: ``held_on``). A meter drawing without a rest for a day and more
(``steady_load_stopped.MIN_STEADY``) is no cooker's, whatever its name says: no meal
cooks through a day and a night, and a cooker left on was told in its first hours (set 27:
an oil space heater on a plug named a stove, drawing for days, told as a cooker left
on six times).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from ..device_roles import Role, has_role
from ..home import OCCUPANCY_DEVICE_CLASSES, HomeView, is_unavailable
from ..models import EntityState
from ..occupancy import Occupancy
from ..statistics.timeline import turned
from .held_on import moving_now
from .home_baselines import HomeBaselines
from .power import RUNNING
from .steady_load_stopped import MIN_STEADY


def unattended_cookers(
    home: HomeView, baselines: HomeBaselines, min_run: timedelta, still: timedelta
) -> tuple[list[EntityState], datetime] | None:
    """(the cooking meters running for ``min_run``, the last movement) when someone is home
    and nobody has moved for ``still``; None otherwise."""
    if home.occupancy is not Occupancy.OCCUPIED:
        return None
    now, running = home.end, baselines.durations.current
    meters = [
        m
        for m in running_for(home, baselines, min_run)
        if now - running[m.entity_id][1] < MIN_STEADY  # a steady load, not a meal
    ]
    # The roles are asked last: the first to ask pays for every device's.
    meters = [m for m in meters if has_role(home, m.entity_id, Role.COOKING_APPLIANCE)]
    if not meters:
        return None
    moved = household_still(home, baselines, still)
    return None if moved is None else (meters, moved)


def running_for(home: HomeView, baselines: HomeBaselines, min_run: timedelta) -> list[EntityState]:
    """The power meters running (``power.RUNNING``) for at least ``min_run``."""
    now, running = home.end, baselines.durations.current
    return [
        m
        for m in home.of("sensor", "power")
        if (spell := running.get(m.entity_id)) is not None
        and spell[0] == RUNNING
        and now - spell[1] >= min_run
    ]


def household_still(
    home: HomeView, baselines: HomeBaselines, still: timedelta, *, empty_too: bool = False
) -> datetime | None:
    """The last movement, when someone is home and no motion sensor has seen anybody for
    ``still`` (a bed sensor held on is somebody in bed); None otherwise. ``empty_too``:
    or everybody tracked is away (nobody there to mind anything, or nobody moving)."""
    if home.occupancy is not Occupancy.OCCUPIED and not (
        empty_too and home.occupancy is Occupancy.EMPTY
    ):
        return None
    now = home.end
    motion = [
        s for s in home.of("binary_sensor", *OCCUPANCY_DEVICE_CLASSES) if not is_unavailable(s)
    ]
    if not motion or any(moving_now(home, baselines, s) for s in motion):
        return None
    if any(when > now - still for s in motion for when in turned(home.changes(s.entity_id), "on")):
        return None
    moved = baselines.quiet.quiet_since  # the last movement learned (beyond the window too)
    if moved is None or now - moved < still:
        return None
    return moved
