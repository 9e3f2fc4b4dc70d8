"""Which watched devices' normal is still being learned, and until when."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from ..core.baselines import HomeBaselines
from ..core.baselines.usual_use import LEARN_DAYS

# A device never seen yet is learned for this long once it reports.
LEARNING_UNKNOWN = timedelta(days=LEARN_DAYS)
_NOT_DEVICES = frozenset({"person", "device_tracker"})


def learning_status(
    baselines: HomeBaselines, watched: Iterable[str], now: datetime
) -> dict[str, datetime]:
    """The watched devices whose normal is still being learned, and until when. Until then
    only what cannot wait is pushed about them (``core.learning_gate``)."""
    status: dict[str, datetime] = {}
    for entity_id in watched:
        if entity_id.partition(".")[0] in _NOT_DEVICES:
            continue  # who is home is followed, not learned as a device's use
        until = baselines.learning_until(entity_id)  # (``baselines.learning``, asked once)
        if until is None or now < until:
            status[entity_id] = until if until is not None else now + LEARNING_UNKNOWN
    return status
