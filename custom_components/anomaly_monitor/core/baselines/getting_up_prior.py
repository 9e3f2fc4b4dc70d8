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
"""

from __future__ import annotations

from datetime import datetime, time, timedelta

from .daily_rhythm import DailyRhythm

# Most households are up by then; the median household well before.
PRIOR_LATEST_WAKE = time(10, 0)
PRIOR_TYPICAL_WAKE = time(7, 30)
PRIOR_MARGIN = timedelta(hours=2)
# A rest begun by then is the night's sleep (later: a day sleeper, a nap).
NIGHT_BY = time(3, 0)


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
    return (latest, len(seen)), (typical, len(seen)), PRIOR_MARGIN
