"""Named random streams: a local change to a home stays local.

Every draw of the plan comes from a stream named by what it is for (a person's day, a
sensor's day, the noise of one tracker), seeded from the scenario's seed and that name.
With one shared stream, changing one night (an incident, a routine) re-drew every later
draw of the whole home, so a benchmark figure moved by noise wherever anything changed.
Pure Python (no Home Assistant).
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta, tzinfo
import random
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .presence import Interval


class Streams:
    """Random streams of one run, by name (and by local day where draws follow days)."""

    def __init__(self, seed: int, tz: tzinfo) -> None:
        self._seed = seed
        self._tz = tz
        self._open: dict[tuple[str, ...], random.Random] = {}

    @property
    def tz(self) -> tzinfo:
        """The home's time zone (days are its local days)."""
        return self._tz

    def named(self, *name: object) -> random.Random:
        """The stream called ``name``: the same object every time it is asked for."""
        key = tuple(str(part) for part in name)
        stream = self._open.get(key)
        if stream is None:
            stream = self._open[key] = random.Random(f"{self._seed}:{':'.join(key)}")
        return stream

    def daily(self, name: str, when: datetime | date) -> random.Random:
        """``name``'s stream of the local day of ``when``: other days' draws do not move."""
        day = when.astimezone(self._tz).date() if isinstance(when, datetime) else when
        return self.named(name, day.isoformat())

    def once(self, *name: object) -> random.Random:
        """A fresh stream for one draw keyed by ``name`` (not kept: keys are many)."""
        return random.Random(f"{self._seed}:{':'.join(str(part) for part in name)}")


class DayStreams:
    """One name's streams, one per local day (a sensor's, an appliance's)."""

    def __init__(self, streams: Streams, name: str) -> None:
        self._streams = streams
        self._name = name

    def __call__(self, when: datetime) -> random.Random:
        """The stream of ``when``'s local day."""
        return self._streams.daily(self._name, when)

    def pieces(self, span: Interval) -> list[tuple[Interval, random.Random]]:
        """``span`` cut at local midnights, each part with its day's stream."""
        from .presence import Interval

        tz = self._streams.tz
        out: list[tuple[Interval, random.Random]] = []
        start = span.start
        while start < span.end:
            local = start.astimezone(tz)
            midnight = datetime.combine(local.date() + timedelta(days=1), time(0), tz)
            end = min(span.end, midnight.astimezone(span.end.tzinfo))
            out.append((Interval(start, end), self(start)))
            start = end
        return out
