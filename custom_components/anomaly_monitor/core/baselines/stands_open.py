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

Before ``MIN_WATCHED``, the first hours read the same from the spells themselves
(``open_from_the_start``): open since it was first watched (its open state at set-up is
its first stay, so every minute since then is accounted), and every shut spell so far
short (``SHORT_SHUT``, a use of the bathroom) and ended by reopening (open now). A door
shut at set-up, shut once for long, or gone unavailable meanwhile, is not read so.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from .durations import StateDurations

# Open at least this share of the accounted time: open is where it rests.
REST_SHARE = 0.5
# Accounted time (open and shut) before the share means anything.
MIN_WATCHED = timedelta(days=2)
# A shut no longer than a use of the room (a bath, a prayer's ablutions); at cold start
# no shut spell longer than that...
SHORT_SHUT = timedelta(minutes=15)
# ...and every minute since it was first watched accounted, but for this much.
UNACCOUNTED = timedelta(minutes=10)


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


def open_from_the_start(
    durations: StateDurations, entity_id: str, watched_since: datetime | None, now: datetime
) -> bool:
    """Open since it was first watched, and every shut spell since short and ended by
    reopening (the cold-start reading of ``stands_open``, before ``MIN_WATCHED``)."""
    per_state = durations.stays.get(entity_id, {})
    current = durations.current.get(entity_id)
    if watched_since is None or current is None or current[0] != "on":
        return False  # shut now, or never seen: not known to rest open
    if set(per_state) != {"on", "off"}:
        return False  # never shut and reopened yet, or gone unavailable: a gap
    opened = sum(bucket[1] for bucket in per_state["on"])
    shut = sum(bucket[1] for bucket in per_state["off"])
    longest_shut = timedelta(minutes=durations.whole_record(entity_id, "off")[1])
    if opened < shut or longest_shut > SHORT_SHUT:
        return False
    accounted = timedelta(minutes=opened + shut) + (now - current[1])
    return accounted >= now - watched_since - UNACCOUNTED
