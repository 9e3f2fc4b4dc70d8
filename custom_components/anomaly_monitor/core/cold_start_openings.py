"""A garage door left open for hours is told even while its normal is still learned.

``learning_gate`` holds what the monitor finds about a device it has not learned yet: an
interior door that reads ``door`` may stand open for hours every day. A garage door or
gate (HA's ``garage_door`` contact, a ``garage``/``gate`` cover, or what the homeowner
said) is never an interior door: open for longer than an hour of everyday use
(``long_stays.FLOOR``), it is a home standing open, in the first days as in any other,
while it stands open (one shut again is no longer news that cannot wait). Known by the
domain, device class or the homeowner's role; no word of the id is read.

Nor is a door an interior one standing as it always does when the household went out by
it (opened and shut just before the home became empty) and it was opened in the empty
home since (by a child without a tracked phone coming home from school): open for longer
than that hour with still nobody home, nobody is there to close it
(``opened_in_empty_home``). A bedroom door opened by somebody the trackers do not know is
inside was not the way out: it waits.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from .baselines.clock import local
from .baselines.home_baselines import HomeBaselines
from .baselines.long_stays import FLOOR
from .baselines.open_at_rest import shut_through_a_night
from .baselines.stored_spell import SIGN
from .device_roles import Role, parse_role
from .models import EntityInfo, Finding
from .open_states import open_states
from .statistics.durations import ENTRY_OPEN_LIMIT
from .statistics.night import SMALL_HOURS_END, SMALL_HOURS_START

LEFT_OPEN_RULES = frozenset({"entry_left_open", "state_longer_than_usual"})
# A door opened in the small hours and standing open this long, nothing moving since. In a
# home with nothing learned the finding that tells it (``entry_left_open``) exists only
# from ``ENTRY_OPEN_LIMIT`` on: told then (``night_door_due``), not at this mark.
NIGHT_OPEN = timedelta(minutes=10)
# A door shut this long before it opened was kept shut (the front door since the last one
# came home); one that rests open is shut only for the minutes of a use (a bathroom's).
SHUT_BEFORE = timedelta(minutes=15)
# Who opened it is seen by a sensor on the way through (the porch, the carport): not
# somebody moving back inside.
ON_THE_WAY = timedelta(minutes=1)


def is_garage_door(info: EntityInfo) -> bool:
    """A garage door or gate: by the homeowner's role, else the HA device class."""
    if (role := parse_role(info.role)) is not None:
        return role == Role.GARAGE_DOOR
    if info.domain == "binary_sensor":
        return info.device_class == "garage_door"
    return info.domain == "cover" and info.device_class in ("garage", "gate")


def opened_in_empty_home(finding: Finding, baselines: HomeBaselines, someone_home: bool) -> bool:
    """``finding`` tells a door opened since the home became empty, open for longer than an
    hour with nobody home."""
    if someone_home or finding.rule not in LEFT_OPEN_RULES or finding.magnitude is None:
        return False
    if finding.magnitude <= FLOOR.total_seconds() / 60:
        return False
    return any(baselines.usual.opened_while_empty(entity_id) for entity_id in finding.evidence)


def _open_now(baselines: HomeBaselines, info: EntityInfo) -> bool:
    """Whether the door reads open now, as the baselines last saw it."""
    current = baselines.durations.current.get(info.entity_id)
    return current is not None and current[0] in open_states(info.domain)


def garage_left_open(finding: Finding, baselines: HomeBaselines) -> bool:
    """``finding`` tells a garage door or gate open for longer than an hour, and open
    still: one shut again (the snow cleared, the car in) no longer stands open, and waits
    as anything else about a device not learned yet."""
    if finding.rule not in LEFT_OPEN_RULES or finding.magnitude is None:
        return False
    if finding.magnitude <= FLOOR.total_seconds() / 60:
        return False
    infos = baselines.infos
    return any(
        (info := infos.get(entity_id)) is not None
        and is_garage_door(info)
        and _open_now(baselines, info)
        for entity_id in finding.evidence
    )


def _kept_shut(baselines: HomeBaselines, door: str, opened: datetime) -> bool:
    """The door was kept shut before it opened: shut ``SHUT_BEFORE`` and more until then, or
    (that stay unknown after a restart) shut through a night learned."""
    last = baselines.durations.last_stay.get(door)
    if last is not None and last[2] == opened:
        return last[0].lower() in ("off", "closed") and last[2] - last[1] >= SHUT_BEFORE
    return shut_through_a_night(baselines, door)


def left_open_in_the_night(
    finding: Finding, baselines: HomeBaselines, now: datetime, someone_home: bool
) -> bool:
    """``finding`` tells a door (not a window) opened in the small hours while somebody is
    home, open ``NIGHT_OPEN`` and more with no motion seen since (the away spell's record
    keeps the signs of its lead even while somebody is home)."""
    if not someone_home or finding.rule not in LEFT_OPEN_RULES:
        return False
    infos, signs = baselines.infos, baselines.away.spell
    for entity_id in finding.evidence:
        info = infos.get(entity_id)
        if info is None or info.device_class == "window" or not _open_now(baselines, info):
            continue
        opened = baselines.durations.current[entity_id][1]
        hour = local(opened, baselines.zone).hour
        if not SMALL_HOURS_START <= hour < SMALL_HOURS_END or now - opened < NIGHT_OPEN:
            continue
        if not _kept_shut(baselines, entity_id, opened):
            continue  # a bathroom door that rests open, opened again after a night trip
        if not signs or signs[0][0] > opened:
            continue  # the record does not reach back to the opening: not known
        if not any(opened + ON_THE_WAY < when <= now and kind == SIGN for when, _, kind in signs):
            return True
    return False


def night_door_due(baselines: HomeBaselines | None, now: datetime) -> datetime | None:
    """When a door opened in the small hours while somebody is home, still being learned
    and kept shut before, will have stood open long enough to be found left open: the
    glue analyses again then, so it is told at that moment live and in a replay (not at
    the next periodic analysis, up to a quarter of an hour on: walk 30's front door)."""
    if baselines is None or baselines.away.empty_since is not None:
        return None
    wait = max(NIGHT_OPEN, ENTRY_OPEN_LIMIT)
    due: list[datetime] = []
    for entity_id, (state, since) in baselines.durations.current.items():
        info = baselines.infos.get(entity_id)
        if info is None or info.device_class == "window" or now >= since + wait:
            continue
        if state.lower() not in open_states(info.domain) or not baselines.learning(entity_id, now):
            continue
        hour = local(since, baselines.zone).hour
        if SMALL_HOURS_START <= hour < SMALL_HOURS_END and _kept_shut(baselines, entity_id, since):
            due.append(since + wait)
    return min(due, default=None)
