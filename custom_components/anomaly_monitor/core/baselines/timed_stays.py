"""Stays that all last about as long: a timer or a fixed routine, known from a few.

A car's block heater on a timer for two hours before the morning drive, a water heater
switched on for an hour before the showers, an oven programme that runs 42 minutes: every
stay of the state lasts about as long as the others. ``long_stays`` waits for ten stays
(or six, judged at six times the longest) before it judges a device, and allows three
times the longest; a device kept by a timer shows what it does after three stays, and a
stay twice that long is no longer the timer or the routine (it was switched on by hand
and forgotten, or the timer failed). A device used for as long as each use needs (a
kettle, a lamp, a heater on a cold evening) has stays of every length: not timed, judged
as before.

Timed: at least ``TIMED_STAYS`` stays (in the quarter of the day the stay began in, or
every quarter pooled) whose mean is at least ``AGREEMENT`` of the longest. A stay that
once ran long (``durations.OUTLIER_GROWTH``) or one the homeowner marked normal makes the
device no longer timed. Learned from this home only; no word of an id or a name.
"""

from __future__ import annotations

from datetime import datetime

from .durations import StateDurations, quarter_of_day

# A timer or a routine is known from this many stays...
TIMED_STAYS = 3
# ...whose mean is at least this share of the longest (every stay about as long).
AGREEMENT = 0.9
# A timed stay this many times its longest is no longer the timer's.
TIMED_FACTOR = 2.0


def timed_stays(
    durations: StateDurations, entity_id: str, state: str, since: datetime
) -> tuple[int, float, bool] | None:
    """(stays, longest minutes, pooled) when the stays of ``state`` all last about as long,
    for a stay begun at ``since``: the quarter of the day it began in when that quarter
    has ``TIMED_STAYS``, otherwise every quarter pooled; None when not timed."""
    stays = durations.stays.get(entity_id, {}).get(state)
    if stays is None:
        return None
    count, total, longest = stays[quarter_of_day(since, durations.zone)]
    pooled = count < TIMED_STAYS
    if pooled:
        count = sum(bucket[0] for bucket in stays)
        total = sum(bucket[1] for bucket in stays)
        longest = max(bucket[2] for bucket in stays)
    if count < TIMED_STAYS or longest <= 0 or total / count < AGREEMENT * longest:
        return None
    return int(count), longest, pooled
