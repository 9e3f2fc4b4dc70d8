"""An opening nobody was seen making, by a household that is up, at a time it is used.

``unaccompanied_opening`` tells a door or window that opened with no motion seen within
minutes. ``LonelyOpenings.regular`` knows one that goes *unseen* at that time of day on
other days. A back door stepped through to the bins at 08:40 or 17:15, a front door
opened to trick-or-treaters, is seen on most days by the kitchen sensor and missed on a
few: its unseen openings are too sparse to recur, and each is told as a surprise.

What makes such an opening ordinary is who is around and when the door is used: the
household was up (some motion in the home within ``UP_REACH`` before it; in the small
hours within ``NIGHT_UP_REACH``, shorter than the quiet ``DailyRhythm`` takes for rest)
and this sensor opens, seen or not, within ``USE_REACH`` of that time of day on
``USE_DAYS`` other days (``LonelyOpenings.uses``). An opening while the home rests
(asleep, or nobody in), or at a time this door is not used, is still told.

A door the motion sensors do not cover goes unseen whatever the time: the back door of a
kitchen whose sensor faces away, a front door opened to trick-or-treaters from the porch.
When at least ``UNSEEN_SHARE`` of its openings on other days went unseen (on
``UNSEEN_DAYS`` days or more), an unseen opening is how it is used here, at any time the
household is up (``often_unseen``). One while the home rests is still told.
"""

from __future__ import annotations

from bisect import bisect_right
from datetime import datetime, timedelta, tzinfo

from ..statistics.night import SMALL_HOURS_END, SMALL_HOURS_START
from .clock import day_number, local
from .daily_rhythm import REST_GAP
from .lonely_habits import habitual_days
from .lonely_openings import LonelyOpenings

# Motion this recently before the opening: somebody is up and about. By day people sit
# still for an hour (reading, a film) without being away or asleep; in the small hours
# a quiet longer than the household's rest is sleep.
UP_REACH = timedelta(hours=2)
NIGHT_UP_REACH = REST_GAP
# Opened within this of the time of day, on this many other days: it is used then.
USE_REACH = timedelta(minutes=90)
USE_DAYS = 3
_MINUTES = 1440
# Openings on other days that went unseen: this share of them (1 in 20, the usual bar for
# "not by chance"), on this many days, makes an unseen opening ordinary for this door.
UNSEEN_SHARE = 0.05
UNSEEN_DAYS = 2


def up_reach(when: datetime, zone: tzinfo | None) -> timedelta:
    """How recent motion must be for the household to be up at ``when``."""
    night = SMALL_HOURS_START <= local(when, zone).hour < SMALL_HOURS_END
    return NIGHT_UP_REACH if night else UP_REACH


def household_up(
    lonely: LonelyOpenings, sensor: str, moving: list[datetime], when: datetime
) -> bool:
    """Whether anybody moved within ``up_reach`` before ``sensor`` opened at ``when``: a
    motion onset in the window (sorted ``moving``), or the last one learned before it."""
    since = when - up_reach(when, lonely.zone)
    index = bisect_right(moving, since)
    if index < len(moving) and moving[index] <= when:
        return True
    moved = lonely.motion_before(sensor, when)
    return moved is not None and since < moved <= when


def used_then(lonely: LonelyOpenings, sensor: str, when: datetime) -> int | None:
    """On how many other days ``sensor`` opened near ``when``'s time of day, when on
    ``USE_DAYS`` or more; None when fewer."""
    uses = lonely.uses.get(sensor, ())
    return habitual_days(uses, when, lonely.zone, within=USE_REACH, least=USE_DAYS)


def often_unseen(lonely: LonelyOpenings, sensor: str, when: datetime) -> tuple[int, int] | None:
    """(unseen openings, openings) of ``sensor`` on days other than ``when``'s, over the
    span its openings are kept for, when at least ``UNSEEN_SHARE`` of them went unseen on
    ``UNSEEN_DAYS`` days or more; None otherwise (it is seen as a rule, or too few known)."""
    uses = lonely.uses.get(sensor, ())
    if not uses:
        return None
    today = day_number(when, lonely.zone)
    oldest = min(uses)
    used = [value for value in uses if int(value) // _MINUTES != today]
    unseen = [
        value
        for value in lonely.openings.get(sensor, ())
        if value >= oldest and int(value) // _MINUTES != today
    ]
    days = {int(value) // _MINUTES for value in unseen}
    if not used or len(days) < UNSEEN_DAYS or len(unseen) < UNSEEN_SHARE * len(used):
        return None
    return len(unseen), len(used)


def everyday_opening(
    lonely: LonelyOpenings, sensor: str, when: datetime, moving: list[datetime]
) -> bool:
    """An unseen opening the household made: up at the time, and the door used then or
    one the motion sensors often miss."""
    return household_up(lonely, sensor, moving, when) and (
        used_then(lonely, sensor, when) is not None
        or often_unseen(lonely, sensor, when) is not None
    )
