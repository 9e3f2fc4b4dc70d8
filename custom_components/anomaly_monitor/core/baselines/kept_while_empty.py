"""An hour a load keeps by itself while the home is empty: its run is expected then too.

``meter_run_missing`` expects nothing of an empty home: a run that follows the household
(a kettle, an oven, an air conditioner in the afternoons) does not come when nobody is in.
A load on its own humidistat, timer or thermostat keeps its hours whoever is home, and in a
home that is often empty (a second home, a holiday flat, a long shift) that is when its
failure matters most: nobody notices a dehumidifier stopped with its bucket full, a pool
pump's timer that tripped, a heat-trace cable cut out.

A meter keeps ``hour`` by itself when it drew then on every one of the ``MIN_DAYS`` or more
days that hour was watched with the home empty, and on each of those days it also stood
idle at some hour watched (it comes and goes on its own; a load simply left on all week is
no habit, and when it is switched off nothing is missing). Nothing new is stored: the bits
are ``MeterHours``'. No role and no word of a name.

A load used by somebody no tracker follows (a grandfather's CPAP at bedtime, the family
out at a wedding) keeps its hour whoever is home too: one that drew at ``hour`` on every
day that hour was watched (``WHOEVER_DAYS`` at least), the home empty then on one of them
or more, each time *started* while it was empty (idle at an hour just before, nobody home
then either: a 3D print started before the family left and running on is theirs), and
came and went on each, is expected of an empty home as of a lived-in one while somebody is
seen in it (``meter_habits`` asks: moved or opened since the trackers left; a flat empty by
every sign has nobody to use it)
(``kept_whoever_is_home``; set 24 b: the CPAP used on every night, the nights the family
were out too, not used on the baraat night, never told).
"""

from __future__ import annotations

from .meter_hours import MeterHours

# Days the hour was watched with the home empty, the meter drawing on each.
MIN_DAYS = 3
# Days the hour was watched (home or empty), the meter drawing on each, for a load kept
# whoever is home.
WHOEVER_DAYS = 5
# Hours before it looked back at for its start while the home was empty.
STARTED_WITHIN = 3


def _came_and_went(meters: MeterHours, masks: list[int], days: int) -> bool:
    """On each of ``days`` (bits) the meter stood idle through some hour watched."""
    idle_on = 0
    for other in range(24):
        idle_on |= meters.watched[other] & ~masks[other]
    return idle_on & days == days


def kept_while_empty(meters: MeterHours, meter: str, hour: int, day: int) -> int | None:
    """Days the meter drew at ``hour`` with the home empty, before local day ``day``, when it
    did on every such day (``MIN_DAYS`` at least) and came and went on each; else None."""
    masks = meters.runs.get(meter)
    if masks is None:
        return None
    empty = meters.watched[hour] & ~meters.home[hour] & meters.before(day)
    count = empty.bit_count()
    if count < MIN_DAYS or masks[hour] & empty != empty:
        return None
    if not _came_and_went(meters, masks, empty):
        return None  # drawn all day long on one of them: left on, not a habit
    return count


def kept_whoever_is_home(meters: MeterHours, meter: str, hour: int, day: int) -> int | None:
    """Days the meter drew at ``hour`` before local day ``day``, when it did on every day
    that hour was watched (``WHOEVER_DAYS`` at least), the home empty then on one or more,
    started on each of those while it was empty (within ``STARTED_WITHIN`` hours before)
    and came and went; else None."""
    masks = meters.runs.get(meter)
    if masks is None:
        return None
    watched = meters.watched[hour] & meters.before(day)
    empty = watched & ~meters.home[hour]
    count = watched.bit_count()
    if count < WHOEVER_DAYS or not empty or masks[hour] & watched != watched:
        return None
    started_empty = 0  # days it stood idle at an hour before, the home empty then too
    for before in range(max(0, hour - STARTED_WITHIN), hour):
        started_empty |= meters.watched[before] & ~meters.home[before] & ~masks[before]
    if started_empty & empty != empty:
        return None  # started by the household before they left: theirs, not kept
    return count if _came_and_went(meters, masks, empty) else None
