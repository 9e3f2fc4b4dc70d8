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
03:10, her watch leaving 6 min later, was never told). While the household sleeps, a way out
unlocked from inside is told at once (``asleep_way_out``); before the door's nights are
learned, only where the profile or the options say somebody lives here without a tracked
phone (``lives_here_without_phone``: the child or grandparent who slips out at night has none; where
everybody carries one, whoever goes out takes it and its leaving tells, and the
household's own small-hours habits, a kolam drawn at the gate before dawn, a first
prayer at the mosque, are learned in those nights); one up a while before (``up_a_while``:
an early shift) once ``GONE`` shows whether a phone left. One who also locked the door
behind them (``_locked_behind``: the door shut, its lock locked after it and still) left
on purpose, with a phone and a key: a trotro driver off to his first run at 04:45, a
nurse to the early shift. Somebody who wanders out leaves it unlocked (or has no phone
that leaves). Before ``MIN_NIGHTS`` are learned
that departure is needed as well (few households go out in the small hours, and one
that does has learned it within the week). Nor is it needed when a second way out
(``_beyond``), watched ``FIRST_NIGHTS`` nights and never used at night either, opened
within ``BEYOND`` after the first with nobody seen inside between, both kept shut at
night here (``_kept_shut``: a bathroom door that rests open is no way out) and both still
open: the back door, then the garden gate, and nobody back to shut them. Somebody left
the property on foot (a child has no phone); an early leaver shuts the door behind them
and takes a phone, and a toilet trip through two inner doors is seen between them.

Who went out is read against their own nights too (``night_presence.never_out_at_night``):
a person watched five nights or more never out between 23:00 and 05:00 (nor back) and
whose phone leaves after the opening is told then, whatever the door's nights, whoever
still moves inside, and even with the door locked behind (a teenager out at 00:36 with her
phone and the key), from midnight to 04:00 (``night_presence``); one going out after one
so told, still out, goes after them (``out_before``). A door whose dawn use comes within
minutes is an early start (``early_start``). The door's nights read are its nights *out*
(``night_uses``): a door used at night only by people coming home says nothing of anybody
going out by it.

A door in the room of a hazard detector that sounded within ``ALARM_REACH`` before it
opened (``door_to_an_alarm``: a leak on the bathroom floor, smoke in the hall) is somebody
going to the alarm, not out: the alarm is told by itself, and the door that answers it is
no second notice (a bathroom door opened to a burst hose at 04:35 was told as a walk-out).

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
from ..models import AnomalyType, EntityState, Finding, Severity
from ..occupancy import Occupancy
from ..open_states import open_states, opened_at, openings_of, stands_open
from ..phoneless_residents import lives_here_without_phone
from ..statistics.night import SMALL_HOURS_END, SMALL_HOURS_START
from ..statistics.timeline import turned
from .asleep_way_out import asleep_at, unused_way_out, up_a_while
from .busy_room import busy_until
from .clock import local
from .door_to_an_alarm import to_an_alarm
from .early_start import early_start
from .home_awake import awake_until
from .home_baselines import HomeBaselines
from .night_presence import (
    children_of,
    never_out_at_night,
    out_before,
    presence_changed_near,
    went_out,
)
from .night_uses import PERSON_NIGHT_FROM
from .open_at_rest import shut_through_a_night

# Nights the door must have been watched, unused at night, before its night use is news.
MIN_NIGHTS = 5
# A person inside shows on a motion sensor this long before opening the door.
ON_THE_WAY = timedelta(minutes=3)
# Nobody moved inside for this long after the door opened, and no phone left with them:
# they went out (somebody coming in is seen inside at once, a phone leaves in minutes).
GONE = timedelta(minutes=5)
# A night-time opening stays told this long (the person may still be out).
TOLD_FOR = timedelta(hours=1)
# A motion sensor in the door's own room that first sees somebody this soon after the
# door opened saw the one going out through it (or a pet roused by the door), not
# somebody still moving inside.
THROUGH = timedelta(minutes=1)
# A second way out opened this soon after the first, nobody seen inside between: the
# same person went on through it (the back door, then the garden gate).
BEYOND = timedelta(minutes=5)
# Nights both ways must have been watched, unused at night, before two left open count.
FIRST_NIGHTS = 2


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
    if not SMALL_HOURS_START <= hour <= SMALL_HOURS_END:
        return  # nothing opened in the small hours within the last hour
    onsets: list[datetime] | None = None
    by_area = locks_by_area(home)
    unfollowed = lives_here_without_phone(home.window)
    children = children_of(home)
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
        # The home up and stirring all along: a party's guests coming and going (home_awake).
        openings = [when for when in openings if not awake_until(home, baselines, when)]
        if not openings:
            continue
        if to_an_alarm(home, door, openings[0]):
            continue  # somebody went to the alarm in that room (told by itself)
        usual = baselines.usual
        if usual.taught_value(door.entity_id, "night") is not None:
            continue  # the homeowner said night use is normal here
        watched = usual.nights_watched(door.entity_id, openings[0])
        # One who never goes out at night left by it: the door's own nights do not matter.
        left = went_out(home, openings[0])
        never_out = never_out_at_night(baselines, left, openings[0], children)
        door_used = usual.nights_used(door.entity_id, skip=openings[0], going_out=True) > 0
        if door_used and not never_out:
            continue
        if busy_until(home, baselines, openings[0]):
            continue  # people were up together until then: the evening ending (busy_room)
        if onsets is None:
            onsets = motion_onsets(home)
        learned = watched >= MIN_NIGHTS
        # While the household sleeps, walking to a way nobody takes now is the news (in
        # the first nights see the module: no phone here, and up a while: after ``GONE``).
        asleep = [
            when
            for when in openings
            if (learned or (unfollowed and (now - when >= GONE or not up_a_while(home, when))))
            and any(when - ON_THE_WAY <= t <= when for t in onsets)
            and asleep_at(home, baselines, when - ON_THE_WAY)
            and unused_way_out(home, baselines, door, when, locks, learned=learned)
        ]
        beyond = (
            []
            if learned or asleep or watched < FIRST_NIGHTS
            else _beyond(home, baselines, door, openings=openings, onsets=onsets, by_area=by_area)
        )
        if not learned and not asleep and not beyond and not went_out(home, openings[0]):
            continue  # before the nights are learned: a phone or watch left, or two ways open
        gone = asleep or [
            when
            for when in openings
            if now - when >= GONE
            and any(when - ON_THE_WAY <= t <= when for t in onsets)
            and not _moved_since(home, door, when, onsets)
        ]
        if not gone and never_out:
            gone = openings[:1]  # who went out is known, whoever still moves inside
        if not gone or presence_changed_near(home, gone[0], now):
            continue
        opened = gone[0]
        if not asleep and early_start(baselines, door.entity_id, opened):
            continue  # its dawn use comes within minutes: somebody off a little early
        left = went_out(home, opened)
        never_out = never_out_at_night(baselines, left, opened, children)
        if left and not never_out and _locked_behind(home, door, opened, locks):
            continue  # a tracked member off early with phone and key (the 04:45 shift)
        if left and set(out_before(home, baselines, opened, children)) - set(left):
            continue  # a tracked member going after one told as they went (``out_before``)
        normal = (
            f"in this home it was not used between midnight and 5 am on any of the {watched} "
            "nights learned"
            if learned and not door_used
            else "few households go out between midnight and 5 am"
        ) + (", and the household was asleep" if asleep else "")
        who = f" {', '.join(left)} left home since." if left else ""
        if never_out:
            who += (
                f" {', '.join(never_out)} was out alone between {PERSON_NIGHT_FROM}:00 and 5 am on "
                f"none of the {usual.nights_watched(never_out[0], opened)} nights learned."
            )
        if beyond:
            who += f" {', '.join(beyond)} was opened right after it; both stand open."
        on_the_way = _doors_on_the_way(home, door, opened, by_area)
        left_open = [other.entity_id for other in on_the_way if stands_open(other)]
        shut = [other.entity_id for other in on_the_way if not stands_open(other)]
        if shut:
            who += f" {', '.join(shut)} was opened just before it."
        if left_open:
            who += f" {', '.join(left_open)} was opened just before it and still stands open."
        yield WENT_OUT_AT_NIGHT.finding(
            evidence=(door.entity_id, *beyond, *locks, *left_open, *shut, *never_out),
            reasoning=f"{door.entity_id} was opened at {local(opened, zone):%H:%M}"
            f"{_after_motion(opened, onsets)}, with the household at home; {normal}.{who}",
            recommendation="Check that everybody is in, and the door is shut and locked.",
            magnitude=round((now - opened).total_seconds() / 60, 1),
        )


def _after_motion(opened: datetime, onsets: list[datetime]) -> str:
    """ ", just after motion inside" when something moved on the way to the door: what the
    sensors show, not who opened it (a dog's round before somebody came in from outside
    read "opened from inside": the lead's walk of session 48)."""
    return (
        ", just after motion inside"
        if any(opened - ON_THE_WAY <= t <= opened for t in onsets)
        else ""
    )


def _moved_since(
    home: HomeView, door: EntityState, opened: datetime, onsets: list[datetime]
) -> bool:
    """Somebody moved inside after ``door`` opened: an onset since, not the one going out
    through it (``_through_the_door``, read once per opening)."""
    later = [t for t in onsets if opened < t <= home.end]
    if not later:
        return False
    through = _through_the_door(home, door, opened)
    return any(t not in through for t in later)


def _through_the_door(home: HomeView, door: EntityState, opened: datetime) -> set[datetime]:
    """Onsets of the motion sensors in ``door``'s room within ``THROUGH`` after it opened:
    the one going out through it, seen at the door (see ``THROUGH``)."""
    if not door.info.area:
        return set()
    return {
        when
        for sensor in home.in_area(door.info.area)
        if sensor.domain == "binary_sensor" and sensor.info.device_class in OCCUPANCY_DEVICE_CLASSES
        for when in turned(home.changes(sensor.entity_id), "on")
        if opened < when <= opened + THROUGH
    }


def _locked_behind(home: HomeView, door: EntityState, opened: datetime, locks: list[str]) -> bool:
    """``door`` shut again after ``opened`` and stays shut, and a lock of its area locked
    after it shut and locked still: whoever went out locked it behind them with a key."""
    if stands_open(door) or not locks:
        return False
    open_now = open_states(door.domain)
    shut = [
        c.when
        for c in home.changes(door.entity_id)
        if c.when > opened and c.state.lower() not in open_now
    ]
    if not shut:
        return False
    for lock in locks:
        state = home.states.get(lock)
        if state is None or state.state.lower() != "locked":
            continue
        if any(c.when >= shut[-1] and c.state.lower() == "locked" for c in home.changes(lock)):
            return True
    return False


def _doors_on_the_way(
    home: HomeView, door: EntityState, opened: datetime, by_area: dict[str, list[str]]
) -> list[EntityState]:
    """Doors without a lock of their own opened within ``ON_THE_WAY`` before the way out:
    whoever went out came through them (her bedroom door). Named in the finding; one
    standing open since is part of the walk-out: a later finding that it stands open is
    the same incident, not news (``anomalies.told_device``)."""
    found: list[EntityState] = []
    for other in openings_of(home, "door"):
        if other.entity_id == door.entity_id or by_area.get(other.info.area or ""):
            continue  # a door with a lock is a way out of its own
        times = [t for t in opened_at(home.changes(other.entity_id), other.domain) if t <= opened]
        if times and opened - ON_THE_WAY <= times[-1]:
            found.append(other)
    return found


def _beyond(
    home: HomeView,
    baselines: HomeBaselines,
    door: EntityState,
    *,
    openings: list[datetime],
    onsets: list[datetime],
    by_area: dict[str, list[str]],
) -> list[str]:
    """Other ways out (in another area) opened within ``BEYOND`` after ``door`` with no
    motion inside between, never used at night on ``FIRST_NIGHTS`` or more nights, both
    still standing open (see the module)."""
    if not stands_open(door) or not _kept_shut(baselines, door.entity_id):
        return []
    zone, usual = baselines.zone, baselines.usual
    found: list[str] = []
    for other in openings_of(home):
        if other.entity_id == door.entity_id or other.info.area == door.info.area:
            continue
        if not stands_open(other) or usual.taught_value(other.entity_id, "night") is not None:
            continue
        if not _kept_shut(baselines, other.entity_id):
            continue  # a door this home leaves open (a bathroom's) is no way out kept shut
        locks = sorted(by_area.get(other.info.area or "", []))
        if not is_exterior(home, other, locks):
            continue
        later = [
            (first, then)
            for then in opened_at(home.changes(other.entity_id), other.domain)
            for first in openings
            if first < then <= first + BEYOND
            and SMALL_HOURS_START <= local(then, zone).hour < SMALL_HOURS_END
            and not any(first < t <= then for t in onsets)
        ]
        if not later or usual.nights_used(other.entity_id, skip=later[0][1]) > 0:
            continue
        if usual.nights_watched(other.entity_id, later[0][1]) >= FIRST_NIGHTS:
            found.append(other.entity_id)
    return found


def _kept_shut(baselines: HomeBaselines, entity_id: str) -> bool:
    """Kept shut at night here: a shut stay learned through the small hours, or shut for
    a day and more until it opened now (a gate never opened since it was first watched:
    its opening now is its first change)."""
    if shut_through_a_night(baselines, entity_id):
        return True
    durations = baselines.durations
    last, current = durations.last_stay.get(entity_id), durations.current.get(entity_id)
    if current is None or current[0] != "on":
        return False
    if last is not None:
        return last[0] == "off" and current[1] - last[1] >= timedelta(days=1)
    since = baselines.usual.since.get(entity_id)
    unchanged = entity_id not in durations.stays
    return unchanged and since is not None and current[1] - since >= timedelta(days=1)
