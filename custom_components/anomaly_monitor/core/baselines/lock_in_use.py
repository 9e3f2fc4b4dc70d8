"""A lock unlocked while its door is in use: guests coming and going, not a lock forgotten.

``state_longer_than_usual`` tells a lock unlocked an hour (``long_stays.FLOOR``) when its
learned stays are a minute or two (a lock turned for each passage). A dinner, a party, a
parents' evening: the host unlocks the front door as the first guests come and leaves it
so while the others arrive, minutes to an hour apart. A lock forgotten looks otherwise:
unlocked for one passage (out with the bins and back, the door opened twice within a
few minutes) and not used since.

So a lock whose entrance door (``entrance_subject.entrance_of``) opened again
``USED_AGAIN`` or more after the unlock (a later passage than the one that unlocked it),
with somebody home and the household up (or somebody sitting up in a room held occupied:
``household_asleep.sitting_up``), is in use: not "unlocked far longer than
usual". Once the household rests, ``unlocked_while_asleep`` judges it as any lock left
unlocked for the night (longer than it ever stayed unlocked).

People gathered are up too, before anybody comes through the door again: relatives
watching a procession from the doorway, a dinner, a night spent making something in the
street. Their sign is a room held "on" longer than it ever is at that time of day
(``sitting_up``), and for ``STAYING`` at least: guests stay in the sitting room, a family
works in the courtyard. A lock then is in use while they stay (and judged as before once
they go). A lock forgotten as the household goes to bed, or after somebody slipped out in
the night, has nobody staying up by it, and is told as before.

The household's rest is read from its motion (``household_asleep``); a passage through
this very door after that rest began is somebody up, whatever the motion sensors missed
(a sensor held on for hours makes no new motion): the door is in use then too. Somebody
who went out in the night and came back moves inside after it, so the rest begins again
after their passage and the lock left is told. A door opened and still standing open
``USED_AGAIN`` on is no passage (the lodger back at three, the flat door left ajar on the
latch): the lock is told, and the door's own ``entry_left_open`` joins its incident. One
of the household coming back through it is no guest either (``RETURN_NEAR`` of their return, as
the baselines follow them): down to the pharmacy at 23:30 and back at 23:49, the lock
left on, is a lock forgotten.

A lock unlocked for one of the household coming home (a person came home from away
within ``ARRIVAL_NEAR`` of the unlock, as the baselines follow them live:
``QuietSpells.came_home_at``; a phone's blink is no arrival) is in their hands while
they are home and up, by day: the family back from the morning procession leaves the
door on the latch for the relatives due at lunch. Nobody unknown came in, and whoever
turned it is there to lock it. The hours the home rests at (``lock_floor``: in the
evening or at night) judge it as any lock, from its unlock; so does the night rule once
the household rests.

A lock whose door is not known by its class (a generic ``opening`` contact, the front door
and the gate in one area) is read with the door opened right after its unlock
(``unlock_passages``): the door the key was turned for.

So is a lock unlocked by day (in the morning or the afternoon) while one of the household
was home before it and still is, up (somebody moved inside within ``HOSTS_UP`` before the
unlock), none of them going out around it or since: whoever turned it was let in or let
others in, and the hosts are there and up to lock it (a Sunday lunch, a name-day's
priest, relatives who came in together and stay for hours without using the door again).
A neighbour with a key opening a home that lay still (somebody fallen, the phone on the
dresser) is no host's doing: judged as before. So is a lock unlocked as one of the
household went out (their phone left within ``ARRIVAL_NEAR`` of the unlock, or since): a
lock left behind them; one unlocked in the evening (a pizza paid at the door at eight,
the household going to bed in a few hours); one with no tracked host home (a child going
out, a carer); one whose door stands open (ajar onto the stairwell: the lock's own
trouble); and one whose unlock was not seen since this start. Known by domain,
device class and area; no word of an id is read.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from ..home import HomeView, is_on
from ..models import EntityState
from ..occupancy import Occupancy
from .durations import quarter_of_day
from .entrance_subject import entrance_of
from .home_baselines import HomeBaselines
from .household_asleep import asleep_since, sitting_up
from .lock_floor import lock_floor

# A door opened this long after its lock was unlocked is a later passage, not the one the
# unlock was for (out to the bins and back in: two openings within minutes).
USED_AGAIN = timedelta(minutes=10)
# A room held "on" this long without a break (and longer than ever at that time of day):
# people staying there, not somebody passing through it.
STAYING = timedelta(minutes=15)
# A person or tracker that came home this close to the unlock (before it, or after it as a
# phone's report lags): the lock was turned for them.
ARRIVAL_NEAR = timedelta(minutes=15)
# A door opened this close to a person's return: their own way back in, not a guest.
RETURN_NEAR = timedelta(minutes=5)
# Somebody moved inside this close before the unlock: the hosts were up to turn it.
HOSTS_UP = timedelta(minutes=30)
# The quarters of the day (``quarter_of_day``) a lock unlocked with a host home is in their
# hands: the morning and the afternoon, the household up for hours yet.
_BY_DAY = frozenset({1, 2})


def _last_opening(home: HomeView, baselines: HomeBaselines, door: str) -> datetime | None:
    """When ``door`` last opened (in the window, or as the baselines saw it live) other
    than for one of the household coming home (within ``RETURN_NEAR`` of a person's
    return: their own way back, no guest). The baselines keep the opening before the last:
    a guest's passage is not forgotten because one of the household came home after it."""
    seen = [c.when for c in home.changes(door) if c.state.lower() == "on"]
    live = baselines.usual.last_openings(door)  # the one before too: a return is the last
    returns = baselines.quiet.came_home_at.values()
    return max(
        (
            when
            for when in [*seen, *live]
            if not any(abs(when - back) <= RETURN_NEAR for back in returns)
        ),
        default=None,
    )


def _passage_door(
    home: HomeView, baselines: HomeBaselines, lock: EntityState, since: datetime
) -> EntityState | None:
    """With no entry door known by class (``entrance_of``: a generic ``opening`` contact,
    or two doors in the lock's area), the door opened right after this unlock
    (``unlock_passages``)."""
    door = baselines.passages.door_of(lock.entity_id, since)
    return None if door is None else home.info(door)


def _left_standing(home: HomeView, door: EntityState, opened: datetime) -> bool:
    """Whether the door still stands open from its opening at ``opened`` (no closing
    seen since), for ``USED_AGAIN`` or more: a guest comes through in a minute."""
    if not is_on(door) or home.end - opened < USED_AGAIN:
        return False
    return not any(
        c.when >= opened and c.state.lower() == "off" for c in home.changes(door.entity_id)
    )


def lock_in_use(
    home: HomeView, baselines: HomeBaselines, lock: EntityState, since: datetime
) -> bool:
    """Whether the unlocked ``lock`` (unlocked ``since``) has its door in use now: opened
    again ``USED_AGAIN`` after the unlock, somebody home and the household up (or people
    staying up in a room: ``sitting_up``)."""
    if lock.domain != "lock" or home.occupancy is not Occupancy.OCCUPIED:
        return False
    door = entrance_of(home, lock) or _passage_door(home, baselines, lock, since)
    if door is None:
        return False
    last = _last_opening(home, baselines, door.entity_id)
    if last is not None and _left_standing(home, door, last):
        # Come in and left open on the latch: no passage, the lock's own trouble (the
        # door's finding joins it).
        last = None
    used_again = last is not None and last - since >= USED_AGAIN
    if (rest := asleep_since(home, baselines)) is not None:
        # The household rests (the night rule judges the lock), unless somebody came
        # through this door since that rest began: people up, whatever moved inside.
        return used_again and last is not None and last > rest
    if used_again or sitting_up(home, baselines, home.end, at_least=STAYING):
        return True
    # A door standing open USED_AGAIN on is the lock's own trouble: no host's doing.
    opened = door.last_changed
    standing = is_on(door) and opened is not None and home.end - opened >= USED_AGAIN
    return _let_in_by_day(home, baselines, lock, since, hosts=not standing)


def _let_in_by_day(
    home: HomeView, baselines: HomeBaselines, lock: EntityState, since: datetime, *, hosts: bool
) -> bool:
    """``lock`` was unlocked for one of the household coming home, and the home does not
    rest now (``lock_floor`` keeps the everyday floor): in their hands (see the module)."""
    floor = timedelta(hours=1)  # any floor above ``lock_floor.REST_FLOOR``: rest or not
    if lock_floor(home, baselines, lock, since, floor) != floor:
        return False  # the hours this home rests at: judged as any lock
    quiet = baselines.quiet
    if any(
        abs(arrived - since) <= ARRIVAL_NEAR and quiet.presence.get(person) is True
        for person, arrived in quiet.came_home_at.items()
    ):
        return True
    by_day = quarter_of_day(since, baselines.zone) in _BY_DAY
    return hosts and by_day and _host_home(baselines, lock, since)


def _host_home(baselines: HomeBaselines, lock: EntityState, since: datetime) -> bool:
    """One of the household home since before the unlock at ``since`` (their place not
    changed since ``ARRIVAL_NEAR`` after it: a restart's forgotten change is home all
    along) and up then (movement within ``HOSTS_UP`` before it, as the baselines saw the
    unlock), and none of them gone out since ``ARRIVAL_NEAR`` before it."""
    seen = baselines.unlocks.get(lock.entity_id)
    if seen is None or abs(seen[0] - since) > ARRIVAL_NEAR:
        return False  # the unlock not seen (a start since): judged as before
    if (moved := seen[1]) is None or not timedelta(0) <= since - moved <= HOSTS_UP:
        return False  # the home lay still: a key from outside, no host's doing
    quiet = baselines.quiet
    placed = quiet.placed_at
    if any(
        where is False
        and (moved := placed.get(person)) is not None
        and moved >= since - ARRIVAL_NEAR
        for person, where in quiet.presence.items()
    ):
        return False  # one of them went out by it: a lock left behind them
    return any(
        where is True and ((moved := placed.get(person)) is None or moved <= since + ARRIVAL_NEAR)
        for person, where in quiet.presence.items()
    )
