"""A motion sensor that moves whenever this home is empty, in every part of the day it is.

``AwayNormal.moves_at_any_hour`` takes a sensor for one that keeps no hours (a pet) when it
moved while the home was empty in ``MIN_PARTS`` parts of the day. A home that is only ever
empty in the mornings and early afternoons (a grandmother at home all day, the family out
08:30-15:30) cannot show three parts: the grandmother's room moves on ten of ten empty
mornings and afternoons, and her room at 17:00 on a Saturday (the first time the home is
empty then) was told as "seldom moves at 16-20 h while nobody is home".

A sensor that moved on ``MOST_AWAY`` of the empty days in every part of the day the home
was lived empty on ``MIN_DAYS`` days at least, ``LIVED_PARTS`` such parts at least, moves
whenever the home is empty: whoever moves there (a pet, somebody without a tracker) does
so at whatever hour the home is empty, also at one not yet lived empty. Read by the motion
judge only (``away_motion_judge``): what counts as a sign of a person inside
(``somebody_in``) is unchanged. A sensor that stays still in one of those parts, or a home
lived empty in one part only, is judged as before.
"""

from __future__ import annotations

from datetime import datetime

from .away_normal import MIN_DAYS, MOST_AWAY, PARTS, AwayNormal
from .clock import day_number

# Parts of the day lived empty (each on ``MIN_DAYS`` days) a sensor must move in.
LIVED_PARTS = 2


def moves_whenever_empty(away: AwayNormal, sensor: str, when: datetime) -> tuple[int, int] | None:
    """(days it moved, days lived empty) over the parts of the day lived empty, other than
    ``when``'s own day, when it moved on most of them in each; None when it did not."""
    parts = away.motion.get(sensor)
    if parts is None:
        return None
    today = day_number(when, away.zone)
    lived = moved_total = empty_total = 0
    for part in range(PARTS):
        empty = {day for day in away.away_days[part] if day != today}
        if len(empty) < MIN_DAYS:
            continue
        moved = {day for day in parts[part] if day != today}
        if len(moved) < MIN_DAYS or len(moved) < MOST_AWAY * len(empty | moved):
            return None  # still in a part the home is empty: it keeps hours
        lived += 1
        moved_total += len(moved)
        empty_total += len(empty | moved)
    return (moved_total, empty_total) if lived >= LIVED_PARTS else None
