"""A lone motion pass while the household rests: a pet, not a person awake.

A dog walks the hall at night, a cat crosses the living room: one motion sensor sees it
for a minute or a few, and nothing else happens. A person up in the night does more: opens
a door, turns a lock, switches a light on, walks on through other rooms, or stays about.
So the motion after the household has rested is *held* (``DailyRhythm.motion``) and
taken for somebody moving only when a person's sign comes with it:

- something only a person does (``sign``: a door or window opened or shut, a lock, a light
  switched on, media, a cover) just before it or within ``SIGN_REACH`` (as ``pets``) after it;
- ``WALKED`` motion onsets close together on more than one sensor: somebody walking
  through the home;
- ``STAYED_ONSETS`` onsets of one sensor within ``STAY_WINDOW``: somebody up and about in
  that room (a dog's passes are minutes each, most an hour or so apart);
- onsets on ``ROOMS`` sensors within ``STAY_WINDOW``: somebody about the home (a pet keeps
  to a room or two).

Held motion still alone after ``STAY_WINDOW`` is forgotten: the household rests on. The
movements taken for a person are given back in order, so the household's rest ends when it
truly did. A light that comes on within ``AUTOMATIC`` after motion began is the motion's automation,
not a hand on the switch. An intruder comes in through a way in (a sign) and walks through
rooms; nothing here drops what they do. No word of a name or a profile is read: the
pass's behaviour tells.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from ..pets import SIGN_REACH

# Motion held this long unconfirmed and still alone is forgotten: a pet's passes (a person
# up shows again and again within it: four an hour and more).
STAY_WINDOW = timedelta(minutes=70)
# This many onsets of one sensor within ``STAY_WINDOW``: somebody up and about in the room
# (a dog's passes are minutes each, an hour or so apart).
STAYED_ONSETS = 5
# This many motion onsets close together (``SIGN_REACH``), on more than one sensor:
# somebody walking through the home.
WALKED = 3
# Motion onsets on this many sensors within ``STAY_WINDOW``: somebody about the home (a
# pet keeps to a room or two).
ROOMS = 3
# A light on this soon after motion began was switched by an automation.
AUTOMATIC = timedelta(seconds=5)

# (when, sensor, onset): a motion sensor's change, held.
_Move = tuple[datetime, str, bool]


def _run(held: list[_Move]) -> list[_Move]:
    """The latest moves that follow each other within ``SIGN_REACH``."""
    first = len(held) - 1
    while first > 0 and held[first][0] - held[first - 1][0] <= SIGN_REACH:
        first -= 1
    return held[first:]


def _a_person(held: list[_Move], sensor: str) -> list[_Move]:
    """The moves that were a person's (walked through rooms, up and about in the room of
    ``sensor``, or about the home), or none."""
    run = _run(held)
    if sum(onset for _, _, onset in run) >= WALKED and len({s for _, s, _ in run}) > 1:
        return run
    if sum(onset and s == sensor for _, s, onset in held) >= STAYED_ONSETS:
        return held
    if len({s for _, s, onset in held if onset}) >= ROOMS:
        return held
    return []


class LonePasses:
    """Holds the motion after a rest until it is a person's or lone passes; each call is
    O(moves held), a handful."""

    def __init__(self) -> None:
        self.held: list[_Move] = []
        self.last_sign: datetime | None = None
        self.last_onset: datetime | None = None

    def motion(self, sensor: str, when: datetime, *, onset: bool, resting: bool) -> list[datetime]:
        """``sensor`` saw motion begin (``onset``) or clear at ``when``; ``resting``: the
        household has rested until now. The movements to count now, in order (none while
        held, nor lone passes forgotten)."""
        if onset:
            self.last_onset = when
        # Held moves older than the window were lone passes: forgotten.
        self.held = [move for move in self.held if when - move[0] <= STAY_WINDOW]
        if not self.held:
            if not resting:
                return [when]
            if self.last_sign is not None and timedelta(0) <= when - self.last_sign <= SIGN_REACH:
                return [when]  # a door opened or a light switched just before: a person
        self.held.append((when, sensor, onset))
        person = _a_person(self.held, sensor)
        if person:
            self.held = []
        return [moved for moved, _, _ in person]

    def sign(self, when: datetime, *, light: bool = False) -> list[datetime]:
        """Something only a person does happened at ``when`` (``light``: a light came on).
        The held moves just before it were theirs."""
        if light and self.last_onset is not None and when - self.last_onset <= AUTOMATIC:
            return []  # the motion's automation switched it
        self.last_sign = when
        held, self.held = self.held, []
        if not held or when - held[-1][0] > SIGN_REACH:
            return []
        return [moved for moved, _, _ in _run(held)]

    def clear(self) -> None:
        """Everybody left: nothing held."""
        self.held = []
