"""Who came or went around a night-time opening, read from the persons and trackers.

For ``night_outings``: a person or tracker that changed near a door opened in the small
hours is somebody arriving (the presence checks judge it) unless it is one *leaving*
after the opening, which is who went out (``went_out``). A tracker's flicker (``unknown``
for minutes, then where it was before) is neither (``_moves``).

Who went out is read against their own nights (``never_out_at_night``): a person who left
or came home between 23:00 and 05:00 on none of the ``PERSON_NIGHTS`` or more nights
learned (``night_uses``: their nights out; of those only the nights out alone,
``nights_out_alone``: with the whole family at the fair she did not go out on her own)
does not go out at night here. A teenager's
phone leaving at 00:40 is news even with the door locked behind her; a shift worker off
at 03:30 has gone out on earlier nights and is left alone, and from 04:00 nobody is read
so (a father off to meet the 05:00 train locks up behind him as any early leaver).
Nor before midnight: a father down to the corner pharmacy at 23:30 and a 13-year-old
out of the back door at 23:45 look the same to their nights; the way they took tells
them apart (``out_before_midnight``, which reads ``never_out`` at any hour).

A child of the household (``profile_minors``: the profile gives their age) is not out on
their own at night by what the household said of them, so fewer nights (``CHILD_NIGHTS``)
need to show they are not: a 15-year-old watched four nights, out of the back door at
23:50 on the fifth. A phone whose person did not leave with it (HA's person follows the
tracker seen last: a router's "home" may hold it) is who went out when no person did: its
own nights are read as a person's.

One never out at night who left in the small hours within ``FOLLOWED_WITHIN`` before a
door opened, and is still out, was told as they went (``out_before``): whoever of the
household goes out after them, phone in hand, is going after them (a father out
at 03:11 to find his son gone to the river at 02:29), part of the night already told and
no second notice of it.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from ..home import HomeView
from ..models import Transition
from ..occupancy import presence_of
from ..profile_minors import minor_ages
from .clock import local
from .home_baselines import HomeBaselines

# A person or tracker changing this close to the opening: somebody arriving or leaving
# with their phone, which the presence checks judge.
PRESENCE_NEAR = timedelta(minutes=15)
# A tracker unknown for at most this long, then where it was, lost its network a moment.
FLICKER = timedelta(minutes=15)
# Nights a person must have been watched, never out at night, before their going out is news.
PERSON_NIGHTS = 5
# From this hour the night ends for who went out: somebody who locks up behind them and
# takes a phone at 04:50 is off early on purpose (a train to meet, a first shift), as for
# anybody (``night_outings._locked_behind``); at 00:40 it is a night out.
DEAD_OF_NIGHT_ENDS = 4
# One never out at night who left this long before a door opened, still out: told then,
# and whoever goes out after them goes after them (``night_outings.TOLD_FOR``).
FOLLOWED_WITHIN = timedelta(hours=1)
# Nights a child of the household must have been watched, never out at night on their own,
# before their going out is news (the profile already says they are a child).
CHILD_NIGHTS = 3


def presence_changed_near(home: HomeView, when: datetime, now: datetime) -> bool:
    """Somebody arrived near the opening, or left before it: the presence checks'. A
    tracker's flicker (``unknown`` for minutes, then where it was before) is neither."""
    return any(
        when - PRESENCE_NEAR <= change.when <= now and not _left_after(change, when)
        for state in home.presence_entities
        for change in _moves(home.changes(state.entity_id), when, now)
    )


def _moves(changes: list[Transition], opened: datetime, now: datetime) -> list[Transition]:
    """The changes that may be somebody coming or going: not a flicker's (``unknown`` for
    at most ``FLICKER``, then the presence before it, or home when the window shows none
    before: a phone arriving reads away first), nor its return. An ``unknown`` under way
    counts when it began by the opening (who came or went then is not known yet) or has
    lasted longer than a flicker; begun after, it is no arrival before the opening (a
    walk-out told is not withdrawn, to be told again when the phone is back)."""
    moves: list[Transition] = []
    before: bool | None = None  # the last known presence (none yet in the window)
    flicker: list[Transition] = []
    for change in changes:
        if change.when > now:
            break
        where = presence_of(change.state)
        if where is None:
            flicker.append(change)
            continue
        brief = bool(flicker) and change.when - flicker[0].when <= FLICKER
        if not (brief and where == (True if before is None else before)):
            moves.extend([*flicker, change])
        flicker, before = [], where
    if flicker and (flicker[0].when <= opened or now - flicker[0].when > FLICKER):
        moves.extend(flicker)
    return moves


def _left_after(change: Transition, opened: datetime) -> bool:
    """A person or tracker that left home after the door opened: who went out."""
    return change.when >= opened and presence_of(change.state) is False


def went_out(home: HomeView, opened: datetime) -> list[str]:
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


def never_out_at_night(
    baselines: HomeBaselines,
    left: list[str],
    opened: datetime,
    children: frozenset[str] = frozenset(),
) -> list[str]:
    """The persons among ``left`` watched ``PERSON_NIGHTS`` or more nights who were out at
    night on none of them (tonight left out), ``opened`` in the dead of night (from
    midnight to ``DEAD_OF_NIGHT_ENDS``)."""
    if local(opened, baselines.zone).hour >= DEAD_OF_NIGHT_ENDS:
        return []
    return never_out(baselines, left, opened, children)


def never_out(
    baselines: HomeBaselines,
    left: list[str],
    opened: datetime,
    children: frozenset[str] = frozenset(),
) -> list[str]:
    """The persons among ``left`` watched ``PERSON_NIGHTS`` or more nights
    (``CHILD_NIGHTS`` for the ``children`` of the household) who were out at night alone on
    none of them (``opened``'s night left out; a night out with the household is no night
    out on their own: ``nights_out_alone``), whatever the hour. With no person among
    ``left``, its trackers are read as persons (see the module)."""
    usual = baselines.usual
    persons = [who for who in left if who.partition(".")[0] == "person"]
    return [
        person
        for person in persons or [who for who in left if who.startswith("device_tracker.")]
        if usual.nights_watched(person, opened)
        >= (CHILD_NIGHTS if person in children else PERSON_NIGHTS)
        and usual.night.alone.count(person, skip=opened) == 0
    ]


def out_before(
    home: HomeView,
    baselines: HomeBaselines,
    opened: datetime,
    children: frozenset[str] = frozenset(),
) -> list[str]:
    """The persons (trackers, without a person) who left home in the dead of night within
    ``FOLLOWED_WITHIN`` before ``opened``, are still out, and were out at night on none of
    their nights learned (``never_out_at_night`` as they left): told as they went."""
    found: list[str] = []
    for state in home.presence_entities:
        if presence_of(state.state) is not False:
            continue
        moves = [c for c in home.changes(state.entity_id) if c.when < opened]
        if not moves or presence_of(moves[-1].state) is not False:
            continue
        left = moves[-1].when
        if opened - left <= FOLLOWED_WITHIN and never_out_at_night(
            baselines, [state.entity_id], left, children
        ):
            found.append(state.entity_id)
    return found


def children_of(home: HomeView) -> frozenset[str]:
    """The persons (entity ids) the household profile gives a child's age."""
    persons = home.of("person")
    ages = minor_ages(home.window.profile, (p.info.name for p in persons))
    return frozenset(p.entity_id for p in persons if p.info.name.strip() in ages)
