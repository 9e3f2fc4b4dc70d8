"""How long a quiet may run once it is in the hours this home sleeps: as long as its nights.

``no_movement_while_home`` judges a quiet by the usual longest quiet of the hours it has
covered so far (``QuietSpells.typical_over``). An hour's value is how long the quiet
under way had lasted then on other days, so it depends on when the night began and on
the trips that broke it: at one in the morning it is short in a home that goes to bed at
half past eleven, or whose grandmother crosses the flat at midnight. A night that began
early (the late one out at a party, the household tired after a festival) or that nobody
broke is then "far longer than usual" at one o'clock, with everybody asleep (set 26 d,
and night false alarms of sets 2, 7, 9 and 23).

So once the quiet has reached an hour this home rests at (its usual longest quiet then is
``RESTING`` or more: the night, learned) it is judged by the whole run of rest hours it is
in, the hours still ahead included: how long this home's nights run, not how far tonight's
has got. Past the rest (the morning) the hours covered are judged as before, and a person
not up by the usual time is ``getting_up``'s. Falls in the night are judged by the room
they were last seen in (``night_trips``, ``bed_left``, ``still_in_room``), not by this.

A night's hours are short where its trips break it: a grandmother up for the toilet every
hour and a half, a dog crossing the hall, teach "usually still for at most 1 h 30" at four
in the morning. The night nobody got up is then twice that by five, with everybody asleep.
How long the home's trips let it lie still says nothing of how long its night lasts:
``night_end`` is when this home's rest is over, read from its own hours (the run of rest
hours ahead of now, and the hour after it, in which it is usually up), while every hour
since the quiet began was the night's or one it rests at (an hour it is usually up in
ends the night: a lie-in after it is not read as more night). A quiet begun in the night
is not told before then; past it, the ordinary limit (a quiet from the night is long by
then: told at once). A trip that did not end (a fall on the way to the toilet) is the
trip judges' (``night_trips``, ``bed_left``, ``bed_trip``, ``room_trip``), not this.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from .clock import hour_start, local, next_hour
from .quiet_spells import QuietSpells
from .still_in_room import NIGHT_HOURS, RESTING

# The rest ahead is looked at for this many hours at most (a day's worth is a whole day).
MAX_AHEAD = 12


def usual_through_the_night(quiet: QuietSpells, start: datetime, end: datetime) -> float | None:
    """The usual longest quiet (minutes) over the hours from ``start`` to ``end``, and,
    when ``end``'s hour is one this home rests at, over the rest hours following it too;
    None while an hour covered is not learned."""
    usual = quiet.typical_over(start, end)
    if usual is None or not _resting(quiet, end):
        return usual
    ahead = end
    for _ in range(MAX_AHEAD):
        following = next_hour(hour_start(local(ahead, quiet.zone)))
        if not _resting(quiet, following):
            break
        ahead = following
    if ahead == end:
        return usual
    return quiet.typical_over(start, ahead) or usual


def night_end(quiet: QuietSpells, start: datetime, now: datetime) -> datetime | None:
    """When this home's rest is over (see the module) for a quiet from ``start``, judged
    at ``now``: the end of the first hour after the rest hours ahead of ``now`` that is
    not one (the hour it is usually up in); None unless the quiet began in the night (by
    the clock: an evening's quiet going on into it is the evening's) and ``now``'s hour is
    one this home rests at."""
    begun = hour_start(local(start, quiet.zone))
    if begun.hour not in NIGHT_HOURS and (begun.hour + 1) % 24 not in NIGHT_HOURS:
        return None
    slot = hour_start(local(now, quiet.zone))
    if not _resting(quiet, now) or not _night_all_along(quiet, begun, slot):
        return None
    for _ in range(MAX_AHEAD):
        slot = next_hour(slot)
        if not _resting(quiet, slot):
            return next_hour(slot)
    return None


def _night_all_along(quiet: QuietSpells, begun: datetime, until: datetime) -> bool:
    """Every hour after ``begun`` up to ``until`` is the night's (by the clock) or one this
    home rests at: a morning it is usually up by (a weekend lie-in later on) breaks it. The
    hour it began in is the clock's (``night_end``): a night begun early, the household
    tired after a festival, is still the night."""
    slot = next_hour(begun)
    if slot > until:
        return True
    for _ in range(24):
        if slot.hour not in NIGHT_HOURS and not _resting(quiet, slot):
            return False
        if slot >= until:
            return True
        slot = next_hour(slot)
    return False


def _resting(quiet: QuietSpells, when: datetime) -> bool:
    """Whether ``when``'s hour is one this home rests at (on the other days)."""
    moment = local(when, quiet.zone)
    typical = quiet.typical(moment.hour, skip_day=moment.date().toordinal())
    return typical is not None and timedelta(minutes=typical) >= RESTING
