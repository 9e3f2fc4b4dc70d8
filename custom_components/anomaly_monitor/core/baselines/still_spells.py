"""A pet the home's own days show: something moves while every tracker is away, and nothing
is opened.

The away rules read motion while the home is empty as a person's (somebody inside, a
home lived in while the trackers are away) unless the profile names a pet (``pets``). A
profile says "Moose, our goldendoodle", "Chancla (chiweenie)", "a Pretinha (cachorra)" or
nothing at all: no list of words knows every breed in every language. The home shows it
instead. A person who stays in while the trackers are out, or comes in, opens something on
the way (the door they come in by, a room's door, a cupboard, the lock); a dog or a cat
only moves. An away spell in which a motion sensor moved while nothing was opened, up to
the household's own return (``ARRIVAL_REACH`` before the first tracker home: their door),
is a *still spell*; its day is kept (``AwayNormal.still_days``). On ``PET_DAYS`` earlier days
of them the home keeps a pet (``keeps_a_pet``), as if the profile had named one, where the
away rules ask whether the home *is lived in* while the trackers are out
(``untracked_judge``, ``lived_doors``): the dog's motion is no untracked person's day, and a
door opened at the hour it moves (the back door kicked in at 11:20) is not taken for theirs.

Who is *inside* now (``somebody_in``'s walk) still reads every motion as before: a
grandmother who stays in without opening anything watched makes still spells too, and her
motion before she opens the door is her, not a pet (her nap, then her room).
"""

from __future__ import annotations

from collections.abc import Container, Iterable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from ..pets import has_pets
from .clock import day_number
from .stored_spell import SIGN

if TYPE_CHECKING:
    from ..home import HomeView
    from .home_baselines import HomeBaselines

# Earlier still spells on this many days make the home one that keeps a pet.
PET_DAYS = 2


def still_spell(
    spell: Iterable[tuple[datetime, str, str]],
    began: datetime,
    returned: datetime,
    reach: timedelta,
    motion_sensors: Container[str],
) -> bool:
    """Whether the away spell from ``began`` to ``returned`` showed motion (on one of
    ``motion_sensors``) before the household's return (within ``reach`` of ``returned``)
    and nothing opened or used before it: no opening, no contact's use, no bed left."""
    moved = False
    for when, entity_id, kind in spell:
        if when < began:
            continue
        if when >= returned - reach:
            break
        if kind != SIGN or entity_id not in motion_sensors:
            return False  # a door, a lock, a contact used inside: a person
        moved = True
    return moved


def keeps_a_pet(home: HomeView, baselines: HomeBaselines) -> bool:
    """The profile names a pet, or the home's own days show one (``PET_DAYS`` earlier
    days with a still spell)."""
    if has_pets(home.window.profile):
        return True
    today = day_number(home.end, baselines.zone)
    return sum(1 for day in baselines.away.still_days if day < today) >= PET_DAYS
