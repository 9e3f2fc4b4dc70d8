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
"""

from __future__ import annotations

from datetime import datetime, timedelta

from .clock import hour_start, local, next_hour
from .quiet_spells import QuietSpells
from .still_in_room import RESTING

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


def _resting(quiet: QuietSpells, when: datetime) -> bool:
    """Whether ``when``'s hour is one this home rests at (on the other days)."""
    moment = local(when, quiet.zone)
    typical = quiet.typical(moment.hour, skip_day=moment.date().toordinal())
    return typical is not None and timedelta(minutes=typical) >= RESTING
