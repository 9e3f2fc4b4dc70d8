"""How long each numeric reading ever held one value, and the lowest it read before.

A roof tank's level moves four to seven times a day (the pump's morning fill, the day's
draws); the longest it ever held one value is the night's six hours. A gauge frosted over
reads 64 % for two days while the pump runs: no value is out of range, nothing changes,
and only how long it has *held* is new (``frozen_readings``). A heat cable's meter reads
182 W from the first reading on and never rests: its lowest reading before now says it
never stopped (``steady_load_stopped``).

Per entity: the hold under way (its value, since when, the household's home time then),
the longest hold that ended, when it was first read and how often it changed, and the
lowest value it held before the hold under way. A drop (unavailable, a restart's unknown)
is no change: the same value back within ``BRIDGE`` goes on with the hold (a radio drop
or a restart); back later, or with another value, the hold ends where the drop began.

The household's home time is counted here too (``presence``): a level nobody draws from
while the family is away holds for days, and is no frozen gauge.

Bounded: ``MAX_ENTITIES``. Stored as one line of numbers per entity, the open hold with
it (a restart must not start a two-day hold again); a malformed line is dropped.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
import math
from typing import Any

MAX_ENTITIES = 300
# A drop this short that comes back with the same value is no change (a restart, a radio).
BRIDGE = timedelta(hours=1)
_FIELDS = 9


class Hold:
    """One entity's hold under way and what its past holds taught (epoch seconds)."""

    __slots__ = ("changes", "first", "home_at", "longest", "lost", "lowest", "since", "value")

    def __init__(self, value: float, since: float, home_at: float) -> None:
        self.value = value
        self.since = since
        self.home_at = home_at  # the home time counted when the hold began
        self.lost: float | None = None  # unreadable since (a drop under way)
        self.longest: float | None = None  # the longest ended hold (s); None: none ended
        self.first = since
        self.changes = 0
        self.lowest: float | None = None  # the lowest value held before this hold

    def end(self, at: float) -> None:
        held = at - self.since
        if held > 0 and (self.longest is None or held > self.longest):
            self.longest = held
        self.lowest = self.value if self.lowest is None else min(self.lowest, self.value)

    def as_text(self) -> str:
        numbers = (
            self.value,
            self.since,
            self.home_at,
            -1.0 if self.lost is None else self.lost,
            -1.0 if self.longest is None else self.longest,
            self.first,
            self.changes,
            math.nan if self.lowest is None else self.lowest,
        )
        return " ".join(
            f"{n:.0f}" if i in (1, 2, 3, 5) else f"{n:.12g}" for i, n in enumerate(numbers)
        )

    @classmethod
    def from_text(cls, text: str) -> Hold | None:
        try:
            parts = [float(p) for p in text.split()]
        except ValueError:
            return None
        if len(parts) != _FIELDS - 1 or not all(math.isfinite(p) for p in parts[:7]):
            return None
        value, since, home_at, lost, longest, first, changes, lowest = parts
        if first > since or changes < 0:
            return None
        hold = cls(value, since, home_at)
        hold.lost = lost if lost >= 0 else None
        hold.longest = longest if longest >= 0 else None
        hold.first, hold.changes = first, int(changes)
        hold.lowest = lowest if math.isfinite(lowest) else None
        return hold


class ReadingHolds:
    """Per numeric entity: its hold under way and its longest; the household's home time."""

    def __init__(self) -> None:
        self.holds: dict[str, Hold] = {}
        self.home_seconds = 0.0  # counted while somebody is (or may be) home
        self._home: bool = True  # unknown counts as home: a home without trackers
        self._counted_at: float | None = None

    def home_time(self, at: float) -> float:
        """The home time counted up to ``at`` (seconds since the count began)."""
        if self._home and self._counted_at is not None and at > self._counted_at:
            return self.home_seconds + at - self._counted_at
        return self.home_seconds

    def presence(self, occupied: bool | None, when: datetime) -> None:
        """The household is home (or may be: None) or away from ``when`` on."""
        at = when.timestamp()
        self.home_seconds = self.home_time(at)
        self._counted_at = at
        self._home = occupied is not False

    def of(self, entity_id: str) -> Hold | None:
        """The entity's hold under way and what its past holds taught."""
        return self.holds.get(entity_id)

    def seed(self, entity_id: str, value: float, since: datetime) -> None:
        """The state now of an entity not read before (at set-up: unchanged since)."""
        if entity_id not in self.holds:
            self.reading(entity_id, value, since)

    def reading(self, entity_id: str, value: float | None, when: datetime) -> None:
        """``entity_id`` reads ``value`` from ``when`` on (None: unreadable)."""
        at = when.timestamp()
        hold = self.holds.get(entity_id)
        if value is None or not math.isfinite(value):
            if hold is not None and hold.lost is None:
                hold.lost = at
            return
        if hold is None:
            if len(self.holds) < MAX_ENTITIES:
                self.holds[entity_id] = Hold(value, at, self.home_time(at))
            return
        bridged = hold.lost is None or at - hold.lost <= BRIDGE.total_seconds()
        if value == hold.value and bridged:
            hold.lost = None  # back as it was: the same hold
            return
        hold.end(at if hold.lost is None else hold.lost)
        if value != hold.value:
            hold.changes += 1
        hold.value, hold.since, hold.lost = value, at, None
        hold.home_at = self.home_time(at)

    # --- storage -----------------------------------------------------------------------

    def as_dict(self) -> dict[str, Any]:
        """One line of numbers per entity, and the home time counted."""
        return {
            "home": [self.home_seconds, self._counted_at, self._home],
            "holds": {eid: hold.as_text() for eid, hold in self.holds.items()},
        }

    @classmethod
    def from_dict(cls, data: object) -> ReadingHolds:
        holds = cls()
        if not isinstance(data, Mapping):
            return holds
        home = data.get("home")
        if isinstance(home, list) and len(home) == 3:
            seconds, counted, now_home = home
            if isinstance(seconds, (int, float)) and math.isfinite(seconds) and seconds >= 0:
                holds.home_seconds = float(seconds)
            if isinstance(counted, (int, float)) and math.isfinite(counted):
                holds._counted_at = float(counted)
            holds._home = now_home is not False
        stored = data.get("holds")
        if not isinstance(stored, Mapping):
            return holds
        for entity_id, text in list(stored.items())[:MAX_ENTITIES]:
            if isinstance(entity_id, str) and isinstance(text, str):
                hold = Hold.from_text(text)
                if hold is not None:
                    holds.holds[entity_id] = hold
        return holds
