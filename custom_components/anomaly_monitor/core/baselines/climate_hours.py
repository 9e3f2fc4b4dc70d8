"""Whether a climate device running now runs at this time of day here.

``hvac_with_opening_open`` is left alone when the window stays open this long on most
days (a window kept ajar by habit while the heating runs as it always does). That says
nothing of the heating: a guest room's window open for the day, as on half the days, and
its air conditioner, used only at night, heating at 25 degrees with it all day is new
(set 10's Airbnb room). The window's habit excuses a room's own climate device only if
it is in its usual state for this hour too (another room's heating is how the home lives
with that window: a bedroom window open every night while the living room is heated):
the state it spends most of its learned time in (a thermostat in ``heat`` all winter),
or one it entered at this quarter of the day on at least ``MIN_STAYS`` earlier
occasions (``StateDurations``: stays per quarter of the day). Learned from this home
only; no word of an id is read.
"""

from __future__ import annotations

from datetime import datetime

from .durations import StateDurations
from .timed_stays import resting_state

# Stays begun at this quarter of the day that make running now a habit.
MIN_STAYS = 2


def runs_at_this_hour(durations: StateDurations, climate: str, state: str, now: datetime) -> bool:
    """Whether ``climate`` in ``state`` is as it usually is at this time of day: resting in
    it, or in it from this quarter of the day on ``MIN_STAYS`` earlier days; True when
    nothing is learned of it (as before)."""
    if climate not in durations.stays:
        return True  # nothing learned: the window's habit judges alone
    if resting_state(durations, climate) == state:
        return True
    current = durations.current.get(climate)
    since = current[1] if current is not None and current[0] == state else now
    usual = durations.usual(climate, state, since)
    return usual is not None and usual[0] >= MIN_STAYS
