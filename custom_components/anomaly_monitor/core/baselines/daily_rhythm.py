"""The household's day, learned: when it gets up.

- **When the household gets up.** A *rest* is a run of quiet spells (no motion) of at
  least ``REST_GAP`` each, joined across short bouts of movement (a night-time toilet trip:
  up, hall, bathroom, back to bed within ``TRIP``). The rest ends at the first movement
  that goes on for longer than a trip: that is the day's first activity, unless it began
  in the small hours and the household rests again within ``BACK_TO_BED`` of it (a
  restless night: up for half an hour at 03:00, asleep again until 07:00): then the
  night's rest goes on and the day's wake is the later one. Per local day we
  keep the longest rest (of at least ``MIN_REST``) that ended on it, with its end as the
  day's wake time; a shift worker who sleeps by day is learned rising in the afternoon.
  Nothing is learned while everybody is known to be away.
At which hours each power meter runs is ``MeterHours``'s (``meter_hours.py``).

Bounded (``DAYS_KEPT`` wake days); stored compactly, untrusted when
read back (a malformed part is dropped, never raised).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from datetime import datetime, timedelta, tzinfo
import math
from typing import Any

from .clock import day_number, format_time, local, parse_time
from .packed import pack, unpack

# A quiet spell this long is rest (sleep, a nap), not a pause in the day.
REST_GAP = timedelta(minutes=45)
# Movement for at most this long between two rests is a trip, not getting up.
TRIP = timedelta(minutes=20)
# Movement for at most this long before resting again is a restless night's bout, not
# the day begun: the night's rest goes on across it.
BACK_TO_BED = timedelta(minutes=90)
# ... when it began in the small hours: sitting still after getting up is no night.
NIGHT_ENDS = 5
# A rest this long is the night's sleep (or a shift worker's day sleep).
MIN_REST = timedelta(hours=3)
# Days of wake times kept (four weeks follow a changing routine).
DAYS_KEPT = 28
_MAX_DAY = 3_652_059
_MINUTES_PER_DAY = 24 * 60


def is_weekend(day: int) -> bool:
    """Whether the local day ordinal ``day`` is a Saturday or a Sunday."""
    return day % 7 in (6, 0)  # ordinal 1 (0001-01-01) is a Monday


class DailyRhythm:
    """Wake times per day; O(1) per event."""

    def __init__(self, zone: tzinfo | None) -> None:
        self.zone = zone
        # (day ordinal, wake minute of the local day, rest minutes), oldest first.
        self.wakes: deque[tuple[int, int, int]] = deque(maxlen=DAYS_KEPT)
        self.last_move: datetime | None = None
        self.rest_since: datetime | None = None  # the rest under way began then
        self.bout_start: datetime | None = None  # movement after a rest began then
        self.away = False
        # The last rest closed (began, ended) while it may still go on (``BACK_TO_BED``);
        # not stored: a restart loses at most one night's continuation.
        self.closed_rest: tuple[datetime, datetime] | None = None
        # The last rest ended (began, ended), however short: a night broken by a bout of
        # settling a child is still the household's night (not stored either).
        self.last_rest: tuple[datetime, datetime] | None = None

    # --- getting up --------------------------------------------------------------------

    def movement(self, when: datetime) -> None:
        """Someone moved at ``when`` (motion seen or cleared)."""
        if self.away or (self.last_move is not None and when < self.last_move):
            return
        last = self.last_move
        self.last_move = when
        if last is None:
            return
        if when - last >= REST_GAP:
            if self.rest_since is None:
                self.rest_since = last
                closed = self.closed_rest
                if (
                    closed is not None
                    and last - closed[1] <= BACK_TO_BED
                    and local(closed[1], self.zone).hour < NIGHT_ENDS
                ):
                    self._back_to_bed(*closed)
            self.bout_start = when
        elif self.bout_start is not None and when - self.bout_start > TRIP:
            self._close()

    def _back_to_bed(self, rest: datetime, woke: datetime) -> None:
        """The rest that ended at ``woke`` goes on: its wake was a restless night's bout."""
        self.rest_since, self.closed_rest = rest, None
        moment = local(woke, self.zone)
        if self.wakes and self.wakes[-1][:2] == (
            moment.toordinal(),
            moment.hour * 60 + moment.minute,
        ):
            self.wakes.pop()  # not the day's getting up (nor is it up yet: ``woke_on``)

    def presence(self, occupied: bool | None, when: datetime) -> None:
        """Everybody left (``False``), or someone is home again."""
        if occupied is False and not self.away:
            if self.bout_start is not None:
                self._close()  # got up, then left the home
            self.away = True
            self.rest_since = self.bout_start = self.closed_rest = self.last_rest = None
        elif occupied is not False and self.away:
            self.away = False
            self.last_move = when  # the occupants' spell starts at their return

    def _close(self) -> None:
        rest, wake = self.rest_since, self.bout_start
        self.rest_since = self.bout_start = self.closed_rest = None
        if rest is not None and wake is not None:
            self.last_rest = (rest, wake)
        if rest is None or wake is None or wake - rest < MIN_REST:
            return
        self.closed_rest = (rest, wake)
        moment = local(wake, self.zone)
        day = moment.toordinal()
        minute = moment.hour * 60 + moment.minute
        length = int((wake - rest).total_seconds() // 60)
        if self.wakes and self.wakes[-1][0] == day:
            if length > self.wakes[-1][2]:
                self.wakes[-1] = (day, minute, length)
        elif not self.wakes or day > self.wakes[-1][0]:
            self.wakes.append((day, minute, length))

    def resting_since(self, now: datetime) -> datetime | None:
        """When the rest under way began, or None when nobody rests (or all are away)."""
        if self.away or self.last_move is None:
            return None
        if self.rest_since is not None:
            return self.rest_since
        return self.last_move if now - self.last_move >= REST_GAP else None

    def woke_on(self, day: int) -> bool:
        """Whether a rest already ended on local day ``day`` (they got up)."""
        return bool(self.wakes) and self.wakes[-1][0] == day

    def usual_wake(
        self, day: int, quantile: float, min_days: int, *, same_kind: bool = True
    ) -> tuple[int, int] | None:
        """(minute of the day, days learned): the ``quantile`` of the wake times on the
        other days of the same kind as ``day`` (weekdays or weekends; every day without
        ``same_kind``), None with fewer than ``min_days``."""
        weekend = is_weekend(day)
        minutes = sorted(
            m for d, m, _ in self.wakes if d != day and (not same_kind or is_weekend(d) == weekend)
        )
        if len(minutes) < min_days:
            return None
        return minutes[max(0, math.ceil(quantile * len(minutes)) - 1)], len(minutes)

    def day_of(self, when: datetime) -> int:
        """The local day ordinal of ``when``."""
        return day_number(when, self.zone)

    # --- storage -----------------------------------------------------------------------

    def as_dict(self) -> dict[str, Any]:
        """JSON-serialisable form."""
        return {
            "wakes": pack([n for wake in self.wakes for n in wake], 0),
            "last_move": format_time(self.last_move),
            "rest_since": format_time(self.rest_since),
            "bout_start": format_time(self.bout_start),
            "away": self.away,
        }

    @classmethod
    def from_dict(cls, data: object, zone: tzinfo | None) -> DailyRhythm:
        """Rebuild from stored data; anything malformed is dropped, never raised."""
        rhythm = cls(zone)
        if not isinstance(data, Mapping):
            return rhythm
        text = data.get("wakes")
        if isinstance(text, str) and text:
            count = text.count(",") + 1
            numbers = unpack(text, count, 0, _MAX_DAY) if count <= 3 * DAYS_KEPT else None
            if numbers is not None and count % 3 == 0:
                for day, minute, length in zip(
                    numbers[::3], numbers[1::3], numbers[2::3], strict=True
                ):
                    valid = day >= 1 and minute < _MINUTES_PER_DAY and length <= 7 * 1440
                    if valid and (not rhythm.wakes or day > rhythm.wakes[-1][0]):
                        rhythm.wakes.append((int(day), int(minute), int(length)))
        rhythm.last_move = parse_time(data.get("last_move"))
        rhythm.rest_since = parse_time(data.get("rest_since"))
        rhythm.bout_start = parse_time(data.get("bout_start"))
        rhythm.away = data.get("away") is True
        return rhythm
