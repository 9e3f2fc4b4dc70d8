"""Somebody is in: every tracker away is not an empty home when the home shows otherwise.

The away rules take "every tracked person away" for "nobody in". A house-sitter, children
without phones, a family whose phones are off for the day: while they are in, the home
itself shows it. An intruder cannot be inside an empty home without coming in first, so
the home's own sequence of signs and openings tells who opens a door:

- a **sign of somebody inside**: a motion sensor starting or ending a spell of motion
  (its return from "unavailable" to "off" is neither: a radio drop, nobody moved),
  but not one that moves at all hours while the home is empty (a pet,
  ``AwayNormal.moves_at_any_hour``), nor one that watches the outside (a yard or garden
  camera, ``outdoor_areas``: whoever is about the grounds, the intruder too); with pets
  in the profile only once the home has been learned empty on ``MIN_EMPTY_DAYS`` days
  (before that a pet's motion cannot be told from a person's: nothing counts);
- an **opening** (a door or window opening, a lock unlocked, a garage or gate cover
  opening) is **from inside** when somebody inside showed within ``INSIDE_REACH`` before
  it, or it is part of the same passage (within ``PASSAGE`` of a way out opened from
  inside: the front door, then the garage). A way out (``way_out``) opened from inside is
  somebody going out; the trackers leaving counts as one. Only a sign after it (more than
  ``PASSAGE`` later or elsewhere, within ``INSIDE_REACH``) shows somebody stayed in;
  without one, the next opening is from outside. A window or an inner door opened from
  inside is itself a sign, and so is a complete use of an inner contact (``inner_signs``:
  a bathroom door that rests open shut briefly and reopened, the fridge opened and shut),
  also with pets, but never for a door whose lock stayed locked (forced);
- any other opening is **from outside**: an entry, judged by the away rules as before;
  whoever came in shows by their next sign.

So an opening into a home that has been quiet (a family gone out, the one inside gone
out and nothing moved since, a cold start) is told at once as before; an opening by
somebody who has been moving about inside is not an entry. Motion while away is
**somebody already inside** when somebody showed before with nothing opened since but
from inside (however long they slept), and an entrance left open or unlocked by the
household, or an appliance drawing, is not an empty home's while somebody is inside now.

The signs and openings come from the window and, for the away spell under way (a spell
outlasts the window), from ``AwayNormal.spell``: the spell's own record, stored with the
baselines while the home is empty (``stored_spell``: a restart does not empty the home).
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING
import weakref

from ..home import ENTRY_DEVICE_CLASSES, OCCUPANCY_DEVICE_CLASSES, HomeView
from ..keyed_doors import KEY_REACH, locks_of
from ..occupancy import presence_of
from ..outdoor_areas import watches_outside
from ..pets import has_pets
from .clock import day_number
from .inner_signs import by_a_lock, window_uses
from .inside_walk import INSIDE_REACH, PASSAGE, STAY_SHOWS, Walk
from .lived_while_away import lived, movers, pets_sensor
from .opening_uses import uses
from .stored_spell import OPENING, SIGN
from .ways_in import is_opening, opened_state, way_out

if TYPE_CHECKING:
    from .home_baselines import HomeBaselines

LEFT = "left"  # the trackers left: the away spell began
UNSEEN = "unseen"  # Home Assistant was down long enough for anybody to come in unseen


def is_motion(home: HomeView, entity_id: str) -> bool:
    return (
        home.domain(entity_id) == "binary_sensor"
        and home.device_class(entity_id) in OCCUPANCY_DEVICE_CLASSES
    )


def _window_events(home: HomeView) -> set[tuple[datetime, str, str]]:
    """The window's signs (a motion sensor starting or ending a spell of motion: somebody
    was there until then) and openings."""
    events: set[tuple[datetime, str, str]] = set()
    for entity_id in home.history:
        if is_motion(home, entity_id):
            events.update((when, entity_id, SIGN) for when in _motion_signs(home, entity_id))
            continue
        if not is_opening(home, entity_id):
            continue
        wanted = opened_state(home.domain(entity_id))
        events.update((when, entity_id, OPENING) for when in uses(home, entity_id, wanted))
    return events


def _motion_signs(home: HomeView, entity_id: str) -> list[datetime]:
    """When a motion sensor started or ended a spell of motion. An "off" that follows
    "unavailable" or "unknown" is the sensor coming back on the network, no spell ending:
    nobody moved (a radio drop read as somebody inside let a forced balcony door in an
    empty flat pass as opened from inside)."""
    signs: list[datetime] = []
    before: str | None = None
    for change in home.changes(entity_id):
        state = change.state.lower()
        if state == "on" or (state == "off" and before in (None, "on")):
            signs.append(change.when)
        before = state
    return signs


def _spell_ends(home: HomeView) -> set[tuple[datetime, str]]:
    """The window's motion signs that end a spell of motion (its "off" after "on"): the
    sensor's hold running out, maybe after whoever moved has gone."""
    ends: set[tuple[datetime, str]] = set()
    for entity_id in home.history:
        if is_motion(home, entity_id):
            before: str | None = None
            for change in home.changes(entity_id):
                state = change.state.lower()
                if state == "off" and before == "on":
                    ends.add((change.when, entity_id))
                before = state
    return ends


# The window's signs (person or not) and openings (a way out or not), with their areas, in
# time order: each analysis asks several times about the same window. The slot knows the
# home and baselines by weak reference, not id(): an id is reused once its object is freed,
# and a later home with the same times was given stale steps (a door after a power cut
# judged with the steps of a restart without one). A step: (when, kind, entity, way out
# (an opening) or an inner contact's (a sign), area, forced: a door whose lock stayed locked,
# passing: an opening's door contact without a lock, or a sign's motion spell ending (either
# maybe whoever went out: ``inside_walk``).
type _Step = tuple[datetime, str, str, bool, str | None, bool, bool]
type _Ref[T] = weakref.ReferenceType[T]
_last: (
    tuple[
        _Ref[HomeView], _Ref[HomeBaselines], tuple[object, ...], list[_Step], bool, frozenset[str]
    ]
    | None
)
_last = None


def _steps(baselines: HomeBaselines, home: HomeView) -> tuple[list[_Step], bool, frozenset[str]]:
    """The steps, whether the home is lived in while the trackers are away, and then its
    motion sensors that moved while they were (``lived_while_away.movers``)."""
    global _last  # noqa: PLW0603 - one analysis's steps, replaced whole
    away = baselines.away
    key = (
        baselines.unwatched,
        home.end,
        home.window.start,
        len(home.history),
        len(away.spell),
        away.spell[-1] if away.spell else None,
        away.empty_since,
    )
    last = _last
    if last is not None and last[0]() is home and last[1]() is baselines and last[2] == key:
        return last[3], last[4], last[5]
    pets = has_pets(home.window.profile)
    events = _window_events(home) | set(away.spell)
    # A complete use of an inner contact, in the window or the spell's record: a sign.
    inner = window_uses(baselines, home) | {
        (when, e)
        for when, e, kind in away.spell
        if kind == SIGN and not is_motion(home, e) and not by_a_lock(home, e)
    }
    # A contact's sign the spell kept that the home does not read so (a lock shown by it):
    # its opening, as before.
    events = {
        (w, e, SIGN if (w, e) in inner else OPENING if k == SIGN and not is_motion(home, e) else k)
        for w, e, k in events
    }
    if away.empty_since is not None:
        events.add((away.empty_since, "", LEFT))
        # The spell's record outlasts a restart, but not what happened while nothing was
        # watched (a power cut): a door used after it is not known to be from inside.
        gap = baselines.unwatched
        if gap is not None and away.empty_since < gap[1] <= home.end:
            events.add((gap[1], "", UNSEEN))
    elif home.nobody_home and (left := _left_in_window(home)) is not None:
        events.add((left, "", LEFT))  # the window shows the departure the spell has not
    ends = _spell_ends(home)
    leaves: dict[str, bool] = {}
    unlocked = sorted(w for w, e, k in events if k == OPENING and home.domain(e) == "lock")
    steps: list[_Step] = []
    for when, entity_id, kind in sorted(events):
        contact = (when, entity_id) in inner
        # Motion at all hours is no sign of this step, even where the profile's phoneless
        # resident makes the home lived in (``lived_while_away.movers``): the motion before
        # a door at night may be whoever came over the wall as well as the resident.
        if kind == SIGN and not contact and pets_sensor(away, entity_id, when, pets):
            continue  # maybe a pet (a pet does not shut a door or open a drawer)
        if kind == SIGN and not contact and watches_outside(home, entity_id):
            continue  # the yard's camera: whoever is about the grounds (``outdoor_areas``)
        if kind == OPENING and entity_id not in leaves:
            leaves[entity_id] = way_out(home, entity_id)
        flag = contact or leaves.get(entity_id, False)
        forced = kind == OPENING and _lock_stayed_locked(home, unlocked, entity_id, when)
        area = home.area(entity_id) if entity_id else None
        if kind == SIGN:
            passing = (when, entity_id) in ends
        else:
            passing = kind == OPENING and not flag and _door(home, entity_id)
        steps.append((when, kind, entity_id, flag, area, forced, passing))
    moving = movers(baselines, home)
    lived_in = lived(baselines, home, moving)  # ``lived_while_away.lived_while_away``
    _last = (weakref.ref(home), weakref.ref(baselines), key, steps, lived_in, moving)
    return steps, lived_in, moving


def _left_in_window(home: HomeView) -> datetime | None:
    """When the last tracker in the window reported leaving (the home is empty now)."""
    return max(
        (
            c.when
            for state in home.presence_entities
            for c in home.changes(state.entity_id)
            if presence_of(c.state) is False
        ),
        default=None,
    )


def _walk(baselines: HomeBaselines, home: HomeView, until: datetime) -> Walk:
    """The chain up to (not including) ``until``."""
    steps, lived_in, moving = _steps(baselines, home)
    walk = Walk(lived=lived_in, movers=moving)
    # Before the home showed anything moving while empty (its away normal unknown), the
    # hours a sensor keeps are all that tells a pet's round from a person about.
    unshown = not _moved_while_empty_before(baselines, home)
    for when, kind, entity_id, flag, area, forced, passing in steps:
        if when >= until:
            break
        if kind == LEFT:
            walk.went_out(when, shut=_last_shut(home, when))
        elif kind == UNSEEN:
            walk.unseen(when)
        elif kind == OPENING:
            walk.opening(when, flag, area, forced, door=passing)
        else:
            # (a sensor that keeps no person's hours: ``inside_walk`` "What keeps...")
            hourless = (
                unshown
                and not flag
                and baselines.untracked.round_the_clock(entity_id, when) is not None
            )
            walk.sign(when, area, contact=flag, ends=passing, hourless=hourless)
    return walk


def _moved_while_empty_before(baselines: HomeBaselines, home: HomeView) -> bool:
    """Whether any motion sensor moved while the home was known empty on a day before
    today (``UntrackedLife.empty_days``)."""
    today, untracked = day_number(home.end, baselines.zone), baselines.untracked
    return any(untracked.moved_while_empty(sensor, today) for sensor in untracked.empty_days)


def _last_shut(home: HomeView, until: datetime) -> datetime | None:
    """When a door or gate contact of the window last shut at or before ``until``."""
    return max(
        (
            change.when
            for entity_id in home.history
            if home.domain(entity_id) == "binary_sensor" and is_opening(home, entity_id)
            for change in home.changes(entity_id)
            if change.when <= until and change.state.lower() == "off"
        ),
        default=None,
    )


def _door(home: HomeView, entity_id: str) -> bool:
    """A door contact (not a window, a lock or a cover): passed by whoever goes out."""
    return (
        home.domain(entity_id) == "binary_sensor"
        and home.device_class(entity_id) in ENTRY_DEVICE_CLASSES
    )


def _lock_stayed_locked(
    home: HomeView, unlocked: list[datetime], entity_id: str, when: datetime
) -> bool:
    """A door beside a lock opened with the lock locked and not unlocked just before: forced
    (or its lock's reports are wrong), never opened by whoever used a cupboard inside."""
    if home.domain(entity_id) != "binary_sensor" or not (locks := locks_of(home, entity_id)):
        return False
    if any(when - KEY_REACH <= t <= when for t in unlocked):
        return False
    for lock in locks:
        before = [c.state.lower() for c in home.changes(lock) if c.when <= when]
        state = home.states.get(lock)
        now = state.state.lower() if state is not None else None
        if (before[-1] if before else now) != "locked":
            return False
    return True


def contact_signs(
    baselines: HomeBaselines, home: HomeView, opened: tuple[datetime, str] | None = None
) -> list[datetime]:
    """When an inner contact's complete use showed somebody inside; none to open
    ``opened`` (when, door) when that door's lock stayed locked (forced)."""
    steps, _, _ = _steps(baselines, home)
    if opened is not None and any(
        (when, kind, entity_id, forced) == (*opened[:1], OPENING, opened[1], True)
        for when, kind, entity_id, _, _, forced, _ in steps
    ):
        return []
    return [when for when, kind, _, flag, _, _, _ in steps if kind == SIGN and flag]


@dataclass(frozen=True)
class Inside:
    """Why somebody was inside: their last sign before the opening or motion, and whether
    it was an inner contact's use (no motion seen since)."""

    last_sign: datetime
    by_contact: bool = False


def opened_from_inside(
    baselines: HomeBaselines, home: HomeView, when: datetime, entity_id: str | None = None
) -> Inside | None:
    """Whether an opening at ``when`` (of ``entity_id``, or of anything then) was made by
    somebody inside (None: from outside). A complete use of an inner contact is."""
    steps, _, _ = _steps(baselines, home)
    at = [s for s in steps[bisect_left(steps, (when,)) :] if s[0] == when]
    if entity_id is not None:
        at = [s for s in at if s[2] == entity_id]
    if any(kind == SIGN and flag for _, kind, _, flag, _, _, _ in at):
        return Inside(when, by_contact=True)  # the fridge opened and shut, the door reopened
    forced = any(kind == OPENING and forced for _, kind, _, _, _, forced, _ in at)
    walk = _walk(baselines, home, when)
    if not walk.from_inside(when, forced) or walk.last_sign is None:
        return None
    return Inside(walk.last_sign, walk.by_contact)


def stayed_in(
    baselines: HomeBaselines, home: HomeView, when: datetime, sensor: str = ""
) -> Inside | None:
    """Whether motion at ``when`` (on ``sensor``) is somebody already inside: somebody
    showed before and nothing opened since but from inside (however long they slept), and
    nobody went out since, but in a home lived in while the trackers are away: whoever
    stayed in as they left, within ``INSIDE_REACH`` anywhere, later on a sensor that moved
    while the trackers were away on earlier days (a nap, then their room); else None.
    Motion after an entry from outside is not (whoever came in: judged by the away rules)."""
    walk = _walk(baselines, home, when)
    last, out = walk.last_sign, walk.out_at
    if last is None:
        return None
    if out is not None and _on_their_way(walk, home, when, sensor):
        return Inside(last)  # the one who opened the way out, seen by it: nobody new
    # Somebody who stayed in this spell, seen since the trackers left, is there still
    # when another goes out (the day carer leaving as the night carer took over): as in
    # a home learned lived in while the trackers are away, within ``INSIDE_REACH``.
    lived = walk.lived or walk.stayed
    if out is not None and (not lived or (when - out > INSIDE_REACH and sensor not in walk.movers)):
        return None
    return Inside(last)


def _on_their_way(walk: Walk, home: HomeView, when: datetime, sensor: str) -> bool:
    """Motion on ``sensor`` within ``PASSAGE`` after a way out opened from inside, in its
    area: the walk reads it as whoever went out on their way (``Walk.sign``), or whoever
    they let in; either way somebody inside was by the door, not a stranger come in."""
    out, area = walk.out_at, walk.out_area
    if out is None or area is None or not sensor:
        return False
    return when - out <= PASSAGE and home.area(sensor) == area


def inside_now(baselines: HomeBaselines, home: HomeView) -> Inside | None:
    """Whether somebody is inside now (``Walk.inside_at``)."""
    last = _walk(baselines, home, home.end).inside_at(home.end)
    return Inside(last) if last is not None else None


def staying_unknown(baselines: HomeBaselines, home: HomeView) -> bool:
    """The trackers left (or somebody went out) within ``STAY_SHOWS``, with somebody inside
    just before: whether anybody stayed in is not known yet."""
    return stay_known_at(baselines, home) is not None


def stay_known_at(baselines: HomeBaselines, home: HomeView) -> datetime | None:
    """While ``staying_unknown``: when it will be known whether anybody stayed in (the
    moment ``STAY_SHOWS`` has passed since they went out); None otherwise."""
    walk = _walk(baselines, home, home.end)
    out = walk.out_at
    if out is None or walk.out_blind or home.end - out > STAY_SHOWS:
        return None
    return out + STAY_SHOWS
