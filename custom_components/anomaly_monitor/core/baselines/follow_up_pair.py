"""One learned cause → effect pair (``follow_ups.py``): its counts and stored form, an
onset being followed, an effect expected and not come, and whether it could come.

Stored data is untrusted: a malformed pair is dropped (None), never raised.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from .stored_values import is_stored_number

# How long after a cause's onset its effect is looked for.
REACH = timedelta(minutes=90)
MAX_COUNT = 200
# Of the effect's moves that way, at most this share came with no onset of the cause.
ALONE_SHARE = 0.25


@dataclass(slots=True)
class FollowUp:
    """One cause → effect pair: onsets counted, how often it rose or fell after them (and
    alone), the longest delays (s), and the highest level it rose to, the lowest it fell to."""

    onsets: int = 0
    ups: int = 0
    downs: int = 0
    ups_alone: int = 0
    downs_alone: int = 0
    delay_up: float = 0.0
    delay_down: float = 0.0
    top: float | None = None
    bottom: float | None = None

    def outcome(self, onset: Onset, effect: str) -> None:
        """One onset decided: whether (and how soon) the effect rose or fell after it."""
        self.onsets += 1
        if (rose := onset.rose.get(effect)) is not None:
            self.ups += 1
            self.delay_up = max(self.delay_up, rose)
            high = onset.high[effect]
            self.top = high if self.top is None else max(self.top, high)
        if (fell := onset.fell.get(effect)) is not None:
            self.downs += 1
            self.delay_down = max(self.delay_down, fell)
            low = onset.low[effect]
            self.bottom = low if self.bottom is None else min(self.bottom, low)
        if self.onsets >= MAX_COUNT:  # old habits fade, numbers stay bounded
            self.onsets, self.ups, self.downs = self.onsets // 2, self.ups // 2, self.downs // 2
            self.ups_alone //= 2
            self.downs_alone //= 2

    def direction(self, min_onsets: int, share: float, broken: bool = False) -> int:
        """+1 (it rises after the cause), -1 (falls) or 0 (no expectation); a broken
        pair's own miss does not judge it."""
        onsets = self.onsets - broken  # its own miss, counted, does not judge it
        if onsets < min_onsets:
            return 0
        if self.ups >= share * onsets and self.ups_alone <= ALONE_SHARE * self.ups:
            return 1
        if self.downs >= share * onsets and self.downs_alone <= ALONE_SHARE * self.downs:
            return -1
        return 0

    def hopeless(self) -> bool:
        """Seen often enough never to become an expectation (its slot may go)."""
        return self.onsets >= 6 and self.direction(6, 0.9) == 0

    def as_list(self) -> list[Any]:
        return [
            self.onsets,
            self.ups,
            self.downs,
            self.ups_alone,
            self.downs_alone,
            round(self.delay_up),
            round(self.delay_down),
            self.top,
            self.bottom,
        ]

    @classmethod
    def from_list(cls, item: object) -> FollowUp | None:
        if not isinstance(item, list) or len(item) != 9:
            return None
        counts, delays, levels = item[:5], item[5:7], item[7:]
        if not all(isinstance(c, int) and not isinstance(c, bool) for c in counts):
            return None
        if not all(0 <= c <= MAX_COUNT for c in counts) or max(counts[1:3]) > counts[0]:
            return None
        reach = REACH.total_seconds()
        if not all(is_stored_number(d) and 0 <= d <= reach for d in delays):
            return None
        if not all(level is None or is_stored_number(level) for level in levels):
            return None
        top, bottom = (None if v is None else float(v) for v in levels)
        onsets, ups, downs, ups_alone, downs_alone = counts
        return cls(
            onsets,
            ups,
            downs,
            ups_alone,
            downs_alone,
            float(delays[0]),
            float(delays[1]),
            top,
            bottom,
        )


class Waiting(NamedTuple):
    """An effect expected and not come: since the cause's onset, from ``level`` then; the
    lowest level since (``extreme``, a rising effect; the highest, a falling one)."""

    cause: str
    effect: str
    since: datetime
    level: float
    extreme: float
    way: int
    counted: bool = True  # its miss counted in the pair (not yet: an onset cut short)


@dataclass(slots=True)
class Onset:
    """A cause's onset within reach: the effects' levels then (read lazily, at the first
    reading after it), and when each first rose or fell by its step."""

    when: datetime
    refs: dict[str, float] = field(default_factory=dict)
    rose: dict[str, float] = field(default_factory=dict)
    fell: dict[str, float] = field(default_factory=dict)
    high: dict[str, float] = field(default_factory=dict)
    low: dict[str, float] = field(default_factory=dict)


def beyond_its_reach(pair: FollowUp, level: float, step: float) -> bool:
    """Whether ``level`` is already a step past where the cause ever took the effect (for
    a falling effect, under the lowest it fell to): what moves it there is not the cause
    (set 29: a radiator's thermostat answers the cold, read 2 min after it starts, learned
    as a fall; plugged back in with the room at 13 °C, never under 19.8 after a start)."""
    way = pair.direction(1, 0.9)
    if way > 0:
        return pair.top is not None and level > pair.top + step
    if way < 0:
        return pair.bottom is not None and level < pair.bottom - step
    return False


def could_move(pair: FollowUp, level: float, step: float) -> bool:
    """Whether the effect can move its way from ``level``: a step below the highest it ever
    rose to (a full tank, a charged battery cannot rise), above the lowest it fell to."""
    way = pair.direction(1, 0.9)
    if way > 0:
        return pair.top is None or level + step <= pair.top
    if way < 0:
        return pair.bottom is None or level - step >= pair.bottom
    return True
