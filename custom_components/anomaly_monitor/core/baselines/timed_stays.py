"""Stays that all last about as long: a timer or a fixed routine, known from a few.

A car's block heater on a timer for two hours before the morning drive, a water heater
switched on for an hour before the showers, an oven programme that runs 42 minutes: every
stay of the state lasts about as long as the others. ``long_stays`` waits for ten stays
(or six, judged at six times the longest) before it judges a device, and allows three
times the longest; a device kept by a timer shows what it does after three stays, and a
stay three times that long is no longer the timer or the routine (it was switched on by
hand and forgotten, or the timer failed). Three times, not two: an oven used an hour a
day bakes for two when guests come (the dev homes' dinner parties). A device used for as
long as each use needs (a kettle, a lamp, a heater on a cold evening) has stays of every
length: not timed, judged as before.

Timed: at least ``TIMED_STAYS`` stays (in the quarter of the day the stay began in, or
every quarter pooled) whose mean is at least ``AGREEMENT`` of the longest. A stay that
once ran long (``durations.OUTLIER_GROWTH``) or one the homeowner marked normal makes the
device no longer timed. Learned from this home only; no word of an id or a name.

A ``sensor`` of HA's ``enum`` class (an oven's or a washer's operation state) is judged
the same way in any state but the one it rests in (``resting_state``: the most time
learned), and only when timed: its states' words are not read (set 8's oven, in ``run``
42 min at a time, left on when the family went out).

Told as ``left_on_past_its_routine`` (by ``long_stays`` for a switch, ``long_runs`` for a
meter drawing a heating load): judged against the device's own learned stays, it is not
held by the learning gate (set 9's salon hood dryer, 25 min per client, left blowing after
the last client of the home's second day).
"""

from __future__ import annotations

from datetime import datetime

from ..finding_kind import FindingKind
from ..models import AnomalyType
from .durations import StateDurations, quarter_of_day

# A timer or a routine is known from this many stays...
TIMED_STAYS = 3
# ...whose mean is at least this share of the longest (every stay about as long).
AGREEMENT = 0.9
# A timed stay this many times its longest is no longer the timer's.
TIMED_FACTOR = 3.0

# Judged only against the device's own stays (its timer or routine, learned): not held
# while the home is still being learned (``learning_gate``), like a run cut short.
LEFT_ON_PAST_ITS_ROUTINE = FindingKind("left_on_past_its_routine", AnomalyType.ENERGY)


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


def resting_state(durations: StateDurations, entity_id: str) -> str | None:
    """The state an entity has spent most of its learned time in (an oven's ``inactive``,
    a washer's ``idle``): what it rests in, whatever it is called."""
    stays = durations.stays.get(entity_id)
    if not stays:
        return None
    totals = {state: sum(bucket[1] for bucket in b) for state, b in stays.items()}
    return max(totals, key=lambda state: totals[state])
