"""People gathered at home: two rooms or more held "on" at once, longer than ever.

A procession watched from the doorway with the relatives, a name-day on the balcony, a
midsummer night in the garden: the street, patio or balcony door stands open for hours
while people come and go by it. Nobody "left it open": the household and its guests are
there. What shows it without any word of an id is presence: the motion or occupancy
sensors of two rooms or more read "on" without a break for ``GATHERED_HELD`` at least,
each longer than its "on" stays begun at that time of day ever last here
(``household_asleep.held_rooms``; one held past ``HELD_AT_MOST`` may be stuck and counts
for nothing). One room held (somebody watching television) is no gathering: a door left
open then is still told. With every tracker away nobody is known to be gathered.

A door that shuts after each use, open while people are gathered (``entry_left_open``,
``state_longer_than_usual``), or shut while they still are, is not "left open"; one still
open once they are gone is judged as before, over its whole open spell.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from ..home import HomeView
from ..occupancy import Occupancy
from .home_baselines import HomeBaselines
from .household_asleep import held_rooms

# Each room held "on" this long without a break: people staying, not passing through.
GATHERED_HELD = timedelta(minutes=30)
# This many rooms held at once: a gathering, not one person sitting.
GATHERED_ROOMS = 2


def gathered(home: HomeView, baselines: HomeBaselines, when: datetime) -> bool:
    """Whether people are gathered at home at ``when`` (see the module)."""
    if home.occupancy is not Occupancy.OCCUPIED:
        return False
    return len(held_rooms(home, baselines, when, GATHERED_HELD)) >= GATHERED_ROOMS
