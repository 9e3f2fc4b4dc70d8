"""Somebody went out at night, through a door this home never uses at night.

Someone home walks to an exterior door in the small hours (00-05 local) and opens it: a
motion sensor inside saw them on the way within ``ON_THE_WAY`` before the door opened, and
for ``GONE`` after it nothing moved inside and no person or tracker changed (somebody
coming home is seen inside at once; a phone that goes out with its owner leaves within
minutes). In a home where that door was not used in the small hours on any of the
``MIN_NIGHTS`` or more nights learned (``UsualUse``: nights of use per device), it is told
then: a person with dementia gone out in the night. A door used at night before (a shift
worker, a dog let out at night, a smoker) is this home's normal and is left alone. The
glue analyses again when such an opening can be judged (``night_opening_due``).

A phone or GPS watch that *leaves* home within ``PRESENCE_NEAR`` after such an opening,
with others still home, is who went out: no longer taken for the presence checks' (they
judge arrivals and an emptied home; issue 24: a wife with dementia out in the frost at
03:10, her watch leaving 6 min later, was never told). Before ``MIN_NIGHTS`` are learned
that departure is needed as well (few households go out in the small hours, and one
that does has learned it within the week).

An exterior door is one the device roles call so (``device_roles.is_entry``: its device
class or the homeowner), or an opening sensor in the same area as a lock: a door with a
lock is a way in; a garage door, gate or door cover (a motorised opener) is one too
(``open_states``: its ``open`` reads as a contact's ``on``). No word of an id or a name
is read here.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta, tzinfo

from ..device_roles import is_entry
from ..finding_kind import FindingKind
from ..home import OCCUPANCY_DEVICE_CLASSES, HomeView
from ..models import AnomalyType, EntityState, Finding, Severity, Transition
from ..occupancy import Occupancy, presence_of
from ..open_states import opened_at, openings_of
from ..statistics.night import SMALL_HOURS_END, SMALL_HOURS_START
from ..statistics.timeline import turned
from .asleep_way_out import asleep_at, unused_way_out
from .clock import local
from .home_baselines import HomeBaselines

# Nights the door must have been watched, unused at night, before its night use is news.
MIN_NIGHTS = 5
# A person inside shows on a motion sensor this long before opening the door.
ON_THE_WAY = timedelta(minutes=3)
# Nobody moved inside for this long after the door opened, and no phone left with them:
# they went out (somebody coming in is seen inside at once, a phone leaves in minutes).
GONE = timedelta(minutes=5)
# A night-time opening stays told this long (the person may still be out).
TOLD_FOR = timedelta(hours=1)
# A person or tracker changing this close to the opening: somebody arriving or leaving
# with their phone, which the presence checks judge.
PRESENCE_NEAR = timedelta(minutes=15)


# Covers that are a way in or out by what they are (a window cover is not).
_WAY_OUT_COVERS = frozenset({"door", "garage", "gate"})


def is_exterior(home: HomeView, door: EntityState, locks: list[str]) -> bool:
    """An exterior door: its role says so, it is a door with a lock in its area, or a
    door, garage door or gate cover."""
    if door.domain == "cover" and door.info.device_class in _WAY_OUT_COVERS:
        return True
    return bool(locks and door.info.device_class in ("door", "opening")) or is_entry(
        home, door.entity_id
    )


def locks_by_area(home: HomeView) -> dict[str, list[str]]:
    locks: dict[str, list[str]] = {}
    for lock in home.of("lock"):
        if lock.info.area:
            locks.setdefault(lock.info.area, []).append(lock.entity_id)
    return locks


def motion_onsets(home: HomeView) -> list[datetime]:
    """When any motion or occupancy sensor of the window saw somebody, in time order."""
    return sorted(
        when
        for sensor in home.of("binary_sensor", *OCCUPANCY_DEVICE_CLASSES)
        for when in turned(home.changes(sensor.entity_id), "on")
    )


def _presence_changed_near(home: HomeView, when: datetime, now: datetime) -> bool:
    """Somebody arrived near the opening, or left before it: the presence checks'."""
    return any(
        when - PRESENCE_NEAR <= change.when <= now and not _left_after(change, when)
        for state in home.presence_entities
        for change in home.changes(state.entity_id)
    )


def _left_after(change: Transition, opened: datetime) -> bool:
    """A person or tracker that left home after the door opened: who went out."""
    return change.when >= opened and presence_of(change.state) is False


def _went_out(home: HomeView, opened: datetime) -> list[str]:
    """The persons and trackers that left within ``PRESENCE_NEAR`` after the opening."""
    return sorted(
        state.entity_id
        for state in home.presence_entities
        if any(
            _left_after(change, opened) and change.when <= opened + PRESENCE_NEAR
            for change in home.changes(state.entity_id)
        )
        and presence_of(state.state) is False
    )


def night_opening_due(home: HomeView, zone: tzinfo | None) -> datetime | None:
    """When a door opened in the small hours less than ``GONE`` ago can be judged: the
    glue analyses again then (the next periodic analysis may be a quarter of an hour on)."""
    now = home.end
    due = [
        when + GONE
        for door in openings_of(home)
        for when in opened_at(home.changes(door.entity_id), door.domain)
        if now - GONE < when <= now
        and SMALL_HOURS_START <= local(when, zone).hour < SMALL_HOURS_END
    ]
    return min(due, default=None)


WENT_OUT_AT_NIGHT = FindingKind("went_out_at_night", AnomalyType.SECURITY, Severity.HIGH)


def went_out_at_night(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """An exterior door opened from inside in the small hours, never used then here.

    Magnitude: minutes since the door opened.
    """
    if home.occupancy is not Occupancy.OCCUPIED:
        return
    now = home.end
    zone = baselines.zone
    hour = local(now, zone).hour
    if not SMALL_HOURS_START <= hour < SMALL_HOURS_END and hour != SMALL_HOURS_END:
        return  # nothing opened in the small hours within the last hour
    onsets: list[datetime] | None = None
    by_area = locks_by_area(home)
    for door in openings_of(home):
        openings = [
            when
            for when in opened_at(home.changes(door.entity_id), door.domain)
            if now - TOLD_FOR <= when <= now
            and SMALL_HOURS_START <= local(when, zone).hour < SMALL_HOURS_END
        ]
        locks = sorted(by_area.get(door.info.area or "", []))
        if not openings or not is_exterior(home, door, locks):
            continue
        usual = baselines.usual
        if usual.taught_value(door.entity_id, "night") is not None:
            continue  # the homeowner said night use is normal here
        watched = usual.nights_watched(door.entity_id, openings[0])
        if usual.nights_used(door.entity_id, skip=openings[0]) > 0:
            continue
        if onsets is None:
            onsets = motion_onsets(home)
        learned = watched >= MIN_NIGHTS
        # While the household sleeps, walking to a way nobody takes now is the news.
        asleep = [
            when
            for when in openings
            if any(when - ON_THE_WAY <= t <= when for t in onsets)
            and asleep_at(home, baselines, when - ON_THE_WAY)
            and unused_way_out(home, baselines, door, when, locks, learned=learned)
        ]
        if not learned and not asleep and not _went_out(home, openings[0]):
            continue  # before the nights are learned: only when a phone or watch left too
        gone = asleep or [
            when
            for when in openings
            if now - when >= GONE
            and any(when - ON_THE_WAY <= t <= when for t in onsets)
            and not any(when < t <= now for t in onsets)
        ]
        if not gone or _presence_changed_near(home, gone[0], now):
            continue
        opened = gone[0]
        left = _went_out(home, opened)
        normal = (
            f"in this home it was not used between midnight and 5 am on any of the {watched} "
            "nights learned"
            if learned
            else "few households go out between midnight and 5 am"
        ) + (", and the household was asleep" if asleep else "")
        who = f" {', '.join(left)} left home since." if left else ""
        yield WENT_OUT_AT_NIGHT.finding(
            evidence=(door.entity_id, *locks),
            reasoning=f"{door.entity_id} was opened from inside at "
            f"{local(opened, zone):%H:%M}, with the household at home; {normal}.{who}",
            recommendation="Check that everybody is in, and the door is shut and locked.",
            magnitude=round((now - opened).total_seconds() / 60, 1),
        )
