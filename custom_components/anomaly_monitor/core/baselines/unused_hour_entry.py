"""Somebody came in through a door at an hour this home never uses that part of the house.

The household is at home, at night (``NIGHT_FROM`` to ``NIGHT_TO``, a prior: by day a home's
long quiet is people out in the garden or the yard, not asleep) at an hour it usually rests
(its learned quiet spells at that hour last ``REST_GAP`` or more: asleep), nothing moved
inside for ``ON_THE_WAY`` before an exterior door opened (and no room held occupied longer
than ever at this hour, nor a room kept busy until just before: somebody sitting up,
``household_asleep.sitting_up``, ``busy_room``), nobody
tracked arrived or left near it, and no lock of its area was unlocked just before (no key).
The door's area has had no activity at all (motion, an opening, a light, a lock:
``ActivityProfile``) within an hour either side of this time of day on any of the
``MIN_DAYS`` or more days learned (``area_unused``): a salon's street door at 03:40, a shop
door below the flat at 23:35. That is an entry from outside at an hour this home never
lives in that room: a break-in while the family sleeps. Where the area does live at night
(a dog in the kitchen, the household's own trips out to the yard) the door itself is asked
(``door_unentered``): nobody came in by it so, first, at those hours on any night learned.
A door entered so at that hour on other nights (a shift worker's, a teenager's late return,
a keyholder's) is this home's normal and is left alone; an entry into an empty home is the
while-away rules'.

Only what the home learned judges: before ``MIN_DAYS`` of those hours are watched nothing is
told (any hour may be an ordinary one of a home not yet known).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

from ..finding_kind import FindingKind
from ..home import OCCUPANCY_DEVICE_CLASSES, HomeView
from ..keyed_doors import KEY_REACH, changed_to
from ..models import AnomalyType, Finding, Severity
from ..occupancy import Occupancy
from ..open_states import opened_at, openings_of
from ..statistics.timeline import turned
from .area_unused import SPREAD, days_unused
from .busy_room import busy_until
from .clock import local
from .daily_rhythm import REST_GAP
from .door_unentered import nights_unentered
from .home_awake import awake_until
from .home_baselines import HomeBaselines
from .household_asleep import sitting_up
from .inside_doors import used_inside
from .night_outings import ON_THE_WAY, is_exterior, locks_by_area, motion_onsets
from .night_presence import PRESENCE_NEAR
from .room_doors import room_door

# The hours a household sleeps, at the most (a prior; the learned quiet judges within it).
NIGHT_FROM = 22
NIGHT_TO = 6
# An entry stays told this long (the intruder may still be inside).
TOLD_FOR = timedelta(minutes=30)
# Motion in the door's area this soon after the opening is the way the person came in.
CAME_IN = timedelta(minutes=5)

ENTRY_AT_AN_UNUSED_HOUR = FindingKind(
    "entry_at_an_unused_hour", AnomalyType.SECURITY, Severity.HIGH
)


def _presence_near(home: HomeView, when: datetime) -> bool:
    """A person or tracker changed near the opening: somebody arriving or leaving."""
    return any(
        abs(change.when - when) <= PRESENCE_NEAR
        for state in home.presence_entities
        for change in home.changes(state.entity_id)
    )


def entry_at_an_unused_hour(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """An exterior door opened from outside, into a resting home, at an hour its area is
    never active here.

    Magnitude: days learned without any activity in that area at those hours.
    """
    if home.occupancy is not Occupancy.OCCUPIED:
        return
    now = home.end
    onsets: list[datetime] | None = None
    by_area = locks_by_area(home)
    for door in openings_of(home):
        area = door.info.area
        if not area or door.info.device_class == "window":
            continue
        locks = sorted(by_area.get(area, []))
        recent = [
            when
            for when in opened_at(home.changes(door.entity_id), door.domain)
            if now - TOLD_FOR <= when <= now
        ]
        if not recent or not is_exterior(home, door, locks):
            continue
        # The home up and stirring at night: a guest coming or going, let in (home_awake).
        recent = [
            when
            for when in recent
            if NIGHT_TO <= local(when, baselines.zone).hour < NIGHT_FROM
            or not awake_until(home, baselines, when)
        ]
        if not recent:
            continue
        if used_inside(baselines.inside, door.entity_id):
            continue  # a door used from inside (a fridge's, a cupboard's): no way in
        if room_door(baselines, home, door.entity_id, now):
            continue  # a room's door (the WC's, a bedroom's): somebody inside, up at night
        opened = recent[0]
        unlocks = [t for lock in locks for t in changed_to(home, lock, "unlocked")]
        if any(opened - KEY_REACH <= t <= opened for t in unlocks):
            continue  # opened with the key: somebody the household trusts with it
        hour = local(opened, baselines.zone).hour
        if NIGHT_TO <= hour < NIGHT_FROM:
            continue  # by day, a quiet home is out in the garden or the yard
        today = local(opened, baselines.zone).date().toordinal()  # (not its own spell)
        usual_quiet = baselines.quiet.typical(hour, skip_day=today)
        if usual_quiet is None or usual_quiet < REST_GAP.total_seconds() / 60:
            continue  # an hour this home is up at (or not known yet): a visitor, a delivery
        unentered = 0
        if (
            not (days := days_unused(home, baselines, area, opened))
            and door.domain == "binary_sensor"
        ):
            # (only a contact's openings are learned as entries: a cover is not read so)
            unentered = nights_unentered(home, baselines, door.entity_id, area, opened)
        if not (days or unentered):
            continue  # the area lives at these hours and the door is entered so, or not known
        if onsets is None:
            onsets = motion_onsets(home)
        if any(opened - ON_THE_WAY <= t < opened for t in onsets):
            continue  # somebody inside walked to the door: going out, or letting a guest in
        if sitting_up(home, baselines, opened) or busy_until(home, baselines, opened):
            continue  # somebody in a room, up: a guest leaving late, let out
        if _presence_near(home, opened):
            continue  # a tracked person arriving (or leaving): the presence checks'
        inside = sorted(
            s.entity_id
            for s in home.in_area(area)
            if s.domain == "binary_sensor"
            and s.info.device_class in OCCUPANCY_DEVICE_CLASSES
            and any(
                opened <= t <= opened + CAME_IN for t in turned(home.changes(s.entity_id), "on")
            )
        )
        at = local(opened, baselines.zone)
        hours = f"{(at.hour - SPREAD) % 24:02d}:00 and {(at.hour + SPREAD + 1) % 24:02d}:00"
        learned = (
            f"in this home {area} has had no activity between {hours} on any of the {days} "
            "days learned"
            if days
            else f"in this home nobody has come in by {door.entity_id} between {hours} on any "
            f"of the {unentered} nights learned without somebody moving inside first or a "
            "phone coming home"
        )
        yield ENTRY_AT_AN_UNUSED_HOUR.finding(
            evidence=(door.entity_id, *inside, *locks),
            reasoning=f"{door.entity_id} was opened from outside at {at:%H:%M} with the "
            f"household at home and nobody up; {learned}"
            # (no key: the lock may have been left unlocked, as its evidence then reads)
            + (f", and nobody unlocked {', '.join(locks)} just before it" if locks else "")
            + ".",
            recommendation="Check the door and the room behind it now; if nobody of the "
            "household went there, call for help.",
            magnitude=float(days or unentered),
        )
