"""How long an anomaly that is over stays answerable, and where it is kept meanwhile.

An anomaly that ended is kept ``FEEDBACK_AFTER_END`` in the tracker's ``ended``, with its
repair issue (saying it is over), unless the homeowner acknowledged it: a notification is
often read minutes or hours later, and "false alarm" must still teach then. Feedback on an
ended anomaly closes its issue; a false alarm leaves its marks as on an open one (a safety
hazard's is only recorded: no occurrence is left to dismiss). Past that day its repair
issue goes, and the anomaly is kept in ``past`` until ``ANSWERABLE_FOR``: the homeowner who
reads the notification days later still answers it by its id, through the public actions
``acknowledge`` and ``mark_false_alarm`` (set 27: a water heater's backup element told left
on, acknowledged 31 hours after it cleared, and the integration had nothing to take it).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from .open_anomaly import OpenAnomaly
from .store import parse_time

# An anomaly that ended takes feedback this long (the homeowner reads it the next day).
FEEDBACK_AFTER_END = timedelta(days=1)
# ...and still takes an answer through the actions this long after it ended (a week away),
# the newest ``PAST_KEPT`` of them.
ANSWERABLE_FOR = timedelta(days=7)
PAST_KEPT = 50


def move_to_past(
    ended: dict[str, OpenAnomaly], past: dict[str, OpenAnomaly], now: datetime
) -> tuple[list[OpenAnomaly], dict[str, OpenAnomaly] | None]:
    """Move the ``ended`` anomalies past ``FEEDBACK_AFTER_END`` to ``past`` (in place;
    those moved), and the past ones kept: the newest ``PAST_KEPT`` within
    ``ANSWERABLE_FOR``, newest first (None: ``past`` is unchanged)."""
    gone = [a for a in ended.values() if now - (parse_time(a.ended) or now) >= FEEDBACK_AFTER_END]
    for anomaly in gone:
        del ended[anomaly.signature]
        past[anomaly.signature] = anomaly
    kept = sorted(
        (a for a in past.values() if now - (parse_time(a.ended) or now) < ANSWERABLE_FOR),
        key=lambda a: a.ended or "",
        reverse=True,
    )[:PAST_KEPT]
    if gone or len(kept) != len(past):
        return gone, {a.signature: a for a in kept}
    return gone, None
