"""The usual quiet of hours not learned yet, read from the hours this home is awake at.

``QuietSpells`` learns an hour once somebody was home at it on ``MIN_DAYS`` days. A
household out at work and school every weekday is home by day only at weekends: its
Saturday late morning is not learned in a fortnight, nor the odd weekday one of them
stays home, and a fall then was never judged (nothing told until somebody came home).
Yet the home has told how still it is while awake: the hours it is home at every day
(the mornings, the evenings). Somebody awake in this home is never still for longer than
those hours' usual longest quiet, whatever the hour.

So an hour of the day not learned, outside the night (``still_in_room.NIGHT_HOURS``: the
hours a home may rest at before they are learned), is judged by the longest usual quiet of
the hours learned that the home is awake at (none of the night, and below
``still_in_room.RESTING``: a siesta is a rest), once at least ``MIN_AWAKE_HOURS`` of them
are learned. A nap at an hour not learned is not known either way; the hours learned
bound what awake is here.
"""

from __future__ import annotations

from datetime import datetime

from .clock import hour_start, local, next_hour
from .quiet_spells import QuietSpells
from .still_in_room import NIGHT_HOURS, RESTING

# Hours of the day learned, below the rest's usual, before they say how still it is awake.
MIN_AWAKE_HOURS = 4


def awake_longest(
    quiet: QuietSpells, skip_day: int, *, lived: bool = False, twice: bool = False
) -> float | None:
    """The longest usual quiet (minutes) of the learned hours this home is awake at (by
    day, below ``RESTING``); None while fewer than ``MIN_AWAKE_HOURS`` are learned."""
    rest = RESTING.total_seconds() / 60
    awake = [
        usual
        for hour in range(24)
        if hour not in NIGHT_HOURS
        and (usual := quiet.typical(hour, skip_day=skip_day, lived=lived, twice=twice)) is not None
        and usual < rest
    ]
    return max(awake) if len(awake) >= MIN_AWAKE_HOURS else None


def usual_over(
    quiet: QuietSpells,
    start: datetime,
    end: datetime,
    *,
    lived: bool = False,
    twice: bool = False,
) -> float | None:
    """``QuietSpells.typical_over``, with an hour of the day not learned (none of the
    night) read as the longest of the hours the home is awake at (see the module); None
    when such an hour is of the night, or the awake hours are not learned either."""
    slots: dict[int, int] = {}
    slot = hour_start(local(start, quiet.zone))
    stop = local(end, quiet.zone)
    while slot <= stop and len(slots) < 24:
        slots[slot.hour] = slot.date().toordinal()
        slot = next_hour(slot)
    values: list[float] = []
    for hour, day in slots.items():
        usual = quiet.typical(hour, skip_day=day, lived=lived, twice=twice)
        if usual is None:
            if hour in NIGHT_HOURS:
                return None
            usual = awake_longest(quiet, day, lived=lived, twice=twice)
            if usual is None:
                return None
        values.append(usual)
    return max(values) if values else None
