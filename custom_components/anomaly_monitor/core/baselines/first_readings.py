"""An entity's current state at set-up, unchanged since: what it teaches at once.

The recorder's history and the live stream teach by changes; an entity that has not changed
since set-up still says something: an opening that reads open is open (at a departure), a
power meter drawing steadily is running (its next stop is a run's end), a sensor's reading
holds from then on, and a room sensor not yet profiled has its first reading.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from ..home import OPENING_DEVICE_CLASSES
from ..models import parse_number
from .hour_profiles import PROFILED_CLASSES
from .power import RUNNING, power_state

if TYPE_CHECKING:
    from .home_baselines import HomeBaselines


def seed_first_reading(
    baselines: HomeBaselines,
    last_state: dict[str, str],
    entity_id: str,
    state: str,
    since: datetime,
) -> None:
    """The current state of an entity not yet seen changing (``last_state``: the
    baselines' remembered states, to tell a change from a repeat)."""
    info = baselines.infos.get(entity_id)
    if (
        info is not None
        and (info.domain, state) == ("binary_sensor", "on")
        and info.device_class in OPENING_DEVICE_CLASSES
        and entity_id not in last_state
    ):
        last_state[entity_id] = state
        watched = baselines.usual.since.get(entity_id, since)  # a stay from set-up on
        baselines.durations.current.setdefault(entity_id, (state, max(since, watched)))
    if (
        info is not None
        and (info.domain, info.device_class) == ("sensor", "power")
        and (number := parse_number(state)) is not None
    ):
        if power_state(number, info.unit) == RUNNING:
            baselines.meters.seed_run(entity_id, since)  # a meter drawing steadily, unchanged
        else:
            baselines.runs.seed_idle(entity_id)  # its next run's start will be known
    if info is not None and info.domain == "sensor" and (n := parse_number(state)) is not None:
        baselines.holds.seed(entity_id, n, since)  # unchanged since set-up: one hold
    if info is None or info.domain != "sensor" or info.device_class not in PROFILED_CLASSES:
        return
    if (number := parse_number(state)) is not None:
        baselines.profiles.seed(entity_id, number, since)
