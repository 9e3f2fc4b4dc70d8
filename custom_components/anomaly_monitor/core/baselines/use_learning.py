"""How each device is used, learned from its real changes: the openings' and locks'
habits (``UsualUse``: bursts, open stays, nights, departures; ``StayHabits``: long stays
by hour and weekday).

``HomeBaselines`` feeds every real change of a device here once it knows it is nobody's
dropout (a device coming back is nobody's doing). A cover's opening, open and closing in
a row are one open stay, as a door contact's. Known by domain and device class; no word
of an id is read.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from ..home import OCCUPANCY_DEVICE_CLASSES, OPENING_DEVICE_CLASSES
from ..models import EntityInfo
from ..open_states import as_contact, is_opening
from ..statistics.toggles import storm_limits
from .durations import StateDurations
from .night_uses import coming_home
from .stay_habits import StayHabits
from .usual_use import UsualUse

LOCK_STATES = frozenset({"locked", "unlocked"})


def learn_use(
    usual: UsualUse,
    habits: StayHabits,
    change: tuple[str, datetime, str],
    *,
    device_class: str | None,
    previous: str | None,
    arrivals: Mapping[str, datetime] | None = None,
) -> None:
    """How the device is used (``UsualUse``): its bursts, open stays and nights, from
    one real ``change`` (entity, when, state). ``arrivals``: when each person last came
    home (a door opened just after is them coming in, ``night_uses``)."""
    entity_id, when, state = change
    domain = entity_id.partition(".")[0]
    limits = storm_limits(domain, device_class)
    sensor = domain == "binary_sensor"
    opening = is_opening(domain, device_class)  # a garage door cover too
    if opening:  # a cover's opening -> open -> closing is one open stay
        state = as_contact(domain, state) or state
        if previous is not None and as_contact(domain, previous) == state:
            return
        if state in ("on", "off"):
            habits.state(entity_id, state == "on", when)
    elif domain == "lock" and state in LOCK_STATES:
        habits.state(entity_id, state == "unlocked", when)
    usual.changed(
        entity_id,
        when,
        state,
        burst_gap=None if limits is None or previous is None else limits[1],
        opening=opening,
        night_use=opening or (sensor and device_class in OCCUPANCY_DEVICE_CLASSES),
        coming_in=opening and arrivals is not None and coming_home(arrivals, when),
    )


def open_now(durations: StateDurations, infos: Mapping[str, EntityInfo]) -> list[str]:
    """The opening sensors that read open now."""
    return [
        entity_id
        for entity_id, (state, _) in durations.current.items()
        if state == "on"
        and (info := infos.get(entity_id)) is not None
        and info.domain == "binary_sensor"
        and info.device_class in OPENING_DEVICE_CLASSES
    ]
