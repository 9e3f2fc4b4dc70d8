"""One learned cause → effect pair: onsets with a known outcome, how many the effect
followed, the last delays, and (a motion light) the outcomes by the hour; its stored form.

Stored data is untrusted: a malformed pair is dropped (None), never raised.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from .packed import unpack
from .relation_hours import HourlyOutcomes
from .relation_kinds import MOTION_LIGHT, RELATIONS
from .stored_values import is_stored_number, stored_entity_id

MAX_DELAYS = 32
MAX_COUNT = 200


@dataclass(slots=True)
class PairStats:
    """Onsets with a known outcome, how many the effect followed, and recent delays (s)."""

    kind: str
    onsets: int = 0
    followed: int = 0
    delays: deque[float] | None = None
    # By the local hour of the onset, and the misses since it last followed: a motion
    # light only (its automation answers after dark), see ``relation_hours``.
    hours: HourlyOutcomes | None = None

    def outcome(self, delay: float | None) -> None:
        """One onset decided: followed after ``delay`` seconds, or not (None)."""
        self.onsets += 1
        if delay is not None:
            self.followed += 1
            if self.delays is None:
                self.delays = deque(maxlen=MAX_DELAYS)
            self.delays.append(round(delay, 1))
        if self.onsets >= MAX_COUNT:  # old habits fade, numbers stay bounded
            self.onsets //= 2
            self.followed //= 2


def _count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_COUNT


def new_pair(kind: str) -> PairStats:
    """A pair not seen before (a motion light's keeps its outcomes by the hour too)."""
    return PairStats(kind, hours=HourlyOutcomes() if kind == MOTION_LIGHT else None)


def stored_pair(item: object) -> tuple[tuple[str, str], PairStats] | None:
    """A pair from its stored list (6 items, 7 with the hours), or None when malformed."""
    if not isinstance(item, list) or len(item) not in (6, 7):
        return None
    cause, effect, kind, onsets, followed, delays = item[:6]
    if not (stored_entity_id(cause) and stored_entity_id(effect)) or kind not in RELATIONS:
        return None
    if not (_count(onsets) and _count(followed)) or followed > onsets:
        return None
    reach = RELATIONS[kind].reach.total_seconds()
    if isinstance(delays, str):  # packed; a list before (still read)
        count = delays.count(",") + 1 if delays else 0
        delays = unpack(delays, count, 0.0, reach) if count <= MAX_DELAYS else None
    if not isinstance(delays, list):
        return None
    kept = [float(d) for d in delays[-MAX_DELAYS:] if is_stored_number(d) and 0 <= d <= reach]
    stats = PairStats(kind, onsets, followed, deque(kept, maxlen=MAX_DELAYS) if kept else None)
    if kind == MOTION_LIGHT:  # stored before the hours were kept (6 items): learned anew
        stats.hours = (HourlyOutcomes.from_dict(item[6]) if len(item) == 7 else None) or (
            HourlyOutcomes()
        )
    return (cause, effect), stats
