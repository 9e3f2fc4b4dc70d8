"""A tracker's blink at a start: away for seconds right after HA starts, then home again.

Trackers that HA sets only once they report (legacy ``see``, ping, nmap, bluetooth) read
``not_home`` from HA's start until their first report, seconds later; the person follows
them. Learned as a departure and an arrival, the return started the occupants' quiet
spell anew and ended an open "nobody has moved" notice (the walk of session 31: both
residents "came home" 15 s after a restart, and the fall notice read "Over"; nobody had
moved). So an away of a person or tracker that was home, set within ``BLIP_LIMIT`` of the
moment learning resumed (or while HA started, before it), is held back like a no-state
(``state_blips.BlipHold``): back home within ``BLIP_LIMIT`` it is nothing; longer, it is
learned at its own time (somebody left while HA was down). A short away at any other
time is learned as it is: only a start makes trackers blink.

A template lock blinks too: it reads ``unlocked`` for a moment as HA starts, before its
template renders ``locked`` (walk 59: learned as a use of the lock in the empty home, an
entry of the away spell). Held back the same way: locked again within ``BLIP_LIMIT`` it
was nobody; still unlocked, it was unlocked while HA was down, learned at its own time.
The analysed window reads it so too (``opening_uses``).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from ..occupancy import presence_of
from ..state_blips import BLIP_LIMIT

# Rows written while HA started, before learning resumed: HA's start takes seconds to a
# few minutes under load (the recorder is down while HA is, so nothing older is a start's).
START_LEAD = timedelta(minutes=5)
PRESENCE_DOMAINS = frozenset({"person", "device_tracker"})


def blinks_away(
    resumed: datetime | None, when: datetime, domain: str, state: str, before: str | None
) -> bool:
    """Whether ``state`` at ``when`` (the last learned ``before``) may be a start's blink:
    a person or tracker that was home reading away around the moment learning
    ``resumed`` (None: not after a start)."""
    if resumed is None or domain not in PRESENCE_DOMAINS or not _near(resumed, when):
        return False
    return presence_of(state) is False and before is not None and presence_of(before) is True


def lock_blinks(
    resumed: datetime | None, when: datetime, domain: str, state: str, before: str | None
) -> bool:
    """Whether ``state`` at ``when`` may be a lock's blink at a start: a lock last learned
    locked (``before``; not through a no-state held meanwhile, whose return is nobody's
    doing anyway) reading unlocked around the moment learning ``resumed``."""
    return (
        resumed is not None
        and domain == "lock"
        and _near(resumed, when)
        and state == "unlocked"
        and before == "locked"
    )


def _near(resumed: datetime, when: datetime) -> bool:
    return resumed - START_LEAD <= when <= resumed + BLIP_LIMIT


def may_be_blinking(
    state: str, since: datetime, start: tuple[datetime, datetime | None] | None, now: datetime
) -> bool:
    """Whether a person reading ``state`` since ``since`` may be in a start's blink at
    ``now``: away, set while HA started (``start``: its first state's moment, and when it
    said it had started, None while it starts; None: no start, a reload) or within
    ``BLIP_LIMIT`` after, for less than ``BLIP_LIMIT`` yet. Who is home then counts it as
    unknown, never as away: in the walk of session 32 the first analysis after a restart
    ran in the blink and told "Front door lock unlocked while nobody is home" with both
    residents in bed."""
    if start is None or presence_of(state) is not False or now - since > BLIP_LIMIT:
        return False
    began, ended = start
    return began - START_LEAD <= since and (ended is None or since <= ended + BLIP_LIMIT)
