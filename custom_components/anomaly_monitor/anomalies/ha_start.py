"""Home Assistant's own start: the moment it gives every entity's last change.

After a restart HA sets every state afresh, so each entity's ``last_changed`` is the
moment its integration came up, whatever the device did: a relay stuck for a day and a
door shut since last week "changed" within the same few seconds. Two findings whose
devices both read so did not begin with one act (``same_onset``, ``one_onset_readings``):
joined by that moment alone, a stuck relay was shown only as a "Then:" line inside a
"not up" notice, with no notification of its own (a real-hass walk of session 27).

The span is plain data the integration hands in (the core never asks HA): from the
earliest state change HA holds when the monitor is set up, to the moment HA said it had
started (``ended`` None while it still starts), widened by ``START_MARGIN``. Set up
while HA already runs (a reload), only the earliest change is known, so the span is
that moment alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

# States set in the seconds around the start are the start's (an integration slow to
# come up, a clock read twice).
START_MARGIN = timedelta(seconds=5)


@dataclass(frozen=True, slots=True)
class StartSpan:
    """When Home Assistant last started: the moments its states were set, not changed."""

    began: datetime
    ended: datetime | None = None  # None: still starting

    def holds(self, when: datetime) -> bool:
        """Whether a change at ``when`` may be only HA setting the state as it started."""
        if when < self.began - START_MARGIN:
            return False
        return self.ended is None or when <= self.ended + START_MARGIN


def both_at_start(start: StartSpan | None, *moments: datetime) -> bool:
    """Whether every moment falls in HA's start: no onset shared by two devices, only
    the start they were both set at."""
    return start is not None and all(start.holds(m) for m in moments)
