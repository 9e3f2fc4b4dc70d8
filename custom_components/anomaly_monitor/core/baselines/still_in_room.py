"""Somebody last seen in a room, and nothing anywhere since, far longer than ever here.

A fall behind the bathroom door: the door closed with the motion inside, the motion went
off and nothing in the home has shown anybody since. ``no_movement_while_home`` judges the
whole home's stillness by the hour (and waits hours: a home is still for hours every
night); this judges it by the room the last sign of somebody was in (``RoomQuiet``: how
long this home stayed quiet after a sign there, at this quarter of the day). The bathroom
is left within minutes, so a quiet of an hour after it is far longer than ever; the
bedroom at night is the night, and is never told here.

Told (safety hazard, high: a person who may have fallen; one incident with the other
stillness rules, ``core/stillness.py``) when someone is home (HA's persons), nothing reads
movement now (a motion sensor on: relatives in the patio while the last door closed was the
street's; ``held_on``: a bed held on is somebody lying there, not moving; ``held_past``: a
sensor held far past its own stays, nobody else seen, is somebody there, not moving; the
place's own stays then judge it, when sooner), nobody came or
went since the last sign, the room keeps them (its door closed behind them and they were
seen inside after, ``shut_in.py``: elsewhere the last room seen says little of where a
still person is, and rooms without a door told many false alarms), and the quiet is
longer than ``far_past`` the learned longest (1.5 times it, at least 20 min more) and never under
``MIN_LIMIT``. A quiet over the hours the home rests at is bedtime, wherever somebody was
last seen: judged only when it began on a trip out of the rest (``judged_by_room``).
Nothing is told while the room's quarter is not learned (``room_quiet.MIN_QUIETS`` quiets
on ``MIN_DAYS`` days): no fixed prior, the whole-home rule covers a new install. The glue
analyses again when the limit is passed (``still_in_room_due``): told within a minute or
two of it.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import NamedTuple

from ..finding_kind import FindingKind
from ..home import OCCUPANCY_DEVICE_CLASSES, OPENING_DEVICE_CLASSES, HomeView, is_unavailable
from ..models import HOME_SUBJECT, AnomalyType, EntityState, Finding, Severity
from ..occupancy import Occupancy
from ..statistics.timeline import real_changes
from .clock import local, next_hour
from .held_on import moving_now
from .held_past import HeldStay, far_past, held_in, held_past_its_stays
from .home_baselines import HomeBaselines
from .long_stays import duration_text, stay_since
from .room_quiet import QUARTER_HOURS, LearnedQuiet
from .shut_in import shut_in, window_signs

# The quiet must pass the learned longest by a clear margin (``held_past.far_past``: a
# bathroom's 10 min is not told at 15; a held sensor is read by the same), and never less
# than this.
MIN_LIMIT = timedelta(minutes=40)
# Hours at which this home is usually still this long (``QuietSpells``) are its rest: a
# quiet that begins then is somebody going to bed wherever they were last seen, judged only
# when it began on a trip out of the rest (within ``TRIP`` of the rest's end: the toilet
# at night, and back to bed would be seen).
RESTING = timedelta(hours=1)
TRIP = timedelta(minutes=20)
# Before those hours are learned: the night is the rest (a prior).
NIGHT_HOURS = frozenset({22, 23, 0, 1, 2, 3, 4, 5})
_QUARTER_WORDS = ("at night", "in the morning", "in the afternoon", "in the evening")


class RoomStill(NamedTuple):
    """The last sign of somebody, where, and how long a quiet after it may last."""

    since: datetime
    area: str
    limit: timedelta
    learned: LearnedQuiet
    held: HeldStay | None = None  # the place's own stays judged it (``held_past``)


def room_still(home: HomeView, baselines: HomeBaselines) -> RoomStill | None:
    """Where somebody was last seen and the limit of the quiet since; None when nobody is
    home, somebody came or went since, or the room's quarter is not learned."""
    if home.occupancy is not Occupancy.OCCUPIED or baselines.quiet.occupied is False:
        return None
    if any(
        moving_now(home, baselines, sensor) and not _held_past(home, baselines, sensor)
        for sensor in home.of("binary_sensor", *OCCUPANCY_DEVICE_CLASSES)
        if not is_unavailable(sensor)
    ):
        return None  # a motion sensor sees somebody now: the home is not still
    last = baselines.room_quiet.last
    signs = window_signs(home)
    if signs and (last is None or signs[-1][0] > last[0]):
        last = signs[-1]  # the baselines have not learned the window's end yet
    if last is None:
        return None
    since, area = last
    for person in home.presence_entities:
        if any(change.when > since for change in real_changes(home, person.entity_id)):
            return None  # an arrival or a departure: nobody is shut in
    if not shut_in(home, area):
        return None
    learned = baselines.room_quiet.learned(area, since)
    if learned is None:
        return None
    limit = max(MIN_LIMIT, far_past(learned.longest))
    held = held_in(home, baselines, area, since)
    if held is not None and (own := held.since + held.limit - since) < limit:  # sooner
        return RoomStill(since, area, own, learned, held)
    return RoomStill(since, area, limit, learned)


def _held_past(home: HomeView, baselines: HomeBaselines, sensor: EntityState) -> bool:
    """``sensor`` held on far past its stays, nobody else seen since (``held_past``):
    somebody there, not moving; judged only if its room keeps them (``shut_in``)."""
    since = stay_since(home, baselines, sensor)
    return since is not None and held_past_its_stays(home, baselines, sensor, since)


def judged_by_room(home: HomeView, baselines: HomeBaselines, since: datetime, at: datetime) -> bool:
    """Whether a quiet from ``since`` to ``at`` is judged by its room: not when it covers
    hours this home rests at (it may be bedtime wherever they were last seen), unless it
    began on a trip out of a rest."""
    ended = baselines.room_quiet.rest_ended
    if ended is not None and ended <= since <= ended + TRIP:
        return True
    return not resting_hours(home, baselines, since, at)


def resting_hours(home: HomeView, baselines: HomeBaselines, since: datetime, at: datetime) -> bool:
    """Whether the hours from ``since`` to ``at`` include hours this home rests at (its
    usual longest quiet then is ``RESTING`` or more; before they are learned, the night)."""
    usual = baselines.quiet.typical_over(since, at)
    if usual is not None:
        return timedelta(minutes=usual) >= RESTING
    slot = local(since, home.env.zone).replace(minute=0, second=0, microsecond=0)
    stop = local(at, home.env.zone)
    hours: set[int] = set()
    while slot <= stop and len(hours) < 24:
        hours.add(slot.hour)
        slot = next_hour(slot)
    return bool(hours & NIGHT_HOURS)


def still_in_room_due(home: HomeView, baselines: HomeBaselines | None) -> datetime | None:
    """When the quiet since the last sign passes its limit, if that is still ahead and it
    will be judged then."""
    if baselines is None:
        return None
    still = room_still(home, baselines)
    if still is None:
        return None
    due = still.since + still.limit
    if due <= home.end or not judged_by_room(home, baselines, still.since, due):
        return None
    return due


STILL_IN_ROOM = FindingKind("still_in_room_far_longer", AnomalyType.SAFETY_HAZARD, Severity.HIGH)


def still_in_room_far_longer(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """Nothing has shown anybody since a sign in a room, far longer than ever after one.

    Magnitude: minutes of quiet beyond the limit.
    """
    still = room_still(home, baselines)
    if still is None:
        return
    quiet = home.end - still.since
    if quiet <= still.limit or not judged_by_room(home, baselines, still.since, home.end):
        return
    area = still.area
    sensors = [
        s
        for s in home.of("binary_sensor", *OCCUPANCY_DEVICE_CLASSES, *OPENING_DEVICE_CLASSES)
        if s.info.area == area and not is_unavailable(s)
    ]
    if not any(s.info.device_class in OCCUPANCY_DEVICE_CLASSES for s in sensors):
        return  # nobody can be seen there: a door alone may be somebody who went out
    evidence = sorted(s.entity_id for s in sensors)
    since = local(still.since, home.env.zone)
    when = _QUARTER_WORDS[since.hour // QUARTER_HOURS]
    learned = still.learned
    judged = (
        f"{still.held.why()}."
        if still.held is not None
        else f"After somebody was in {area} {when}, this home was never quiet for longer "
        f"than {duration_text(learned.longest)} ({learned.quiets} times on {learned.days} days)."
    )
    yield STILL_IN_ROOM.finding(
        evidence=tuple(evidence),
        reasoning=f"Someone is home and was last seen in {area} {duration_text(quiet)} ago "
        f"(at {since:%H:%M}); nothing has moved anywhere since. {judged}",
        recommendation=f"Check on the person in {area}: they may have fallen or be unwell.",
        magnitude=round((quiet - still.limit).total_seconds() / 60, 1),
        subject=HOME_SUBJECT,
    )
