"""A door that stands open here: open most of the time it has been watched.

``entry_left_open`` asks how long a door stays open on most days at that quarter of the
day (``UsualUse.usual_open``), from stays that *ended*. A bedroom or hall door that
stands open for days and is shut only for a day sleep has few ended stays at any quarter:
reopened at 14:13 after the sleep it is "seldom open here" and told at 15 min; a door
open two days running is told at twice the longest single day. Its normal is the other
way round: open is where it rests, and being open is no news.

From the stays ``StateDurations`` accounted (ended ones; the stay under way never makes
itself normal): a sensor open for at least ``REST_SHARE`` of ``MIN_WATCHED`` or more of
accounted time stands open here (``stands_open``). Doors shut at rest (entrances,
fridges, a garage) are untouched; one left open while the household sleeps is
``open_while_asleep``'s (longer than it has ever stood open).
"""

from __future__ import annotations

from datetime import timedelta

from .durations import StateDurations

# Open at least this share of the accounted time: open is where it rests.
REST_SHARE = 0.5
# Accounted time (open and shut) before the share means anything.
MIN_WATCHED = timedelta(days=2)
# A shut no longer than a use of the room (a bath, a prayer's ablutions).
SHORT_SHUT = timedelta(minutes=15)


def open_share(durations: StateDurations, entity_id: str) -> tuple[float, timedelta] | None:
    """(share of the accounted time it was open, accounted time); None before
    ``MIN_WATCHED``."""
    per_state = durations.stays.get(entity_id, {})
    opened = sum(bucket[1] for bucket in per_state.get("on", ()))
    shut = sum(bucket[1] for bucket in per_state.get("off", ()))
    watched = timedelta(minutes=opened + shut)
    if watched < MIN_WATCHED:
        return None
    return opened / (opened + shut), watched


def stands_open(durations: StateDurations, entity_id: str) -> bool:
    """Whether the opening sensor ``entity_id`` is open most of the time here."""
    share = open_share(durations, entity_id)
    return share is not None and share[0] >= REST_SHARE
