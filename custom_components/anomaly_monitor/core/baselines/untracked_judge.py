"""The away rules asked whether somebody untracked is going about their usual day.

``UntrackedLife`` knows when this home shows life while every tracker is away and when
each motion sensor moves on most days; ``everyday_openings.used_then`` when each entrance
or window is used. Motion, an entry or a window opened while the home is empty is that
person's day (not told) when both hold: the home has shown life near that time of day on
most of the days it was empty then, and this sensor is used then on most days. Anything
else (an empty home that never showed life at that hour, a sensor not used then) is
judged by the away rules as before, and says nothing of this. A door (not a window; with
its key, if it has a lock) used at the time somebody came in by it on the same weekday a
week before, or on the home's first days, is a visitor's too (``recurring_entries``); a
lockless door the home's untracked life uses in this part of the day on most days it is
empty, opened after somebody moved about in this empty spell, is theirs (``lived_doors``).
So is a door somebody comes in by from outside near this time of day on other days,
whoever was home then (``day_arrivals``: the son back from school while his father is home,
the lodger to the laundry): the day the phones are away then, it is the same arrival.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from ..home import HomeView
from ..keyed_doors import door_of_lock, locks_of
from ..open_states import open_states
from ..phoneless_residents import lives_here_without_phone
from .clock import day_number, local
from .everyday_openings import used_then
from .home_baselines import HomeBaselines
from .keyed_entries import key_of
from .lived_doors import lived_door
from .recurring_entries import recurring_entry
from .stamped_uses import day_of
from .still_spells import keeps_a_pet


def _shown_life(baselines: HomeBaselines, home: HomeView, when: datetime) -> tuple[int, int] | None:
    # With pets in the profile, motion while empty is theirs (but where somebody lives here
    # without a phone and the sensor keeps a person's hours): entries show a person.
    pets = keeps_a_pet(home, baselines)
    return baselines.untracked.shown_life(
        baselines.away, when, pets=pets, people=lives_here_without_phone(home.window)
    )


def _life_text(life: tuple[int, int]) -> str:
    shown, empty = life
    return f"somebody without a tracker showed on {shown} of {empty} days nobody tracked was home"


def untracked_motion(
    baselines: HomeBaselines, home: HomeView, sensor: str, when: datetime
) -> str | None:
    """Why motion on ``sensor`` at ``when`` is an untracked person's usual day, or None."""
    usual = baselines.untracked.everyday_motion(sensor, when)
    if usual is None or (life := _shown_life(baselines, home, when)) is None:
        return None
    moved, days = usual
    return (
        f"{sensor} moves around {local(when, baselines.zone):%H}:00 on {moved} of {days} days "
        f"and {_life_text(life)} (an untracked resident's day)"
    )


def used_while_empty(baselines: HomeBaselines, opening: str, when: datetime) -> bool:
    """Whether ``opening`` was ever used while the home was empty, on a day before
    ``when``'s, with no tracked person coming home by it (``AwayNormal.entries``): the only
    sign that somebody without a tracker uses it at all. A door used at this hour on most
    days, but only ever with somebody tracked home (the dog let out to the patio after
    lunch), is the household's; opened while the home is empty, it is an entry."""
    today = day_number(when, baselines.zone)
    return any(day_of(stamp) < today for stamp in baselines.away.entries.get(opening, ()))


def untracked_opening(
    baselines: HomeBaselines, home: HomeView, opening: str, when: datetime
) -> int | None:
    """On how many other days ``opening`` is used near ``when``'s time of day, when that
    and the home's life while empty make it an untracked person's usual day; else None."""
    days = used_then(baselines.lonely, opening, when)
    if days is not None and not used_while_empty(baselines, opening, when):
        days = None  # only the tracked household's door: nobody untracked uses it
    if days is None or _shown_life(baselines, home, when) is None:
        # The door of somebody who lives here untracked, used in every part of the day.
        if (lived := lived_door(baselines, home, opening, when)) is not None:
            return lived
        # Or somebody came in by it at this time on the same weekday, or on the first days
        # (a door: a window opened from outside is climbed through, whatever the time).
        if home.device_class(opening) == "window":
            return None
        # A door whose lock stayed locked was forced, whenever the keyholder comes.
        if locks_of(home, opening) and key_of(home, baselines.away, opening, when) is None:
            return None
        if (days := recurring_entry(baselines.away, opening, when)) is not None:
            return days
        # Or somebody comes in by it at this time on other days, whoever was home then.
        return arrived_then(baselines, home, opening, when)
    return days


def arrived_then(
    baselines: HomeBaselines, home: HomeView, opening: str, when: datetime
) -> int | None:
    """On how many other days somebody came in from outside by ``opening`` (its door, for
    a lock) near ``when``'s time of day, whoever was home (``DayArrivals``); else None."""
    door: str | None = opening
    if home.domain(opening) == "lock":
        lock = home.info(opening)
        kept = door_of_lock(home, lock) if lock is not None else None
        door = kept.entity_id if kept is not None else None
    if door is None or _stands_open(home, door):
        return None
    return baselines.lonely.arrivals.arrival_days(door, when)


# An arrival shuts the door behind it within a minute or two; a door standing open longer
# than this is no arrival of the household's (a back door forced at the hour the son comes
# home from school, left open: told as an entry, not 28 min later as a door left open).
ARRIVAL_OPEN = timedelta(minutes=5)


def _stands_open(home: HomeView, door: str) -> bool:
    """``door`` reads open now, and has for longer than ``ARRIVAL_OPEN`` (or since before
    the window)."""
    state = home.info(door)
    if state is None or state.state.lower() not in open_states(state.domain):
        return False
    changes = home.changes(door)
    return not changes or home.end - changes[-1].when > ARRIVAL_OPEN
