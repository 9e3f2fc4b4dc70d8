"""Not up yet, in a home whose mornings are not learned yet: a cautious prior.

``getting_up`` judges a rest that goes on against this household's learned wake times;
before five days are learned it says nothing, and the quiet spells' default limit counts
12 hours from the last movement: a night-time toilet trip at 05:00 moved "not up" to
17:00 in a new home (issue 27: no movement all morning after he did not get up). Until
enough days are learned, a prior stands in: households are up by ``PRIOR_LATEST_WAKE``
(late for most), and a night's rest (begun before ``NIGHT_BY``) that goes on
``PRIOR_MARGIN`` past it, nobody seen about since before ``PRIOR_TYPICAL_WAKE`` less the
usual slack, is told: at noon. Safe against false alarms: a day sleeper's rest begins in
the morning and is not judged, and a wake time already seen later than the prior (a late
riser's first days) moves it.

The mornings of the same kind (weekdays, weekends) already seen say more than the prior
about an early riser: told ``SEEN_MARGIN`` (twice a learned habit's margin) past the
latest of them, never later than the prior's noon. Without that, an 86-year-old up at
06:20 every day who did not get up on his third morning was told only at noon.
"""

from __future__ import annotations

from datetime import datetime, time, timedelta

from .daily_rhythm import DailyRhythm, is_weekend

# Most households are up by then; the median household well before.
PRIOR_LATEST_WAKE = time(10, 0)
PRIOR_TYPICAL_WAKE = time(7, 30)
PRIOR_MARGIN = timedelta(hours=2)
# A rest begun by then is the night's sleep (later: a day sleeper, a nap).
NIGHT_BY = time(3, 0)
# Mornings of the same kind seen (fewer than ``getting_up`` learns from), and the margin
# past the latest of them: twice a learned habit's.
MIN_SEEN = 1
SEEN_MARGIN = timedelta(hours=4)


def prior_wake(
    rhythm: DailyRhythm, today: int, rest: datetime, moment: datetime
) -> tuple[tuple[int, int], tuple[int, int], timedelta] | None:
    """(latest usual wake, typical wake) as (minute of the day, days learned), and the
    margin, for a home with too few days learned; None when the rest is no night's."""
    midnight = datetime.combine(moment.date(), time(), tzinfo=moment.tzinfo)
    night_by = midnight + timedelta(hours=NIGHT_BY.hour, minutes=NIGHT_BY.minute)
    if not midnight - timedelta(hours=12) <= rest < night_by:
        return None
    latest = PRIOR_LATEST_WAKE.hour * 60 + PRIOR_LATEST_WAKE.minute
    seen = [m for d, m, _ in rhythm.wakes if d != today]
    latest = max([latest, *seen])  # a late riser's first days move it
    typical = PRIOR_TYPICAL_WAKE.hour * 60 + PRIOR_TYPICAL_WAKE.minute
    kind = [m for d, m, _ in rhythm.wakes if d != today and is_weekend(d) == is_weekend(today)]
    if len(kind) >= MIN_SEEN and _due(max(kind), SEEN_MARGIN) < _due(latest, PRIOR_MARGIN):
        # An early riser's first mornings: the latest of them, with a wide margin.
        typical = min(typical, sorted(kind)[len(kind) // 2])
        return (max(kind), len(kind)), (typical, len(kind)), SEEN_MARGIN
    return (latest, len(seen)), (typical, len(seen)), PRIOR_MARGIN


def _due(minute: int, margin: timedelta) -> float:
    return minute + margin.total_seconds() / 60
