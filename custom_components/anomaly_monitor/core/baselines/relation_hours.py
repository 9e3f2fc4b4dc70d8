"""When a learned follow-up came, by the local hour of its cause, and the misses since it last did.

A light that answers motion does so at some hours only: an automation's sun or light-level
condition, a person who switches it on only after dark. Over a whole day "it followed 60 %
of the time" says nothing; per local hour of the day it says "at 19:00-23:00 it came on
every time, by day never". So a motion → light pair also keeps, per hour of the day, the
onsets whose outcome is known and how many the light followed, over how many days, and the
current run of misses (the onsets since the light last followed: per hour, with the first
and last miss). An hour is a *candidate* when the light followed most onsets of it before
the run began (the run's own misses must not argue against the habit they break), and its
neighbour hours with enough onsets did too: the edge of the dark hours moves with the
season (a few minutes a day), so an hour next to a mixed one is not one either. A detector
pools the candidate hours and asks for a share there that a person's hand does not reach.

Bounded (24 hours, counts halved past ``MAX_HOUR_COUNT``) and stored as a small dict; stored
data is untrusted and a malformed one is dropped, never raised.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .clock import format_time, parse_time
from .packed import pack, unpack

HOURS = 24
MAX_HOUR_COUNT = 100
MAX_DAYS = 10_000
# The run's latest misses kept with their times (what a detector tells: since when).
MAX_MISSES = 16


def _zeros() -> list[int]:
    return [0] * HOURS


@dataclass(slots=True)
class HourlyOutcomes:
    """Per local hour: onsets with a known outcome, followed, misses of the current run."""

    onsets: list[int] = field(default_factory=_zeros)
    followed: list[int] = field(default_factory=_zeros)
    run: list[int] = field(default_factory=_zeros)
    days: int = 0  # distinct local days with an outcome
    last_day: int = 0
    run_since: datetime | None = None  # the first miss of the current run
    misses: list[datetime] = field(default_factory=list)  # its latest ``MAX_MISSES``

    def outcome(self, onset: datetime, hour: int, day: int, followed: bool) -> None:
        """The onset at ``onset`` (local ``hour`` and ``day``) was followed, or not."""
        if day != self.last_day:
            self.days = min(self.days + 1, MAX_DAYS)
            self.last_day = day
        self.onsets[hour] += 1
        if followed:
            self.followed[hour] += 1
            self.run = _zeros()
            self.run_since = None
            self.misses = []
        else:
            self.run[hour] += 1
            if self.run_since is None:
                self.run_since = onset
            self.misses = [*self.misses[-(MAX_MISSES - 1) :], onset]
        if self.onsets[hour] >= MAX_HOUR_COUNT:  # old habits fade, numbers stay bounded
            self.onsets[hour] //= 2
            self.followed[hour] //= 2
            self.run[hour] = min(self.run[hour], self.onsets[hour] - self.followed[hour])

    def before_run(self, hour: int) -> int:
        """The hour's onsets before the current run of misses."""
        return self.onsets[hour] - self.run[hour]

    def expected_hours(self, min_onsets: int, hour_share: float) -> list[int]:
        """Hours at which the effect followed at least ``hour_share`` of at least
        ``min_onsets`` onsets before the current run, as did each neighbour hour that has
        ``min_onsets`` onsets or more (the hours a detector then pools)."""

        def share_met(hour: int) -> bool | None:
            onsets = self.before_run(hour)
            if onsets < min_onsets:
                return None
            return self.followed[hour] >= hour_share * onsets

        return [
            hour
            for hour in range(HOURS)
            if share_met(hour)
            and share_met((hour - 1) % HOURS) is not False
            and share_met((hour + 1) % HOURS) is not False
        ]

    # --- storage -----------------------------------------------------------------------

    def as_dict(self) -> dict[str, Any]:
        """JSON-serialisable form (each series one line of text in HA's file)."""
        return {
            "onsets": pack(self.onsets, 0),
            "followed": pack(self.followed, 0),
            "run": pack(self.run, 0),
            "days": self.days,
            "last_day": self.last_day,
            "run_since": format_time(self.run_since),
            "misses": [format_time(when) for when in self.misses],
        }

    @classmethod
    def from_dict(cls, data: object) -> HourlyOutcomes | None:
        """Rebuild from stored data; None when anything is malformed."""
        if not isinstance(data, Mapping):
            return None
        series = [unpack(data.get(name), HOURS, 0, MAX_HOUR_COUNT) for name in _SERIES]
        days, last_day = data.get("days"), data.get("last_day")
        if any(values is None or any(v != int(v) for v in values) for values in series):
            return None
        if not (isinstance(days, int) and _count(days) and isinstance(last_day, int)):
            return None
        if not _count(last_day):
            return None
        onsets, followed, run = ([int(v) for v in values or ()] for values in series)
        if any(f > o or r > o - f for o, f, r in zip(onsets, followed, run, strict=True)):
            return None
        run_since, stored = parse_time(data.get("run_since")), data.get("misses")
        if not isinstance(stored, list) or len(stored) > MAX_MISSES:
            return None
        misses = [parse_time(when) for when in stored]
        if any(when is None for when in misses) or (any(run) and run_since is None):
            return None
        if (run_since is None) != (not misses):
            return None
        kept = [when for when in misses if when is not None]
        return cls(onsets, followed, run, days, last_day, run_since, kept)


_SERIES = ("onsets", "followed", "run")


def _count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 10**7
