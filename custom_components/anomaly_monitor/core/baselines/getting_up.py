"""Not up yet: the night's rest goes on clearly past the time this home is usually up.

``no_movement_while_home`` judges stillness against the longest quiet spells of the hours
it covers; a stillness that began in the night covers the hours of sleep, whose spells are
the longest of the day, so on its own it would wait until the evening. The learned wake
times (``DailyRhythm``: the end of each day's longest rest, night-time trips joined in)
say when this household is usually up on days of the same kind (weekdays, weekends):
someone home, still resting from the night, ``MARGIN`` past the latest usual wake time, is
told. Before that kind of day is learned, every day learned judges with a wider margin;
before five are, a cautious prior (``getting_up_prior``).

The margin is the wakes' own spread (``spread_margin``): a household up within half an
hour of its usual time on every day learned, weekdays and weekends alike, is news an hour
past it (a grandmother up for the dawn prayer at 05:20 every day, still in bed at 06:30);
one whose mornings wander is given up to ``MARGIN`` (``ANY_DAY_MARGIN`` when judged from
every kind of day). Narrowed only once ``MIN_ANY_DAYS`` are learned with today's kind
among them (``MIN_KIND_SEEN``): nothing is known of a first weekend's lie-in.

Judged only while the persons say someone is home: a household that went away without
its trackers leaves the house as still as one that did not get up. A rest that began
after the usual wake time (a nap, back to bed after breakfast) is no night's rest; a
day on which a rest has already ended (they got up: movement for longer than a trip) is
not judged, nor is one with movement at an hour this household may get up
(``EARLY_SLACK`` before the typical wake time) after the latest usual one, or less than
``REST_GAP`` ago. A minute of movement at 06:18, before the latest usual morning, and then
nothing all morning is a trip with the night's rest going on (the rhythm's own reading),
not a day begun: a fall on the way back to bed. Seen later than that, a minute is enough
(one motion sensor sees little of a late morning).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, time, timedelta

from .clock import local
from .daily_rhythm import REST_GAP, DailyRhythm, is_weekend
from .getting_up_prior import SEEN_MARGIN, prior_wake
from .home_baselines import HomeBaselines

# How a not-up morning says so (its headline reads it: ``anomalies.texts``).
NOT_UP_WORDS = "and nobody has got up since the night"

# The latest usual wake time: this quantile of the learned days (one very late morning,
# say an illness, does not make itself normal in a fortnight of early ones).
WAKE_QUANTILE = 0.9
# Days of the same kind needed, and the margin past their latest usual wake time.
MIN_KIND_DAYS = 3
MARGIN = timedelta(hours=2)
# Without enough days of the kind: every kind of day, with a wider margin.
MIN_ANY_DAYS = 5
ANY_DAY_MARGIN = timedelta(hours=3)
# The margin from the spread: this many times how much later than the median morning the
# latest morning learned was, never under ``TIGHT_MARGIN`` (every morning within half an
# hour of the usual: an hour past it); days of today's kind seen before it narrows.
SPREAD_FACTOR = 2
TIGHT_MARGIN = timedelta(hours=1)
MIN_KIND_SEEN = 2
# Movement this long before the typical (median) wake time, or later, is getting up (a
# sensor may see one minute of it); earlier, it is a trip in the night.
EARLY_SLACK = timedelta(hours=1)


@dataclass(frozen=True, slots=True)
class NotUp:
    """When a rest that goes on is told, and the normal that says so."""

    due: datetime
    why: str


def not_up_by(baselines: HomeBaselines, now: datetime) -> NotUp | None:
    """When the rest under way is past this home's usual getting-up, or None."""
    rhythm = baselines.rhythm
    if baselines.quiet.occupied is not True:
        return None
    rest = rhythm.resting_since(now)
    today = rhythm.day_of(now)
    if rest is None or rhythm.woke_on(today):
        return None
    same_kind, margin = True, MARGIN
    moment = local(now, baselines.zone)
    kind = "at weekends" if moment.weekday() >= 5 else "on weekdays"
    learned = rhythm.usual_wake(today, WAKE_QUANTILE, MIN_KIND_DAYS)
    if learned is None:
        same_kind, margin, kind = False, ANY_DAY_MARGIN, "on the days learned"
        learned = rhythm.usual_wake(today, WAKE_QUANTILE, MIN_ANY_DAYS, same_kind=False)
    typical = rhythm.usual_wake(today, 0.5, 1, same_kind=same_kind)
    if learned is not None:
        margin = spread_margin(rhythm, today, same_kind=same_kind, widest=margin)
        if not same_kind and margin < ANY_DAY_MARGIN:
            kind = "on every day learned, weekdays and weekends alike,"
    prior = None
    if learned is None and (prior := prior_wake(rhythm, today, rest, moment)) is not None:
        learned, typical, margin = prior  # a new home: a cautious prior (getting_up_prior)
    if learned is None or typical is None:
        return None
    minute, days = learned
    midnight = datetime.combine(moment.date(), time(), tzinfo=moment.tzinfo)
    usual = midnight + timedelta(minutes=minute)
    if rest >= usual:
        return None
    moved = rhythm.last_move
    if (
        moved is not None
        and moved >= midnight + timedelta(minutes=typical[0]) - EARLY_SLACK
        and (moved >= usual or now - moved < REST_GAP)
    ):
        return None  # seen about at a usual hour of rising: up (or, just now, perhaps)
    if prior is None:
        learned_from = (
            f"{kind} this household is usually up by {usual:%H:%M} (learned from {days} days)"
        )
    elif margin == SEEN_MARGIN:
        seen = "the morning" if days == 1 else f"the {days} mornings"
        learned_from = f"on {seen} seen so far this household was up by {usual:%H:%M}"
    else:
        learned_from = (
            f"most households are up by {usual:%H:%M} (this one's mornings are not learned yet)"
        )
    return NotUp(due=usual + margin, why=f"{learned_from}, {NOT_UP_WORDS}")


def spread_margin(
    rhythm: DailyRhythm, today: int, *, same_kind: bool, widest: timedelta
) -> timedelta:
    """The margin past the usual wake time, from how far the latest morning learned (of
    today's kind, or of every day) came after the median one; ``widest`` while too few
    days are learned, or none of today's kind."""
    weekend = is_weekend(today)
    pool = [m for d, m, _ in rhythm.wakes if d != today]
    kind = [m for d, m, _ in rhythm.wakes if d != today and is_weekend(d) == weekend]
    if len(pool) < MIN_ANY_DAYS or len(kind) < MIN_KIND_SEEN:
        return widest
    judged = sorted(kind if same_kind else pool)
    spread = timedelta(minutes=judged[-1] - judged[len(judged) // 2])
    return min(widest, max(TIGHT_MARGIN, SPREAD_FACTOR * spread))
