"""What a restart may take off the screen without losing it.

An ended anomaly's "Over: ..." notice and repair issue stay a day
(``FEEDBACK_AFTER_END``), then the monitor forgets them. When that day runs out while
Home Assistant is down (a power cut), the restart is the first moment the monitor can
forget them: gone after the restart, but expired, not lost. Every other notice or issue
on the screen before a restart and missing after it is lost.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from custom_components.anomaly_monitor.anomalies.tracker import FEEDBACK_AFTER_END

from .observer import Cleared


def expired_while_down(gone: Iterable[str], cleared: Iterable[Cleared], now: datetime) -> set[str]:
    """The ids among ``gone`` (notification or issue ids, ending in ``_{anomaly key}``)
    whose anomaly was over (a "resolved" cleared event) a day or more before ``now``."""
    over = {c.anomaly_id: c.when for c in cleared if c.reason == "resolved"}
    expired: set[str] = set()
    for item in gone:
        ended = over.get(item.rsplit("_", 1)[-1])
        if ended is not None and now - ended >= FEEDBACK_AFTER_END:
            expired.add(item)
    return expired
