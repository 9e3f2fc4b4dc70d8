"""What a sign of somebody (a motion or occupancy sensor, an opening) teaches the home's baselines.

Split from ``home_baselines`` (one concept per file): ``HomeBaselines._observe`` keeps the
change's bookkeeping and hands each sign of a person here, to the learners that read signs
(rooms' quiets, beds, door trips, away, untracked life, activity, uses from inside).
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from ..home import OCCUPANCY_DEVICE_CLASSES, OPENING_DEVICE_CLASSES
from .bed_exits import BED_CLASSES
from .inner_signs import note_use
from .use_learning import LOCK_STATES
from .ways_in import ENTRY_COVER_CLASSES

if TYPE_CHECKING:
    from .home_baselines import HomeBaselines


def learn_sign(
    home: HomeBaselines,
    change: tuple[str, datetime, str, str | None],
    area: str | None,
    domain: str,
    device_class: str | None,
    *,
    maybe_home: bool,
) -> None:
    """Teach the sign learners one change ``(entity_id, when, state, previous)``; ``maybe_home``:
    the household is not known to be away."""
    entity_id, when, state, previous = change
    if domain == "binary_sensor" and device_class in OCCUPANCY_DEVICE_CLASSES:
        if device_class in BED_CLASSES and state in ("on", "off"):
            home.bed_exits.bed(when, entity_id, area, on=state == "on")
        if state == "on":
            home.bed_exits.sign(when, area)
            home.room_quiet.sign(when, area, maybe_home=maybe_home)
            if maybe_home:
                home.door_trips.sign(when, entity_id, state, door=False)
            home.away.moved(entity_id, when)
            home.untracked.moved(entity_id, when, empty=home.away.empty_at(when))
            home.lonely.moved(when)
            home.lonely.arrivals.moved(when, area)
        elif previous == "on":  # somebody was there until now, whoever is home
            home.room_quiet.seen(when, area)
            home.door_trips.stopped(when, entity_id)
            if device_class in BED_CLASSES and _lain_on(home, entity_id):
                home.away.got_up(entity_id, when)  # out of bed: somebody inside
        if state == "on" or previous == "on":  # movement starts, or was seen until now
            home.quiet.movement(when)
            home.left_lights.moved(when, area)
            home.rhythm.movement(when)
        if state == "on":
            home.activity.activity(when, area)
    elif domain == "binary_sensor" and device_class in OPENING_DEVICE_CLASSES:
        home.room_quiet.sign(when, area, maybe_home=maybe_home)
        home.bed_exits.sign(when, area)
        if maybe_home:
            seen = bool(area) and any(
                info.area == area and info.device_class in OCCUPANCY_DEVICE_CLASSES
                for info in home.infos.values()
            )
            home.door_trips.sign(
                when,
                entity_id,
                state,
                door=True,
                room_seen=seen,
                busy=_moving_beyond(home, area),
            )
        if state == "on":
            home.activity.activity(when, area)
            home.away.entered(entity_id, when)
            home.lonely.opened(entity_id, when)
            home.lonely.arrivals.opened(entity_id, when, area)
            home.inside.opened(entity_id, when, area)
        else:
            home.inside.closed(entity_id, when)
        note_use(home, entity_id, state, when)  # a use from inside: a sign, no entry
    elif (domain == "light" and previous is not None) or (
        domain == "lock" and state in LOCK_STATES and previous in LOCK_STATES
    ):
        home.activity.activity(when, area)
        if domain == "light":
            home.left_lights.light(entity_id, when, state, area)
        if domain == "lock" and state == "unlocked":
            home.away.entered(entity_id, when)
    elif domain == "cover" and device_class in ENTRY_COVER_CLASSES and state == "open":
        home.away.entered(entity_id, when)  # a garage or gate: a way in, as a door


def _lain_on(home: HomeBaselines, entity_id: str) -> bool:
    from .held_on import lain_on  # (it reads home_baselines)

    return lain_on(home, entity_id)


def _moving_beyond(home: HomeBaselines, area: str | None) -> frozenset[str]:
    """The motion sensors outside ``area`` that read on now (somebody moving there); a
    bed held on is somebody lying there, not moving (``held_on.lain_on``)."""
    from .held_on import lain_on  # (it reads home_baselines)

    return frozenset(
        entity_id
        for entity_id, state in home.states().items()
        if state == "on"
        and (info := home.infos.get(entity_id)) is not None
        and entity_id.startswith("binary_sensor.")
        and info.device_class in OCCUPANCY_DEVICE_CLASSES
        and (area is None or info.area != area)
        and not lain_on(home, entity_id)
    )
