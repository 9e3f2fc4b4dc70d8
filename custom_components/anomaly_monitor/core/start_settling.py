"""What Home Assistant set as it started: not what a device did.

While HA starts, every integration sets its entities' states, and some read something
for a moment before their first real report: a template lock reads ``unlocked`` for
0.2 s before its template renders, a lock integration may report ``unlocked`` while it
connects. Those readings are real states (not the no-states of ``state_blips``), so
they were changes like any other: two turns of the key by hand and a quick restart made
"switching on and off rapidly" (4 changes within 15 s; walks of sessions 20 and 35).

The span is plain data the integration hands in (``Environment.ha_started``: HA's first
state's moment and when it said it had started, None while it still starts; None when
the monitor was set up while HA ran). A change within it, widened by ``START_MARGIN``, is
HA's start: it counts in no burst of a device's switching.
"""

from __future__ import annotations

from datetime import datetime, timedelta

# States set in the seconds around the start are the start's (an integration slow to
# come up); the same margin as the tracker's (``anomalies.ha_start``).
START_MARGIN = timedelta(seconds=5)


def set_while_starting(started: tuple[datetime, datetime | None] | None, when: datetime) -> bool:
    """Whether a change at ``when`` falls in HA's start ``started`` (None: no start known)."""
    if started is None:
        return False
    began, ended = started
    if when < began - START_MARGIN:
        return False
    return ended is None or when <= ended + START_MARGIN
